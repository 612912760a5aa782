// End-to-end: the attention ladder (tutorials/attention) compiles for sm_90a
// and the assembler accepts every step. Each step is checked for what it
// adds: step 1 the online softmax in the exp2 domain (one FMA and one ex2
// per score) on plain loads and dots; step 2 TMA loads completing on
// mbarriers (Q once, K/V in a two-stage ring), the softmax statistics
// carried in S's row layout (no shared-memory conversion in the loop); step 3
// warp specialization (setmaxnreg.dec for the producer, .inc for the
// consumers, ptxas-assembled, no spills); step 4 ping-pong on named barriers
// 8 and 9 (block 0 peeled, the loop still converting nothing); step 5
// S_{j+1} in flight under the softmax of block j (wait_group 1) with P V
// from registers (register-A wgmma); step 6 fp8 e4m3 wgmmas, P through
// shared memory (fenced for the async proxy), the K-major V^T boxes.
// RUN: rm -rf %t && mkdir -p %t

// RUN: txlc %tutorials/attention/step01_online_softmax.py --kernel-name attn_step01 --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, i32, fp32, 64, 64, 32, 1" --num-warps 4 --target sm_90a --out-dir %t/s1 | FileCheck %s --check-prefix=OUT1
// RUN: FileCheck %s --check-prefix=STEP1 < %t/s1/attn_step01.ptx
// OUT1: compiled attn_step01 for sm_90a {{.*}}, 0 B spilled)
// STEP1-NOT: mbarrier
// STEP1: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16
// STEP1: wgmma.wait_group.sync.aligned 0
// STEP1: fma.rn.f32
// STEP1: ex2.approx.ftz.f32
// STEP1: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// STEP1: @%p{{[0-9]+}} bra
// STEP1-NOT: wgmma.mma_async
// RUN: txlc %tutorials/attention/step01_online_softmax.py --kernel-name attn_step01 --signature "*bf16:16, *bf16:16, *bf16:16, *bf16:16, i32, i32, fp32, 128, 64, 32, 0" --num-warps 4 --target sm_90a --out-dir %t/s1b | FileCheck %s --check-prefix=OUT1

// Step 2: Q and two K/V blocks requested before the loop, one K/V block per
// iteration; parity waits; register-A P V.
// RUN: txlc %tutorials/attention/step02_tma_mbarriers.py --kernel-name attn_step02 --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, i32, i32, fp32, 128, 64, 128, 2, 1" --num-warps 4 --target sm_90a --out-dir %t/s2 | FileCheck %s --check-prefix=OUT2
// RUN: FileCheck %s --check-prefix=STEP2 < %t/s2/attn_step02.ptx
// RUN: FileCheck %s --check-prefix=STEP2-GIR < %t/s2/attn_step02.txlgir
// OUT2: compiled attn_step02 for sm_90a {{.*}}, 0 B spilled)
// The running max and sum are carried in the layout of S's rows (a slice
// of the wgmma accumulator's): the only conversion through shared memory
// is the epilogue's.
// STEP2-GIR-COUNT-1: txlgpu.convert_layout {{.*}}shared_offset
// STEP2-GIR-NOT: txlgpu.convert_layout {{.*}}shared_offset
// STEP2: mbarrier.init.shared.b64 [{{.*}}], 1;
// STEP2: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// STEP2-DAG: mbarrier.try_wait.parity.shared::cta.b64
// STEP2-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// STEP2-DAG: ex2.approx.ftz.f32
// STEP2-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1;
// STEP2: @p st.global.v4.b32
// RUN: txlc %tutorials/attention/step02_tma_mbarriers.py --kernel-name attn_step02 --signature "tensordesc<bf16[64, 64]>, tensordesc<bf16[128, 64]>, tensordesc<bf16[128, 64]>, *bf16:16, i32, i32, fp32, 64, 64, 128, 2, 0" --num-warps 4 --target sm_90a --out-dir %t/s2b | FileCheck %s --check-prefix=OUT2

// Step 3: three roles; the producer waits for free stages, the consumers for
// full ones and release them.
// RUN: txlc %tutorials/attention/step03_warp_specialized.py --kernel-name attn_step03 --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, i32, i32, fp32, 128, 2, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s3 | FileCheck %s --check-prefix=OUT3
// RUN: FileCheck %s --check-prefix=STEP3 < %t/s3/attn_step03.ptx
// OUT3: compiled attn_step03 for sm_90a {{.*}}(cubin by ptxas, {{.*}}, 0 B spilled)
// STEP3: .maxntid 384, 1, 1
// STEP3-DAG: mbarrier.init.shared.b64 [{{.*}}], 2;
// STEP3-DAG: setmaxnreg.inc.sync.aligned.u32 240;
// STEP3-DAG: setmaxnreg.dec.sync.aligned.u32 24;
// STEP3-NOT: bar.sync 8
// RUN: txlc %tutorials/attention/step03_warp_specialized.py --kernel-name attn_step03 --signature "tensordesc<bf16[64, 64]>, tensordesc<bf16[128, 64]>, tensordesc<bf16[128, 64]>, *bf16:16, i32, i32, fp32, 64, 3, 0" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s3b | FileCheck %s --check-prefix=OUT3

