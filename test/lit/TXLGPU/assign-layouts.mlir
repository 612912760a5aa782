// AssignLayouts: txl tile IR (no encodings) -> txlgpu IR. Memory accesses
// pick a coalesced blocked layout whose per-thread vector comes from the axis
// analysis; tl.dot picks mma.sync (nvmma v2 + dot_op) layouts, or on sm_90a
// shared tiles and warp_group_dot (nvmma v3).
// RUN: txl-opt %s -split-input-file --txl-assign-layouts | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: txl-opt %s -split-input-file --txl-assign-layouts="target=sm_80" | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: txl-opt %s -split-input-file --txl-assign-layouts="num-warps=8" | FileCheck %s --check-prefix=W8

// 1024 fp32 through 16-byte aligned pointers, offsets pid * 1024 + arange:
// four contiguous elements per thread (one 16-byte access), 32 lanes x 4
// warps along the only dimension. The launch shape lands on the module.
// SM90: module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32}
// SM80: module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_80", txlgpu.threads_per_warp = 32 : i32}
// W8: module attributes {{{.*}}txlgpu.num_warps = 8 : i32
// CHECK-LABEL: func.func @copy_f32
// The index values are born in the access layout (no conversions).
// CHECK-NOT: txlgpu.convert_layout
// CHECK: txl.make_range {{.*}} : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK-NOT: txlgpu.convert_layout
// CHECK: txl.load %{{.*}} {txlgpu.vec = 4 : i32} : tensor<1024x!txl.ptr<f32>, #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<1024xf32, #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK-NOT: txlgpu.convert_layout
// CHECK: txl.store %{{.*}}, %{{.*}} {txlgpu.vec = 4 : i32} : tensor<1024x!txl.ptr<f32>, #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>, tensor<1024xf32, #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// With 8 warps the same vector, spread over twice the warps.
// W8-LABEL: func.func @copy_f32
// W8: txl.load %{{.*}} {txlgpu.vec = 4 : i32} : tensor<1024x!txl.ptr<f32>, #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>>
func.func @copy_f32(%x: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %y: !txl.ptr<f32> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
  %c1024_i32 = arith.constant 1024 : i32
  %0 = txl.program_id 0 : i32
  %1 = arith.muli %0, %c1024_i32 : i32
  %2 = txl.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %3 = txl.splat %1 : i32 -> tensor<1024xi32>
  %4 = arith.addi %3, %2 : tensor<1024xi32>
  %5 = txl.splat %y : !txl.ptr<f32> -> tensor<1024x!txl.ptr<f32>>
  %6 = txl.addptr %5, %4 : tensor<1024x!txl.ptr<f32>>, tensor<1024xi32>
  %7 = txl.splat %x : !txl.ptr<f32> -> tensor<1024x!txl.ptr<f32>>
  %8 = txl.addptr %7, %4 : tensor<1024x!txl.ptr<f32>>, tensor<1024xi32>
  %9 = txl.load %8 : tensor<1024x!txl.ptr<f32>> -> tensor<1024xf32>
  txl.store %6, %9 : tensor<1024x!txl.ptr<f32>>, tensor<1024xf32>
  return
}

// -----

// The same copy with pointers of unknown alignment: one element per thread.
// CHECK-LABEL: func.func @copy_f32_unaligned
// CHECK: txl.load %{{.*}} {txlgpu.vec = 1 : i32} : tensor<1024x!txl.ptr<f32>, #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK: txl.store %{{.*}} {txlgpu.vec = 1 : i32} : tensor<1024x!txl.ptr<f32>, #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
func.func @copy_f32_unaligned(%x: !txl.ptr<f32>, %y: !txl.ptr<f32>) attributes {txl.kernel} {
  %2 = txl.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %5 = txl.splat %y : !txl.ptr<f32> -> tensor<1024x!txl.ptr<f32>>
  %6 = txl.addptr %5, %2 : tensor<1024x!txl.ptr<f32>>, tensor<1024xi32>
  %7 = txl.splat %x : !txl.ptr<f32> -> tensor<1024x!txl.ptr<f32>>
  %8 = txl.addptr %7, %2 : tensor<1024x!txl.ptr<f32>>, tensor<1024xi32>
  %9 = txl.load %8 : tensor<1024x!txl.ptr<f32>> -> tensor<1024xf32>
  txl.store %6, %9 : tensor<1024x!txl.ptr<f32>>, tensor<1024xf32>
  return
}

