// End-to-end: a plain Triton tl.dot (examples/matmul.py, unchanged) on
// sm_100a lowers to tcgen05 with the accumulator in tensor memory, and
// ptxas assembles it (no Blackwell GPU runs it; docs/blackwell.md). The K
// loop is pipelined as Hopper's plain loops are (txlgpu-pipeline-async-
// copies, 3 stages): the accumulator stays in TMEM for the whole loop
// (stored once before it, read once after it); A and B stream into three
// shared stages with cp.async two iterations ahead; per iteration every
// thread waits for its own copies (wait_group 1, fenced for the async proxy,
// CTA barrier), one elected thread issues the four K = 16 MMAs and commits
// them to the stage's barrier of a 3-barrier ring (count 1), and every
// thread then waits for the previous iteration's commit before copying the
// slice two ahead into the stage those MMAs read. Nothing reads TMEM in the
// loop; after it every thread waits for the last commit and reads the
// accumulator. The same source on sm_90a still uses wgmma. A loop cp.async
// cannot take keeps its TMEM accumulator and commit ring with two register-
// staged stages (txlgpu-pipeline-tcgen05-dots; the last RUN lines).
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8" --num-warps 4 --target sm_100a --out-dir %t/100 > /dev/null
// RUN: FileCheck %s --input-file %t/100/matmul_kernel.ptx
// RUN: FileCheck %s --check-prefix=IR --input-file %t/100/matmul_kernel.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/100/matmul_kernel.ptx -o %t/100/ptxas.cubin; fi'
// RUN: txlc %S/../Inputs/plain_dot_other.py --kernel-name matmul_other --signature "*fp16:16, *fp16:16, *fp32:16, i32" --num-warps 4 --target sm_100a --out-dir %t/fb > /dev/null
// RUN: FileCheck %s --check-prefix=FALLBACK --input-file %t/fb/matmul_other.txlgir
// RUN: FileCheck %s --check-prefix=FALLBACK-PTX --input-file %t/fb/matmul_other.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/fb/matmul_other.ptx -o %t/fb/ptxas.cubin; fi'
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8" --num-warps 4 --target sm_90a --out-dir %t/90 --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=HOPPER --input-file %t/90/matmul_kernel.ptx

// CHECK-COUNT-3: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// CHECK-NOT: mbarrier.init
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// CHECK-NEXT: tcgen05.relinquish_alloc_permit
// CHECK: tcgen05.st.sync.aligned.32x32b
// CHECK-NOT: tcgen05.ld
// CHECK: cp.async.cg.shared.global
// CHECK-NOT: tcgen05.ld
// CHECK: cp.async.wait_group 1;
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: tcgen05.ld
// CHECK: elect.sync
// CHECK-NOT: tcgen05.ld
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK-COUNT-4: tcgen05.mma.cta_group::1.kind::f16
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one
// CHECK-NOT: mbarrier.arrive
// CHECK-NOT: tcgen05.ld
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK-NOT: tcgen05.ld
// CHECK: cp.async.cg.shared.global
// CHECK-NOT: tcgen05.ld
// CHECK: cp.async.wait_group 0;
// CHECK-NOT: tcgen05.mma
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK-NOT: tcgen05.mma
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK-NEXT: tcgen05.ld.sync.aligned.32x32b
// CHECK-NOT: tcgen05.mma
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32

// IR: txlgpu.mbar_alloc {arriveCount = 1 : i32{{.*}}<3xi64
// IR: txlgpu.tmem_alloc {allocColumns = 128 : i32, column = 0 : i32
// IR-NOT: mbar_alloc
// IR: txlgpu.tmem_store
// IR: scf.for
// IR-NOT: txlgpu.convert_layout
// IR-NOT: txlgpu.tmem_
// IR: txlgpu.async_wait {pendings = 1 : i32}
// IR-NOT: txlgpu.tmem_
// IR: txlgpu.tcgen05_mma {{.*}} commit {{.*}} {leaderWarp = 0 : i32} :
// IR-NOT: txlgpu.tmem_
// IR: txlgpu.mbar_wait
// IR-NOT: txlgpu.tmem_
// IR: txlgpu.async_copy_global_to_local
// IR-NOT: txlgpu.tmem_
// IR: scf.yield
// IR: txlgpu.async_wait {pendings = 0 : i32}
// IR: scf.if
// IR: txlgpu.mbar_wait
// IR: txlgpu.tmem_load

// The fallback: a loop whose loads cp.async cannot take (a non-zero
// `other`) keeps two register-staged stages and the commit ring.
// FALLBACK: txlgpu.mbar_alloc {arriveCount = 1 : i32{{.*}}<2xi64
// FALLBACK: txlgpu.tmem_store
// FALLBACK: scf.for
// FALLBACK-NOT: txlgpu.tmem_
// FALLBACK: txlgpu.mbar_wait
// FALLBACK-NOT: txlgpu.tmem_
// FALLBACK: txlgpu.smem_store
// FALLBACK-NOT: txlgpu.tmem_
// FALLBACK: txlgpu.smem_store
// FALLBACK-NEXT: txlgpu.tcgen05_mma {{.*}} commit {{.*}} {leaderWarp = 0 : i32} :
// FALLBACK-NOT: txlgpu.tmem_
// FALLBACK: scf.if
// FALLBACK: txlgpu.mbar_wait
// FALLBACK: txlgpu.tmem_load
// FALLBACK-PTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one
// FALLBACK-PTX-NOT: mbarrier.arrive.shared

// HOPPER-NOT: tcgen05
// HOPPER: wgmma.mma_async
// HOPPER-NOT: tcgen05
