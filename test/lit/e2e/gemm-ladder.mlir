// End-to-end: GEMM ladder steps 1-8 and 10 (tutorials/gemm) compile for sm_90a
// and ptxas (or nvJitLink) accepts them. Each step is checked for what it
// adds: step 1 one synchronous copy and one wgmma group, no loop and no
// barrier; step 2 a K loop whose accumulator starts at zero and is carried,
// and an mbarrier waited on with a parity that flips every iteration; step 3
// a 2-D grid and masked (ragged-edge) loads and stores; step 4 TMA loads
// completing on an mbarrier by bytes and a TMA-store epilogue; step 5 two
// stages, per-stage parities and wait_group 1; step 6 the persistent tile
// loop with grouped order and state carried across tiles; step 7 warp
// specialization (producer, MMA and epilogue warpgroups, setmaxnreg, the
// data-ready / smem-free / acc-ready / acc-free barriers); step 8 four
// stages and the shared-memory budget; step 10 two consumer warpgroups on
// one CTA tile. (Step 9 needs clusters.)
// RUN: rm -rf %t && mkdir -p %t

// Step 1: 128x128 tile, K = BLOCK_K = 64 -> 2 (M) x 4 (K) m64n128k16 wgmmas
// in one commit group; 16-byte unmasked copies; stores fenced for the async
// proxy before the wgmma reads them.
// RUN: txlc %tutorials/gemm/step01_one_tile.py --kernel-name gemm_step01 --signature "*fp16:16, *fp16:16, *fp16:16, 128, 128, 64" --num-warps 4 --target sm_90a --out-dir %t/s1 > /dev/null
// RUN: FileCheck %s --check-prefix=STEP1 < %t/s1/gemm_step01.ptx
// RUN: FileCheck %s --check-prefix=STEP1-NONE < %t/s1/gemm_step01.ptx
// RUN: FileCheck %s --check-prefix=STEP1-IR < %t/s1/gemm_step01.txlgir
// STEP1: ld.global.v4.b32
// STEP1: st.shared
// STEP1: fence.proxy.async.shared::cta
// STEP1-NEXT: bar.sync 0;
// STEP1: wgmma.fence.sync.aligned
// STEP1-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// STEP1-NOT: wgmma.mma_async
// STEP1: wgmma.commit_group.sync.aligned
// STEP1-NOT: wgmma.mma_async
// STEP1: wgmma.wait_group.sync.aligned 0
// STEP1: st.global.v4.b32
// No loop, no mbarrier, no masks, one CTA.
// STEP1-NONE-NOT: {{^[[:space:]]*(@%p[0-9]+[[:space:]]+)?bra[[:space:]]}}
// STEP1-NONE-NOT: mbarrier
// STEP1-NONE-NOT: @p ld.global
// STEP1-NONE-NOT: ctaid
// STEP1-IR: txlgpu.smem_alloc {{.*}}<1x128x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// STEP1-IR: txlgpu.smem_alloc {{.*}}<1x128x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// STEP1-IR-NOT: scf.for
// STEP1-IR: txlgpu.memdesc_view {{.*}}-> <64x128xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [0, 1]}>>
// STEP1-IR: txlgpu.warp_group_dot
// STEP1-IR-NEXT: txlgpu.warp_group_dot_wait {{.*}}pendings = 0

// Step 2: the loop body stores the slice, arrives, waits on the parity
// register, flips it, issues the wgmma group and retires it, then branches
// back to the loop head. The barrier counts all 128 threads.
// RUN: txlc %tutorials/gemm/step02_k_loop.py --kernel-name gemm_step02 --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, 128, 128, 64" --num-warps 4 --target sm_90a --out-dir %t/s2 > /dev/null
// RUN: FileCheck %s --check-prefix=STEP2 < %t/s2/gemm_step02.ptx
// RUN: FileCheck %s --check-prefix=STEP2-IR < %t/s2/gemm_step02.txlgir
// STEP2: mbarrier.init.shared.b64 [{{.*}}], 128;
// STEP2: fence.mbarrier_init
// STEP2: [[LOOP:\$L__BB0_[0-9]+]]:
// STEP2: ld.global.v4.b32
// STEP2: st.shared
// STEP2: fence.proxy.async.shared::cta
// STEP2: mbarrier.arrive.shared.b64
// STEP2: mbarrier.try_wait.parity.shared::cta.b64 {{.*}}, [%r{{[0-9]+}}], %[[PH:r[0-9]+]],
// STEP2: xor.b32 %[[PH]], %[[PH]], 1;
// STEP2: wgmma.fence.sync.aligned
// STEP2-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// STEP2: wgmma.commit_group.sync.aligned
// STEP2: wgmma.wait_group.sync.aligned 0
// STEP2: bra [[LOOP]];
// STEP2-NOT: mbarrier
// STEP2-NOT: wgmma.mma_async
// STEP2-IR: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #txlgpu.nvmma<{version = 3
// STEP2-IR: %[[BARS:.*]] = txlgpu.mbar_alloc {arriveCount = 128 : i32
// STEP2-IR: %[[BAR:.*]] = txlgpu.memdesc_index %[[BARS]]
// STEP2-IR: scf.for %{{.*}} = %c0_i32 to %arg3 step %c64_i32 iter_args(%[[ACC:.*]] = %[[ZERO]], %[[PH:.*]] = %c0_i32)
// STEP2-IR: txlgpu.smem_store
// STEP2-IR: txlgpu.smem_store
// STEP2-IR-NEXT: txlgpu.mbar_arrive %[[BAR]]
// STEP2-IR-NEXT: txlgpu.mbar_wait %[[BAR]], %[[PH]]
// STEP2-IR-NEXT: %[[NEXT:.*]] = arith.xori %[[PH]], %c1_i32
// STEP2-IR: %[[D:.*]] = txlgpu.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]]
// STEP2-IR-NEXT: %[[W:.*]] = txlgpu.warp_group_dot_wait %[[D]] {pendings = 0 : i32}
// STEP2-IR-NEXT: scf.yield %[[W]], %[[NEXT]]

// Step 3: a 2-D grid; A and B^T loads masked on rows (M, N) and on the K
// tail with 0.0 as the fill, the C store masked on M and N; the K loop and
// barrier of step 2 unchanged.
// RUN: txlc %tutorials/gemm/step03_grid.py --kernel-name gemm_step03 --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 128, 128, 64" --num-warps 4 --target sm_90a --out-dir %t/s3 > /dev/null
// RUN: FileCheck %s --check-prefix=STEP3 < %t/s3/gemm_step03.ptx
// RUN: FileCheck %s --check-prefix=STEP3-IR < %t/s3/gemm_step03.txlgir
// STEP3: mov.u32 %r{{[0-9]+}}, %ctaid.x;
// STEP3: mov.u32 %r{{[0-9]+}}, %ctaid.y;
// STEP3: mbarrier.init.shared.b64 [{{.*}}], 128;
// STEP3: [[LOOP:\$L__BB0_[0-9]+]]:
// STEP3: @p ld.global.b16
// STEP3: mbarrier.try_wait.parity.shared::cta.b64 {{.*}}, [%r{{[0-9]+}}], %[[PH:r[0-9]+]],
// STEP3: xor.b32 %[[PH]], %[[PH]], 1;
// STEP3-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// STEP3: wgmma.commit_group.sync.aligned
// STEP3: wgmma.wait_group.sync.aligned 0
// STEP3: bra [[LOOP]];
// STEP3: @p st.global.b16
// STEP3-IR: func.func @gemm_step03(%arg0: {{.*}}, %arg3: i32, %arg4: i32, %arg5: i32)
// STEP3-IR: %[[F0:.*]] = arith.constant 0.000000e+00 : f16
// STEP3-IR: txl.program_id 0
// STEP3-IR: txl.program_id 1
// STEP3-IR: scf.for %{{.*}} = %c0_i32 to %arg5 step %c64_i32 iter_args
// A: rows < M and columns < K, filled with 0.0.
// STEP3-IR: %[[MA:.*]] = txl.splat %arg3 : i32 -> tensor<128x1xi32
// STEP3-IR-NEXT: %[[RA:.*]] = arith.cmpi slt, %{{.*}}, %[[MA]]
// STEP3-IR-NEXT: %[[KS:.*]] = txl.splat %arg5 : i32 -> tensor<1x64xi32
// STEP3-IR-NEXT: %[[KT:.*]] = arith.cmpi slt, %{{.*}}, %[[KS]]
// STEP3-IR-NEXT: %[[RAB:.*]] = txl.broadcast %[[RA]]
// STEP3-IR-NEXT: %[[KTB:.*]] = txl.broadcast %[[KT]]
// STEP3-IR-NEXT: %[[MASKA:.*]] = arith.andi %[[RAB]], %[[KTB]]
// STEP3-IR-NEXT: %[[FILL:.*]] = txl.splat %[[F0]] : f16 -> tensor<128x64xf16
// STEP3-IR-NEXT: txl.load %{{.*}}, %[[MASKA]], %[[FILL]]
// B^T: rows < N and the same K tail mask.
// STEP3-IR: %[[NB:.*]] = txl.splat %arg4 : i32 -> tensor<128x1xi32
// STEP3-IR-NEXT: %[[RB:.*]] = arith.cmpi slt, %{{.*}}, %[[NB]]
// STEP3-IR-NEXT: %[[RBB:.*]] = txl.broadcast %[[RB]]
// STEP3-IR-NEXT: %[[MASKB:.*]] = arith.andi %[[RBB]], %[[KTB]]
// STEP3-IR-NEXT: txl.load %{{.*}}, %[[MASKB]], %[[FILL]]
// STEP3-IR: txlgpu.mbar_wait
// STEP3-IR: txlgpu.warp_group_dot
// STEP3-IR: scf.yield
// C: rows < M and columns < N.
// STEP3-IR: %[[MC:.*]] = txl.splat %arg3 : i32 -> tensor<128x1xi32
// STEP3-IR-NEXT: %[[RC:.*]] = arith.cmpi slt, %{{.*}}, %[[MC]]
// STEP3-IR-NEXT: %[[NC:.*]] = txl.splat %arg4 : i32 -> tensor<1x128xi32
// STEP3-IR-NEXT: %[[CC:.*]] = arith.cmpi slt, %{{.*}}, %[[NC]]
// STEP3-IR-NEXT: %[[RCB:.*]] = txl.broadcast %[[RC]]
// STEP3-IR-NEXT: %[[CCB:.*]] = txl.broadcast %[[CC]]
// STEP3-IR-NEXT: %[[MASKC:.*]] = arith.andi %[[RCB]], %[[CCB]]
// STEP3-IR: txl.store %{{.*}}, %{{.*}}, %[[MASKC]]

