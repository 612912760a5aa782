// End-to-end: the TXL project's Blackwell GEMM kernels (its matmul
// tutorial, test/compat/txl/01-matmul.py, unchanged) compiled for sm_100a
// and assembled (no Blackwell GPU runs them; docs/blackwell.md). The
// structural facts each relies on:
//  - bw2: tl.dot on shared buffers with a tensor-memory accumulator is a
//    synchronous tcgen05 MMA: its site's barrier counts the CTA's 256
//    threads + 1, the operands are published (fence.proxy.async, bar.sync)
//    before one elected thread issues the four K = 16 MMAs (useD true: the
//    accumulator was zeroed by tmem_store) and commits them, and every
//    thread arrives and waits on its own arrival's token before the
//    accumulator is read back;
//  - kernel4: an mbarrier as dotx's 4th argument (the TXL project's
//    earlier dotx(a, b, acc, mbar)) is what the MMA commits to;
//  - kernel5 (EPILOGUE_SUBTILE): the accumulator's column halves are read
//    from their own tensor-memory columns, so no layout conversion (and no
//    128 KB of scratch): 4 stages of 48 KB + the 32 KB output tile fit;
//  - kernel6: is_warp([8]) and is_warp([9]) beside 8 epilogue warps launch
//    10 warps (num_extra_warps 2, .maxntid 320); the MMA is issued by the
//    elected lane of warp 8 and its second commit (mbarPreds) only on a
//    tile's last K step; the TMA warp 9's expect_tx and copies are issued
//    by its lane 0 (thread 288; a warpgroup's first thread is in no warp
//    role but warp 0's); the epilogue's barriers are named barrier 15 of
//    its 256 threads, never bar.sync 0 (the TMA and MMA warps are looping
//    elsewhere), and the whole CTA meets only at entry and before the
//    tensor memory is freed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %txl_src/test/compat/txl/01-matmul.py --kernel-name matmul_kernel_bw2 --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, ''" --target sm_100a --num-warps 8 --num-stages 1 --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=BW2 --input-file %t/matmul_kernel_bw2.ptx
// RUN: txlc %txl_src/test/compat/txl/01-matmul.py --kernel-name matmul_persistent_nows_tma_txl_bw_kernel4 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[256, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, 128, 256, 64, 8, False, 1, 4, True, 132, False" --target sm_100a --num-warps 8 --num-stages 4 --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=K4 --input-file %t/matmul_persistent_nows_tma_txl_bw_kernel4.txlgir
// RUN: txlc %txl_src/test/compat/txl/01-matmul.py --kernel-name matmul_persistent_nows_tma_txl_bw_kernel5 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[256, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, 128, 256, 64, 8, False, 1, 4, True, 132, False" --target sm_100a --num-warps 8 --num-stages 4 --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=K5 --input-file %t/matmul_persistent_nows_tma_txl_bw_kernel5.txlgir
// RUN: FileCheck %s --check-prefix=K5META --input-file %t/matmul_persistent_nows_tma_txl_bw_kernel5.json
// RUN: txlc %txl_src/test/compat/txl/01-matmul.py --kernel-name matmul_persistent_tma_txl_bw_kernel6 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[256, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, 128, 256, 64, 8, False, 1, 4, True, 132, False" --target sm_100a --num-warps 8 --num-stages 4 --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=K6 --input-file %t/matmul_persistent_tma_txl_bw_kernel6.ptx
// RUN: FileCheck %s --check-prefix=K6TMA --input-file %t/matmul_persistent_tma_txl_bw_kernel6.ptx
// RUN: FileCheck %s --check-prefix=K6META --input-file %t/matmul_persistent_tma_txl_bw_kernel6.json
// RUN: sh -c 'if command -v ptxas > /dev/null; then for f in %t/*.ptx; do ptxas -arch=sm_100a $f -o $f.cubin || exit 1; done; fi'
//
// The same extra-warp machinery on Hopper (test/gpu/test_extra_warps.py
// runs it): a TMA warp 4 beside num_warps=4 makes 160 threads, and the
// tensor warps' column sum synchronizes on a named barrier whose id and
// count come from the warp's group (15 and 128 for warps 0-3), never
// bar.sync 0 after the entry.
// RUN: txlc %txl_src/test/gpu/txl_kernels_extra_warps.py --kernel-name extra_warp_producer --signature "tensordesc<fp32[64, 32]>, *fp32:16, i32, i32, 64, 32" --target sm_90a --num-warps 4 --out-dir %t/h > /dev/null
// RUN: FileCheck %s --check-prefix=H --input-file %t/h/extra_warp_producer.ptx
// RUN: FileCheck %s --check-prefix=HMETA --input-file %t/h/extra_warp_producer.json

