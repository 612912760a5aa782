// RUN: txl-opt %s --txlgpu-pipeline-tcgen05-dots | FileCheck %s
// A plain dot's synchronous tcgen05 MMA in a K loop (AssignLayouts' form)
// keeps its accumulator in tensor memory across the loop: stored once
// before it, read once after the last commit; two operand stages, each
// iteration waiting for the MMAs two back before restaging, and the MMA
// committing to its stage's barrier of a ring of two (count 1). The
// synchronous form's barrier (count threads + 1) is gone.

#acc = #txlgpu.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#la = #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#lb = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>

// CHECK-LABEL: func.func @k_loop
// CHECK: %[[RING:.*]] = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <2xi64
// CHECK-NOT: arriveCount = 129
// CHECK: txlgpu.tmem_store %[[INIT:.*]], %[[D:[0-9]+]]
// CHECK: txlgpu.smem_alloc {txlgpu.loop_staging} : <2x128x64xf16
// CHECK: txlgpu.smem_alloc {txlgpu.loop_staging} : <2x64x128xf16
// CHECK: scf.for
// CHECK-NOT: txlgpu.tmem_
// CHECK: %[[SLOT:.*]] = txlgpu.memdesc_index %[[RING]]
// CHECK: arith.xori
// CHECK-NEXT: txlgpu.mbar_wait %[[SLOT]]
// CHECK: txlgpu.smem_store
// CHECK: txlgpu.smem_store
// CHECK-NOT: txlgpu.tmem_
// CHECK: txlgpu.tcgen05_mma {{.*}}, %[[D]], %{{.*}} commit %{{.*}} {leaderWarp = 0 : i32} :
// CHECK-NOT: txlgpu.tmem_
// CHECK: scf.yield
// CHECK: scf.if
// CHECK: txlgpu.mbar_wait
// CHECK: %[[R:.*]] = txlgpu.tmem_load %[[D]]
// CHECK: return %[[R]]
func.func @k_loop(%a: tensor<128x64xf16, #la>, %b: tensor<64x128xf16, #lb>, %n: i32) -> tensor<128x128xf32, #acc> {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %true = arith.constant true
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #acc>
  %tm = txlgpu.tmem_alloc : <1x128x128xf32, #txlgpu.tensor_memory>
  %d = txlgpu.memdesc_index %tm[%c0] : <1x128x128xf32, #txlgpu.tensor_memory> -> <128x128xf32, #txlgpu.tensor_memory>
  %bars = txlgpu.mbar_alloc {arriveCount = 129 : i32} : <1xi64, #txlgpu.barrier>
  %bar = txlgpu.memdesc_index %bars[%c0] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
  %r = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32, #acc>) : i32 {
    txlgpu.tmem_store %acc, %d : tensor<128x128xf32, #acc> -> <128x128xf32, #txlgpu.tensor_memory>
    %as = txlgpu.local_alloc %a : tensor<128x64xf16, #la> -> <128x64xf16, #sh>
    %bs = txlgpu.local_alloc %b : tensor<64x128xf16, #lb> -> <64x128xf16, #sh>
    txlgpu.tcgen05_mma %as, %bs, %d, %true commit %bar {leaderWarp = 0 : i32, txlgpu.sync_commit} : <128x64xf16, #sh> * <64x128xf16, #sh> -> <128x128xf32, #txlgpu.tensor_memory>, !txlgpu.memdesc<1xi64, #txlgpu.barrier>
    %out = txlgpu.tmem_load %d : <128x128xf32, #txlgpu.tensor_memory> -> tensor<128x128xf32, #acc>
    scf.yield %out : tensor<128x128xf32, #acc>
  }
  return %r : tensor<128x128xf32, #acc>
}