// The other block shapes the GPU tests run: a 64x256 tile is one row of
// m64n256k16 wgmmas, a 128x64 tile with BLOCK_K = 32 two rows of two k16
// steps.
// RUN: txlc %tutorials/gemm/step03_grid.py --kernel-name gemm_step03 --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 64, 256, 64" --num-warps 4 --target sm_90a --out-dir %t/s3w > /dev/null
// RUN: FileCheck %s --check-prefix=STEP3-N256 < %t/s3w/gemm_step03.ptx
// STEP3-N256-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// STEP3-N256-NOT: wgmma.mma_async
// RUN: txlc %tutorials/gemm/step03_grid.py --kernel-name gemm_step03 --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 128, 64, 32" --num-warps 4 --target sm_90a --out-dir %t/s3k > /dev/null
// RUN: FileCheck %s --check-prefix=STEP3-K32 < %t/s3k/gemm_step03.ptx
// STEP3-K32-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// STEP3-K32-NOT: wgmma.mma_async

// ---------------------------------------------------------------------------
// Steps 4-6 move the tiles with TMA. The three descriptors are 128-byte
// kernel parameters (CUtensorMaps by value); the kernels never load or store
// global memory with threads.

// Step 4: per K slice one expect_tx of the whole slice (A 128x64 + B^T
// 128x64 fp16 = 32768 bytes) on a barrier of one arrival, and two
// cp.async.bulk.tensor loads (A from a_desc into sA, B^T from bt_desc into
// sB, both at column k) completing on it; the phase flips. The epilogue
// writes C into sC, fences for the async proxy, and thread 0 stores it in
// two 64-column boxes (128-byte swizzle) from c_desc, one bulk group, waited
// for with .read before the kernel ends.
// RUN: txlc %tutorials/gemm/step04_tma.py --kernel-name gemm_step04 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, 128, 128, 64" --num-warps 4 --target sm_90a --out-dir %t/s4 > /dev/null
// RUN: FileCheck %s --check-prefix=STEP4 < %t/s4/gemm_step04.ptx
// RUN: FileCheck %s --check-prefix=STEP4-CNT < %t/s4/gemm_step04.ptx
// RUN: FileCheck %s --check-prefix=STEP4-NONE < %t/s4/gemm_step04.ptx
// RUN: FileCheck %s --check-prefix=STEP4-IR < %t/s4/gemm_step04.txlgir
// STEP4: .entry gemm_step04(
// STEP4-NEXT: .param .align 64 .b8 gemm_step04_param_0[128],
// STEP4-NEXT: .param .align 64 .b8 gemm_step04_param_1[128],
// STEP4-NEXT: .param .align 64 .b8 gemm_step04_param_2[128],
// STEP4-NEXT: .param .u32 gemm_step04_param_3
// STEP4: mov.b64 %[[P0:rd[0-9]+]], gemm_step04_param_0;
// STEP4-NEXT: mov.b64 %[[P1:rd[0-9]+]], gemm_step04_param_1;
// STEP4-NEXT: mov.b64 %[[P2:rd[0-9]+]], gemm_step04_param_2;
// STEP4-DAG: cvta.param.u64 %[[DA:rd[0-9]+]], %[[P0]];
// STEP4-DAG: cvta.param.u64 %[[DB:rd[0-9]+]], %[[P1]];
// STEP4-DAG: cvta.param.u64 %[[DC:rd[0-9]+]], %[[P2]];
// STEP4: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// STEP4: fence.mbarrier_init
// The K loop (its blocks in any order): the barrier is at shared offset 0,
// sA at 1024, sB at 17408.
// STEP4-DAG: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 32768;
// STEP4-DAG: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+1024], [%[[DA]], {%[[K:r[0-9]+]], %[[ROWM:r[0-9]+]]}], [global_smem];
// STEP4-DAG: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+17408], [%[[DB]], {%[[K]], %[[ROWN:r[0-9]+]]}], [global_smem];
// STEP4-DAG: mbarrier.try_wait.parity.shared::cta.b64 p, [%r{{[0-9]+}}], %[[PH:r[0-9]+]],
// STEP4-DAG: xor.b32 %[[PH]], %[[PH]], 1;
// STEP4-DAG: wgmma.wait_group.sync.aligned 0;
// Epilogue: sC reuses sA's bytes (1024; the K loop is over), two boxes of
// 128x64 (16384 bytes apart).
// STEP4: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%rd{{[0-9]+}}+1024], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// STEP4: fence.proxy.async.shared::cta;
// STEP4: bar.sync 0;
// STEP4: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%[[DC]], {%[[ROWN]], %[[ROWM]]}], [global_smem+1024];
// STEP4: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%[[DC]], {%r{{[0-9]+}}, %[[ROWM]]}], [global_smem+17408];
// STEP4: cp.async.bulk.commit_group;
// STEP4: cp.async.bulk.wait_group.read 0;
// STEP4: ret;
// Exactly two TMA loads and two TMA stores.
// STEP4-CNT-COUNT-2: cp.async.bulk.tensor.2d.shared::cta.global
// STEP4-CNT-NOT: cp.async.bulk.tensor.2d.shared::cta.global
// STEP4-CNT-COUNT-2: cp.async.bulk.tensor.2d.global.shared::cta
// STEP4-CNT-NOT: cp.async.bulk.tensor
// No thread touches global memory, and no masks are left.
// STEP4-NONE-NOT: ld.global
// STEP4-NONE-NOT: st.global
// STEP4-NONE-NOT: @p
// STEP4-IR: func.func @gemm_step04(%arg0: !txlgpu.tensordesc<128x64xf16> {txlgpu.tma_box = array<i64: 128, 64>, txlgpu.tma_swizzle = 128 : i32}, %arg1: !txlgpu.tensordesc<128x64xf16> {txlgpu.tma_box = array<i64: 128, 64>, txlgpu.tma_swizzle = 128 : i32}, %arg2: !txlgpu.tensordesc<128x128xf16> {txlgpu.tma_box = array<i64: 128, 64>, txlgpu.tma_swizzle = 128 : i32}, %arg3: i32)
// STEP4-IR: %[[OM:[0-9]+]] = arith.muli %{{[0-9]+}}, %c128_i32
// STEP4-IR: %[[ON:[0-9]+]] = arith.muli %{{[0-9]+}}, %c128_i32
// STEP4-IR: %[[SA:[0-9]+]] = txlgpu.memdesc_index %{{[0-9]+}}[%c0_i32] : <1x128x64xf16
// STEP4-IR: %[[SB:[0-9]+]] = txlgpu.memdesc_index %{{[0-9]+}}[%c0_i32] : <1x128x64xf16
// STEP4-IR: %[[SC:[0-9]+]] = txlgpu.memdesc_index %{{[0-9]+}}[%c0_i32] : <1x128x128xf16
// STEP4-IR: %[[BARS:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 1 : i32
// STEP4-IR-NEXT: %[[BAR:[0-9]+]] = txlgpu.memdesc_index %[[BARS]][%c0_i32]
// STEP4-IR-NEXT: scf.for %[[K:arg[0-9]+]] = %c0_i32 to %arg3 step %c64_i32 iter_args(%[[ACC:arg[0-9]+]] = %cst, %[[PH:arg[0-9]+]] = %c0_i32)
// STEP4-IR-NEXT: txlgpu.mbar_expect %[[BAR]], %c32768_i32
// STEP4-IR-NEXT: txlgpu.tma_load %arg0[%[[OM]], %[[K]]] -> %[[SA]], %[[BAR]]
// STEP4-IR-NEXT: txlgpu.tma_load %arg1[%[[ON]], %[[K]]] -> %[[SB]], %[[BAR]]
// STEP4-IR-NEXT: txlgpu.mbar_wait %[[BAR]], %[[PH]]
// STEP4-IR-NEXT: %[[NPH:[0-9]+]] = arith.xori %[[PH]], %c1_i32
// STEP4-IR: %[[D:[0-9]+]] = txlgpu.warp_group_dot %[[SA]], %{{[0-9]+}}, %[[ACC]]
// STEP4-IR-NEXT: %[[W:[0-9]+]] = txlgpu.warp_group_dot_wait %[[D]] {pendings = 0 : i32}
// STEP4-IR-NEXT: scf.yield %[[W]], %[[NPH]]
// STEP4-IR-NEXT: {{^ +}$}}
// STEP4-IR-NEXT: %[[H:[0-9]+]] = arith.truncf
// STEP4-IR-NEXT: txlgpu.smem_store %[[H]], %[[SC]]
// STEP4-IR-NEXT: txlgpu.tma_store %[[SC]] -> %arg2[%[[OM]], %[[ON]]]
// STEP4-IR-NEXT: txlgpu.tma_store_wait {pendings = 0 : i32}
// STEP4-IR-NEXT: return

