// PipelineAsyncCopies: the tutorial matmul loop (examples/matmul.py, 64x64x32
// tiles, M/N/K and strides divisible by 16) streams its A and B tiles into
// three-stage shared buffers with cp.async: two iterations are copied before
// the loop (stages 0 and 1, each skipped past the end and committed as a
// group), each iteration waits for its own group (async_wait 1), runs its
// wgmma on the stage it carries, keeps one wgmma pending, synchronizes and
// copies iteration i+2 into stage (s+2) mod 3 from the carried pointers,
// which the loop then advances. The loads and local_allocs are gone.
// RUN: txl-opt %s -split-input-file --txl-assign-layouts="target=sm_90a" --txlgpu-pipeline-async-copies="num-stages=3" | FileCheck %s
// num-stages=4: four stages, two copies in flight (tl.range's num_stages,
// which overrides the option per loop, is checked in e2e/async-copy.mlir).
// RUN: txl-opt %s -split-input-file --txl-assign-layouts="target=sm_90a" --txlgpu-pipeline-async-copies="num-stages=4" | FileCheck %s --check-prefix=FOUR
// CHECK-LABEL: func.func @matmul_kernel
// CHECK: %[[SA:.*]] = txlgpu.smem_alloc {txlgpu.loop_staging} : <3x64x32xf16, #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [1, 0]}>>
// CHECK: %[[SB:.*]] = txlgpu.smem_alloc {txlgpu.loop_staging} : <3x32x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// CHECK: scf.if
// CHECK: %[[A0:.*]] = txlgpu.memdesc_index %[[SA]][%c0_i32
// CHECK: txlgpu.async_copy_global_to_local %{{.*}}, %[[A0]], %{{.*}} {txlgpu.vec = 8 : i32}
// CHECK: txlgpu.async_copy_global_to_local
// CHECK: txlgpu.async_commit_group
// CHECK: scf.if
// CHECK: txlgpu.memdesc_index %[[SA]][%c1_i32
// CHECK: txlgpu.async_commit_group
// The accumulator enters the loop through a wait (see drainAfterLoop).
// CHECK: %[[INIT:.*]] = txlgpu.warp_group_dot_wait %cst_0 {pendings = 0 : i32}
// CHECK-NEXT: %[[LOOP:.*]]:4 = scf.for %[[IV:.*]] = %c0_i32 to %{{.*}} step %c1_i32 iter_args(%[[AP:.*]] = %{{.*}}, %[[ACC:.*]] = %[[INIT]], %[[BP:.*]] = %{{.*}}, %[[ST:.*]] = %c0_i32
// CHECK-NEXT: txlgpu.async_wait {pendings = 1 : i32}
// CHECK-NOT: txl.load
// CHECK-NOT: local_alloc
// CHECK: %[[A:.*]] = txlgpu.memdesc_index %[[SA]][%[[ST]]]
// CHECK: %[[B:.*]] = txlgpu.memdesc_index %[[SB]][%[[ST]]]
// CHECK: %[[D:.*]] = txlgpu.warp_group_dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: %[[W:.*]] = txlgpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK-NEXT: txlgpu.barrier
// CHECK: %[[AHEAD:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK: scf.if
// CHECK: txlgpu.async_copy_global_to_local %[[AP]], %{{.*}}, %{{.*}} {txlgpu.vec = 8 : i32}
// CHECK: txlgpu.async_copy_global_to_local %[[BP]], %{{.*}}, %{{.*}} {txlgpu.vec = 8 : i32}
// CHECK: txlgpu.async_commit_group
// CHECK: %[[NA:.*]] = txl.addptr %[[AP]]
// CHECK: %[[NB:.*]] = txl.addptr %[[BP]]
// CHECK: scf.yield %{{[0-9]+}}, %[[W]], %{{[0-9]+}}, %{{[0-9]+}}
// CHECK: %[[DONE:.*]] = txlgpu.warp_group_dot_wait %[[LOOP]]#1 {pendings = 0 : i32}
// CHECK-NEXT: txlgpu.async_wait {pendings = 0 : i32}
// CHECK: txlgpu.convert_layout %[[DONE]]
// FOUR: txlgpu.smem_alloc {txlgpu.loop_staging} : <4x64x32xf16
// FOUR: txlgpu.async_wait {pendings = 2 : i32}
module attributes {txl.source_file = "examples/matmul.py"} {
  func.func @matmul_kernel(%arg0: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %arg1: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %arg2: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %arg3: i32 {txl.divisibility = 16 : i32}, %arg4: i32 {txl.divisibility = 16 : i32}, %arg5: i32 {txl.divisibility = 16 : i32}, %arg6: i32 {txl.divisibility = 16 : i32}, %arg7: i32 {txl.equal_to_1}, %arg8: i32 {txl.divisibility = 16 : i32}, %arg9: i32 {txl.equal_to_1}, %arg10: i32 {txl.divisibility = 16 : i32}, %arg11: i32 {txl.equal_to_1}) attributes {txl.kernel} {
    %c31_i32 = arith.constant 31 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst = arith.constant 0.000000e+00 : f16
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c8_i32 = arith.constant 8 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = txl.program_id 0 : i32
    %1 = arith.addi %arg3, %c63_i32 : i32
    %2 = arith.divsi %1, %c64_i32 : i32
    %3 = arith.addi %arg4, %c63_i32 : i32
    %4 = arith.divsi %3, %c64_i32 : i32
    %5 = arith.muli %4, %c8_i32 : i32
    %6 = arith.divsi %0, %5 : i32
    %7 = arith.muli %6, %c8_i32 : i32
    %8 = arith.subi %2, %7 : i32
    %9 = arith.minsi %8, %c8_i32 : i32
    %10 = arith.remsi %0, %5 : i32
    %11 = arith.remsi %10, %9 : i32
    %12 = arith.addi %7, %11 : i32
    %13 = arith.divsi %10, %9 : i32
    %14 = arith.muli %12, %c64_i32 : i32
    %15 = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %16 = txl.splat %14 : i32 -> tensor<64xi32>
    %17 = arith.addi %16, %15 : tensor<64xi32>
    %18 = arith.muli %13, %c64_i32 : i32
    %19 = txl.splat %18 : i32 -> tensor<64xi32>
    %20 = arith.addi %19, %15 : tensor<64xi32>
    %21 = txl.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %22 = txl.expand_dims %17 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %23 = txl.splat %arg6 : i32 -> tensor<64x1xi32>
    %24 = arith.muli %22, %23 : tensor<64x1xi32>
    %25 = txl.splat %arg0 : !txl.ptr<f16> -> tensor<64x1x!txl.ptr<f16>>
    %26 = txl.addptr %25, %24 : tensor<64x1x!txl.ptr<f16>>, tensor<64x1xi32>
    %27 = txl.expand_dims %21 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %28 = txl.splat %c1_i32 : i32 -> tensor<1x32xi32>
    %29 = arith.muli %27, %28 : tensor<1x32xi32>
    %30 = txl.broadcast %26 : tensor<64x1x!txl.ptr<f16>> -> tensor<64x32x!txl.ptr<f16>>
    %31 = txl.broadcast %29 : tensor<1x32xi32> -> tensor<64x32xi32>
    %32 = txl.addptr %30, %31 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi32>
    %33 = txl.expand_dims %21 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %34 = txl.splat %arg8 : i32 -> tensor<32x1xi32>
    %35 = arith.muli %33, %34 : tensor<32x1xi32>
    %36 = txl.splat %arg1 : !txl.ptr<f16> -> tensor<32x1x!txl.ptr<f16>>
    %37 = txl.addptr %36, %35 : tensor<32x1x!txl.ptr<f16>>, tensor<32x1xi32>
    %38 = txl.expand_dims %20 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %39 = txl.splat %c1_i32 : i32 -> tensor<1x64xi32>
    %40 = arith.muli %38, %39 : tensor<1x64xi32>
    %41 = txl.broadcast %37 : tensor<32x1x!txl.ptr<f16>> -> tensor<32x64x!txl.ptr<f16>>
    %42 = txl.broadcast %40 : tensor<1x64xi32> -> tensor<32x64xi32>
    %43 = txl.addptr %41, %42 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
    %44 = arith.addi %arg5, %c31_i32 : i32
    %45 = arith.divsi %44, %c32_i32 : i32
    %46:3 = scf.for %arg12 = %c0_i32 to %45 step %c1_i32 iter_args(%arg13 = %32, %arg14 = %cst_0, %arg15 = %43) -> (tensor<64x32x!txl.ptr<f16>>, tensor<64x64xf32>, tensor<32x64x!txl.ptr<f16>>)  : i32 {
      %61 = arith.muli %arg12, %c32_i32 : i32
      %62 = arith.subi %arg5, %61 : i32
      %63 = txl.splat %arg3 : i32 -> tensor<64x1xi32>
      %64 = arith.cmpi slt, %22, %63 : tensor<64x1xi32>
      %65 = txl.splat %62 : i32 -> tensor<1x32xi32>
      %66 = arith.cmpi slt, %27, %65 : tensor<1x32xi32>
      %67 = txl.broadcast %64 : tensor<64x1xi1> -> tensor<64x32xi1>
      %68 = txl.broadcast %66 : tensor<1x32xi1> -> tensor<64x32xi1>
      %69 = arith.andi %67, %68 : tensor<64x32xi1>
      %70 = txl.splat %cst : f16 -> tensor<64x32xf16>
      %71 = txl.load %arg13, %69, %70 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi1>, tensor<64x32xf16> -> tensor<64x32xf16>
      %72 = txl.splat %62 : i32 -> tensor<32x1xi32>
      %73 = arith.cmpi slt, %33, %72 : tensor<32x1xi32>
      %74 = txl.splat %arg4 : i32 -> tensor<1x64xi32>
      %75 = arith.cmpi slt, %38, %74 : tensor<1x64xi32>
      %76 = txl.broadcast %73 : tensor<32x1xi1> -> tensor<32x64xi1>
      %77 = txl.broadcast %75 : tensor<1x64xi1> -> tensor<32x64xi1>
      %78 = arith.andi %76, %77 : tensor<32x64xi1>
      %79 = txl.splat %cst : f16 -> tensor<32x64xf16>
      %80 = txl.load %arg15, %78, %79 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi1>, tensor<32x64xf16> -> tensor<32x64xf16>
      %81 = txl.dot %71, %80, %arg14 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
      %82 = txl.splat %c32_i32 : i32 -> tensor<64x32xi32>
      %83 = txl.addptr %arg13, %82 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi32>
      %84 = arith.muli %arg8, %c32_i32 : i32
      %85 = txl.splat %84 : i32 -> tensor<32x64xi32>
      %86 = txl.addptr %arg15, %85 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
      scf.yield %83, %81, %86 : tensor<64x32x!txl.ptr<f16>>, tensor<64x64xf32>, tensor<32x64x!txl.ptr<f16>>
    }
    %47 = txl.splat %arg10 : i32 -> tensor<64x1xi32>
    %48 = arith.muli %22, %47 : tensor<64x1xi32>
    %49 = txl.splat %arg2 : !txl.ptr<f32> -> tensor<64x1x!txl.ptr<f32>>
    %50 = txl.addptr %49, %48 : tensor<64x1x!txl.ptr<f32>>, tensor<64x1xi32>
    %51 = txl.broadcast %50 : tensor<64x1x!txl.ptr<f32>> -> tensor<64x64x!txl.ptr<f32>>
    %52 = txl.broadcast %40 : tensor<1x64xi32> -> tensor<64x64xi32>
    %53 = txl.addptr %51, %52 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xi32>
    %54 = txl.splat %arg3 : i32 -> tensor<64x1xi32>
    %55 = arith.cmpi slt, %22, %54 : tensor<64x1xi32>
    %56 = txl.splat %arg4 : i32 -> tensor<1x64xi32>
    %57 = arith.cmpi slt, %38, %56 : tensor<1x64xi32>
    %58 = txl.broadcast %55 : tensor<64x1xi1> -> tensor<64x64xi1>
    %59 = txl.broadcast %57 : tensor<1x64xi1> -> tensor<64x64xi1>
    %60 = arith.andi %58, %59 : tensor<64x64xi1>
    txl.store %53, %46#1, %60 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>
    return
  }
}

