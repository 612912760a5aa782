// PipelineTMALoads gives a loop one stage where two do not fit next to
// what else is live (here a 192 KB buffer written before the loop and read
// after it): each iteration's K and V copies issue at its top, so V arrives
// while S and the softmax run. PipelineWarpGroupDots then keeps P V's own
// wait (its refill feeds this iteration's S, so it cannot move after S's
// wait as the in-flight form needs).
// RUN: txl-opt %s --txlgpu-pipeline-tma-loads --txlgpu-pipeline-warp-group-dots | FileCheck %s

// CHECK-LABEL: func.func @attn_one_stage(
// CHECK-DAG: %[[V:.*]] = txlgpu.smem_alloc {txlgpu.loop_staging} : <1x64x64xf16>
// CHECK-DAG: %[[K:.*]] = txlgpu.smem_alloc {txlgpu.loop_staging} : <1x64x64xf16>
// No copy before the loop: iteration i copies its own tiles at its top.
// CHECK-NOT: txlgpu.tma_load %arg1
// CHECK: scf.for
// CHECK-NEXT: txlgpu.barrier
// CHECK: txlgpu.tma_load %arg1
// CHECK: txlgpu.tma_load %arg2
// CHECK: txlgpu.mbar_wait
// CHECK: txlgpu.warp_group_dot
// CHECK-NEXT: txlgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK: txlgpu.mbar_wait
// CHECK: txlgpu.warp_group_dot
// CHECK-NEXT: txlgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK: scf.yield
module attributes {txl.source_file = "mini.py", txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @attn_one_stage(%arg0: !txlgpu.tensordesc<64x64xf16>, %arg1: !txlgpu.tensordesc<64x64xf16>, %arg2: !txlgpu.tensordesc<64x64xf16>, %arg3: !txlgpu.tensordesc<64x64xf16>, %arg4: i32) attributes {txl.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
    %c0_i32 = arith.constant 0 : i32
    %bigz = arith.constant dense<0.000000e+00> : tensor<256x128xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
    %0 = txlgpu.smem_alloc : <1x64x64xf16>
    %1 = txlgpu.memdesc_index %0[%c0_i32] : <1x64x64xf16> -> <64x64xf16>
    %2 = txlgpu.smem_alloc : <1x64x64xf16>
    %3 = txlgpu.memdesc_index %2[%c0_i32] : <1x64x64xf16> -> <64x64xf16>
    %4 = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %5 = txlgpu.memdesc_index %4[%c0_i32] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    %6 = txlgpu.smem_alloc : <1x64x64xf16>
    %7 = txlgpu.memdesc_index %6[%c0_i32] : <1x64x64xf16> -> <64x64xf16>
    %8 = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %9 = txlgpu.memdesc_index %8[%c0_i32] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    %10 = txlgpu.smem_alloc : <1x64x64xf16>
    %11 = txlgpu.memdesc_index %10[%c0_i32] : <1x64x64xf16> -> <64x64xf16>
    %12 = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %13 = txlgpu.memdesc_index %12[%c0_i32] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    txlgpu.tma_load %arg0[%c0_i32, %c0_i32] -> %11, %13 {sync} : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
    %big = txlgpu.smem_alloc : <3x256x128xf16>
    %bigt = txlgpu.memdesc_index %big[%c0_i32] : <3x256x128xf16> -> <256x128xf16>
    txlgpu.smem_store %bigz, %bigt : tensor<256x128xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>> -> <256x128xf16>
    %14 = txlgpu.smem_load %11 : <64x64xf16> -> tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
    %15 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %cst) -> (tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>)  : i32 {
      txlgpu.tma_load %arg1[%arg5, %c0_i32] -> %7, %9 {sync} : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
      %17 = txlgpu.smem_load %7 : <64x64xf16> -> tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
      %18 = txl.trans %17 {order = array<i32: 1, 0>} : tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>> -> tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
      %19 = txlgpu.memdesc_view %7 {dim = 0 : i64, permutation = array<i32: 1, 0>, start = 0 : i64} : <64x64xf16> -> <64x64xf16>
      %20 = txlgpu.warp_group_dot %11, %19, %cst : !txlgpu.memdesc<64x64xf16> * <64x64xf16> -> tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
      %21 = txlgpu.warp_group_dot_wait %20 {pendings = 0 : i32} : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
      %22 = math.exp2 %21 : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
      %23 = arith.truncf %22 : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>> to tensor<64x64xf16, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
      txlgpu.tma_load %arg2[%arg5, %c0_i32] -> %3, %5 {sync} : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
      %24 = txlgpu.smem_load %3 : <64x64xf16> -> tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
      %25 = txlgpu.convert_layout %23 : tensor<64x64xf16, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>> -> tensor<64x64xf16, #txlgpu.dot_op<{opIdx = 0, parent = #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>>
      %26 = txlgpu.warp_group_dot %25, %3, %arg6 : tensor<64x64xf16, #txlgpu.dot_op<{opIdx = 0, parent = #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>> * <64x64xf16> -> tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
      %27 = txlgpu.warp_group_dot_wait %26 {pendings = 0 : i32} : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
      scf.yield %27 : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
    } {txl.num_stages = 16 : i32}
    %16 = arith.truncf %15 : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>> to tensor<64x64xf16, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
    txlgpu.smem_store %16, %1 : tensor<64x64xf16, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>> -> <64x64xf16>
    txlgpu.tma_store %1 -> %arg3[%c0_i32, %c0_i32] : <64x64xf16> -> <64x64xf16>
    txlgpu.tma_store_wait {pendings = 0 : i32}
    %bigl = txlgpu.smem_load %bigt : <256x128xf16> -> tensor<256x128xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
    %bigs = arith.addf %bigl, %bigl : tensor<256x128xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
    txlgpu.smem_store %bigs, %bigt : tensor<256x128xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>> -> <256x128xf16>
    txlgpu.barrier
    return
  }
}


// -----