// -----

// fp16: the 16-byte cap allows eight elements per thread.
// CHECK-LABEL: func.func @copy_f16
// CHECK: txl.load %{{.*}} {txlgpu.vec = 8 : i32} : tensor<1024x!txl.ptr<f16>, #txlgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
func.func @copy_f16(%x: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %y: !txl.ptr<f16> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
  %2 = txl.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %5 = txl.splat %y : !txl.ptr<f16> -> tensor<1024x!txl.ptr<f16>>
  %6 = txl.addptr %5, %2 : tensor<1024x!txl.ptr<f16>>, tensor<1024xi32>
  %7 = txl.splat %x : !txl.ptr<f16> -> tensor<1024x!txl.ptr<f16>>
  %8 = txl.addptr %7, %2 : tensor<1024x!txl.ptr<f16>>, tensor<1024xi32>
  %9 = txl.load %8 : tensor<1024x!txl.ptr<f16>> -> tensor<1024xf16>
  txl.store %6, %9 : tensor<1024x!txl.ptr<f16>>, tensor<1024xf16>
  return
}

// -----

// A row-major 32x128 fp32 tile: the vector runs along the contiguous
// columns (order [1, 0]); the row reduction's result lives in the slice of
// the load's layout, and the 1-D store converts it to its own layout.
// CHECK-LABEL: func.func @row_max
// CHECK: txl.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #txlgpu.slice<{dim = 1, parent = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
// CHECK: txl.load %{{.*}} {txlgpu.vec = 4 : i32} : tensor<32x128x!txl.ptr<f32>, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK: %[[MAX:.*]] = txl.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<32x128xf32, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<32xf32, #txlgpu.slice<{dim = 1, parent = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
// CHECK: %[[CVT:.*]] = txlgpu.convert_layout %[[MAX]] : tensor<32xf32, #txlgpu.slice<{{.*}}>> -> tensor<32xf32, #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK: txl.store %{{.*}}, %[[CVT]]
func.func @row_max(%x: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %y: !txl.ptr<f32> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
  %c128_i32 = arith.constant 128 : i32
  %0 = txl.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %1 = txl.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %2 = txl.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %3 = txl.splat %c128_i32 : i32 -> tensor<32x1xi32>
  %4 = arith.muli %2, %3 : tensor<32x1xi32>
  %5 = txl.splat %x : !txl.ptr<f32> -> tensor<32x1x!txl.ptr<f32>>
  %6 = txl.addptr %5, %4 : tensor<32x1x!txl.ptr<f32>>, tensor<32x1xi32>
  %7 = txl.expand_dims %1 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %8 = txl.broadcast %6 : tensor<32x1x!txl.ptr<f32>> -> tensor<32x128x!txl.ptr<f32>>
  %9 = txl.broadcast %7 : tensor<1x128xi32> -> tensor<32x128xi32>
  %10 = txl.addptr %8, %9 : tensor<32x128x!txl.ptr<f32>>, tensor<32x128xi32>
  %11 = txl.load %10 : tensor<32x128x!txl.ptr<f32>> -> tensor<32x128xf32>
  %12 = txl.reduce(%11) {axis = 1 : i32} : (tensor<32x128xf32>) -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %15 = arith.maxnumf %a, %b : f32
    txl.reduce.return %15 : f32
  }
  %13 = txl.splat %y : !txl.ptr<f32> -> tensor<32x!txl.ptr<f32>>
  %14 = txl.addptr %13, %0 : tensor<32x!txl.ptr<f32>>, tensor<32xi32>
  txl.store %14, %12 : tensor<32x!txl.ptr<f32>>, tensor<32xf32>
  return
}

