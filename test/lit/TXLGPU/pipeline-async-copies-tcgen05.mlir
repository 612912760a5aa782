// PipelineAsyncCopies on sm_100a: the tutorial matmul loop (examples/matmul.py
// at 128x128x64, its tile IR as txlc writes it) whose plain dot AssignLayouts
// made a synchronous tcgen05 MMA. The accumulator is stored to TMEM once
// before the loop (and not carried in registers through it), A and B stream
// into three stages with cp.async two iterations ahead, the MMA commits to
// its stage's barrier of a ring of three (count 1; the synchronous form's
// barrier of 129 is gone), every thread waits for the previous iteration's
// commit (parity flipped: the first wait passes at once) before copying into
// the stage it read, and after the loop every thread waits for the last
// commit before the one TMEM read.
// RUN: txl-opt %s --txl-assign-layouts --txlgpu-pipeline-async-copies="num-stages=3" | FileCheck %s
// CHECK-LABEL: func.func @matmul_kernel
// CHECK: %[[RING:.*]] = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <3xi64
// CHECK-NOT: arriveCount = 129
// CHECK: txlgpu.tmem_store %{{.*}}, %[[D:[0-9]+]]
// CHECK: txlgpu.smem_alloc {txlgpu.loop_staging} : <3x128x64xf16
// CHECK: txlgpu.smem_alloc {txlgpu.loop_staging} : <3x64x128xf16
// CHECK: txlgpu.async_commit_group
// CHECK: txlgpu.async_commit_group
// CHECK: scf.for %[[IV:.*]] = %{{.*}} iter_args(
// CHECK-NEXT: txlgpu.async_wait {pendings = 1 : i32}
// CHECK-NOT: txlgpu.tmem_
// CHECK: %[[TRIP:.*]] = arith.divsi
// CHECK-NOT: txlgpu.tmem_
// CHECK: %[[SLOT:.*]] = txlgpu.memdesc_index %[[RING]]
// CHECK-NEXT: txlgpu.tcgen05_mma %{{.*}}, %{{.*}}, %[[D]], %true commit %[[SLOT]] {leaderWarp = 0 : i32} :
// CHECK-NOT: txlgpu.tmem_
// CHECK: %[[AHEAD:.*]] = arith.addi %[[TRIP]], %c2_i32
// CHECK: txlgpu.memdesc_index %[[RING]]
// CHECK: arith.xori
// CHECK-NEXT: txlgpu.mbar_wait
// CHECK-NOT: txlgpu.tmem_
// CHECK: txlgpu.async_copy_global_to_local
// CHECK: txlgpu.async_copy_global_to_local
// CHECK: txlgpu.async_commit_group
// CHECK-NOT: txlgpu.tmem_
// CHECK: scf.yield
// CHECK: txlgpu.async_wait {pendings = 0 : i32}
// CHECK: scf.if
// CHECK: txlgpu.mbar_wait
// CHECK: txlgpu.tmem_load %[[D]]
module attributes {txl.source_file = "examples/matmul.py", txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_100a"} {
  func.func @matmul_kernel(%arg0: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %arg1: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %arg2: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %arg3: i32 {txl.divisibility = 16 : i32}, %arg4: i32 {txl.divisibility = 16 : i32}, %arg5: i32 {txl.divisibility = 16 : i32}, %arg6: i32 {txl.divisibility = 16 : i32}, %arg7: i32 {txl.equal_to_1}, %arg8: i32 {txl.divisibility = 16 : i32}, %arg9: i32 {txl.equal_to_1}, %arg10: i32 {txl.divisibility = 16 : i32}, %arg11: i32 {txl.equal_to_1}) attributes {txl.kernel} {
    %c63_i32 = arith.constant 63 : i32
    %c127_i32 = arith.constant 127 : i32
    %cst = arith.constant 0.000000e+00 : f16
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %c8_i32 = arith.constant 8 : i32
    %c128_i32 = arith.constant 128 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = txl.program_id 0 : i32
    %1 = arith.addi %arg3, %c127_i32 : i32
    %2 = arith.divsi %1, %c128_i32 : i32
    %3 = arith.addi %arg4, %c127_i32 : i32
    %4 = arith.divsi %3, %c128_i32 : i32
    %5 = arith.muli %4, %c8_i32 : i32
    %6 = arith.divsi %0, %5 : i32
    %7 = arith.muli %6, %c8_i32 : i32
    %8 = arith.subi %2, %7 : i32
    %9 = arith.minsi %8, %c8_i32 : i32
    %10 = arith.remsi %0, %5 : i32
    %11 = arith.remsi %10, %9 : i32
    %12 = arith.addi %7, %11 : i32
    %13 = arith.divsi %10, %9 : i32
    %14 = arith.muli %12, %c128_i32 : i32
    %15 = txl.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %16 = txl.splat %14 : i32 -> tensor<128xi32>
    %17 = arith.addi %16, %15 : tensor<128xi32>
    %18 = arith.muli %13, %c128_i32 : i32
    %19 = txl.splat %18 : i32 -> tensor<128xi32>
    %20 = arith.addi %19, %15 : tensor<128xi32>
    %21 = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %22 = txl.expand_dims %17 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %23 = txl.splat %arg6 : i32 -> tensor<128x1xi32>
    %24 = arith.muli %22, %23 : tensor<128x1xi32>
    %25 = txl.splat %arg0 : !txl.ptr<f16> -> tensor<128x1x!txl.ptr<f16>>
    %26 = txl.addptr %25, %24 : tensor<128x1x!txl.ptr<f16>>, tensor<128x1xi32>
    %27 = txl.expand_dims %21 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %28 = txl.splat %c1_i32 : i32 -> tensor<1x64xi32>
    %29 = arith.muli %27, %28 : tensor<1x64xi32>
    %30 = txl.broadcast %26 : tensor<128x1x!txl.ptr<f16>> -> tensor<128x64x!txl.ptr<f16>>
    %31 = txl.broadcast %29 : tensor<1x64xi32> -> tensor<128x64xi32>
    %32 = txl.addptr %30, %31 : tensor<128x64x!txl.ptr<f16>>, tensor<128x64xi32>
    %33 = txl.expand_dims %21 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %34 = txl.splat %arg8 : i32 -> tensor<64x1xi32>
    %35 = arith.muli %33, %34 : tensor<64x1xi32>
    %36 = txl.splat %arg1 : !txl.ptr<f16> -> tensor<64x1x!txl.ptr<f16>>
    %37 = txl.addptr %36, %35 : tensor<64x1x!txl.ptr<f16>>, tensor<64x1xi32>
    %38 = txl.expand_dims %20 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %39 = txl.splat %c1_i32 : i32 -> tensor<1x128xi32>
    %40 = arith.muli %38, %39 : tensor<1x128xi32>
    %41 = txl.broadcast %37 : tensor<64x1x!txl.ptr<f16>> -> tensor<64x128x!txl.ptr<f16>>
    %42 = txl.broadcast %40 : tensor<1x128xi32> -> tensor<64x128xi32>
    %43 = txl.addptr %41, %42 : tensor<64x128x!txl.ptr<f16>>, tensor<64x128xi32>
    %44 = arith.addi %arg5, %c63_i32 : i32
    %45 = arith.divsi %44, %c64_i32 : i32
    %46:3 = scf.for %arg12 = %c0_i32 to %45 step %c1_i32 iter_args(%arg13 = %32, %arg14 = %cst_0, %arg15 = %43) -> (tensor<128x64x!txl.ptr<f16>>, tensor<128x128xf32>, tensor<64x128x!txl.ptr<f16>>)  : i32 {
      %62 = arith.muli %arg12, %c64_i32 : i32
      %63 = arith.subi %arg5, %62 : i32
      %64 = txl.splat %arg3 : i32 -> tensor<128x1xi32>
      %65 = arith.cmpi slt, %22, %64 : tensor<128x1xi32>
      %66 = txl.splat %63 : i32 -> tensor<1x64xi32>
      %67 = arith.cmpi slt, %27, %66 : tensor<1x64xi32>
      %68 = txl.broadcast %65 : tensor<128x1xi1> -> tensor<128x64xi1>
      %69 = txl.broadcast %67 : tensor<1x64xi1> -> tensor<128x64xi1>
      %70 = arith.andi %68, %69 : tensor<128x64xi1>
      %71 = txl.splat %cst : f16 -> tensor<128x64xf16>
      %72 = txl.load %arg13, %70, %71 : tensor<128x64x!txl.ptr<f16>>, tensor<128x64xi1>, tensor<128x64xf16> -> tensor<128x64xf16>
      %73 = txl.splat %63 : i32 -> tensor<64x1xi32>
      %74 = arith.cmpi slt, %33, %73 : tensor<64x1xi32>
      %75 = txl.splat %arg4 : i32 -> tensor<1x128xi32>
      %76 = arith.cmpi slt, %38, %75 : tensor<1x128xi32>
      %77 = txl.broadcast %74 : tensor<64x1xi1> -> tensor<64x128xi1>
      %78 = txl.broadcast %76 : tensor<1x128xi1> -> tensor<64x128xi1>
      %79 = arith.andi %77, %78 : tensor<64x128xi1>
      %80 = txl.splat %cst : f16 -> tensor<64x128xf16>
      %81 = txl.load %arg15, %79, %80 : tensor<64x128x!txl.ptr<f16>>, tensor<64x128xi1>, tensor<64x128xf16> -> tensor<64x128xf16>
      %82 = txl.dot %72, %81, %cst_0 : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
      %83 = arith.addf %arg14, %82 : tensor<128x128xf32>
      %84 = txl.splat %c64_i32 : i32 -> tensor<128x64xi32>
      %85 = txl.addptr %arg13, %84 : tensor<128x64x!txl.ptr<f16>>, tensor<128x64xi32>
      %86 = arith.muli %arg8, %c64_i32 : i32
      %87 = txl.splat %86 : i32 -> tensor<64x128xi32>
      %88 = txl.addptr %arg15, %87 : tensor<64x128x!txl.ptr<f16>>, tensor<64x128xi32>
      scf.yield %85, %83, %88 : tensor<128x64x!txl.ptr<f16>>, tensor<128x128xf32>, tensor<64x128x!txl.ptr<f16>>
    }
    %47 = arith.truncf %46#1 : tensor<128x128xf32> to tensor<128x128xf16>
    %48 = txl.splat %arg10 : i32 -> tensor<128x1xi32>
    %49 = arith.muli %22, %48 : tensor<128x1xi32>
    %50 = txl.splat %arg2 : !txl.ptr<f16> -> tensor<128x1x!txl.ptr<f16>>
    %51 = txl.addptr %50, %49 : tensor<128x1x!txl.ptr<f16>>, tensor<128x1xi32>
    %52 = txl.broadcast %51 : tensor<128x1x!txl.ptr<f16>> -> tensor<128x128x!txl.ptr<f16>>
    %53 = txl.broadcast %40 : tensor<1x128xi32> -> tensor<128x128xi32>
    %54 = txl.addptr %52, %53 : tensor<128x128x!txl.ptr<f16>>, tensor<128x128xi32>
    %55 = txl.splat %arg3 : i32 -> tensor<128x1xi32>
    %56 = arith.cmpi slt, %22, %55 : tensor<128x1xi32>
    %57 = txl.splat %arg4 : i32 -> tensor<1x128xi32>
    %58 = arith.cmpi slt, %38, %57 : tensor<1x128xi32>
    %59 = txl.broadcast %56 : tensor<128x1xi1> -> tensor<128x128xi1>
    %60 = txl.broadcast %58 : tensor<1x128xi1> -> tensor<128x128xi1>
    %61 = arith.andi %59, %60 : tensor<128x128xi1>
    txl.store %54, %47, %61 : tensor<128x128x!txl.ptr<f16>>, tensor<128x128xf16>, tensor<128x128xi1>
    return
  }
}
