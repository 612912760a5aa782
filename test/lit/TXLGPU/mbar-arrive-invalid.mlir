// cp.async.mbarrier.arrive reaches only the calling CTA's barriers: a
// track_async_op arrival to a peer CTA is rejected.
// RUN: not txl-opt %s 2>&1 | FileCheck %s

// CHECK: error: 'txlgpu.mbar_arrive' op track_async_op arrives on a barrier of the calling CTA; it cannot take a cta
func.func @remote_tracked(%b: !txlgpu.memdesc<1xi64, #txlgpu.barrier>, %cta: i32) {
  txlgpu.mbar_arrive %b cta %cta track_async_op : !txlgpu.memdesc<1xi64, #txlgpu.barrier>
  return
}
