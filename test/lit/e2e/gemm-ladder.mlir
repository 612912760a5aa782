// End-to-end: GEMM ladder steps 1-3 (tutorials/gemm) compile for sm_90a
// and ptxas (or nvJitLink) accepts them. Each step is checked for what it
// adds: step 1 one synchronous copy and one wgmma group, no loop and no
// barrier; step 2 a K loop whose accumulator starts at zero and is carried,
// and an mbarrier waited on with a parity that flips every iteration; step 3
// a 2-D grid and masked (ragged-edge) loads and stores.
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
// STEP2: mbarrier.try_wait.parity.shared.b64 {{.*}}, [%r{{[0-9]+}}], %[[PH:r[0-9]+]],
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
// STEP3: mbarrier.try_wait.parity.shared.b64 {{.*}}, [%r{{[0-9]+}}], %[[PH:r[0-9]+]],
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
