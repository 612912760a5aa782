// The FlashAttention forward on fp8 e4m3 (python/txl/ops/flash_attn.py,
// flash_fwd with FP8=1) compiles for sm_90a through ptxas without spills,
// head dims 128 (causal) and 64: e4m3 wgmmas (k32), S with both operands
// in shared memory, P V with P from registers (txl.acc_to_dot_a: the
// register form, four 32-bit A registers, no store of P, no fence),
// ping-pong on named barriers 8 and 9, S_j retired by wait_group 1 before
// the softmax, V^T loaded as [D, 128] boxes. P_SMEM=1 (the older path,
// kept for comparison) stores P, fences it for the async proxy and takes
// the warpgroup's barrier before a shared-memory P V.
// Signature: q, k, v^T descriptors, o (bf16), lse, seqlen_q, seqlen_k,
// num_heads, group, num_m_blocks, o_row_stride, qk_scale, window_left,
// window_right, softcap_scale, cu_q, cu_k, descale_v; D, BN, STAGES,
// CAUSAL, OVERLAP, PINGPONG, LOCAL, SOFTCAP, VARLEN, FP8.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp8e4nv[64, 128]>, tensordesc<fp8e4nv[128, 128]>, tensordesc<fp8e4nv[128, 128]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 128, 128, 3, 1, 1, 1, 0, 0, 0, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d128 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t/d128/flash_fwd.ptx
// RUN: FileCheck %s --check-prefix=REG < %t/d128/flash_fwd.ptx
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp8e4nv[64, 64]>, tensordesc<fp8e4nv[128, 64]>, tensordesc<fp8e4nv[64, 128]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 64, 128, 4, 0, 1, 1, 0, 0, 0, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d64 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=D64 < %t/d64/flash_fwd.ptx
// OUT: compiled flash_fwd for sm_90a {{.*}}(cubin by ptxas, {{[0-9]+}} B shared, {{[0-9]+}} registers, 0 B spilled)
// CHECK: .maxntid 384, 1, 1
// CHECK: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK: barrier.sync 8, 256;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// CHECK-NOT: fence.proxy.async
// P (fp32 across the back edge) is rounded to e4m3 pairs and packed right
// before the P V that reads it.
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK-NOT: fence.proxy.async
// CHECK: registers ready
// CHECK-NEXT: // end inline asm
// CHECK-NEXT: wgmma.fence.sync.aligned;
// CHECK-NOT: st.shared
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1; }
// CHECK: barrier.arrive 9, 256;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: ex2.approx.ftz.f32
// CHECK: wgmma.wait_group.sync.aligned 0;
// REG: setmaxnreg.dec.sync.aligned.u32 24;
//
// P_SMEM=1: P through a shared buffer (stored, fenced, the warpgroup's
// barrier), then the shared-memory P V.
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp8e4nv[64, 128]>, tensordesc<fp8e4nv[128, 128]>, tensordesc<fp8e4nv[128, 128]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 128, 128, 3, 1, 1, 1, 0, 0, 0, 1, 0, 1, 0, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/smem | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=SMEM < %t/smem/flash_fwd.ptx
// SMEM: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// SMEM: st.shared
// SMEM: fence.proxy.async.shared::cta;
// SMEM-NEXT: bar.sync {{1[34]}}, 128;
// SMEM: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// SMEM: barrier.arrive 9, 256;
// D64: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// D64: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// D64: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1; }
//
// Every feature at once, head dim 64 (causal + sliding window + softcap +
// packed variable-length batches): no spill (the P_SMEM path keeps 4 B of
// the epilogue in local memory); the sequence's bounds come from
// cu_seqlens, the V^T box is loaded at K's coordinates swapped ([kv
// column, key row]).
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp8e4nv[64, 64]>, tensordesc<fp8e4nv[128, 64]>, tensordesc<fp8e4nv[64, 128]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 64, 128, 4, 1, 1, 1, 1, 1, 1, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/all64 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ALL < %t/all64/flash_fwd.ptx
// ALL: ld.global{{.*}}.b32
// ALL: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// ALL: cvt.rn.satfinite.e4m3x2.f32
//
// The same at head dim 128, no spill either.
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp8e4nv[64, 128]>, tensordesc<fp8e4nv[128, 128]>, tensordesc<fp8e4nv[128, 128]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 128, 128, 3, 1, 1, 1, 1, 1, 1, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/all128 | FileCheck %s --check-prefix=ALL128
// ALL128: compiled flash_fwd for sm_90a {{.*}}(cubin by ptxas, 148480 B shared, {{[0-9]+}} registers, 0 B spilled)
//
// 256-key blocks at head dim 128 (the launcher's tuning block_n=256,
// stages=2, overlap=False; grid launch): ptxas fits them without spills
// (with the overlap it spills 3.9 KB). S is one m64n256 wgmma a k32 step,
// P V takes 256 keys in eight k32 steps against V^T's [128, 256] block,
// which the producer loads as two [128, 128] boxes.
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp8e4nv[64, 128]>, tensordesc<fp8e4nv[256, 128]>, tensordesc<fp8e4nv[128, 256]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 128, 256, 2, 0, 0, 1, 0, 0, 0, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/bn256 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=BN256 < %t/bn256/flash_fwd.ptx
// BN256: wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3
// BN256: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
