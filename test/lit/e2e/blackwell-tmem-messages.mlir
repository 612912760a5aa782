// End-to-end, sm_100a (no Blackwell GPU runs any of it; docs/blackwell.md):
// tensor memory read and written with each tcgen05.ld/st message shape the
// kernel names (tmem_load/tmem_store layout=), fp32 and fp16; an M = 64
// txl.dotx and an M = 64 plain tl.dot (examples/matmul.py, BLOCK_M = 64)
// whose [64, N] accumulators are read with the widest 16-lane shape; and
// tcgen05.cp (txl.tmem_copy) feeding an MMA from tensor memory. Every
// kernel is assembled by ptxas -arch=sm_100a. The register layouts
// themselves are checked against the PTX ISA's fragment tables in
// test/unit/LinearLayoutTest.cpp (Tmem.MessageLayouts).
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../Inputs/tmem_messages.py --kernel-name tmem_16x64b --signature "*fp32:16, *fp32:16, 64" --num-warps 4 --target sm_100a --out-dir %t/a > /dev/null
// RUN: FileCheck %s --check-prefix=M64B --input-file %t/a/tmem_16x64b.ptx
// RUN: txlc %S/../Inputs/tmem_messages.py --kernel-name tmem_16x128b --signature "*fp32:16, *fp32:16, 64" --num-warps 8 --target sm_100a --out-dir %t/b > /dev/null
// RUN: FileCheck %s --check-prefix=M128B --input-file %t/b/tmem_16x128b.ptx
// RUN: txlc %S/../Inputs/tmem_messages.py --kernel-name tmem_16x256b --signature "*fp32:16, *fp32:16, 64" --num-warps 4 --target sm_100a --out-dir %t/c > /dev/null
// RUN: FileCheck %s --check-prefix=M256B --input-file %t/c/tmem_16x256b.ptx
// RUN: txlc %S/../Inputs/tmem_messages.py --kernel-name tmem_16x256b_fp16 --signature "*fp16:16, *fp16:16, 64" --num-warps 4 --target sm_100a --out-dir %t/d > /dev/null
// RUN: FileCheck %s --check-prefix=HALF --input-file %t/d/tmem_16x256b_fp16.ptx
// RUN: txlc %S/../Inputs/tmem_messages.py --kernel-name dotx_m64 --signature "*fp16:16, *fp16:16, *fp16:16, 128, 64" --num-warps 4 --target sm_100a --out-dir %t/e > /dev/null
// RUN: FileCheck %s --check-prefix=DOTX64 --input-file %t/e/dotx_m64.ptx
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 64, 128, 64, 8" --num-warps 4 --target sm_100a --out-dir %t/f > /dev/null
// RUN: FileCheck %s --check-prefix=DOT64 --input-file %t/f/matmul_kernel.ptx
// RUN: txlc %S/../Inputs/tmem_messages.py --kernel-name tmem_copy_a --signature "*fp16:16, *fp16:16, *fp16:16, 128, 64" --num-warps 4 --target sm_100a --out-dir %t/g > /dev/null
// RUN: FileCheck %s --check-prefix=COPY --input-file %t/g/tmem_copy_a.ptx
// RUN: txlc %S/../Inputs/tmem_messages.py --kernel-name tmem_copy_wait --signature "*fp32:16, *fp32:16, 32" --num-warps 4 --target sm_100a --out-dir %t/h > /dev/null
// RUN: FileCheck %s --check-prefix=COPYWAIT --input-file %t/h/tmem_copy_wait.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then for k in a/tmem_16x64b b/tmem_16x128b c/tmem_16x256b d/tmem_16x256b_fp16 e/dotx_m64 f/matmul_kernel g/tmem_copy_a h/tmem_copy_wait; do ptxas -arch=sm_100a %t/$k.ptx -o %t/$k.cubin || exit 1; done; fi'

