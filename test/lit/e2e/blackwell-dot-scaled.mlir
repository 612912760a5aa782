// End-to-end: tl.dot_scaled on sm_100a is block-scaled tcgen05 (DotScaled.cpp,
// txlgpu.tcgen05_mma_scaled), assembled by ptxas; no Blackwell GPU runs it
// (docs/blackwell.md).
//
// One call outside a loop (Triton's test_scaled_dot kernel shape) is
// synchronous: A, B (K-major, swizzled) and both scale tiles are written to
// shared memory and published (fence.proxy.async, bar.sync); the elected
// lane of warp 0 fences, copies the scales to tensor memory
// (tcgen05.cp.32x128b.warpx4, before any MMA), issues the block-scaled MMAs
// (useD false: no accumulator) and commits them; every thread arrives on
// the call site's barrier (threads + 1 = 129), spins on its own arrival's
// phase, fences (after_thread_sync) and only then reads the accumulator
// (tcgen05.ld). The instruction descriptors (TCGen05.h; test/unit/
// TCGen05Test.cpp derives them from the PTX ISA tables): e4m3 x e4m3,
// N = 128: 0x08A00000 + ID * 0x20000010 for K groups 0-3 = 144703488,
// 681574416, 1218445344, 1755316272.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name triton_test_core_kernel --signature "*u8, i32, i32, *u8, *u8, i32, i32, *u8, *bf16, 128, 128, 128, 'e4m3', 'e4m3'" --num-warps 4 --target sm_100a --out-dir %t/one --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=SYNC --input-file %t/one/triton_test_core_kernel.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/one/triton_test_core_kernel.ptx -o %t/one/ptxas.cubin; fi'
// SYNC: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// SYNC: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 129;
// SYNC-NOT: tcgen05.st.sync
// SYNC: fence.proxy.async.shared::cta;
// SYNC-NEXT: bar.sync 0;
// SYNC-NOT: tcgen05.mma
// SYNC: elect.sync
// SYNC: @%p{{[0-9]+}} bra [[SKIP:\$L__BB[0-9_]+]];
// SYNC-NOT: tcgen05
// SYNC: tcgen05.fence::after_thread_sync;
// SYNC-NOT: tcgen05.mma
// SYNC-COUNT-2: tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+[-+0-9]*}}], %rd{{[0-9]+}};
// SYNC-NOT: tcgen05.cp
// SYNC: mov.b32 [[I0:%r[0-9]+]], 144703488;
// SYNC-NEXT: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[I0]], [[SA:\[%r[0-9]+[-+0-9]*\]]], [[SB:\[%r[0-9]+[-+0-9]*\]]], [[NOACC:%p[0-9]+]];
// SYNC: mov.b32 [[I1:%r[0-9]+]], 681574416;
// SYNC-NEXT: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[I1]], [[SA]], [[SB]], [[ACC:%p[0-9]+]];
// SYNC: mov.b32 [[I2:%r[0-9]+]], 1218445344;
// SYNC-NEXT: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[I2]], [[SA]], [[SB]], [[ACC]];
// SYNC: mov.b32 [[I3:%r[0-9]+]], 1755316272;
// SYNC-NEXT: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[I3]], [[SA]], [[SB]], [[ACC]];
// SYNC-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [[BAR:\[global_smem\+[0-9]+\]]];
// SYNC-NEXT: [[SKIP]]:
// SYNC-NOT: tcgen05
// SYNC: mbarrier.arrive.shared.b64 [[TOKEN:%rd[0-9]+]], [[BAR]];
// SYNC-NEXT: [[SPIN:\$L__BB[0-9_]+]]:
// SYNC-NEXT: mbarrier.try_wait.shared.b64 [[DONE:%p[0-9]+]], [[BAR]], [[TOKEN]];
// SYNC: @%p{{[0-9]+}} bra [[SPIN]];
// SYNC-NEXT: tcgen05.fence::after_thread_sync;
// SYNC-NOT: {{tcgen05|bar.sync|mbarrier}}
// SYNC: tcgen05.ld.sync.aligned.32x32b
// SYNC-NOT: tcgen05.mma
// SYNC: tcgen05.dealloc

// In a K loop that accumulates (test/gpu's scaled_matmul, unchanged) the
// MMAs are pipelined as a plain tl.dot's register-staged loop is
// (txlgpu-pipeline-tcgen05-dots): the accumulator is stored to tensor
// memory once before the loop and read once after it; A, B and both scale
// tiles go to two shared stages, and the scales' tensor-memory columns
// have two stages too; each trip first waits for the commit of the MMAs two
// trips back (the last readers of its stage: try_wait.parity on a ring of
// two barriers of count 1), then writes its stage, publishes it, and the
// elected thread copies the scales and issues the MMAs (e4m3 x e5m2:
// 0x08A00400 + ID * 0x20000010) and commits them to the stage's barrier,
// which nobody waits for in that trip. After the loop every thread waits
// for the last commit, fences and reads the accumulator.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name scaled_matmul --signature "*u8, i32, i32, *u8, *u8, i32, i32, *u8, *fp32, i32, i32, i32, 'e4m3', 'e5m2', 128, 128, 128, True, True, False" --num-warps 4 --target sm_100a --out-dir %t/f8 --no-cubin > /dev/null
// RUN: FileCheck %s --input-file %t/f8/scaled_matmul.ptx
// RUN: FileCheck %s --check-prefix=IR --input-file %t/f8/scaled_matmul.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/f8/scaled_matmul.ptx -o %t/f8/ptxas.cubin; fi'

