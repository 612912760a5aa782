// PipelineTMALoads: in a loop that issues a wgmma, each desc.load's TMA copy
// (a sync tma_load into a site-private tile, here read in place by the
// wgmmas after AssignLayouts) becomes a ring of num_stages (3) tiles and
// mbarriers: iterations 0 and 1 are copied before the loop, predicated on
// existing; iteration i copies iteration i+2 into stage (i+2)%3 after a CTA
// barrier, and waits on barrier i%3 with parity (i/3)&1 where the copy was.
// A loop with no wgmma (an elementwise desc.load) keeps its sync copy.
// RUN: txl-opt %s -split-input-file --txlgpu-pipeline-tma-loads | FileCheck %s

// CHECK-LABEL: func.func @attn
// CHECK-DAG: %[[VBUF:.*]] = txlgpu.smem_alloc {txlgpu.loop_staging} : <3x64x64xf16>
// CHECK-DAG: %[[VBAR:.*]] = txlgpu.mbar_alloc {arriveCount = 1 : i32, txlgpu.compiler_ring} : <3xi64, #txlgpu.barrier>
// CHECK-DAG: %[[KBUF:.*]] = txlgpu.smem_alloc {txlgpu.loop_staging} : <3x64x64xf16>
// CHECK-DAG: %[[KBAR:.*]] = txlgpu.mbar_alloc {arriveCount = 1 : i32, txlgpu.compiler_ring} : <3xi64, #txlgpu.barrier>
// CHECK: txlgpu.tma_load %arg0{{.*}} {sync}
// Iteration 0 (iv = lb), if lb < ub:
// CHECK: %[[IV0:.*]] = arith.addi %c0_i32, %{{.*}} : i32
// CHECK: %[[E0:.*]] = arith.cmpi slt, %[[IV0]], %arg4 : i32
// CHECK: %[[KB0:.*]] = txlgpu.memdesc_index %[[KBAR]][%{{.*}}]
// CHECK: %[[KT0:.*]] = txlgpu.memdesc_index %[[KBUF]][%{{.*}}]
// CHECK: txlgpu.mbar_expect %[[KB0]], %c8192_i32{{.*}}, %[[E0]]
// CHECK: txlgpu.tma_load %arg1[%[[IV0]], %c0_i32] -> %[[KT0]], %[[KB0]], %[[E0]] :
// CHECK: txlgpu.mbar_expect {{.*}}, %[[E0]]
// CHECK: txlgpu.tma_load %arg2[%[[IV0]], %c0_i32] -> {{.*}}, %[[E0]] :
// Iteration 1:
// CHECK: %[[E1:.*]] = arith.cmpi slt
// CHECK: txlgpu.tma_load %arg1{{.*}}, %[[E1]] :
// CHECK: txlgpu.tma_load %arg2{{.*}}, %[[E1]] :
// CHECK: scf.for %[[IV:.*]] = %c0_i32 to %arg4 step %c64_i32
// The tiles are read by wgmmas only (the smem_loads feed dead code): the
// barrier needs no proxy fence.
// CHECK-NEXT: txlgpu.barrier{{$}}
// CHECK: %[[TRIP:.*]] = arith.divsi
// CHECK: %[[AHEAD:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK: %[[E:.*]] = arith.cmpi slt, %[[AHEAD]], %arg4 : i32
// CHECK: %[[WS:.*]] = arith.remsi
// CHECK: %[[KBW:.*]] = txlgpu.memdesc_index %[[KBAR]][%[[WS]]]
// CHECK: txlgpu.tma_load %arg1[%[[AHEAD]], %c0_i32] -> %{{.*}}, %[[KBW]], %[[E]] :
// CHECK: txlgpu.tma_load %arg2[%[[AHEAD]], %c0_i32] -> %{{.*}}, %{{.*}}, %[[E]] :
// CHECK: %[[RS:.*]] = arith.remsi %[[TRIP]], %c3_i32
// CHECK: %[[ROUND:.*]] = arith.divsi %[[TRIP]], %c3_i32
// CHECK: %[[PAR:.*]] = arith.andi %[[ROUND]]
// CHECK: %[[KBR:.*]] = txlgpu.memdesc_index %[[KBAR]][%[[RS]]]
// CHECK: txlgpu.mbar_wait %[[KBR]], %[[PAR]]
// CHECK: %[[K:.*]] = txlgpu.memdesc_index %[[KBUF]][%[[RS]]]
// CHECK: txlgpu.memdesc_view %[[K]]
// CHECK: txlgpu.warp_group_dot
// CHECK: txlgpu.mbar_wait
// CHECK: txlgpu.warp_group_dot
// CHECK-NOT: {sync}
// CHECK: scf.yield
module attributes {txl.source_file = "mini.py", txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @attn(%arg0: !txlgpu.tensordesc<64x64xf16>, %arg1: !txlgpu.tensordesc<64x64xf16>, %arg2: !txlgpu.tensordesc<64x64xf16>, %arg3: !txlgpu.tensordesc<64x64xf16>, %arg4: i32) attributes {txl.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
    %c0_i32 = arith.constant 0 : i32
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
    } {txl.num_stages = 3 : i32}
    %16 = arith.truncf %15 : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>> to tensor<64x64xf16, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
    txlgpu.smem_store %16, %1 : tensor<64x64xf16, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>> -> <64x64xf16>
    txlgpu.tma_store %1 -> %arg3[%c0_i32, %c0_i32] : <64x64xf16> -> <64x64xf16>
    txlgpu.tma_store_wait {pendings = 0 : i32}
    txlgpu.barrier
    return
  }
}


