// AssignLayouts on sm_90a, operands from desc.load and from registers:
// - a wgmma operand read back from a desc.load's TMA tile (smem_load of a
//   site-private tile, maybe transposed) is read by the wgmma from that
//   tile (a memdesc_view for the transpose), not copied again by a
//   local_alloc;
// - a 16-bit A computed in a wgmma accumulator layout (softmax(S) cast to
//   fp16) is wgmma's register operand (dot_op, kWidth 2), no local_alloc;
// - an fp32 (tf32) B whose N dimension is contiguous is still staged
//   K-major by a local_alloc: wgmma reads only 16-bit operands MN-major.
// RUN: txl-opt %s -split-input-file --txl-assign-layouts | FileCheck %s

// CHECK-LABEL: func.func @attn
// CHECK: %[[O:.*]] = txlgpu.memdesc_index %{{.*}}[%c0_i32] : <1x64x64xf16> -> <64x64xf16>
// CHECK: %[[V:.*]] = txlgpu.memdesc_index %{{.*}}[%c0_i32] : <1x64x64xf16> -> <64x64xf16>
// CHECK: %[[K:.*]] = txlgpu.memdesc_index %{{.*}}[%c0_i32] : <1x64x64xf16> -> <64x64xf16>
// CHECK: %[[Q:.*]] = txlgpu.memdesc_index %{{.*}}[%c0_i32] : <1x64x64xf16> -> <64x64xf16>
// CHECK: scf.for
// CHECK: %[[KT:.*]] = txlgpu.memdesc_view %[[K]] {dim = 0 : i64, permutation = array<i32: 1, 0>, start = 0 : i64}
// CHECK: %[[S:.*]] = txlgpu.warp_group_dot %[[Q]], %[[KT]], %{{.*}} : !txlgpu.memdesc<64x64xf16> * <64x64xf16> -> tensor<64x64xf32, #txlgpu.nvmma<{version = 3
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #txlgpu.nvmma<{{.*}}>> to tensor<64x64xf16, #txlgpu.nvmma<{{.*}}>>
// CHECK: %[[PA:.*]] = txlgpu.convert_layout %[[P]] : {{.*}} -> tensor<64x64xf16, #txlgpu.dot_op<{opIdx = 0, parent = #txlgpu.nvmma<{{.*}}>, kWidth = 2}>>
// CHECK: txlgpu.warp_group_dot %[[PA]], %[[V]], %{{.*}} : tensor<64x64xf16, #txlgpu.dot_op<{{.*}}>> * <64x64xf16> -> tensor<64x64xf32
// CHECK-NOT: local_alloc
  func.func @attn(%arg0: !txlgpu.tensordesc<64x64xf16>, %arg1: !txlgpu.tensordesc<64x64xf16>, %arg2: !txlgpu.tensordesc<64x64xf16>, %arg3: !txlgpu.tensordesc<64x64xf16>, %arg4: i32) attributes {txl.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
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
    %14 = txlgpu.smem_load %11 : <64x64xf16> -> tensor<64x64xf16>
    %15 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %cst) -> (tensor<64x64xf32>)  : i32 {
      txlgpu.tma_load %arg1[%arg5, %c0_i32] -> %7, %9 {sync} : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
      %17 = txlgpu.smem_load %7 : <64x64xf16> -> tensor<64x64xf16>
      %18 = txl.trans %17 {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
      %19 = txl.dot %14, %18, %cst : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
      %20 = math.exp2 %19 : tensor<64x64xf32>
      %21 = arith.truncf %20 : tensor<64x64xf32> to tensor<64x64xf16>
      txlgpu.tma_load %arg2[%arg5, %c0_i32] -> %3, %5 {sync} : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
      %22 = txlgpu.smem_load %3 : <64x64xf16> -> tensor<64x64xf16>
      %23 = txl.dot %21, %22, %arg6 : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %23 : tensor<64x64xf32>
    } {txl.num_stages = 3 : i32}
    %16 = arith.truncf %15 : tensor<64x64xf32> to tensor<64x64xf16>
    txlgpu.smem_store %16, %1 : tensor<64x64xf16> -> <64x64xf16>
    txlgpu.tma_store %1 -> %arg3[%c0_i32, %c0_i32] : <64x64xf16> -> <64x64xf16>
    txlgpu.tma_store_wait {pendings = 0 : i32}
    txlgpu.barrier
    return
  }

// -----

// CHECK-LABEL: func.func @tf32
// CHECK: %[[B:.*]] = txlgpu.memdesc_index %{{.*}}[%c0_i32] : <1x32x64xf32> -> <32x64xf32>
// CHECK: %[[A:.*]] = txlgpu.memdesc_index %{{.*}}[%c0_i32] : <1x64x32xf32> -> <64x32xf32>
// CHECK: %[[BV:.*]] = txlgpu.smem_load %[[B]]
// CHECK: %[[BS:.*]] = txlgpu.local_alloc %[[BV]] : {{.*}} -> <32x64xf32, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 32, order = [0, 1]}>>
// CHECK: txlgpu.warp_group_dot %[[A]], %[[BS]], %{{.*}} : !txlgpu.memdesc<64x32xf32> * <32x64xf32
  func.func @tf32(%arg0: !txlgpu.tensordesc<64x32xf32>, %arg1: !txlgpu.tensordesc<32x64xf32>, %arg2: !txl.ptr<f32> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %0 = txlgpu.smem_alloc : <1x32x64xf32>
    %1 = txlgpu.memdesc_index %0[%c0_i32] : <1x32x64xf32> -> <32x64xf32>
    %2 = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %3 = txlgpu.memdesc_index %2[%c0_i32] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    %4 = txlgpu.smem_alloc : <1x64x32xf32>
    %5 = txlgpu.memdesc_index %4[%c0_i32] : <1x64x32xf32> -> <64x32xf32>
    %6 = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %7 = txlgpu.memdesc_index %6[%c0_i32] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    txlgpu.tma_load %arg0[%c0_i32, %c0_i32] -> %5, %7 {sync} : <64x32xf32> -> <64x32xf32>, <1xi64, #txlgpu.barrier>
    %8 = txlgpu.smem_load %5 : <64x32xf32> -> tensor<64x32xf32>
    txlgpu.tma_load %arg1[%c0_i32, %c0_i32] -> %1, %3 {sync} : <32x64xf32> -> <32x64xf32>, <1xi64, #txlgpu.barrier>
    %9 = txlgpu.smem_load %1 : <32x64xf32> -> tensor<32x64xf32>
    %10 = txl.dot %8, %9, %cst : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %11 = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %12 = txl.expand_dims %11 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %13 = txl.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %14 = arith.muli %12, %13 : tensor<64x1xi32>
    %15 = txl.splat %arg2 : !txl.ptr<f32> -> tensor<64x1x!txl.ptr<f32>>
    %16 = txl.addptr %15, %14 : tensor<64x1x!txl.ptr<f32>>, tensor<64x1xi32>
    %17 = txl.expand_dims %11 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %18 = txl.broadcast %16 : tensor<64x1x!txl.ptr<f32>> -> tensor<64x64x!txl.ptr<f32>>
    %19 = txl.broadcast %17 : tensor<1x64xi32> -> tensor<64x64xi32>
    %20 = txl.addptr %18, %19 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xi32>
    txl.store %20, %10 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xf32>
    return
  }
