// RUN: txl-opt %s --txlgpu-assign-shared-layouts | FileCheck %s
// A buffer wgmma reads gets the widest swizzle its rows allow (row-major);
// its stages and its transposed view derive theirs (the view's order is
// renamed); a buffer only threads touch gets the unswizzled layout.

// CHECK-LABEL: func.func @k
func.func @k() {
  %c0 = arith.constant 0 : i32
  %acc = arith.constant dense<0.0> : tensor<64x128xf32>
  // CHECK: txlgpu.smem_alloc : <1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
  %a = txlgpu.smem_alloc : <1x64x64xf16>
  // CHECK: txlgpu.smem_alloc : <2x128x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
  %b = txlgpu.smem_alloc : <2x128x64xf16>
  // CHECK: txlgpu.smem_alloc : <1x256xf32, #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 32, order = [0]}>>
  %p = txlgpu.smem_alloc : <1x256xf32>
  // CHECK: txlgpu.memdesc_index {{.*}} -> <64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
  %a0 = txlgpu.memdesc_index %a[%c0] : <1x64x64xf16> -> <64x64xf16>
  %b0 = txlgpu.memdesc_index %b[%c0] : <2x128x64xf16> -> <128x64xf16>
  // CHECK: txlgpu.memdesc_view {{.*}} -> <64x128xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [0, 1]}>>
  %bt = txlgpu.memdesc_view %b0 {dim = 0 : i64, permutation = array<i32: 1, 0>, start = 0 : i64} : <128x64xf16> -> <64x128xf16>
  %d = txlgpu.warp_group_dot %a0, %bt, %acc : !txlgpu.memdesc<64x64xf16> * <64x128xf16> -> tensor<64x128xf32>
  %p0 = txlgpu.memdesc_index %p[%c0] : <1x256xf32> -> <256xf32>
  %v = txlgpu.smem_load %p0 : <256xf32> -> tensor<256xf32>
  return
}

// Tensor descriptor arguments record the swizzle of the buffers their TMA
// copies use and the box the host must encode the map with. A 128-wide
// fp16 row is 256 bytes, twice the 128-byte swizzle span, so the box is
// one span (64 columns) wide and the tile moves as two boxes; a 32-wide
// fp32 row is exactly one span, so the box is the whole block; a 16-wide
// fp16 row (32 bytes) only allows the 32-byte swizzle. A descriptor no TMA
// op uses gets what its block alone allows: the same rule for fp16
// [32, 256], and no swizzle with the block as the box for fp8 rows of 16
// bytes (too narrow for any swizzle). The swizzle is the buffer's, not
// recomputed from the block: %w's 64-wide block alone would allow 128, but
// the (hand-written, narrower) tile it fills has 32-byte rows.
// CHECK-LABEL: func.func @descs
// CHECK-SAME: %{{[^:]*}}: !txlgpu.tensordesc<64x128xf16> {txlgpu.tma_box = array<i64: 64, 64>, txlgpu.tma_swizzle = 128 : i32}
// CHECK-SAME: %{{[^:]*}}: !txlgpu.tensordesc<64x32xf32> {txlgpu.tma_box = array<i64: 64, 32>, txlgpu.tma_swizzle = 128 : i32}
// CHECK-SAME: %{{[^:]*}}: !txlgpu.tensordesc<128x16xf16> {txlgpu.tma_box = array<i64: 128, 16>, txlgpu.tma_swizzle = 32 : i32}
// CHECK-SAME: %{{[^:]*}}: !txlgpu.tensordesc<32x256xf16> {txlgpu.tma_box = array<i64: 32, 64>, txlgpu.tma_swizzle = 128 : i32}
// CHECK-SAME: %{{[^:]*}}: !txlgpu.tensordesc<8x16xf8E4M3FN> {txlgpu.tma_box = array<i64: 8, 16>, txlgpu.tma_swizzle = 0 : i32}
// CHECK-SAME: %{{[^:]*}}: !txlgpu.tensordesc<64x64xf16> {txlgpu.tma_box = array<i64: 64, 16>, txlgpu.tma_swizzle = 32 : i32}
// CHECK-SAME: %{{[^:]*}}: i32)
// CHECK-NOT: txlgpu.tma_box
// CHECK: txlgpu.smem_alloc : <2x64x128xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// CHECK: txlgpu.smem_alloc : <1x64x32xf32, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 32, order = [1, 0]}>>
// CHECK: txlgpu.smem_alloc : <1x128x16xf16, #txlgpu.nvmma_shared<{swizzle = 32, elemBits = 16, order = [1, 0]}>>
func.func @descs(%a: !txlgpu.tensordesc<64x128xf16>, %b: !txlgpu.tensordesc<64x32xf32>,
                 %c: !txlgpu.tensordesc<128x16xf16>, %unused: !txlgpu.tensordesc<32x256xf16>,
                 %narrow: !txlgpu.tensordesc<8x16xf8E4M3FN>,
                 %w: !txlgpu.tensordesc<64x64xf16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %abuf = txlgpu.smem_alloc : <2x64x128xf16>
  %bbuf = txlgpu.smem_alloc : <1x64x32xf32>
  %cbuf = txlgpu.smem_alloc : <1x128x16xf16>
  %wbuf = txlgpu.smem_alloc : <1x64x16xf16>
  %bars = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
  %bar = txlgpu.memdesc_index %bars[%c0] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
  %a0 = txlgpu.memdesc_index %abuf[%c0] : <2x64x128xf16> -> <64x128xf16>
  %b0 = txlgpu.memdesc_index %bbuf[%c0] : <1x64x32xf32> -> <64x32xf32>
  %c0buf = txlgpu.memdesc_index %cbuf[%c0] : <1x128x16xf16> -> <128x16xf16>
  %w0 = txlgpu.memdesc_index %wbuf[%c0] : <1x64x16xf16> -> <64x16xf16>
  txlgpu.tma_load %a[%c0, %n] -> %a0, %bar : <64x128xf16> -> <64x128xf16>, <1xi64, #txlgpu.barrier>
  txlgpu.tma_load %b[%n, %c0] -> %b0, %bar : <64x32xf32> -> <64x32xf32>, <1xi64, #txlgpu.barrier>
  // A descriptor only stored through is annotated the same way.
  txlgpu.tma_store %c0buf -> %c[%c0, %c0] : <128x16xf16> -> <128x16xf16>
  txlgpu.tma_load %w[%c0, %c0] -> %w0, %bar : <64x64xf16> -> <64x16xf16>, <1xi64, #txlgpu.barrier>
  return
}

