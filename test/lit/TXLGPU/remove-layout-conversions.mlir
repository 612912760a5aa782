// RemoveLayoutConversions: a convert_layout of a value that is cheap to
// recompute (make_range, splat, splat constants, addptr, pure arith over
// those) is replaced by recomputing the value in the destination layout;
// conversions of anything else stay.
// RUN: txl-opt %s -split-input-file --txlgpu-remove-layout-conversions | FileCheck %s
// The pipeline canonicalizes right after the pass, which folds what the pass
// leaves of back-to-back conversions (ConvertLayoutOp's folder).
// RUN: txl-opt %s -split-input-file --txlgpu-remove-layout-conversions --canonicalize | FileCheck %s --check-prefix=CANON

#v4 = #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Offsets pid * 1024 + arange and the pointers built from them, needed in
// another layout: the whole chain is recomputed there, the originals (now
// dead) are dropped, and nothing is left to convert.
// CHECK-LABEL: func.func @index_chain
// CHECK-NOT: txlgpu.convert_layout
// CHECK-DAG: %[[R:.*]] = txl.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK-DAG: %[[S:.*]] = txl.splat %{{.*}} : i32 -> tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK-DAG: %[[PS:.*]] = txl.splat %arg0 : !txl.ptr<f32> -> tensor<1024x!txl.ptr<f32>, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK: %[[O:.*]] = arith.addi %[[S]], %[[R]] : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK: %[[P:.*]] = txl.addptr %[[PS]], %[[O]] : tensor<1024x!txl.ptr<f32>, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK: txl.store %[[P]], %arg1 : tensor<1024x!txl.ptr<f32>, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK-NOT: sizePerThread = [4]
// CHECK: return
func.func @index_chain(%x: !txl.ptr<f32>, %v: tensor<1024xf32, #v1>) {
  %c1024_i32 = arith.constant 1024 : i32
  %pid = txl.program_id 0 : i32
  %start = arith.muli %pid, %c1024_i32 : i32
  %r = txl.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #v4>
  %s = txl.splat %start : i32 -> tensor<1024xi32, #v4>
  %o = arith.addi %s, %r : tensor<1024xi32, #v4>
  %ps = txl.splat %x : !txl.ptr<f32> -> tensor<1024x!txl.ptr<f32>, #v4>
  %p = txl.addptr %ps, %o : tensor<1024x!txl.ptr<f32>, #v4>, tensor<1024xi32, #v4>
  %pc = txlgpu.convert_layout %p : tensor<1024x!txl.ptr<f32>, #v4> -> tensor<1024x!txl.ptr<f32>, #v1>
  txl.store %pc, %v : tensor<1024x!txl.ptr<f32>, #v1>, tensor<1024xf32, #v1>
  return
}

// -----

#v4 = #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// The original stays where it has other users in its own layout; a splat
// constant is rebuilt with its attribute in the new layout.
// CHECK-LABEL: func.func @shared_source
// CHECK-DAG: %[[C4:.*]] = arith.constant dense<2> : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [4], {{.*}}>>
// CHECK-DAG: %[[C1:.*]] = arith.constant dense<2> : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK-DAG: %[[R4:.*]] = txl.make_range {{.*}} : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [4], {{.*}}>>
// CHECK-DAG: %[[R1:.*]] = txl.make_range {{.*}} : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK-DAG: %[[M4:.*]] = arith.muli %[[R4]], %[[C4]] : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [4], {{.*}}>>
// CHECK-DAG: %[[M1:.*]] = arith.muli %[[R1]], %[[C1]] : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK-NOT: txlgpu.convert_layout
// CHECK: return %[[M4]], %[[M1]]
func.func @shared_source() -> (tensor<1024xi32, #v4>, tensor<1024xi32, #v1>) {
  %c2 = arith.constant dense<2> : tensor<1024xi32, #v4>
  %r = txl.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #v4>
  %m = arith.muli %r, %c2 : tensor<1024xi32, #v4>
  %mc = txlgpu.convert_layout %m : tensor<1024xi32, #v4> -> tensor<1024xi32, #v1>
  return %m, %mc : tensor<1024xi32, #v4>, tensor<1024xi32, #v1>
}

