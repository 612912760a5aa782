// txlgpu.prefetch_l2 lowers to NVVM's cp.async.bulk.prefetch op (the
// llvm.nvvm.cp.async.bulk.prefetch.L2 intrinsic, no cache hint), not to
// inline PTX; a predicate becomes a branch around it, so only the threads
// where it holds issue the prefetch.
// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @prefetch(
// CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr<1>, %[[N:[^:]*]]: i32, %[[PRED:[^:]*]]: i1
// CHECK-NOT: llvm.inline_asm
// CHECK: %[[C:[0-9]+]] = llvm.mlir.constant(73728 : i32) : i32
// CHECK-NEXT: nvvm.cp.async.bulk.prefetch %[[P]], %[[N]] : <1>
// CHECK-NEXT: llvm.cond_br %[[PRED]], ^[[THEN:bb[0-9]+]], ^[[DONE:bb[0-9]+]]
// CHECK: ^[[THEN]]:
// CHECK-NEXT: nvvm.cp.async.bulk.prefetch %[[P]], %[[C]] : <1>
// CHECK-NEXT: llvm.br ^[[DONE]]
// CHECK: ^[[DONE]]:
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.return
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.shared = 0 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @prefetch(%p: !txl.ptr<bf16>, %n: i32, %pred: i1) {
    %c = arith.constant 73728 : i32
    txlgpu.prefetch_l2 %p, %n : !txl.ptr<bf16>
    txlgpu.prefetch_l2 %p, %c, %pred : !txl.ptr<bf16>
    return
  }
}
