// AllocateSharedMemory: every shared buffer (the scratch of an op that
// exchanges data through shared memory, tiles, buffer arrays, mbarriers)
// gets `txlgpu.shared_offset`; buffers whose live intervals do not overlap
// share bytes; the module records the total in `txlgpu.shared`.
// RUN: txl-opt %s -split-input-file --txlgpu-allocate-shared-memory | FileCheck %s

#blocked = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#v1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v4 = #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#row2 = #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>

// Scratch only: each use is live at its op alone, so they all share bytes
// and the kernel needs the largest, here the 64x64 fp32 accumulator going
// from the mma layout to a blocked one (16 KiB).
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

#enc = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#blk = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// Tiles of 8 KiB each. A is dead (read for the last time) before B is
// written: B takes A's bytes. C is written while B still holds data: it
// gets its own. The smem_store that writes B starts with a barrier of its
// own, so no barrier is added.
// CHECK: module attributes {{{.*}}txlgpu.shared = 16384 : i32
// CHECK-LABEL: func.func @tiles
// CHECK: %[[A:.*]] = txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32}
// CHECK: %[[B:.*]] = txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32}
// CHECK: %[[C:.*]] = txlgpu.smem_alloc {txlgpu.shared_offset = 8192 : i32}
// CHECK-NOT: txlgpu.barrier{{$| {}}
// CHECK: return
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @tiles(%x: tensor<64x64xf16, #blk>) -> tensor<64x64xf16, #blk> {
    %c0 = arith.constant 0 : i32
    %a = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %b = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %c = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %ta = txlgpu.memdesc_index %a[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %tb = txlgpu.memdesc_index %b[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %tc = txlgpu.memdesc_index %c[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    txlgpu.smem_store %x, %ta : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    %ya = txlgpu.smem_load %ta : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    txlgpu.smem_store %ya, %tb : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    txlgpu.smem_store %x, %tc : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    %yb = txlgpu.smem_load %tb : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    %yc = txlgpu.smem_load %tc : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    %s = arith.addf %yb, %yc : tensor<64x64xf16, #blk>
    return %s : tensor<64x64xf16, #blk>
  }
}

// -----

#enc = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#blk = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// Loops. A is written before the loop and read in it: live through the
// whole loop. B is overwritten at the top of every iteration before it is
// read: live only from that store to its load, where A also lives, so it
// gets its own bytes. C is read at the top of the body before the body
// overwrites it: what one iteration leaves the next reads, so C is live
// through the whole loop too. D, after the loop, reuses A's bytes.
// CHECK: module attributes {{{.*}}txlgpu.shared = 24576 : i32
// CHECK-LABEL: func.func @loops
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32}
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 8192 : i32}
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 16384 : i32}
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32}
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @loops(%x: tensor<64x64xf16, #blk>, %n: i32) -> tensor<64x64xf16, #blk> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %b = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %c = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %d = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %ta = txlgpu.memdesc_index %a[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %tb = txlgpu.memdesc_index %b[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %tc = txlgpu.memdesc_index %c[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %td = txlgpu.memdesc_index %d[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    txlgpu.smem_store %x, %ta : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x64xf16, #blk>) : i32 {
      txlgpu.smem_store %acc, %tb : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
      %yc = txlgpu.smem_load %tc : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
      %ya = txlgpu.smem_load %ta : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
      %yb = txlgpu.smem_load %tb : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
      %s = arith.addf %ya, %yb : tensor<64x64xf16, #blk>
      %t = arith.addf %s, %yc : tensor<64x64xf16, #blk>
      txlgpu.smem_store %t, %tc : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
      scf.yield %t : tensor<64x64xf16, #blk>
    }
    txlgpu.smem_store %r, %td : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    %yd = txlgpu.smem_load %td : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    return %yd : tensor<64x64xf16, #blk>
  }
}

// -----

#enc = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#blk = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#out = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>

