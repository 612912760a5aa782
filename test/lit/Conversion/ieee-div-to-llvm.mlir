// IEEE division (`/`, tl.div_rn) is computed without a call: ptxas expands
// div.rn.f32 with a slow path reached by a call, and a call anywhere in a
// kernel serializes all of its wgmmas. MathOpToLLVM.cpp (emitIeeeDivF32)
// divides in fp64 (Newton reciprocal, one correction of the quotient) and
// rounds once to fp32; fp16/bf16 divide in fp32 and round again, as NVPTX
// does. tl.fdiv stays approximate. test/gpu/test_ieee_div.py checks the
// quotients bit for bit.
// RUN: txlc %txl_src/test/gpu/txl_kernels_div.py --kernel-name divide --signature "*fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, 256" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=F32 < %t/divide.ptx
// F32-NOT: div.rn
// F32-NOT: call
// F32: cvt.f64.f32
// F32: cvt.f64.f32
// F32: rcp.approx.ftz.f64
// F32-COUNT-4: fma.rn.f64
// F32: mul.f64
// F32: fma.rn.f64
// F32: fma.rn.f64
// F32-DAG: setp.eq.f32
// F32-DAG: setp.nan.f64
// F32: selp.f64
// F32: cvt.rn.f32.f64
// F32: div.approx.f32
// F32-NOT: div.rn
// F32-NOT: call
// RUN: txlc %txl_src/test/gpu/txl_kernels_div.py --kernel-name divide --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, 256" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=F16 < %t/divide.ptx
// F16-NOT: div.rn
// F16: cvt.f64.f16
// F16: rcp.approx.ftz.f64
// F16: cvt.rn.f32.f64
// F16: cvt.rn.f16.f32
// F16-NOT: div.rn
// F16-NOT: call
