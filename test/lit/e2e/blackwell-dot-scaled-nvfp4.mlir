// End-to-end: tl.dot_scaled in NVIDIA's nvfp4 (e2m1 operands packed along
// K, float8e4nv scales, one per 16 K elements) on sm_100a is
// tcgen05.mma kind::mxf4nvf4 with .block16 (= scale_vec::4X), assembled by
// ptxas; no Blackwell GPU runs it (docs/blackwell.md). Each MMA of K = 64
// reads four UE4M3 factors per row: one whole 32-bit scale column (data
// IDs 0), and the descriptor's scale type (bit 23) is 0 = UE4M3:
// N = 128: 1 << 7 | 1 << 10 | 16 << 17 | 1 << 27 = 136316032;
// N = 64:  1 << 7 | 1 << 10 |  8 << 17 | 1 << 27 = 135267456.
//
// One call outside a loop (synchronous), K = 128: the scale tiles are
// [128, 8] factors padded to 128 x 8 bytes = two 512-byte copies each, two
// MMAs naming consecutive scale columns.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name nvfp4_tile --signature "*u8, *fp8e4nv, *u8, *fp8e4nv, *fp32, 128, 128, 128" --num-warps 4 --target sm_100a --out-dir %t/one --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=SYNC --input-file %t/one/nvfp4_tile.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/one/nvfp4_tile.ptx -o %t/one/ptxas.cubin; fi'
// SYNC: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 129;
// SYNC: elect.sync
// SYNC: tcgen05.fence::after_thread_sync;
// SYNC-NOT: tcgen05.mma
// SYNC-COUNT-4: tcgen05.cp.cta_group::1.32x128b.warpx4
// SYNC-NOT: tcgen05.cp
// SYNC: mov.b32 [[D:%r[0-9]+]], 136316032;
// SYNC-NEXT: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[D]], [%r{{[0-9]+}}], [%r{{[0-9]+}}], %p{{[0-9]+}};
// SYNC: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[D]],
// SYNC-NEXT: tcgen05.commit
// SYNC-NOT: tcgen05.mma
// SYNC: mbarrier.try_wait.shared.b64
// SYNC: tcgen05.ld.sync.aligned.32x32b

// A K loop (BLOCK_K = 256: four MMAs, sixteen factors per row = four
// columns per scale tile and stage) is pipelined like the e8m0 kinds: two
// stages of every shared tile, the scale tiles typed f8E4M3FN (which is
// what makes the MMA kind::mxf4nvf4), the ring's barriers counting 1.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name nvfp4_matmul --signature "*u8, *fp8e4nv, *u8, *fp8e4nv, *fp32, i32, i32, i32, 128, 64, 256" --num-warps 4 --target sm_100a --out-dir %t/loop --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=LOOP --input-file %t/loop/nvfp4_matmul.ptx
// RUN: FileCheck %s --check-prefix=IR --input-file %t/loop/nvfp4_matmul.txlgir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_100a %t/loop/nvfp4_matmul.ptx -o %t/loop/ptxas.cubin; fi'
// LOOP-COUNT-2: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// LOOP-NOT: mbarrier.init
// LOOP: tcgen05.fence::after_thread_sync;
// LOOP-COUNT-8: tcgen05.cp.cta_group::1.32x128b.warpx4
// LOOP-NOT: tcgen05.cp
// LOOP: mov.b32 [[D:%r[0-9]+]], 135267456;
// LOOP-NEXT: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[D]],
// LOOP-COUNT-3: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[D]],
// LOOP-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// LOOP-NOT: tcgen05.mma
// LOOP: tcgen05.ld.sync.aligned.32x32b
// IR: txlgpu.smem_alloc {txlgpu.loop_staging{{.*}}} : <2x128x16xf8E4M3FN, #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 8, order = [1, 0]}>>
// IR: txlgpu.smem_alloc {txlgpu.loop_staging{{.*}}} : <2x128x16xf8E4M3FN, #txlgpu.nvmma_shared<{swizzle = 0, elemBits = 8, order = [1, 0]}>>
// IR: scf.for
// IR: txlgpu.tcgen05_mma_scaled {{.*}} {aFormat = "e2m1", bFormat = "e2m1", leaderWarp = 0 : i32} : <128x128xi8, {{.*}}> * <128x64xi8, {{.*}}> -> <128x64xf32, #txlgpu.tensor_memory>, <128x16xf8E4M3FN
// IR-NOT: txl.dot

// BLOCK_K = 32 (16 bytes, less than one MMA) keeps the upcast path: the
// factors converted from e4m3 and multiplied in, then a plain bf16 dot.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name nvfp4_matmul --signature "*u8, *fp8e4nv, *u8, *fp8e4nv, *fp32, i32, i32, i32, 128, 64, 32" --num-warps 4 --target sm_100a --out-dir %t/k32 --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=UPCAST --input-file %t/k32/nvfp4_matmul.ptx
// UPCAST-NOT: block_scale
// UPCAST: tcgen05.mma.cta_group::1.kind::f16
// UPCAST-NOT: block_scale

// On sm_90a the same source is the decomposition: e4m3 factors converted
// to bf16 (cvt from e4m3x2), one per 16 elements, and wgmma.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name nvfp4_matmul --signature "*u8, *fp8e4nv, *u8, *fp8e4nv, *fp32, i32, i32, i32, 128, 128, 128" --num-warps 4 --target sm_90a --out-dir %t/90 --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=HOPPER --input-file %t/90/nvfp4_matmul.ptx
// RUN: FileCheck %s --check-prefix=HOPPER-IR --input-file %t/90/nvfp4_matmul.txlir
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_90a %t/90/nvfp4_matmul.ptx -o %t/90/ptxas.cubin; fi'
// HOPPER-NOT: tcgen05
// HOPPER: cvt.rn.f16x2.e4m3x2
// HOPPER: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// HOPPER-NOT: tcgen05
// HOPPER-IR: tensor<128x8x16xf8E4M3FN

// sm_80 has no fp8 cvt: the factors are rebuilt from their bits (exponent
// rebiased, subnormals m * 2**-9), and the dot is mma.sync.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name nvfp4_matmul --signature "*u8, *fp8e4nv, *u8, *fp8e4nv, *fp32, i32, i32, i32, 64, 64, 64" --num-warps 4 --target sm_80 --out-dir %t/80 --no-cubin > /dev/null
// RUN: FileCheck %s --check-prefix=AMPERE --input-file %t/80/nvfp4_matmul.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then ptxas -arch=sm_80 %t/80/nvfp4_matmul.ptx -o %t/80/ptxas.cubin; fi'
// AMPERE-NOT: e4m3
// AMPERE: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// AMPERE-NOT: e4m3
