// smem_store synchronizes the storing warpgroup around the write (a
// barrier before it; an async-proxy fence and a barrier after it), and
// `unsynced` (txl.smem_store(..., sync=False)) leaves all three to the
// kernel, with or without a per-thread predicate: only the stores remain.
// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm --cse | FileCheck %s

#blk = #txlgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#flat = #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 32, order = [0]}>
// CHECK-LABEL: llvm.func @synced
// CHECK: nvvm.barrier0
// CHECK: llvm.store
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.barrier0
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @unsynced
// CHECK-NOT: nvvm.barrier
// CHECK-NOT: nvvm.fence.proxy
// CHECK: llvm.store
// CHECK-NOT: nvvm.barrier
// CHECK-NOT: nvvm.fence.proxy
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @unsynced_guarded
// CHECK-NOT: nvvm.barrier
// CHECK-NOT: nvvm.fence.proxy
// CHECK: llvm.store
// CHECK-NOT: nvvm.barrier
// CHECK-NOT: nvvm.fence.proxy
// CHECK: llvm.return
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.threads_per_warp = 32 : i32, txlgpu.num_warpgroups = 1 : i32, txlgpu.target = "sm_90a", txlgpu.shared = 1024 : i32} {
  func.func @synced(%x: tensor<128xf32, #blk>) {
    %c0 = arith.constant 0 : i32
    %bufs = txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32} : <1x128xf32, #flat>
    %buf = txlgpu.memdesc_index %bufs[%c0] : <1x128xf32, #flat> -> <128xf32, #flat>
    txlgpu.smem_store %x, %buf : tensor<128xf32, #blk> -> <128xf32, #flat>
    return
  }
  func.func @unsynced(%x: tensor<128xf32, #blk>) {
    %c0 = arith.constant 0 : i32
    %bufs = txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32} : <1x128xf32, #flat>
    %buf = txlgpu.memdesc_index %bufs[%c0] : <1x128xf32, #flat> -> <128xf32, #flat>
    txlgpu.smem_store %x, %buf {unsynced} : tensor<128xf32, #blk> -> <128xf32, #flat>
    return
  }
  func.func @unsynced_guarded(%x: tensor<128xf32, #blk>, %p: i1) {
    %c0 = arith.constant 0 : i32
    %bufs = txlgpu.smem_alloc {txlgpu.shared_offset = 0 : i32} : <1x128xf32, #flat>
    %buf = txlgpu.memdesc_index %bufs[%c0] : <1x128xf32, #flat> -> <128xf32, #flat>
    txlgpu.smem_store %x, %buf if %p {unsynced} : tensor<128xf32, #blk> -> <128xf32, #flat>
    return
  }
}
