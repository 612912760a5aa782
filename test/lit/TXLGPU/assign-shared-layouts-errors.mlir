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

// A TMA tile must be 2-D with rows of at least one 32-byte swizzle span.
func.func @narrow_rows(%d: !txlgpu.tensordesc<64x8xf16>) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{a buffer used by TMA or wgmma must be 2-D with rows of at least 32 bytes}}
  %buf = txlgpu.smem_alloc : <1x64x8xf16>
  %t = txlgpu.memdesc_index %buf[%c0] : <1x64x8xf16> -> <64x8xf16>
  txlgpu.tma_store %t -> %d[%c0, %c0] : <64x8xf16> -> <64x8xf16>
  return
}