// Step 5: two stages of sA (1024, 1024 + 16384) and sB (33792, 33792 +
// 16384) and two barriers (8 bytes apart). The prologue loads slice 0 into
// stage 0; iteration k waits on stage s = k % 2 with parity bit s of the
// carried phase mask, issues the wgmma on stage s, retires all but that
// group (wait_group 1), and only then refills the other stage 1 - s with
// slice k + 1. wait_group 0 only after the loop.
// RUN: txlc %tutorials/gemm/step05_pipeline.py --kernel-name gemm_step05 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, 128, 128, 64" --num-warps 4 --target sm_90a --out-dir %t/s5 > /dev/null
// RUN: FileCheck %s --check-prefix=STEP5 < %t/s5/gemm_step05.ptx
// RUN: FileCheck %s --check-prefix=STEP5-CNT < %t/s5/gemm_step05.ptx
// RUN: FileCheck %s --check-prefix=STEP5-IR < %t/s5/gemm_step05.txlgir
// STEP5: mov.b64 %[[P0:rd[0-9]+]], gemm_step05_param_0;
// STEP5-NEXT: mov.b64 %[[P1:rd[0-9]+]], gemm_step05_param_1;
// STEP5-DAG: cvta.param.u64 %[[DA:rd[0-9]+]], %[[P0]];
// STEP5-DAG: cvta.param.u64 %[[DB:rd[0-9]+]], %[[P1]];
// STEP5: mbarrier.init.shared.b64 [%[[B0:r[0-9]+]]], 1;
// STEP5: add.s32 %[[B1:r[0-9]+]], %[[B0]], 8;
// STEP5: mbarrier.init.shared.b64 [%[[B1]]], 1;
// Prologue: slice 0 into stage 0 (constant addresses).
// STEP5: mbarrier.arrive.expect_tx.shared.b64 _, [%[[B0]]], 32768;
// STEP5: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+1024], [%[[DA]], {%[[Z:r[0-9]+]], %[[ROWM:r[0-9]+]]}], [global_smem];
// STEP5: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+33792], [%[[DB]], {%[[Z]], %[[ROWN:r[0-9]+]]}], [global_smem];
// The loop body: parity = (phases >> s) & 1; stage base = s * 16384.
// STEP5: shr.u32 %[[SH:r[0-9]+]], %[[PHS:r[0-9]+]], %[[S:r[0-9]+]];
// STEP5: and.b32 %[[PAR:r[0-9]+]], %[[SH]], 1;
// STEP5: mbarrier.try_wait.parity.shared::cta.b64 p, [%r{{[0-9]+}}], %[[PAR]],
// STEP5: shl.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, %[[S]];
// STEP5: shl.b32 %{{r[0-9]+}}, %[[S]], 14;
// STEP5: wgmma.fence.sync.aligned
// STEP5-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// STEP5: wgmma.commit_group.sync.aligned;
// STEP5: wgmma.wait_group.sync.aligned 1;
// STEP5-NOT: wgmma.wait_group
// The refill: the other stage's barrier (8 * (s ^ 1)) and buffers, at
// dynamic addresses.
// STEP5: xor.b32 %[[NS:r[0-9]+]], %[[S]], 1;
// STEP5: mul.wide.u32 %rd{{[0-9]+}}, %[[NS]], 8;
// STEP5: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 32768;
// STEP5-NOT: wgmma.wait_group
// STEP5: shl.b32 %r{{[0-9]+}}, %[[NS]], 14;
// STEP5: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%[[DA]], {%[[KN:r[0-9]+]], %[[ROWM]]}], [%[[NBAR:rd[0-9]+]]];
// STEP5: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%[[DB]], {%[[KN]], %[[ROWN]]}], [%[[NBAR]]];
// STEP5: wgmma.wait_group.sync.aligned 0;
// STEP5: stmatrix.sync.aligned.m8n8.x4.shared.b16
// STEP5: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// STEP5: cp.async.bulk.wait_group.read 0;
// STEP5: ret;
// Four TMA loads (prologue + refill, A and B^T), one wait_group 1.
// STEP5-CNT-COUNT-4: cp.async.bulk.tensor.2d.shared::cta.global
// STEP5-CNT-NOT: cp.async.bulk.tensor.2d.shared::cta.global
// STEP5-CNT-NOT: wgmma.wait_group.sync.aligned 1
// STEP5-IR: %[[SA:[0-9]+]] = txlgpu.smem_alloc {txlgpu.shared_offset = 1024 : i32} : <2x128x64xf16
// STEP5-IR-NEXT: %[[SB:[0-9]+]] = txlgpu.smem_alloc {txlgpu.shared_offset = 33792 : i32} : <2x128x64xf16
// STEP5-IR: %[[BARS:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 1 : i32, {{.*}}} : <2xi64, #txlgpu.barrier>
// STEP5-IR: %[[NK:[0-9]+]] = arith.divsi %{{[0-9]+}}, %c64_i32
// STEP5-IR-NEXT: %[[B0:[0-9]+]] = txlgpu.memdesc_index %[[BARS]][%c0_i32]
// STEP5-IR-NEXT: txlgpu.mbar_expect %[[B0]], %c32768_i32
// STEP5-IR-NEXT: %[[A0:[0-9]+]] = txlgpu.memdesc_index %[[SA]][%c0_i32]
// STEP5-IR-NEXT: txlgpu.tma_load %arg0[%[[OM:[0-9]+]], %c0_i32] -> %[[A0]], %[[B0]]
// STEP5-IR-NEXT: %[[BT0:[0-9]+]] = txlgpu.memdesc_index %[[SB]][%c0_i32]
// STEP5-IR-NEXT: txlgpu.tma_load %arg1[%[[ON:[0-9]+]], %c0_i32] -> %[[BT0]], %[[B0]]
// STEP5-IR-NEXT: scf.for %[[K:arg[0-9]+]] = %c0_i32 to %[[NK]] step %c1_i32 iter_args(%[[ACC:arg[0-9]+]] = %cst, %[[PHS:arg[0-9]+]] = %c0_i32)
// STEP5-IR-NEXT: %[[S:[0-9]+]] = arith.remsi %[[K]], %c2_i32
// STEP5-IR-NEXT: %[[BAR:[0-9]+]] = txlgpu.memdesc_index %[[BARS]][%[[S]]]
// STEP5-IR-NEXT: %[[SH:[0-9]+]] = arith.shrsi %[[PHS]], %[[S]]
// STEP5-IR-NEXT: %[[PAR:[0-9]+]] = arith.andi %[[SH]], %c1_i32
// STEP5-IR-NEXT: txlgpu.mbar_wait %[[BAR]], %[[PAR]]
// STEP5-IR-NEXT: %[[BIT:[0-9]+]] = arith.shli %c1_i32, %[[S]]
// STEP5-IR-NEXT: %[[NPHS:[0-9]+]] = arith.xori %[[PHS]], %[[BIT]]
// STEP5-IR-NEXT: %[[A:[0-9]+]] = txlgpu.memdesc_index %[[SA]][%[[S]]]
// STEP5-IR-NEXT: %[[B:[0-9]+]] = txlgpu.memdesc_index %[[SB]][%[[S]]]
// STEP5-IR-NEXT: %[[BT:[0-9]+]] = txlgpu.memdesc_view %[[B]]
// STEP5-IR-NEXT: %[[D:[0-9]+]] = txlgpu.warp_group_dot %[[A]], %[[BT]], %[[ACC]]
// STEP5-IR-NEXT: %[[W:[0-9]+]] = txlgpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// STEP5-IR-NEXT: %[[K1:[0-9]+]] = arith.addi %[[K]], %c1_i32
// STEP5-IR-NEXT: %[[MORE:[0-9]+]] = arith.cmpi slt, %[[K1]], %[[NK]]
// STEP5-IR-NEXT: scf.if %[[MORE]] {
// STEP5-IR-NEXT: %[[NS:[0-9]+]] = arith.subi %c1_i32, %[[S]]
// STEP5-IR-NEXT: %[[NBAR:[0-9]+]] = txlgpu.memdesc_index %[[BARS]][%[[NS]]]
// STEP5-IR-NEXT: txlgpu.mbar_expect %[[NBAR]], %c32768_i32
// STEP5-IR-NEXT: %[[NA:[0-9]+]] = txlgpu.memdesc_index %[[SA]][%[[NS]]]
// STEP5-IR-NEXT: %[[KOFF:[0-9]+]] = arith.muli %[[K1]], %c64_i32
// STEP5-IR-NEXT: txlgpu.tma_load %arg0[%[[OM]], %[[KOFF]]] -> %[[NA]], %[[NBAR]]
// STEP5-IR-NEXT: %[[NB:[0-9]+]] = txlgpu.memdesc_index %[[SB]][%[[NS]]]
// STEP5-IR-NEXT: txlgpu.tma_load %arg1[%[[ON]], %[[KOFF]]] -> %[[NB]], %[[NBAR]]
// STEP5-IR-NEXT: {{^ +}$}}
// STEP5-IR-NEXT: scf.yield %[[W]], %[[NPHS]]
// STEP5-IR-NEXT: {{^ +}$}}
// STEP5-IR-NEXT: %[[F:[0-9]+]] = txlgpu.warp_group_dot_wait %{{[0-9]+}}#0 {pendings = 0 : i32}
// STEP5-IR-NEXT: %[[H:[0-9]+]] = arith.truncf %[[F]]
// STEP5-IR-NEXT: txlgpu.smem_store %[[H]]
// STEP5-IR-NEXT: txlgpu.tma_store
// STEP5-IR-NEXT: txlgpu.tma_store_wait {pendings = 0 : i32}

