// A batched txl.dot ([B, M, K] x [B, K, N]) on mma.sync: the nvmma v2
// accumulator and the dot_op operands have a leading batch dim, over warps
// first (warpsPerCTA [wb, wm, wn]) and then repeated in registers; each warp
// runs the 16 x 8 tiles of every batch it holds, K steps chained.
// RUN: txl-opt %s -split-input-file --txl-convert-txlgpu-to-llvm | FileCheck %s

#mma = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 1, 2], instrShape = [1, 16, 8]}>
#a = #txlgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #txlgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// [2, 32, 32] x [2, 32, 32] fp16 on warps [2, 1, 2]: one batch per warp, 2 x
// 2 tiles, 2 k16 steps -> 8 mma.sync per thread; A holds 2 x 2 x 8 = 32
// halves (16 packed pairs), the accumulator 2 x 2 x 4 = 16 floats. The
// second K step accumulates on the first one's result.
// CHECK-LABEL: llvm.func @batch_per_warp
// CHECK: %[[M0:.*]] = nvvm.mma.sync A[{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[R0:.*]] = llvm.extractvalue %[[M0]][0]
// CHECK: %[[R1:.*]] = llvm.extractvalue %[[M0]][1]
// CHECK: %[[R2:.*]] = llvm.extractvalue %[[M0]][2]
// CHECK: %[[R3:.*]] = llvm.extractvalue %[[M0]][3]
// CHECK: nvvm.mma.sync A[{{.*}}C[%[[R0]], %[[R1]], %[[R2]], %[[R3]]] {{.*}}k = 16
// CHECK-COUNT-6: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return {{.*}} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 0 : i32, txlgpu.target = "sm_80", txlgpu.threads_per_warp = 32 : i32} {
  func.func @batch_per_warp(%a: tensor<2x32x32xf16, #a>, %b: tensor<2x32x32xf16, #b>, %c: tensor<2x32x32xf32, #mma>) -> tensor<2x32x32xf32, #mma> {
    %d = txl.dot %a, %b, %c : tensor<2x32x32xf16, #a> * tensor<2x32x32xf16, #b> -> tensor<2x32x32xf32, #mma>
    return %d : tensor<2x32x32xf32, #mma>
  }
}

// -----

#mma = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 1, 2], instrShape = [1, 16, 8]}>
#a = #txlgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>
#b = #txlgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>

// 8 batches over 2 batch warps: each warp repeats its tiles for 4 batches in
// registers. int8 (m16n8k32, saturating s32): 4 batches x 2 x 2 tiles x 1 K
// step = 16 mma.sync per thread, 64 accumulators.
// CHECK-LABEL: llvm.func @batch_in_registers
// CHECK-COUNT-16: nvvm.mma.sync {{.*}}intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 32>
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 0 : i32, txlgpu.target = "sm_80", txlgpu.threads_per_warp = 32 : i32} {
  func.func @batch_in_registers(%a: tensor<8x32x32xi8, #a>, %b: tensor<8x32x32xi8, #b>, %c: tensor<8x32x32xi32, #mma>) -> tensor<8x32x32xi32, #mma> {
    %d = txl.dot %a, %b, %c : tensor<8x32x32xi8, #a> * tensor<8x32x32xi8, #b> -> tensor<8x32x32xi32, #mma>
    return %d : tensor<8x32x32xi32, #mma>
  }
}