// Buffers one handle chooses between (`buf = a if c else b`, or assigned
// in both branches of an if) share a layout: %x alone is only read by
// threads, but the select also picks %y, which TMA fills, so both (and the
// select, and the stage taken from it) get the swizzled layout. The
// buffers an scf.if yields do the same: %u is only stored to by threads,
// %v read by wgmma.
// CHECK-LABEL: func.func @choices
// CHECK: %[[X:.*]] = txlgpu.smem_alloc : <1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// CHECK: %[[Y:.*]] = txlgpu.smem_alloc : <1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// CHECK: %[[U:.*]] = txlgpu.smem_alloc : <1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// CHECK: %[[V:.*]] = txlgpu.smem_alloc : <1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// CHECK: arith.select %arg1, %[[X]], %[[Y]] : !txlgpu.memdesc<1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// CHECK: txlgpu.memdesc_index {{.*}} -> <64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// CHECK: scf.if %arg1 -> (!txlgpu.memdesc<1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>)
func.func @choices(%desc: !txlgpu.tensordesc<64x64xf16>, %c: i1, %t: tensor<64x64xf16>) {
  %c0 = arith.constant 0 : i32
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %x = txlgpu.smem_alloc : <1x64x64xf16>
  %y = txlgpu.smem_alloc : <1x64x64xf16>
  %u = txlgpu.smem_alloc : <1x64x64xf16>
  %v = txlgpu.smem_alloc : <1x64x64xf16>
  %bars = txlgpu.mbar_alloc {arriveCount = 1 : i32} : <1xi64, #txlgpu.barrier>
  %bar = txlgpu.memdesc_index %bars[%c0] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
  %x0 = txlgpu.memdesc_index %x[%c0] : <1x64x64xf16> -> <64x64xf16>
  %rx = txlgpu.smem_load %x0 : <64x64xf16> -> tensor<64x64xf16>
  %y0 = txlgpu.memdesc_index %y[%c0] : <1x64x64xf16> -> <64x64xf16>
  txlgpu.tma_load %desc[%c0, %c0] -> %y0, %bar : <64x64xf16> -> <64x64xf16>, <1xi64, #txlgpu.barrier>
  %sel = arith.select %c, %x, %y : !txlgpu.memdesc<1x64x64xf16>
  %s0 = txlgpu.memdesc_index %sel[%c0] : <1x64x64xf16> -> <64x64xf16>
  %rs = txlgpu.smem_load %s0 : <64x64xf16> -> tensor<64x64xf16>
  %w = scf.if %c -> (!txlgpu.memdesc<1x64x64xf16>) {
    scf.yield %u : !txlgpu.memdesc<1x64x64xf16>
  } else {
    scf.yield %v : !txlgpu.memdesc<1x64x64xf16>
  }
  %w0 = txlgpu.memdesc_index %w[%c0] : <1x64x64xf16> -> <64x64xf16>
  txlgpu.smem_store %t, %w0 : tensor<64x64xf16> -> <64x64xf16>
  %v0 = txlgpu.memdesc_index %v[%c0] : <1x64x64xf16> -> <64x64xf16>
  %d = txlgpu.warp_group_dot %v0, %v0, %acc : !txlgpu.memdesc<64x64xf16> * <64x64xf16> -> tensor<64x64xf32>
  return
}

// A descriptor chosen at run time takes the swizzle of the buffers it
// reaches through the select, here a buffer that came with a 64-byte
// swizzle (as the compiler's own buffers do): both choices are encoded
// with that swizzle and a 32-column box, not the 128-byte default.
// CHECK-LABEL: func.func @selected_descriptor
// CHECK-SAME: %{{[^:]*}}: !txlgpu.tensordesc<64x64xf16> {txlgpu.tma_box = array<i64: 64, 32>, txlgpu.tma_swizzle = 64 : i32}
// CHECK-SAME: %{{[^:]*}}: !txlgpu.tensordesc<64x64xf16> {txlgpu.tma_box = array<i64: 64, 32>, txlgpu.tma_swizzle = 64 : i32}
func.func @selected_descriptor(%a: !txlgpu.tensordesc<64x64xf16>, %b: !txlgpu.tensordesc<64x64xf16>, %c: i1) {
  %c0 = arith.constant 0 : i32
  %buf = txlgpu.smem_alloc : <1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [1, 0]}>>
  %t = txlgpu.memdesc_index %buf[%c0] : <1x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [1, 0]}>> -> <64x64xf16, #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [1, 0]}>>
  %d = arith.select %c, %a, %b : !txlgpu.tensordesc<64x64xf16>
  txlgpu.tma_store %t -> %d[%c0, %c0] : <64x64xf16, #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [1, 0]}>> -> <64x64xf16>
  return
}