// Step 6: a 1-D grid; the tile loop starts at ctaid.x and strides by the
// NUM_SMS argument up to cdiv(M,128) * cdiv(N,128); the grouped order
// (GROUP_M = 8) maps the tile index to (pid_m, pid_n); the K slices' stage
// counter and phase mask are carried from tile to tile; each tile first
// waits for the previous tile's TMA store to have read sC, then rewrites and
// stores it; one last wait before the kernel ends.
// RUN: txlc %tutorials/gemm/step06_persistent.py --kernel-name gemm_step06 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, i32, 128, 128, 64, 8" --num-warps 4 --target sm_90a --out-dir %t/s6 > /dev/null
// RUN: FileCheck %s --check-prefix=STEP6 < %t/s6/gemm_step06.ptx
// RUN: FileCheck %s --check-prefix=STEP6-EPI < %t/s6/gemm_step06.ptx
// RUN: FileCheck %s --check-prefix=STEP6-NONE < %t/s6/gemm_step06.ptx
// RUN: FileCheck %s --check-prefix=STEP6-IR < %t/s6/gemm_step06.txlgir
// STEP6: mov.u32 %[[TILE:r[0-9]+]], %ctaid.x;
// STEP6: setp.ge.s32 %p{{[0-9]+}}, %[[TILE]], %[[NT:r[0-9]+]];
// STEP6: ld.param.b32 %[[STEP:r[0-9]+]], [gemm_step06_param_6];
// STEP6: add.s32 %[[TILE]], %[[TILE]], %[[STEP]];
// STEP6: setp.lt.s32 %p{{[0-9]+}}, %[[TILE]], %[[NT]];
// STEP6: @%p{{[0-9]+}} bra
// STEP6: div.s32 %r{{[0-9]+}}, %[[TILE]], %r{{[0-9]+}};
// STEP6: min.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, 8;
// STEP6-EPI: wgmma.wait_group.sync.aligned 0;
// STEP6-EPI: cp.async.bulk.wait_group.read 0;
// STEP6-EPI: bar.sync 0;
// STEP6-EPI: stmatrix.sync.aligned.m8n8.x4.shared.b16
// STEP6-EPI: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// STEP6-EPI: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// STEP6-EPI: cp.async.bulk.commit_group;
// STEP6-EPI: cp.async.bulk.wait_group.read 0;
// STEP6-EPI: ret;
// STEP6-NONE-NOT: ctaid.y
// STEP6-NONE-NOT: ld.global
// STEP6-NONE-NOT: st.global
// STEP6-IR: func.func @gemm_step06({{.*}}%arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32)
// STEP6-IR: %[[SC:[0-9]+]] = txlgpu.memdesc_index %{{[0-9]+}}[%c0_i32] : <1x128x128xf16
// STEP6-IR: %[[BARS:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 1 : i32, {{.*}}} : <2xi64, #txlgpu.barrier>
// STEP6-IR: %[[NPM:[0-9]+]] = arith.divsi %{{[0-9]+}}, %c128_i32
// STEP6-IR: %[[NPN:[0-9]+]] = arith.divsi %{{[0-9]+}}, %c128_i32
// STEP6-IR-NEXT: %[[NT:[0-9]+]] = arith.muli %[[NPM]], %[[NPN]]
// STEP6-IR: %[[NK:[0-9]+]] = arith.divsi %{{[0-9]+}}, %c64_i32
// STEP6-IR-NEXT: %[[GT:[0-9]+]] = arith.muli %[[NPN]], %c8_i32
// STEP6-IR-NEXT: %[[PID:[0-9]+]] = txl.program_id 0
// STEP6-IR-NEXT: %[[TL:[0-9]+]]:2 = scf.for %[[T:arg[0-9]+]] = %[[PID]] to %[[NT]] step %arg6 iter_args(%[[IT:arg[0-9]+]] = %c0_i32, %[[PHS:arg[0-9]+]] = %c0_i32) -> (i32, i32)
// Grouped order.
// STEP6-IR-NEXT: %[[G:[0-9]+]] = arith.divsi %[[T]], %[[GT]]
// STEP6-IR-NEXT: %[[FM:[0-9]+]] = arith.muli %[[G]], %c8_i32
// STEP6-IR-NEXT: %[[LEFT:[0-9]+]] = arith.subi %[[NPM]], %[[FM]]
// STEP6-IR-NEXT: %[[ROWS:[0-9]+]] = arith.minsi %[[LEFT]], %c8_i32
// STEP6-IR-NEXT: %[[GS:[0-9]+]] = arith.muli %[[G]], %[[GT]]
// STEP6-IR-NEXT: %[[IN:[0-9]+]] = arith.subi %[[T]], %[[GS]]
// STEP6-IR-NEXT: %[[R:[0-9]+]] = arith.remsi %[[IN]], %[[ROWS]]
// STEP6-IR-NEXT: %[[PM:[0-9]+]] = arith.addi %[[FM]], %[[R]]
// STEP6-IR-NEXT: %[[OM:[0-9]+]] = arith.muli %[[PM]], %c128_i32
// STEP6-IR-NEXT: %[[PN:[0-9]+]] = arith.divsi %[[IN]], %[[ROWS]]
// STEP6-IR-NEXT: %[[ON:[0-9]+]] = arith.muli %[[PN]], %c128_i32
// The tile's first slice goes to the stage the running counter names.
// STEP6-IR-NEXT: %[[S0:[0-9]+]] = arith.remsi %[[IT]], %c2_i32
// STEP6-IR-NEXT: %[[B0:[0-9]+]] = txlgpu.memdesc_index %[[BARS]][%[[S0]]]
// STEP6-IR-NEXT: txlgpu.mbar_expect %[[B0]], %c32768_i32
// STEP6-IR-NEXT: txlgpu.memdesc_index %{{[0-9]+}}[%[[S0]]]
// STEP6-IR-NEXT: txlgpu.tma_load %arg0[%[[OM]], %c0_i32] -> %{{[0-9]+}}, %[[B0]]
// STEP6-IR-NEXT: txlgpu.memdesc_index %{{[0-9]+}}[%[[S0]]]
// STEP6-IR-NEXT: txlgpu.tma_load %arg1[%[[ON]], %c0_i32] -> %{{[0-9]+}}, %[[B0]]
// The K loop picks up the phase mask of the previous tile.
// STEP6-IR-NEXT: %[[KL:[0-9]+]]:2 = scf.for %[[K:arg[0-9]+]] = %c0_i32 to %[[NK]] step %c1_i32 iter_args(%{{arg[0-9]+}} = %cst, %[[KPHS:arg[0-9]+]] = %[[PHS]])
// STEP6-IR-NEXT: %[[IK:[0-9]+]] = arith.addi %[[IT]], %[[K]]
// STEP6-IR-NEXT: %[[S:[0-9]+]] = arith.remsi %[[IK]], %c2_i32
// STEP6-IR-NEXT: %[[BAR:[0-9]+]] = txlgpu.memdesc_index %[[BARS]][%[[S]]]
// STEP6-IR-NEXT: %[[SH:[0-9]+]] = arith.shrsi %[[KPHS]], %[[S]]
// STEP6-IR-NEXT: %[[PAR:[0-9]+]] = arith.andi %[[SH]], %c1_i32
// STEP6-IR-NEXT: txlgpu.mbar_wait %[[BAR]], %[[PAR]]
// STEP6-IR: txlgpu.warp_group_dot_wait %{{[0-9]+}} {pendings = 1 : i32}
// STEP6-IR: scf.if
// STEP6-IR: txlgpu.tma_load %arg0[%[[OM]], %{{[0-9]+}}]
// STEP6-IR: txlgpu.tma_load %arg1[%[[ON]], %{{[0-9]+}}]
// STEP6-IR: scf.yield
// STEP6-IR-NEXT: {{^ +}$}}
// STEP6-IR-NEXT: %[[ACC:[0-9]+]] = txlgpu.warp_group_dot_wait %[[KL]]#0 {pendings = 0 : i32}
// STEP6-IR-NEXT: %[[IT2:[0-9]+]] = arith.addi %[[IT]], %[[NK]]
// STEP6-IR-NEXT: txlgpu.tma_store_wait {pendings = 0 : i32}
// STEP6-IR-NEXT: %[[H:[0-9]+]] = arith.truncf %[[ACC]]
// STEP6-IR-NEXT: txlgpu.smem_store %[[H]], %[[SC]]
// STEP6-IR-NEXT: txlgpu.tma_store %[[SC]] -> %arg2[%[[OM]], %[[ON]]]
// STEP6-IR-NEXT: scf.yield %[[IT2]], %[[KL]]#1 : i32, i32
// STEP6-IR-NEXT: {{^ +}$}}
// STEP6-IR-NEXT: txlgpu.tma_store_wait {pendings = 0 : i32}
// STEP6-IR-NEXT: return

