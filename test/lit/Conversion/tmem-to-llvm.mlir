// Tensor memory in the LLVM lowering. The allocating tmem_alloc has warp 0
// (tid.x >> 5 == 0) run tcgen05.alloc of the CTA's columns into its shared
// slot and relinquish the permit, then fence::before / bar.sync /
// fence::after; every tmem_alloc reads the address back and adds its first
// column (a TMEM address is an !llvm.ptr<6>). A stage of an array is its
// column offset. tmem_load fences after the last synchronization, reads
// each thread's row with tcgen05.ld.32x32b in messages of up to 32 columns
// (warp w reaches lane quarter w % 4: the address's lane field is
// (w & 3) << 21 = 32 (w & 3) << 16), waits for the loads and fences before
// the next synchronization; tmem_store mirrors it (16-bit elements packed two
// to a column). The dealloc synchronizes the CTA between the fences, then
// warp 0 frees the columns.
// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm | FileCheck %s

#tm = #txlgpu.tensor_memory
#rows = #txlgpu.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#rows16 = #txlgpu.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 32 : i32, txlgpu.target = "sm_100a", txlgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @tmem(
  // CHECK: %[[WARP:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.icmp "eq" %[[WARP]]
  // CHECK: llvm.cond_br
  // CHECK: nvvm.tcgen05.alloc %[[SLOT:.*]], %{{.*}} : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit
  // CHECK: nvvm.tcgen05.fence <before>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: nvvm.tcgen05.fence <after>
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<6>
  // The second buffer starts at column 128.
  // CHECK: llvm.mlir.constant(128 : i32)
  // CHECK: llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<6>
  // Stage %i of the 2 x 64-column array.
  // CHECK: llvm.mlir.constant(64 : i32)
  // CHECK: llvm.mul
  // The load: fence, two 32-column messages, wait, fence.
  // CHECK: nvvm.tcgen05.fence <after>
  // CHECK: llvm.mlir.constant(21 : i32)
  // CHECK: llvm.shl
  // CHECK-COUNT-2: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
  // CHECK-NOT: nvvm.tcgen05.ld
  // CHECK: nvvm.tcgen05.wait <load>
  // CHECK-NEXT: nvvm.tcgen05.fence <before>
  // The fp16 store: 64 elements in 32 packed columns, one message.
  // CHECK: nvvm.tcgen05.fence <after>
  // CHECK: nvvm.tcgen05.st %{{.*}}, %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
  // CHECK-NOT: nvvm.tcgen05.st
  // CHECK: nvvm.tcgen05.wait <store>
  // CHECK-NEXT: nvvm.tcgen05.fence <before>
  // The dealloc.
  // CHECK: nvvm.tcgen05.fence <before>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: nvvm.tcgen05.fence <after>
  // CHECK: llvm.cond_br
  // CHECK: nvvm.tcgen05.dealloc %{{.*}}, %{{.*}} : !llvm.ptr<6>, i32
  // CHECK: llvm.return
  func.func @tmem(%i: i32, %v: tensor<128x64xf16, #rows16>) -> tensor<128x64xf32, #rows> attributes {txl.kernel} {
    %acc = txlgpu.tmem_alloc {allocColumns = 256 : i32, column = 0 : i32, txlgpu.shared_offset = 16 : i32} : !txlgpu.memdesc<2x128x64xf32, #tm>
    %a = txlgpu.tmem_alloc {column = 128 : i32, txlgpu.shared_offset = 16 : i32} : !txlgpu.memdesc<1x128x64xf16, #tm>
    %d = txlgpu.memdesc_index %acc[%i] : !txlgpu.memdesc<2x128x64xf32, #tm> -> !txlgpu.memdesc<128x64xf32, #tm>
    %c0 = arith.constant 0 : i32
    %at = txlgpu.memdesc_index %a[%c0] : !txlgpu.memdesc<1x128x64xf16, #tm> -> !txlgpu.memdesc<128x64xf16, #tm>
    %r = txlgpu.tmem_load %d : !txlgpu.memdesc<128x64xf32, #tm> -> tensor<128x64xf32, #rows>
    txlgpu.tmem_store %v, %at : tensor<128x64xf16, #rows16> -> !txlgpu.memdesc<128x64xf16, #tm>
    txlgpu.tmem_dealloc %acc {columns = 256 : i32} : !txlgpu.memdesc<2x128x64xf32, #tm>
    return %r : tensor<128x64xf32, #rows>
  }
}
