// A kernel needing more shared memory than the target allows is a located
// compile error (it used to surface only at launch, from the driver).
// RUN: not txlc %S/../Inputs/too_much_smem.py --kernel-name big --signature "*fp32" --target sm_90a --out-dir %t 2>&1 | FileCheck %s
// RUN: not txlc %S/../Inputs/too_much_smem.py --kernel-name big --signature "*fp32" --target sm_80 --out-dir %t 2>&1 | FileCheck %s --check-prefix=SM80
// CHECK: too_much_smem.py:6:1: error: kernel 'big' needs 262144 bytes of shared memory, more than the 232448 a CTA can have on sm_90a (fewer stages or smaller tiles)
// CHECK-NEXT: def big(x_ptr):
// CHECK-NEXT: ^
// SM80: error: kernel 'big' needs {{[0-9]+}} bytes of shared memory, more than the 166912 a CTA can have on sm_80