// A 128x256 tile (the m64n256k16 shape): B^T and C move as 256-row and
// 256-column blocks; C goes out as four 64-column boxes. (One warpgroup
// holds the 128x256 fp32 accumulator in 256 registers per thread, so ptxas
// spills at this size; the GPU tests still run it for correctness.)
// RUN: txlc %tutorials/gemm/step06_persistent.py --kernel-name gemm_step06 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[256, 64]>, tensordesc<fp16[128, 256]>, i32, i32, i32, i32, 128, 256, 64, 8" --num-warps 4 --target sm_90a --out-dir %t/s6w > /dev/null
// RUN: FileCheck %s --check-prefix=STEP6-N256 < %t/s6w/gemm_step06.ptx
// RUN: FileCheck %s --check-prefix=STEP6-N256-IR < %t/s6w/gemm_step06.txlgir
// STEP6-N256: wgmma.commit_group.sync.aligned
// STEP6-N256: wgmma.wait_group.sync.aligned 1;
// STEP6-N256: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 49152;
// STEP6-N256: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// STEP6-N256-COUNT-3: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// STEP6-N256: cp.async.bulk.commit_group;
// STEP6-N256-IR: %arg1: !txlgpu.tensordesc<256x64xf16> {txlgpu.tma_box = array<i64: 256, 64>, txlgpu.tma_swizzle = 128 : i32}, %arg2: !txlgpu.tensordesc<128x256xf16> {txlgpu.tma_box = array<i64: 128, 64>, txlgpu.tma_swizzle = 128 : i32}
// STEP6-N256-IR: txlgpu.warp_group_dot {{.*}} -> tensor<128x256xf32

// The flagship (tutorials/gemm/flagship.py): three warpgroups (384
// threads, one CTA per SM so setmaxnreg has a budget), the producer gives
// registers back and issues 48 KiB of TMA per K slice, each consumer takes
// registers and runs four m64n256k16 wgmmas per slice with B N-major
// (transpose bit set) and synchronizes only its own warpgroup (named
// barriers 14 and 13, 128 threads), and both release stages on an
// mbarrier that expects one arrival per consumer warpgroup.
// RUN: txlc %tutorials/gemm/flagship.py --kernel-name gemm_ws --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, i32, i32, i32, i32, 128, 256, 64, 3, 8" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/flag > /dev/null
// RUN: FileCheck %s --check-prefix=FLAG < %t/flag/gemm_ws.ptx
// RUN: FileCheck %s --check-prefix=FLAG-MMA < %t/flag/gemm_ws.ptx
// FLAG: .maxntid 384, 1, 1
// FLAG-NEXT: .minnctapersm 1
// FLAG: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 2;
// FLAG-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// FLAG-DAG: bar.sync 14, 128;
// FLAG-DAG: bar.sync 13, 128;
// FLAG-DAG: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 49152;
// FLAG-DAG: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// FLAG-MMA: setmaxnreg.inc.sync.aligned.u32 232;
// FLAG-MMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// FLAG-MMA-NOT: wgmma.mma_async
// FLAG-MMA: wgmma.wait_group.sync.aligned 1;
// FLAG-MMA: setmaxnreg.inc.sync.aligned.u32 232;
// FLAG-MMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// FLAG-MMA-NOT: wgmma.mma_async
// FLAG-MMA: wgmma.wait_group.sync.aligned 1;

// ---------------------------------------------------------------------------
// Steps 7, 8 and 10 are warp-specialized (num_warpgroups=3, 384 threads):
// each `if txl.is_warpgroup([i])` branch is one role's whole program,
// synchronized inside itself by named barrier 15 - i (128 threads) and with
// the other roles only through mbarriers.

