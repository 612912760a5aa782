// mbar_arrive's forms print and parse back unchanged: plain, predicated,
// to a peer CTA, and track_async_op (cp.async.mbarrier.arrive: the arrival
// follows the thread's earlier cp.async copies). smem_store takes an
// optional per-thread predicate (`if`): only those threads write; and
// `unsynced` (txl.smem_store(..., sync=False)): the kernel orders it.
// RUN: txl-opt %s | txl-opt | FileCheck %s

#bar = #txlgpu.barrier

// CHECK-LABEL: func.func @arrive
// CHECK: txlgpu.mbar_arrive %[[B:[^ ]*]] : <1xi64, #txlgpu.barrier>
// CHECK: txlgpu.mbar_arrive %[[B]], %{{.*}} : <1xi64, #txlgpu.barrier>
// CHECK: txlgpu.mbar_arrive %[[B]] cta %{{.*}} : <1xi64, #txlgpu.barrier>
// CHECK: txlgpu.mbar_arrive %[[B]] track_async_op : <1xi64, #txlgpu.barrier>
// CHECK: txlgpu.mbar_arrive %[[B]], %{{.*}} track_async_op : <1xi64, #txlgpu.barrier>
// CHECK: txlgpu.smem_store %{{.*}}, %{{.*}} : tensor<64xf32> -> <64xf32>
// CHECK: txlgpu.smem_store %{{.*}}, %{{.*}} if %{{.*}} : tensor<64xf32> -> <64xf32>
// CHECK: txlgpu.smem_store %{{.*}}, %{{.*}} {unsynced} : tensor<64xf32> -> <64xf32>
// CHECK: txlgpu.smem_store %{{.*}}, %{{.*}} if %{{.*}} {unsynced} : tensor<64xf32> -> <64xf32>
func.func @arrive(%b: !txlgpu.memdesc<1xi64, #bar>, %p: i1, %cta: i32,
                  %x: tensor<64xf32>, %buf: !txlgpu.memdesc<64xf32>) {
  txlgpu.mbar_arrive %b : !txlgpu.memdesc<1xi64, #bar>
  txlgpu.mbar_arrive %b, %p : !txlgpu.memdesc<1xi64, #bar>
  txlgpu.mbar_arrive %b cta %cta : !txlgpu.memdesc<1xi64, #bar>
  txlgpu.mbar_arrive %b track_async_op : !txlgpu.memdesc<1xi64, #bar>
  txlgpu.mbar_arrive %b, %p track_async_op : !txlgpu.memdesc<1xi64, #bar>
  txlgpu.smem_store %x, %buf : tensor<64xf32> -> !txlgpu.memdesc<64xf32>
  txlgpu.smem_store %x, %buf if %p : tensor<64xf32> -> !txlgpu.memdesc<64xf32>
  txlgpu.smem_store %x, %buf {unsynced} : tensor<64xf32> -> !txlgpu.memdesc<64xf32>
  txlgpu.smem_store %x, %buf if %p {unsynced} : tensor<64xf32> -> !txlgpu.memdesc<64xf32>
  return
}