// CHECK-COUNT-2: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// CHECK-NOT: mbarrier.init
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// CHECK: tcgen05.st.sync.aligned.32x32b
// CHECK-NOT: tcgen05.ld
// CHECK: [[LOOP:\$L__BB[0-9_]+]]:
// CHECK-NOT: tcgen05.ld
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK-NOT: tcgen05.ld
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: tcgen05.mma
// CHECK: elect.sync
// CHECK-NOT: tcgen05.mma
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK-NOT: tcgen05.mma
// CHECK: tcgen05.cp.cta_group::1.32x128b.warpx4
// CHECK-NOT: tcgen05.mma
// CHECK: tcgen05.cp.cta_group::1.32x128b.warpx4
// CHECK-NOT: tcgen05.cp
// CHECK: mov.b32 [[I0:%r[0-9]+]], 144704512;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[I0]], [[SA:\[%r[0-9]+[-+0-9]*\]]], [[SB:\[%r[0-9]+[-+0-9]*\]]], %p{{[0-9]+}};
// CHECK: mov.b32 [[I1:%r[0-9]+]], 681575440;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[I1]], [[SA]], [[SB]]
// CHECK: mov.b32 [[I2:%r[0-9]+]], 1218446368;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[I2]], [[SA]], [[SB]]
// CHECK: mov.b32 [[I3:%r[0-9]+]], 1755317296;
// CHECK-NEXT: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[I3]], [[SA]], [[SB]]
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%rd{{[0-9]+}}];
// CHECK-NOT: mbarrier.arrive
// CHECK-NOT: tcgen05.ld
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK-NOT: tcgen05
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK-NOT: {{tcgen05|bar.sync|mbarrier}}
// CHECK: tcgen05.ld.sync.aligned.32x32b
// CHECK-NOT: tcgen05.mma
// CHECK: tcgen05.dealloc

// The txlgir has the ring, the accumulator's 128 columns and two stages of four
// columns per scale tile (four K groups of 128 rows), the accumulator
// stored once before the loop, two shared stages of each tile (the scale
// tiles 512 bytes in tcgen05.cp's order, rearranged in registers), the
// stage wait before the stores, the MMA committing to the ring, and the
// accumulator read once after the loop.
// IR: txlgpu.mbar_alloc {arriveCount = 1 : i32{{.*}}} : <2xi64, #txlgpu.barrier>
// IR: txlgpu.tmem_alloc {allocColumns = 256 : i32, column = 0 : i32{{.*}}} : <1x128x128xf32, #txlgpu.tensor_memory>
// IR: txlgpu.tmem_alloc {column = 128 : i32{{.*}}} : <2x128x4xi32, #txlgpu.tensor_memory>
// IR: txlgpu.tmem_alloc {column = 136 : i32{{.*}}} : <2x128x4xi32, #txlgpu.tensor_memory>
// IR: txlgpu.tmem_store
// IR: txlgpu.smem_alloc {txlgpu.loop_staging{{.*}}} : <2x128x128xf8E4M3FN
// IR: txlgpu.smem_alloc {txlgpu.loop_staging{{.*}}} : <2x128x128xf8E5M2
// IR: txlgpu.smem_alloc {txlgpu.loop_staging{{.*}}} : <2x32x16xi8, #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 8, order = [1, 0]}>>
// IR: txlgpu.smem_alloc {txlgpu.loop_staging{{.*}}} : <2x32x16xi8, #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 8, order = [1, 0]}>>
// IR: scf.for
// IR-NOT: tmem_load
// IR: txlgpu.mbar_wait
// IR: txl.trans %{{.*}} {order = array<i32: 3, 0, 2, 1, 4>} : tensor<1x4x32x1x4xi8
// IR: txlgpu.tcgen05_mma_scaled {{.*}} {aFormat = "e4m3", bFormat = "e5m2", leaderWarp = 0 : i32} : <128x128xf8E4M3FN, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 8, order = [1, 0]}>> * <128x128xf8E5M2, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 8, order = [0, 1]}>>
// IR-NOT: tmem_load
// IR: txlgpu.mbar_wait
// IR: txlgpu.tmem_load
// IR-NOT: txl.dot

