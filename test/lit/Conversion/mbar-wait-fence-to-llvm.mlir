// mbar_wait in the LLVM lowering (the loop itself: mbar-wait-to-llvm.mlir).
// A barrier that cp.async copies may complete (some thread arrives on it
// with track_async_op, cp.async.mbarrier.arrive.noinc) hands over data the
// copies wrote through the generic proxy; a wgmma or TMA store reads shared
// memory through the async proxy, so the waiting thread fences the async
// proxy after the wait (the arriving thread cannot: its arrival fires when
// the copies land). A wait on a barrier without such arrivals (`free`,
// arrived on plainly) gets no fence. On sm_80 there is no async proxy.
// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm | FileCheck %s
// RUN: sed -e 's/sm_90a/sm_80/' %s | txl-opt --txl-convert-txlgpu-to-llvm | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: llvm.func @ring(
// CHECK: nvvm.cp.async.mbarrier.arrive
// The wait on `ready` (stage 1), then the fence where its loop exits.
// CHECK: mbarrier.try_wait.parity
// CHECK: llvm.cond_br %{{.*}}, ^[[READY:bb[0-9]+]], ^
// CHECK: ^[[READY]]:
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// The wait on `free`: no fence before the end.
// CHECK: mbarrier.try_wait.parity
// CHECK-NOT: nvvm.fence.proxy
// CHECK: llvm.return
// SM80-LABEL: llvm.func @ring(
// SM80-NOT: nvvm.fence.proxy
module attributes {txlgpu.num_warpgroups = 2 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 64 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @ring(%phase: i32) attributes {txl.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ready = txlgpu.mbar_alloc {arriveCount = 128 : i32, txlgpu.shared_offset = 0 : i32} : <2xi64, #txlgpu.barrier>
    %free = txlgpu.mbar_alloc {arriveCount = 128 : i32, txlgpu.shared_offset = 16 : i32} : <2xi64, #txlgpu.barrier>
    %r0 = txlgpu.memdesc_index %ready[%c0] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    %r1 = txlgpu.memdesc_index %ready[%c1] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    %f0 = txlgpu.memdesc_index %free[%c0] : <2xi64, #txlgpu.barrier> -> <1xi64, #txlgpu.barrier>
    txlgpu.mbar_arrive %r0 track_async_op : <1xi64, #txlgpu.barrier>
    txlgpu.mbar_wait %r1, %phase : <1xi64, #txlgpu.barrier>
    txlgpu.mbar_arrive %f0 : <1xi64, #txlgpu.barrier>
    txlgpu.mbar_wait %f0, %phase : <1xi64, #txlgpu.barrier>
    return
  }
}
