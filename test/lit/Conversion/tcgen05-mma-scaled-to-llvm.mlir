// tcgen05_mma_scaled (tl.dot_scaled on sm_100a) in the LLVM lowering. One
// thread issues (the elect.sync lane of warp `leaderWarp`, as for
// tcgen05_mma): after fence::after_thread_sync it copies each 512-byte chunk
// of both scale tiles with tcgen05.cp.32x128b.warpx4 (chunk c to the
// buffer's columns 4c .. 4c + 3: B's [64, 16] tile of an N = 256 MMA is two
// chunks, the second at +512 bytes and +4 columns), through an unswizzled
// descriptor with SBO = 128 bytes (8 << 32) and the sm_100 version bit
// (1 << 46): 70403103916032 = 0x400800000000. Then one block-scaled MMA per
// 32 bytes of K, the A/B descriptors stepping by 32 bytes (+2), all reading
// the scales at the buffers' first columns: the four K groups of these
// columns are told apart by the data IDs of the instruction descriptor
// (TCGen05.h; test/unit/TCGen05Test.cpp checks the fields against the PTX
// ISA tables). e4m3 (0) x e5m2 (1 << 10), N = 256 (32 << 17), UE8M0
// (1 << 23), M = 128 (1 << 27): 146801664 + ID * ((1 << 29) + (1 << 4)):
// 146801664, 683672592, 1220543520, 1757414448. The first takes useD, the
// others accumulate. Then the commit, and with txlgpu.sync_commit every
// thread arrives and waits; without it (a pipelined loop's MMA) nobody does.
// e2m1 x e2m1 is kind::mxf4 (codes 1 << 7 | 1 << 10): 64 e2m1 per
// instruction, two K groups, so the data IDs are 0 and 2 (halfwords).
// With f8E4M3FN scale tiles (nvfp4) it is kind::mxf4nvf4 with block16:
// four groups of 16 per instruction, a whole column, data IDs 0, UE4M3.
// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm | FileCheck %s

