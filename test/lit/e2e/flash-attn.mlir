// The FlashAttention forward kernel (python/txl/ops/flash_attn.py) compiles
// for sm_90a and ptxas accepts it. Its default causal schedule (head dim
// 128, two K/V stages, intra-warpgroup overlap and ping-pong):
// - the producer gives registers back (setmaxnreg.dec 24), each consumer
//   takes 240 (setmaxnreg.inc); the kernel is assembled by ptxas, which
//   honours setmaxnreg (nvJitLink ignores it, C7504);
// - ping-pong: consumer 0 waits on named barrier 8 and hands over on 9,
//   consumer 1 the reverse (256 threads: both consumers);
// - O += P V with P from registers: register-A wgmma (four 32-bit A
//   registers, B = V MN-major: transpose bit 1);
// - S_{j+1} is in flight while block j's softmax reads S_j: wait_group 1;
// - the softmax is one FMA and one ex2 per score (libdevice's exp2: the
//   flush-to-zero form, no subnormal range check), in the accumulator's
//   layout: the only conversions through shared memory are the epilogue's
//   (two per consumer: O and its row LSE to the store layouts).
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *fp32:16, *fp32:16, fp32, i32, i32, *i32:16, 128, 128, 2, 1, 1, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d128 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t/d128/flash_fwd.ptx
// RUN: FileCheck %s --check-prefix=GIR < %t/d128/flash_fwd.txlgir
// OUT: compiled flash_fwd for sm_90a {{.*}}(cubin by ptxas, 197632 B shared, {{[0-9]+}} registers, 0 B spilled)
// CHECK: .maxntid 384, 1, 1
// CHECK: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK: barrier.sync 8, 256;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK: barrier.arrive 9, 256;
// CHECK: barrier.sync 8, 256;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1; }
// CHECK: barrier.arrive 9, 256;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: fma.rn.f32
// CHECK: ex2.approx.ftz.f32
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK: barrier.arrive 8, 256;
// CHECK: barrier.sync 9, 256;
// CHECK: setmaxnreg.dec.sync.aligned.u32 24;
// CHECK: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// GIR-COUNT-4: txlgpu.convert_layout {{.*}}shared_offset
// GIR-NOT: txlgpu.convert_layout {{.*}}shared_offset
//
// The non-causal kernel of the same schedule does not spill either.
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *fp32:16, *fp32:16, fp32, i32, i32, *i32:16, 128, 128, 2, 0, 1, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d128nc | FileCheck %s --check-prefix=OUT
//
// bf16, head dim 64, causal, the plain schedule (one wgmma group at a time).
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<bf16[64, 64]>, tensordesc<bf16[128, 64]>, tensordesc<bf16[128, 64]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *fp32:16, *fp32:16, fp32, i32, i32, *i32:16, 64, 128, 3, 1, 0, 0" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d64 > /dev/null
// RUN: FileCheck %s --check-prefix=D64 < %t/d64/flash_fwd.ptx
// D64: setmaxnreg.inc.sync.aligned.u32 240;
// D64-NOT: bar.sync 8
// D64: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1; }
// D64-NOT: wgmma.wait_group.sync.aligned 1;
//
// Head dim 256 (fp16, causal, 64-key blocks, two stages; the default
// intra-warpgroup overlap, then without it): fits shared memory because the
// epilogue stages O through the consumer's dead Q tile (a [64, 256]
// conversion scratch per warpgroup would not), no spills either way.
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 256, 64, 2, 1, 1, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d256ov | FileCheck %s --check-prefix=D256-OUT
// RUN: FileCheck %s --check-prefix=D256OV < %t/d256ov/flash_fwd.ptx
// D256OV: barrier.sync 8, 256;
// D256OV: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// D256OV: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1; }
// D256OV: wgmma.wait_group.sync.aligned 1;
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 256, 64, 2, 1, 0, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d256 | FileCheck %s --check-prefix=D256-OUT
// RUN: FileCheck %s --check-prefix=D256 < %t/d256/flash_fwd.ptx
// D256-OUT: compiled flash_fwd for sm_90a {{.*}}(cubin by ptxas, 198656 B shared, {{[0-9]+}} registers, 0 B spilled)
// D256: barrier.sync 8, 256;
// D256: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// D256: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1; }
// D256-NOT: wgmma.wait_group.sync.aligned 1;