// -----

// C[64x64] = A[64x32] @ B[32x64] in fp16.
// sm_80: mma.sync. The accumulator is nvmma v2 (16x8 tiles, 2x2 warps); A
// and B are converted to the matching dot_op layouts (two fp16 per 32-bit
// register); the zero accumulator is born in the nvmma layout.
// SM80-LABEL: func.func @dot_tile
// SM80: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
// SM80: %[[A:.*]] = txl.load {{.*}} -> tensor<64x32xf16, #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
// SM80: %[[B:.*]] = txl.load {{.*}} -> tensor<32x64xf16, #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
// SM80: %[[AOP:.*]] = txlgpu.convert_layout %[[A]] : {{.*}} -> tensor<64x32xf16, #txlgpu.dot_op<{opIdx = 0, parent = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>
// SM80: %[[BOP:.*]] = txlgpu.convert_layout %[[B]] : {{.*}} -> tensor<32x64xf16, #txlgpu.dot_op<{opIdx = 1, parent = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>
// SM80: %[[D:.*]] = txl.dot %[[AOP]], %[[BOP]], %[[ZERO]] : {{.*}} -> tensor<64x64xf32, #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
// SM80: %[[DC:.*]] = txlgpu.convert_layout %[[D]] : tensor<64x64xf32, #txlgpu.nvmma<{{.*}}>> -> tensor<64x64xf32, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// SM80: txl.store %{{.*}}, %[[DC]]
// SM80-NOT: warp_group_dot
// SM80-NOT: local_alloc
// sm_90a: wgmma. A goes to shared memory K-major (order [1, 0], 64-byte
// swizzle for a 32-element fp16 K row); B, loaded with N contiguous, stays
// N-major (order [1, 0], 128-byte swizzle for a 64-element N row) so the
// copy keeps the loads' vectors and wgmma reads it transposed; one
// warpgroup computes m64n64k16 with an nvmma v3 accumulator, waited at once.
// SM90-LABEL: func.func @dot_tile
// SM90: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
// SM90: %[[A:.*]] = txl.load
// SM90: %[[B:.*]] = txl.load
// SM90: %[[AS:.*]] = txlgpu.local_alloc %[[A]] : tensor<64x32xf16, #txlgpu.blocked<{{.*}}>> -> <64x32xf16, #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [1, 0]}>>
// SM90: %[[BS:.*]] = txlgpu.local_alloc %[[B]] : tensor<32x64xf16, #txlgpu.blocked<{{.*}}>> -> <32x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// SM90: %[[D:.*]] = txlgpu.warp_group_dot %[[AS]], %[[BS]], %[[ZERO]] : !txlgpu.memdesc<64x32xf16, #txlgpu.nvmma_shared<{{.*}}>> * <32x64xf16, #txlgpu.nvmma_shared<{{.*}}>> -> tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
// SM90: %[[W:.*]] = txlgpu.warp_group_dot_wait %[[D]] {pendings = 0 : i32} : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
// SM90: %[[WC:.*]] = txlgpu.convert_layout %[[W]]
// SM90: txl.store %{{.*}}, %[[WC]]
// SM90-NOT: txl.dot
// SM90-NOT: dot_op
// Two warpgroups' worth of warps on a 64-row tile split N: two m64n32 halves.
// W8-LABEL: func.func @dot_tile
// W8: txlgpu.warp_group_dot {{.*}} -> tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>>
func.func @dot_tile(%a_ptr: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %b_ptr: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %c_ptr: !txl.ptr<f32> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %c64_i32 = arith.constant 64 : i32
  %c32_i32 = arith.constant 32 : i32
  %0 = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %1 = txl.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %2 = txl.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %3 = txl.splat %c32_i32 : i32 -> tensor<64x1xi32>
  %4 = arith.muli %2, %3 : tensor<64x1xi32>
  %5 = txl.splat %a_ptr : !txl.ptr<f16> -> tensor<64x1x!txl.ptr<f16>>
  %6 = txl.addptr %5, %4 : tensor<64x1x!txl.ptr<f16>>, tensor<64x1xi32>
  %7 = txl.expand_dims %1 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %8 = txl.broadcast %6 : tensor<64x1x!txl.ptr<f16>> -> tensor<64x32x!txl.ptr<f16>>
  %9 = txl.broadcast %7 : tensor<1x32xi32> -> tensor<64x32xi32>
  %10 = txl.addptr %8, %9 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi32>
  %11 = txl.load %10 : tensor<64x32x!txl.ptr<f16>> -> tensor<64x32xf16>
  %12 = txl.expand_dims %1 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %13 = txl.splat %c64_i32 : i32 -> tensor<32x1xi32>
  %14 = arith.muli %12, %13 : tensor<32x1xi32>
  %15 = txl.splat %b_ptr : !txl.ptr<f16> -> tensor<32x1x!txl.ptr<f16>>
  %16 = txl.addptr %15, %14 : tensor<32x1x!txl.ptr<f16>>, tensor<32x1xi32>
  %17 = txl.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %18 = txl.broadcast %16 : tensor<32x1x!txl.ptr<f16>> -> tensor<32x64x!txl.ptr<f16>>
  %19 = txl.broadcast %17 : tensor<1x64xi32> -> tensor<32x64xi32>
  %20 = txl.addptr %18, %19 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
  %21 = txl.load %20 : tensor<32x64x!txl.ptr<f16>> -> tensor<32x64xf16>
  %22 = txl.dot %11, %21, %cst : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %23 = txl.splat %c64_i32 : i32 -> tensor<64x1xi32>
  %24 = arith.muli %2, %23 : tensor<64x1xi32>
  %25 = txl.splat %c_ptr : !txl.ptr<f32> -> tensor<64x1x!txl.ptr<f32>>
  %26 = txl.addptr %25, %24 : tensor<64x1x!txl.ptr<f32>>, tensor<64x1xi32>
  %27 = txl.broadcast %26 : tensor<64x1x!txl.ptr<f32>> -> tensor<64x64x!txl.ptr<f32>>
  %28 = txl.broadcast %17 : tensor<1x64xi32> -> tensor<64x64xi32>
  %29 = txl.addptr %27, %28 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xi32>
  txl.store %29, %22 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xf32>
  return
}