// Asynchronous readers and barriers. The mbarrier comes first (offset 0),
// then the largest buffers: the two conversions' scratch (16 KiB, at the
// next 1024-byte boundary). The TMA store reads S until tma_store_wait
// retires it, so the conversion issued before that wait must not overlap
// S, which goes after it; the conversion after the wait may. T is written
// by TMA (async proxy) into bytes that the scratch used before: a barrier
// that also fences the generic proxy goes before that write, and nowhere
// else (the conversions start with barriers of their own).
// CHECK: module attributes {{{.*}}txlgpu.shared = 25600 : i32
// CHECK-LABEL: func.func @async_readers
// CHECK: txlgpu.mbar_alloc {arriveCount = 1 : i32, txlgpu.shared_offset = 0 : i32}
// CHECK: %[[S:.*]] = txlgpu.smem_alloc {txlgpu.shared_offset = 17408 : i32}
// CHECK: %[[T:.*]] = txlgpu.smem_alloc {txlgpu.shared_offset = 1024 : i32}
// CHECK-NOT: txlgpu.barrier{{$| {}}
// CHECK: txlgpu.tma_store
// CHECK-NEXT: txlgpu.convert_layout %arg1 {txlgpu.shared_offset = 1024 : i32}
// CHECK-NEXT: txlgpu.tma_store_wait
// CHECK-NEXT: txlgpu.convert_layout %arg1 {txlgpu.shared_offset = 1024 : i32}
// CHECK-NEXT: txlgpu.barrier {txlgpu.fence_async_proxy}
// CHECK-NEXT: txlgpu.tma_load
// CHECK-NOT: txlgpu.barrier{{$| {}}
// CHECK: return
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @async_readers(%x: tensor<64x64xf16, #blk>, %m: tensor<64x64xf32, #acc>, %desc: !txlgpu.tensordesc<64x64xf16>) -> (tensor<64x64xf32, #out>, tensor<64x64xf32, #out>, tensor<64x64xf16, #blk>) {
    %c0 = arith.constant 0 : i32
    %bars = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %bar = txlgpu.memdesc_index %bars[%c0] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    %s = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %t = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %ts = txlgpu.memdesc_index %s[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %tt = txlgpu.memdesc_index %t[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    txlgpu.smem_store %x, %ts : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    txlgpu.tma_store %ts -> %desc[%c0, %c0] : <64x64xf16, #enc> -> <64x64xf16>
    %r0 = txlgpu.convert_layout %m : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #out>
    txlgpu.tma_store_wait {pendings = 0 : i32}
    %r1 = txlgpu.convert_layout %m : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #out>
    txlgpu.tma_load %desc[%c0, %c0] -> %tt, %bar : <64x64xf16> -> <64x64xf16, #enc>, <1xi64, #txlgpu.barrier>
    txlgpu.mbar_wait %bar, %c0 : <1xi64, #txlgpu.barrier>
    %y = txlgpu.smem_load %tt : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    return %r0, %r1, %y : tensor<64x64xf32, #out>, tensor<64x64xf32, #out>, tensor<64x64xf16, #blk>
  }
}

// -----

#enc = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#blk = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#out = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>

// A tile made in a loop body is a new buffer every iteration, but one
// whose asynchronous reader (a TMA store) is retired only after the loop
// is still being read in the next iteration: it is live through the whole
// loop, and the conversion at the top of the body gets other bytes.
// CHECK: module attributes {{{.*}}txlgpu.shared = 24576 : i32
// CHECK-LABEL: func.func @async_reader_across_iterations
// CHECK: scf.for
// CHECK-NEXT: txlgpu.convert_layout %arg1 {txlgpu.shared_offset = 0 : i32}
// CHECK-NEXT: txlgpu.local_alloc %arg0 {txlgpu.shared_offset = 16384 : i32}
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @async_reader_across_iterations(%x: tensor<64x64xf16, #blk>, %m: tensor<64x64xf32, #acc>, %desc: !txlgpu.tensordesc<64x64xf16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %r = txlgpu.convert_layout %m : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #out>
      %t = txlgpu.local_alloc %x : tensor<64x64xf16, #blk> -> !txlgpu.memdesc<64x64xf16, #enc>
      txlgpu.tma_store %t -> %desc[%i, %c0] : <64x64xf16, #enc> -> <64x64xf16>
    }
    txlgpu.tma_store_wait {pendings = 0 : i32}
    return
  }
}