// -----

#v4 = #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Data that must move stays a conversion: a function argument (e.g. a
// loaded tensor) and a non-splat constant are not recomputed.
// CHECK-LABEL: func.func @keeps_data
// CHECK: %[[CST:.*]] = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #txlgpu.blocked<{sizePerThread = [4], {{.*}}>>
// CHECK: txlgpu.convert_layout %arg0 : tensor<1024xf32, #txlgpu.blocked<{sizePerThread = [4], {{.*}}>> -> tensor<1024xf32, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK: txlgpu.convert_layout %[[CST]] : tensor<4xi32, #txlgpu.blocked<{sizePerThread = [4], {{.*}}>> -> tensor<4xi32, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
func.func @keeps_data(%x: tensor<1024xf32, #v4>) -> (tensor<1024xf32, #v1>, tensor<4xi32, #v1>) {
  %cst = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #v4>
  %xc = txlgpu.convert_layout %x : tensor<1024xf32, #v4> -> tensor<1024xf32, #v1>
  %cc = txlgpu.convert_layout %cst : tensor<4xi32, #v4> -> tensor<4xi32, #v1>
  return %xc, %cc : tensor<1024xf32, #v1>, tensor<4xi32, #v1>
}

// -----

#v4 = #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A conversion there and back over a cheap value: the pass recomputes the
// inner one, then the outer one over the recomputed value, so the
// make_range ends up built directly in the final layout.
// CHECK-LABEL: func.func @round_trip_cheap
// CHECK-NEXT: %[[R:.*]] = txl.make_range {{.*}} : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [4], {{.*}}>>
// CHECK-NEXT: return %[[R]]
func.func @round_trip_cheap() -> tensor<1024xi32, #v4> {
  %r = txl.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #v4>
  %a = txlgpu.convert_layout %r : tensor<1024xi32, #v4> -> tensor<1024xi32, #v1>
  %b = txlgpu.convert_layout %a : tensor<1024xi32, #v1> -> tensor<1024xi32, #v4>
  return %b : tensor<1024xi32, #v4>
}

// -----

#v4 = #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A redundant pair over data (there and back) is not the pass's business:
// it keeps both conversions, and canonicalization folds the pair away, so
// the value is returned unconverted.
// CHECK-LABEL: func.func @round_trip_data
// CHECK: txlgpu.convert_layout %arg0
// CHECK: txlgpu.convert_layout
// CANON-LABEL: func.func @round_trip_data
// CANON-NOT: txlgpu.convert_layout
// CANON: return %arg0 : tensor<1024xf32, #txlgpu.blocked<{sizePerThread = [4], {{.*}}>>
func.func @round_trip_data(%x: tensor<1024xf32, #v4>) -> tensor<1024xf32, #v4> {
  %a = txlgpu.convert_layout %x : tensor<1024xf32, #v4> -> tensor<1024xf32, #v1>
  %b = txlgpu.convert_layout %a : tensor<1024xf32, #v1> -> tensor<1024xf32, #v4>
  return %b : tensor<1024xf32, #v4>
}

// -----