// BW2: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 257;
// BW2: tcgen05.st.sync.aligned.32x32b
// BW2: tcgen05.wait::st.sync.aligned;
// BW2-NEXT: tcgen05.fence::before_thread_sync;
// BW2: cp.async.wait_group 0;
// BW2: fence.proxy.async.shared::cta;
// BW2-NEXT: bar.sync 0;
// BW2: elect.sync
// BW2: tcgen05.fence::after_thread_sync;
// BW2-NEXT: mov.pred %p[[USED:[0-9]+]], -1;
// BW2-NEXT: mov.b32
// BW2-NEXT: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard {{.*}}, %p[[USED]];
// BW2-COUNT-3: tcgen05.mma.cta_group::1.kind::f16
// BW2-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [[BAR:\[.*\]]];
// BW2: mbarrier.arrive.shared.b64 %rd[[TOKEN:[0-9]+]], [[BAR]];
// BW2: mbarrier.try_wait.shared.b64 %p{{[0-9]+}}, [[BAR]], %rd[[TOKEN]];
// BW2: tcgen05.fence::after_thread_sync;
// BW2-NEXT: tcgen05.ld.sync.aligned.32x32b

// K4: %[[ACCBARS:.*]] = txlgpu.mbar_alloc {arriveCount = 1 : i32{{.*}}} : <2xi64
// K4: %[[BAR:.*]] = txlgpu.memdesc_index %[[ACCBARS]]
// K4: txlgpu.tcgen05_mma {{.*}} commit %[[BAR]] {leaderWarp = 0 : i32}

// K5-NOT: txlgpu.convert_layout
// K5: txlgpu.tmem_load {{.*}} : <128x128xf32, #txlgpu.tensor_memory> -> tensor<128x128xf32, #txlgpu.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2]
// K5-NOT: txlgpu.convert_layout
// K5META: "shared_bytes": 230400

// K6: .maxntid 320, 1, 1
// K6: tcgen05.alloc.cta_group::1
// K6: bar.sync 15, 256;
// K6-NOT: bar.sync 0;
// K6: mov.b32 %r[[W:[0-9]+]], 8;
// K6-NEXT: .loc
// K6-NEXT: shfl.sync.idx.b32 %r[[WARP:[0-9]+]], %r[[W]], 0, 31, -1;
// K6-NEXT: setp.ne.b32 %p{{[0-9]+}}, %r[[WARP]], 8;
// K6-NEXT: elect.sync
// K6: tcgen05.mma.cta_group::1.kind::f16
// K6: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// K6-NEXT: @%p{{[0-9]+}} bra
// K6: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// K6-NOT: bar.sync 0;
// K6: tcgen05.fence::before_thread_sync;
// K6-NEXT: bar.sync 0;
// K6-NEXT: tcgen05.fence::after_thread_sync;
// K6: tcgen05.dealloc.cta_group::1
// K6META: "num_extra_warps": 2

// K6TMA: setp.ne.b32 %p[[SKIP:[0-9]+]], %r{{[0-9]+}}, 288;
// K6TMA-NEXT: setp.eq.b32 %p[[ISSUE:[0-9]+]], %r{{[0-9]+}}, 288;
// K6TMA: @%p[[ISSUE]] mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 49152;
// K6TMA: @%p[[SKIP]] bra
// K6TMA: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// K6TMA-NEXT: .loc
// K6TMA-NEXT: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes

// H: .maxntid 160, 1, 1
// H: bar.sync 0;
// H-NOT: bar.sync 0;
// H: cp.async.bulk.tensor.2d
// H-NOT: bar.sync 0;
// H: mbarrier.try_wait.parity
// H-NOT: bar.sync 0;
// H: selp.b32 %r[[COUNT:[0-9]+]], 128, 32,
// H-NOT: bar.sync 0;
// H: bar.sync %r{{[0-9]+}}, %r[[COUNT]];
// H-NOT: bar.sync 0;
// HMETA: "num_extra_warps": 1
