// A batched txl.dot ([B, M, K] x [B, K, N]) in AssignLayouts: mma.sync even
// on sm_90a (wgmma and tcgen05 take 2-D tiles only), with an nvmma v2
// accumulator of rank 3 whose batch dim takes warps first (one per batch, up
// to num_warps) and the rest go over M and N as for a 2-D dot; the operands
// are converted to rank-3 dot_op layouts of that parent. fp64 operands take
// the FMA path: a rank-3 blocked accumulator, warps over the batch first.
// RUN: txl-opt %s -split-input-file --txl-assign-layouts="target=sm_90a" | FileCheck %s
// RUN: txl-opt %s -split-input-file --txl-assign-layouts="target=sm_80 num-warps=8" | FileCheck %s --check-prefix=W8
// RUN: txl-opt %s -split-input-file --txl-assign-layouts="target=sm_100a num-warps=4" | FileCheck %s --check-prefix=SM100

// CHECK-LABEL: func.func @batched
// CHECK: arith.constant dense<0.000000e+00> : tensor<2x32x32xf32, #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 1, 2], instrShape = [1, 16, 8]}>>
// CHECK: txlgpu.convert_layout {{.*}} -> tensor<2x32x32xbf16, #txlgpu.dot_op<{opIdx = 0, parent = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 1, 2], instrShape = [1, 16, 8]}>, kWidth = 2}>>
// CHECK: txlgpu.convert_layout {{.*}} -> tensor<2x32x32xbf16, #txlgpu.dot_op<{opIdx = 1, parent = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 1, 2], instrShape = [1, 16, 8]}>, kWidth = 2}>>
// CHECK: txl.dot {{.*}} -> tensor<2x32x32xf32, #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 1, 2], instrShape = [1, 16, 8]}>>
// CHECK-NOT: warp_group_dot
// CHECK-NOT: local_alloc
// 8 warps on 2 batches: 4 left for a 32 x 32 tile, 2 along M and 2 along N.
// W8-LABEL: func.func @batched
// W8: txl.dot {{.*}} -> tensor<2x32x32xf32, #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2, 2], instrShape = [1, 16, 8]}>>
// SM100-LABEL: func.func @batched
// SM100: txl.dot {{.*}} -> tensor<2x32x32xf32, #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 1, 2], instrShape = [1, 16, 8]}>>
// SM100-NOT: tcgen05
func.func @batched(%arg0: !txl.ptr<bf16> {txl.divisibility = 16 : i32}, %arg1: !txl.ptr<bf16> {txl.divisibility = 16 : i32}, %arg2: !txl.ptr<f32> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
  %cst = arith.constant dense<0.000000e+00> : tensor<2x32x32xf32>
  %0 = txl.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
  %1 = txl.splat %arg0 : !txl.ptr<bf16> -> tensor<2048x!txl.ptr<bf16>>
  %2 = txl.addptr %1, %0 : tensor<2048x!txl.ptr<bf16>>, tensor<2048xi32>
  %3 = txl.load %2 : tensor<2048x!txl.ptr<bf16>> -> tensor<2048xbf16>
  %4 = txl.reshape %3 : tensor<2048xbf16> -> tensor<2x32x32xbf16>
  %5 = txl.splat %arg1 : !txl.ptr<bf16> -> tensor<2048x!txl.ptr<bf16>>
  %6 = txl.addptr %5, %0 : tensor<2048x!txl.ptr<bf16>>, tensor<2048xi32>
  %7 = txl.load %6 : tensor<2048x!txl.ptr<bf16>> -> tensor<2048xbf16>
  %8 = txl.reshape %7 : tensor<2048xbf16> -> tensor<2x32x32xbf16>
  %10 = txl.dot %4, %8, %cst : tensor<2x32x32xbf16> * tensor<2x32x32xbf16> -> tensor<2x32x32xf32>
  %11 = txl.splat %arg2 : !txl.ptr<f32> -> tensor<2048x!txl.ptr<f32>>
  %12 = txl.addptr %11, %0 : tensor<2048x!txl.ptr<f32>>, tensor<2048xi32>
  %13 = txl.reshape %10 : tensor<2x32x32xf32> -> tensor<2048xf32>
  txl.store %12, %13 : tensor<2048x!txl.ptr<f32>>, tensor<2048xf32>
  return
}

// -----

// CHECK-LABEL: func.func @batched_fma
// CHECK: txl.dot {{.*}} -> tensor<2x16x16xf64, #txlgpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>>
// CHECK-NOT: dot_op
// W8-LABEL: func.func @batched_fma
// W8: txl.dot {{.*}} -> tensor<2x16x16xf64, #txlgpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 4, 1], order = [2, 1, 0]}>>
func.func @batched_fma(%arg0: !txl.ptr<f64> {txl.divisibility = 16 : i32}, %arg2: !txl.ptr<f64> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
  %cst = arith.constant dense<0.000000e+00> : tensor<2x16x16xf64>
  %0 = txl.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %1 = txl.splat %arg0 : !txl.ptr<f64> -> tensor<512x!txl.ptr<f64>>
  %2 = txl.addptr %1, %0 : tensor<512x!txl.ptr<f64>>, tensor<512xi32>
  %3 = txl.load %2 : tensor<512x!txl.ptr<f64>> -> tensor<512xf64>
  %4 = txl.reshape %3 : tensor<512xf64> -> tensor<2x16x16xf64>
  %10 = txl.dot %4, %4, %cst : tensor<2x16x16xf64> * tensor<2x16x16xf64> -> tensor<2x16x16xf64>
  %11 = txl.splat %arg2 : !txl.ptr<f64> -> tensor<512x!txl.ptr<f64>>
  %12 = txl.addptr %11, %0 : tensor<512x!txl.ptr<f64>>, tensor<512xi32>
  %13 = txl.reshape %10 : tensor<2x16x16xf64> -> tensor<512xf64>
  txl.store %12, %13 : tensor<512x!txl.ptr<f64>>, tensor<512xf64>
  return
}