// Step 4: consumer 0 waits on 8 and hands over on 9; the loop converts
// nothing through shared memory (only the epilogue's O and mask do: two
// conversions per consumer, plus P into wgmma's A fragment in registers).
// RUN: txlc %tutorials/attention/step04_pingpong.py --kernel-name attn_step04 --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, i32, i32, fp32, 128, 2, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s4 | FileCheck %s --check-prefix=OUT4
// RUN: FileCheck %s --check-prefix=STEP4 < %t/s4/attn_step04.ptx
// RUN: FileCheck %s --check-prefix=STEP4-GIR < %t/s4/attn_step04.txlgir
// OUT4: compiled attn_step04 for sm_90a {{.*}}(cubin by ptxas, {{.*}}, 0 B spilled)
// STEP4: setmaxnreg.inc.sync.aligned.u32 240;
// STEP4: barrier.sync 8, 256;
// STEP4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// STEP4: barrier.arrive 9, 256;
// STEP4-NOT: wgmma.wait_group.sync.aligned 1;
// STEP4: setmaxnreg.inc.sync.aligned.u32 240;
// STEP4: barrier.arrive 8, 256;
// STEP4: barrier.sync 9, 256;
// STEP4-GIR-COUNT-2: txlgpu.convert_layout {{.*}}shared_offset
// STEP4-GIR-NOT: txlgpu.convert_layout {{.*}}shared_offset

// Step 5: S_j and P_{j-1} V_{j-1} issued in one turn, then wait_group 1,
// the softmax, wait_group 0.
// RUN: txlc %tutorials/attention/step05_overlap.py --kernel-name attn_step05 --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, i32, i32, fp32, 128, 2, 0" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s5 | FileCheck %s --check-prefix=OUT5
// RUN: FileCheck %s --check-prefix=STEP5 < %t/s5/attn_step05.ptx
// At head dim 128 ptxas spills one register across the consumers' loop
// (stored before it, reloaded after it; none inside) since exp2 is one
// ex2.approx.ftz: at most 8 B.
// OUT5: compiled attn_step05 for sm_90a {{.*}}(cubin by ptxas, {{.*}}, {{0|8}} B spilled)
// STEP5: barrier.sync 8, 256;
// STEP5: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// STEP5: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1;
// STEP5: barrier.arrive 9, 256;
// STEP5: wgmma.wait_group.sync.aligned 1;
// STEP5: fma.rn.f32
// STEP5: ex2.approx.ftz.f32
// STEP5: wgmma.wait_group.sync.aligned 0;
// RUN: txlc %tutorials/attention/step05_overlap.py --kernel-name attn_step05 --signature "tensordesc<bf16[64, 64]>, tensordesc<bf16[128, 64]>, tensordesc<bf16[128, 64]>, *bf16:16, i32, i32, fp32, 64, 3, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s5b | FileCheck %s --check-prefix=OUT5

// Step 6: e4m3 wgmmas (k32); P V with P from registers (its keys
// renamed by txl.acc_to_dot_a, V^T's permuted to match); S_{j+1} still
// under the softmax (wait_group 1).
// RUN: txlc %tutorials/attention/step06_fp8.py --kernel-name attn_step06 --signature "tensordesc<fp8e4nv[64, 128]>, tensordesc<fp8e4nv[128, 128]>, tensordesc<fp8e4nv[128, 128]>, *bf16:16, i32, i32, fp32, fp32, 128, 3, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s6 | FileCheck %s --check-prefix=OUT6
// RUN: FileCheck %s --check-prefix=STEP6 < %t/s6/attn_step06.ptx
// OUT6: compiled attn_step06 for sm_90a {{.*}}(cubin by ptxas, {{.*}}, 0 B spilled)
// STEP6: barrier.sync 8, 256;
// STEP6: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// P V with P from registers (txl.acc_to_dot_a): no store, no fence.
// STEP6-NOT: fence.proxy.async
// STEP6: wgmma.fence.sync.aligned;
// STEP6-NOT: st.shared
// STEP6: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1; }
// STEP6: barrier.arrive 9, 256;
// STEP6: wgmma.wait_group.sync.aligned 1;
// STEP6: ex2.approx.ftz.f32
// STEP6: wgmma.wait_group.sync.aligned 0;
// RUN: txlc %tutorials/attention/step06_fp8.py --kernel-name attn_step06 --signature "tensordesc<fp8e4nv[64, 64]>, tensordesc<fp8e4nv[128, 64]>, tensordesc<fp8e4nv[64, 128]>, *bf16:16, i32, i32, fp32, fp32, 64, 4, 0" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s6b | FileCheck %s --check-prefix=OUT6
