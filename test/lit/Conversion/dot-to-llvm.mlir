// tl.dot on tensor cores in the LLVM lowering: txl.dot with an nvmma v2
// accumulator becomes mma.sync (nvvm.mma.sync), and local_alloc +
// warp_group_dot + warp_group_dot_wait become swizzled shared stores and
// wgmma.mma_async on matrix descriptors, retired by an inline-asm wait.
// RUN: txl-opt %s -split-input-file --txl-convert-txlgpu-to-llvm | FileCheck %s

#mma = #txlgpu.nvmma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #txlgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #txlgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// 64x64 += 64x32 * 32x64 in fp16 on 2x2 warps: each warp owns 2x4 tiles of
// 16x8, each needing two m16n8k16 steps along K -> 16 mma.sync per thread.
// Operands are packed two fp16 per register; the accumulator fragment comes
// from the accumulator struct, and the second K step accumulates on the
// first one's result.
// CHECK-LABEL: llvm.func @mma_f16
// CHECK: %[[A0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[A1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[C0:.*]] = llvm.extractvalue %arg2[0]
// CHECK: %[[C1:.*]] = llvm.extractvalue %arg2[1]
// CHECK: %[[C2:.*]] = llvm.extractvalue %arg2[2]
// CHECK: %[[C3:.*]] = llvm.extractvalue %arg2[3]
// CHECK: %[[P0:.*]] = llvm.insertelement %[[A0]], %{{.*}} : vector<2xf16>
// CHECK: %[[P1:.*]] = llvm.insertelement %[[A1]], %[[P0]][%{{.*}} : i32] : vector<2xf16>
// CHECK: %[[M0:.*]] = nvvm.mma.sync A[%[[P1]], %{{.*}}, %{{.*}}, %{{.*}}] {{ *}}B[%{{.*}}, %{{.*}}] {{ *}}C[%[[C0]], %[[C1]], %[[C2]], %[[C3]]] {{ *}}{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[R0:.*]] = llvm.extractvalue %[[M0]][0]
// CHECK: %[[R1:.*]] = llvm.extractvalue %[[M0]][1]
// CHECK: %[[R2:.*]] = llvm.extractvalue %[[M0]][2]
// CHECK: %[[R3:.*]] = llvm.extractvalue %[[M0]][3]
// CHECK: nvvm.mma.sync A[{{.*}}C[%[[R0]], %[[R1]], %[[R2]], %[[R3]]] {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-COUNT-14: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 0 : i32, txlgpu.target = "sm_80", txlgpu.threads_per_warp = 32 : i32} {
  func.func @mma_f16(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %d = txl.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #txlgpu.nvmma<{version = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#a32 = #txlgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#b32 = #txlgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
#a16 = #txlgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b16 = #txlgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// One warp, one 16x8 tile. fp32 operands run as tf32 (k = 8), one element
// per register, in the fragment order a0..a3 = (0,0) (8,0) (0,4) (8,4),
// b0, b1 = (0,0) (4,0), which this layout holds as registers 0..3 / 0..1.
// CHECK-LABEL: llvm.func @mma_tf32
// CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %arg0[0]
// CHECK-DAG: %[[A1:.*]] = llvm.extractvalue %arg0[1]
// CHECK-DAG: %[[A2:.*]] = llvm.extractvalue %arg0[2]
// CHECK-DAG: %[[A3:.*]] = llvm.extractvalue %arg0[3]
// CHECK-DAG: %[[B0:.*]] = llvm.extractvalue %arg1[0]
// CHECK-DAG: %[[B1:.*]] = llvm.extractvalue %arg1[1]
// CHECK-DAG: %[[IA0:.*]] = llvm.bitcast %[[A0]] : f32 to i32
// CHECK-DAG: %[[IA1:.*]] = llvm.bitcast %[[A1]] : f32 to i32
// CHECK-DAG: %[[IA2:.*]] = llvm.bitcast %[[A2]] : f32 to i32
// CHECK-DAG: %[[IA3:.*]] = llvm.bitcast %[[A3]] : f32 to i32
// CHECK-DAG: %[[IB0:.*]] = llvm.bitcast %[[B0]] : f32 to i32
// CHECK-DAG: %[[IB1:.*]] = llvm.bitcast %[[B1]] : f32 to i32
// CHECK: nvvm.mma.sync A[%[[IA0]], %[[IA1]], %[[IA2]], %[[IA3]]] {{ *}}B[%[[IB0]], %[[IB1]]] {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
// bf16: pairs packed into a vector<2xbf16> and passed as i32, k = 16.
// CHECK-LABEL: llvm.func @mma_bf16
// CHECK: %[[V0:.*]] = llvm.insertelement %{{.*}} : vector<2xbf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[V:.*]] = llvm.insertelement %{{.*}}, %[[V0]][%{{.*}} : i32] : vector<2xbf16>
// CHECK: %[[W:.*]] = llvm.bitcast %[[V]] : vector<2xbf16> to i32
// CHECK: nvvm.mma.sync A[%[[W]], {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 1 : i32, txlgpu.shared = 0 : i32, txlgpu.target = "sm_80", txlgpu.threads_per_warp = 32 : i32} {
  func.func @mma_tf32(%a: tensor<16x8xf32, #a32>, %b: tensor<8x8xf32, #b32>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
    %d = txl.dot %a, %b, %c : tensor<16x8xf32, #a32> * tensor<8x8xf32, #b32> -> tensor<16x8xf32, #mma>
    return %d : tensor<16x8xf32, #mma>
  }
  func.func @mma_bf16(%a: tensor<16x16xbf16, #a16>, %b: tensor<16x8xbf16, #b16>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
    %d = txl.dot %a, %b, %c : tensor<16x16xbf16, #a16> * tensor<16x8xbf16, #b16> -> tensor<16x8xf32, #mma>
    return %d : tensor<16x8xf32, #mma>
  }
}

