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
// WGMMA100: error: tl.dot on shared buffers on sm_100a is a tcgen05 MMA: acc must be a tensor-memory buffer (txl.get_buffer of txl.tmem_alloc), got nothing (wgmma's form, accumulating in registers, needs sm_90a)
// MBAR80: step02_k_loop.py:{{[0-9]+}}:{{[0-9]+}}: error: txl.mbar_alloc needs sm_90 or later, but the target is sm_80
//
// A CTA has at most 1024 threads: num_warps x num_warpgroups x 32 beyond
// it is a located error at the kernel (ptxas used to fail, or worse).
// RUN: not txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 1024" --num-warps 64 --out-dir %t 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 1024" --num-warpgroups 1024 --out-dir %t 2>&1 | FileCheck %s --check-prefix=GROUPS
// WARPS: vector_add.py:8:1: error: num_warps = 64 x num_warpgroups = 1 makes 2048 threads per CTA, more than the 1024 a CTA can have
// GROUPS: vector_add.py:8:1: error: num_warps = 4 x num_warpgroups = 1024 makes 131072 threads per CTA, more than the 1024 a CTA can have
//
// A wgmma's accumulators cannot spill: a CTA whose threads get fewer
// registers (65536 / threads) than one instruction needs is refused at the
// dot (it was "ptxas fatal: Insufficient registers (128)").
// RUN: not txlc %tutorials/gemm/flagship.py --kernel-name gemm_ws --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, i32, i32, i32, i32, 128, 256, 64, 3, 8" --num-warps 4 --num-warpgroups 4 --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=REGS
// The flagship's roles (40 + 232 + 232 registers) leave a fourth warpgroup
// its entry share, 128: more than the CTA has (ptxas said "Insufficient
// registers (128)" at its m64n256 wgmma).
// REGS: flagship.py:248:9: error: the warpgroups' registers add up to 80896 per CTA ((40 + 232 + 232 + 128) x 128 threads), more than the 65536 a CTA has
// step07's roles at 6 warpgroups: 40 + 232 + 232 and the entry share (80)
// for the other three. (setmaxnreg.inc would wait forever for registers
// the CTA does not have; ptxas cannot see it.)
// RUN: not txlc %tutorials/gemm/step07_warp_specialized.py --kernel-name gemm_step07 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, i32, 128, 128, 64, 8" --num-warps 4 --num-warpgroups 6 --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=ROLES6
// ROLES6: step07_warp_specialized.py:{{[0-9]+}}:9: error: the warpgroups' registers add up to 95232 per CTA ((40 + 232 + 232 + 80 + 80 + 80) x 128 threads)
// Without roles, one wgmma's unspillable accumulators must fit the share
// (it was "ptxas fatal: Insufficient registers (64) ... 90 or higher").
// RUN: not txlc %tutorials/gemm/step01_one_tile.py --kernel-name gemm_step01 --signature "*fp16:16, *fp16:16, *fp16:16, 64, 128, 64" --num-warps 4 --num-warpgroups 8 --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=WGMMA
// WGMMA: step01_one_tile.py:{{[0-9]+}}:{{[0-9]+}}: error: this tl.dot's wgmma (m64n128) holds 64 accumulator registers per thread and needs about 90 registers, but a CTA of 1024 threads leaves each thread at most 64 (65536 / 1024)
// RUN: txlc %tutorials/gemm/step01_one_tile.py --kernel-name gemm_step01 --signature "*fp16:16, *fp16:16, *fp16:16, 64, 128, 64" --num-warps 4 --num-warpgroups 4 --target sm_90a --out-dir %t --no-cubin
//
// The source must be a regular file of at most 16 MiB: a device, FIFO or
// directory is refused instead of read until killed (or read as empty).
// RUN: not txlc /dev/zero --kernel-name k --signature "*i32" 2>&1 | FileCheck %s --check-prefix=DEV
// DEV: error: is not a regular file (a FIFO, socket or device)
// RUN: not txlc %S --kernel-name k --signature "*i32" 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: error: is a directory, not a source file
// RUN: rm -f %t.fifo && mkfifo %t.fifo && not txlc %t.fifo --kernel-name k --signature "*i32" 2>&1 | FileCheck %s --check-prefix=DEV
// RUN: truncate -s 17M %t.big.py && not txlc %t.big.py --kernel-name k --signature "*i32" 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: error: is 17825792 bytes, more than the 16777216 txlc compiles