// -----

// The same loop carrying V's smem_load to the next iteration: threads read
// the tile through the generic proxy, so the barrier before the copies
// also fences it against the TMA writes.
// CHECK-LABEL: func.func @attn_live_read
// CHECK: scf.for
// CHECK-NEXT: txlgpu.barrier {txlgpu.fence_async_proxy}
module attributes {txl.source_file = "mini.py", txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @attn_live_read(%arg0: !txlgpu.tensordesc<64x64xf16>, %arg1: !txlgpu.tensordesc<64x64xf16>, %arg2: !txlgpu.tensordesc<64x64xf16>, %arg3: !txlgpu.tensordesc<64x64xf16>, %arg4: i32) attributes {txl.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
    %c0_i32 = arith.constant 0 : i32
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
    %14 = txlgpu.smem_load %11 : <64x64xf16> -> tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
    %15:2 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %cst, %arg7 = %14) -> (tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>, tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>)  : i32 {
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
      scf.yield %27, %24 : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>, tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
    } {txl.num_stages = 3 : i32}
    %16 = arith.truncf %15#0 : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>> to tensor<64x64xf16, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
    txlgpu.smem_store %16, %1 : tensor<64x64xf16, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>> -> <64x64xf16>
    txlgpu.tma_store %1 -> %arg3[%c0_i32, %c0_i32] : <64x64xf16> -> <64x64xf16>
    txlgpu.tma_store_wait {pendings = 0 : i32}
    txlgpu.barrier
    return
  }
}


// -----

// CHECK-LABEL: func.func @desc_axpb
// CHECK: scf.for
// CHECK: txlgpu.tma_load {{.*}} {sync}
// CHECK-NOT: compiler_ring
module attributes {txl.source_file = "/work/wt/attn/test/gpu/txl_kernels_desc.py", txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @desc_axpb(%arg0: !txlgpu.tensordesc<64x64xf16>, %arg1: !txlgpu.tensordesc<64x64xf16>, %arg2: i32, %arg3: i32, %arg4: f32, %arg5: f32) attributes {txl.kernel} {
    %c63_i32 = arith.constant 63 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %0 = txlgpu.smem_alloc : <1x64x64xf16>
    %1 = txlgpu.memdesc_index %0[%c0_i32] : <1x64x64xf16> -> <64x64xf16>
    %2 = txlgpu.smem_alloc : <1x64x64xf16>
    %3 = txlgpu.memdesc_index %2[%c0_i32] : <1x64x64xf16> -> <64x64xf16>
    %4 = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %5 = txlgpu.memdesc_index %4[%c0_i32] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    %6 = txl.program_id 0 : i32
    %7 = arith.addi %arg3, %c63_i32 : i32
    %8 = arith.divsi %7, %c64_i32 : i32
    scf.for %arg6 = %c0_i32 to %8 step %c1_i32  : i32 {
      %9 = arith.muli %6, %c64_i32 : i32
      %10 = arith.muli %arg6, %c64_i32 : i32
      txlgpu.tma_load %arg0[%9, %10] -> %3, %5 {sync} : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
      %11 = txlgpu.smem_load %3 : <64x64xf16> -> tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
      %12 = arith.extf %11 : tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>> to tensor<64x64xf32, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
      %13 = txl.splat %arg4 : f32 -> tensor<64x64xf32, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
      %14 = arith.mulf %12, %13 : tensor<64x64xf32, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
      %15 = txl.splat %arg5 : f32 -> tensor<64x64xf32, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
      %16 = arith.addf %14, %15 : tensor<64x64xf32, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
      %17 = arith.truncf %16 : tensor<64x64xf32, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>> to tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>>
      txlgpu.smem_store %17, %1 : tensor<64x64xf16, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>> -> <64x64xf16>
      txlgpu.tma_store %1 -> %arg1[%9, %10] : <64x64xf16> -> <64x64xf16>
      txlgpu.tma_store_wait {pendings = 0 : i32}
      txlgpu.barrier
    }
    return
  }
}

