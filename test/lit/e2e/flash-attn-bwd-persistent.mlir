// The FlashAttention backward's persistent launch (python/txl/ops/
// flash_attn_bwd.py, PERSISTENT=True): one CTA per SM walks the (key
// block, kv head) tiles. Head dim 128, fp16, causal, lockstep, dQ by TMA:
// - the K/V hand-back barrier (kv_empty) hears all 256 consumer threads;
// - every warpgroup loops over tiles (the CTA count is %nctaid.x);
// - a consumer's tile ends with its dK/dV epilogue (barrier 11 before dK
//   overwrites the K tile), then every thread fences the generic-proxy
//   writes and reads against the next tile's TMA and arrives on kv_empty
//   (in the PTX's block order the epilogue comes before the loop body);
//   the loop body is the grid launch's: barrier 10, dQ's reduce-adds;
// - the producer (24 registers) issues a tile's first Q/dO loads (16640
//   bytes each: 64 rows of 128 halves and 64 fp32 statistics), then waits
//   for kv_empty and loads K and V (65536 bytes), then the rest;
// - shared memory is the grid launch's (the barrier fits its padding);
//   ptxas spills a few scalars outside the per-block loops (the tile
//   loop's state: 36 B at CUDA 13.0), none inside them.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name flash_bwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 128]>, tensordesc<fp32[64, 64]>, *fp16:16, *fp16:16, tensordesc<fp32[64]>, i32, *fp32:16, i32, i32, i32:16, i32, i32, i32, fp32, fp32, i32, i32, fp32, *i32:16, *i32:16, 128, 2, 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 1, i32, i32, i32" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/d128 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t/d128/flash_bwd.ptx
// OUT: compiled flash_bwd for sm_90a {{.*}}(cubin by ptxas, 198656 B shared, {{[0-9]+}} registers, {{[0-9]+}} B spilled)
// CHECK: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 256;
// CHECK: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK: mov.u32 %r{{[0-9]+}}, %nctaid.x;
// CHECK: barrier.sync 11, 256;
// CHECK: fence.proxy.async.shared::cta;
// CHECK: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [global_smem+{{[0-9]+}}];
// CHECK: barrier.sync 10, 256;
// CHECK: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group
// CHECK: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK: barrier.sync 11, 256;
// CHECK: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [global_smem+{{[0-9]+}}];
// CHECK: setmaxnreg.dec.sync.aligned.u32 24;
// CHECK: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 16640;
// CHECK: mbarrier.try_wait.parity
// CHECK: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 65536;
// CHECK: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 16640;

// The grid launch (the default) keeps none of it: no tile loop, no
// kv_empty barrier.
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name flash_bwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 128]>, tensordesc<fp32[64, 64]>, *fp16:16, *fp16:16, tensordesc<fp32[64]>, i32, *fp32:16, i32, i32, i32:16, i32, i32, i32, fp32, fp32, i32, i32, fp32, *i32:16, *i32:16, 128, 2, 1, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/grid > /dev/null
// RUN: FileCheck %s --check-prefix=GRID < %t/grid/flash_bwd.ptx
// GRID-NOT: %nctaid.x
// GRID-NOT: ], 256;
// GRID: setmaxnreg.dec.sync.aligned.u32 24;

// Head dim 64, bf16, causal, PINGPONG (the consumers take turns at dQ,
// the turns running on across tiles by the ring position's parity),
// four stages: the turns' barriers 12 and 13, no lockstep barrier 10;
// the producer's K/V (V, K, no K quarters: 32768 bytes) between its
// Q/dO loads (8448 bytes). Packed variable-length batches (VARLEN) and
// the ==1 specializations of the tile counts compile too.
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name flash_bwd --signature "tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 32]>, tensordesc<bf16[64, 64]>, tensordesc<fp32[64, 32]>, *bf16:16, *bf16:16, tensordesc<fp32[64]>, i32, *fp32:16, i32, i32, i32:16, i32, i32, i32, fp32, fp32, i32, i32, fp32, *i32:16, *i32:16, 64, 4, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, i32, i32, i32" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/pp 2>&1 | FileCheck %s --check-prefix=OUT64
// RUN: FileCheck %s --check-prefix=PP < %t/pp/flash_bwd.ptx
// RUN: FileCheck %s --check-prefix=PP-NO10 < %t/pp/flash_bwd.ptx
// OUT64: compiled flash_bwd for sm_90a {{.*}}(cubin by ptxas, 166912 B shared, {{[0-9]+}} registers, {{[0-9]+}} B spilled)
// PP-NO10-NOT: barrier.sync 10,
// PP: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 256;
// PP: mov.u32 %r{{[0-9]+}}, %nctaid.x;
// PP: barrier.sync 11, 256;
// PP: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [global_smem+{{[0-9]+}}];
// PP: barrier.arrive 13, 256;
// PP: barrier.sync 12, 256;
// PP: barrier.sync 11, 256;
// PP: barrier.arrive 12, 256;
// PP: barrier.sync 13, 256;
// PP: setmaxnreg.dec.sync.aligned.u32 24;
// PP: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 8448;
// PP: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 32768;
// PP: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 8448;
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name flash_bwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 128]>, tensordesc<fp32[64, 64]>, *fp16:16, *fp16:16, tensordesc<fp32[64]>, i32, *fp32:16, i32, i32, i32:16, i32, i32, i32, fp32, fp32, i32, i32, fp32, *i32:16, *i32:16, 128, 2, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, i32, i32, i32" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/varlen 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name flash_bwd --signature "tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 64]>, tensordesc<bf16[64, 32]>, tensordesc<bf16[64, 64]>, tensordesc<fp32[64, 32]>, *bf16:16, *bf16:16, tensordesc<fp32[64]>, i32, *fp32:16, i32, i32, i32:16, i32, i32, i32, fp32, fp32, i32, i32, fp32, *i32:16, *i32:16, 64, 4, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, i32:1, i32:1, i32:1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/ones 2>&1 | FileCheck %s --check-prefix=OUT64

// DYNAMIC (tiles taken from a counter), head dim 128 causal: the
// producer claims the CTA's next tile with one atomic add (thread 0, the
// result broadcast to its warpgroup), stores each tile's number into the
// CTA's slot before the arrive.expect_tx that carries K and V (the same
// thread 0: kv_full's phase publishes it), and after the last tile waits
// for kv_empty, stores the past-the-end number and arrives on kv_full with
// no bytes; the consumers read the slot (volatile) after each kv_full
// wait.
// RUN: txlc %txl_src/python/txl/ops/flash_attn_bwd.py --kernel-name flash_bwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 128]>, tensordesc<fp32[64, 64]>, *fp16:16, *fp16:16, tensordesc<fp32[64]>, i32, *fp32:16, i32, i32, i32:16, i32, i32, i32, fp32, fp32, i32, i32, fp32, *i32:16, *i32:16, 128, 2, 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 1, i32, i32, i32, 1, *i32:16" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/dyn 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=DYN < %t/dyn/flash_bwd.ptx
// DYN: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 256;
// DYN: ld.volatile.global.b32
// DYN: setmaxnreg.inc.sync.aligned.u32 240;
// DYN: ld.volatile.global.b32
// DYN: setmaxnreg.dec.sync.aligned.u32 24;
// DYN: atom.global.gpu.acq_rel.add.u32
// DYN: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 16640;
// DYN: mbarrier.try_wait.parity
// DYN: st.global.b32
// DYN: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 65536;
// DYN: mbarrier.try_wait.parity
// DYN: st.global.b32
// DYN: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [global_smem];
// DYN-NOT: mbarrier
// DYN: ret;