// Step 7: a TMA producer (warpgroup 0, setmaxnreg.dec 40), an MMA
// warpgroup (1) and an epilogue warpgroup (2), both setmaxnreg.inc 232, and
// the four barrier kinds: full (count 1, x2 stages), empty (128, x2),
// acc_ready (128) and acc_free (128). The MMA warpgroup waits full with the
// round's parity and releases the previous slice's stage after dot_wait(1);
// the producer waits empty with the flipped parity. At the end of a tile
// the MMA warpgroup waits acc_free (flipped parity of its tile count),
// stores the fp32 accumulator and arrives on acc_ready from every thread; the
// epilogue waits acc_ready, loads the accumulator, arrives on acc_free from
// every thread before anything else, then converts, stores C and TMA-stores
// it (two 64-column boxes).
// RUN: txlc %tutorials/gemm/step07_warp_specialized.py --kernel-name gemm_step07 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, i32, 128, 128, 64, 8" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s7 > /dev/null
// RUN: FileCheck %s --check-prefix=STEP7 < %t/s7/gemm_step07.ptx
// RUN: FileCheck %s --check-prefix=STEP7-MMA < %t/s7/gemm_step07.ptx
// RUN: FileCheck %s --check-prefix=STEP7-EPI < %t/s7/gemm_step07.ptx
// RUN: FileCheck %s --check-prefix=STEP7-PROD < %t/s7/gemm_step07.ptx
// RUN: grep -cE "setmaxnreg.inc.sync.aligned.u32[[:space:]]+232;" %t/s7/gemm_step07.ptx | FileCheck %s --check-prefix=STEP7-INC
// RUN: grep -cE "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16" %t/s7/gemm_step07.ptx | FileCheck %s --check-prefix=STEP7-WGMMA
// RUN: FileCheck %s --check-prefix=STEP7-IR < %t/s7/gemm_step07.txlgir
// STEP7: .maxntid 384, 1, 1
// STEP7-NEXT: .minnctapersm 1
// STEP7: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// STEP7: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// STEP7: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP7: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP7: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP7: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP7-NOT: mbarrier.init
// The MMA warpgroup's hand-off: wait until the epilogue freed the buffer
// (acc_free, the last barrier), write the accumulator with its warpgroup
// barrier (14) around the stores, then every thread arrives on acc_ready
// (offset 32).
// STEP7-MMA: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP7-MMA: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP7-MMA: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP7-MMA: mbarrier.init.shared.b64 [%[[FREE:r[0-9]+]]], 128;
// STEP7-MMA-NOT: mbarrier.init
// STEP7-MMA: setmaxnreg.inc.sync.aligned.u32 232;
// STEP7-MMA: mbarrier.try_wait.parity.shared::cta.b64 p, [%[[FREE]]],
// STEP7-MMA: bar.sync 14, 128;
// STEP7-MMA-COUNT-64: st.shared.v2.b32
// STEP7-MMA-NEXT: fence.proxy.async.shared::cta;
// STEP7-MMA-NEXT: bar.sync 14, 128;
// STEP7-MMA: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [global_smem+32];
// The epilogue: wait acc_ready, read the tile, free the buffer (acc_free,
// offset 40) before waiting for the previous store and rewriting sC under
// its own warpgroup barrier (13), then the TMA store.
// STEP7-EPI: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP7-EPI: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP7-EPI: mbarrier.init.shared.b64 [%[[RDY:r[0-9]+]]], 128;
// STEP7-EPI: mbarrier.init.shared.b64 [%{{r[0-9]+}}], 128;
// STEP7-EPI-NOT: mbarrier.init
// STEP7-EPI: mbarrier.try_wait.parity.shared::cta.b64 p, [%[[RDY]]],
// STEP7-EPI-NOT: mbarrier
// STEP7-EPI-COUNT-128: ld.shared.b32
// STEP7-EPI-NOT: {{mbarrier|st.shared|cp.async}}
// STEP7-EPI: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [global_smem+40];
// STEP7-EPI-NOT: st.shared
// STEP7-EPI: cp.async.bulk.wait_group.read 0;
// STEP7-EPI-NOT: st.shared
// STEP7-EPI: bar.sync 13, 128;
// STEP7-EPI-NEXT: st.shared.b16
// STEP7-EPI: fence.proxy.async.shared::cta;
// STEP7-EPI-NEXT: bar.sync 13, 128;
// STEP7-EPI: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%[[DC:rd[0-9]+]], {%r{{[0-9]+}}, %[[ROW:r[0-9]+]]}], [global_smem+132096];
// STEP7-EPI: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%[[DC]], {%r{{[0-9]+}}, %[[ROW]]}], [global_smem+148480];
// STEP7-EPI-NEXT: cp.async.bulk.commit_group;
// The producer gives registers back and issues 32 KB of TMA per slice.
// STEP7-PROD: setmaxnreg.dec.sync.aligned.u32 40;
// STEP7-PROD: mbarrier.try_wait.parity.shared::cta.b64
// STEP7-PROD: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 32768;
// STEP7-PROD: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// STEP7-PROD: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// STEP7-INC: {{^}}2{{$}}
// STEP7-WGMMA: {{^}}8{{$}}
// STEP7-IR: %[[ACCS:[0-9]+]] = txlgpu.smem_alloc {{.*}} : <1x128x128xf32
// STEP7-IR-NEXT: %[[SACC:[0-9]+]] = txlgpu.memdesc_index %[[ACCS]][%c0_i32]
// STEP7-IR-NEXT: %[[CS:[0-9]+]] = txlgpu.smem_alloc {{.*}} : <1x128x128xf16
// STEP7-IR-NEXT: %[[SC:[0-9]+]] = txlgpu.memdesc_index %[[CS]][%c0_i32]
// STEP7-IR-NEXT: %[[FULL:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 1 : i32, {{.*}}} : <2xi64
// STEP7-IR-NEXT: %[[EMPTY:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 128 : i32, {{.*}}} : <2xi64
// STEP7-IR-NEXT: %[[RDYS:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 128 : i32, {{.*}}} : <1xi64
// STEP7-IR-NEXT: %[[RDY:[0-9]+]] = txlgpu.memdesc_index %[[RDYS]][%c0_i32]
// STEP7-IR-NEXT: %[[FREES:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 128 : i32, {{.*}}} : <1xi64
// STEP7-IR-NEXT: %[[FREE:[0-9]+]] = txlgpu.memdesc_index %[[FREES]][%c0_i32]
// Producer: smem-free wait with the flipped parity of round it // 2, then
// the expect and both loads on the stage's full barrier.
// STEP7-IR: %[[WG:[0-9]+]] = arith.shrui %{{[0-9]+}}, %c7_i32
// STEP7-IR-NEXT: %[[IS0:[0-9]+]] = arith.cmpi eq, %[[WG]], %c0_i32
// STEP7-IR-NEXT: scf.if %[[IS0]] {
// STEP7-IR-NEXT: nvvm.setmaxregister  decrease 40
// STEP7-IR: scf.for %{{arg[0-9]+}} = %c0_i32 to %{{[0-9]+}} step %c1_i32 iter_args(%[[PIT:arg[0-9]+]] = %{{arg[0-9]+}})
// STEP7-IR-NEXT: %[[PS:[0-9]+]] = arith.remsi %[[PIT]], %c2_i32
// STEP7-IR-NEXT: %[[PE:[0-9]+]] = txlgpu.memdesc_index %[[EMPTY]][%[[PS]]]
// STEP7-IR-NEXT: %[[PR:[0-9]+]] = arith.divsi %[[PIT]], %c2_i32
// STEP7-IR-NEXT: %[[PB:[0-9]+]] = arith.andi %[[PR]], %c1_i32
// STEP7-IR-NEXT: %[[PP:[0-9]+]] = arith.xori %[[PB]], %c1_i32
// STEP7-IR-NEXT: txlgpu.mbar_wait %[[PE]], %[[PP]]
// STEP7-IR-NEXT: %[[PF:[0-9]+]] = txlgpu.memdesc_index %[[FULL]][%[[PS]]]
// STEP7-IR-NEXT: txlgpu.mbar_expect %[[PF]], %c32768_i32
// STEP7-IR-NEXT: txlgpu.memdesc_index
// STEP7-IR-NEXT: arith.muli
// STEP7-IR-NEXT: txlgpu.tma_load %arg0[{{.*}}] -> %{{[0-9]+}}, %[[PF]]
// STEP7-IR-NEXT: txlgpu.memdesc_index
// STEP7-IR-NEXT: txlgpu.tma_load %arg1[{{.*}}] -> %{{[0-9]+}}, %[[PF]]
// MMA: data-ready wait with the round's parity, wgmma, wait 1, release the
// previous slice's stage ((it + 1) % 2) from every thread.
// STEP7-IR: %[[IS1:[0-9]+]] = arith.cmpi eq, %[[WG]], %c1_i32
// STEP7-IR-NEXT: scf.if %[[IS1]] {
// STEP7-IR-NEXT: nvvm.setmaxregister  increase 232
// STEP7-IR: scf.for {{.*}} iter_args(%{{arg[0-9]+}} = %c0_i32, %[[T:arg[0-9]+]] = %c0_i32)
// STEP7-IR-NEXT: scf.for %[[K:arg[0-9]+]] = {{.*}} iter_args(%[[ACC:arg[0-9]+]] = %cst, %[[MIT:arg[0-9]+]] = %{{arg[0-9]+}})
// STEP7-IR-NEXT: %[[MS:[0-9]+]] = arith.remsi %[[MIT]], %c2_i32
// STEP7-IR-NEXT: %[[MF:[0-9]+]] = txlgpu.memdesc_index %[[FULL]][%[[MS]]]
// STEP7-IR-NEXT: %[[MR:[0-9]+]] = arith.divsi %[[MIT]], %c2_i32
// STEP7-IR-NEXT: %[[MP:[0-9]+]] = arith.andi %[[MR]], %c1_i32
// STEP7-IR-NEXT: txlgpu.mbar_wait %[[MF]], %[[MP]]
// STEP7-IR: txlgpu.warp_group_dot %{{[0-9]+}}, %{{[0-9]+}}, %[[ACC]]
// STEP7-IR-NEXT: txlgpu.warp_group_dot_wait %{{[0-9]+}} {pendings = 1 : i32}
// STEP7-IR-NEXT: %[[NOTFIRST:[0-9]+]] = arith.cmpi sgt, %[[K]], %c0_i32
// STEP7-IR-NEXT: scf.if %[[NOTFIRST]] {
// STEP7-IR-NEXT: %[[N1:[0-9]+]] = arith.addi %[[MIT]], %c1_i32
// STEP7-IR-NEXT: %[[PREV:[0-9]+]] = arith.remsi %[[N1]], %c2_i32
// STEP7-IR-NEXT: %[[EB:[0-9]+]] = txlgpu.memdesc_index %[[EMPTY]][%[[PREV]]]
// STEP7-IR-NEXT: txlgpu.mbar_arrive %[[EB]] :
// The hand-off.
// STEP7-IR: %[[FIN:[0-9]+]] = txlgpu.warp_group_dot_wait %{{[0-9]+}}#0 {pendings = 0 : i32}
// STEP7-IR: txlgpu.mbar_arrive %{{[0-9]+}} :
// STEP7-IR-NEXT: %[[TB:[0-9]+]] = arith.andi %[[T]], %c1_i32
// STEP7-IR-NEXT: %[[TP:[0-9]+]] = arith.xori %[[TB]], %c1_i32
// STEP7-IR-NEXT: txlgpu.mbar_wait %[[FREE]], %[[TP]]
// STEP7-IR-NEXT: txlgpu.smem_store %[[FIN]], %[[SACC]]
// STEP7-IR-NEXT: txlgpu.mbar_arrive %[[RDY]] :
// Epilogue.
// STEP7-IR: %[[IS2:[0-9]+]] = arith.cmpi eq, %[[WG]], %c2_i32
// STEP7-IR-NEXT: scf.if %[[IS2]] {
// STEP7-IR-NEXT: nvvm.setmaxregister  increase 232
// STEP7-IR: scf.for {{.*}} iter_args(%[[ET:arg[0-9]+]] = %c0_i32)
// STEP7-IR: %[[EP:[0-9]+]] = arith.andi %[[ET]], %c1_i32
// STEP7-IR-NEXT: txlgpu.mbar_wait %[[RDY]], %[[EP]]
// STEP7-IR-NEXT: %[[V:[0-9]+]] = txlgpu.smem_load %[[SACC]]
// STEP7-IR-NEXT: txlgpu.mbar_arrive %[[FREE]] :
// STEP7-IR-NEXT: txlgpu.tma_store_wait {pendings = 0 : i32}
// STEP7-IR-NEXT: %[[H:[0-9]+]] = arith.truncf %[[V]]
// STEP7-IR-NEXT: txlgpu.smem_store %[[H]], %[[SC]]
// STEP7-IR-NEXT: txlgpu.tma_store %[[SC]] -> %arg2
// STEP7-IR: txlgpu.tma_store_wait {pendings = 0 : i32}
// STEP7-IR-NEXT: }
// STEP7-IR-NEXT: return

