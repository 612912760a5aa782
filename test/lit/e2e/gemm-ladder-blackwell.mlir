// End-to-end: the Blackwell GEMM ladder (tutorials/gemm_blackwell, steps
// 1-8) compiles
// for sm_100a and ptxas assembles it (txlc hands the PTX to nvJitLink or
// ptxas; the RUN lines below also run ptxas itself when it is installed).
// No Blackwell GPU runs these kernels here: what is checked is the
// structure of the PTX, the protocol facts tensor memory and tcgen05 need:
//  * (ALLOC) warp 0 allocates tensor memory (a power of two of columns) and
//    at once relinquishes the CTA's permit to allocate; the address comes
//    back through shared memory after fence::before / bar.sync /
//    fence::after; before the kernel exits the CTA synchronizes (with the
//    same fences) and then deallocates the same number of columns, and no
//    tcgen05 work follows;
//  * (MMA) tcgen05.mma and tcgen05.commit are issued by one thread (the
//    elected lane of one warp, inside the branch on that predicate), after
//    fence::after_thread_sync, and the commit follows the MMAs (K = 64 is
//    four m128nNk16 instructions);
//  * (LOAD) the TMEM read (tcgen05.ld.32x32b) comes right after a
//    fence::after_thread_sync (in the same block; after the mbarrier wait
//    in straight-line code, STEP1), and is completed (wait::ld) and fenced
//    (fence::before_thread_sync) before anything synchronizes with it;
//  * (TMA) expect_tx announces exactly the bytes of the boxes in flight
//    ((128 + 128) x 64 x 2 = 32768 for the two boxes of a slice): every
//    expect_tx in the PTX announces that count, and there are exactly two
//    TMA loads per expect_tx (Inputs/check_expect_tx.sh; loops may be
//    peeled, so the sites are counted rather than matched in order).
// RUN: rm -rf %t && mkdir -p %t

// Step 1: one tile, synchronous copy, one MMA group committed to a barrier.
// RUN: txlc %tutorials/gemm_blackwell/step01_one_tile.py --kernel-name gemm_bw_step01 --signature "*fp16:16, *fp16:16, *fp16:16, 128, 128, 64" --num-warps 4 --target sm_100a --out-dir %t/s1 > /dev/null
// RUN: FileCheck %s --check-prefixes=ALLOC,MMA,LOAD --input-file %t/s1/gemm_bw_step01.ptx
// RUN: FileCheck %s --check-prefix=STEP1 --input-file %t/s1/gemm_bw_step01.ptx
// RUN: FileCheck %s --check-prefix=STEP1-IR --input-file %t/s1/gemm_bw_step01.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/s1/gemm_bw_step01.ptx -o %t/s1/ptxas.cubin; fi'
// The MMA overwrites D (enable-input-D false) and its commit is the
// barrier's one arrival; the instruction descriptor says f32 D, f16 A/B,
// both K-major, N = 128 (16 << 17), M = 128 (8 << 24).
// STEP1: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// STEP1-NOT: mbarrier.arrive
// STEP1: mov.pred %p[[OFF:[0-9]+]], 0;
// STEP1-NEXT: mov.b32 %r[[IDESC:[0-9]+]], 136314896;
// STEP1-NEXT: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r[[IDESC]], %p[[OFF]];
// Straight-line code: the wait, then the fence, then the TMEM read.
// STEP1: mbarrier.try_wait.parity.shared::cta.b64
// STEP1-NOT: tcgen05.ld
// STEP1: tcgen05.fence::after_thread_sync;
// STEP1-NOT: tcgen05.ld
// STEP1: tcgen05.ld.sync.aligned.32x32b
// STEP1-IR: txlgpu.tmem_alloc {allocColumns = 128 : i32, column = 0 : i32{{.*}}} : <1x128x128xf32, #txlgpu.tensor_memory>
// STEP1-IR: txlgpu.tcgen05_mma {{.*}} {leaderWarp = 0 : i32}
// STEP1-IR: txlgpu.tmem_load {{.*}} -> tensor<128x128xf32, #txlgpu.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>>
// STEP1-IR: txlgpu.tmem_dealloc {{.*}} {columns = 128 : i32}
// STEP1-IR-NEXT: return