#v4 = #txlgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v1 = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Past two dozen recomputed ops moving the data is cheaper: a chain of 28
// adds keeps its conversion, and the clones made before giving up are
// dropped again (still exactly 28 adds, all in the source layout).
// CHECK-LABEL: func.func @long_chain
// CHECK-COUNT-28: arith.addi {{.*}} : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [4], {{.*}}>>
// CHECK-NOT: arith.addi
// CHECK: txlgpu.convert_layout %{{.*}} : tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [4], {{.*}}>> -> tensor<1024xi32, #txlgpu.blocked<{sizePerThread = [1], {{.*}}>>
// CHECK-NOT: arith.addi
// CHECK: return
func.func @long_chain() -> tensor<1024xi32, #v1> {
  %c = arith.constant dense<1> : tensor<1024xi32, #v4>
  %r = txl.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #v4>
  %a1 = arith.addi %r, %c : tensor<1024xi32, #v4>
  %a2 = arith.addi %a1, %c : tensor<1024xi32, #v4>
  %a3 = arith.addi %a2, %c : tensor<1024xi32, #v4>
  %a4 = arith.addi %a3, %c : tensor<1024xi32, #v4>
  %a5 = arith.addi %a4, %c : tensor<1024xi32, #v4>
  %a6 = arith.addi %a5, %c : tensor<1024xi32, #v4>
  %a7 = arith.addi %a6, %c : tensor<1024xi32, #v4>
  %a8 = arith.addi %a7, %c : tensor<1024xi32, #v4>
  %a9 = arith.addi %a8, %c : tensor<1024xi32, #v4>
  %a10 = arith.addi %a9, %c : tensor<1024xi32, #v4>
  %a11 = arith.addi %a10, %c : tensor<1024xi32, #v4>
  %a12 = arith.addi %a11, %c : tensor<1024xi32, #v4>
  %a13 = arith.addi %a12, %c : tensor<1024xi32, #v4>
  %a14 = arith.addi %a13, %c : tensor<1024xi32, #v4>
  %a15 = arith.addi %a14, %c : tensor<1024xi32, #v4>
  %a16 = arith.addi %a15, %c : tensor<1024xi32, #v4>
  %a17 = arith.addi %a16, %c : tensor<1024xi32, #v4>
  %a18 = arith.addi %a17, %c : tensor<1024xi32, #v4>
  %a19 = arith.addi %a18, %c : tensor<1024xi32, #v4>
  %a20 = arith.addi %a19, %c : tensor<1024xi32, #v4>
  %a21 = arith.addi %a20, %c : tensor<1024xi32, #v4>
  %a22 = arith.addi %a21, %c : tensor<1024xi32, #v4>
  %a23 = arith.addi %a22, %c : tensor<1024xi32, #v4>
  %a24 = arith.addi %a23, %c : tensor<1024xi32, #v4>
  %a25 = arith.addi %a24, %c : tensor<1024xi32, #v4>
  %a26 = arith.addi %a25, %c : tensor<1024xi32, #v4>
  %a27 = arith.addi %a26, %c : tensor<1024xi32, #v4>
  %a28 = arith.addi %a27, %c : tensor<1024xi32, #v4>
  %cv = txlgpu.convert_layout %a28 : tensor<1024xi32, #v4> -> tensor<1024xi32, #v1>
  return %cv : tensor<1024xi32, #v1>
}

// -----

#b2 = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>

// A causal mask (rows[:, None] >= cols[None, :]) built in a blocked layout
// and needed in a wgmma accumulator's layout: expand_dims and broadcast
// are recomputed too (each range in the slice of the accumulator layout),
// so the mask never goes through shared memory.
// CHECK-LABEL: func.func @mask_in_accumulator_layout
// CHECK-NOT: txlgpu.convert_layout
// CHECK-DAG: txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #txlgpu.slice<{dim = 1, parent = #txlgpu.nvmma
// CHECK-DAG: txl.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #txlgpu.slice<{dim = 0, parent = #txlgpu.nvmma
// CHECK: arith.cmpi sge, {{.*}} : tensor<64x128xi32, #txlgpu.nvmma
// CHECK: arith.select {{.*}} : tensor<64x128xi1, #txlgpu.nvmma
func.func @mask_in_accumulator_layout(%s: tensor<64x128xf32, #acc>) -> tensor<64x128xf32, #acc> {
  %ninf = arith.constant dense<0xFF800000> : tensor<64x128xf32, #acc>
  %r = txl.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #txlgpu.slice<{dim = 1, parent = #b2}>>
  %c = txl.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #txlgpu.slice<{dim = 0, parent = #b2}>>
  %re = txl.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #txlgpu.slice<{dim = 1, parent = #b2}>> -> tensor<64x1xi32, #b2>
  %ce = txl.expand_dims %c {axis = 0 : i32} : tensor<128xi32, #txlgpu.slice<{dim = 0, parent = #b2}>> -> tensor<1x128xi32, #b2>
  %rb = txl.broadcast %re : tensor<64x1xi32, #b2> -> tensor<64x128xi32, #b2>
  %cb = txl.broadcast %ce : tensor<1x128xi32, #b2> -> tensor<64x128xi32, #b2>
  %keep = arith.cmpi sge, %rb, %cb : tensor<64x128xi32, #b2>
  %k = txlgpu.convert_layout %keep : tensor<64x128xi1, #b2> -> tensor<64x128xi1, #acc>
  %m = arith.select %k, %s, %ninf : tensor<64x128xi1, #acc>, tensor<64x128xf32, #acc>
  return %m : tensor<64x128xf32, #acc>
}

