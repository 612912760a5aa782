// The FlashAttention forward's launch options beyond the defaults
// (python/txl/ops/flash_attn.py; the launcher's FWD_CONFIG and tuning=).
//
// Three consumer warpgroups (CONSUMERS=3, head dim 64, causal, persistent
// dynamic): 512 threads; the producer gives registers back (24), each
// consumer takes 160 (24 + 3 * 160 <= 512); one Q expect of three 64-row
// tiles; every `empty` barrier hears three arrivals; the ping-pong turns go
// round-robin over named barriers 8, 9, 10. (P is rounded to 16 bits right
// after the softmax; persistent, ptxas spills 208 bytes with P rounded in
// register pairs under TXL_TRUNC_PAIRS=1, none by default; on the grid
// launch below, none.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 64, 128, 3, 1, 1, 1, 0, 0, 0, 0, 1, 2, 1, 0, 3, 0" --num-warps 4 --num-warpgroups 4 --target sm_90a --out-dir %t/nc3 > /dev/null
// RUN: FileCheck %s --check-prefix=NC3 < %t/nc3/flash_fwd.ptx
// RUN: FileCheck %s --check-prefix=NC3-BARS < %t/nc3/flash_fwd.ptx
// OUT: compiled flash_fwd for sm_90a {{.*}}(cubin by ptxas, {{[0-9]+}} B shared, {{[0-9]+}} registers, 0 B spilled)
// NC3: .maxntid 512, 1, 1
// NC3-NOT: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 2;
// NC3: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 3;
// NC3: setmaxnreg.dec.sync.aligned.u32 24;
// NC3: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 24576;
// NC3-COUNT-3: setmaxnreg.inc.sync.aligned.u32 160;
// NC3-NOT: setmaxnreg.inc
// NC3-BARS-DAG: barrier.sync 8, 256;
// NC3-BARS-DAG: barrier.sync 9, 256;
// NC3-BARS-DAG: barrier.sync 10, 256;
// NC3-BARS-DAG: barrier.arrive 8, 256;
// NC3-BARS-DAG: barrier.arrive 9, 256;
// NC3-BARS-DAG: barrier.arrive 10, 256;
//
// The same on the grid launch (one tile per CTA), non-causal: no spills.
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<bf16[64, 64]>, tensordesc<bf16[128, 64]>, tensordesc<bf16[128, 64]>, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 64, 128, 3, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 3, 0" --num-warps 4 --num-warpgroups 4 --target sm_90a --out-dir %t/nc3grid | FileCheck %s --check-prefix=OUT
//
// O stored from the accumulator's registers (O_FROM_REGS, head dim 256,
// causal, persistent dynamic): no staging of O through Q (no stmatrix),
// 32-bit stores of packed pairs straight from the registers; Q's slot is
// freed by one arrival per consumer (mbarrier count 2) rather than by all
// 256 consumer threads after the epilogue.
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 256, 64, 2, 1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0, 2, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/oregs > /dev/null
// RUN: FileCheck %s --check-prefix=OREGS < %t/oregs/flash_fwd.ptx
// OREGS-NOT: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 256;
// OREGS: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// OREGS-NOT: stmatrix
// OREGS: st.global.b32
//
// Causal bounds per consumer warpgroup (CONSUMER_BOUNDS, head dim 128,
// causal, persistent dynamic): the blocks past a warpgroup's own diagonal
// are passed over (ping-pong turns taken, stages released after their
// `full` waits); no spills.
// RUN: txlc %txl_src/python/txl/ops/flash_attn.py --kernel-name flash_fwd --signature "tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32:16, fp32, i32, i32, fp32, *i32:16, *i32:16, fp32, i32, i32, *i32:16, 128, 128, 2, 1, 1, 1, 0, 0, 0, 0, 1, 2, 1, 0, 2, 0, 1" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/cb | FileCheck %s --check-prefix=OUT
