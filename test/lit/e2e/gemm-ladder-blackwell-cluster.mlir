// End-to-end: the 2-CTA rungs of the Blackwell GEMM ladder (steps 9 and
// 10) and the Blackwell flagship (fp16, bf16, fp8 e4m3) compile for
// sm_100a with num_ctas = 2, and ptxas assembles them (txlc itself hands
// the PTX to nvJitLink or ptxas; the RUN lines also run `ptxas
// -arch=sm_100a` when it is installed). No Blackwell GPU runs them here:
// what is checked is the structure of the PTX, the protocol facts of
// tcgen05 cta_group::2 and cluster launch control:
//  * (PAIR) tensor memory is allocated, relinquished and freed with
//    cta_group::2, the free after a *cluster* barrier (the peer's MMAs
//    write this CTA's tensor memory); every tcgen05.mma and commit is
//    cta_group::2 (a kernel names one CTA group), issued inside the
//    branch of one elected thread of the even CTA of the pair (the
//    ladder's kernels guard the MMA warp with `rank == 0` themselves;
//    PAIRRANK checks the predicate the compiler adds), the M = 256 in the
//    instruction descriptor; each commit is multicast (mask 3 << pair
//    base) to the barrier in both CTAs;
//  * (PAIRTMA) the TMA loads are .cta_group::2 and complete on the pair
//    leader's barrier (mapa of the local barrier to rank & ~1);
//  * (CLC) the flagship's scheduler: try_cancel with the response
//    multicast to the cluster, from CTA 0's elected thread, and the
//    response decoded by query_cancel.
// RUN: rm -rf %t && mkdir -p %t

// Step 9: one MMA warp, a 256 x 256 MMA per pair, two accumulators of
// [128, 256] (512 columns); both descriptors' instruction fields:
// f32 D, f16 A/B K-major, N = 256 (32 << 17), M = 256 (16 << 24).
// RUN: txlc %tutorials/gemm_blackwell/step09_two_cta.py --kernel-name gemm_bw_step09 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, i32, i32, i32, i32, 128, 256, 64, 64" --num-warps 4 --num-warpgroups 2 --num-ctas 2 --target sm_100a --out-dir %t/s9 > /dev/null
// RUN: FileCheck %s --check-prefix=PAIR --input-file %t/s9/gemm_bw_step09.ptx
// RUN: FileCheck %s --check-prefix=PAIRTMA --input-file %t/s9/gemm_bw_step09.ptx
// RUN: FileCheck %s --check-prefix=STEP9 --input-file %t/s9/gemm_bw_step09.ptx
// RUN: FileCheck %s --check-prefix=STEP9-IR --input-file %t/s9/gemm_bw_step09.txlgir
// RUN: FileCheck %s --check-prefix=META --input-file %t/s9/gemm_bw_step09.json
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/s9/gemm_bw_step09.ptx -o %t/s9/ptxas.cubin; fi'
// STEP9: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 65536;
// STEP9: mov.b32 %r{{[0-9]+}}, 272629776;
// STEP9-NOT: tcgen05.mma.cta_group::1
// STEP9-NOT: tcgen05.commit.cta_group::1
// STEP9-IR: txlgpu.tmem_alloc {allocColumns = 512 : i32, column = 0 : i32, twoCtas{{.*}}} : <2x128x256xf32, #txlgpu.tensor_memory>
// STEP9-IR: txlgpu.tma_load {{.*}} {twoCtas{{.*}}}
// STEP9-IR: txlgpu.tcgen05_mma {{.*}} {leaderWarp = 1 : i32, twoCtas} : <128x64xf16{{.*}}> * <64x128xf16{{.*}}> -> <128x256xf32, #txlgpu.tensor_memory>
// STEP9-IR: txlgpu.memdesc_view {{.*}} {dim = 1 : i64, permutation = array<i32: 0, 1>, start = 64 : i64} : <128x256xf32, #txlgpu.tensor_memory> -> <128x64xf32, #txlgpu.tensor_memory>
// STEP9-IR: txlgpu.mbar_arrive %{{.*}} cta %{{.*}}
// STEP9-IR: txlgpu.tmem_dealloc {{.*}} {columns = 512 : i32, twoCtas}
// META: "cluster_dims": [
// META-NEXT: 2,

