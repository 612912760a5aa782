// The FlashAttention backward (python/txl/ops/flash_attn_bwd.py) compiles
// for sm_90a and ptxas accepts it. Head dim 128, fp16, causal, dQ by TMA
// reduce-add:
// - producer 24 registers, consumers 240 (setmaxnreg);
// - dV += P^T dO and dK += dS^T Q take P^T / dS^T from registers
//   (register-A wgmma, B = dO / Q MN-major);
// - the consumers meet at named barrier 10 (dS^T through shared memory)
//   and 11 (before dK overwrites the K tile the other one reads);
// - dQ: the fp32 tile goes to shared memory and is added to global memory
//   by cp.reduce.async.bulk.tensor (two 128-byte-wide boxes per tile);
// - the per-query statistics (LSE2, delta) come with Q and dO by 1-D TMA
//   boxes and are read from shared memory in the layout of S^T's columns:
//   no relayout (convert_layout of a 64-element vector) in the loop;
// - ptxas spills nothing and serializes no wgmma (the loop-variant zero keeps K's and V's wgmma
//   descriptors inside the loop; nor do the other two configurations
//   below spill).
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name flash_bwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 128]>, tensordesc<fp32[64, 64]>, *fp16:16, *fp16:16, tensordesc<fp32[64]>, i32, *fp32:16, i32, i32, i32:16, i32, i32, i32, fp32, fp32, i32, i32, fp32, *i32:16, *i32:16, 128, 2, 1, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/tma 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t/tma/flash_bwd.ptx
// RUN: FileCheck %s --check-prefix=REG < %t/tma/flash_bwd.ptx
// RUN: FileCheck %s --check-prefix=STATS < %t/tma/flash_bwd.ptx
// RUN: FileCheck %s --check-prefix=GIR < %t/tma/flash_bwd.txlgir
// No assembler warning either (wgmma serialization, C7514, included):
// OUT-NOT: warning
// OUT: compiled flash_bwd for sm_90a {{.*}}(cubin by ptxas, {{[0-9]+}} B shared, {{[0-9]+}} registers, 0 B spilled)
// REG: setmaxnreg.dec.sync.aligned.u32 24;
// CHECK: setmaxnreg.inc.sync.aligned.u32 240;
// STATS-COUNT-2: cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: ex2.approx.ftz.f32
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1; }
// CHECK: barrier.sync 10, 256;
// CHECK: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group
// CHECK: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group
// CHECK: cp.async.bulk.commit_group;
// CHECK: barrier.sync 11, 256;
// GIR-NOT: convert_layout {{.*}} : tensor<64x64xf32
// GIR-NOT: convert_layout {{.*}} : tensor<64xf32
// GIR: txlgpu.tma_store {{.*}} {reduce = "add"}

// The same at head dim 64, bf16, with dQ added by atomics from registers
// (DQ_TMA=0): they stay in the accumulator's layout (no trip through
// shared memory) and become vector reds, since nobody reads the old values.
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name flash_bwd --signature "tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 32]>, tensordesc<bf16[64, 64]>, tensordesc<fp32[64, 32]>, *bf16:16, *bf16:16, tensordesc<fp32[64]>, i32, *fp32:16, i32, i32, i32:16, i32, i32, i32, fp32, fp32, i32, i32, fp32, *i32:16, *i32:16, 64, 3, 0, 0" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/red 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=RED < %t/red/flash_bwd.ptx
// RUN: FileCheck %s --check-prefix=RED-GIR < %t/red/flash_bwd.txlgir
// RED-NOT: atom.
// RED: red.relaxed.gpu.global.add.v2.f32
// RED-GIR-NOT: convert_layout {{.*}} : tensor<64x32xf32
// RED-GIR: txl.atomic_rmw "fadd", {{.*}}txlgpu.vec = {{[2-9]}} : i32} : tensor<64x32x!txl.ptr<f32>, #txlgpu.nvmma<{version = 3

// Packed variable-length batches (VARLEN=1), head dim 128, causal with a
// sliding window: each CTA reads its sequence's bounds from cu_seqlens
// (int32 loads) and takes the same wgmma/TMA structure; the preprocess
// writes LSE2/delta per sequence, padded to whole query blocks.
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name flash_bwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 128]>, tensordesc<fp32[64, 64]>, *fp16:16, *fp16:16, tensordesc<fp32[64]>, i32, *fp32:16, i32, i32, i32:16, i32, i32, i32, fp32, fp32, i32, i32, fp32, *i32:16, *i32:16, 128, 2, 1, 1, 1, 0, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/varlen 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=VARLEN < %t/varlen/flash_bwd.ptx
// VARLEN: ld.global{{.*}}.b32
// VARLEN: setmaxnreg.inc.sync.aligned.u32 240;
// VARLEN: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1; }
// VARLEN: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name bwd_preprocess --signature "*fp16:16, *fp16:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, i32, i32, i32, *i32:16, 128, 64, 1, 1" --num-warps 4 --target sm_90a --out-dir %t/pre | FileCheck %s --check-prefix=PRE
// PRE: compiled bwd_preprocess for sm_90a {{.*}}0 B spilled)

// PINGPONG (the consumers take turns at dQ), head dim 128, fp16, causal,
// dQ by TMA: no spills or serialization either; no lockstep barrier 10:
// in a turn the light consumer arrives (barrier 12 + the heavy one's
// role) and the heavy one waits there, then computes all of dQ_i with one
// m64n128k16 chain per key half (dS^T and K from shared memory, dS^T
// transposed) and adds it by four 32-column reduce-adds.
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name flash_bwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 128]>, tensordesc<fp32[64, 64]>, *fp16:16, *fp16:16, tensordesc<fp32[64]>, i32, *fp32:16, i32, i32, i32:16, i32, i32, i32, fp32, fp32, i32, i32, fp32, *i32:16, *i32:16, 128, 2, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/pp 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=PP < %t/pp/flash_bwd.ptx
// RUN: FileCheck %s --check-prefix=PP-NO10 < %t/pp/flash_bwd.ptx
// PP-NO10-NOT: barrier.sync 10,
// PP: barrier.arrive 13, 256;
// PP: barrier.sync 12, 256;
// PP-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%r{{[0-9]+}}, {{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 1, 1;
// PP: cp.async.bulk.wait_group.read 0;
// PP-COUNT-4: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group
// PP: barrier.arrive 12, 256;
// PP: barrier.sync 13, 256;