// -----

// N is not known to be a multiple of 16, so B's rows give no 4-byte runs:
// the loop is left alone (PrefetchLoopLoads and PipelineWarpGroupDots take it).
// CHECK-LABEL: func.func @matmul_kernel
// CHECK-NOT: async_copy
// CHECK: txl.load
// CHECK: txlgpu.local_alloc
// CHECK: txlgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
module attributes {txl.source_file = "examples/matmul.py"} {
  func.func @matmul_kernel(%arg0: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %arg1: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %arg2: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32 {txl.divisibility = 16 : i32}, %arg6: i32 {txl.divisibility = 16 : i32}, %arg7: i32 {txl.equal_to_1}, %arg8: i32 {txl.divisibility = 16 : i32}, %arg9: i32 {txl.equal_to_1}, %arg10: i32 {txl.divisibility = 16 : i32}, %arg11: i32 {txl.equal_to_1}) attributes {txl.kernel} {
    %c31_i32 = arith.constant 31 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst = arith.constant 0.000000e+00 : f16
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c8_i32 = arith.constant 8 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = txl.program_id 0 : i32
    %1 = arith.addi %arg3, %c63_i32 : i32
    %2 = arith.divsi %1, %c64_i32 : i32
    %3 = arith.addi %arg4, %c63_i32 : i32
    %4 = arith.divsi %3, %c64_i32 : i32
    %5 = arith.muli %4, %c8_i32 : i32
    %6 = arith.divsi %0, %5 : i32
    %7 = arith.muli %6, %c8_i32 : i32
    %8 = arith.subi %2, %7 : i32
    %9 = arith.minsi %8, %c8_i32 : i32
    %10 = arith.remsi %0, %5 : i32
    %11 = arith.remsi %10, %9 : i32
    %12 = arith.addi %7, %11 : i32
    %13 = arith.divsi %10, %9 : i32
    %14 = arith.muli %12, %c64_i32 : i32
    %15 = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %16 = txl.splat %14 : i32 -> tensor<64xi32>
    %17 = arith.addi %16, %15 : tensor<64xi32>
    %18 = arith.muli %13, %c64_i32 : i32
    %19 = txl.splat %18 : i32 -> tensor<64xi32>
    %20 = arith.addi %19, %15 : tensor<64xi32>
    %21 = txl.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %22 = txl.expand_dims %17 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %23 = txl.splat %arg6 : i32 -> tensor<64x1xi32>
    %24 = arith.muli %22, %23 : tensor<64x1xi32>
    %25 = txl.splat %arg0 : !txl.ptr<f16> -> tensor<64x1x!txl.ptr<f16>>
    %26 = txl.addptr %25, %24 : tensor<64x1x!txl.ptr<f16>>, tensor<64x1xi32>
    %27 = txl.expand_dims %21 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %28 = txl.splat %c1_i32 : i32 -> tensor<1x32xi32>
    %29 = arith.muli %27, %28 : tensor<1x32xi32>
    %30 = txl.broadcast %26 : tensor<64x1x!txl.ptr<f16>> -> tensor<64x32x!txl.ptr<f16>>
    %31 = txl.broadcast %29 : tensor<1x32xi32> -> tensor<64x32xi32>
    %32 = txl.addptr %30, %31 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi32>
    %33 = txl.expand_dims %21 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %34 = txl.splat %arg8 : i32 -> tensor<32x1xi32>
    %35 = arith.muli %33, %34 : tensor<32x1xi32>
    %36 = txl.splat %arg1 : !txl.ptr<f16> -> tensor<32x1x!txl.ptr<f16>>
    %37 = txl.addptr %36, %35 : tensor<32x1x!txl.ptr<f16>>, tensor<32x1xi32>
    %38 = txl.expand_dims %20 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %39 = txl.splat %c1_i32 : i32 -> tensor<1x64xi32>
    %40 = arith.muli %38, %39 : tensor<1x64xi32>
    %41 = txl.broadcast %37 : tensor<32x1x!txl.ptr<f16>> -> tensor<32x64x!txl.ptr<f16>>
    %42 = txl.broadcast %40 : tensor<1x64xi32> -> tensor<32x64xi32>
    %43 = txl.addptr %41, %42 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
    %44 = arith.addi %arg5, %c31_i32 : i32
    %45 = arith.divsi %44, %c32_i32 : i32
    %46:3 = scf.for %arg12 = %c0_i32 to %45 step %c1_i32 iter_args(%arg13 = %32, %arg14 = %cst_0, %arg15 = %43) -> (tensor<64x32x!txl.ptr<f16>>, tensor<64x64xf32>, tensor<32x64x!txl.ptr<f16>>)  : i32 {
      %61 = arith.muli %arg12, %c32_i32 : i32
      %62 = arith.subi %arg5, %61 : i32
      %63 = txl.splat %arg3 : i32 -> tensor<64x1xi32>
      %64 = arith.cmpi slt, %22, %63 : tensor<64x1xi32>
      %65 = txl.splat %62 : i32 -> tensor<1x32xi32>
      %66 = arith.cmpi slt, %27, %65 : tensor<1x32xi32>
      %67 = txl.broadcast %64 : tensor<64x1xi1> -> tensor<64x32xi1>
      %68 = txl.broadcast %66 : tensor<1x32xi1> -> tensor<64x32xi1>
      %69 = arith.andi %67, %68 : tensor<64x32xi1>
      %70 = txl.splat %cst : f16 -> tensor<64x32xf16>
      %71 = txl.load %arg13, %69, %70 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi1>, tensor<64x32xf16> -> tensor<64x32xf16>
      %72 = txl.splat %62 : i32 -> tensor<32x1xi32>
      %73 = arith.cmpi slt, %33, %72 : tensor<32x1xi32>
      %74 = txl.splat %arg4 : i32 -> tensor<1x64xi32>
      %75 = arith.cmpi slt, %38, %74 : tensor<1x64xi32>
      %76 = txl.broadcast %73 : tensor<32x1xi1> -> tensor<32x64xi1>
      %77 = txl.broadcast %75 : tensor<1x64xi1> -> tensor<32x64xi1>
      %78 = arith.andi %76, %77 : tensor<32x64xi1>
      %79 = txl.splat %cst : f16 -> tensor<32x64xf16>
      %80 = txl.load %arg15, %78, %79 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi1>, tensor<32x64xf16> -> tensor<32x64xf16>
      %81 = txl.dot %71, %80, %arg14 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
      %82 = txl.splat %c32_i32 : i32 -> tensor<64x32xi32>
      %83 = txl.addptr %arg13, %82 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi32>
      %84 = arith.muli %arg8, %c32_i32 : i32
      %85 = txl.splat %84 : i32 -> tensor<32x64xi32>
      %86 = txl.addptr %arg15, %85 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
      scf.yield %83, %81, %86 : tensor<64x32x!txl.ptr<f16>>, tensor<64x64xf32>, tensor<32x64x!txl.ptr<f16>>
    }
    %47 = txl.splat %arg10 : i32 -> tensor<64x1xi32>
    %48 = arith.muli %22, %47 : tensor<64x1xi32>
    %49 = txl.splat %arg2 : !txl.ptr<f32> -> tensor<64x1x!txl.ptr<f32>>
    %50 = txl.addptr %49, %48 : tensor<64x1x!txl.ptr<f32>>, tensor<64x1xi32>
    %51 = txl.broadcast %50 : tensor<64x1x!txl.ptr<f32>> -> tensor<64x64x!txl.ptr<f32>>
    %52 = txl.broadcast %40 : tensor<1x64xi32> -> tensor<64x64xi32>
    %53 = txl.addptr %51, %52 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xi32>
    %54 = txl.splat %arg3 : i32 -> tensor<64x1xi32>
    %55 = arith.cmpi slt, %22, %54 : tensor<64x1xi32>
    %56 = txl.splat %arg4 : i32 -> tensor<1x64xi32>
    %57 = arith.cmpi slt, %38, %56 : tensor<1x64xi32>
    %58 = txl.broadcast %55 : tensor<64x1xi1> -> tensor<64x64xi1>
    %59 = txl.broadcast %57 : tensor<1x64xi1> -> tensor<64x64xi1>
    %60 = arith.andi %58, %59 : tensor<64x64xi1>
    txl.store %53, %46#1, %60 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>
    return
  }
}
