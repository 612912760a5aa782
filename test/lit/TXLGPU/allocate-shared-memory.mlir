// AllocateSharedMemory: every op that exchanges data through shared memory
// gets `txlgpu.shared_offset`; scratch (conversions, cross-warp reductions)
// all starts at 0, shared tiles (local_alloc) follow it, each on a 1024-byte
// boundary; the module records the total in `txlgpu.shared`.
// RUN: txl-opt %s -split-input-file --txlgpu-allocate-shared-memory | FileCheck %s

#blocked = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#v1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#row2 = #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>

// Scratch only: the kernel needs the largest single use, here the 64x64 fp32
// accumulator going from the mma layout to a blocked one (16 KiB).
// CHECK: module attributes {{{.*}}txlgpu.shared = 16384 : i32
// CHECK-LABEL: func.func @scratch
// 32 fp32 from a row slice to a plain 1-D layout: 128 bytes at offset 0.
// CHECK: txlgpu.convert_layout %arg0 {txlgpu.shared_offset = 0 : i32} : tensor<32xf32, #txlgpu.slice
// CHECK: txlgpu.convert_layout %arg1 {txlgpu.shared_offset = 0 : i32} : tensor<64x64xf32, #txlgpu.nvmma
// The slice of a [1, 32] x [1, 4] row along dim 0 is the same map as the 1-D
// layout: registers are renamed, no shared memory, no offset.
// CHECK: txlgpu.convert_layout %arg2 : tensor<128xf32, #txlgpu.slice
// Reducing over the rows that the 4 warps split: partials go through shared
// memory, one per warp and column, for both operands.
// CHECK: txl.reduce(%arg3, %arg4) {axis = 0 : i32, txlgpu.shared_offset = 0 : i32}
// Reducing along a row held by a single warp needs only shuffles.
// CHECK: txl.reduce(%arg3) {axis = 1 : i32} :
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_80", txlgpu.threads_per_warp = 32 : i32} {
  func.func @scratch(%s: tensor<32xf32, #txlgpu.slice<{dim = 1, parent = #rows}>>, %acc: tensor<64x64xf32, #mma>, %r: tensor<128xf32, #txlgpu.slice<{dim = 0, parent = #row2}>>, %x: tensor<32x128xf32, #rows>, %i: tensor<32x128xi32, #rows>) -> (tensor<32xf32, #v1>, tensor<64x64xf32, #blocked>, tensor<128xf32, #v1>, tensor<128xf32, #txlgpu.slice<{dim = 0, parent = #rows}>>, tensor<32xf32, #txlgpu.slice<{dim = 1, parent = #rows}>>) {
    %0 = txlgpu.convert_layout %s : tensor<32xf32, #txlgpu.slice<{dim = 1, parent = #rows}>> -> tensor<32xf32, #v1>
    %1 = txlgpu.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %2 = txlgpu.convert_layout %r : tensor<128xf32, #txlgpu.slice<{dim = 0, parent = #row2}>> -> tensor<128xf32, #v1>
    %3:2 = txl.reduce(%x, %i) {axis = 0 : i32} : (tensor<32x128xf32, #rows>, tensor<32x128xi32, #rows>) -> (tensor<128xf32, #txlgpu.slice<{dim = 0, parent = #rows}>>, tensor<128xi32, #txlgpu.slice<{dim = 0, parent = #rows}>>) {
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %m = arith.select %gt, %a, %b : f32
      %mi = arith.select %gt, %ai, %bi : i32
      txl.reduce.return %m, %mi : f32, i32
    }
    %4 = txl.reduce(%x) {axis = 1 : i32} : (tensor<32x128xf32, #rows>) -> tensor<32xf32, #txlgpu.slice<{dim = 1, parent = #rows}>> {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      txl.reduce.return %m : f32
    }
    return %0, %1, %2, %3#0, %4 : tensor<32xf32, #v1>, tensor<64x64xf32, #blocked>, tensor<128xf32, #v1>, tensor<128xf32, #txlgpu.slice<{dim = 0, parent = #rows}>>, tensor<32xf32, #txlgpu.slice<{dim = 1, parent = #rows}>>
  }
}

// -----

