// txl.tma_gather: dst row i <- global row row_offsets[i]. On sm_90a each
// row is one 2-D TMA copy of a box one row high (per 128-byte column
// chunk), issued by the thread holding that row's offset (the first of its
// replicas: threads 64..127 of a 64-row tensor skip), into the row's
// unswizzled address in the tile; TMA swizzles by address, so the rows land
// where a whole-tile load puts them. The descriptor's block is [1, W]; its
// box and swizzle come from the tile (metadata). ptxas accepts the result.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_gather.py --kernel-name gather_rows --signature "tensordesc<fp16[1, 64]>, *i32:16, *fp16:16, i32, 64, 64, tl.float16" --target sm_90a --out-dir %t/r > /dev/null
// RUN: FileCheck %s --check-prefix=GIR < %t/r/gather_rows.txlgir
// RUN: FileCheck %s --check-prefix=PTX < %t/r/gather_rows.ptx
// RUN: FileCheck %s --check-prefix=META < %t/r/gather_rows.json
// RUN: test -s %t/r/gather_rows.cubin
// GIR: txlgpu.tma_gather %arg0[%{{[0-9]+}}, %arg3] -> %{{[0-9]+}}, %{{[0-9]+}} : <1x64xf16>, tensor<64xi32, #txlgpu.blocked<{{.*}}>> -> <64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>, <1xi64, #txlgpu.barrier>
// PTX: mov.u32 %r[[TID:[0-9]+]], %tid.x;
// PTX: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 8192;
// PTX: setp.gt.u32 %p[[SKIP:[0-9]+]], %r[[TID]], 63;
// PTX-NEXT: @%p[[SKIP]] bra
// PTX: ld.global.b32 %r[[ROW:[0-9]+]],
// PTX: mul.wide.u32 %rd[[OFF:[0-9]+]], %r[[TID]], 128;
// PTX: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r[[ROW]]}], [global_smem];
// PTX-NOT: cp.async.bulk.tensor
// PTX: mbarrier.try_wait.parity.shared::cta.b64
// META: "block": [
// META-NEXT: 1,
// META-NEXT: 64
// META-NEXT: ],
// META-NEXT: "box": [
// META-NEXT: 1,
// META-NEXT: 64
// META-NEXT: ],
// META: "swizzle": 128,
//
// 256-byte rows: two copies per row, chunk 1 at 32 rows x 128 bytes on.
// RUN: txlc %S/../../gpu/txl_kernels_gather.py --kernel-name gather_rows --signature "tensordesc<fp16[1, 128]>, *i32:16, *fp16:16, i32, 32, 128, tl.float16" --target sm_90a --out-dir %t/w > /dev/null
// RUN: FileCheck %s --check-prefix=WIDE < %t/w/gather_rows.ptx
// WIDE: add.s32 %r[[COL1:[0-9]+]], %r[[COL0:[0-9]+]], 64;
// WIDE: add.s64 %rd[[D0:[0-9]+]], %rd[[ROWAT:[0-9]+]], 1024;
// WIDE-NEXT: add.s64 %rd[[D1:[0-9]+]], %rd[[ROWAT]], 5120;
// WIDE: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%rd[[D0]]], [%rd{{[0-9]+}}, {%r[[COL0]], %r[[ROW:[0-9]+]]}], [global_smem];
// WIDE-NEXT: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%rd[[D1]]], [%rd{{[0-9]+}}, {%r[[COL1]], %r[[ROW]]}], [global_smem];
//
// A gather feeding wgmma (the tile's swizzle is the descriptor's).
// RUN: txlc %S/../../gpu/txl_kernels_gather.py --kernel-name gather_dot --signature "tensordesc<fp16[1, 64]>, *i32:16, *fp16:16, *fp32:16, 64, 64, 64" --target sm_90a --out-dir %t/dot > /dev/null
// RUN: FileCheck %s --check-prefix=DOT < %t/dot/gather_dot.ptx
// RUN: test -s %t/dot/gather_dot.cubin
// DOT: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// DOT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
//
// sm_100a compiles the same per-row form (gather4 is not used yet).
// RUN: txlc %S/../../gpu/txl_kernels_gather.py --kernel-name gather_rows --signature "tensordesc<fp16[1, 64]>, *i32:16, *fp16:16, i32, 64, 64, tl.float16" --target sm_100a --out-dir %t/b > /dev/null
// RUN: FileCheck %s --check-prefix=SM100 < %t/b/gather_rows.ptx
// RUN: test -s %t/b/gather_rows.cubin
// SM100: .target sm_100a
// SM100: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
//
// RUN: not txlc %S/../Inputs/tma_gather_errors.py --kernel-name narrow --signature "tensordesc<fp16[1, 32]>, *i32:16" --target sm_90a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=NARROW
// NARROW: tma_gather_errors.py:14:5: error: txl.tma_gather: on sm_90a every row is one TMA copy, whose shared destination must be 128-byte aligned, so rows must be at least 128 bytes; shared buffer <[32, 32], fp16> has rows of 64 bytes
// RUN: not txlc %S/../Inputs/tma_gather_errors.py --kernel-name narrow --signature "tensordesc<fp16[1, 32]>, *i32:16" --target sm_80 --out-dir %t/bad80 2>&1 | FileCheck %s --check-prefix=SM80
// SM80: tma_gather_errors.py:11:26: error: txl.mbar_alloc needs sm_90 or later, but the target is sm_80