// -----

#row = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blk = #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#mma = #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>

// A row statistic broadcast over a tile (FlashAttention's acc / l[:, None]):
// the statistic (64 values, a loop result that cannot be recomputed) is
// converted, and the expand_dims and broadcast are recomputed in the
// accumulator's layout, instead of converting the 64x128 broadcast. The
// statistic's own earlier conversion is folded into the new one.
// CHECK-LABEL: func.func @broadcast_statistic
// CHECK: %[[L:.*]] = txlgpu.convert_layout %arg0 : tensor<64xf32, #txlgpu.blocked<{{.*}}>> -> tensor<64xf32, #txlgpu.slice<{dim = 1, parent = #txlgpu.nvmma<{{.*}}>}>>
// CHECK-NEXT: %[[E:.*]] = txl.expand_dims %[[L]] {axis = 1 : i32} : {{.*}} -> tensor<64x1xf32, #txlgpu.nvmma<
// CHECK-NEXT: %[[B:.*]] = txl.broadcast %[[E]] : {{.*}} -> tensor<64x128xf32, #txlgpu.nvmma<
// CHECK-NEXT: arith.divf %arg1, %[[B]]
// CHECK-NOT: txlgpu.convert_layout
// CHECK: return
func.func @broadcast_statistic(%l: tensor<64xf32, #row>, %acc: tensor<64x128xf32, #mma>) -> tensor<64x128xf32, #mma> {
  %s = txlgpu.convert_layout %l : tensor<64xf32, #row> -> tensor<64xf32, #txlgpu.slice<{dim = 1, parent = #blk}>>
  %e = txl.expand_dims %s {axis = 1 : i32} : tensor<64xf32, #txlgpu.slice<{dim = 1, parent = #blk}>> -> tensor<64x1xf32, #blk>
  %b = txl.broadcast %e : tensor<64x1xf32, #blk> -> tensor<64x128xf32, #blk>
  %c = txlgpu.convert_layout %b : tensor<64x128xf32, #blk> -> tensor<64x128xf32, #mma>
  %d = arith.divf %acc, %c : tensor<64x128xf32, #mma>
  return %d : tensor<64x128xf32, #mma>
}

// -----

#blk = #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#mma = #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>

// Converting the operands instead would move as much as converting the
// sum (each operand is as large): the conversion stays.
// CHECK-LABEL: func.func @no_smaller_leaf
// CHECK: %[[S:.*]] = arith.addf %arg0, %arg1 : tensor<64x128xf32, #txlgpu.blocked
// CHECK-NEXT: txlgpu.convert_layout %[[S]]
// CHECK-NOT: txlgpu.convert_layout
func.func @no_smaller_leaf(%x: tensor<64x128xf32, #blk>, %y: tensor<64x128xf32, #blk>) -> tensor<64x128xf32, #mma> {
  %s = arith.addf %x, %y : tensor<64x128xf32, #blk>
  %c = txlgpu.convert_layout %s : tensor<64x128xf32, #blk> -> tensor<64x128xf32, #mma>
  return %c : tensor<64x128xf32, #mma>
}