#rows = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// The cross-warp reduction alone: 4 partials x 128 columns x 4 bytes for
// each of the two operands (2 x 2048).
// CHECK: module attributes {{{.*}}txlgpu.shared = 4096 : i32
// CHECK-LABEL: func.func @reduce_two_operands
// CHECK: txl.reduce(%arg0, %arg1) {axis = 0 : i32, txlgpu.shared_offset = 0 : i32}
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.threads_per_warp = 32 : i32} {
  func.func @reduce_two_operands(%x: tensor<32x128xf32, #rows>, %i: tensor<32x128xi32, #rows>) -> tensor<128xi32, #txlgpu.slice<{dim = 0, parent = #rows}>> {
    %3:2 = txl.reduce(%x, %i) {axis = 0 : i32} : (tensor<32x128xf32, #rows>, tensor<32x128xi32, #rows>) -> (tensor<128xf32, #txlgpu.slice<{dim = 0, parent = #rows}>>, tensor<128xi32, #txlgpu.slice<{dim = 0, parent = #rows}>>) {
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %m = arith.select %gt, %a, %b : f32
      %mi = arith.select %gt, %ai, %bi : i32
      txl.reduce.return %m, %mi : f32, i32
    }
    return %3#1 : tensor<128xi32, #txlgpu.slice<{dim = 0, parent = #rows}>>
  }
}

// -----

#v1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A whole-tensor argmax: one partial per warp, each operand's part rounded
// up to 16 bytes (4 x 4 -> 16, twice).
// CHECK: module attributes {{{.*}}txlgpu.shared = 32 : i32
// CHECK-LABEL: func.func @reduce_to_scalar
// CHECK: txl.reduce(%arg0, %arg1) {axis = 0 : i32, txlgpu.shared_offset = 0 : i32}
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.threads_per_warp = 32 : i32} {
  func.func @reduce_to_scalar(%x: tensor<1024xf32, #v1>, %i: tensor<1024xi32, #v1>) -> i32 {
    %3:2 = txl.reduce(%x, %i) {axis = 0 : i32} : (tensor<1024xf32, #v1>, tensor<1024xi32, #v1>) -> (f32, i32) {
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %m = arith.select %gt, %a, %b : f32
      %mi = arith.select %gt, %ai, %bi : i32
      txl.reduce.return %m, %mi : f32, i32
    }
    return %3#1 : i32
  }
}

// -----

#v1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#slice = #txlgpu.slice<{dim = 1, parent = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#a = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #txlgpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>

// Shared tiles after 128 bytes of scratch: each starts on the next 1024-byte
// boundary (the swizzle pattern repeats every 1024 bytes), so the 512-byte
// tile still pushes the third one to the next boundary.
//   A 64x32 fp16 (4096 B): [1024, 5120)   S 16x16 fp16 (512 B): [5120, 5632)
//   B 32x64 fp16 (4096 B): [6144, 10240)  -> txlgpu.shared = 10240
// CHECK: module attributes {{{.*}}txlgpu.shared = 10240 : i32
// CHECK-LABEL: func.func @tiles
// CHECK: txlgpu.convert_layout %arg0 {txlgpu.shared_offset = 0 : i32}
// CHECK: txlgpu.local_alloc %arg1 {txlgpu.shared_offset = 1024 : i32} : {{.*}} -> <64x32xf16
// CHECK: txlgpu.local_alloc %arg2 {txlgpu.shared_offset = 5120 : i32} : {{.*}} -> <16x16xf16
// CHECK: txlgpu.local_alloc %arg3 {txlgpu.shared_offset = 6144 : i32} : {{.*}} -> <32x64xf16
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @tiles(%m: tensor<32xf32, #slice>, %x: tensor<64x32xf16, #a>, %y: tensor<16x16xf16, #s>, %z: tensor<32x64xf16, #b>) -> tensor<32xf32, #v1> {
    %0 = txlgpu.convert_layout %m : tensor<32xf32, #slice> -> tensor<32xf32, #v1>
    %1 = txlgpu.local_alloc %x : tensor<64x32xf16, #a> -> !txlgpu.memdesc<64x32xf16, #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [1, 0]}>>
    %2 = txlgpu.local_alloc %y : tensor<16x16xf16, #s> -> !txlgpu.memdesc<16x16xf16, #txlgpu.nvmma_shared<{swizzle = 32, elemBits = 16, order = [1, 0]}>>
    %3 = txlgpu.local_alloc %z : tensor<32x64xf16, #b> -> !txlgpu.memdesc<32x64xf16, #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [0, 1]}>>
    return %0 : tensor<32xf32, #v1>
  }
}

// -----

