// tcgen05_mma in the LLVM lowering. One thread issues: the lane elect.sync
// picks in warp `leaderWarp` (the CTA-wide warp id, read from lane 0),
// and-ed with the op's predicate, guards a branch holding
// fence::after_thread_sync, the MMAs and the commits. K = 64 fp16 is four
// K = 16 instructions whose A/B descriptors step by 32 bytes (+2 in the
// address field); the first takes useD, the others accumulate. The
// descriptors carry the 128-byte swizzle (2 << 61), SBO = 1024 bytes (64 at
// bit 32), LBO = 1 (bit 16) and the sm_100 version (bit 46): 0x4000404000010000.
// The instruction descriptor 0x8200010 = f32 D (1 << 4), f16 A/B, K-major,
// N = 128 (16 << 17), M = 128 (8 << 24). A in tensor memory steps by
// 8 columns (16 fp16 elements, two to a column). Each barrier gets one
// commit. An N = 512 tile is two N = 256 chunks at columns 0 and 256.
// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm | FileCheck %s

#tm = #txlgpu.tensor_memory
#sw = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#swB = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [0, 1]}>
#bar = #txlgpu.barrier
module attributes {txlgpu.num_warpgroups = 2 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 0 : i32, txlgpu.target = "sm_100a", txlgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @smem_a(
  // CHECK: %[[W:.*]] = nvvm.shfl.sync idx
  // CHECK: llvm.icmp "eq" %[[W]], %{{.*}} : i32
  // CHECK: %[[E:.*]] = nvvm.elect.sync -> i1
  // CHECK: llvm.and
  // CHECK: %[[P:.*]] = llvm.and
  // CHECK: llvm.mlir.constant(136314896 : i32)
  // CHECK: llvm.cond_br %[[P]]
  // CHECK: nvvm.tcgen05.fence <after>
  // CHECK-NEXT: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg3 {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
  // CHECK-COUNT-3: nvvm.tcgen05.mma
  // CHECK-NOT: nvvm.tcgen05.mma
  // CHECK: nvvm.tcgen05.commit %arg5 : !llvm.ptr<3>
  // CHECK-NEXT: nvvm.tcgen05.commit %arg6 : !llvm.ptr<3>
  // CHECK-NEXT: llvm.br
  func.func @smem_a(%a: !txlgpu.memdesc<128x64xf16, #sw>, %b: !txlgpu.memdesc<64x128xf16, #swB>,
                    %d: !txlgpu.memdesc<128x128xf32, #tm>, %use: i1, %p: i1,
                    %bar0: !txlgpu.memdesc<1xi64, #bar>, %bar1: !txlgpu.memdesc<1xi64, #bar>) attributes {txl.kernel} {
    txlgpu.tcgen05_mma %a, %b, %d, %use, %p commit %bar0, %bar1 {leaderWarp = 5 : i32} : !txlgpu.memdesc<128x64xf16, #sw> * !txlgpu.memdesc<64x128xf16, #swB> -> !txlgpu.memdesc<128x128xf32, #tm>, !txlgpu.memdesc<1xi64, #bar>, !txlgpu.memdesc<1xi64, #bar>
    return
  }

  // CHECK-LABEL: llvm.func @tmem_a_wide(
  // CHECK: llvm.mlir.constant(138412048 : i32)
  // CHECK: nvvm.tcgen05.fence <after>
  // A from tensor memory: columns 0, 8, 16, 24 of A for each 256-wide chunk.
  // CHECK: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{.*}} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
  // CHECK: llvm.mlir.constant(8 : i32)
  // CHECK-COUNT-2: nvvm.tcgen05.mma
  // CHECK: llvm.mlir.constant(256 : i32)
  // CHECK: llvm.mlir.constant(2048 : i64)
  // CHECK-COUNT-4: nvvm.tcgen05.mma
  // CHECK-NOT: nvvm.tcgen05.mma
  // CHECK-NOT: nvvm.tcgen05.commit
  // CHECK: llvm.br
  func.func @tmem_a_wide(%a: !txlgpu.memdesc<128x64xf16, #tm>, %b: !txlgpu.memdesc<64x512xf16, #swB>,
                         %d: !txlgpu.memdesc<128x512xf32, #tm>, %use: i1) attributes {txl.kernel} {
    txlgpu.tcgen05_mma %a, %b, %d, %use {leaderWarp = 0 : i32} : !txlgpu.memdesc<128x64xf16, #tm> * !txlgpu.memdesc<64x512xf16, #swB> -> !txlgpu.memdesc<128x512xf32, #tm>
    return
  }
}