// PAIRTMA: mapa.shared::cluster.u64
// PAIRTMA: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [{{.*}}], [{{.*}}], [%rd{{[0-9]+}}];

// PAIR: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32
// PAIR-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// PAIR-NOT: tcgen05.alloc
// (The flagship's scheduler elects a lane for try_cancel first: CLCPAIR
// skips it, to the MMA warp's election.)
// CLCPAIR: clusterlaunchcontrol.try_cancel
// PAIR: elect.sync
// PAIR: @%p{{[0-9]+}} bra $[[SKIP:L__BB[0-9]+_[0-9]+]];
// PAIR-NOT: {{^\$L__BB}}
// PAIR: tcgen05.fence::after_thread_sync;
// PAIR-NOT: {{^\$L__BB}}
// PAIR: tcgen05.mma.cta_group::2.kind::
// PAIR-NOT: {{^\$L__BB}}
// PAIR: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// PAIR: [[SKIP]]
// The end of the kernel: after the cluster's exit synchronization, fences
// around another cluster barrier, then the free.
// PAIR: barrier.cluster.wait;
// PAIR-NEXT: tcgen05.fence::before_thread_sync;
// PAIR-NEXT: barrier.cluster.arrive.aligned;
// PAIR-NEXT: barrier.cluster.wait.aligned;
// PAIR-NEXT: tcgen05.fence::after_thread_sync;
// PAIR: tcgen05.dealloc.cta_group::2.sync.aligned.b32
// PAIR-NOT: tcgen05
// PAIR: ret;

// Step 10: two MMA warps (9 and 10) and two writeback warpgroups; the
// producer (warp 8) loads two A blocks and the B half per stage.
// RUN: txlc %tutorials/gemm_blackwell/step10_two_consumers.py --kernel-name gemm_bw_step10 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, i32, i32, i32, i32, 128, 256, 64, 64" --num-warps 4 --num-warpgroups 3 --num-ctas 2 --target sm_100a --out-dir %t/s10 > /dev/null
// RUN: FileCheck %s --check-prefix=PAIR --input-file %t/s10/gemm_bw_step10.ptx
// RUN: FileCheck %s --check-prefix=PAIRTMA --input-file %t/s10/gemm_bw_step10.ptx
// RUN: FileCheck %s --check-prefix=STEP10 --input-file %t/s10/gemm_bw_step10.ptx
// RUN: FileCheck %s --check-prefix=STEP10-IR --input-file %t/s10/gemm_bw_step10.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/s10/gemm_bw_step10.ptx -o %t/s10/ptxas.cubin; fi'
// (2 x (2 x 128 + 128) x 64 x 2 bytes per pair stage.)
// STEP10: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 98304;
// STEP10-COUNT-3: complete_tx::bytes.cta_group::2
// STEP10-NOT: tcgen05.mma.cta_group::1
// STEP10-IR: txlgpu.mbar_alloc {arriveCount = 2 : i32{{.*}}} : <3xi64, #txlgpu.barrier>
// STEP10-IR: txlgpu.tcgen05_mma {{.*}} {leaderWarp = 9 : i32, twoCtas}
// STEP10-IR: txlgpu.tcgen05_mma {{.*}} {leaderWarp = 10 : i32, twoCtas}

