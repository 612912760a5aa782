// TXL_DEBUG_ONLY turns on named passes' debug output in a release build
// (LLVM's -debug-only needs assertions): why a loop was or was not
// pipelined, with its source location.
//
// The plain Triton matmul's K loop: masked loads are not streamed by
// cp.async stages, they are prefetched one iteration ahead instead.
// RUN: env TXL_DEBUG_ONLY=txlgpu-pipeline-async-copies,txlgpu-prefetch-loop-loads txlc %examples/matmul.py --kernel-name matmul_kernel --num-warps 8 --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,128,64,8" --no-cubin --out-dir %t 2>&1 | FileCheck %s --check-prefix=NAMED
// NAMED: [txlgpu-pipeline-async-copies] loop at loc("{{.*}}matmul.py":36:5): not pipelined: a dot operand is not a global load staged through shared memory in the loop
// NAMED: [txlgpu-prefetch-loop-loads] loop at loc("{{.*}}matmul.py":36:5): the next iteration's dot operand loads are issued one iteration ahead
//
// Only the named passes speak; "all" names every pass.
// RUN: env TXL_DEBUG_ONLY=txlgpu-prefetch-loop-loads txlc %examples/matmul.py --kernel-name matmul_kernel --num-warps 8 --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,128,64,8" --no-cubin --out-dir %t 2>&1 | FileCheck %s --check-prefix=ONE
// ONE-NOT: [txlgpu-pipeline-async-copies]
// ONE: [txlgpu-prefetch-loop-loads]
// RUN: env TXL_DEBUG_ONLY=all txlc %examples/matmul.py --kernel-name matmul_kernel --num-warps 8 --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,128,64,8" --no-cubin --out-dir %t 2>&1 | FileCheck %s --check-prefix=ALL
// ALL: [txlgpu-pipeline-async-copies]
// ALL: [txlgpu-prefetch-loop-loads]
//
// Without it, nothing.
// RUN: env -u TXL_DEBUG_ONLY txlc %examples/matmul.py --kernel-name matmul_kernel --num-warps 8 --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,128,64,8" --no-cubin --out-dir %t 2>&1 | FileCheck %s --check-prefix=NONE --allow-empty
// NONE-NOT: [txlgpu-
//
// The shared-memory allocator reports every buffer's place and liveness:
// here the epilogue's layout conversion reuses the K loop's staging bytes.
// RUN: env TXL_DEBUG_ONLY=txlgpu-allocate-shared-memory txlc %examples/matmul.py --kernel-name matmul_kernel --num-warps 8 --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,128,64,8" --no-cubin --out-dir %t 2>&1 | FileCheck %s --check-prefix=SMEM
// SMEM-DAG: [txlgpu-allocate-shared-memory] txlgpu.convert_layout at loc("{{.*}}matmul.py":46:5): offset 0, 32768 B, live in its uses
// SMEM-DAG: [txlgpu-allocate-shared-memory] txlgpu.smem_alloc at loc("{{.*}}matmul.py":40:16): offset 0, 32768 B, live in its uses
// SMEM: [txlgpu-allocate-shared-memory] total 65536 B
