// desc.load / desc.store on host tensor descriptors. Each call site gets a
// shared tile of the block (and for a load an mbarrier) allocated at the
// kernel's entry. A load synchronizes the threads (earlier readers of the
// tile are done), the leader arrives with expect_tx and keeps the state
// token, copies, spins on try_wait with that token (no phase to track, so
// a site inside a loop needs no carried parity), and the threads
// synchronize again before reading the tile. A store writes the tile
// (the load site's bytes: the two tiles are never live at once, and a
// barrier with an async-proxy fence precedes the next load into them),
// fences for the async proxy, TMA-stores it, waits until it has been read
// and synchronizes before anyone may write the tile again.
// RUN: txlc %S/../../gpu/txl_kernels_desc.py --kernel-name desc_axpb --signature "tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 64]>, i32, i32, fp32, fp32, 64, 64" --target sm_90a --out-dir %t
// RUN: FileCheck %s < %t/desc_axpb.ptx
// RUN: FileCheck %s --check-prefix=WAIT < %t/desc_axpb.ptx
// RUN: FileCheck %s --check-prefix=META < %t/desc_axpb.json
// CHECK: mbarrier.init.shared.b64 [{{.*}}], 1;
// CHECK: bar.sync 0;
// CHECK: mbarrier.arrive.expect_tx.shared.b64 [[STATE:%rd[0-9]+]], [global_smem], {{%r[0-9]+}};
// CHECK-NEXT: mov.b64
// CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+1024], {{.*}}, [global_smem];
// CHECK: mbarrier.try_wait.shared.b64 {{%p[0-9]+}}, [global_smem], [[STATE]];
// CHECK: bar.sync 0;
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync 0;
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [{{%rd[0-9]+}}, {{{.*}}}], [global_smem+1024];
// CHECK-NEXT: cp.async.bulk.commit_group;
// (The loop's blocks are laid out with the store's wait first.)
// WAIT: cp.async.bulk.wait_group.read 0;
// WAIT-NEXT: bar.sync 0;
// META: "shared_bytes": 9216
// The placement in the metadata: the mbarrier for the whole kernel, the
// load and store sites' tiles (source lines 15 and 17) sharing bytes.
// META: "shared_plan": [
// META: "offset": 0,
// META-NEXT: "op": "txlgpu.mbar_alloc",
// META-NEXT: "whole_kernel": true
// META: "line": 17,
// META-NEXT: "offset": 1024,
// META-NEXT: "op": "txlgpu.smem_alloc",
// META-NEXT: "whole_kernel": false
// META: "line": 15,
// META-NEXT: "offset": 1024,
// META-NEXT: "op": "txlgpu.smem_alloc",
// META-NEXT: "whole_kernel": false
//
// A descriptor matmul (register operands from desc.load, tl.dot) compiles
// through ptxas; wgmma reads the two load sites' tiles in place, and each
// site's copies run in a ring of 3 stages (txlgpu-pipeline-tma-loads): 6
// barriers; iterations 0 and 1 copied before the loop (A one TMA box,
// B's 256-byte rows two), then each site waited on by parity.
// RUN: txlc %S/../../gpu/txl_kernels_desc.py --kernel-name desc_matmul --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, i32, i32, i32, 128, 128, 64" --target sm_90a --out-dir %t
// RUN: grep -c "mbarrier.init.shared.b64" %t/desc_matmul.ptx | FileCheck %s --check-prefix=RINGS
// RINGS: 6
// RUN: FileCheck %s --check-prefix=RING < %t/desc_matmul.ptx
// RING-COUNT-6: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// RING: mbarrier.try_wait.parity.shared::cta.b64
// RING: mbarrier.try_wait.parity.shared::cta.b64
// RING: wgmma.mma_async
