// End-to-end: a plain Triton tl.dot (examples/matmul.py, unchanged) on
// sm_100a lowers to tcgen05 with the accumulator in tensor memory, and
// ptxas assembles it (no Blackwell GPU runs it; docs/blackwell.md). The dot
// gets a [128, N] TMEM buffer that holds the accumulator for the whole K
// loop (txlgpu-pipeline-tcgen05-dots): stored once before the loop, read
// once after it. Per iteration: every thread waits on the stage's commit
// barrier (two stages, count 1; the MMAs two iterations back read the
// stage), the operands are written to that stage's swizzled shared tiles
// (ending with the CTA barrier that publishes them), one elected thread
// issues the four K = 16 MMAs and commits them to the stage's barrier -
// no thread waits for them in the loop and nothing reads TMEM there. After
// the loop every thread waits for the last commit and reads the
// accumulator. The same source on sm_90a still uses wgmma.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8" --num-warps 4 --target sm_100a --out-dir %t/100 > /dev/null
// RUN: FileCheck %s --input-file %t/100/matmul_kernel.ptx
// RUN: FileCheck %s --check-prefix=IR --input-file %t/100/matmul_kernel.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/100/matmul_kernel.ptx -o %t/100/ptxas.cubin; fi'
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8" --num-warps 4 --target sm_90a --out-dir %t/90 --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=HOPPER --input-file %t/90/matmul_kernel.ptx

// CHECK: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// CHECK: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// CHECK-NEXT: tcgen05.relinquish_alloc_permit
// CHECK: tcgen05.st.sync.aligned.32x32b
// CHECK-NOT: tcgen05.ld
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK-NOT: tcgen05.ld
// CHECK: bar.sync 0;
// CHECK-NOT: tcgen05.ld
// CHECK: elect.sync
// CHECK-NOT: tcgen05.ld
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK-COUNT-4: tcgen05.mma.cta_group::1.kind::f16
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one
// CHECK-NOT: mbarrier.arrive
// CHECK-NOT: tcgen05.ld
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK-NOT: tcgen05.mma
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b
// CHECK-NOT: tcgen05.mma
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32

// IR: txlgpu.mbar_alloc {arriveCount = 1 : i32{{.*}}<2xi64
// IR: txlgpu.tmem_alloc {allocColumns = 128 : i32, column = 0 : i32
// IR-NOT: mbar_alloc
// IR: txlgpu.tmem_store
// IR: scf.for
// IR-NOT: txlgpu.convert_layout
// IR-NOT: txlgpu.tmem_
// IR: txlgpu.mbar_wait
// IR-NOT: txlgpu.tmem_
// IR: txlgpu.smem_store
// IR-NEXT: txlgpu.memdesc_index
// IR-NEXT: txlgpu.smem_store
// IR-NEXT: txlgpu.tcgen05_mma {{.*}} commit {{.*}} {leaderWarp = 0 : i32} :
// IR-NOT: txlgpu.tmem_
// IR: scf.yield
// IR: scf.if
// IR-NEXT: arith
// IR: txlgpu.mbar_wait
// IR: txlgpu.tmem_load

// HOPPER-NOT: tcgen05
// HOPPER: wgmma.mma_async
// HOPPER-NOT: tcgen05
