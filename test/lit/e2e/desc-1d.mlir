// 1-D tensor descriptors: desc.load / desc.store through host descriptors,
// txl.tma_load / tma_store of a 1-D shared buffer, and an in-kernel
// tl.make_tensor_descriptor of rank 1. A 1-D block is one unswizzled box
// (metadata: swizzle 0, box = block); the copies are cp.async.bulk.tensor.1d.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../Inputs/desc_1d.py --kernel-name desc_copy_1d --signature "tensordesc<fp32[64]>, tensordesc<fp32[64]>, 64" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=DESC < %t/desc_copy_1d.ptx
// RUN: FileCheck %s --check-prefix=META < %t/desc_copy_1d.json
// DESC: cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}}]
// DESC: cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}}]
// META: "block": [
// META-NEXT: 64
// META: "box": [
// META-NEXT: 64
// META: "swizzle": 0
// RUN: txlc %S/../Inputs/desc_1d.py --kernel-name tma_copy_1d --signature "tensordesc<fp32[64]>, tensordesc<fp32[64]>, 64" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=TMA < %t/tma_copy_1d.ptx
// TMA: mbarrier.arrive.expect_tx{{.*}}256;
// TMA: cp.async.bulk.tensor.1d.shared::cta.global.tile
// TMA: cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group
// RUN: txlc %S/../Inputs/desc_1d.py --kernel-name made_copy_1d --signature "*fp32:16, *fp32:16, i32, 128" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=MADE < %t/made_copy_1d.ptx
// The map is rank 1 (the field holds rank - 1), one box of 128 elements.
// MADE: tensormap.replace.tile.rank.shared::cta.b1024.b32 [%rd{{[0-9]+}}], 0;
// MADE: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%rd{{[0-9]+}}], 0, %r{{[0-9]+}};
// MADE: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%rd{{[0-9]+}}], 0;
// MADE: cp.async.bulk.tensor.1d.shared::cta.global.tile
// MADE: cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group