// -----

// `acc += tl.dot(a, b)` in a loop: the add is folded into the dot's
// accumulator operand, and the loop-carried value (init, iter_arg, result)
// lives in the accumulator layout, so the loop body converts nothing but
// the operands.
// CHECK-LABEL: func.func @dot_loop
// SM80: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
// SM80: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<64x64xf32, #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>)
// SM80: %[[D:.*]] = txl.dot %{{.*}}, %{{.*}}, %[[ACC]] :
// SM80-NEXT: scf.yield %[[D]] : tensor<64x64xf32, #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
// SM90: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
// SM90: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>)
// SM90: %[[D:.*]] = txlgpu.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] :
// SM90-NEXT: %[[W:.*]] = txlgpu.warp_group_dot_wait %[[D]] {pendings = 0 : i32}
// SM90-NEXT: scf.yield %[[W]] :
// CHECK-NOT: arith.addf
func.func @dot_loop(%a_ptr: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %b_ptr: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %c_ptr: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %n: i32) attributes {txl.kernel} {
  %c64_i32 = arith.constant 64 : i32
  %c32_i32 = arith.constant 32 : i32
  %c1_i32 = arith.constant 1 : i32
  %c0_i32 = arith.constant 0 : i32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %0 = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %1 = txl.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %2 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>)  : i32 {
    %12 = txl.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %13 = txl.splat %c32_i32 : i32 -> tensor<64x1xi32>
    %14 = arith.muli %12, %13 : tensor<64x1xi32>
    %15 = txl.splat %a_ptr : !txl.ptr<f16> -> tensor<64x1x!txl.ptr<f16>>
    %16 = txl.addptr %15, %14 : tensor<64x1x!txl.ptr<f16>>, tensor<64x1xi32>
    %17 = txl.expand_dims %1 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %18 = txl.broadcast %16 : tensor<64x1x!txl.ptr<f16>> -> tensor<64x32x!txl.ptr<f16>>
    %19 = txl.broadcast %17 : tensor<1x32xi32> -> tensor<64x32xi32>
    %20 = txl.addptr %18, %19 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi32>
    %21 = txl.load %20 : tensor<64x32x!txl.ptr<f16>> -> tensor<64x32xf16>
    %22 = txl.expand_dims %1 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %23 = txl.splat %c64_i32 : i32 -> tensor<32x1xi32>
    %24 = arith.muli %22, %23 : tensor<32x1xi32>
    %25 = txl.splat %b_ptr : !txl.ptr<f16> -> tensor<32x1x!txl.ptr<f16>>
    %26 = txl.addptr %25, %24 : tensor<32x1x!txl.ptr<f16>>, tensor<32x1xi32>
    %27 = txl.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %28 = txl.broadcast %26 : tensor<32x1x!txl.ptr<f16>> -> tensor<32x64x!txl.ptr<f16>>
    %29 = txl.broadcast %27 : tensor<1x64xi32> -> tensor<32x64xi32>
    %30 = txl.addptr %28, %29 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
    %31 = txl.load %30 : tensor<32x64x!txl.ptr<f16>> -> tensor<32x64xf16>
    %32 = txl.dot %21, %31, %cst : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %33 = arith.addf %acc, %32 : tensor<64x64xf32>
    scf.yield %33 : tensor<64x64xf32>
  }
  %3 = txl.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %4 = txl.splat %c64_i32 : i32 -> tensor<64x1xi32>
  %5 = arith.muli %3, %4 : tensor<64x1xi32>
  %6 = txl.splat %c_ptr : !txl.ptr<f32> -> tensor<64x1x!txl.ptr<f32>>
  %7 = txl.addptr %6, %5 : tensor<64x1x!txl.ptr<f32>>, tensor<64x1xi32>
  %8 = txl.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %9 = txl.broadcast %7 : tensor<64x1x!txl.ptr<f32>> -> tensor<64x64x!txl.ptr<f32>>
  %10 = txl.broadcast %8 : tensor<1x64xi32> -> tensor<64x64xi32>
  %11 = txl.addptr %9, %10 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xi32>
  txl.store %11, %2 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xf32>
  return
}

