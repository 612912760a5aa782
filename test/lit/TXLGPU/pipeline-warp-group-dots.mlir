// PipelineWarpGroupDots: a loop that stages its dot operands with
// local_alloc and waits for each wgmma at once instead stores them into
// alternating stages of two-stage buffers allocated before the loop (stage
// = iteration parity), keeps one wgmma group pending (wait 1) and drains
// after the loop (wait 0) before the accumulator is used.
// RUN: txl-opt %s -split-input-file --txlgpu-combine-dot-accumulate --txl-assign-layouts="target=sm_90a" --txlgpu-pipeline-warp-group-dots | FileCheck %s
// num_stages=1 keeps every loop synchronous:
// RUN: txl-opt %s -split-input-file --txlgpu-combine-dot-accumulate --txl-assign-layouts="target=sm_90a" --txlgpu-pipeline-warp-group-dots="num-stages=1" | FileCheck %s --check-prefix=ONE
// ONE-NOT: loop_staging
// ONE-NOT: pendings = 1
// CHECK-LABEL: func.func @k
// CHECK: %[[SA:.*]] = txlgpu.smem_alloc {txlgpu.loop_staging} : <2x64x32xf16, #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [1, 0]}>>
// CHECK: %[[SB:.*]] = txlgpu.smem_alloc {txlgpu.loop_staging} : <2x32x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// CHECK: %[[INIT:.*]] = txlgpu.warp_group_dot_wait %cst_0 {pendings = 0 : i32}
// CHECK-NEXT: %[[LOOP:.*]]:3 = scf.for %[[IV:.*]] = %c0_i32 to %{{.*}} step %c1_i32 iter_args(%{{.*}} = %{{.*}}, %[[ACC:.*]] = %[[INIT]],
// CHECK: %[[T0:.*]] = arith.subi %[[IV]], %c0_i32
// CHECK: %[[T1:.*]] = arith.divsi %[[T0]], %c1_i32
// CHECK: %[[ST:.*]] = arith.remsi %[[T1]], %c2_i32
// CHECK-NOT: local_alloc
// CHECK: %[[A:.*]] = txlgpu.memdesc_index %[[SA]][%[[ST]]]
// CHECK-NEXT: txlgpu.smem_store %{{.*}}, %[[A]]
// CHECK: %[[B:.*]] = txlgpu.memdesc_index %[[SB]][%[[ST]]]
// CHECK-NEXT: txlgpu.smem_store %{{.*}}, %[[B]]
// CHECK-NEXT: %[[D:.*]] = txlgpu.warp_group_dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: %[[W:.*]] = txlgpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK: scf.yield %{{.*}}, %[[W]], %{{.*}}
// CHECK: %[[DONE:.*]] = txlgpu.warp_group_dot_wait %[[LOOP]]#1 {pendings = 0 : i32}
// CHECK: txlgpu.convert_layout %[[DONE]]
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

// An accumulator read inside the loop besides the dot keeps the eager wait.
// CHECK-LABEL: func.func @acc_read
// CHECK-NOT: smem_alloc
// CHECK: txlgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
module {
  func.func @acc_read(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %p: tensor<64x64x!txl.ptr<f32>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) : i32 {
      %d = txl.dot %a, %b, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
      %s = arith.mulf %d, %acc : tensor<64x64xf32>
      scf.yield %s : tensor<64x64xf32>
    }
    txl.store %p, %r : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xf32>
    return
  }
}

// -----

// Operands of 128 KB each (A 128x512, B 512x128 f16): two stages and the
// conversions that feed them would not fit 227 KB, so the loop keeps its
// local_allocs and the eager wait.
// CHECK-LABEL: func.func @too_big
// CHECK-NOT: loop_staging
// CHECK: scf.for
// CHECK: txlgpu.local_alloc
// CHECK: txlgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
module attributes {txl.source_file = "k.py"} {
  func.func @too_big(%pa: tensor<128x512x!txl.ptr<f16>>, %pb: tensor<512x128x!txl.ptr<f16>>, %p: tensor<128x128x!txl.ptr<f32>>, %n: i32) attributes {txl.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32>) : i32 {
      %a = txl.load %pa : tensor<128x512x!txl.ptr<f16>> -> tensor<128x512xf16>
      %b = txl.load %pb : tensor<512x128x!txl.ptr<f16>> -> tensor<512x128xf16>
      %d = txl.dot %a, %b, %acc : tensor<128x512xf16> * tensor<512x128xf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    txl.store %p, %r : tensor<128x128x!txl.ptr<f32>>, tensor<128x128xf32>
    return
  }
}