// Named shapes, [128, 64] fp32, 4 warps: each warp moves its 32 lanes as two
// 16-lane messages (the second at lane + 16: 16 << 16 = 1048576), every
// repetition in one .num (16x64b: 32 x 2 columns; 16x256b: 8 x 8).
// M64B-COUNT-2: tcgen05.st.sync.aligned.16x64b.x32.b32
// M64B-COUNT-2: tcgen05.ld.sync.aligned.16x64b.x32.b32
// 8 warps: each warpgroup holds 32 of the 64 columns, 16x128b.x8 = 32.
// M128B: .maxntid 256
// M128B-COUNT-2: tcgen05.st.sync.aligned.16x128b.x8.b32
// M128B-COUNT-2: tcgen05.ld.sync.aligned.16x128b.x8.b32
// M256B: tcgen05.st.sync.aligned.16x256b.x8.b32 [[[BASE:%r[0-9]+]]]
// M256B-NEXT: add.s32 [[HI:%r[0-9]+]], [[BASE]], 1048576;
// M256B-NEXT: tcgen05.st.sync.aligned.16x256b.x8.b32 [[[HI]]]
// M256B: tcgen05.wait::st.sync.aligned;
// M256B: tcgen05.ld.sync.aligned.16x256b.x8.b32 {{.*}}, [[[BASE]]];
// M256B: tcgen05.ld.sync.aligned.16x256b.x8.b32 {{.*}}, [[[HI]]];
// M256B: tcgen05.wait::ld.sync.aligned;
// fp16 elements two to a 32-bit column: 64 halves are 32 columns, x4.
// HALF-COUNT-2: tcgen05.st.sync.aligned.16x256b.x4.b32
// HALF-COUNT-2: tcgen05.ld.sync.aligned.16x256b.x4.b32

// M = 64 dotx: instruction descriptor 0x4200010 (f32 D, f16 A/B, both
// K-major, N >> 3 = 16 at bit 17, M >> 4 = 4 at bit 24), four K = 16 MMAs
// by one elected thread; the [64, 128] accumulator (lanes 0-15 of each
// quarter) is read by 16-lane messages only, 64 columns each.
// DOTX64: elect.sync
// DOTX64: mov.b32 [[IDESC:%r[0-9]+]], 69206032;
// DOTX64-COUNT-4: tcgen05.mma.cta_group::1.kind::f16{{.*}}, [[IDESC]],
// DOTX64: tcgen05.commit.cta_group::1
// DOTX64: tcgen05.fence::after_thread_sync;
// DOTX64-NEXT: shl.b32 [[Q:%r[0-9]+]], {{%r[0-9]+}}, 21;
// DOTX64-NEXT: add.s32 [[AT:%r[0-9]+]], {{%r[0-9]+}}, [[Q]];
// DOTX64-NEXT: tcgen05.ld.sync.aligned.16x256b.x8.b32 {{.*}}, [[[AT]]];
// DOTX64: add.s32 [[AT2:%r[0-9]+]], [[AT]], 64;
// DOTX64-NEXT: tcgen05.ld.sync.aligned.16x256b.x8.b32 {{.*}}, [[[AT2]]];
// DOTX64-NOT: tcgen05.ld.sync.aligned.32x32b

// examples/matmul.py with BLOCK_M = 64: the plain dot is an M = 64 tcgen05
// MMA (descriptor 0x4210010: B N-major) whose accumulator is stored and
// read back with 16x256b messages, never 32x32b.
// DOT64-NOT: tcgen05.st.sync.aligned.32x32b
// DOT64: tcgen05.st.sync.aligned.16x256b.x8.b32
// DOT64: mov.b32 [[IDESC:%r[0-9]+]], 69271568;
// DOT64: tcgen05.mma.cta_group::1.kind::f16{{.*}}, [[IDESC]],
// DOT64: tcgen05.ld.sync.aligned.16x256b.x8.b32
// DOT64-NOT: tcgen05.ld.sync.aligned.32x32b

// tmem_copy: one elected thread copies A's 128 bytes per row in four
// 128x256b copies, 8 columns apart, then issues the MMAs reading A from
// tensor memory (the same TMEM address) and commits.
// COPY: elect.sync
// COPY: tcgen05.fence::after_thread_sync;
// COPY-NEXT: tcgen05.cp.cta_group::1.128x256b [[[A:%r[0-9]+]]], %rd{{[0-9]+}};
// COPY-NEXT: or.b64
// COPY-NEXT: tcgen05.cp.cta_group::1.128x256b [[[A]]+8], %rd{{[0-9]+}};
// COPY-NEXT: or.b64
// COPY-NEXT: tcgen05.cp.cta_group::1.128x256b [[[A]]+16], %rd{{[0-9]+}};
// COPY-NEXT: or.b64
// COPY-NEXT: tcgen05.cp.cta_group::1.128x256b [[[A]]+24], %rd{{[0-9]+}};
// COPY-NOT: tcgen05.cp
// COPY: elect.sync
// COPY: tcgen05.mma.cta_group::1.kind::f16{{.*}} [{{%r[0-9]+}}], [[[A]]],
// COPY: tcgen05.commit.cta_group::1
// A copy the threads read themselves: committed to the barrier they wait on.
// COPYWAIT-COUNT-4: tcgen05.cp.cta_group::1.128x256b
// COPYWAIT-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// COPYWAIT: mbarrier.try_wait.parity
// COPYWAIT: tcgen05.fence::after_thread_sync;
// COPYWAIT: tcgen05.ld.sync.aligned.32x32b