// -----

// An online-softmax accumulator, rescaled before each dot
// (`acc = tl.dot(a, b, acc * alpha[:, None])`): the rescale is walked
// through like the loop, so the iter_arg, its init and the product live in
// the accumulator layout and the loop converts no accumulator.
// CHECK-LABEL: func.func @rescaled_dot_loop
// SM80: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xf32, #txlgpu.nvmma<{version = 2
// SM80: arith.mulf %[[ACC]], %{{.*}} : tensor<64x64xf32, #txlgpu.nvmma<{version = 2
// SM90: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xf32, #txlgpu.nvmma<{version = 3
// SM90: arith.mulf %[[ACC]], %{{.*}} : tensor<64x64xf32, #txlgpu.nvmma<{version = 3
// CHECK-NOT: txlgpu.convert_layout %[[ACC]]
// CHECK: scf.yield
func.func @rescaled_dot_loop(%a_ptr: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %b_ptr: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %c_ptr: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %n: i32, %x: f32) attributes {txl.kernel} {
  %c64_i32 = arith.constant 64 : i32
  %c32_i32 = arith.constant 32 : i32
  %c1_i32 = arith.constant 1 : i32
  %c0_i32 = arith.constant 0 : i32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %0 = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %1 = txl.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %2 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>)  : i32 {
    %12 = txl.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %13 = txl.splat %c32_i32 : i32 -> tensor<64x1xi32>
    %14 = arith.muli %12, %13 : tensor<64x1xi32>
    %15 = txl.splat %a_ptr : !txl.ptr<f16> -> tensor<64x1x!txl.ptr<f16>>
    %16 = txl.addptr %15, %14 : tensor<64x1x!txl.ptr<f16>>, tensor<64x1xi32>
    %17 = txl.expand_dims %1 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %18 = txl.broadcast %16 : tensor<64x1x!txl.ptr<f16>> -> tensor<64x32x!txl.ptr<f16>>
    %19 = txl.broadcast %17 : tensor<1x32xi32> -> tensor<64x32xi32>
    %20 = txl.addptr %18, %19 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi32>
    %21 = txl.load %20 : tensor<64x32x!txl.ptr<f16>> -> tensor<64x32xf16>
    %22 = txl.expand_dims %1 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %23 = txl.splat %c64_i32 : i32 -> tensor<32x1xi32>
    %24 = arith.muli %22, %23 : tensor<32x1xi32>
    %25 = txl.splat %b_ptr : !txl.ptr<f16> -> tensor<32x1x!txl.ptr<f16>>
    %26 = txl.addptr %25, %24 : tensor<32x1x!txl.ptr<f16>>, tensor<32x1xi32>
    %27 = txl.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %28 = txl.broadcast %26 : tensor<32x1x!txl.ptr<f16>> -> tensor<32x64x!txl.ptr<f16>>
    %29 = txl.broadcast %27 : tensor<1x64xi32> -> tensor<32x64xi32>
    %30 = txl.addptr %28, %29 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
    %31 = txl.load %30 : tensor<32x64x!txl.ptr<f16>> -> tensor<32x64xf16>
    %al = txl.splat %x : f32 -> tensor<64xf32>
    %ale = txl.expand_dims %al {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %alb = txl.broadcast %ale : tensor<64x1xf32> -> tensor<64x64xf32>
    %sc = arith.mulf %acc, %alb : tensor<64x64xf32>
    %33 = txl.dot %21, %31, %sc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %33 : tensor<64x64xf32>
  }
  %3 = txl.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %4 = txl.splat %c64_i32 : i32 -> tensor<64x1xi32>
  %5 = arith.muli %3, %4 : tensor<64x1xi32>
  %6 = txl.splat %c_ptr : !txl.ptr<f32> -> tensor<64x1x!txl.ptr<f32>>
  %7 = txl.addptr %6, %5 : tensor<64x1x!txl.ptr<f32>>, tensor<64x1xi32>
  %8 = txl.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %9 = txl.broadcast %7 : tensor<64x1x!txl.ptr<f32>> -> tensor<64x64x!txl.ptr<f32>>
  %10 = txl.broadcast %8 : tensor<1x64xi32> -> tensor<64x64xi32>
  %11 = txl.addptr %9, %10 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xi32>
  txl.store %11, %2 : tensor<64x64x!txl.ptr<f32>>, tensor<64x64xf32>
  return
}