// ALLOC: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [global_smem[[SLOT:(\+[0-9]+)?]]], %r{{[0-9]+}};
// ALLOC-NEXT: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// ALLOC: tcgen05.fence::before_thread_sync;
// ALLOC-NEXT: bar.sync 0;
// ALLOC-NEXT: tcgen05.fence::after_thread_sync;
// ALLOC-NEXT: ld.shared.b32 %r{{[0-9]+}}, [global_smem[[SLOT]]];
// ALLOC-NOT: tcgen05.alloc

// MMA: elect.sync %r{{[0-9]+}}|%p{{[0-9]+}}, -1;
// MMA: @%p{{[0-9]+}} bra $[[SKIP:L__BB0_[0-9]+]];
// MMA-NOT: {{^\$L__BB}}
// MMA: tcgen05.fence::after_thread_sync;
// MMA-NOT: {{^\$L__BB}}
// MMA-COUNT-4: tcgen05.mma.cta_group::1.kind::f16
// MMA-NOT: tcgen05.mma
// MMA-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// MMA: [[SKIP]]

// (A wait spins in a loop of its own: from the accumulator wait's probe.)
// LOAD: mbarrier.try_wait
// LOAD: tcgen05.fence::after_thread_sync;
// LOAD-NOT: {{^\$L__BB|bar.sync|mbarrier}}
// LOAD: tcgen05.ld.sync.aligned.32x32b.x32.b32
// LOAD: tcgen05.wait::ld.sync.aligned;
// LOAD-NEXT: tcgen05.fence::before_thread_sync;


// Step 2: a K loop; the first MMA of the loop overwrites (useD = k > 0 is
// a runtime predicate), every iteration waits for its commit with a parity
// that flips.
// RUN: txlc %tutorials/gemm_blackwell/step02_k_loop.py --kernel-name gemm_bw_step02 --signature "*fp16:16, *fp16:16, *fp16:16, i32, 128, 64, 64" --num-warps 4 --target sm_100a --out-dir %t/s2 > /dev/null
// RUN: FileCheck %s --check-prefixes=ALLOC,MMA,LOAD --input-file %t/s2/gemm_bw_step02.ptx
// RUN: FileCheck %s --check-prefix=STEP2-IR --input-file %t/s2/gemm_bw_step02.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/s2/gemm_bw_step02.ptx -o %t/s2/ptxas.cubin; fi'
// STEP2-IR: scf.for
// STEP2-IR: %[[USE:.*]] = arith.cmpi sgt
// STEP2-IR: txlgpu.tcgen05_mma %{{.*}}, %{{.*}}, %{{.*}}, %[[USE]] commit
// STEP2-IR: txlgpu.mbar_wait
// STEP2-IR: arith.xori
// STEP2-IR: txlgpu.tmem_load

// Step 3: a 2-D grid, masked loads and stores (ragged M, N, K).
// RUN: txlc %tutorials/gemm_blackwell/step03_grid.py --kernel-name gemm_bw_step03 --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 128, 64, 64" --num-warps 4 --target sm_100a --out-dir %t/s3 > /dev/null
// RUN: FileCheck %s --check-prefixes=ALLOC,MMA,LOAD --input-file %t/s3/gemm_bw_step03.ptx
// RUN: FileCheck %s --check-prefix=STEP3 --input-file %t/s3/gemm_bw_step03.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/s3/gemm_bw_step03.ptx -o %t/s3/ptxas.cubin; fi'
// STEP3: %ctaid.x
// STEP3: %ctaid.y
// STEP3: tcgen05.mma.cta_group::1.kind::f16
// STEP3: @p st.global

// Step 4: TMA loads counted in bytes on `ready`, the MMA committed to
// `done`, a TMA-store epilogue.
// RUN: txlc %tutorials/gemm_blackwell/step04_tma.py --kernel-name gemm_bw_step04 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, 128, 128, 64" --num-warps 4 --target sm_100a --out-dir %t/s4 > /dev/null
// RUN: FileCheck %s --check-prefixes=ALLOC,MMA,LOAD --input-file %t/s4/gemm_bw_step04.ptx
// RUN: FileCheck %s --check-prefix=TMA --input-file %t/s4/gemm_bw_step04.ptx
// RUN: sh %S/../Inputs/check_expect_tx.sh %t/s4/gemm_bw_step04.ptx 32768 2
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/s4/gemm_bw_step04.ptx -o %t/s4/ptxas.cubin; fi'
// TMA: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 32768;
// TMA-COUNT-2: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes

