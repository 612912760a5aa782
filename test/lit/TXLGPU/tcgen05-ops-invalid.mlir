// The verifiers of the tensor-memory and tcgen05 ops: a tmem_alloc
// without the tensor_memory encoding, or not [stages, 128 or 64, N], or
// wider than tensor memory; a stage of a tensor-memory array that leaves
// it; a load whose result does not match or that names no tcgen05.ld
// message shape; an MMA whose accumulator is in shared memory, whose B is
// in tensor memory, whose shapes do not multiply, or an M = 64 MMA with A
// in tensor memory.
// RUN: not txl-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: error: 'txlgpu.tmem_alloc' op result must have the tensor_memory encoding
func.func @no_encoding() {
  %a = txlgpu.tmem_alloc : !txlgpu.memdesc<1x128x128xf32>
  return
}

// -----

// CHECK: error: 'txlgpu.tmem_alloc' op needs [stages, 128 or 64, N] elements of 16 or 32 bits
func.func @rows() {
  %a = txlgpu.tmem_alloc : !txlgpu.memdesc<1x32x128xf32, #txlgpu.tensor_memory>
  return
}

// -----

// CHECK: error: 'txlgpu.tmem_alloc' op needs more than the 512 columns of tensor memory
func.func @too_wide() {
  %a = txlgpu.tmem_alloc : !txlgpu.memdesc<3x128x256xf32, #txlgpu.tensor_memory>
  return
}

// -----

// CHECK: error: 'txlgpu.memdesc_index' op a stage of a tensor-memory buffer stays in tensor memory
func.func @leaves(%i: i32) {
  %a = txlgpu.tmem_alloc : !txlgpu.memdesc<2x128x128xf32, #txlgpu.tensor_memory>
  %b = txlgpu.memdesc_index %a[%i] : !txlgpu.memdesc<2x128x128xf32, #txlgpu.tensor_memory> -> !txlgpu.memdesc<128x128xf32>
  return
}

// -----

// CHECK: error: 'txlgpu.tmem_load' op result must match the buffer
func.func @load_shape(%d: !txlgpu.memdesc<128x128xf32, #txlgpu.tensor_memory>) {
  %v = txlgpu.tmem_load %d : !txlgpu.memdesc<128x128xf32, #txlgpu.tensor_memory> -> tensor<128x64xf32>
  return
}

// -----

// CHECK: error: 'txlgpu.tcgen05_mma' op D must be a [128, N] or [64, N] fp32 tensor-memory buffer
func.func @d_in_smem(%a: !txlgpu.memdesc<128x64xf16>, %b: !txlgpu.memdesc<64x128xf16>, %d: !txlgpu.memdesc<128x128xf32>, %u: i1) {
  txlgpu.tcgen05_mma %a, %b, %d, %u {leaderWarp = 0 : i32} : !txlgpu.memdesc<128x64xf16> * !txlgpu.memdesc<64x128xf16> -> !txlgpu.memdesc<128x128xf32>
  return
}

// -----

// CHECK: error: 'txlgpu.tcgen05_mma' op B must be in shared memory
func.func @b_in_tmem(%a: !txlgpu.memdesc<128x64xf16>, %b: !txlgpu.memdesc<64x128xf16, #txlgpu.tensor_memory>, %d: !txlgpu.memdesc<128x128xf32, #txlgpu.tensor_memory>, %u: i1) {
  txlgpu.tcgen05_mma %a, %b, %d, %u {leaderWarp = 0 : i32} : !txlgpu.memdesc<128x64xf16> * !txlgpu.memdesc<64x128xf16, #txlgpu.tensor_memory> -> !txlgpu.memdesc<128x128xf32, #txlgpu.tensor_memory>
  return
}

// -----

// CHECK: error: 'txlgpu.tcgen05_mma' op shapes do not form a matrix product
func.func @shapes(%a: !txlgpu.memdesc<128x64xf16>, %b: !txlgpu.memdesc<32x128xf16>, %d: !txlgpu.memdesc<128x128xf32, #txlgpu.tensor_memory>, %u: i1) {
  txlgpu.tcgen05_mma %a, %b, %d, %u {leaderWarp = 0 : i32} : !txlgpu.memdesc<128x64xf16> * !txlgpu.memdesc<32x128xf16> -> !txlgpu.memdesc<128x128xf32, #txlgpu.tensor_memory>
  return
}

// -----

// CHECK: error: 'txlgpu.tmem_load' op message must be 32x32b, 16x64b, 16x128b or 16x256b, got 16x32bx2
func.func @message(%d: !txlgpu.memdesc<128x128xf32, #txlgpu.tensor_memory>) {
  %v = txlgpu.tmem_load %d {message = "16x32bx2"} : !txlgpu.memdesc<128x128xf32, #txlgpu.tensor_memory> -> tensor<128x128xf32>
  return
}

// -----

// CHECK: error: 'txlgpu.tcgen05_mma' op an M = 64 MMA is cta_group::1 with A in shared memory
func.func @m64_a_in_tmem(%a: !txlgpu.memdesc<64x64xf16, #txlgpu.tensor_memory>, %b: !txlgpu.memdesc<64x128xf16>, %d: !txlgpu.memdesc<64x128xf32, #txlgpu.tensor_memory>, %u: i1) {
  txlgpu.tcgen05_mma %a, %b, %d, %u {leaderWarp = 0 : i32} : !txlgpu.memdesc<64x64xf16, #txlgpu.tensor_memory> * !txlgpu.memdesc<64x128xf16> -> !txlgpu.memdesc<64x128xf32, #txlgpu.tensor_memory>
  return
}

// -----

// Scale tiles of two formats (e4m3 for nvfp4 against e8m0): no MMA kind
// reads both.
// CHECK: error: 'txlgpu.tcgen05_mma_scaled' op both scale tiles hold the same scale format
#swA = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 8, order = [1, 0]}>
#swB = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 8, order = [0, 1]}>
#plain = #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 8, order = [1, 0]}>
func.func @mixed_scales(%a: !txlgpu.memdesc<128x128xi8, #swA>, %b: !txlgpu.memdesc<128x64xi8, #swB>, %d: !txlgpu.memdesc<128x64xf32, #txlgpu.tensor_memory>, %use: i1, %sa: !txlgpu.memdesc<128x16xf8E4M3FN, #plain>, %sb: !txlgpu.memdesc<64x16xi8, #plain>, %ta: !txlgpu.memdesc<128x16xi32, #txlgpu.tensor_memory>, %tb: !txlgpu.memdesc<128x8xi32, #txlgpu.tensor_memory>, %bar: !txlgpu.memdesc<1xi64, #txlgpu.barrier>) {
  txlgpu.tcgen05_mma_scaled %a, %b, %d, %use scales %sa, %sb to %ta, %tb commit %bar {aFormat = "e2m1", bFormat = "e2m1", leaderWarp = 0 : i32} : !txlgpu.memdesc<128x128xi8, #swA> * !txlgpu.memdesc<128x64xi8, #swB> -> !txlgpu.memdesc<128x64xf32, #txlgpu.tensor_memory>, !txlgpu.memdesc<128x16xf8E4M3FN, #plain>, !txlgpu.memdesc<64x16xi8, #plain>, !txlgpu.memdesc<128x16xi32, #txlgpu.tensor_memory>, !txlgpu.memdesc<128x8xi32, #txlgpu.tensor_memory>, !txlgpu.memdesc<1xi64, #txlgpu.barrier>
  return
}
