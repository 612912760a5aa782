// The FlashAttention forward's persistent launch (python/txl/ops/
// flash_attn.py, PERSISTENT=True): one CTA per SM walks the work tiles.
// Head dim 128 fp16 causal, the default schedule, two Q slots: fits shared
// memory (160 KB of Q and K/V ring plus the epilogue's conversion
// scratch, 230400 of 232448 bytes) with no spills;
// - each consumer loops over tiles (the CTA count is %nctaid.x), waits for
//   its Q slot, runs the ping-pong schedule, and after its last P V frees
//   the Q slot (one arrival by the warpgroup's leader) before its
//   epilogue's stores;
// - consumer 1 hands consumer 0 the first turn once per CTA (before its
//   tile loop), consumer 0 takes consumer 1's last arrival once (after);
// - the producer loops over tiles too: it waits until the Q slot is free,
//   then loads both Q tiles (32 KB on one barrier) and the tile's K/V
//   blocks into the ring.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *fp32:16, *fp32:16, fp32, i32, i32, *i32:16, 128, 128, 2, 1, 1, 1, 0, 0, 0, 0, 1, 2" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d128 | FileCheck %s --check-prefix=OUT128
// RUN: FileCheck %s < %t/d128/flash_fwd.ptx
// RUN: FileCheck %s --check-prefix=GIR < %t/d128/flash_fwd.txlgir
// OUT128: compiled flash_fwd for sm_90a {{.*}}(cubin by ptxas, 230400 B shared, {{[0-9]+}} registers, 0 B spilled)
// CHECK: .maxntid 384, 1, 1
// CHECK: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK-NOT: barrier.arrive 8, 256;
// CHECK: mov.u32 %r{{[0-9]+}}, %nctaid.x;
// CHECK: mbarrier.try_wait.parity
// CHECK: barrier.sync 8, 256;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK: barrier.arrive 9, 256;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: ex2.approx.ftz.f32
// CHECK: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK: barrier.arrive 8, 256;
// CHECK: mov.u32 %r{{[0-9]+}}, %nctaid.x;
// CHECK: barrier.sync 9, 256;
// CHECK: setmaxnreg.dec.sync.aligned.u32 24;
// CHECK: mov.u32 %r{{[0-9]+}}, %nctaid.x;
// CHECK: mbarrier.try_wait.parity
// CHECK: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 32768;
// CHECK: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// GIR-COUNT-4: txlgpu.convert_layout {{.*}}shared_offset
// GIR-NOT: txlgpu.convert_layout {{.*}}shared_offset
//
// The same non-causal, head dim 64 bf16 causal, and the fp8 kernel (head
// dim 128, its P buffers beside two Q slots): no spills.
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *fp32:16, *fp32:16, fp32, i32, i32, *i32:16, 128, 128, 2, 0, 1, 1, 0, 0, 0, 0, 1, 2" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d128nc | FileCheck %s --check-prefix=OUT128
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<bf16[64, 64]>, tensordesc<bf16[128, 64]>, tensordesc<bf16[128, 64]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *fp32:16, *fp32:16, fp32, i32, i32, *i32:16, 64, 128, 3, 1, 1, 1, 0, 0, 0, 0, 1, 2" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d64 | FileCheck %s --check-prefix=OUT
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp8e4nv[64, 128]>, tensordesc<fp8e4nv[128, 128]>, tensordesc<fp8e4nv[128, 128]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 128, 128, 3, 1, 1, 1, 0, 0, 0, 1, 1, 2" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/fp8 | FileCheck %s --check-prefix=OUT
// OUT: compiled flash_fwd for sm_90a {{.*}}(cubin by ptxas, {{[0-9]+}} B shared, {{[0-9]+}} registers, 0 B spilled)
//
// Head dim 256 persistent (not the default; one Q slot, freed by every
// consumer thread after the epilogue read O back through it, behind a
// proxy fence: the next Q comes by TMA over those generic writes).
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 256, 64, 2, 1, 0, 1, 0, 0, 0, 0, 1, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d256 > /dev/null
// RUN: FileCheck %s --check-prefix=D256 < %t/d256/flash_fwd.ptx
// D256: stmatrix.sync.aligned.m8n8.x4.shared.b16
// D256: fence.proxy.async.shared::cta;
// D256: bar.sync {{1[34]}}, 128;
// D256: ld.shared.v4.b32
// D256: fence.proxy.async.shared::cta;
// D256: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [global_smem+8];
//
// The dynamic order (DYNAMIC, head dim 128 causal): each consumer reads
// its next tile's number (volatile: the producer's thread 0 wrote it)
// after waiting for the Q slot; the producer takes tiles from the launch's
// counter (one atomic by thread 0, shared with its warpgroup through the
// group's barrier 15) and publishes each number before its Q loads, and
// the end past the last tile. Fits shared memory, no spills.
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *fp32:16, *fp32:16, fp32, i32, i32, *i32:16, 128, 128, 2, 1, 1, 1, 0, 0, 0, 0, 1, 2, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/dyn | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=DYN < %t/dyn/flash_fwd.ptx
// DYN: setmaxnreg.inc.sync.aligned.u32 240;
// DYN: mbarrier.try_wait.parity
// DYN: ld.volatile.global.b32
// DYN: setmaxnreg.dec.sync.aligned.u32 24;
// DYN: atom.global.gpu.acq_rel.add.u32
// DYN: bar.sync 15, 128;
// DYN: st.global.b32
// DYN: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 32768;
// DYN: st.global.b32
// DYN: mbarrier.arrive.shared.b64
