// The fp8-cache MLA decode (python/txl/ops/mla_fp8.py, mla_decode_fp8)
// compiles for sm_90a and ptxas accepts it. Its schedule (bf16 q, the
// cache in FlashMLA's 656-byte format, whole-page steps, three
// dequantized half-page slots):
// - the producer gives registers back (24), the consumers take 240; the
//   72 KB query tile, three 32 KB dequantized slots, two 16 KB raw e4m3
//   buffers, two 1 KB scale and two 8 KB rope slots and the 8 KB P: the
//   whole 232448 bytes, with no layout conversion through shared scratch
//   beyond the LSE store's pointers (which fit where the tiles' 1 KB
//   alignment leaves room);
// - TMA only: the query tile in nine boxes, per page the rope, the scales
//   and each e4m3 half as two 128-byte boxes (fifteen copies in all);
//   expected bytes: the query tile, the first half with the scales
//   (16384 + 1024), the rope (8192), the second half (16384);
// - warpgroup 2 dequantizes: 8-byte e4m3 reads, the bit-level e4m3 ->
//   bf16 (byte permutes, then one bf16x2 multiply by the scale per two
//   values), 16-byte bf16 writes, a proxy fence and its own named barrier
//   12 before a slot is published; five dequantization sites (page 0's
//   two halves and page 1's first before the loop, then the next page's
//   second half and the page after's first half), each 64 multiplies a
//   thread (two [64, 128] scale tiles, 64 values a thread each, two per
//   multiply);
// - warpgroup 1: S = Q K^T as 36 m64n64k16 wgmmas (576 deep) over the
//   two dequantized slots and the page slot's rope, P handed over on
//   barriers 8/9, O[:, :256] += P V with P from registers (register-A
//   m64n256k16); warpgroup 2's m64n256k16 takes P from shared memory.
// - the producer's warp 0 loads query tiles, its warp 1 pages (and asks
//   L2 for the page PREFETCH = 4 ahead: one bulk prefetch of the page's
//   41984 contiguous bytes, four more at an entry's start).
// Signature: q, q rope, e4m3, rope, scale descriptors, the cache's bytes,
// out, lse, oacc, lacc, meta, block table, its stride, seqlens, splits, M,
// h_q, s_q, qk_scale; CAUSAL, CLUSTER.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %txl_src/python/txl/ops/mla_fp8.py --kernel-name mla_decode_fp8 --signature "tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, tensordesc<fp8e4nv[64, 256]>, tensordesc<bf16[64, 64]>, tensordesc<fp32[64, 4]>, *u8:16, *bf16:16, *fp32:16, *fp32:16, *fp32:16, *i32:16, *i32:16, i32, *i32:16, *i32:16, i32, i32, i32, fp32, 0, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t/d/mla_decode_fp8.ptx
// RUN: FileCheck %s --check-prefix=GIR < %t/d/mla_decode_fp8.txlgir
// OUT: compiled mla_decode_fp8 for sm_90a {{.*}}(cubin by ptxas, 232448 B shared, {{[0-9]+}} registers
// CHECK: .maxntid 384, 1, 1
// CHECK-DAG: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK-DAG: setmaxnreg.dec.sync.aligned.u32 24;
// CHECK-DAG: barrier.sync 9, 256;
// CHECK-DAG: barrier.arrive 8, 256;
// CHECK-DAG: barrier.sync 8, 256;
// CHECK-DAG: barrier.arrive 9, 256;
// CHECK-DAG: barrier.sync 12, 128;
// CHECK-DAG: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 73728;
// CHECK-DAG: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 17408;
// CHECK-DAG: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 8192;
// CHECK-DAG: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 16384;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 1;
// CHECK-DAG: ld.shared.v2.b32
// CHECK-DAG: prmt.b32 a, m, 0, 0x1404;
// CHECK-DAG: mul.rn.bf16x2
// CHECK-DAG: st.shared.v4.b32
// CHECK-DAG: fence.proxy.async.shared::cta;
// RUN: grep -c wgmma.mma_async.sync.aligned.m64n64k16 %t/d/mla_decode_fp8.ptx | FileCheck %s --check-prefix=S576
// S576: 36
// RUN: grep -c cp.async.bulk.tensor.2d %t/d/mla_decode_fp8.ptx | FileCheck %s --check-prefix=TMA
// TMA: 15
// RUN: grep -c "cp.async.bulk.prefetch.L2.global \[%rd[0-9]*\], %r[0-9]*;" %t/d/mla_decode_fp8.ptx | FileCheck %s --check-prefix=PREFETCH
// PREFETCH: 5
// The size of each: one whole page (64 tokens x 656 bytes).
// RUN: grep -c "mov.b32 	%r[0-9]*, 41984;" %t/d/mla_decode_fp8.ptx | FileCheck %s --check-prefix=PAGEBYTES
// PAGEBYTES: 5
// RUN: grep -c "mul.rn.bf16x2" %t/d/mla_decode_fp8.ptx | FileCheck %s --check-prefix=MUL
// MUL: 320
// GIR-NOT: convert_layout {{.*}}shared_offset{{.*}}tensor<64x{{[0-9]+}}x
// GIR-NOT: convert_layout {{.*}}shared_offset{{.*}}tensor<64xf32
// GIR-NOT: convert_layout {{.*}}shared_offset{{.*}}tensor<64xbf16
//
// Causal, and clusters of two query tiles sharing each page's load
// (multicast): the same shared memory.
// RUN: txlc %txl_src/python/txl/ops/mla_fp8.py --kernel-name mla_decode_fp8 --signature "tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, tensordesc<fp8e4nv[64, 256]>, tensordesc<bf16[64, 64]>, tensordesc<fp32[64, 4]>, *u8:16, *bf16:16, *fp32:16, *fp32:16, *fp32:16, *i32:16, *i32:16, i32, *i32:16, *i32:16, i32, i32, i32, fp32, 1, 2" --num-warps 4 --num-warpgroups 3 --num-ctas 2 --target sm_90a --out-dir %t/c | FileCheck %s --check-prefix=CLUSTER
// RUN: FileCheck %s --check-prefix=MCAST < %t/c/mla_decode_fp8.ptx
// CLUSTER: compiled mla_decode_fp8 for sm_90a {{.*}}(cubin by ptxas, 232448 B shared
// MCAST: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
