// The fp8 FlashAttention forward (python/txl/ops/flash_attn_fp8.py)
// compiles for sm_90a through ptxas without spills, head dims 128 (causal)
// and 64: e4m3 wgmmas (k32) for S and for P V, both with shared-memory
// operands (P stored, fenced for the async proxy, then the warpgroup's
// barrier), ping-pong on named barriers 8 and 9, S_j retired by
// wait_group 1 before the softmax, V^T loaded as [D, 128] boxes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %txl_src/python/txl/ops/flash_attn_fp8.py --kernel-name flash_fwd_fp8 --signature "tensordesc<fp8e4nv[64, 128]>, tensordesc<fp8e4nv[128, 128]>, tensordesc<fp8e4nv[128, 128]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, fp32, 128, 128, 3, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d128 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t/d128/flash_fwd_fp8.ptx
// RUN: FileCheck %s --check-prefix=REG < %t/d128/flash_fwd_fp8.ptx
// RUN: txlc %txl_src/python/txl/ops/flash_attn_fp8.py --kernel-name flash_fwd_fp8 --signature "tensordesc<fp8e4nv[64, 64]>, tensordesc<fp8e4nv[128, 64]>, tensordesc<fp8e4nv[64, 128]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, fp32, 64, 128, 4, 0" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d64 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=D64 < %t/d64/flash_fwd_fp8.ptx
// OUT: compiled flash_fwd_fp8 for sm_90a {{.*}}(cubin by ptxas, {{[0-9]+}} B shared, {{[0-9]+}} registers, 0 B spilled)
// CHECK: .maxntid 384, 1, 1
// CHECK: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK: bar.sync 8, 256;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// CHECK: st.shared
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync {{1[34]}}, 128;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// CHECK: bar.arrive 9, 256;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: ex2.approx.ftz.f32
// CHECK: wgmma.wait_group.sync.aligned 0;
// REG: setmaxnreg.dec.sync.aligned.u32 24;
// D64: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// D64: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