// A loop that reads the accumulator inside (here: the loop yields it and
// also stores it elsewhere) is left synchronous.
// CHECK-LABEL: func.func @reads_inside
// CHECK: arriveCount = 129
// CHECK: txlgpu.sync_commit
func.func @reads_inside(%a: tensor<128x64xf16, #la>, %b: tensor<64x128xf16, #lb>, %n: i32, %dst: !txlgpu.memdesc<128x128xf32, #txlgpu.tensor_memory>) -> tensor<128x128xf32, #acc> {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %true = arith.constant true
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #acc>
  %tm = txlgpu.tmem_alloc : <1x128x128xf32, #txlgpu.tensor_memory>
  %d = txlgpu.memdesc_index %tm[%c0] : <1x128x128xf32, #txlgpu.tensor_memory> -> <128x128xf32, #txlgpu.tensor_memory>
  %bars = txlgpu.mbar_alloc {arriveCount = 129 : i32} : <1xi64, #txlgpu.barrier>
  %bar = txlgpu.memdesc_index %bars[%c0] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
  %r = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32, #acc>) : i32 {
    txlgpu.tmem_store %acc, %d : tensor<128x128xf32, #acc> -> <128x128xf32, #txlgpu.tensor_memory>
    %as = txlgpu.local_alloc %a : tensor<128x64xf16, #la> -> <128x64xf16, #sh>
    %bs = txlgpu.local_alloc %b : tensor<64x128xf16, #lb> -> <64x128xf16, #sh>
    txlgpu.tcgen05_mma %as, %bs, %d, %true commit %bar {leaderWarp = 0 : i32, txlgpu.sync_commit} : <128x64xf16, #sh> * <64x128xf16, #sh> -> <128x128xf32, #txlgpu.tensor_memory>, !txlgpu.memdesc<1xi64, #txlgpu.barrier>
    %out = txlgpu.tmem_load %d : <128x128xf32, #txlgpu.tensor_memory> -> tensor<128x128xf32, #acc>
    txlgpu.tmem_store %out, %dst : tensor<128x128xf32, #acc> -> <128x128xf32, #txlgpu.tensor_memory>
    scf.yield %out : tensor<128x128xf32, #acc>
  }
  return %r : tensor<128x128xf32, #acc>
}