// e2m1 x e2m1 packed along K is kind::mxf4: K = 128 elements is two MMAs of
// K = 64, the second naming the second halfword of each scale column (data
// IDs 2): (1 << 7 | 1 << 10 | 8 << 17 | 1 << 23 | 1 << 27) = 143656064,
// + 2 << 29 + 2 << 4 = 1217397920. N = 64: B's scales still take a
// 128-row tile (rows past N are never read).
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name scaled_matmul --signature "*u8, i32, i32, *u8, *u8, i32, i32, *u8, *fp32, i32, i32, i32, 'e2m1', 'e2m1', 128, 64, 128, True, True, False" --num-warps 4 --target sm_100a --out-dir %t/f4 --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=FP4 --input-file %t/f4/scaled_matmul.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/f4/scaled_matmul.ptx -o %t/f4/ptxas.cubin; fi'
// FP4: elect.sync
// FP4: tcgen05.fence::after_thread_sync;
// FP4-NOT: tcgen05.mma
// FP4-COUNT-2: tcgen05.cp.cta_group::1.32x128b.warpx4
// FP4-NOT: tcgen05.cp
// FP4: mov.b32 [[J0:%r[0-9]+]], 143656064;
// FP4-NEXT: tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[J0]],
// FP4: mov.b32 [[J1:%r[0-9]+]], 1217397920;
// FP4-NEXT: tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[J1]],
// FP4-NEXT: tcgen05.commit
// FP4-NOT: tcgen05.mma

// 8 warps, N = 256, e5m2 x e4m3, K = 64: B's scales are 256 rows, two
// copies (columns 0-3 and 4-7 of its stage); the ring's barriers count 1.
// (1 << 7 | 32 << 17 | 1 << 23 | 1 << 27) = 146800768, + ID 1: 683671696.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name scaled_matmul --signature "*u8, i32, i32, *u8, *u8, i32, i32, *u8, *fp32, i32, i32, i32, 'e5m2', 'e4m3', 128, 256, 64, True, True, True" --num-warps 8 --target sm_100a --out-dir %t/w8 --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=W8 --input-file %t/w8/scaled_matmul.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/w8/scaled_matmul.ptx -o %t/w8/ptxas.cubin; fi'
// W8-COUNT-2: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// W8-NOT: mbarrier.init
// W8: tcgen05.fence::after_thread_sync;
// W8-COUNT-3: tcgen05.cp.cta_group::1.32x128b.warpx4
// W8-NOT: tcgen05.cp
// W8: mov.b32 {{%r[0-9]+}}, 146800768;
// W8-NEXT: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32
// W8: mov.b32 {{%r[0-9]+}}, 683671696;
// W8-NEXT: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32
// W8-NEXT: tcgen05.commit

// What the instruction cannot take keeps the upcast path (operands scaled
// in registers, then a plain bf16 tl.dot, which sm_100a issues as
// kind::f16): e2m1 against e4m3 (mxf8f6f4 would need e2m1 padded to a byte
// per element in shared memory), a missing scale, and M = 64.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name scaled_matmul --signature "*u8, i32, i32, *u8, *u8, i32, i32, *u8, *fp32, i32, i32, i32, 'e2m1', 'e4m3', 128, 128, 128, True, True, False" --num-warps 4 --target sm_100a --out-dir %t/mixed --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=UPCAST --input-file %t/mixed/scaled_matmul.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/mixed/scaled_matmul.ptx -o %t/mixed/ptxas.cubin; fi'
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name scaled_matmul --signature "*u8, i32, i32, none, *u8, i32, i32, *u8, *fp32, i32, i32, i32, 'e4m3', 'e4m3', 128, 128, 128, True, True, False" --num-warps 4 --target sm_100a --out-dir %t/noscale --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=UPCAST --input-file %t/noscale/scaled_matmul.ptx
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name scaled_matmul --signature "*u8, i32, i32, *u8, *u8, i32, i32, *u8, *fp32, i32, i32, i32, 'e4m3', 'e4m3', 64, 128, 128, True, True, False" --num-warps 4 --target sm_100a --out-dir %t/m64 --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=UPCAST --input-file %t/m64/scaled_matmul.ptx
// UPCAST-NOT: block_scale
// UPCAST-NOT: tcgen05.cp
// UPCAST: tcgen05.mma.cta_group::1.kind::f16
// UPCAST-NOT: block_scale

// The same source on sm_90a is the decomposition with wgmma, as before.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name scaled_matmul --signature "*u8, i32, i32, *u8, *u8, i32, i32, *u8, *fp32, i32, i32, i32, 'e4m3', 'e5m2', 128, 128, 128, True, True, False" --num-warps 4 --target sm_90a --out-dir %t/90 --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=HOPPER --input-file %t/90/scaled_matmul.ptx
// HOPPER-NOT: tcgen05
// HOPPER: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// HOPPER-NOT: tcgen05
