// An internal failure leaves a reproducer directory and names it: the
// source, the txlc command with its signature, and the IR right before the
// failing pass with the pipeline (txl-opt --run-reproducer). Forced by a
// test hook that adds a failing (or crashing) pass to the GPU stage.
//
// RUN: rm -rf %t && env TXL_REPRO_DIR=%t TXL_TEST_FORCE_INTERNAL_ERROR=fail not txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" --no-cubin --out-dir %t/out 2>&1 | FileCheck %s
// CHECK: internal error: stage 'txlgir' failed
// CHECK: forced internal failure (test hook)
// CHECK: reproducer: [[DIR:.*add_kernel-[0-9a-f]+-sm_90a-w4x1]] (command.sh replays it)
// RUN: FileCheck %s --check-prefix=CMD < %t/add_kernel-*/command.sh
// CMD: txlc source.py --kernel-name add_kernel --signature '*fp32:16, *fp32:16, *fp32:16, i32:16, 1024' --num-warps 4 --num-warpgroups 1 --num-stages 3 --num-ctas 1 --target sm_90a
// CMD: txl-opt --run-reproducer txlgir.reproducer.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/add_kernel-*/txlgir.reproducer.mlir
// IR: txlgpu.blocked
// IR: mlir_reproducer
// IR: pipeline: "builtin.module(txl-test-forced-failure)"
// RUN: cmp %examples/vector_add.py %t/add_kernel-*/source.py
//
// A crash inside a pass is caught and reported the same way.
// RUN: rm -rf %t && env TXL_REPRO_DIR=%t TXL_TEST_FORCE_INTERNAL_ERROR=crash not txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" --no-cubin --out-dir %t/out 2>&1 | FileCheck %s --check-prefix=CRASH
// CRASH: internal error: stage 'txlgir' failed
// CRASH: reproducer: {{.*}}add_kernel-
// RUN: FileCheck %s --check-prefix=IR < %t/add_kernel-*/txlgir.reproducer.mlir
//
// A user's error found by a pass leaves nothing behind.
// RUN: rm -rf %t && env TXL_REPRO_DIR=%t not txlc %S/../Inputs/too_much_smem.py --kernel-name big --signature "*fp32" --out-dir %t/out 2>&1 | FileCheck %s --check-prefix=USER
// USER: error: kernel 'big' needs
// USER-NOT: reproducer
// RUN: not ls %t/big-*