// -----

#enc = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#blk = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// A TMA copy writes its tile until a wait on its mbarrier. T's copy is
// waited on right away: C, written after, takes T's bytes. U's copy (a
// prefetch) is waited on nowhere after it: U stays live to the end, so D
// gets bytes of its own, while U takes T's and C's (dead by then) behind a
// barrier that fences the generic proxy.
// CHECK: module attributes {{{.*}}txlgpu.shared = 17408 : i32
// CHECK-LABEL: func.func @copy_waits
// CHECK: %[[T:.*]] = txlgpu.smem_alloc {txlgpu.shared_offset = 1024 : i32}
// CHECK: %[[C:.*]] = txlgpu.smem_alloc {txlgpu.shared_offset = 1024 : i32}
// CHECK: %[[U:.*]] = txlgpu.smem_alloc {txlgpu.shared_offset = 1024 : i32}
// CHECK: %[[D:.*]] = txlgpu.smem_alloc {txlgpu.shared_offset = 9216 : i32}
// CHECK: txlgpu.smem_load
// CHECK: txlgpu.barrier {txlgpu.fence_async_proxy}
// CHECK-NEXT: txlgpu.tma_load {{.*}} -> %[[UT:.*]], %
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @copy_waits(%x: tensor<64x64xf16, #blk>, %desc: !txlgpu.tensordesc<64x64xf16>) -> (tensor<64x64xf16, #blk>, tensor<64x64xf16, #blk>, tensor<64x64xf16, #blk>) {
    %c0 = arith.constant 0 : i32
    %bars = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
    %bar = txlgpu.memdesc_index %bars[%c0] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    %t = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %c = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %u = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %d = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %tt = txlgpu.memdesc_index %t[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %tc = txlgpu.memdesc_index %c[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %tu = txlgpu.memdesc_index %u[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %td = txlgpu.memdesc_index %d[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    txlgpu.tma_load %desc[%c0, %c0] -> %tt, %bar : <64x64xf16> -> <64x64xf16, #enc>, <1xi64, #txlgpu.barrier>
    txlgpu.mbar_wait %bar, %c0 : <1xi64, #txlgpu.barrier>
    %yt = txlgpu.smem_load %tt : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    txlgpu.smem_store %x, %tc : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    %yc = txlgpu.smem_load %tc : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    txlgpu.tma_load %desc[%c0, %c0] -> %tu, %bar : <64x64xf16> -> <64x64xf16, #enc>, <1xi64, #txlgpu.barrier>
    txlgpu.smem_store %x, %td : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    %yd = txlgpu.smem_load %td : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    return %yt, %yc, %yd : tensor<64x64xf16, #blk>, tensor<64x64xf16, #blk>, tensor<64x64xf16, #blk>
  }
}

// -----

#enc = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#blk = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// B, first written under a condition on the thread index, would need its
// barrier where not every thread arrives: it keeps its own bytes for the
// whole kernel (placed first), though A is dead by then. Buffer arrays
// written stage by stage (a runtime index) are never overwritten whole, so
// the loop carries them; this one starts after A's last read and reuses
// A's bytes (its smem_store synchronizes first).
// CHECK: module attributes {{{.*}}txlgpu.shared = 24576 : i32
// CHECK-LABEL: func.func @kept_whole
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 8192 : i32} : <1x64x64xf16
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32} : <1x64x64xf16
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 8192 : i32} : <2x64x64xf16
// CHECK-NOT: txlgpu.barrier{{$| {}}
// CHECK: return
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @kept_whole(%x: tensor<64x64xf16, #blk>, %n: i32) -> tensor<64x64xf16, #blk> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c32 = arith.constant 32 : i32
    %a = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %b = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %st = txlgpu.smem_alloc : <2x64x64xf16, #enc>
    %ta = txlgpu.memdesc_index %a[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %tb = txlgpu.memdesc_index %b[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    txlgpu.smem_store %x, %ta : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    %ya = txlgpu.smem_load %ta : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %first = arith.cmpi ult, %tid, %c32 : i32
    scf.if %first {
      txlgpu.smem_store %ya, %tb : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    }
    %yb = txlgpu.smem_load %tb : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %yb) -> (tensor<64x64xf16, #blk>) : i32 {
      %k = arith.remsi %i, %c2 : i32
      %stage = txlgpu.memdesc_index %st[%k] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
      txlgpu.smem_store %acc, %stage : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
      %y = txlgpu.smem_load %stage : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
      scf.yield %y : tensor<64x64xf16, #blk>
    }
    return %r : tensor<64x64xf16, #blk>
  }
}