// tl.dot_scaled's block-scaled MMA (DotScaled.cpp's synchronous form) is
// pipelined the same way: A, B and both scale tiles get two shared stages,
// and the tensor-memory columns the scales are copied to become two-stage
// allocations indexed by the trip's stage (a later trip's tcgen05.cp must
// not overwrite columns an earlier trip's MMAs may still read; the stage
// wait orders it after them). The one-stage scale allocations are gone.
#s8 = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 8, order = [1, 0]}>
#s8t = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 8, order = [0, 1]}>
#plain = #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 8, order = [1, 0]}>
#ls = #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @scaled_k_loop
// CHECK: %[[RING:.*]] = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <2xi64
// CHECK-NOT: arriveCount = 129
// CHECK-DAG: %[[SA:.*]] = txlgpu.tmem_alloc : <2x128x4xi32
// CHECK-DAG: %[[SB:.*]] = txlgpu.tmem_alloc : <2x128x4xi32
// CHECK-NOT: <1x128x4xi32
// CHECK: txlgpu.tmem_store %{{.*}}, %[[D:[0-9]+]]
// CHECK-COUNT-2: txlgpu.smem_alloc {txlgpu.loop_staging} : <2x128x128xf8E4M3FN
// CHECK-COUNT-2: txlgpu.smem_alloc {txlgpu.loop_staging} : <2x32x16xi8
// CHECK: scf.for
// CHECK-NOT: txlgpu.tmem_
// CHECK: %[[SLOT:.*]] = txlgpu.memdesc_index %[[RING]]
// CHECK: arith.xori
// CHECK-NEXT: txlgpu.mbar_wait %[[SLOT]]
// CHECK: %[[STAGE:.*]] = arith.remsi
// CHECK-NEXT: txlgpu.memdesc_index %{{.*}}[%[[STAGE]]]
// CHECK-COUNT-4: txlgpu.smem_store
// CHECK: %[[SAI:.*]] = txlgpu.memdesc_index %[[SA]][%[[STAGE]]]
// CHECK: %[[SBI:.*]] = txlgpu.memdesc_index %[[SB]][%[[STAGE]]]
// CHECK: txlgpu.tcgen05_mma_scaled {{.*}}, %[[D]], %{{.*}} scales %{{.*}}, %{{.*}} to %[[SAI]], %[[SBI]] commit %{{.*}} {aFormat = "e4m3", bFormat = "e4m3", leaderWarp = 0 : i32} :
// CHECK-NOT: txlgpu.tmem_
// CHECK: scf.if
// CHECK: txlgpu.mbar_wait
// CHECK: %[[R:.*]] = txlgpu.tmem_load %[[D]]
// CHECK: return %[[R]]
func.func @scaled_k_loop(%a: tensor<128x128xf8E4M3FN, #la>, %b: tensor<128x128xf8E4M3FN, #lb>, %sa: tensor<32x16xi8, #ls>, %sb: tensor<32x16xi8, #ls>, %n: i32) -> tensor<128x128xf32, #acc> {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %true = arith.constant true
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #acc>
  %tm = txlgpu.tmem_alloc : <1x128x128xf32, #txlgpu.tensor_memory>
  %d = txlgpu.memdesc_index %tm[%c0] : <1x128x128xf32, #txlgpu.tensor_memory> -> <128x128xf32, #txlgpu.tensor_memory>
  %tsa = txlgpu.tmem_alloc : <1x128x4xi32, #txlgpu.tensor_memory>
  %csa = txlgpu.memdesc_index %tsa[%c0] : <1x128x4xi32, #txlgpu.tensor_memory> -> <128x4xi32, #txlgpu.tensor_memory>
  %tsb = txlgpu.tmem_alloc : <1x128x4xi32, #txlgpu.tensor_memory>
  %csb = txlgpu.memdesc_index %tsb[%c0] : <1x128x4xi32, #txlgpu.tensor_memory> -> <128x4xi32, #txlgpu.tensor_memory>
  %bars = txlgpu.mbar_alloc {arriveCount = 129 : i32} : <1xi64, #txlgpu.barrier>
  %bar = txlgpu.memdesc_index %bars[%c0] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
  %r = scf.for %k = %c0 to %n step %c128 iter_args(%acc = %zero) -> (tensor<128x128xf32, #acc>) : i32 {
    txlgpu.tmem_store %acc, %d : tensor<128x128xf32, #acc> -> <128x128xf32, #txlgpu.tensor_memory>
    %as = txlgpu.local_alloc %a : tensor<128x128xf8E4M3FN, #la> -> <128x128xf8E4M3FN, #s8>
    %bs = txlgpu.local_alloc %b : tensor<128x128xf8E4M3FN, #lb> -> <128x128xf8E4M3FN, #s8t>
    %ss = txlgpu.local_alloc %sa : tensor<32x16xi8, #ls> -> <32x16xi8, #plain>
    %st = txlgpu.local_alloc %sb : tensor<32x16xi8, #ls> -> <32x16xi8, #plain>
    txlgpu.barrier {txlgpu.fence_async_proxy}
    txlgpu.tcgen05_mma_scaled %as, %bs, %d, %true scales %ss, %st to %csa, %csb commit %bar {aFormat = "e4m3", bFormat = "e4m3", leaderWarp = 0 : i32, txlgpu.sync_commit} : <128x128xf8E4M3FN, #s8> * <128x128xf8E4M3FN, #s8t> -> <128x128xf32, #txlgpu.tensor_memory>, <32x16xi8, #plain>, <32x16xi8, #plain>, <128x4xi32, #txlgpu.tensor_memory>, <128x4xi32, #txlgpu.tensor_memory>, <1xi64, #txlgpu.barrier>
    %out = txlgpu.tmem_load %d : <128x128xf32, #txlgpu.tensor_memory> -> tensor<128x128xf32, #acc>
    scf.yield %out : tensor<128x128xf32, #acc>
  }
  return %r : tensor<128x128xf32, #acc>
}
