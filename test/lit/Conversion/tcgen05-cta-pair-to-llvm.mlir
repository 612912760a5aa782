// tcgen05 cta_group::2 and cluster launch control in the LLVM lowering
// (a cluster of two CTAs, txlgpu.num_ctas = 2).
//  * A twoCtas tcgen05_mma is issued by the elected lane of warp
//    `leaderWarp` of the even CTA of its pair (%cluster_ctarank equal to
//    itself & ~1); the instruction descriptor says M = 256 (16 << 24) and
//    N = 256 (32 << 17): 0x10400010 = 272629776; the MMAs are cta_2 and
//    the B half [64, 128] is stepped like any B; every commit is cta_2
//    and multicast to the pair, mask 3 << (rank & ~1).
//  * A twoCtas tmem_alloc / tmem_dealloc allocates, relinquishes and frees
//    with cta_2; the free follows a cluster barrier.
//  * clc_try_cancel: the elected lane of warp `leaderWarp` of CTA 0 issues
//    a multicast try_cancel; clc_query reads the 16-byte response, decodes
//    it and yields first CTA id / 2 (a program is a cluster) or -1.
// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm | FileCheck %s

#tm = #txlgpu.tensor_memory
#sw = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#swB = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [0, 1]}>
#bar = #txlgpu.barrier
#flat = #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 32, order = [0]}>
module attributes {txlgpu.num_ctas = 2 : i32, txlgpu.num_warpgroups = 2 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 32 : i32, txlgpu.target = "sm_100a", txlgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @pair_mma(
  // CHECK: %[[E:.*]] = nvvm.elect.sync -> i1
  // CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK: %[[BASE:.*]] = llvm.and %[[RANK]], %{{.*}} : i32
  // CHECK: %[[RANK2:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK: llvm.icmp "eq" %[[RANK2]], %[[BASE]] : i32
  // CHECK: llvm.mlir.constant(272629776 : i32)
  // CHECK: nvvm.tcgen05.fence <after>
  // CHECK-NEXT: nvvm.tcgen05.mma {{.*}} {ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<f16>}
  // CHECK-COUNT-3: nvvm.tcgen05.mma {{.*}}cta_2
  // CHECK-NOT: nvvm.tcgen05.mma
  // CHECK: %[[R:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK: %[[B:.*]] = llvm.and %[[R]], %{{.*}} : i32
  // CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK: %[[M32:.*]] = llvm.shl %[[THREE]], %[[B]] : i32
  // CHECK: %[[M:.*]] = llvm.trunc %[[M32]] : i32 to i16
  // CHECK: nvvm.tcgen05.commit %arg4, multicast_mask = %[[M]] {group = #nvvm.cta_group<cta_2>}
  // CHECK-NEXT: llvm.br
  func.func @pair_mma(%a: !txlgpu.memdesc<128x64xf16, #sw>, %b: !txlgpu.memdesc<64x128xf16, #swB>,
                      %d: !txlgpu.memdesc<128x256xf32, #tm>, %use: i1,
                      %bar: !txlgpu.memdesc<1xi64, #bar>) attributes {txl.kernel} {
    txlgpu.tcgen05_mma %a, %b, %d, %use commit %bar {leaderWarp = 1 : i32, twoCtas} : !txlgpu.memdesc<128x64xf16, #sw> * !txlgpu.memdesc<64x128xf16, #swB> -> !txlgpu.memdesc<128x256xf32, #tm>, !txlgpu.memdesc<1xi64, #bar>
    return
  }

  // CHECK-LABEL: llvm.func @pair_alloc(
  // CHECK: nvvm.tcgen05.alloc %{{.*}}, %{{.*}} {group = #nvvm.cta_group<cta_2>}
  // CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
  // CHECK: nvvm.tcgen05.fence <before>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: nvvm.tcgen05.fence <before>
  // CHECK-NEXT: nvvm.cluster.arrive
  // CHECK-NEXT: nvvm.cluster.wait
  // CHECK-NEXT: nvvm.tcgen05.fence <after>
  // CHECK: nvvm.tcgen05.dealloc %{{.*}}, %{{.*}} {group = #nvvm.cta_group<cta_2>}
  func.func @pair_alloc() attributes {txl.kernel} {
    %acc = txlgpu.tmem_alloc {allocColumns = 512 : i32, column = 0 : i32, twoCtas, txlgpu.shared_offset = 16 : i32} : !txlgpu.memdesc<2x128x256xf32, #tm>
    txlgpu.tmem_dealloc %acc {columns = 512 : i32, twoCtas} : !txlgpu.memdesc<2x128x256xf32, #tm>
    return
  }

  // CHECK-LABEL: llvm.func @clc(
  // CHECK: nvvm.elect.sync
  // CHECK: nvvm.read.ptx.sreg.cluster.ctarank
  // CHECK: llvm.cond_br
  // CHECK: nvvm.clusterlaunchcontrol.try.cancel multicast, %arg0, %arg1
  // CHECK: %[[RESP:.*]] = llvm.load %arg0 {alignment = 16 : i64} : !llvm.ptr<3> -> i128
  // CHECK: %[[OK:.*]] = nvvm.clusterlaunchcontrol.query.cancel query = {{ *}}is_canceled, %[[RESP]] : i1
  // CHECK: %[[X:.*]] = nvvm.clusterlaunchcontrol.query.cancel query = {{ *}}get_first_cta_id_x, %[[RESP]] : i32
  // CHECK: %[[PID:.*]] = llvm.udiv %[[X]], %{{.*}} : i32
  // CHECK: llvm.select %[[OK]], %[[PID]], %{{.*}} : i1, i32
  func.func @clc(%resp: !txlgpu.memdesc<4xi32, #flat>, %bar: !txlgpu.memdesc<1xi64, #bar>) -> i32 attributes {txl.kernel} {
    txlgpu.clc_try_cancel %resp, %bar {leaderWarp = 0 : i32} : !txlgpu.memdesc<4xi32, #flat>, !txlgpu.memdesc<1xi64, #bar>
    %pid = txlgpu.clc_query %resp : !txlgpu.memdesc<4xi32, #flat>
    return %pid : i32
  }
}