// -----

#enc = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#blk = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// With several warpgroups (which may run different roles at once, so
// program order does not order their accesses) every tile keeps its bytes.
// CHECK: module attributes {{{.*}}txlgpu.shared = 16384 : i32
// CHECK-LABEL: func.func @warpgroups
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32}
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 8192 : i32}
module attributes {txlgpu.num_warpgroups = 2 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @warpgroups(%x: tensor<64x64xf16, #blk>) -> tensor<64x64xf16, #blk> {
    %c0 = arith.constant 0 : i32
    %a = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %b = txlgpu.smem_alloc : <1x64x64xf16, #enc>
    %ta = txlgpu.memdesc_index %a[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    %tb = txlgpu.memdesc_index %b[%c0] : <1x64x64xf16, #enc> -> <64x64xf16, #enc>
    txlgpu.smem_store %x, %ta : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    %ya = txlgpu.smem_load %ta : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    txlgpu.smem_store %ya, %tb : tensor<64x64xf16, #blk> -> <64x64xf16, #enc>
    %yb = txlgpu.smem_load %tb : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
    return %yb : tensor<64x64xf16, #blk>
  }
}

// -----

#enc = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#blk = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// Two loops one after the other, each with a two-stage ring as
// PipelineTMALoads makes them (causal attention's two loops): a copy into a
// compiler-made ring waits on another stage's barrier (the next iteration's
// wait), but every copy is waited for inside the ring's loop, so the ring
// is dead once its loop ends. R2 takes R1's bytes behind a barrier that
// fences the generic proxy, before its first copy. A ring the user built
// (no txlgpu.compiler_ring) keeps the old rule: waited nowhere on the same
// value, its tiles stay live to the end (next case).
// CHECK: module attributes {{{.*}}txlgpu.shared = 17408 : i32
// CHECK-LABEL: func.func @sequential_rings
// CHECK: %[[R1:.*]] = txlgpu.smem_alloc {txlgpu.loop_staging, txlgpu.shared_offset = 1024 : i32}
// CHECK: %[[R2:.*]] = txlgpu.smem_alloc {txlgpu.loop_staging, txlgpu.shared_offset = 1024 : i32}
// CHECK-NOT: txlgpu.barrier{{$| {}}
// CHECK: scf.for
// CHECK: scf.yield
// CHECK: txlgpu.barrier {txlgpu.fence_async_proxy}
// CHECK-NEXT: txlgpu.tma_load %arg0[%arg1, %c0_i32]
// CHECK-NOT: txlgpu.barrier{{$| {}}
// CHECK: scf.for
// CHECK-NOT: txlgpu.barrier{{$| {}}
// CHECK: return
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @sequential_rings(%desc: !txlgpu.tensordesc<64x64xf16>, %n: i32, %x: tensor<64x64xf16, #blk>) -> tensor<64x64xf16, #blk> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %true = arith.constant true
    %r1 = txlgpu.smem_alloc {txlgpu.loop_staging} : <2x64x64xf16, #enc>
    %b1 = txlgpu.mbar_alloc {arriveCount = 1 : i32, txlgpu.compiler_ring} : <2xi64, #txlgpu.barrier>
    %r2 = txlgpu.smem_alloc {txlgpu.loop_staging} : <2x64x64xf16, #enc>
    %b2 = txlgpu.mbar_alloc {arriveCount = 1 : i32, txlgpu.compiler_ring} : <2xi64, #txlgpu.barrier>
    %s10 = txlgpu.memdesc_index %r1[%c0] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
    %q10 = txlgpu.memdesc_index %b1[%c0] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    txlgpu.tma_load %desc[%c0, %c0] -> %s10, %q10, %true : <64x64xf16> -> <64x64xf16, #enc>, <1xi64, #txlgpu.barrier>
    %y1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x64xf16, #blk>) : i32 {
      %i1 = arith.addi %i, %c1 : i32
      %more = arith.cmpi slt, %i1, %n : i32
      %next = arith.remsi %i1, %c2 : i32
      %sn = txlgpu.memdesc_index %r1[%next] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
      %qn = txlgpu.memdesc_index %b1[%next] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
      txlgpu.tma_load %desc[%i1, %c0] -> %sn, %qn, %more : <64x64xf16> -> <64x64xf16, #enc>, <1xi64, #txlgpu.barrier>
      %cur = arith.remsi %i, %c2 : i32
      %qc = txlgpu.memdesc_index %b1[%cur] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
      txlgpu.mbar_wait %qc, %c0 : <1xi64, #txlgpu.barrier>
      %sc = txlgpu.memdesc_index %r1[%cur] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
      %y = txlgpu.smem_load %sc : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
      %a = arith.addf %acc, %y : tensor<64x64xf16, #blk>
      scf.yield %a : tensor<64x64xf16, #blk>
    }
    %s20 = txlgpu.memdesc_index %r2[%c0] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
    %q20 = txlgpu.memdesc_index %b2[%c0] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    txlgpu.tma_load %desc[%n, %c0] -> %s20, %q20, %true : <64x64xf16> -> <64x64xf16, #enc>, <1xi64, #txlgpu.barrier>
    %y2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y1) -> (tensor<64x64xf16, #blk>) : i32 {
      %i1 = arith.addi %i, %c1 : i32
      %more = arith.cmpi slt, %i1, %n : i32
      %next = arith.remsi %i1, %c2 : i32
      %sn = txlgpu.memdesc_index %r2[%next] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
      %qn = txlgpu.memdesc_index %b2[%next] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
      txlgpu.tma_load %desc[%i1, %c0] -> %sn, %qn, %more : <64x64xf16> -> <64x64xf16, #enc>, <1xi64, #txlgpu.barrier>
      %cur = arith.remsi %i, %c2 : i32
      %qc = txlgpu.memdesc_index %b2[%cur] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
      txlgpu.mbar_wait %qc, %c0 : <1xi64, #txlgpu.barrier>
      %sc = txlgpu.memdesc_index %r2[%cur] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
      %y = txlgpu.smem_load %sc : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
      %a = arith.addf %acc, %y : tensor<64x64xf16, #blk>
      scf.yield %a : tensor<64x64xf16, #blk>
    }
    return %y2 : tensor<64x64xf16, #blk>
  }
}

