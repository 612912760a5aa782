// RUN: txl-opt %s --txlgpu-assign-shared-layouts | FileCheck %s
// A buffer wgmma reads gets the widest swizzle its rows allow (row-major);
// its stages and its transposed view derive theirs (the view's order is
// renamed); a buffer only threads touch gets the unswizzled layout.

// CHECK-LABEL: func.func @k
func.func @k() {
  %c0 = arith.constant 0 : i32
  %acc = arith.constant dense<0.0> : tensor<64x128xf32>
  // CHECK: txlgpu.smem_alloc : <1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
  %a = txlgpu.smem_alloc : <1x64x64xf16>
  // CHECK: txlgpu.smem_alloc : <2x128x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
  %b = txlgpu.smem_alloc : <2x128x64xf16>
  // CHECK: txlgpu.smem_alloc : <1x256xf32, #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 32, order = [0]}>>
  %p = txlgpu.smem_alloc : <1x256xf32>
  // CHECK: txlgpu.memdesc_index {{.*}} -> <64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
  %a0 = txlgpu.memdesc_index %a[%c0] : <1x64x64xf16> -> <64x64xf16>
  %b0 = txlgpu.memdesc_index %b[%c0] : <2x128x64xf16> -> <128x64xf16>
  // CHECK: txlgpu.memdesc_view {{.*}} -> <64x128xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [0, 1]}>>
  %bt = txlgpu.memdesc_view %b0 {dim = 0 : i64, permutation = array<i32: 1, 0>, start = 0 : i64} : <128x64xf16> -> <64x128xf16>
  %d = txlgpu.warp_group_dot %a0, %bt, %acc : <64x64xf16> * <64x128xf16> -> tensor<64x128xf32>
  %p0 = txlgpu.memdesc_index %p[%c0] : <1x256xf32> -> <256xf32>
  %v = txlgpu.smem_load %p0 : <256xf32> -> tensor<256xf32>
  return
}