// Step 8: step 7 with NUM_STAGES = 4 (a kernel parameter): four stages of
// sA and sB (16 KB apart), four full barriers of one arrival and four empty
// barriers of 128, then the two accumulator barriers; every stage index and
// round is taken modulo / divided by 4 and the MMA warpgroup releases stage
// (it + 3) % 4. 128x128x64 at four stages is 230400 bytes of shared memory;
// five stages do not fit in 227 KB and the kernel's static_assert says so.
// RUN: txlc %tutorials/gemm/step08_deep_pipeline.py --kernel-name gemm_step08 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, i32, 128, 128, 64, 8, 4" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s8 > /dev/null
// RUN: FileCheck %s --check-prefix=STEP8 < %t/s8/gemm_step08.ptx
// RUN: FileCheck %s --check-prefix=STEP8-IR < %t/s8/gemm_step08.txlgir
// RUN: FileCheck %s --check-prefix=STEP8-META < %t/s8/gemm_step08.json
// RUN: not txlc %tutorials/gemm/step08_deep_pipeline.py --kernel-name gemm_step08 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, i32, 128, 128, 64, 8, 5" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s8big 2>&1 | FileCheck %s --check-prefix=STEP8-BIG
// STEP8: .maxntid 384, 1, 1
// STEP8-COUNT-4: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// STEP8-COUNT-4: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP8: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP8: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 128;
// STEP8-NOT: mbarrier.init
// STEP8-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// STEP8-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// STEP8-DAG: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 32768;
// STEP8-IR: txlgpu.num_warpgroups = 3 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 230400 : i32
// STEP8-IR: %[[SA:[0-9]+]] = txlgpu.smem_alloc {txlgpu.shared_offset = 1024 : i32} : <4x128x64xf16
// STEP8-IR-NEXT: %[[SB:[0-9]+]] = txlgpu.smem_alloc {txlgpu.shared_offset = 66560 : i32} : <4x128x64xf16
// STEP8-IR-NEXT: txlgpu.smem_alloc {txlgpu.shared_offset = 132096 : i32} : <1x128x128xf32
// STEP8-IR: txlgpu.smem_alloc {txlgpu.shared_offset = 197632 : i32} : <1x128x128xf16
// STEP8-IR: %[[FULL:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 1 : i32, {{.*}}} : <4xi64
// STEP8-IR-NEXT: %[[EMPTY:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 128 : i32, {{.*}}} : <4xi64
// Producer.
// STEP8-IR: nvvm.setmaxregister  decrease 40
// STEP8-IR: scf.for %{{arg[0-9]+}} = %c0_i32 to %{{[0-9]+}} step %c1_i32 iter_args(%[[PIT:arg[0-9]+]] = %{{arg[0-9]+}})
// STEP8-IR-NEXT: %[[PS:[0-9]+]] = arith.remsi %[[PIT]], %c4_i32
// STEP8-IR-NEXT: %[[PE:[0-9]+]] = txlgpu.memdesc_index %[[EMPTY]][%[[PS]]]
// STEP8-IR-NEXT: %[[PR:[0-9]+]] = arith.divsi %[[PIT]], %c4_i32
// STEP8-IR-NEXT: %[[PB:[0-9]+]] = arith.andi %[[PR]], %c1_i32
// STEP8-IR-NEXT: %[[PP:[0-9]+]] = arith.xori %[[PB]], %c1_i32
// STEP8-IR-NEXT: txlgpu.mbar_wait %[[PE]], %[[PP]]
// STEP8-IR-NEXT: %[[PF:[0-9]+]] = txlgpu.memdesc_index %[[FULL]][%[[PS]]]
// STEP8-IR-NEXT: txlgpu.mbar_expect %[[PF]], %c32768_i32
// STEP8-IR-NEXT: txlgpu.memdesc_index %[[SA]][%[[PS]]]
// STEP8-IR: txlgpu.memdesc_index %[[SB]][%[[PS]]]
// MMA warpgroup.
// STEP8-IR: nvvm.setmaxregister  increase 232
// STEP8-IR: scf.for %[[K:arg[0-9]+]] = {{.*}} iter_args(%{{arg[0-9]+}} = %cst, %[[MIT:arg[0-9]+]] = %{{arg[0-9]+}})
// STEP8-IR-NEXT: %[[MS:[0-9]+]] = arith.remsi %[[MIT]], %c4_i32
// STEP8-IR-NEXT: %[[MF:[0-9]+]] = txlgpu.memdesc_index %[[FULL]][%[[MS]]]
// STEP8-IR-NEXT: %[[MR:[0-9]+]] = arith.divsi %[[MIT]], %c4_i32
// STEP8-IR-NEXT: %[[MP:[0-9]+]] = arith.andi %[[MR]], %c1_i32
// STEP8-IR-NEXT: txlgpu.mbar_wait %[[MF]], %[[MP]]
// STEP8-IR: txlgpu.warp_group_dot_wait %{{[0-9]+}} {pendings = 1 : i32}
// STEP8-IR-NEXT: arith.cmpi sgt, %[[K]], %c0_i32
// STEP8-IR-NEXT: scf.if
// STEP8-IR-NEXT: %[[N3:[0-9]+]] = arith.addi %[[MIT]], %c3_i32
// STEP8-IR-NEXT: %[[PREV:[0-9]+]] = arith.remsi %[[N3]], %c4_i32
// STEP8-IR-NEXT: %[[EB:[0-9]+]] = txlgpu.memdesc_index %[[EMPTY]][%[[PREV]]]
// STEP8-IR-NEXT: txlgpu.mbar_arrive %[[EB]] :
// STEP8-IR: txlgpu.warp_group_dot_wait %{{[0-9]+}}#0 {pendings = 0 : i32}
// STEP8-IR-NEXT: %[[L3:[0-9]+]] = arith.addi %{{[0-9]+}}#1, %c3_i32
// STEP8-IR-NEXT: %[[LAST:[0-9]+]] = arith.remsi %[[L3]], %c4_i32
// STEP8-IR-NEXT: %[[LB:[0-9]+]] = txlgpu.memdesc_index %[[EMPTY]][%[[LAST]]]
// STEP8-IR-NEXT: txlgpu.mbar_arrive %[[LB]] :
// STEP8-META: "shared_bytes": 230400,
// STEP8-BIG: step08_deep_pipeline.py:{{[0-9]+}}:5: error: static_assert failed: NUM_STAGES stages of these blocks exceed the 227 KB of shared memory a CTA may have