// -----

#enc = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#blk = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// The same loops over rings the user built: each keeps its own bytes.
// CHECK: module attributes {{{.*}}txlgpu.shared = 33792 : i32
// CHECK-LABEL: func.func @sequential_user_rings
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 1024 : i32}
// CHECK: txlgpu.smem_alloc {txlgpu.shared_offset = 17408 : i32}
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @sequential_user_rings(%desc: !txlgpu.tensordesc<64x64xf16>, %n: i32, %x: tensor<64x64xf16, #blk>) -> tensor<64x64xf16, #blk> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %true = arith.constant true
    %r1 = txlgpu.smem_alloc : <2x64x64xf16, #enc>
    %b1 = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <2xi64, #txlgpu.barrier>
    %r2 = txlgpu.smem_alloc : <2x64x64xf16, #enc>
    %b2 = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <2xi64, #txlgpu.barrier>
    %y1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x64xf16, #blk>) : i32 {
      %i1 = arith.addi %i, %c1 : i32
      %more = arith.cmpi slt, %i1, %n : i32
      %next = arith.remsi %i1, %c2 : i32
      %sn = txlgpu.memdesc_index %r1[%next] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
      %qn = txlgpu.memdesc_index %b1[%next] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
      txlgpu.tma_load %desc[%i1, %c0] -> %sn, %qn, %more : <64x64xf16> -> <64x64xf16, #enc>, <1xi64, #txlgpu.barrier>
      %cur = arith.remsi %i, %c2 : i32
      %qc = txlgpu.memdesc_index %b1[%cur] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
      txlgpu.mbar_wait %qc, %c0 : <1xi64, #txlgpu.barrier>
      %sc = txlgpu.memdesc_index %r1[%cur] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
      %y = txlgpu.smem_load %sc : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
      %a = arith.addf %acc, %y : tensor<64x64xf16, #blk>
      scf.yield %a : tensor<64x64xf16, #blk>
    }
    %y2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y1) -> (tensor<64x64xf16, #blk>) : i32 {
      %i1 = arith.addi %i, %c1 : i32
      %more = arith.cmpi slt, %i1, %n : i32
      %next = arith.remsi %i1, %c2 : i32
      %sn = txlgpu.memdesc_index %r2[%next] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
      %qn = txlgpu.memdesc_index %b2[%next] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
      txlgpu.tma_load %desc[%i1, %c0] -> %sn, %qn, %more : <64x64xf16> -> <64x64xf16, #enc>, <1xi64, #txlgpu.barrier>
      %cur = arith.remsi %i, %c2 : i32
      %qc = txlgpu.memdesc_index %b2[%cur] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
      txlgpu.mbar_wait %qc, %c0 : <1xi64, #txlgpu.barrier>
      %sc = txlgpu.memdesc_index %r2[%cur] : <2x64x64xf16, #enc> -> <64x64xf16, #enc>
      %y = txlgpu.smem_load %sc : <64x64xf16, #enc> -> tensor<64x64xf16, #blk>
      %a = arith.addf %acc, %y : tensor<64x64xf16, #blk>
      scf.yield %a : tensor<64x64xf16, #blk>
    }
    return %y2 : tensor<64x64xf16, #blk>
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