// -----

#a = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [1, 0]}>
#sb = #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [0, 1]}>

// sm_90a, one warpgroup, 64x64 += 64x32 * 32x64 in fp16.
// local_alloc: synchronize, write the tile at its shared_offset inside
// @global_smem (A's rows are K-contiguous in registers: 16-byte stores),
// fence the generic-proxy writes for the async proxy, synchronize again.
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @wgmma_f16
// CHECK: %[[S0:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[ATILE:.*]] = llvm.getelementptr %[[S0]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: nvvm.barrier0
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier0
// CHECK: %[[S1:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[BTILE:.*]] = llvm.getelementptr %[[S1]][5120] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: nvvm.barrier0
// CHECK: llvm.store
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier0
// warp_group_dot: each tile origin's descriptor is built once, (addr &
// 0x3ffff) >> 4 ORed with LBO 1 << 16, SBO (8 rows x 64 B) / 16 = 32 << 32
// and the 64-byte swizzle mode 2 << 62 = 0x8000002000010000; each k16 step
// adds its offset in 16-byte units to it (two steps, K = 32).
// CHECK: %[[ABASE:.*]] = llvm.ptrtoint %[[ATILE]] : !llvm.ptr<3> to i32
// CHECK: %[[BBASE:.*]] = llvm.ptrtoint %[[BTILE]] : !llvm.ptr<3> to i32
// CHECK-DAG: %[[AADDR:.*]] = llvm.add %[[ABASE]], %{{.*}} : i32
// CHECK-DAG: %[[AAND:.*]] = llvm.and %[[AADDR]], %[[MASKA:.*]] : i32
// CHECK-DAG: %[[MASKA]] = llvm.mlir.constant(262143 : i32) : i32
// CHECK-DAG: %[[ASHR:.*]] = llvm.lshr %[[AAND]], %[[FOURA:.*]] : i32
// CHECK-DAG: %[[FOURA]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[AZ:.*]] = llvm.zext %[[ASHR]] : i32 to i64
// CHECK-DAG: %[[ADESC0:.*]] = llvm.or %[[AZ]], %[[ABITS:.*]] : i64
// CHECK-DAG: %[[ABITS]] = llvm.mlir.constant(-9223371899415756800 : i64) : i64
// CHECK-DAG: %[[BADDR:.*]] = llvm.add %[[BBASE]], %{{.*}} : i32
// CHECK-DAG: %[[BAND:.*]] = llvm.and %[[BADDR]], %{{.*}} : i32
// CHECK-DAG: %[[BSHR:.*]] = llvm.lshr %[[BAND]], %{{.*}} : i32
// CHECK-DAG: %[[BZ:.*]] = llvm.zext %[[BSHR]] : i32 to i64
// CHECK-DAG: %[[BDESC0:.*]] = llvm.or %[[BZ]], %[[BBITS:.*]] : i64
// CHECK-DAG: %[[BBITS]] = llvm.mlir.constant(-9223371899415756800 : i64) : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-DAG: %[[ADESC:.*]] = llvm.add %[[ADESC0]], %{{.*}} : i64
// CHECK-DAG: %[[BDESC:.*]] = llvm.add %[[BDESC0]], %{{.*}} : i64
// CHECK: %[[D0:.*]] = nvvm.wgmma.mma_async %[[ADESC]], %[[BDESC]], %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<({{(f32, ){31}f32}})>
// The second step reads both tiles 16 elements (32 bytes = 2 x 16) further
// along K and accumulates on the first.
// CHECK-DAG: llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: llvm.add %[[ADESC0]], %{{.*}} : i64
// CHECK-DAG: llvm.add %[[BDESC0]], %{{.*}} : i64
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[D0]], <m = 64, n = 64, k = 16>
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// warp_group_dot_wait {pendings = 0}: one asm statement that redefines all
// 32 accumulator registers of the thread (outputs tied to inputs), so no
// read of them can move above the wait.
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "{{(=f,){31}=f}},0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"
// CHECK-NOT: wgmma
// CHECK: llvm.return
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 9216 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @wgmma_f16(%x: tensor<64x32xf16, #a>, %y: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %as = txlgpu.local_alloc %x {txlgpu.shared_offset = 1024 : i32} : tensor<64x32xf16, #a> -> !txlgpu.memdesc<64x32xf16, #sa>
    %bs = txlgpu.local_alloc %y {txlgpu.shared_offset = 5120 : i32} : tensor<32x64xf16, #b> -> !txlgpu.memdesc<32x64xf16, #sb>
    %d = txlgpu.warp_group_dot %as, %bs, %c : !txlgpu.memdesc<64x32xf16, #sa> * !txlgpu.memdesc<32x64xf16, #sb> -> tensor<64x64xf32, #acc>
    %w = txlgpu.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<64x64xf32, #acc>
    return %w : tensor<64x64xf32, #acc>
  }
}