// Step 10: a 128x256 CTA tile shared by two consumer warpgroups (1 and 2),
// each owning 64 rows: four m64n256k16 wgmmas per slice each, on its own
// 64-row view of the A stage (start 0 and start 64) and the whole B^T
// stage. Both wait on the same full barriers (count 1); the empty barriers
// count the arrivals of all 256 consumer threads. No epilogue warpgroup:
// each consumer waits for its previous store, writes its own 64x256 C
// buffer and TMA-stores it at rows off_m and off_m + 64 (C descriptor block
// [64, 256], four 64-column boxes each). 48 KB of TMA per slice, 3 stages.
// RUN: txlc %tutorials/gemm/step10_two_consumers.py --kernel-name gemm_step10 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[256, 64]>, tensordesc<fp16[64, 256]>, i32, i32, i32, i32, 128, 256, 64, 8, 3" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/s10 > /dev/null
// RUN: FileCheck %s --check-prefix=STEP10 < %t/s10/gemm_step10.ptx
// RUN: grep -cE "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16" %t/s10/gemm_step10.ptx | FileCheck %s --check-prefix=STEP10-WGMMA
// RUN: grep -cE "setmaxnreg.inc.sync.aligned.u32[[:space:]]+232;" %t/s10/gemm_step10.ptx | FileCheck %s --check-prefix=STEP10-INC
// RUN: FileCheck %s --check-prefix=STEP10-IR < %t/s10/gemm_step10.txlgir
// STEP10: .maxntid 384, 1, 1
// STEP10-COUNT-3: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// STEP10-COUNT-3: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 256;
// STEP10-NOT: mbarrier.init
// STEP10-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// STEP10-DAG: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 49152;
// STEP10-DAG: bar.sync 14, 128;
// STEP10-DAG: bar.sync 13, 128;
// STEP10-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [global_smem+148480];
// STEP10-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [global_smem+181248];
// STEP10-WGMMA: {{^}}8{{$}}
// STEP10-INC: {{^}}2{{$}}
// STEP10-IR: %[[SA:[0-9]+]] = txlgpu.smem_alloc {{.*}} : <3x128x64xf16
// STEP10-IR-NEXT: %[[SB:[0-9]+]] = txlgpu.smem_alloc {{.*}} : <3x256x64xf16
// STEP10-IR-NEXT: %[[SC:[0-9]+]] = txlgpu.smem_alloc {{.*}} : <2x64x256xf16
// STEP10-IR-NEXT: %[[FULL:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 1 : i32, {{.*}}} : <3xi64
// STEP10-IR-NEXT: %[[EMPTY:[0-9]+]] = txlgpu.mbar_alloc {arriveCount = 256 : i32, {{.*}}} : <3xi64
// Producer.
// STEP10-IR: nvvm.setmaxregister  decrease 40
// STEP10-IR: %[[PR:[0-9]+]] = arith.divsi %{{arg[0-9]+}}, %c3_i32
// STEP10-IR-NEXT: %[[PB:[0-9]+]] = arith.andi %[[PR]], %c1_i32
// STEP10-IR-NEXT: %[[PP:[0-9]+]] = arith.xori %[[PB]], %c1_i32
// STEP10-IR-NEXT: txlgpu.mbar_wait %{{[0-9]+}}, %[[PP]]
// STEP10-IR-NEXT: txlgpu.memdesc_index %[[FULL]]
// STEP10-IR-NEXT: txlgpu.mbar_expect %{{[0-9]+}}, %c49152_i32
// Consumer 0 (warpgroup 1): C buffer 0, A rows [0, 64).
// STEP10-IR: arith.cmpi eq, %{{[0-9]+}}, %c1_i32
// STEP10-IR-NEXT: scf.if
// STEP10-IR-NEXT: nvvm.setmaxregister  increase 232
// STEP10-IR-NEXT: %[[C0:[0-9]+]] = txlgpu.memdesc_index %[[SC]][%c0_i32]
// STEP10-IR: %[[OM0:[0-9]+]] = arith.muli %{{[0-9]+}}, %c128_i32
// STEP10-IR: %[[ON0:[0-9]+]] = arith.muli %{{[0-9]+}}, %c256_i32
// STEP10-IR: txlgpu.mbar_wait %{{[0-9]+}}, %{{[0-9]+}}
// STEP10-IR-NEXT: %[[A0:[0-9]+]] = txlgpu.memdesc_index %[[SA]]
// STEP10-IR-NEXT: %[[H0:[0-9]+]] = txlgpu.memdesc_view %[[A0]] {dim = 0 : i64, permutation = array<i32: 0, 1>, start = 0 : i64} : <128x64xf16, {{.*}}> -> <64x64xf16
// STEP10-IR: txlgpu.warp_group_dot %[[H0]], %{{[0-9]+}}, %{{arg[0-9]+}} {{.*}} -> tensor<64x256xf32
// STEP10-IR-NEXT: txlgpu.warp_group_dot_wait %{{[0-9]+}} {pendings = 1 : i32}
// STEP10-IR: txlgpu.memdesc_index %[[EMPTY]]
// STEP10-IR-NEXT: txlgpu.mbar_arrive %{{[0-9]+}} :
// STEP10-IR: txlgpu.warp_group_dot_wait %{{[0-9]+}}#0 {pendings = 0 : i32}
// STEP10-IR: txlgpu.mbar_arrive %{{[0-9]+}} :
// STEP10-IR-NEXT: txlgpu.tma_store_wait {pendings = 0 : i32}
// STEP10-IR-NEXT: arith.truncf
// STEP10-IR-NEXT: txlgpu.smem_store %{{[0-9]+}}, %[[C0]]
// STEP10-IR-NEXT: txlgpu.tma_store %[[C0]] -> %arg2[%[[OM0]], %[[ON0]]]
// Consumer 1 (warpgroup 2): C buffer 1, A rows [64, 128), stored at +64.
// STEP10-IR: arith.cmpi eq, %{{[0-9]+}}, %c2_i32
// STEP10-IR-NEXT: scf.if
// STEP10-IR-NEXT: nvvm.setmaxregister  increase 232
// STEP10-IR-NEXT: %[[C1:[0-9]+]] = txlgpu.memdesc_index %[[SC]][%c1_i32]
// STEP10-IR: %[[OM1:[0-9]+]] = arith.muli %{{[0-9]+}}, %c128_i32
// STEP10-IR: %[[ON1:[0-9]+]] = arith.muli %{{[0-9]+}}, %c256_i32
// STEP10-IR: txlgpu.mbar_wait %{{[0-9]+}}, %{{[0-9]+}}
// STEP10-IR-NEXT: %[[A1:[0-9]+]] = txlgpu.memdesc_index %[[SA]]
// STEP10-IR-NEXT: %[[H1:[0-9]+]] = txlgpu.memdesc_view %[[A1]] {dim = 0 : i64, permutation = array<i32: 0, 1>, start = 64 : i64} : <128x64xf16, {{.*}}> -> <64x64xf16
// STEP10-IR: txlgpu.warp_group_dot %[[H1]], %{{[0-9]+}}, %{{arg[0-9]+}} {{.*}} -> tensor<64x256xf32
// STEP10-IR-NEXT: txlgpu.warp_group_dot_wait %{{[0-9]+}} {pendings = 1 : i32}
// STEP10-IR: txlgpu.memdesc_index %[[EMPTY]]
// STEP10-IR-NEXT: txlgpu.mbar_arrive %{{[0-9]+}} :
// STEP10-IR: txlgpu.warp_group_dot_wait %{{[0-9]+}}#0 {pendings = 0 : i32}
// STEP10-IR: txlgpu.mbar_arrive %{{[0-9]+}} :
// STEP10-IR-NEXT: txlgpu.tma_store_wait {pendings = 0 : i32}
// STEP10-IR-NEXT: arith.truncf
// STEP10-IR-NEXT: txlgpu.smem_store %{{[0-9]+}}, %[[C1]]
// STEP10-IR-NEXT: %[[ROW1:[0-9]+]] = arith.addi %[[OM1]], %c64_i32
// STEP10-IR-NEXT: txlgpu.tma_store %[[C1]] -> %arg2[%[[ROW1]], %[[ON1]]]
// STEP10-IR: txlgpu.tma_store_wait {pendings = 0 : i32}
// STEP10-IR-NEXT: }
// STEP10-IR-NEXT: return
