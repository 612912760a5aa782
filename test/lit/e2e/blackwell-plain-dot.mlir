// End-to-end: a plain Triton tl.dot (examples/matmul.py, unchanged) on
// sm_100a lowers to tcgen05 with the accumulator in tensor memory, and
// ptxas assembles it (no Blackwell GPU runs it; docs/blackwell.md). Each
// dot site gets a [128, N] TMEM buffer and an mbarrier initialized to the
// CTA's threads + 1 (129 for 4 warps). Per iteration: the operands are
// written to swizzled shared tiles, the running accumulator is stored to
// TMEM (acc += dot(a, b) accumulates: useD true) before the tiles, whose
// closing CTA barrier publishes those stores too; one elected thread issues
// the four K = 16 MMAs and commits them to the barrier, every thread
// arrives (taking the phase token) and waits on its token - completed by
// the commit's arrival - then reads the accumulator back. The loop-carried
// accumulator stays in the TMEM message layout (no layout conversion in
// the loop). The same source on sm_90a still uses wgmma.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8" --num-warps 4 --target sm_100a --out-dir %t/100 > /dev/null
// RUN: FileCheck %s --input-file %t/100/matmul_kernel.ptx
// RUN: FileCheck %s --check-prefix=IR --input-file %t/100/matmul_kernel.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/100/matmul_kernel.ptx -o %t/100/ptxas.cubin; fi'
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8" --num-warps 4 --target sm_90a --out-dir %t/90 --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=HOPPER --input-file %t/90/matmul_kernel.ptx

// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// CHECK-NEXT: tcgen05.relinquish_alloc_permit
// CHECK: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 129;
// CHECK: tcgen05.st.sync.aligned.32x32b
// CHECK: tcgen05.wait::st.sync.aligned;
// CHECK-NEXT: tcgen05.fence::before_thread_sync;
// CHECK: bar.sync 0;
// CHECK: elect.sync
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK-COUNT-4: tcgen05.mma.cta_group::1.kind::f16
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one
// CHECK: mbarrier.arrive.shared.b64 %rd[[TOKEN:[0-9]+]],
// CHECK: mbarrier.try_wait.shared.b64 {{.*}}%rd[[TOKEN]]
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK: tcgen05.ld.sync.aligned.32x32b
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32

// IR: txlgpu.tmem_alloc {allocColumns = 128 : i32, column = 0 : i32
// IR: txlgpu.mbar_alloc {arriveCount = 129 : i32
// IR: scf.for
// IR-NOT: txlgpu.convert_layout
// IR: txlgpu.tmem_store
// IR-NEXT: txlgpu.local_alloc
// IR-NEXT: txlgpu.local_alloc
// IR-NEXT: txlgpu.tcgen05_mma {{.*}} commit {{.*}} {leaderWarp = 0 : i32, txlgpu.sync_commit}
// IR-NEXT: txlgpu.tmem_load
// IR: scf.yield

// HOPPER-NOT: tcgen05
// HOPPER: wgmma.mma_async
// HOPPER-NOT: tcgen05
