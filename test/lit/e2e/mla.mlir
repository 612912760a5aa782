// The MLA kernels (python/txl/ops/mla.py) compile for sm_90a and
// ptxas accepts them. The decode kernel's schedule (bf16, two stages):
// - no spills (Q's wgmma descriptors are made in the loop, RELOAD_Q);
// - the producer gives registers back (setmaxnreg.dec 24), the consumers
//   take 240; 72 KB of shared memory per K page, two pages, the query tile
//   and P: 231424 bytes, and no layout conversion through shared scratch
//   bigger than a row vector (the output halves are stored straight from
//   the wgmma accumulators: txl.relayout before tl.store);
// - each page and the query tile arrive as nine TMA boxes (one per
//   128-byte column chunk);
// - warpgroup 1: S = Q K^T as 36 m64n64k16 wgmmas (576 deep), then it
//   waits for P to be free (named barrier 9), publishes P and alpha
//   (barrier 8), and O[:, :256] += P V with P from registers (register-A
//   m64n256k16); warpgroup 2 waits on 8 and runs its m64n256k16 with P
//   from shared memory, then arrives on 9.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %txl_src/python/txl/ops/mla.py --kernel-name mla_decode --signature "tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, *bf16:16, *fp32:16, *fp32:16, *fp32:16, *i32:16, *i32:16, i32, *i32:16, *i32:16, i32, i32, i32, fp32, 2, 0" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t/d/mla_decode.ptx
// RUN: FileCheck %s --check-prefix=GIR < %t/d/mla_decode.txlgir
// OUT: compiled mla_decode for sm_90a {{.*}}(cubin by ptxas, {{2[0-9][0-9][0-9][0-9][0-9]}} B shared, {{[0-9]+}} registers, 0 B spilled)
// CHECK: .maxntid 384, 1, 1
// CHECK-DAG: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK-DAG: setmaxnreg.dec.sync.aligned.u32 24;
// CHECK-DAG: barrier.sync 9, 256;
// CHECK-DAG: barrier.arrive 8, 256;
// CHECK-DAG: barrier.sync 8, 256;
// CHECK-DAG: barrier.arrive 9, 256;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 1;
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// The ragged last page: each consumer zeroes its V half's rows past
// seqlen in place (16-byte shared loads and stores, no data between
// threads), fences them for wgmma and syncs on its own named barrier.
// CHECK-DAG: barrier.sync 10, 128;
// CHECK-DAG: barrier.sync 11, 128;
// CHECK-DAG: st.shared.v4.b32
// RUN: grep -c wgmma.mma_async.sync.aligned.m64n64k16 %t/d/mla_decode.ptx | FileCheck %s --check-prefix=S576
// S576: 36
// GIR-NOT: convert_layout {{.*}}shared_offset{{.*}}tensor<64x{{[0-9]}}
// The softmax stays in S's own accumulator layout (m64n64): a 64x64
// tensor in O's m64n256 layout would be held four times over (4x the
// exp2s); P is written with four stmatrix.x4 (64x64 bf16, 128 threads).
// RUN: FileCheck %s --check-prefix=SOFTMAX < %t/d/mla_decode.txlgir
// RUN: grep -c stmatrix %t/d/mla_decode.ptx | FileCheck %s --check-prefix=STMATRIX
// SOFTMAX: txl.extern_elementwise "__nv_exp2f"({{.*}}) : (tensor<64x64xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
// SOFTMAX-NOT: tensor<64x64x{{[a-z0-9]+}}, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>>
// STMATRIX: 4
//
// PREFETCH = 4 (k_ptr: the cache as contiguous rows): the producer asks L2
// for whole pages ahead of their loads (64 rows x 576 bf16 = 73728
// contiguous bytes) with txl.prefetch_l2, NVVM's cp.async.bulk.prefetch
// (no inline PTX), issued by the producer warpgroup's first thread only;
// the same shared memory, no spills.
// RUN: txlc %txl_src/python/txl/ops/mla.py --kernel-name mla_decode --signature "tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, *bf16:16, *fp32:16, *fp32:16, *fp32:16, *i32:16, *i32:16, i32, *i32:16, *i32:16, i32, i32, i32, fp32, 2, 0, 1, 64, 0, 0, 1, 4, *bf16:16" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/p | FileCheck %s --check-prefix=PF-OUT
// RUN: FileCheck %s --check-prefix=PF < %t/p/mla_decode.ptx
// PF-OUT: compiled mla_decode for sm_90a {{.*}}(cubin by ptxas, 231424 B shared, {{[0-9]+}} registers, 0 B spilled)
// PF-NOT: @p cp.async.bulk.prefetch
// PF: mov.b32 %r[[BYTES:[0-9]+]], 73728;
// PF-NEXT: .loc
// PF-NEXT: cp.async.bulk.prefetch.L2.global [%rd{{[0-9]+}}], %r[[BYTES]];
// PF-NOT: @p cp.async.bulk.prefetch
//
// fp16, causal: the same shared memory (the causal limit lives in S's
// row layout, no mask moves through shared memory).
// RUN: txlc %txl_src/python/txl/ops/mla.py --kernel-name mla_decode --signature "tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 64]>, *fp16:16, *fp32:16, *fp32:16, *fp32:16, *i32:16, *i32:16, i32, *i32:16, *i32:16, i32, i32, i32, fp32, 2, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/c | FileCheck %s --check-prefix=CAUSAL
// CAUSAL: compiled mla_decode for sm_90a {{.*}}(cubin by ptxas, {{2[0-9][0-9][0-9][0-9][0-9]}} B shared
//
// The combine kernel.
// RUN: txlc %txl_src/python/txl/ops/mla.py --kernel-name mla_combine --signature "*fp32:16, *fp32:16, *i32:16, *bf16:16, *fp32:16, i32, i32, i32, 512, 8" --num-warps 4 --target sm_90a --out-dir %t/m | FileCheck %s --check-prefix=COMBINE
// COMBINE: compiled mla_combine for sm_90a
//
// The sparse prefill kernel, its default schedule (32-row steps, four
// stages, rows gathered by cp.async): 16-byte cp.async copies (18 per
// producer thread a step: 32 rows x 1152 bytes / 128 threads), waited with
// cp.async.wait_group 3 (one step behind: a step is three groups) and 0
// (a token's last step), each fenced for wgmma (fence.proxy.async); S as
// 36 m64n32k16 wgmmas; the producer keeps 40 registers for the copies'
// addresses.
// RUN: txlc %txl_src/python/txl/ops/mla.py --kernel-name mla_sparse_fwd --signature "tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[1, 256]>, tensordesc<bf16[1, 64]>, *i32:16, *bf16:16, *fp32:16, *fp32:16, i32, i32, i32, i32:16, fp32, 4, 32, 0, *bf16:16, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s | FileCheck %s --check-prefix=SPARSE-OUT
// RUN: FileCheck %s --check-prefix=SPARSE < %t/s/mla_sparse_fwd.ptx
// RUN: grep -c wgmma.mma_async.sync.aligned.m64n32k16 %t/s/mla_sparse_fwd.ptx | FileCheck %s --check-prefix=S576
// RUN: grep -c "cp.async.cg.shared.global \[" %t/s/mla_sparse_fwd.ptx | FileCheck %s --check-prefix=COPIES
// SPARSE-OUT: compiled mla_sparse_fwd for sm_90a {{.*}}(cubin by ptxas, {{2[0-9][0-9][0-9][0-9][0-9]}} B shared
// SPARSE-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// SPARSE-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// SPARSE-DAG: cp.async.cg.shared.global [{{.*}}], 16, 
// SPARSE-DAG: cp.async.wait_group 3;
// SPARSE-DAG: cp.async.wait_group 0;
// SPARSE-DAG: fence.proxy.async.shared::cta;
// SPARSE-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// COPIES: 18
//
// Two query stages (short top-k lists' schedule): the query tile's three
// TMA loads go to stage t % 2, each stage with its own full/empty
// mbarrier pair (four query barriers, four K barriers), in the same
// shared memory as four K stages with one query stage.
// RUN: txlc %txl_src/python/txl/ops/mla.py --kernel-name mla_sparse_fwd --signature "tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[1, 256]>, tensordesc<bf16[1, 64]>, *i32:16, *bf16:16, *fp32:16, *fp32:16, i32, i32, i32, i32:16, fp32, 2, 32, 0, *bf16:16, 1, 2" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/q2 | FileCheck %s --check-prefix=SPARSE-OUT
// RUN: grep -c "mbarrier.init.shared" %t/q2/mla_sparse_fwd.ptx | FileCheck %s --check-prefix=Q2-BARS
// Q2-BARS: 8
//
// The TMA row-gather variant (whole pages) compiles too.
// RUN: txlc %txl_src/python/txl/ops/mla.py --kernel-name mla_sparse_fwd --signature "tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[1, 256]>, tensordesc<bf16[1, 64]>, *i32:16, *bf16:16, *fp32:16, *fp32:16, i32, i32, i32, i32:16, fp32, 2, 64, 0, none, 0" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/g | FileCheck %s --check-prefix=GATHER
// GATHER: compiled mla_sparse_fwd for sm_90a {{.*}}(cubin by ptxas, {{2[0-9][0-9][0-9][0-9][0-9]}} B shared
//
// The sparse kernel's whole-page schedule (64-token steps, 2 stages,
// cp.async gathers) fits since each warpgroup's part of the scratch area
// is sized by its own role's conversions (231424 B; it used to fit only
// by AllocateSharedMemory's fallback of placing the mbarriers in the
// holes the 1024-byte alignment leaves).
// RUN: txlc %txl_src/python/txl/ops/mla.py --kernel-name mla_sparse_fwd --signature "tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[1, 256]>, tensordesc<bf16[1, 64]>, *i32:16, *bf16:16, *fp32:16, *fp32:16, i32, i32, i32, i32:16, fp32, 2, 64, 0, *bf16:16, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --no-cubin --out-dir %t/page | FileCheck %s --check-prefix=PAGE
// PAGE: compiled mla_sparse_fwd for sm_90a {{.*}}231424 B shared
//
// The pair schedule (mla_sparse_pair, the default): two 64-row blocks a
// step, one per consumer warpgroup. Each consumer computes its block's S
// as 36 m64n64k16 wgmmas (warpgroup 1 issues them at two places: a
// token's first pair, and behind its last P V of the previous pair: 108
// in all); P V as 16 m64n256k16 (local P from registers, the other's from
// shared memory, both consumers). The producer copies every block as four
// cp.async passes a 64-column chunk (72 16-byte copies a thread a pair)
// and hands each of the four parts over with cp.async.mbarrier.arrive
// .noinc (no cp.async.wait_group in the kernel). The consumers exchange
// the running maximum (named barriers 12, 13), P (14, 15) and the row
// sums (11). Registers 232/232/40; the wgmma descriptors stay inside the
// loop (a loop-variant buffer index), so ptxas spills next to nothing
// (a few words per token, under 100 bytes); 231936 bytes of shared
// memory (the query tile, two blocks, P_1, with P_0 in block 0's rope
// rows). The output: TMA stores from the freed K parts (8 boxes of 64
// columns: two halves), each waited for its read before the part is
// freed; or, with TMA_STORE off, 4-byte stores from the accumulators (128
// of them, plus max_logits and the LSE).
// RUN: txlc %txl_src/python/txl/ops/mla.py --kernel-name mla_sparse_pair --signature "tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, *bf16:16, *i32:16, *bf16:16, tensordesc<bf16[64, 256]>, *fp32:16, *fp32:16, i32, i32, i32:16, i32:16, fp32, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/pair | FileCheck %s --check-prefix=PAIR-OUT
// RUN: FileCheck %s --check-prefix=PAIR < %t/pair/mla_sparse_pair.ptx
// RUN: grep -c wgmma.mma_async.sync.aligned.m64n64k16 %t/pair/mla_sparse_pair.ptx | FileCheck %s --check-prefix=PAIR-S
// RUN: grep -c wgmma.mma_async.sync.aligned.m64n256k16 %t/pair/mla_sparse_pair.ptx | FileCheck %s --check-prefix=PAIR-PV
// RUN: grep -c "cp.async.cg.shared.global \[" %t/pair/mla_sparse_pair.ptx | FileCheck %s --check-prefix=COPIES-PAIR
// RUN: grep -c "cp.async.mbarrier.arrive.noinc" %t/pair/mla_sparse_pair.ptx | FileCheck %s --check-prefix=PAIR-ARRIVES
// RUN: grep -c "cp.async.bulk.tensor.2d.global.shared::cta" %t/pair/mla_sparse_pair.ptx | FileCheck %s --check-prefix=PAIR-TMA-STORES
// RUN: not grep "cp.async.wait_group" %t/pair/mla_sparse_pair.ptx
// PAIR-OUT: compiled mla_sparse_pair for sm_90a {{.*}}(cubin by ptxas, 231936 B shared, {{[0-9]+}} registers{{(, [0-9]?[0-9] B spilled)?}})
// PAIR-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PAIR-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// PAIR-DAG: barrier.arrive 12, 256;
// PAIR-DAG: barrier.sync 12, 256;
// PAIR-DAG: barrier.arrive 13, 256;
// PAIR-DAG: barrier.sync 13, 256;
// PAIR-DAG: barrier.arrive 14, 256;
// PAIR-DAG: barrier.sync 14, 256;
// PAIR-DAG: barrier.arrive 15, 256;
// PAIR-DAG: barrier.sync 15, 256;
// PAIR-DAG: barrier.sync 11, 256;
// PAIR-DAG: cp.async.bulk.wait_group.read 0;
// PAIR-S: 108
// PAIR-PV: 16
// COPIES-PAIR: 72
// PAIR-ARRIVES: 4
// PAIR-TMA-STORES: 8
// RUN: txlc %txl_src/python/txl/ops/mla.py --kernel-name mla_sparse_pair --signature "tensordesc<bf16[64, 256]>, tensordesc<bf16[64, 64]>, *bf16:16, *i32:16, *bf16:16, tensordesc<bf16[64, 256]>, *fp32:16, *fp32:16, i32, i32, i32:16, i32:16, fp32, 0" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/pair-regs | FileCheck %s --check-prefix=PAIR-OUT
// RUN: grep -c "st.global.b32" %t/pair-regs/mla_sparse_pair.ptx | FileCheck %s --check-prefix=PAIR-REG-STORES
// RUN: not grep "cp.async.bulk.tensor.2d.global.shared::cta" %t/pair-regs/mla_sparse_pair.ptx
// PAIR-REG-STORES: 130
