// AssignLayouts gives a reshape's source the preimage of the result's
// layout, where a blocked layout is one: the reshape then renames
// registers and AllocateSharedMemory gives it no scratch (no
// txlgpu.shared_offset, nothing in txlgpu.shared). The result takes the
// layout a txl.relayout of it pins (or an access claimed), else its rank's
// default. The patterns are the TXL project's sparse MLA producer
// (txl_nsa_interface.py::txl_mla0).
// RUN: txl-opt %s -split-input-file --txl-assign-layouts="num-warps=4" --txlgpu-remove-layout-conversions --txlgpu-allocate-shared-memory | FileCheck %s

#idx = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// tl.reshape(tl.arange(0, 4096) % 64, (64, 64)) relaid out to 8 columns
// per thread: the range is born 8 elements per thread (the row-major
// preimage), the reshape into the pinned layout moves nothing and the
// relayout is the identity. The store writes from the pinned layout.
// CHECK: module attributes {{{.*}}txlgpu.shared = 0 : i32
// CHECK-LABEL: func.func @range_mod_reshape
// CHECK: txl.make_range {{.*}} : tensor<4096xi32, #txlgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK: arith.remsi {{.*}} : tensor<4096xi32, #txlgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK-NOT: shared_offset
// CHECK: txl.reshape %{{[0-9]+}} : tensor<4096xi32, #txlgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<64x64xi32, #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK-NOT: shared_offset
// CHECK: txl.store
module {
  func.func @range_mod_reshape(%out: !txl.ptr<i32> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
    %r = txl.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32>
    %c64 = arith.constant dense<64> : tensor<4096xi32>
    %m = arith.remsi %r, %c64 : tensor<4096xi32>
    %s = txl.reshape %m : tensor<4096xi32> -> tensor<64x64xi32>
    %v = txlgpu.convert_layout %s {txlgpu.pinned_layout = #idx} : tensor<64x64xi32> -> tensor<64x64xi32>
    %rows = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rc = txl.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64r = arith.constant dense<64> : tensor<64x1xi32>
    %ro = arith.muli %rc, %c64r : tensor<64x1xi32>
    %rb = txl.broadcast %ro : tensor<64x1xi32> -> tensor<64x64xi32>
    %cols = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %cr = txl.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %cb = txl.broadcast %cr : tensor<1x64xi32> -> tensor<64x64xi32>
    %off = arith.addi %rb, %cb : tensor<64x64xi32>
    %p0 = txl.splat %out : !txl.ptr<i32> -> tensor<64x64x!txl.ptr<i32>>
    %p = txl.addptr %p0, %off : tensor<64x64x!txl.ptr<i32>>, tensor<64x64xi32>
    txl.store %p, %v : tensor<64x64x!txl.ptr<i32>>, tensor<64x64xi32>
    return
  }
}

// -----

#idx = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// A [512] row index loaded per 8 columns, scaled, broadcast to [512, 8]
// and viewed as [64, 64] in the pinned layout: the broadcast is born with
// 8 columns per thread, 32 rows per warp and 128 per warpgroup (the
// preimage), its [512] operand in the slice of that, which the load's own
// layout (one element per thread) already is: no conversion moves data.
// CHECK: module attributes {{{.*}}txlgpu.shared = 0 : i32
// CHECK-LABEL: func.func @broadcast_slice_reshape
// CHECK: txl.broadcast {{.*}} -> tensor<512x8xi32, #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK-NOT: shared_offset
// CHECK: txl.reshape %{{[0-9]+}} : tensor<512x8xi32, #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x64xi32, #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK-NOT: shared_offset
// CHECK: txl.store
module {
  func.func @broadcast_slice_reshape(%idx: !txl.ptr<i32> {txl.divisibility = 16 : i32}, %out: !txl.ptr<i32> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
    %r = txl.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %c8 = arith.constant dense<8> : tensor<512xi32>
    %q = arith.divsi %r, %c8 : tensor<512xi32>
    %ip0 = txl.splat %idx : !txl.ptr<i32> -> tensor<512x!txl.ptr<i32>>
    %ip = txl.addptr %ip0, %q : tensor<512x!txl.ptr<i32>>, tensor<512xi32>
    %x = txl.load %ip : tensor<512x!txl.ptr<i32>> -> tensor<512xi32>
    %c576 = arith.constant dense<576> : tensor<512xi32>
    %xs = arith.muli %x, %c576 : tensor<512xi32>
    %e = txl.expand_dims %xs {axis = 1 : i32} : tensor<512xi32> -> tensor<512x1xi32>
    %b = txl.broadcast %e : tensor<512x1xi32> -> tensor<512x8xi32>
    %s = txl.reshape %b : tensor<512x8xi32> -> tensor<64x64xi32>
    %v = txlgpu.convert_layout %s {txlgpu.pinned_layout = #idx} : tensor<64x64xi32> -> tensor<64x64xi32>
    %rows = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rc = txl.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64r = arith.constant dense<64> : tensor<64x1xi32>
    %ro = arith.muli %rc, %c64r : tensor<64x1xi32>
    %rb = txl.broadcast %ro : tensor<64x1xi32> -> tensor<64x64xi32>
    %cols = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %cr = txl.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %cb = txl.broadcast %cr : tensor<1x64xi32> -> tensor<64x64xi32>
    %off = arith.addi %rb, %cb : tensor<64x64xi32>
    %p0 = txl.splat %out : !txl.ptr<i32> -> tensor<64x64x!txl.ptr<i32>>
    %p = txl.addptr %p0, %off : tensor<64x64x!txl.ptr<i32>>, tensor<64x64xi32>
    txl.store %p, %v : tensor<64x64x!txl.ptr<i32>>, tensor<64x64xi32>
    return
  }
}

// -----

// Without a txl.relayout the result takes its rank's default (the
// store's coalesced [1, 4] layout) and the source is born in its
// preimage: four consecutive elements per thread, no scratch.
// CHECK: module attributes {{{.*}}txlgpu.shared = 0 : i32
// CHECK-LABEL: func.func @reshape_to_default
// CHECK: txl.make_range {{.*}} : tensor<2048xi32, #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK-NOT: shared_offset
// CHECK: txl.reshape %{{[0-9]+}} : tensor<2048xi32, #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<32x64xi32, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
module {
  func.func @reshape_to_default(%out: !txl.ptr<i32> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
    %r = txl.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
    %c7 = arith.constant dense<7> : tensor<2048xi32>
    %m = arith.muli %r, %c7 : tensor<2048xi32>
    %s = txl.reshape %m : tensor<2048xi32> -> tensor<32x64xi32>
    %rows = txl.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %rc = txl.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c64r = arith.constant dense<64> : tensor<32x1xi32>
    %ro = arith.muli %rc, %c64r : tensor<32x1xi32>
    %rb = txl.broadcast %ro : tensor<32x1xi32> -> tensor<32x64xi32>
    %cols = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %cr = txl.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %cb = txl.broadcast %cr : tensor<1x64xi32> -> tensor<32x64xi32>
    %off = arith.addi %rb, %cb : tensor<32x64xi32>
    %p0 = txl.splat %out : !txl.ptr<i32> -> tensor<32x64x!txl.ptr<i32>>
    %p = txl.addptr %p0, %off : tensor<32x64x!txl.ptr<i32>>, tensor<32x64xi32>
    txl.store %p, %s : tensor<32x64x!txl.ptr<i32>>, tensor<32x64xi32>
    return
  }
}

// -----

#acc = #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>

// A wgmma accumulator's lanes step two columns and then rows: flattened,
// no blocked layout of the [4096] source has them, so the pinned layout is
// not the result's; the result takes the default (whose preimage the
// source is born in) and the relayout to the accumulator layout moves the
// data through scratch, as before.
// CHECK: module attributes {{{.*}}txlgpu.shared = 16384 : i32
// CHECK-LABEL: func.func @no_blocked_preimage
// CHECK: txl.reshape %{{[0-9]+}} : tensor<4096xi32, {{.*}}> -> tensor<64x64xi32, #txlgpu.blocked<
// CHECK: txlgpu.convert_layout {{.*}}shared_offset = 0
module {
  func.func @no_blocked_preimage(%out: !txl.ptr<i32> {txl.divisibility = 16 : i32}) attributes {txl.kernel} {
    %r = txl.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32>
    %s = txl.reshape %r : tensor<4096xi32> -> tensor<64x64xi32>
    %v = txlgpu.convert_layout %s {txlgpu.pinned_layout = #acc} : tensor<64x64xi32> -> tensor<64x64xi32>
    %rows = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rc = txl.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64r = arith.constant dense<64> : tensor<64x1xi32>
    %ro = arith.muli %rc, %c64r : tensor<64x1xi32>
    %rb = txl.broadcast %ro : tensor<64x1xi32> -> tensor<64x64xi32>
    %cols = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %cr = txl.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %cb = txl.broadcast %cr : tensor<1x64xi32> -> tensor<64x64xi32>
    %off = arith.addi %rb, %cb : tensor<64x64xi32>
    %p0 = txl.splat %out : !txl.ptr<i32> -> tensor<64x64x!txl.ptr<i32>>
    %p = txl.addptr %p0, %off : tensor<64x64x!txl.ptr<i32>>, tensor<64x64xi32>
    txl.store %p, %v : tensor<64x64x!txl.ptr<i32>>, tensor<64x64xi32>
    return
  }
}