// -----

#a = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#b = #txlgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#acc = #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
#sa = #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [1, 0]}>
#sb = #txlgpu.nvmma_shared<{swizzle = 64, elemBits = 16, order = [0, 1]}>

// Two warpgroups splitting N: each issues m64n32k16 on its own half of B.
// Warp-id bit 2 (the warpgroup) selects B's columns 32..63, which start
// 32 rows x 64 bytes = 2048 bytes into the K-major tile.
// CHECK-LABEL: llvm.func @wgmma_two_groups
// CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// CHECK-NEXT: %[[BBASE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// CHECK-DAG: %[[C2048:.*]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-DAG: %[[PART:.*]] = llvm.mul %{{.*}}, %[[C2048]] : i32
// CHECK-DAG: %[[BWG:.*]] = llvm.xor %{{.*}}, %[[PART]] : i32
// CHECK: llvm.add %[[BBASE]], %[[BWG]] : i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 32, k = 16>
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 32, k = 16>
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 8 : i32, txlgpu.shared = 9216 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @wgmma_two_groups(%x: tensor<64x32xf16, #a>, %y: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %as = txlgpu.local_alloc %x {txlgpu.shared_offset = 1024 : i32} : tensor<64x32xf16, #a> -> !txlgpu.memdesc<64x32xf16, #sa>
    %bs = txlgpu.local_alloc %y {txlgpu.shared_offset = 5120 : i32} : tensor<32x64xf16, #b> -> !txlgpu.memdesc<32x64xf16, #sb>
    %d = txlgpu.warp_group_dot %as, %bs, %c : !txlgpu.memdesc<64x32xf16, #sa> * !txlgpu.memdesc<32x64xf16, #sb> -> tensor<64x64xf32, #acc>
    %w = txlgpu.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<64x64xf32, #acc>
    return %w : tensor<64x64xf32, #acc>
  }
}
