// End-to-end TMA: tensordesc<...> signature entries become 128-byte
// by-value kernel parameters whose address the kernel takes (cvta.param),
// txl.tma_load / tma_store become cp.async.bulk.tensor issued by the
// warpgroup leader, one per 128-byte swizzle span of a tile row, at
// coordinates {col, row}; stores commit a bulk group and tma_store_wait
// waits for its reads. The metadata records per descriptor the block,
// the box the host must encode (one span wide) and the swizzle.
// RUN: rm -rf %t && mkdir -p %t
//
// fp16 64x128 tiles: 256-byte rows, so two 64-column boxes 8 KiB apart.
// RUN: txlc %S/../Inputs/tma.py --kernel-name tma_scale --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[64,128]>, 64, 128" --num-warps 4 --target sm_90a --out-dir %t/scale > /dev/null
// RUN: FileCheck %s --check-prefix=SCALE < %t/scale/tma_scale.ptx
// RUN: FileCheck %s --check-prefix=SCALEJSON < %t/scale/tma_scale.json
// SCALE: .visible .entry tma_scale(
// SCALE-NEXT: .param .align 64 .b8 tma_scale_param_0[128],
// SCALE-NEXT: .param .align 64 .b8 tma_scale_param_1[128]
// SCALE-NEXT: )
// SCALE: mov.b64 %rd[[P0:[0-9]+]], tma_scale_param_0;
// SCALE-NEXT: mov.b64 %rd[[P1:[0-9]+]], tma_scale_param_1;
// SCALE-DAG: cvta.param.u64 %rd[[A:[0-9]+]], %rd[[P0]];
// SCALE-DAG: cvta.param.u64 %rd[[C:[0-9]+]], %rd[[P1]];
// SCALE-DAG: mov.u32 %r[[PIDM:[0-9]+]], %ctaid.x;
// SCALE-DAG: mov.u32 %r[[PIDN:[0-9]+]], %ctaid.y;
// SCALE-DAG: shl.b32 %r[[ROW:[0-9]+]], %r[[PIDM]], 6;
// SCALE-DAG: shl.b32 %r[[COL:[0-9]+]], %r[[PIDN]], 7;
// SCALE-DAG: or.b32 %r[[COL1:[0-9]+]], %r[[COL]], 64;
// One thread (tid 0: the only warpgroup's leader) arms the barrier for the
// whole tile and issues both boxes.
// SCALE-DAG: mov.u32 %r[[TID:[0-9]+]], %tid.x;
// SCALE-DAG: setp.ne.b32 %p[[NOTLEAD:[0-9]+]], %r[[TID]], 0;
// SCALE-DAG: setp.eq.b32 %p[[LEAD:[0-9]+]], %r[[TID]], 0;
// SCALE-DAG: @%p[[LEAD]] mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 16384;
// SCALE: @%p[[NOTLEAD]] bra [[SKIPLOAD:\$L__BB[0-9_]+]];
// SCALE-NOT: {{^\$L__BB}}
// SCALE: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+1024], [%rd[[A]], {%r[[COL]], %r[[ROW]]}], [global_smem];
// SCALE-NEXT: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+9216], [%rd[[A]], {%r[[COL1]], %r[[ROW]]}], [global_smem];
// SCALE-NEXT: [[SKIPLOAD]]:
// SCALE: mbarrier.try_wait.parity.shared::cta.b64
// The threads' writes are made visible to the async proxy before the store.
// SCALE: st.shared.b16
// SCALE: fence.proxy.async.shared::cta;
// SCALE-NEXT: bar.sync 0;
// SCALE: @%p[[NOTLEAD]] bra [[SKIPSTORE:\$L__BB[0-9_]+]];
// SCALE-NOT: {{^\$L__BB}}
// SCALE: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd[[C]], {%r[[COL]], %r[[ROW]]}], [global_smem+1024];
// SCALE-NEXT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd[[C]], {%r[[COL1]], %r[[ROW]]}], [global_smem+9216];
// SCALE-NEXT: cp.async.bulk.commit_group;
// SCALE-NEXT: [[SKIPSTORE]]:
// SCALE-NOT: cp.async.bulk.tensor
// SCALE: cp.async.bulk.wait_group.read 0;
// SCALE-NOT: cp.async.bulk
// SCALE: ret;
//
// SCALEJSON: "params": [
// SCALEJSON-NEXT: {
// SCALEJSON-NEXT: "block": [
// SCALEJSON-NEXT: 64,
// SCALEJSON-NEXT: 128
// SCALEJSON-NEXT: ],
// SCALEJSON-NEXT: "box": [
// SCALEJSON-NEXT: 64,
// SCALEJSON-NEXT: 64
// SCALEJSON-NEXT: ],
// SCALEJSON-NEXT: "dtype": "fp16",
// SCALEJSON-NEXT: "name": "a_desc",
// SCALEJSON-NEXT: "size": 128,
// SCALEJSON-NEXT: "swizzle": 128,
// SCALEJSON-NEXT: "type": "tensordesc"
// SCALEJSON-NEXT: },
// SCALEJSON-NEXT: {
// SCALEJSON-NEXT: "block": [
// SCALEJSON-NEXT: 64,
// SCALEJSON-NEXT: 128
// SCALEJSON-NEXT: ],
// SCALEJSON-NEXT: "box": [
// SCALEJSON-NEXT: 64,
// SCALEJSON-NEXT: 64
// SCALEJSON-NEXT: ],
// SCALEJSON-NEXT: "dtype": "fp16",
// SCALEJSON-NEXT: "name": "c_desc",
// SCALEJSON-NEXT: "size": 128,
// SCALEJSON-NEXT: "swizzle": 128,
// SCALEJSON-NEXT: "type": "tensordesc"
// SCALEJSON-NEXT: }
// SCALEJSON-NEXT: ],
//
// The same kernel with 32-column fp16 tiles: 64-byte rows, so a 64-byte
// swizzle, the whole block as the box, one copy each way.
// RUN: txlc %S/../Inputs/tma.py --kernel-name tma_scale --signature "tensordesc<fp16[64, 32]>, tensordesc<fp16[64, 32]>, 64, 32" --num-warps 4 --target sm_90a --out-dir %t/narrow > /dev/null
// RUN: FileCheck %s --check-prefix=NARROW < %t/narrow/tma_scale.ptx
// RUN: FileCheck %s --check-prefix=NARROWJSON < %t/narrow/tma_scale.json
// NARROW: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 4096;
// NARROW: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+1024], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [global_smem];
// NARROW-NOT: cp.async.bulk.tensor.2d.shared
// NARROW: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [global_smem+1024];
// NARROW-NEXT: cp.async.bulk.commit_group;
// NARROWJSON: "box": [
// NARROWJSON-NEXT: 64,
// NARROWJSON-NEXT: 32
// NARROWJSON-NEXT: ],
// NARROWJSON-NEXT: "dtype": "fp16",
// NARROWJSON: "swizzle": 64,
//
// Two warpgroups, warpgroup 1 streams fp32 64x64 tiles (256-byte rows: two
// 32-column boxes 8 KiB apart) through a two-stage ring: the leader is
// thread 0 of warpgroup 1 (tid % 128 == 0), the stage base is dynamic
// (16 KiB per stage), the barrier is the stage's, and a stage is reused
// only after at most one store group is still reading.
// RUN: txlc %S/../Inputs/tma.py --kernel-name tma_stream --signature "tensordesc<fp32[64, 64]>, tensordesc<fp32[64, 64]>, i32, 64, 64" --num-warps 4 --num-warpgroups 2 --target sm_90a --out-dir %t/stream > /dev/null
// RUN: FileCheck %s --check-prefix=STREAM < %t/stream/tma_stream.ptx
// RUN: FileCheck %s --check-prefix=STREAMJSON < %t/stream/tma_stream.json
// STREAM: .param .align 64 .b8 tma_stream_param_0[128],
// STREAM-NEXT: .param .align 64 .b8 tma_stream_param_1[128],
// STREAM-NEXT: .param .u32 tma_stream_param_2
// STREAM: .maxntid 256, 1, 1
// STREAM: mov.u32 %r[[TID:[0-9]+]], %tid.x;
// STREAM: and.b32 %r[[LANE:[0-9]+]], %r[[TID]], 127;
// STREAM-DAG: setp.ne.b32 %p[[NOTLEAD:[0-9]+]], %r[[LANE]], 0;
// STREAM-DAG: setp.eq.b32 %p[[LEAD:[0-9]+]], %r[[LANE]], 0;
// STREAM: mul.wide.u32 %rd{{[0-9]+}}, %r{{[0-9]+}}, 16384;
// STREAM-NEXT: add.s64 %rd[[STAGE:[0-9]+]],
// STREAM-NEXT: add.s64 %rd[[BOX0:[0-9]+]], %rd[[STAGE]], 1024;
// STREAM: cp.async.bulk.wait_group.read 1;
// STREAM: @%p[[LEAD]] mbarrier.arrive.expect_tx.shared.b64 _, [%r[[BAR32:[0-9]+]]], 16384;
// STREAM: add.s64 %rd[[BOX1:[0-9]+]], %rd[[STAGE]], 9216;
// STREAM: @%p[[NOTLEAD]] bra
// STREAM: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%rd[[BOX0]]], [%rd[[X:[0-9]+]], {%r[[COL:[0-9]+]], %r[[ROW:[0-9]+]]}], [%rd[[BAR:[0-9]+]]];
// STREAM-NEXT: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%rd[[BOX1]]], [%rd[[X]], {%r[[COL1:[0-9]+]], %r[[ROW]]}], [%rd[[BAR]]];
// STREAM: mbarrier.try_wait.parity.shared::cta.b64 p, [%r[[BAR32]]],
// STREAM: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd[[Y:[0-9]+]], {%r[[COL]], %r[[ROW]]}], [%rd[[BOX0]]];
// STREAM-NEXT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd[[Y]], {%r[[COL1]], %r[[ROW]]}], [%rd[[BOX1]]];
// STREAM-NEXT: cp.async.bulk.commit_group;
// STREAM: cp.async.bulk.wait_group.read 0;
// STREAMJSON: "box": [
// STREAMJSON-NEXT: 64,
// STREAMJSON-NEXT: 32
// STREAMJSON-NEXT: ],
// STREAMJSON-NEXT: "dtype": "fp32",
// STREAMJSON-NEXT: "name": "x_desc",
// STREAMJSON-NEXT: "size": 128,
// STREAMJSON-NEXT: "swizzle": 128,
// STREAMJSON-NEXT: "type": "tensordesc"
// STREAMJSON: "name": "n_tiles",
// STREAMJSON-NEXT: "size": 4,
// STREAMJSON-NEXT: "type": "i32"
//
// Signature entries of rank 1 to 5, with and without spaces, each a
// 128-byte parameter; a descriptor no TMA op uses still gets a box and
// swizzle (what its block alone allows) so the host can encode it; a 1-D
// block is one unswizzled box, as the 1-D copies use it.
// RUN: txlc %S/../Inputs/tma.py --kernel-name tma_ranks --signature "tensordesc<fp32[256]>,tensordesc< bf16 [ 16 , 128 ] >, tensordesc<u8[2, 4, 64]>, tensordesc<fp8e4nv[1, 2, 8, 256]>, tensordesc<i64[1,1,1,1,8]>, i32" --target sm_90a --no-cubin --out-dir %t/ranks > /dev/null
// RUN: FileCheck %s --check-prefix=RANKS < %t/ranks/tma_ranks.txlgir
// RUN: FileCheck %s --check-prefix=RANKSPTX < %t/ranks/tma_ranks.ptx
// RANKS: func.func @tma_ranks(
// RANKS-SAME: !txlgpu.tensordesc<256xf32> {txlgpu.tma_box = array<i64: 256>, txlgpu.tma_swizzle = 0 : i32}
// RANKS-SAME: !txlgpu.tensordesc<16x128xbf16> {txlgpu.tma_box = array<i64: 16, 64>, txlgpu.tma_swizzle = 128 : i32}
// RANKS-SAME: !txlgpu.tensordesc<2x4x64xi8> {txlgpu.tma_box = array<i64: 2, 4, 64>, txlgpu.tma_swizzle = 64 : i32}
// RANKS-SAME: !txlgpu.tensordesc<1x2x8x256xf8E4M3FN> {txlgpu.tma_box = array<i64: 1, 1, 8, 128>, txlgpu.tma_swizzle = 128 : i32}
// RANKS-SAME: !txlgpu.tensordesc<1x1x1x1x8xi64> {txlgpu.tma_box = array<i64: 1, 1, 1, 1, 8>, txlgpu.tma_swizzle = 64 : i32}
// RANKS-SAME: %{{[^:]*}}: i32)
// RANKSPTX-COUNT-5: .param .align 64 .b8 tma_ranks_param_{{[0-4]}}[128],
// RANKSPTX-NEXT: .param .u32 tma_ranks_param_5
//
// A malformed entry is a usage error naming the entry, not a crash.
// RUN: not txlc %S/../Inputs/tma.py --kernel-name tma_ranks --signature "tensordesc<fp16[64, 128]>, tensordesc<i1[64]>, 1, 2, 3, i32" --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=BADTYPE
// BADTYPE: txlc: error: bad --signature: signature entry 2 ('tensordesc<i1[64]>'): unknown tensor descriptor element type 'i1'
// RUN: not txlc %S/../Inputs/tma.py --kernel-name tma_ranks --signature "tensordesc<fp16[1, 2, 3, 4, 5, 6]>, 1, 2, 3, 4, i32" --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=RANK6
// RANK6: txlc: error: bad --signature: signature entry 1 ('tensordesc<fp16[1, 2, 3, 4, 5, 6]>'): a tensor descriptor has 1 to 5 dimensions
//
// An expect covering the loads of a runtime loop compiles.
// RUN: txlc %S/../Inputs/tma.py --kernel-name tma_loop_expect --signature "tensordesc<fp16[64, 64]>, 64, 64" --num-warps 4 --target sm_90a --out-dir %t/loop | FileCheck %s --check-prefix=LOOP
// LOOP: compiled tma_loop_expect for sm_90a
