// A shared buffer and its mbarrier chosen at run time (assigned in both
// branches of an if; a conditional expression on the warpgroup id) compile
// to a select of the two handles' addresses; the buffers get one layout
// (both swizzled for the TMA copy that one handle feeds) and keep their own
// bytes (a chosen handle is a user the liveness analysis does not follow).
// RUN: txlc %S/../../gpu/txl_kernels_buffer_choice.py --kernel-name choose_by_program --signature "tensordesc<fp16[64, 64]>, *fp16:16, i32, 64, 64" --target sm_90a --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=PROG < %t/choose_by_program.txlgir
// RUN: txlc %S/../../gpu/txl_kernels_buffer_choice.py --kernel-name choose_by_warpgroup --signature "*fp32:16, *fp32:16, 64, 64" --num-warpgroups 2 --target sm_90a --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=WG < %t/choose_by_warpgroup.txlgir
// PROG: %[[A:[0-9]+]] = txlgpu.smem_alloc {txlgpu.shared_offset = [[OA:[0-9]+]] : i32} : <1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128
// PROG-NEXT: %[[B:[0-9]+]] = txlgpu.smem_alloc {txlgpu.shared_offset = {{[0-9]+}} : i32} : <1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128
// PROG-NOT: shared_offset = [[OA]] : i32} : <1x64x64xf16
// PROG: arith.select %{{.*}}, %{{.*}}, %{{.*}} : !txlgpu.memdesc<1xi64, #txlgpu.barrier>
// PROG-NEXT: arith.select %{{.*}}, %[[A]], %[[B]] : !txlgpu.memdesc<1x64x64xf16
// PROG: txlgpu.tma_load
// WG: %[[A:[0-9]+]] = txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32} : <1x64x64xf32
// WG-NEXT: %[[B:[0-9]+]] = txlgpu.smem_alloc {txlgpu.shared_offset = 16384 : i32} : <1x64x64xf32
// WG: arith.select %{{.*}}, %[[A]], %[[B]] : !txlgpu.memdesc<1x64x64xf32
// WG-NEXT: txlgpu.memdesc_index
