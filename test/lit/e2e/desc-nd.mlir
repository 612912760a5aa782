// Tensor descriptors of rank 3 to 5 (txlgpu::getTMABoxes decides the
// boxes). A block whose rows are one swizzle span is one box over all its
// leading dimensions; rows of two spans (fp32 x 64) are one box per span
// and leading index ([1, 8, 32]: four copies of 1 KB at consecutive
// offsets, one expect_tx of the 4 KB tile); a 1-D block of 2048 elements
// is eight boxes of 256 (TMA's limit). txlc assembles every kernel (the
// test fails if ptxas / nvJitLink reject the PTX).
// RUN: rm -rf %t && mkdir -p %t
//
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name desc_copy_3d --signature "tensordesc<fp32[2, 8, 64]>, tensordesc<fp32[2, 8, 64]>" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=CHUNKED < %t/desc_copy_3d.ptx
// RUN: FileCheck %s --check-prefix=CHUNKED-META < %t/desc_copy_3d.json
// RUN: test -s %t/desc_copy_3d.cubin
// CHUNKED: mov.b32 [[BYTES:%r[0-9]+]], 4096;
// CHUNKED: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [global_smem], [[BYTES]];
// CHUNKED-COUNT-4: cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+{{1024|2048|3072|4096}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}]
// CHUNKED-COUNT-4: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [global_smem+{{1024|2048|3072|4096}}]
// CHUNKED-NOT: cp.async.bulk.tensor
// CHUNKED-META: "box": [
// CHUNKED-META-NEXT: 1,
// CHUNKED-META-NEXT: 8,
// CHUNKED-META-NEXT: 32
// CHUNKED-META: "swizzle": 128
//
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name desc_copy_3d --signature "tensordesc<fp16[2, 16, 64]>, tensordesc<fp16[2, 16, 64]>" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=ONEBOX < %t/desc_copy_3d.ptx
// RUN: FileCheck %s --check-prefix=ONEBOX-META < %t/desc_copy_3d.json
// ONEBOX-COUNT-1: cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// ONEBOX-COUNT-1: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group
// ONEBOX-NOT: cp.async.bulk.tensor
// ONEBOX-META: "box": [
// ONEBOX-META-NEXT: 2,
// ONEBOX-META-NEXT: 16,
// ONEBOX-META-NEXT: 64
//
// Rows of 16 bytes stay unswizzled.
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name desc_copy_3d --signature "tensordesc<fp32[2, 8, 4]>, tensordesc<fp32[2, 8, 4]>" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=NARROW-META < %t/desc_copy_3d.json
// NARROW-META: "box": [
// NARROW-META-NEXT: 2,
// NARROW-META-NEXT: 8,
// NARROW-META-NEXT: 4
// NARROW-META: "swizzle": 0
//
// A rank-5 map built in the kernel: rank field 4 (rank - 1), five box
// dimensions innermost first (64, 8, 2, 2, 2 for a [2, 2, 2, 8, 64] fp16
// block), one 5-D copy each way.
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name made_copy_5d --signature "*fp16:16, *fp16:16, i32, i32, i32, i32, i32, 2, 2, 2, 8, 64" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=MADE5 < %t/made_copy_5d.ptx
// RUN: FileCheck %s --check-prefix=MADE5-LLIR < %t/made_copy_5d.llir
// MADE5: tensormap.replace.tile.rank.shared::cta.b1024.b32 [%rd{{[0-9]+}}], 4;
// MADE5: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%rd{{[0-9]+}}], 4, %r{{[0-9]+}};
// MADE5: tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%rd{{[0-9]+}}], 3, %rd{{[0-9]+}};
// MADE5: cp.async.bulk.tensor.5d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// MADE5: cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group
// MADE5-LLIR: box_dim.shared::cta.b1024.b32 [$0], 0, $1;"{{.*}}, i32 64)
// MADE5-LLIR-NEXT: box_dim.shared::cta.b1024.b32 [$0], 1, $1;"{{.*}}, i32 8)
// MADE5-LLIR-NEXT: box_dim.shared::cta.b1024.b32 [$0], 2, $1;"{{.*}}, i32 2)
//
// txl.tma_load of a 3-D buffer: one box, the expected bytes counted.
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name tma_load_3d --signature "tensordesc<fp16[2, 8, 64]>, *fp16:16, 2, 8, 64" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=TMA3 < %t/tma_load_3d.ptx
// TMA3-COUNT-1: cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// TMA3-NOT: cp.async.bulk.tensor
//
// Triton's test_trans_4d: an int32 [2, 2, 8, 64] block (rows of two spans:
// 8 boxes of [1, 1, 8, 32]) permuted into a 1-D block of 2048 (8 boxes of
// 256).
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name trans_4d --signature "*i32:16, *i32:16, 2, 2, 8, 64, 0, 2, 1, 3" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=TRANS < %t/trans_4d.ptx
// TRANS-COUNT-8: cp.async.bulk.tensor.4d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// TRANS-COUNT-8: cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group
// TRANS-NOT: cp.async.bulk.tensor
