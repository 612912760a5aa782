// convert_layout through shared memory. A 2-D 16-bit conversion (the
// matmul epilogue: wgmma accumulator fragments to 16-byte store vectors)
// goes through a swizzled tile. On sm_90 the accumulator fragments are
// written with stmatrix.x4 (four 8x8 matrices per instruction: a thread's
// 32 elements in 4); before sm_90 each thread writes its pairs of adjacent
// columns as one 4-byte store. Either way it reads its eight adjacent
// elements with one 16-byte load, between two barriers. A 1-bit conversion
// has no tile and moves element by element.
// RUN: txl-opt %s -split-input-file --txl-convert-txlgpu-to-llvm | FileCheck %s

#acc = #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#rows = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: llvm.func @epilogue
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK-COUNT-4: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NOT: llvm.load {{.*}} -> f16
// CHECK: llvm.return
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.threads_per_warp = 32 : i32, txlgpu.num_warpgroups = 1 : i32, txlgpu.target = "sm_90a", txlgpu.shared = 8192 : i32} {
  func.func @epilogue(%x: tensor<64x64xf16, #acc>) -> tensor<64x64xf16, #rows> {
    %y = txlgpu.convert_layout %x {txlgpu.shared_offset = 0 : i32} : tensor<64x64xf16, #acc> -> tensor<64x64xf16, #rows>
    return %y : tensor<64x64xf16, #rows>
  }
}

// -----

#acc = #txlgpu.nvmma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#rows = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: llvm.func @epilogue_sm80
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.stmatrix
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: llvm.return
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.threads_per_warp = 32 : i32, txlgpu.num_warpgroups = 1 : i32, txlgpu.target = "sm_80", txlgpu.shared = 8192 : i32} {
  func.func @epilogue_sm80(%x: tensor<64x64xf16, #acc>) -> tensor<64x64xf16, #rows> {
    %y = txlgpu.convert_layout %x {txlgpu.shared_offset = 0 : i32} : tensor<64x64xf16, #acc> -> tensor<64x64xf16, #rows>
    return %y : tensor<64x64xf16, #rows>
  }
}

// -----

#a = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #txlgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: llvm.func @bits
// CHECK-NOT: vector<
// CHECK: llvm.return
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.threads_per_warp = 32 : i32, txlgpu.num_warpgroups = 1 : i32, txlgpu.target = "sm_90a", txlgpu.shared = 8192 : i32} {
  func.func @bits(%x: tensor<32x32xi1, #a>) -> tensor<32x32xi1, #b> {
    %y = txlgpu.convert_layout %x {txlgpu.shared_offset = 0 : i32} : tensor<32x32xi1, #a> -> tensor<32x32xi1, #b>
    return %y : tensor<32x32xi1, #b>
  }
}
