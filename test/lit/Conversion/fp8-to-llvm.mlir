// fp8 values are i8 bit patterns after the type conversion, so arith on
// them is lowered by Fp8OpToLLVM.cpp: casts become the paired cvt
// instructions (fp8x2 <-> f16x2 exactly; f32 pairs -> fp8x2 rounding to
// nearest even, saturating), other ops compute in f32. These used to
// segfault txlc (an `arith.truncf f32 -> i8` folded by the driver).
// RUN: txlc %txl_src/test/gpu/txl_kernels_fp8.py --kernel-name cast_roundtrip --signature "*fp32:16, *fp8e4nv:16, *fp32:16, i32, tl.float32, tl.float8e4nv, 256" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=E4M3 < %t/cast_roundtrip.ptx
// E4M3: cvt.rn.satfinite.e4m3x2.f32
// E4M3: cvt.rn.f16x2.e4m3x2
// E4M3: cvt.f32.f16
// RUN: txlc %txl_src/test/gpu/txl_kernels_fp8.py --kernel-name cast_roundtrip --signature "*fp16:16, *fp8e5:16, *fp16:16, i32, tl.float16, tl.float8e5, 256" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=E5M2 < %t/cast_roundtrip.ptx
// E5M2: cvt.f32.f16
// E5M2: cvt.rn.satfinite.e5m2x2.f32
// E5M2: cvt.rn.f16x2.e5m2x2
// E5M2-NOT: cvt.f32.f16
// E5M2: st.global.b16
// RUN: txlc %txl_src/test/gpu/txl_kernels_fp8.py --kernel-name cast_roundtrip --signature "*fp8e4nv:16, *bf16:16, *fp8e4nv:16, i32, tl.float8e4nv, tl.bfloat16, 256" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=BF16 < %t/cast_roundtrip.ptx
// BF16: cvt.rn.f16x2.e4m3x2
// BF16: cvt.rn.bf16.f32
// (bf16 back to fp8 folds away: the round trip is exact.)
// BF16-NOT: cvt.rn.satfinite
// A store through an fp8 pointer converts (the fuzzers' segfault) and
// arithmetic on fp8 computes in f32:
// RUN: txlc %txl_src/test/gpu/txl_kernels_fp8.py --kernel-name store_converts --signature "*fp32:16, *fp8e4nv:16, i32, 256" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=STORE < %t/store_converts.ptx
// STORE: cvt.rn.satfinite.e4m3x2.f32
// RUN: txlc %txl_src/test/gpu/txl_kernels_fp8.py --kernel-name fp8_arith --signature "*fp8e5:16, *fp8e5:16, *fp8e5:16, *fp8e5:16, *i8:16, i32, 256" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=ARITH < %t/fp8_arith.ptx
// ARITH: cvt.rn.f16x2.e5m2x2
// ARITH: mul{{(.rn)?}}.f32
// ARITH: cvt.rn.satfinite.e5m2x2.f32
// RUN: txlc %txl_src/test/gpu/txl_kernels_fp8.py --kernel-name scalar_store --signature "*fp8e4nv, fp32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=SCALAR < %t/scalar_store.ptx
// SCALAR: cvt.rn.satfinite.e4m3x2.f32
// sm_80 has no fp8 conversion: a located error.
// RUN: not txlc %txl_src/test/gpu/txl_kernels_fp8.py --kernel-name cast_roundtrip --signature "*fp32:16, *fp8e4nv:16, *fp32:16, i32, tl.float32, tl.float8e4nv, 256" --target sm_80 --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=SM80
// SM80: txl_kernels_fp8.py:15:9: error: converting fp32 to fp8e4nv needs sm_89 or later