#tm = #txlgpu.tensor_memory
#swA = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 8, order = [1, 0]}>
#swB = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 8, order = [0, 1]}>
#plain = #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 8, order = [1, 0]}>
#bar = #txlgpu.barrier
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 0 : i32, txlgpu.target = "sm_100a", txlgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: llvm.func @mxf8f6f4(
  // CHECK: nvvm.elect.sync -> i1
  // CHECK: llvm.cond_br
  // CHECK: nvvm.tcgen05.fence <after>
  // CHECK: llvm.mlir.constant(70403103916032 : i64)
  // CHECK: nvvm.tcgen05.cp %arg6, %{{.*}} {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
  // CHECK: nvvm.tcgen05.cp %arg7, %{{.*}} {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
  // CHECK: llvm.mlir.constant(512 : i32)
  // CHECK: %[[TB:.*]] = llvm.ptrtoint %arg7
  // CHECK-NEXT: %[[C4:.*]] = llvm.mlir.constant(4 : i32)
  // CHECK-NEXT: %[[B4:.*]] = llvm.add %[[TB]], %[[C4]] : i32
  // CHECK: %[[P4:.*]] = llvm.inttoptr %[[B4]]
  // CHECK: nvvm.tcgen05.cp %[[P4]], %{{.*}} {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
  // CHECK-NOT: nvvm.tcgen05.cp
  // CHECK: %[[I0:.*]] = llvm.mlir.constant(146801664 : i32)
  // CHECK-NEXT: nvvm.tcgen05.mma.block_scale %arg2, %{{.*}}, %{{.*}}, %[[I0]], %arg3, %arg6, %arg7 {blockScale = #nvvm.tcgen05_mma_block_scale<block32>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf8f6f4>}
  // CHECK: %[[I1:.*]] = llvm.mlir.constant(683672592 : i32)
  // CHECK: llvm.mlir.constant(2 : i64)
  // CHECK: nvvm.tcgen05.mma.block_scale %arg2, %{{.*}}, %{{.*}}, %[[I1]], %{{.*}}, %arg6, %arg7
  // CHECK: %[[I2:.*]] = llvm.mlir.constant(1220543520 : i32)
  // CHECK: nvvm.tcgen05.mma.block_scale %arg2, %{{.*}}, %{{.*}}, %[[I2]], %{{.*}}, %arg6, %arg7
  // CHECK: %[[I3:.*]] = llvm.mlir.constant(1757414448 : i32)
  // CHECK: nvvm.tcgen05.mma.block_scale %arg2, %{{.*}}, %{{.*}}, %[[I3]], %{{.*}}, %arg6, %arg7
  // CHECK-NOT: nvvm.tcgen05.mma
  // CHECK: nvvm.tcgen05.commit %arg8 : !llvm.ptr<3>
  // CHECK-NEXT: llvm.br
  // CHECK: nvvm.mbarrier.arrive %arg8
  // CHECK: nvvm.mbarrier.try_wait
  func.func @mxf8f6f4(%a: !txlgpu.memdesc<128x128xf8E4M3FN, #swA>, %b: !txlgpu.memdesc<128x256xf8E5M2, #swB>,
                      %d: !txlgpu.memdesc<128x256xf32, #tm>, %use: i1,
                      %sa: !txlgpu.memdesc<32x16xi8, #plain>, %sb: !txlgpu.memdesc<64x16xi8, #plain>,
                      %ta: !txlgpu.memdesc<128x4xi32, #tm>, %tb: !txlgpu.memdesc<128x8xi32, #tm>,
                      %bar: !txlgpu.memdesc<1xi64, #bar>) attributes {txl.kernel} {
    txlgpu.tcgen05_mma_scaled %a, %b, %d, %use scales %sa, %sb to %ta, %tb commit %bar {aFormat = "e4m3", bFormat = "e5m2", leaderWarp = 0 : i32, txlgpu.sync_commit} : !txlgpu.memdesc<128x128xf8E4M3FN, #swA> * !txlgpu.memdesc<128x256xf8E5M2, #swB> -> !txlgpu.memdesc<128x256xf32, #tm>, !txlgpu.memdesc<32x16xi8, #plain>, !txlgpu.memdesc<64x16xi8, #plain>, !txlgpu.memdesc<128x4xi32, #tm>, !txlgpu.memdesc<128x8xi32, #tm>, !txlgpu.memdesc<1xi64, #bar>
    return
  }

  // e2m1 x e2m1, K = 256 elements (128 bytes): eight K groups, two chunks
  // per scale tile (four copies); four MMAs of K = 64, groups 0, 2 (IDs 0
  // and 2 of columns 0..3), then 4, 6 (IDs 0 and 2 of columns 4..7: the A
  // scale address + 4, B's + 4 for N = 64 padded to 128 rows).
  // 1 << 7 | 1 << 10 | (64 >> 3) << 17 | 1 << 23 | 1 << 27 = 143656064;
  // with IDs 2: + (2 << 29) + (2 << 4) = 1217397920.
  // CHECK-LABEL: llvm.func @mxf4(
  // CHECK-COUNT-4: nvvm.tcgen05.cp
  // CHECK-NOT: nvvm.tcgen05.cp
  // CHECK: %[[J0:.*]] = llvm.mlir.constant(143656064 : i32)
  // CHECK-NEXT: nvvm.tcgen05.mma.block_scale %arg2, %{{.*}}, %{{.*}}, %[[J0]], %arg3, %arg6, %arg7 {{.*}}kind = #nvvm.block_scale_kind<mxf4>}
  // CHECK: %[[J1:.*]] = llvm.mlir.constant(1217397920 : i32)
  // CHECK: nvvm.tcgen05.mma.block_scale %arg2, %{{.*}}, %{{.*}}, %[[J1]], %{{.*}}, %arg6, %arg7 {{.*}}kind = #nvvm.block_scale_kind<mxf4>}
  // CHECK: llvm.ptrtoint %arg6
  // CHECK-NEXT: llvm.mlir.constant(4 : i32)
  // CHECK-NEXT: llvm.add
  // CHECK-NEXT: %[[A4:.*]] = llvm.inttoptr
  // CHECK-NEXT: llvm.ptrtoint %arg7
  // CHECK-NEXT: llvm.mlir.constant(4 : i32)
  // CHECK-NEXT: llvm.add
  // CHECK-NEXT: %[[BB4:.*]] = llvm.inttoptr
  // CHECK-NEXT: %[[J2:.*]] = llvm.mlir.constant(143656064 : i32)
  // CHECK: nvvm.tcgen05.mma.block_scale %arg2, %{{.*}}, %{{.*}}, %[[J2]], %{{.*}}, %[[A4]], %[[BB4]]
  // CHECK: nvvm.tcgen05.mma.block_scale
  // CHECK-NOT: nvvm.tcgen05.mma
  // CHECK: nvvm.tcgen05.commit %arg8
  // CHECK-NOT: nvvm.mbarrier
  // CHECK: llvm.return
  func.func @mxf4(%a: !txlgpu.memdesc<128x128xi8, #swA>, %b: !txlgpu.memdesc<128x64xi8, #swB>,
                  %d: !txlgpu.memdesc<128x64xf32, #tm>, %use: i1,
                  %sa: !txlgpu.memdesc<64x16xi8, #plain>, %sb: !txlgpu.memdesc<64x16xi8, #plain>,
                  %ta: !txlgpu.memdesc<128x8xi32, #tm>, %tb: !txlgpu.memdesc<128x8xi32, #tm>,
                  %bar: !txlgpu.memdesc<1xi64, #bar>) attributes {txl.kernel} {
    txlgpu.tcgen05_mma_scaled %a, %b, %d, %use scales %sa, %sb to %ta, %tb commit %bar {aFormat = "e2m1", bFormat = "e2m1", leaderWarp = 0 : i32} : !txlgpu.memdesc<128x128xi8, #swA> * !txlgpu.memdesc<128x64xi8, #swB> -> !txlgpu.memdesc<128x64xf32, #tm>, !txlgpu.memdesc<64x16xi8, #plain>, !txlgpu.memdesc<64x16xi8, #plain>, !txlgpu.memdesc<128x8xi32, #tm>, !txlgpu.memdesc<128x8xi32, #tm>, !txlgpu.memdesc<1xi64, #bar>
    return
  }

  // nvfp4: K = 128 bytes (256 e2m1) is sixteen groups of 16, four chunks
  // per scale tile (eight copies); four MMAs of K = 64, each reading four
  // groups = one column: A and B at columns 0, 4, 8, 12 (128 rows / 32 =
  // 4 columns per group column). IDs 0 and scale type 0 (UE4M3):
  // 1 << 7 | 1 << 10 | (64 >> 3) << 17 | 1 << 27 = 135267456 for all four.
  // CHECK-LABEL: llvm.func @mxf4nvf4(
  // CHECK-COUNT-8: nvvm.tcgen05.cp
  // CHECK-NOT: nvvm.tcgen05.cp
  // CHECK: %[[K0:.*]] = llvm.mlir.constant(135267456 : i32)
  // CHECK-NEXT: nvvm.tcgen05.mma.block_scale %arg2, %{{.*}}, %{{.*}}, %[[K0]], %arg3, %arg6, %arg7 {blockScale = #nvvm.tcgen05_mma_block_scale<block16>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf4nvf4>}
  // CHECK: llvm.ptrtoint %arg6
  // CHECK-NEXT: llvm.mlir.constant(4 : i32)
  // CHECK: %[[K1:.*]] = llvm.mlir.constant(135267456 : i32)
  // CHECK: nvvm.tcgen05.mma.block_scale %arg2, %{{.*}}, %{{.*}}, %[[K1]], %{{.*}} {blockScale = #nvvm.tcgen05_mma_block_scale<block16>, {{.*}}kind = #nvvm.block_scale_kind<mxf4nvf4>}
  // CHECK: llvm.mlir.constant(8 : i32)
  // CHECK: nvvm.tcgen05.mma.block_scale {{.*}}<mxf4nvf4>
  // CHECK: llvm.mlir.constant(12 : i32)
  // CHECK: nvvm.tcgen05.mma.block_scale {{.*}}<mxf4nvf4>
  // CHECK-NOT: nvvm.tcgen05.mma
  // CHECK: nvvm.tcgen05.commit %arg8
  func.func @mxf4nvf4(%a: !txlgpu.memdesc<128x128xi8, #swA>, %b: !txlgpu.memdesc<128x64xi8, #swB>,
                      %d: !txlgpu.memdesc<128x64xf32, #tm>, %use: i1,
                      %sa: !txlgpu.memdesc<128x16xf8E4M3FN, #plain>, %sb: !txlgpu.memdesc<128x16xf8E4M3FN, #plain>,
                      %ta: !txlgpu.memdesc<128x16xi32, #tm>, %tb: !txlgpu.memdesc<128x16xi32, #tm>,
                      %bar: !txlgpu.memdesc<1xi64, #bar>) attributes {txl.kernel} {
    txlgpu.tcgen05_mma_scaled %a, %b, %d, %use scales %sa, %sb to %ta, %tb commit %bar {aFormat = "e2m1", bFormat = "e2m1", leaderWarp = 0 : i32} : !txlgpu.memdesc<128x128xi8, #swA> * !txlgpu.memdesc<128x64xi8, #swB> -> !txlgpu.memdesc<128x64xf32, #tm>, !txlgpu.memdesc<128x16xf8E4M3FN, #plain>, !txlgpu.memdesc<128x16xf8E4M3FN, #plain>, !txlgpu.memdesc<128x16xi32, #tm>, !txlgpu.memdesc<128x16xi32, #tm>, !txlgpu.memdesc<1xi64, #bar>
    return
  }
}