// -----

// An online softmax's running row max: the loop-carried m is computed
// elementwise from a row reduction of the dot's scores (through an scf.if
// that masks them), so it is born in the reduction's layout -- a slice of
// the accumulator's -- and the loop converts neither m nor the reduction.
// CHECK-LABEL: func.func @reduced_dot_carry
// SM80: scf.for {{.*}} iter_args(%[[M:.*]] = %{{.*}}) -> (tensor<64xf32, #txlgpu.slice<{dim = 1, parent = #txlgpu.nvmma<{version = 2
// SM90: scf.for {{.*}} iter_args(%[[M:.*]] = %{{.*}}) -> (tensor<64xf32, #txlgpu.slice<{dim = 1, parent = #txlgpu.nvmma<{version = 3
// CHECK-NOT: txlgpu.convert_layout {{.*}}tensor<64xf32
// CHECK: arith.maximumf %[[M]], %{{.*}} : tensor<64xf32, #txlgpu.slice<{dim = 1, parent = #txlgpu.nvmma
// CHECK-NOT: txlgpu.convert_layout {{.*}}tensor<64xf32
// CHECK: scf.yield
func.func @reduced_dot_carry(%a_ptr: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %b_ptr: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %m_ptr: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %n: i32, %x: f32, %flag: i1) attributes {txl.kernel} {
  %c64_i32 = arith.constant 64 : i32
  %c32_i32 = arith.constant 32 : i32
  %c1_i32 = arith.constant 1 : i32
  %c0_i32 = arith.constant 0 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %0 = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %1 = txl.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %2 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%m = %ninf) -> (tensor<64xf32>)  : i32 {
    %12 = txl.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %13 = txl.splat %c32_i32 : i32 -> tensor<64x1xi32>
    %14 = arith.muli %12, %13 : tensor<64x1xi32>
    %15 = txl.splat %a_ptr : !txl.ptr<f16> -> tensor<64x1x!txl.ptr<f16>>
    %16 = txl.addptr %15, %14 : tensor<64x1x!txl.ptr<f16>>, tensor<64x1xi32>
    %17 = txl.expand_dims %1 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %18 = txl.broadcast %16 : tensor<64x1x!txl.ptr<f16>> -> tensor<64x32x!txl.ptr<f16>>
    %19 = txl.broadcast %17 : tensor<1x32xi32> -> tensor<64x32xi32>
    %20 = txl.addptr %18, %19 : tensor<64x32x!txl.ptr<f16>>, tensor<64x32xi32>
    %21 = txl.load %20 : tensor<64x32x!txl.ptr<f16>> -> tensor<64x32xf16>
    %22 = txl.expand_dims %1 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %23 = txl.splat %c64_i32 : i32 -> tensor<32x1xi32>
    %24 = arith.muli %22, %23 : tensor<32x1xi32>
    %25 = txl.splat %b_ptr : !txl.ptr<f16> -> tensor<32x1x!txl.ptr<f16>>
    %26 = txl.addptr %25, %24 : tensor<32x1x!txl.ptr<f16>>, tensor<32x1xi32>
    %27 = txl.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %28 = txl.broadcast %26 : tensor<32x1x!txl.ptr<f16>> -> tensor<32x64x!txl.ptr<f16>>
    %29 = txl.broadcast %27 : tensor<1x64xi32> -> tensor<32x64xi32>
    %30 = txl.addptr %28, %29 : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
    %31 = txl.load %30 : tensor<32x64x!txl.ptr<f16>> -> tensor<32x64xf16>
    %s = txl.dot %21, %31, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %masked = scf.if %flag -> (tensor<64x64xf32>) {
      %neg = arith.negf %s : tensor<64x64xf32>
      scf.yield %neg : tensor<64x64xf32>
    } else {
      scf.yield %s : tensor<64x64xf32>
    }
    %r = txl.reduce(%masked) {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %mx = arith.maxnumf %p, %q : f32
      txl.reduce.return %mx : f32
    }
    %xs = txl.splat %x : f32 -> tensor<64xf32>
    %rs = arith.mulf %r, %xs : tensor<64xf32>
    %mn = arith.maximumf %m, %rs : tensor<64xf32>
    scf.yield %mn : tensor<64xf32>
  }
  %3 = txl.splat %m_ptr : !txl.ptr<f32> -> tensor<64x!txl.ptr<f32>>
  %4 = txl.addptr %3, %0 : tensor<64x!txl.ptr<f32>>, tensor<64xi32>
  txl.store %4, %2 : tensor<64x!txl.ptr<f32>>, tensor<64xf32>
  return
}

