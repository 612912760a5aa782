// A register A operand read from shared memory is loaded in wgmma's A
// fragment layout (RemoveLayoutConversions: no convert_layout through a
// scratch buffer), and small unswizzled buffers start at 128-byte
// boundaries (getTileAlignment): the two 256-byte vectors take 256 bytes
// each (before: a 1024-byte stage each), here packed where the finished Q
// tile was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../Inputs/smem_small_and_rega.py --kernel-name rega_from_smem --signature "*fp16:16, *fp16:16, *fp32:16, i32, *fp32:16" --target sm_90a --out-dir %t
// RUN: FileCheck %s < %t/rega_from_smem.txlgir
// CHECK: {bytes = 256 : i32, line = 14 : i32, offset = 0 : i32, op = "txlgpu.smem_alloc"
// CHECK-SAME: {bytes = 256 : i32, line = 15 : i32, offset = 256 : i32, op = "txlgpu.smem_alloc"
// CHECK: txlgpu.smem_load {{.*}} -> tensor<64x64xf16, #txlgpu.dot_op<{opIdx = 0
// CHECK-NOT: txlgpu.convert_layout {{.*}}dot_op<{opIdx = 0
// CHECK: scf.for
// CHECK: txlgpu.warp_group_dot