#tile = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#flat = #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#flat1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// trans and reshape are relayouts too. Transposing a 32x64 fp32 tile into
// the same blocked layout moves every element: 8 KiB of scratch. Flattening
// it into a 1-D layout with the same register/lane/warp bits is a renaming
// (no offset); flattening into one element per thread is not (8 KiB).
// CHECK: module attributes {{{.*}}txlgpu.shared = 8192 : i32
// CHECK-LABEL: func.func @relayouts
// CHECK: txl.trans %arg0 {order = array<i32: 1, 0>, txlgpu.shared_offset = 0 : i32}
// CHECK: txl.reshape %arg0 : tensor<32x64xf32
// CHECK: txl.reshape %arg0 {txlgpu.shared_offset = 0 : i32} : tensor<32x64xf32
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.threads_per_warp = 32 : i32} {
  func.func @relayouts(%x: tensor<32x64xf32, #tile>) -> (tensor<64x32xf32, #tile>, tensor<2048xf32, #flat>, tensor<2048xf32, #flat1>) {
    %t = txl.trans %x {order = array<i32: 1, 0>} : tensor<32x64xf32, #tile> -> tensor<64x32xf32, #tile>
    %r = txl.reshape %x : tensor<32x64xf32, #tile> -> tensor<2048xf32, #flat>
    %r1 = txl.reshape %x : tensor<32x64xf32, #tile> -> tensor<2048xf32, #flat1>
    return %t, %r, %r1 : tensor<64x32xf32, #tile>, tensor<2048xf32, #flat>, tensor<2048xf32, #flat1>
  }
}

// -----

#v4 = #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Nothing exchanged through shared memory: the total is 0 and no op gets an
// offset.
// CHECK: module attributes {{{.*}}txlgpu.shared = 0 : i32
// CHECK-LABEL: func.func @no_shared
// CHECK-NOT: txlgpu.shared_offset
// CHECK: return
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.threads_per_warp = 32 : i32} {
  func.func @no_shared(%x: tensor<1024xf32, #v4>) -> tensor<1024xf32, #v4> {
    %0 = arith.addf %x, %x : tensor<1024xf32, #v4>
    return %0 : tensor<1024xf32, #v4>
  }
}

// -----

// Loop staging buffers (made by the pipeliners, dead once their loop is
// drained) come first among the tiles; a conversion after the loop
// overlays them (offset 0, not after the 48 KiB of staging), while one
// inside the loop gets its own scratch at 0 and pushes the tiles up.
#acc = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#out = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: module attributes {{{.*}}txlgpu.shared = 49152 : i32
// CHECK-LABEL: func.func @overlay
// CHECK: txlgpu.smem_alloc {txlgpu.loop_staging, txlgpu.shared_offset = 0 : i32} : <3x64x64xf16>
// CHECK: txlgpu.smem_alloc {txlgpu.loop_staging, txlgpu.shared_offset = 24576 : i32} : <3x64x64xf16>
// CHECK: txlgpu.convert_layout %{{.*}} {txlgpu.shared_offset = 0 : i32} : tensor<64x64xf32, #txlgpu.nvmma
// CHECK: module attributes {{{.*}}txlgpu.shared = 40960 : i32
// CHECK-LABEL: func.func @inside
// CHECK: txlgpu.smem_alloc {txlgpu.loop_staging, txlgpu.shared_offset = 16384 : i32}
// CHECK: scf.for
// CHECK: txlgpu.convert_layout %{{.*}} {txlgpu.shared_offset = 0 : i32}
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @overlay(%acc: tensor<64x64xf32, #acc>, %n: i32) -> tensor<64x64xf32, #out> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = txlgpu.smem_alloc {txlgpu.loop_staging} : <3x64x64xf16>
    %b = txlgpu.smem_alloc {txlgpu.loop_staging} : <3x64x64xf16>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = txlgpu.memdesc_index %a[%c0] : <3x64x64xf16> -> <64x64xf16>
      %y = txlgpu.memdesc_index %b[%c0] : <3x64x64xf16> -> <64x64xf16>
    }
    %r = txlgpu.convert_layout %acc : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #out>
    return %r : tensor<64x64xf32, #out>
  }
}

// -----

#acc = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#out = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @inside(%acc: tensor<64x64xf32, #acc>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = txlgpu.smem_alloc {txlgpu.loop_staging} : <3x64x64xf16>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = txlgpu.memdesc_index %a[%c0] : <3x64x64xf16> -> <64x64xf16>
      %r = txlgpu.convert_layout %acc : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #out>
    }
    return
  }
}
