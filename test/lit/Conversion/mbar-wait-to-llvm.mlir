// txlgpu.mbar_wait lowers to a loop of the LLVM IR around one
// mbarrier.try_wait.parity probe (with a 1 ms suspend hint), not to a loop
// inside an asm statement: the probe's result may differ between the
// threads of a warp, and NVVM's looping op branches with bra.uni, which
// tells ptxas the branch is uniform. A warp then leaves the wait
// unconverged and reaches the next aligned barrier divergent
// (compute-sanitizer's synccheck flagged FlashAttention's backward).
// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @wait(
// CHECK: llvm.br ^[[PROBE:bb[0-9]+]]
// CHECK: ^[[PROBE]]:
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [$1], $2, 1000000; selp.u32 $0, 1, 0, p; }", "=r,r,r" %{{[0-9]+}}, %{{[0-9]+}} : (!llvm.ptr<3>, i32) -> i32
// CHECK-NOT: bra.uni
// CHECK: llvm.cond_br %{{.*}}, ^[[DONE:bb[0-9]+]], ^[[PROBE]]
// CHECK: ^[[DONE]]:
// CHECK-NOT: nvvm.mbarrier.try_wait.parity
module attributes {txlgpu.num_warps = 4 : i32, txlgpu.shared = 1024 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @wait(%phase: i32) {
    %c0 = arith.constant 0 : i32
    %bars = txlgpu.mbar_alloc {arriveCount = 1 : i32, txlgpu.shared_offset = 0 : i32} : <1xi64, #txlgpu.barrier>
    %bar = txlgpu.memdesc_index %bars[%c0] : <1xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    txlgpu.mbar_wait %bar, %phase : <1xi64, #txlgpu.barrier>
    return
  }
}