// The flagship: fp16, bf16 and fp8 (kind::f8f6f4, e4m3: A/B format 0,
// so the same descriptor bits as fp16 in another kind).
// RUN: txlc %tutorials/gemm_blackwell/flagship.py --kernel-name gemm_bw_flagship --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, i32, i32, i32, 128, 256, 64, 64, 8, 4" --num-warps 4 --num-warpgroups 2 --num-ctas 2 --target sm_100a --out-dir %t/f16 > /dev/null
// RUN: FileCheck %s --check-prefixes=CLCPAIR,PAIR --input-file %t/f16/gemm_bw_flagship.ptx
// RUN: FileCheck %s --check-prefix=PAIRTMA --input-file %t/f16/gemm_bw_flagship.ptx
// RUN: FileCheck %s --check-prefixes=CLC,F16 --input-file %t/f16/gemm_bw_flagship.ptx
// RUN: FileCheck %s --check-prefix=CLCQ --input-file %t/f16/gemm_bw_flagship.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/f16/gemm_bw_flagship.ptx -o %t/f16/ptxas.cubin; fi'
// RUN: txlc %tutorials/gemm_blackwell/flagship.py --kernel-name gemm_bw_flagship --signature "tensordesc<bf16[128, 64]>, tensordesc<bf16[128, 64]>, tensordesc<bf16[128, 64]>, i32, i32, i32, 128, 256, 64, 64, 8, 4" --num-warps 4 --num-warpgroups 2 --num-ctas 2 --target sm_100a --out-dir %t/bf16 > /dev/null
// RUN: FileCheck %s --check-prefixes=CLCPAIR,PAIR --input-file %t/bf16/gemm_bw_flagship.ptx
// RUN: FileCheck %s --check-prefix=PAIRTMA --input-file %t/bf16/gemm_bw_flagship.ptx
// RUN: FileCheck %s --check-prefixes=CLC,BF16 --input-file %t/bf16/gemm_bw_flagship.ptx
// RUN: FileCheck %s --check-prefix=CLCQ --input-file %t/bf16/gemm_bw_flagship.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/bf16/gemm_bw_flagship.ptx -o %t/bf16/ptxas.cubin; fi'
// RUN: txlc %tutorials/gemm_blackwell/flagship.py --kernel-name gemm_bw_flagship --signature "tensordesc<fp8e4nv[128, 128]>, tensordesc<fp8e4nv[128, 128]>, tensordesc<fp16[128, 64]>, i32, i32, i32, 128, 256, 128, 64, 8, 4" --num-warps 4 --num-warpgroups 2 --num-ctas 2 --target sm_100a --out-dir %t/f8 > /dev/null
// RUN: FileCheck %s --check-prefixes=CLCPAIR,PAIR --input-file %t/f8/gemm_bw_flagship.ptx
// RUN: FileCheck %s --check-prefix=PAIRTMA --input-file %t/f8/gemm_bw_flagship.ptx
// RUN: FileCheck %s --check-prefixes=CLC,F8 --input-file %t/f8/gemm_bw_flagship.ptx
// RUN: FileCheck %s --check-prefix=CLCQ --input-file %t/f8/gemm_bw_flagship.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/f8/gemm_bw_flagship.ptx -o %t/f8/ptxas.cubin; fi'
// The response slot's 16 bytes, asked for by CTA 0's elected thread of
// the producer warp, multicast; decoded by query_cancel.
// (The CTA-0 test is folded into the issuing predicate with the warp
// test: `or` of the warp index and %cluster_ctarank, compared with 0.)
// CLC: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 16;
// CLC-NEXT: // end inline asm
// CLC: elect.sync
// CLC: @%p{{[0-9]+}} bra
// CLC-NEXT: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// CLC-NOT: clusterlaunchcontrol.try_cancel
// (The instruction descriptor and the MMA kind, after the scheduler's
// first request.)
// F16: mov.b32 %r{{[0-9]+}}, 272629776;
// F16: tcgen05.mma.cta_group::2.kind::f16
// BF16: mov.b32 %r{{[0-9]+}}, 272630928;
// BF16: tcgen05.mma.cta_group::2.kind::f16
// F8: mov.b32 %r{{[0-9]+}}, 272629776;
// F8: tcgen05.mma.cta_group::2.kind::f8f6f4
// Each of the three roles decodes the response.
// CLCQ-COUNT-3: clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// CLCQ-NOT: clusterlaunchcontrol.query_cancel.is_canceled

