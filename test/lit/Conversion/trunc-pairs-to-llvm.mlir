// With TXL_TRUNC_PAIRS=1 (off by default: on the H100 it made the attention
// forward slower, ElementwiseOpToLLVM.cpp), f32 -> f16/bf16 rounding of
// tensors whose result leaves its block (carried across a loop's back edge)
// rounds registers in pairs: one fptrunc of
// <2 x float> per two registers, which NVPTX makes one cvt.rn.f16x2.f32
// where the pair is packed into a 32-bit word (ElementwiseOpToLLVM.cpp).
// With scalar cvts that the next iteration packs (P carried into the
// attention forward's register-A wgmma), ptxas pairs them into an F2FP
// with the halves swapped and a PRMT per word. Rounded and used in one
// block, registers are rounded one at a time (the instruction selector
// pairs those with their packing itself). test/gpu/test_trunc_pairs.py
// checks the bits.
// RUN: env TXL_TRUNC_PAIRS=1 txlc %txl_src/test/gpu/txl_kernels_trunc.py --kernel-name trunc_carried --signature "*fp32:16, *fp16:16, i32, 1024" --target sm_90a --out-dir %t/carried --no-cubin
// RUN: FileCheck %s --check-prefix=CARRIED < %t/carried/trunc_carried.llir
// CARRIED-NOT: fptrunc float
// CARRIED: fptrunc <2 x float> %{{[0-9]+}} to <2 x half>
// CARRIED-NOT: fptrunc float
// By default (and with TXL_TRUNC_PAIRS=0): one register at a time.
// RUN: txlc %txl_src/test/gpu/txl_kernels_trunc.py --kernel-name trunc_carried --signature "*fp32:16, *fp16:16, i32, 1024" --target sm_90a --out-dir %t/off --no-cubin
// RUN: FileCheck %s --check-prefix=OFF < %t/off/trunc_carried.llir
// OFF-NOT: fptrunc <2 x float>
// OFF: fptrunc float
// RUN: env TXL_TRUNC_PAIRS=1 txlc %txl_src/test/gpu/txl_kernels_trunc.py --kernel-name trunc_carried --signature "*fp32:16, *bf16:16, i32, 1024" --target sm_90a --out-dir %t/carried_bf16 --no-cubin
// RUN: FileCheck %s --check-prefix=BF16 < %t/carried_bf16/trunc_carried.llir
// BF16: fptrunc <2 x float> %{{[0-9]+}} to <2 x bfloat>
// RUN: env TXL_TRUNC_PAIRS=1 txlc %txl_src/test/gpu/txl_kernels_trunc.py --kernel-name trunc --signature "*fp32:16, *fp16:16, i32, 1024" --target sm_90a --out-dir %t/block --no-cubin
// RUN: FileCheck %s --check-prefix=BLOCK < %t/block/trunc.llir
// BLOCK-NOT: fptrunc <2 x float>
// BLOCK: fptrunc float
// BLOCK-NOT: fptrunc <2 x float>
//
// The attention forward's loop (head dim 64, three consumers: P rounded
// to 16 bits after the softmax, used by the next iteration's P V): pairs.
// RUN: env TXL_TRUNC_PAIRS=1 txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 64, 128, 3, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 3, 0" --num-warps 4 --num-warpgroups 4 --target sm_90a --out-dir %t/fwd --no-cubin
// RUN: FileCheck %s --check-prefix=FWD < %t/fwd/flash_fwd.ptx
// FWD: cvt.rn.f16x2.f32
// FWD: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