// Step 5: two stages, full/empty barriers per stage, each MMA committed
// to its stage's `empty`.
// RUN: txlc %tutorials/gemm_blackwell/step05_pipeline.py --kernel-name gemm_bw_step05 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, 128, 128, 64" --num-warps 4 --target sm_100a --out-dir %t/s5 > /dev/null
// RUN: FileCheck %s --check-prefixes=ALLOC,MMA,LOAD --input-file %t/s5/gemm_bw_step05.ptx
// RUN: FileCheck %s --check-prefix=TMA --input-file %t/s5/gemm_bw_step05.ptx
// RUN: sh %S/../Inputs/check_expect_tx.sh %t/s5/gemm_bw_step05.ptx 32768 2
// RUN: FileCheck %s --check-prefix=STEP5-IR --input-file %t/s5/gemm_bw_step05.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/s5/gemm_bw_step05.ptx -o %t/s5/ptxas.cubin; fi'
// STEP5-IR: txlgpu.mbar_alloc {arriveCount = 1 : i32{{.*}}} : <2xi64, #txlgpu.barrier>
// STEP5-IR: txlgpu.mbar_alloc {arriveCount = 1 : i32{{.*}}} : <2xi64, #txlgpu.barrier>
// STEP5-IR: scf.for
// STEP5-IR: txlgpu.tcgen05_mma {{.*}} commit

// Step 6: persistent over tiles in grouped order; the phase is carried
// across tiles, the C tile's previous store is waited for before reuse.
// RUN: txlc %tutorials/gemm_blackwell/step06_persistent.py --kernel-name gemm_bw_step06 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, i32, 128, 128, 64, 8" --num-warps 4 --target sm_100a --out-dir %t/s6 > /dev/null
// RUN: FileCheck %s --check-prefixes=ALLOC,MMA,LOAD --input-file %t/s6/gemm_bw_step06.ptx
// RUN: FileCheck %s --check-prefix=TMA --input-file %t/s6/gemm_bw_step06.ptx
// RUN: sh %S/../Inputs/check_expect_tx.sh %t/s6/gemm_bw_step06.ptx 32768 2
// RUN: FileCheck %s --check-prefix=STEP6-IR --input-file %t/s6/gemm_bw_step06.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/s6/gemm_bw_step06.ptx -o %t/s6/ptxas.cubin; fi'
// STEP6-IR: txlgpu.tmem_alloc
// STEP6-IR: scf.for
// STEP6-IR: scf.for
// STEP6-IR: txlgpu.tcgen05_mma
// STEP6-IR: scf.yield
// STEP6-IR: txlgpu.tmem_load
// STEP6-IR: txlgpu.tma_store_wait {pendings = 0 : i32}
// STEP6-IR: txlgpu.tma_store
// STEP6-IR: scf.yield
// STEP6-IR: txlgpu.tma_store_wait {pendings = 0 : i32}
// STEP6-IR: txlgpu.tmem_dealloc