// A 2-CTA MMA without a rank guard in the source: the issuing thread's
// predicate includes %cluster_ctarank == %cluster_ctarank & ~1; a
// tmem_slice of columns [64, 96) is a 64-column offset of the address.
// RUN: txlc %S/../Inputs/two_cta.py --kernel-name pair_mma --signature "*fp32" --num-warps 4 --num-ctas 2 --target sm_100a --out-dir %t/pair > /dev/null
// RUN: FileCheck %s --check-prefix=PAIR --input-file %t/pair/pair_mma.ptx
// RUN: FileCheck %s --check-prefix=PAIRRANK --input-file %t/pair/pair_mma.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/pair/pair_mma.ptx -o %t/pair/ptxas.cubin; fi'
// (LLVM folds rank == rank & ~1 into (rank & 1) == 0, merged with the
// warp test, and, in the branch, rank & ~1 into rank.)
// PAIRRANK: elect.sync
// PAIRRANK-NEXT: not.pred
// PAIRRANK-NEXT: mov.u32 %r[[RANK:[0-9]+]], %cluster_ctarank;
// PAIRRANK-NEXT: and.b32 %r[[ODD:[0-9]+]], %r[[RANK]], 1;
// PAIRRANK-NEXT: or.b32 %r[[ANY:[0-9]+]], %r[[ODD]], %r{{[0-9]+}};
// PAIRRANK-NEXT: setp.ne.b32 %p{{[0-9]+}}, %r[[ANY]], 0;
// PAIRRANK: tcgen05.mma.cta_group::2.kind::f16
// PAIRRANK: mov.b32 %r[[THREE:[0-9]+]], 3;
// PAIRRANK-NEXT: shl.b32 %r[[MASK:[0-9]+]], %r[[THREE]], %r[[RANK]];
// PAIRRANK-NEXT: cvt.u16.u32 %rs[[MASK16:[0-9]+]], %r[[MASK]];
// PAIRRANK-NEXT: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{.*}}], %rs[[MASK16]];
// PAIRRANK: add.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, 64;
// PAIRRANK: tcgen05.ld.sync.aligned.32x32b.x32.b32

// Cluster launch control without a cluster: no multicast, and the
// program id is the first CTA's id (a cluster of one).
// RUN: txlc %S/../Inputs/two_cta.py --kernel-name clc_loop --signature "*i32" --num-warps 4 --target sm_100a --out-dir %t/clc > /dev/null
// RUN: FileCheck %s --check-prefix=CLC1 --input-file %t/clc/clc_loop.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/clc/clc_loop.ptx -o %t/clc/ptxas.cubin; fi'
// CLC1: mbarrier.arrive.expect_tx.shared.b64 _, [%r[[BAR:[0-9]+]]], 16;
// CLC1: elect.sync
// CLC1: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [global_smem+{{[0-9]+}}], [global_smem];
// CLC1: mbarrier.try_wait.parity.shared::cta.b64 p, [%r[[BAR]]]
// CLC1: clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// CLC1: clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// CLC1: bar.sync 1, 128;
// CLC1-NOT: multicast

// One CTA group per kernel: a cta_group::1 dotx beside a two_ctas one is
// an error at the first cta_group::1 MMA.
// RUN: not txlc %S/../Inputs/two_cta.py --kernel-name mixed_cta_groups --signature "*fp32" --num-ctas 2 --target sm_100a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: two_cta.py:14:5: error: a kernel's tcgen05 MMAs must all be cta_group::1 or all cta_group::2 (two_ctas)