// -----

#rows2 = #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols2 = #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>

// Three warpgroups, and a conversion (64 x 64 x 4 = 16 KB of scratch) only
// in warpgroup 2's role and a smaller one (32 x 32 x 4) in warpgroup 0's:
// each warpgroup's part of the scratch area is sized by the ops its
// threads may run (warpgroup 1 runs none), not 3 x 16 KB.
// CHECK: module attributes {{{.*}}txlgpu.scratch_offsets = array<i32: 0, 4096, 4096>, txlgpu.shared = 20480 : i32
// CHECK-LABEL: func.func @scratch_per_role
module attributes {txlgpu.num_warpgroups = 3 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @scratch_per_role(%x: tensor<64x64xf32, #rows2>, %y: tensor<32x32xf32, #rows2>, %o: !txl.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c7 = arith.constant 7 : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %wg = arith.shrui %tid, %c7 : i32
    %is0 = arith.cmpi eq, %wg, %c0 : i32
    %is2 = arith.cmpi eq, %wg, %c2 : i32
    scf.if %is2 {
      %big = txlgpu.convert_layout %x : tensor<64x64xf32, #rows2> -> tensor<64x64xf32, #cols2>
    }
    scf.if %is0 {
      %small = txlgpu.convert_layout %y : tensor<32x32xf32, #rows2> -> tensor<32x32xf32, #cols2>
    }
    return
  }
}
