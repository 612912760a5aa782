// Tensor descriptors of rank 3 to 5 (txlgpu::getTMABoxes decides the
// boxes). A block whose rows are one swizzle span is one box over all its
// leading dimensions; rows of two spans (fp32 x 64) are one box per span
// and leading index ([1, 8, 32]: four copies of 1 KB at consecutive
// offsets, one expect_tx of the 4 KB tile); a 1-D block of 2048 elements
// is eight boxes of 256 (TMA's limit). txlc assembles every kernel (the
// test fails if ptxas / nvJitLink reject the PTX).
// RUN: rm -rf %t && mkdir -p %t
//
// Loads and stores of a rank-3 block of two spans: the same four boxes,
// coordinates innermost first ({column, row, leading}: program 2's column,
// program 1's row, program 0's leading index, each box's step added to
// its own coordinate) and the same tile offsets, load and store alike.
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name desc_copy_3d --signature "tensordesc<fp32[2, 8, 64]>, tensordesc<fp32[2, 8, 64]>" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=CHUNKED < %t/desc_copy_3d.ptx
// RUN: FileCheck %s --check-prefix=CHUNKED-META < %t/desc_copy_3d.json
// RUN: test -s %t/desc_copy_3d.cubin
// CHUNKED-DAG: mov.u32 [[I:%r[0-9]+]], %ctaid.x;
// CHUNKED-DAG: mov.u32 [[J:%r[0-9]+]], %ctaid.y;
// CHUNKED-DAG: mov.u32 [[K:%r[0-9]+]], %ctaid.z;
// CHUNKED-DAG: shl.b32 [[LEAD:%r[0-9]+]], [[I]], 1;
// CHUNKED-DAG: shl.b32 [[ROW:%r[0-9]+]], [[J]], 3;
// CHUNKED-DAG: shl.b32 [[COL:%r[0-9]+]], [[K]], 6;
// CHUNKED: mov.b32 [[BYTES:%r[0-9]+]], 4096;
// CHUNKED: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [global_smem], [[BYTES]];
// CHUNKED: cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+1024], [%rd{{[0-9]+}}, {[[COL]], [[ROW]], [[LEAD]]}]
// CHUNKED: or.b32 [[COL1:%r[0-9]+]], [[COL]], 32;
// CHUNKED: cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+2048], [%rd{{[0-9]+}}, {[[COL1]], [[ROW]], [[LEAD]]}]
// CHUNKED: or.b32 [[LEAD1:%r[0-9]+]], [[LEAD]], 1;
// CHUNKED: cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+3072], [%rd{{[0-9]+}}, {[[COL]], [[ROW]], [[LEAD1]]}]
// CHUNKED: cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+4096], [%rd{{[0-9]+}}, {[[COL1]], [[ROW]], [[LEAD1]]}]
// The store: the tile written by the threads, fenced for the async proxy.
// CHUNKED: fence.proxy.async.shared::cta;
// CHUNKED: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {[[COL]], [[ROW]], [[LEAD]]}], [global_smem+1024];
// CHUNKED: or.b32 [[SCOL1:%r[0-9]+]], [[COL]], 32;
// CHUNKED: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {[[SCOL1]], [[ROW]], [[LEAD]]}], [global_smem+2048];
// CHUNKED: or.b32 [[SLEAD1:%r[0-9]+]], [[LEAD]], 1;
// CHUNKED: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {[[COL]], [[ROW]], [[SLEAD1]]}], [global_smem+3072];
// CHUNKED: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {[[SCOL1]], [[ROW]], [[SLEAD1]]}], [global_smem+4096];
// CHUNKED: cp.async.bulk.commit_group;
// CHUNKED: cp.async.bulk.wait_group.read 0;
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
// A rank-5 map built in the kernel: every field written innermost first
// (global_dim ordinal 0 is the last shape entry, n4; global_stride ordinal
// d is the byte stride of dimension d + 1 counted from the inside, so
// ordinal 0 is strides[3] = n4 elements, 2 bytes each; four strides for
// rank 5), then a 5-D load and store with coordinates innermost first
// (program 0's leading index last).
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name made_copy_5d --signature "*fp16:16, *fp16:16, i32, i32, i32, i32, i32, 2, 2, 2, 8, 64" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=MADE5 < %t/made_copy_5d.ptx
// MADE5-DAG: ld.param.b32 [[N4:%r[0-9]+]], [made_copy_5d_param_6];
// MADE5-DAG: ld.param.b32 [[N3:%r[0-9]+]], [made_copy_5d_param_5];
// MADE5-DAG: ld.param.b32 [[N2:%r[0-9]+]], [made_copy_5d_param_4];
// MADE5-DAG: ld.param.b32 [[N1:%r[0-9]+]], [made_copy_5d_param_3];
// MADE5-DAG: ld.param.b32 [[N0:%r[0-9]+]], [made_copy_5d_param_2];
// MADE5-DAG: cvt.s64.s32 [[S3:%rd[0-9]+]], [[N4]];
// MADE5: tensormap.replace.tile.rank.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 4;
// MADE5: mov.b32 [[B64:%r[0-9]+]], 64;
// MADE5: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 0, [[B64]];
// MADE5: mov.b32 [[B8:%r[0-9]+]], 8;
// MADE5: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 1, [[B8]];
// MADE5: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 4, {{%r[0-9]+}};
// MADE5: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 0, [[N4]];
// MADE5: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 1, [[N3]];
// MADE5: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 2, [[N2]];
// MADE5: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 3, [[N1]];
// MADE5: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 4, [[N0]];
// MADE5: shl.b64 [[S3BYTES:%rd[0-9]+]], [[S3]], 1;
// MADE5: tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [{{%rd[0-9]+}}], 0, [[S3BYTES]];
// MADE5: tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [{{%rd[0-9]+}}], 3, {{%rd[0-9]+}};
// MADE5-NOT: tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [{{%rd[0-9]+}}], 4,
// MADE5: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 3;
// MADE5: cp.async.bulk.tensor.5d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+{{[0-9]+}}], [%rd{{[0-9]+}}, {[[Z:%r[0-9]+]], [[Z]], [[Z]], [[Z]], [[LEAD5:%r[0-9]+]]}]
// MADE5: cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {[[SZ:%r[0-9]+]], [[SZ]], [[SZ]], [[SZ]], [[LEAD5]]}]
//
// txl.tma_load of a 3-D buffer: one box, the expected bytes counted.
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name tma_load_3d --signature "tensordesc<fp16[2, 8, 64]>, *fp16:16, 2, 8, 64" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=TMA3 < %t/tma_load_3d.ptx
// TMA3-COUNT-1: cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// TMA3-NOT: cp.async.bulk.tensor
//
// Triton's test_trans_4d: a rank-4 map made in the kernel and loaded as
// one box, the permuted values stored through a 1-D map as eight boxes of
// 256 elements.
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name trans_4d --signature "*i32:16, *i32:16, 2, 2, 8, 64, 0, 2, 1, 3" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=TRANS < %t/trans_4d.ptx
// TRANS: tensormap.replace.tile.rank.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 3;
// TRANS: tensormap.replace.tile.rank.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 0;
// TRANS-COUNT-1: cp.async.bulk.tensor.4d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// TRANS-COUNT-8: cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group
// TRANS-NOT: cp.async.bulk.tensor
