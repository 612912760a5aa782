// smem_store of a wgmma accumulator into a 128-byte-swizzled fp32 tile
// (flash_attn_bwd.py's dQ tile): each thread writes 16 pairs, at its
// thread offset xor a per-run constant. Bits of that constant that no
// thread part sets (row + 8: 256 elements; the second swizzle box: 2048)
// are added after the xor, as a constant offset, so only the chunk bits
// stay in the xor: 3 distinct xors (8, 16, 24) and the thread offset
// itself serve all 16 stores. (One xor per store kept 16 loop-invariant
// addresses live through the backward's loop, which ptxas spilled.)
// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm --cse | FileCheck %s

#acc = #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sw = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 32, order = [1, 0]}>
// CHECK-LABEL: llvm.func @acc_tile
// CHECK: %[[P:[0-9]+]] = llvm.getelementptr %{{[0-9]+}}[%[[T:[0-9]+]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %{{[0-9]+}}, %[[P]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: llvm.mlir.constant(256 : i32)
// CHECK-NEXT: llvm.getelementptr %[[P]][%{{[0-9]+}}]
// CHECK-COUNT-3: llvm.xor %[[T]], %{{[0-9]+}} : i32
// CHECK-NOT: llvm.xor
// CHECK: llvm.mlir.constant(2048 : i32)
// CHECK-NOT: llvm.xor
// CHECK: llvm.return
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.threads_per_warp = 32 : i32, txlgpu.num_warpgroups = 1 : i32, txlgpu.target = "sm_90a", txlgpu.shared = 32768 : i32} {
  func.func @acc_tile(%x: tensor<64x64xf32, #acc>) {
    %c0 = arith.constant 0 : i32
    %bufs = txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32} : <1x64x64xf32, #sw>
    %tile = txlgpu.memdesc_index %bufs[%c0] : <1x64x64xf32, #sw> -> <64x64xf32, #sw>
    txlgpu.smem_store %x, %tile : tensor<64x64xf32, #acc> -> <64x64xf32, #sw>
    return
  }
}
