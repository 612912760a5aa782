// smem_slice views inside a swizzle span (MemDescViewOpToLLVM): K slices of
// 32 fp16 (64 bytes) of a [128, 64] tile with 128-byte rows are wgmma
// operands addressed start * 2 bytes into the span, as a K step of the
// whole tile is; a view read by anything but tl.dot is a located error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../Inputs/span_slice.py --kernel-name k_slices --signature "*fp16:16, *fp16:16, *fp32:16" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=SLICES < %t/k_slices.ptx
// Two slices, two K steps of 16 each, two m64 halves: eight wgmmas.
// SLICES-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// SLICES: wgmma.commit_group.sync.aligned;
// RUN: not txlc %S/../Inputs/span_slice.py --kernel-name load_of_span_slice --signature "*fp16:16, *fp32:16" --target sm_90a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=LOAD
// LOAD: span_slice.py:34:12: error: 'txlgpu.memdesc_view' op this slice of '!txlgpu.memdesc<128x64xf16, {{.*}}swizzle = 128{{.*}}>' cuts inside a swizzle span; only tl.dot can read such a slice {{.*}}, not txlgpu.smem_load
