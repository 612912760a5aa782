// PrefetchLoopLoads: the loads that feed a dot in a loop are issued one
// iteration ahead. The first iteration's tiles are loaded before the loop
// (predicated on the loop running at all); the loop carries the tiles it
// multiplies; the end of each iteration recomputes the addresses from the
// values it yields (ptrs + BLOCK_K) and the mask from iv + step, and loads
// the next tiles under `iv + step < ub`.
// RUN: txl-opt %s -split-input-file --txlgpu-prefetch-loop-loads | FileCheck %s
// CHECK-LABEL: func.func @k
// CHECK: %[[UB:.*]] = arith.divsi
// CHECK: %[[R0:.*]] = arith.cmpi slt, %c0_i32, %[[UB]] : i32
// CHECK: %[[R0S:.*]] = txl.splat %[[R0]] : i1 -> tensor<64x32xi1>
// CHECK: %[[M0:.*]] = arith.andi %{{.*}}, %[[R0S]] : tensor<64x32xi1>
// CHECK: %[[A0:.*]] = txl.load %[[APTRS:[0-9]+]], %[[M0]], %{{.*}} : tensor<64x32x!txl.ptr<f16>>
// CHECK: %[[B0:.*]] = txl.load %[[BPTRS:[0-9]+]], %{{.*}} : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi1>
// CHECK: scf.for %[[IV:.*]] = %c0_i32 to %[[UB]] step %c1_i32 iter_args(%[[AP:.*]] = %[[APTRS]], %[[ACC:.*]] = %cst_0, %[[BP:.*]] = %[[BPTRS]], %[[A:.*]] = %[[A0]], %[[B:.*]] = %[[B0]])
// CHECK-NOT: txl.load
// CHECK: txl.dot %[[A]], %[[B]], %cst_0
// CHECK: %[[AN:.*]] = txl.addptr %[[AP]]
// CHECK: %[[BN:.*]] = txl.addptr %[[BP]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[IV]], %c1_i32 : i32
// CHECK: arith.muli %[[NEXT]], %c32_i32
// CHECK: %[[R1:.*]] = arith.cmpi slt, %[[NEXT]], %[[UB]] : i32
// CHECK: %[[R1S:.*]] = txl.splat %[[R1]] : i1 -> tensor<64x32xi1>
// CHECK: %[[M1:.*]] = arith.andi %{{.*}}, %[[R1S]]
// CHECK: %[[A1:.*]] = txl.load %[[AN]], %[[M1]], %{{.*}}
// CHECK: %[[B1:.*]] = txl.load %[[BN]], %{{.*}} : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi1>
// CHECK: scf.yield %[[AN]], %{{.*}}, %[[BN]], %[[A1]], %[[B1]]
module attributes {txl.source_file = "k.py"} {
  func.func @k(%arg0: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %arg1: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %arg2: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %arg3: i32) attributes {txl.kernel} {
    %c31_i32 = arith.constant 31 : i32
    %c2048_i32 = arith.constant 2048 : i32
    %cst = arith.constant 0.000000e+00 : f16
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c64_i32 = arith.constant 64 : i32
    %0 = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %1 = txl.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %2 = txl.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %3 = txl.splat %arg3 : i32 -> tensor<64x1xi32>
    %4 = arith.muli %2, %3 : tensor<64x1xi32>
    %5 = txl.splat %arg0 : !txl.ptr<f16> -> tensor<64x1x!txl.ptr<f16>>
    %6 = txl.addptr %5, %4 : tensor<64x1x!txl.ptr<f16>>, tensor<64x1xi32>
    %7 = txl.expand_dims %1 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %8 = txl.broadcast %6 : tensor<64x1x!txl.ptr<f16>> -> tensor<64x32x!txl.ptr<f16>>
    %9 = txl.broadcast %7 : tensor<1x32xi32> -> tensor<64x32xi32>
    %10 = txl.addptr %8, %9 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi32>
    %11 = txl.expand_dims %1 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %12 = txl.splat %c64_i32 : i32 -> tensor<32x1xi32>
    %13 = arith.muli %11, %12 : tensor<32x1xi32>
    %14 = txl.splat %arg1 : !txl.ptr<f16> -> tensor<32x1x!txl.ptr<f16>>
    %15 = txl.addptr %14, %13 : tensor<32x1x!txl.ptr<f16>>, tensor<32x1xi32>
    %16 = txl.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %17 = txl.broadcast %15 : tensor<32x1x!txl.ptr<f16>> -> tensor<32x64x!txl.ptr<f16>>
    %18 = txl.broadcast %16 : tensor<1x64xi32> -> tensor<32x64xi32>
    %19 = txl.addptr %17, %18 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
    %20 = arith.addi %arg3, %c31_i32 : i32
    %21 = arith.divsi %20, %c32_i32 : i32
    %22:3 = scf.for %arg4 = %c0_i32 to %21 step %c1_i32 iter_args(%arg5 = %10, %arg6 = %cst_0, %arg7 = %19) -> (tensor<64x32x!txl.ptr<f16>>, tensor<64x64xf32>, tensor<32x64x!txl.ptr<f16>>)  : i32 {
      %30 = arith.muli %arg4, %c32_i32 : i32
      %31 = arith.subi %arg3, %30 : i32
      %32 = txl.splat %31 : i32 -> tensor<1x32xi32>
      %33 = arith.cmpi slt, %7, %32 : tensor<1x32xi32>
      %34 = txl.broadcast %33 : tensor<1x32xi1> -> tensor<64x32xi1>
      %35 = txl.splat %cst : f16 -> tensor<64x32xf16>
      %36 = txl.load %arg5, %34, %35 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi1>, tensor<64x32xf16> -> tensor<64x32xf16>
      %37 = txl.load %arg7 : tensor<32x64x!txl.ptr<f16>> -> tensor<32x64xf16>
      %38 = txl.dot %36, %37, %cst_0 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
      %39 = arith.addf %arg6, %38 : tensor<64x64xf32>
      %40 = txl.splat %c32_i32 : i32 -> tensor<64x32xi32>
      %41 = txl.addptr %arg5, %40 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi32>
      %42 = txl.splat %c2048_i32 : i32 -> tensor<32x64xi32>
      %43 = txl.addptr %arg7, %42 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
      scf.yield %41, %39, %43 : tensor<64x32x!txl.ptr<f16>>, tensor<64x64xf32>, tensor<32x64x!txl.ptr<f16>>
    }
    %23 = txl.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %24 = arith.muli %2, %23 : tensor<64x1xi32>
    %25 = txl.splat %arg2 : !txl.ptr<f32> -> tensor<64x1x!txl.ptr<f32>>
    %26 = txl.addptr %25, %24 : tensor<64x1x!txl.ptr<f32>>, tensor<64x1xi32>
    %27 = txl.broadcast %26 : tensor<64x1x!txl.ptr<f32>> -> tensor<64x64x!txl.ptr<f32>>
    %28 = txl.broadcast %16 : tensor<1x64xi32> -> tensor<64x64xi32>
    %29 = txl.addptr %27, %28 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xi32>
    txl.store %29, %22#1 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xf32>
    return
  }
}

// -----

// A load that does not feed a dot stays where it is.
// CHECK-LABEL: func.func @no_dot
// CHECK: scf.for
// CHECK-NEXT: txl.load
module {
  func.func @no_dot(%p: tensor<64x!txl.ptr<f32>>, %n: i32) -> tensor<64xf32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64xf32>) : i32 {
      %v = txl.load %p : tensor<64x!txl.ptr<f32>> -> tensor<64xf32>
      %s = arith.addf %acc, %v : tensor<64xf32>
      scf.yield %s : tensor<64xf32>
    }
    return %r : tensor<64xf32>
  }
}
