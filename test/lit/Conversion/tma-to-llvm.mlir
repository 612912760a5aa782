// TMA in the LLVM lowering. A tensordesc kernel argument becomes the
// by-value 128-byte CUtensorMap (byval + align 64 + grid_constant, so the
// kernel addresses the parameter itself); the txlgpu.tma_* annotations
// (launch metadata, already read by the pipeline) are dropped. Each copy is
// issued by thread 0 of the calling warpgroup (tid % (num_warps * 32)),
// inside a branch; a tile whose rows are wider than the 128-byte swizzle
// span is one box per span-wide column chunk: chunk c starts
// c * rows * span bytes into the tile and at column col + c * box_cols, and
// TMA takes the coordinates innermost first (col, row). A store closes its
// copies into one bulk group; tma_store_wait waits for the group's reads.
// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm | FileCheck %s

// Two warpgroups of 4 warps: the leader test is tid % 128, not tid == 0.
// CHECK-LABEL: llvm.func @tma(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[C:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[W:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[ROW:[^:]*]]: i32, %[[COL:[^:]*]]: i32, %[[P:[^:]*]]: i1)
// CHECK-NOT: txlgpu.tma_
// CHECK-SAME: nvvm.kernel
// The barrier (offset 0, stage 0) and the tiles (offsets 1024, 17408,
// 33792, 35840).
// CHECK: nvvm.barrier0
// CHECK: llvm.mul
// CHECK-NEXT: %[[BAR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.getelementptr %{{.*}}[1024] :
// CHECK: %[[ATILE:.*]] = llvm.getelementptr
// CHECK: llvm.getelementptr %{{.*}}[17408] :
// CHECK: %[[CTILE:.*]] = llvm.getelementptr
// CHECK: llvm.getelementptr %{{.*}}[33792] :
// CHECK: %[[STILE:.*]] = llvm.getelementptr
// CHECK: llvm.getelementptr %{{.*}}[35840] :
// CHECK: %[[WTILE:.*]] = llvm.getelementptr
//
// fp16 64x128 load: two boxes of 64 columns, the second 64*64*2 bytes on.
// CHECK: %[[WG:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:.*]] = llvm.urem %[[TID]], %[[WG]] : i32
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[LEAD:.*]] = llvm.icmp "eq" %[[LANE]], %[[Z]] : i32
// CHECK: llvm.cond_br %[[LEAD]], ^[[LOAD:.*]], ^[[AFTERLOAD:[^ ]*]]
// CHECK: ^[[LOAD]]:
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[ATILE]], %[[A]], %[[BAR]], box[%[[COL]], %[[ROW]]] {isCTAOnly = true}
// CHECK-NEXT: %[[SPAN:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT: %[[COL1:.*]] = llvm.add %[[COL]], %[[SPAN]] : i32
// CHECK-NEXT: %[[CHUNK1:.*]] = llvm.getelementptr %[[ATILE]][8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[CHUNK1]], %[[A]], %[[BAR]], box[%[[COL1]], %[[ROW]]] {isCTAOnly = true}
// CHECK-NEXT: llvm.br ^[[AFTERLOAD]]
// CHECK: ^[[AFTERLOAD]]:
//
// A predicated fp16 64x16 load (32-byte swizzle, rows one span wide): one
// box, issued where the leader test and the predicate both hold.
// CHECK: %[[TID2:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE2:.*]] = llvm.urem %[[TID2]], %{{.*}} : i32
// CHECK: %[[LEAD2:.*]] = llvm.icmp "eq" %[[LANE2]], %{{.*}} : i32
// CHECK: %[[ISSUE:.*]] = llvm.and %[[LEAD2]], %[[P]] : i1
// CHECK: llvm.cond_br %[[ISSUE]], ^[[PLOAD:.*]], ^[[AFTERPLOAD:[^ ]*]]
// CHECK: ^[[PLOAD]]:
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[STILE]], %[[S]], %[[BAR]], box[%[[COL]], %[[ROW]]] {isCTAOnly = true}
// CHECK-NEXT: llvm.br ^[[AFTERPLOAD]]
// CHECK: ^[[AFTERPLOAD]]:
//
// fp32 64x64 store: two boxes of 32 columns (128 bytes), 64*32*4 bytes
// apart, then one commit for both.
// CHECK: llvm.urem
// CHECK: llvm.cond_br %{{.*}}, ^[[STORE:.*]], ^[[AFTERSTORE:[^ ]*]]
// CHECK: ^[[STORE]]:
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[C]], %[[CTILE]], box[%[[COL]], %[[ROW]]]
// CHECK-NEXT: %[[SPAN32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[CCOL1:.*]] = llvm.add %[[COL]], %[[SPAN32]] : i32
// CHECK-NEXT: %[[CCHUNK1:.*]] = llvm.getelementptr %[[CTILE]][8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[C]], %[[CCHUNK1]], box[%[[CCOL1]], %[[ROW]]]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: llvm.br ^[[AFTERSTORE]]
// CHECK: ^[[AFTERSTORE]]:
//
// fp16 32x256 store: four boxes of 64 columns, 32*64*2 = 4096 bytes apart.
// CHECK: llvm.cond_br %{{.*}}, ^[[WSTORE:.*]], ^[[AFTERWSTORE:[^ ]*]]
// CHECK: ^[[WSTORE]]:
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[W]], %[[WTILE]], box[%[[COL]], %[[ROW]]]
// CHECK-NEXT: llvm.mlir.constant(64 : i32)
// CHECK-NEXT: %[[WCOL1:.*]] = llvm.add %[[COL]]
// CHECK-NEXT: %[[WCHUNK1:.*]] = llvm.getelementptr %[[WTILE]][4096]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[W]], %[[WCHUNK1]], box[%[[WCOL1]], %[[ROW]]]
// CHECK-NEXT: llvm.mlir.constant(128 : i32)
// CHECK-NEXT: %[[WCOL2:.*]] = llvm.add %[[COL]]
// CHECK-NEXT: %[[WCHUNK2:.*]] = llvm.getelementptr %[[WTILE]][8192]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[W]], %[[WCHUNK2]], box[%[[WCOL2]], %[[ROW]]]
// CHECK-NEXT: llvm.mlir.constant(192 : i32)
// CHECK-NEXT: %[[WCOL3:.*]] = llvm.add %[[COL]]
// CHECK-NEXT: %[[WCHUNK3:.*]] = llvm.getelementptr %[[WTILE]][12288]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[W]], %[[WCHUNK3]], box[%[[WCOL3]], %[[ROW]]]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: llvm.br ^[[AFTERWSTORE]]
// CHECK: ^[[AFTERWSTORE]]:
//
// The same fp32 store as a reduce-add (tma_store(..., reduce="add")): each
// box becomes cp.reduce.async.bulk.tensor .add, one commit for both.
// CHECK: llvm.cond_br %{{.*}}, ^[[RED:.*]], ^[[AFTERRED:[^ ]*]]
// CHECK: ^[[RED]]:
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[C]], %[[CTILE]], box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<add>}
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[C]], %{{.*}}, box[%{{.*}}, %[[ROW]]] {redKind = #nvvm.tma_redux_kind<add>}
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: llvm.br ^[[AFTERRED]]
// CHECK: ^[[AFTERRED]]:
// Every thread runs the wait (outside any branch).
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK-NEXT: llvm.return
// CHECK-NOT: txlgpu.
#sw128h = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#sw128f = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 32, order = [1, 0]}>
#sw32h = #txlgpu.nvmma_shared<{swizzle = 32, elemBits = 16, order = [1, 0]}>
module attributes {txlgpu.num_warpgroups = 2 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 52224 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @tma(%a: !txlgpu.tensordesc<64x128xf16> {txlgpu.tma_box = array<i64: 64, 64>, txlgpu.tma_swizzle = 128 : i32},
                 %c: !txlgpu.tensordesc<64x64xf32> {txlgpu.tma_box = array<i64: 64, 32>, txlgpu.tma_swizzle = 128 : i32},
                 %s: !txlgpu.tensordesc<64x16xf16> {txlgpu.tma_box = array<i64: 64, 16>, txlgpu.tma_swizzle = 32 : i32},
                 %w: !txlgpu.tensordesc<32x256xf16> {txlgpu.tma_box = array<i64: 32, 64>, txlgpu.tma_swizzle = 128 : i32},
                 %row: i32, %col: i32, %p: i1) attributes {txl.kernel} {
    %c0 = arith.constant 0 : i32
    %bars = txlgpu.mbar_alloc {arriveCount = 1 : i32, txlgpu.shared_offset = 0 : i32} : <1xi64, #txlgpu.barrier>
    %bar = txlgpu.memdesc_index %bars[%c0] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    %abuf = txlgpu.smem_alloc {txlgpu.shared_offset = 1024 : i32} : <1x64x128xf16, #sw128h>
    %a0 = txlgpu.memdesc_index %abuf[%c0] : <1x64x128xf16, #sw128h> -> <64x128xf16, #sw128h>
    %cbuf = txlgpu.smem_alloc {txlgpu.shared_offset = 17408 : i32} : <1x64x64xf32, #sw128f>
    %c0buf = txlgpu.memdesc_index %cbuf[%c0] : <1x64x64xf32, #sw128f> -> <64x64xf32, #sw128f>
    %sbuf = txlgpu.smem_alloc {txlgpu.shared_offset = 33792 : i32} : <1x64x16xf16, #sw32h>
    %s0 = txlgpu.memdesc_index %sbuf[%c0] : <1x64x16xf16, #sw32h> -> <64x16xf16, #sw32h>
    %wbuf = txlgpu.smem_alloc {txlgpu.shared_offset = 35840 : i32} : <1x32x256xf16, #sw128h>
    %w0 = txlgpu.memdesc_index %wbuf[%c0] : <1x32x256xf16, #sw128h> -> <32x256xf16, #sw128h>
    txlgpu.tma_load %a[%row, %col] -> %a0, %bar : <64x128xf16> -> <64x128xf16, #sw128h>, <1xi64, #txlgpu.barrier>
    txlgpu.tma_load %s[%row, %col] -> %s0, %bar, %p : <64x16xf16> -> <64x16xf16, #sw32h>, <1xi64, #txlgpu.barrier>
    txlgpu.tma_store %c0buf -> %c[%row, %col] : <64x64xf32, #sw128f> -> <64x64xf32>
    txlgpu.tma_store %w0 -> %w[%row, %col] : <32x256xf16, #sw128h> -> <32x256xf16>
    txlgpu.tma_store %c0buf -> %c[%row, %col] {reduce = "add"} : <64x64xf32, #sw128f> -> <64x64xf32>
    txlgpu.tma_store_wait {pendings = 1 : i32}
    return
  }
}
