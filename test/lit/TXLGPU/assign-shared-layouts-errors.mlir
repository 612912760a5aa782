// RUN: txl-opt %s -split-input-file --txlgpu-assign-shared-layouts -verify-diagnostics
// One descriptor is encoded with one swizzle, so every buffer TMA moves
// through it must have that swizzle. (The front end only lets a buffer of
// the descriptor's block type through, so only hand-written IR gets here.)

func.func @two_swizzles(%d: !txlgpu.tensordesc<64x64xf16>) {
  %c0 = arith.constant 0 : i32
  %wide = txlgpu.smem_alloc : <1x64x64xf16>
  %narrow = txlgpu.smem_alloc : <1x64x16xf16>
  %w = txlgpu.memdesc_index %wide[%c0] : <1x64x64xf16> -> <64x64xf16>
  %n = txlgpu.memdesc_index %narrow[%c0] : <1x64x16xf16> -> <64x16xf16>
  // The diagnostic lands on whichever copy the use list visits second.
  // expected-error @+1 {{TMA copies through one descriptor use buffers with different swizzles (32 and 128 bytes)}}
  txlgpu.tma_store %w -> %d[%c0, %c0] : <64x64xf16> -> <64x64xf16>
  txlgpu.tma_store %n -> %d[%c0, %c0] : <64x16xf16> -> <64x64xf16>
  return
}

// -----

// A TMA tile's rows span at least 16 bytes (one unswizzled TMA row).
func.func @narrow_rows(%d: !txlgpu.tensordesc<64x4xf16>) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{a buffer used by TMA or wgmma must be 2-D with rows of at least 32 bytes (or, for TMA only, of rank 1 to 5 with rows of at least 16 bytes)}}
  %buf = txlgpu.smem_alloc : <1x64x4xf16>
  %t = txlgpu.memdesc_index %buf[%c0] : <1x64x4xf16> -> <64x4xf16>
  txlgpu.tma_store %t -> %d[%c0, %c0] : <64x4xf16> -> <64x4xf16>
  return
}

// -----

// A descriptor chosen at run time (arith.select) is followed to the copies
// it feeds: one descriptor still has one swizzle, whichever way it gets to
// its copies.
func.func @select_two_swizzles(%a: !txlgpu.tensordesc<64x64xf16>, %b: !txlgpu.tensordesc<64x64xf16>, %c: i1) {
  %c0 = arith.constant 0 : i32
  %wide = txlgpu.smem_alloc : <1x64x64xf16>
  %narrow = txlgpu.smem_alloc : <1x64x16xf16>
  %w = txlgpu.memdesc_index %wide[%c0] : <1x64x64xf16> -> <64x64xf16>
  %n = txlgpu.memdesc_index %narrow[%c0] : <1x64x16xf16> -> <64x16xf16>
  %d = arith.select %c, %a, %b : !txlgpu.tensordesc<64x64xf16>
  // expected-error @+1 {{TMA copies through one descriptor use buffers with different swizzles (128 and 32 bytes)}}
  txlgpu.tma_store %n -> %d[%c0, %c0] : <64x16xf16> -> <64x64xf16>
  txlgpu.tma_store %w -> %a[%c0, %c0] : <64x64xf16> -> <64x64xf16>
  return
}

// -----

// The descriptor contract: a [64, 32] block is encoded with a 32-column
// box, but the buffer stores its rows as one 64-column chunk: the copy
// would land permuted. (The front end rejects a buffer that is not the
// descriptor's block; hand-written IR is checked here.)
func.func @box_narrower_than_chunk(%d: !txlgpu.tensordesc<64x32xf16>) {
  %c0 = arith.constant 0 : i32
  %buf = txlgpu.smem_alloc : <1x64x64xf16>
  %t = txlgpu.memdesc_index %buf[%c0] : <1x64x64xf16> -> <64x64xf16>
  // expected-error @+1 {{the tensor descriptor's TMA layout (swizzle 128 bytes, box [64, 32]) does not match the shared buffer's (swizzle 128 bytes, boxes [64, 64])}}
  txlgpu.tma_store %t -> %d[%c0, %c0] : <64x64xf16> -> <64x32xf16>
  return
}

// -----

// A descriptor whose origin is neither a kernel argument nor made by the
// kernel cannot be checked: an error, not a guess.
func.func @unknown_descriptor(%x: i64) {
  %c0 = arith.constant 0 : i32
  %d = builtin.unrealized_conversion_cast %x : i64 to !txlgpu.tensordesc<64x64xf16>
  %buf = txlgpu.smem_alloc : <1x64x64xf16>
  %t = txlgpu.memdesc_index %buf[%c0] : <1x64x64xf16> -> <64x64xf16>
  // expected-error @+1 {{cannot tell which tensor descriptor this TMA copy uses}}
  txlgpu.tma_store %t -> %d[%c0, %c0] : <64x64xf16> -> <64x64xf16>
  return
}
