// A kernel needing more shared memory than the target allows is a located
// compile error (it used to surface only at launch, from the driver).
// RUN: not txlc %S/../Inputs/too_much_smem.py --kernel-name big --signature "*fp32" --target sm_90a --out-dir %t 2>&1 | FileCheck %s
// RUN: not txlc %S/../Inputs/too_much_smem.py --kernel-name big --signature "*fp32" --target sm_80 --out-dir %t 2>&1 | FileCheck %s --check-prefix=SM80
// CHECK: too_much_smem.py:6:1: error: kernel 'big' needs 262144 bytes of shared memory, more than the 232448 a CTA can have on sm_90a (fewer stages or smaller tiles)
// CHECK-NEXT: def big(x_ptr):
// CHECK-NEXT: ^
// SM80: error: kernel 'big' needs {{[0-9]+}} bytes of shared memory, more than the 166912 a CTA can have on sm_80
//
// Hopper-only operations on another target are located errors (they used
// to abort in LLVM's instruction selection).
// RUN: not txlc %tutorials/gemm/step01_one_tile.py --kernel-name gemm_step01 --signature "*fp16:16, *fp16:16, *fp16:16, 128, 128, 64" --target sm_80 --out-dir %t 2>&1 | FileCheck %s --check-prefix=WGMMA80
// RUN: not txlc %tutorials/gemm/step01_one_tile.py --kernel-name gemm_step01 --signature "*fp16:16, *fp16:16, *fp16:16, 128, 128, 64" --target sm_100a --out-dir %t 2>&1 | FileCheck %s --check-prefix=WGMMA100
// RUN: not txlc %tutorials/gemm/step02_k_loop.py --kernel-name gemm_step02 --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, 128, 128, 64" --target sm_80 --out-dir %t 2>&1 | FileCheck %s --check-prefix=MBAR80
// WGMMA80: step01_one_tile.py:{{[0-9]+}}:{{[0-9]+}}: error: tl.dot on shared buffers needs sm_90a (wgmma), but the target is sm_80
// WGMMA100: error: tl.dot on shared buffers needs sm_90a (wgmma), but the target is sm_100a; the Blackwell (tcgen05) form is not implemented yet
// MBAR80: step02_k_loop.py:{{[0-9]+}}:{{[0-9]+}}: error: txl.mbar_alloc needs sm_90 or later, but the target is sm_80
