// End-to-end: txl.dotx with every operand type tcgen05 takes, compiled for
// sm_100a and assembled (by nvJitLink or ptxas through txlc, and by ptxas
// here when it is installed). The instruction descriptor of each: f32 D
// (1 << 4), N = 64 (8 << 17), M = 128 (8 << 24) = 135266320, plus the A/B
// format (bf16: 1 at bits 7 and 10, +1152; tf32: 2, +2304; e4m3: 0) and,
// for a row-major (MN-major) B, the B-major bit 16 (+65536). fp16/bf16 are
// kind::f16 with K = 16 per instruction, tf32 K = 8, fp8 kind::f8f6f4 K = 32;
// each tile here is two instructions deep (64-byte rows: the 64-byte swizzle).
// A in tensor memory (tmem_store packs the 32 fp16 of a row into 16
// columns: one .x16 message) is the MMA's first operand as a TMEM address,
// stepped 8 columns per K = 16; `pred` guards the issue.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../Inputs/dotx_forms.py --kernel-name dotx_dtype --signature "*fp16:16, *fp16:16, *fp32:16, 32" --target sm_100a --out-dir %t/f16 > /dev/null
// RUN: FileCheck %s --check-prefix=F16 --input-file %t/f16/dotx_dtype.ptx
// RUN: txlc %S/../Inputs/dotx_forms.py --kernel-name dotx_dtype --signature "*bf16:16, *bf16:16, *fp32:16, 32" --target sm_100a --out-dir %t/bf16 > /dev/null
// RUN: FileCheck %s --check-prefix=BF16 --input-file %t/bf16/dotx_dtype.ptx
// RUN: txlc %S/../Inputs/dotx_forms.py --kernel-name dotx_dtype --signature "*fp32:16, *fp32:16, *fp32:16, 16" --target sm_100a --out-dir %t/tf32 > /dev/null
// RUN: FileCheck %s --check-prefix=TF32 --input-file %t/tf32/dotx_dtype.ptx
// RUN: txlc %S/../Inputs/dotx_forms.py --kernel-name dotx_dtype --signature "*fp8e4nv:16, *fp8e4nv:16, *fp32:16, 64" --target sm_100a --out-dir %t/fp8 > /dev/null
// RUN: FileCheck %s --check-prefix=FP8 --input-file %t/fp8/dotx_dtype.ptx
// RUN: txlc %S/../Inputs/dotx_forms.py --kernel-name dotx_tmem_a --signature "*fp16:16, *fp16:16, *fp32:16, i32" --target sm_100a --out-dir %t/ta > /dev/null
// RUN: FileCheck %s --check-prefix=TMEMA --input-file %t/ta/dotx_tmem_a.ptx
// RUN: sh -c 'if command -v ptxas > /dev/null; then for f in %t/*/*.ptx; do ptxas -arch=sm_100a $f -o $f.cubin || exit 1; done; fi'

// F16: mov.b32 %r[[D:[0-9]+]], 135266320;
// F16-NEXT: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r[[D]],
// F16-COUNT-1: tcgen05.mma.cta_group::1.kind::f16
// F16-NOT: tcgen05.mma

// BF16: mov.b32 %r[[D:[0-9]+]], 135267472;
// BF16-NEXT: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r[[D]],

// TF32: mov.b32 %r[[D:[0-9]+]], 135268624;
// TF32-NEXT: tcgen05.mma.cta_group::1.kind::tf32.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r[[D]],
// TF32-COUNT-1: tcgen05.mma.cta_group::1.kind::tf32
// TF32-NOT: tcgen05.mma

// FP8: mov.b32 %r[[D:[0-9]+]], 135266320;
// FP8-NEXT: tcgen05.mma.cta_group::1.kind::f8f6f4.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r[[D]],
// FP8-COUNT-1: tcgen05.mma.cta_group::1.kind::f8f6f4
// FP8-NOT: tcgen05.mma

// TMEMA: tcgen05.st.sync.aligned.32x32b.x16.b32
// TMEMA: tcgen05.st.sync.aligned.32x32b.x32.b32
// TMEMA: elect.sync
// TMEMA: mov.b32 %r[[D:[0-9]+]], 135331856;
// TMEMA-NEXT: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard [%r{{[0-9]+}}], [%r{{[0-9]+}}], %rd{{[0-9]+}}, %r[[D]],
// TMEMA-COUNT-1: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard [%r{{[0-9]+}}], [%r{{[0-9]+}}]
// TMEMA-NOT: tcgen05.mma