// -----

// A rank's default layout is fitted to its largest tensor ([4, 32, 128]
// here: all 128 threads along the last dimension). Small tensors of that
// rank whose expansion or broadcast would hold many copies per thread in
// many registers ([64, 64, 1] and [64, 64, 2]: 4096 and 8192 registers,
// the shape of tl.dot_scaled's e2m1 unpack) get a layout fitted to their
// own shape instead; a row that a broadcast fills ([1, 1, 2]) stays cheap
// in the rank's default. Here both [64, 64, 2] and [4, 32, 128] are
// flattened for a store, so they are born in the preimage of the store's
// layout (4 consecutive elements per thread: 64 and 128 registers, no
// copies) and the reshapes move nothing.
// CHECK-LABEL: func.func @over_replicated_default
// CHECK: txl.reshape {{.*}} -> tensor<1x1x2xi32, #txlgpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 1, 4], order = [2, 1, 0]}>>
// CHECK: txl.broadcast {{.*}} -> tensor<64x64x2xi32, #txlgpu.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>>
// CHECK: txl.expand_dims {{.*}} -> tensor<64x64x1xi32, #txlgpu.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>>
// CHECK: txl.reshape {{.*}} : tensor<64x64x2xi32, #txlgpu.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>> -> tensor<8192xi32, #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK: txl.expand_dims {{.*}} -> tensor<4x1x128xi32, #txlgpu.blocked<{sizePerThread = [4, 1, 4], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 4, 1], order = [0, 2, 1]}>>
func.func @over_replicated_default(%x: !txl.ptr<i32> {txl.divisibility = 16 : i32}, %y: !txl.ptr<i32> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
  %r2 = txl.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %r3 = txl.reshape %r2 : tensor<2xi32> -> tensor<1x1x2xi32>
  %b3 = txl.broadcast %r3 : tensor<1x1x2xi32> -> tensor<64x64x2xi32>
  %c0 = arith.constant dense<0> : tensor<64x64xi32>
  %e = txl.expand_dims %c0 {axis = 2 : i32} : tensor<64x64xi32> -> tensor<64x64x1xi32>
  %eb = txl.broadcast %e : tensor<64x64x1xi32> -> tensor<64x64x2xi32>
  %s = arith.addi %b3, %eb : tensor<64x64x2xi32>
  %flat = txl.reshape %s : tensor<64x64x2xi32> -> tensor<8192xi32>
  %c1 = arith.constant dense<1> : tensor<4x128xi32>
  %big = txl.expand_dims %c1 {axis = 1 : i32} : tensor<4x128xi32> -> tensor<4x1x128xi32>
  %bigb = txl.broadcast %big : tensor<4x1x128xi32> -> tensor<4x32x128xi32>
  %bigflat = txl.reshape %bigb : tensor<4x32x128xi32> -> tensor<16384xi32>
  %o = txl.make_range {end = 8192 : i32, start = 0 : i32} : tensor<8192xi32>
  %p = txl.splat %y : !txl.ptr<i32> -> tensor<8192x!txl.ptr<i32>>
  %q = txl.addptr %p, %o : tensor<8192x!txl.ptr<i32>>, tensor<8192xi32>
  txl.store %q, %flat : tensor<8192x!txl.ptr<i32>>, tensor<8192xi32>
  %o2 = txl.make_range {end = 16384 : i32, start = 0 : i32} : tensor<16384xi32>
  %p2 = txl.splat %x : !txl.ptr<i32> -> tensor<16384x!txl.ptr<i32>>
  %q2 = txl.addptr %p2, %o2 : tensor<16384x!txl.ptr<i32>>, tensor<16384xi32>
  txl.store %q2, %bigflat : tensor<16384x!txl.ptr<i32>>, tensor<16384xi32>
  return
}