// Step 7: warp specialization. The TMA warp (warp 0) and the MMA warp
// (warp 1: the issuing warp is the role's, leaderWarp = 1) and the
// writeback warpgroup (warps 4-7: their TMEM lane quarter is warp % 4);
// the tile's last MMA commits to its stage's `empty` and to `acc_ready`;
// the writeback arrives on `acc_free` (128 arrivals) after fencing its
// TMEM reads.
// RUN: txlc %tutorials/gemm_blackwell/step07_warp_specialized.py --kernel-name gemm_bw_step07 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, i32, 128, 128, 64" --num-warps 4 --num-warpgroups 2 --target sm_100a --out-dir %t/s7 > /dev/null
// RUN: FileCheck %s --check-prefix=TMA --input-file %t/s7/gemm_bw_step07.ptx
// RUN: sh %S/../Inputs/check_expect_tx.sh %t/s7/gemm_bw_step07.ptx 32768 2
// RUN: FileCheck %s --check-prefixes=ALLOC,STEP7 --input-file %t/s7/gemm_bw_step07.ptx
// RUN: FileCheck %s --check-prefix=STEP7-IR --input-file %t/s7/gemm_bw_step07.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/s7/gemm_bw_step07.ptx -o %t/s7/ptxas.cubin; fi'
// STEP7-IR: txlgpu.mbar_alloc {arriveCount = 128 : i32
// STEP7-IR: txlgpu.tcgen05_mma {{.*}} commit %{{[0-9]+}}, %{{[0-9]+}} {leaderWarp = 1 : i32}
// STEP7-IR: txlgpu.tcgen05_mma {{.*}} commit %{{[0-9]+}} {leaderWarp = 1 : i32}
// STEP7: elect.sync
// The tile's acc_ready commit (the stage commits are at [stage base + 32]).
// STEP7: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 {{\[(global_smem\+[0-9]+|%rd[0-9]+)\]}};
// STEP7: mbarrier.try_wait.parity.shared::cta.b64
// STEP7: tcgen05.fence::after_thread_sync;
// STEP7-NOT: {{^\$L__BB|bar.sync|mbarrier}}
// STEP7: tcgen05.ld.sync.aligned.32x32b
// STEP7: tcgen05.wait::ld.sync.aligned;
// STEP7-NEXT: tcgen05.fence::before_thread_sync;
// STEP7: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, {{\[(global_smem|%rd[0-9]+)\+[0-9]+\]}};

// Step 8: four stages and two accumulators in tensor memory (256 columns);
// the MMA warp and the writeback pick the buffer with a runtime index, a
// column offset of 128 per stage.
// RUN: txlc %tutorials/gemm_blackwell/step08_deep_pipeline.py --kernel-name gemm_bw_step08 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, i32, 128, 128, 64" --num-warps 4 --num-warpgroups 2 --target sm_100a --out-dir %t/s8 > /dev/null
// RUN: FileCheck %s --check-prefixes=ALLOC,STEP7 --input-file %t/s8/gemm_bw_step08.ptx
// RUN: FileCheck %s --check-prefix=TMA --input-file %t/s8/gemm_bw_step08.ptx
// RUN: sh %S/../Inputs/check_expect_tx.sh %t/s8/gemm_bw_step08.ptx 32768 2
// RUN: FileCheck %s --check-prefix=STEP8-IR --input-file %t/s8/gemm_bw_step08.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/s8/gemm_bw_step08.ptx -o %t/s8/ptxas.cubin; fi'
// STEP8-IR: txlgpu.tmem_alloc {allocColumns = 256 : i32, column = 0 : i32{{.*}}} : <2x128x128xf32, #txlgpu.tensor_memory>
// STEP8-IR: txlgpu.mbar_alloc {arriveCount = 1 : i32{{.*}}} : <4xi64, #txlgpu.barrier>
// STEP8-IR: txlgpu.mbar_alloc {arriveCount = 128 : i32{{.*}}} : <2xi64, #txlgpu.barrier>
// STEP8-IR: txlgpu.memdesc_index %{{.*}}[%{{.*}}] : <2x128x128xf32, #txlgpu.tensor_memory> -> <128x128xf32, #txlgpu.tensor_memory>
// STEP8-IR: txlgpu.tcgen05_mma {{.*}} {leaderWarp = 1 : i32}
// STEP8-IR: txlgpu.memdesc_index %{{.*}}[%{{.*}}] : <2x128x128xf32, #txlgpu.tensor_memory> -> <128x128xf32, #txlgpu.tensor_memory>
// STEP8-IR: txlgpu.tmem_load

// More tensor memory than an SM has is an error at the buffer that
// overflows it.
// RUN: not txlc %S/../Inputs/tmem_total_columns.py --kernel-name kernel --signature "*fp32" --target sm_100a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=COLUMNS
// COLUMNS: tmem_total_columns.py:13:26: error: the kernel's tensor-memory buffers need 640 columns, more than the 512 an SM has

// The end of every kernel (last in this file: checked after every other prefix run with ALLOC).
// ALLOC: tcgen05.fence::before_thread_sync;
// ALLOC-NEXT: bar.sync 0;
// ALLOC-NEXT: tcgen05.fence::after_thread_sync;
// ALLOC: tcgen05.dealloc.cta_group::1.sync.aligned.b32
// ALLOC-NOT: tcgen05
// ALLOC: ret;
