// A crash (none is known; TXL_TEST_CRASH_AT forces one at a stage) still
// says what was being compiled and how to reproduce it.
// RUN: env TXL_TEST_CRASH_AT=txlgir not --crash txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 1024" --out-dir %t 2>&1 | FileCheck %s
// CHECK: txlc: internal compiler error: crashed during stage 'txlgir', kernel 'add_kernel' of {{.*}}vector_add.py
// CHECK: txlc: reproduce with: {{.*}}txlc {{.*}}vector_add.py --kernel-name add_kernel --signature '*fp32:16, *fp32:16, *fp32:16, i32, 1024' --out-dir
// RUN: env TXL_TEST_CRASH_AT=assemble not --crash txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 1024" --out-dir %t 2>&1 | FileCheck %s --check-prefix=ASM
// ASM: crashed during stage 'assemble', kernel 'add_kernel'
