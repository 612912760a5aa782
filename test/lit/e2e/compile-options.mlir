// Compile options (docs/user-guide.md#launch-options).
// RUN: rm -rf %t && mkdir -p %t/fused %t/unfused %t/ftz %t/noftz %t/reg
//
// enable_fp_fusion (default on): x * 1.5 + 1.0 is one fma; --no-fp-fusion
// keeps a multiply and an add, each rounded (.rn: ptxas may not fuse them).
// RUN: txlc %S/../Inputs/compile_options.py --kernel-name mul_add --signature "*fp32:16, 128" --target sm_90a --no-cubin --out-dir %t/fused
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused/mul_add.ptx
// RUN: txlc %S/../Inputs/compile_options.py --kernel-name mul_add --signature "*fp32:16, 128" --target sm_90a --no-cubin --no-fp-fusion --out-dir %t/unfused
// RUN: FileCheck %s --check-prefix=UNFUSED < %t/unfused/mul_add.ptx
// FUSED: fma.rn.f32
// FUSED-NOT: mul.rn.f32
// UNFUSED-NOT: fma.rn
// UNFUSED: mul.rn.f32
// UNFUSED: add.rn.f32
//
// enable_reflect_ftz (default on): libdevice's exp2 is ex2.approx.ftz;
// --no-reflect-ftz takes its subnormal-keeping form.
// RUN: txlc %S/../Inputs/compile_options.py --kernel-name lib_exp2 --signature "*fp32:16, 128" --target sm_90a --no-cubin --out-dir %t/ftz
// RUN: FileCheck %s --check-prefix=FTZ < %t/ftz/lib_exp2.ptx
// RUN: txlc %S/../Inputs/compile_options.py --kernel-name lib_exp2 --signature "*fp32:16, 128" --target sm_90a --no-cubin --no-reflect-ftz --out-dir %t/noftz
// RUN: FileCheck %s --check-prefix=NOFTZ < %t/noftz/lib_exp2.ptx
// FTZ: ex2.approx.ftz.f32
// NOFTZ-NOT: ex2.approx.ftz
// NOFTZ: ex2.approx.f32
// NOFTZ-NOT: ex2.approx.ftz
//
// maxnreg: .maxnreg on the kernel's entry (ptxas checks it: with a cubin).
// RUN: txlc %S/../Inputs/compile_options.py --kernel-name mul_add --signature "*fp32:16, 128" --target sm_90a --maxnreg 40 --out-dir %t/reg
// RUN: FileCheck %s --check-prefix=REG < %t/reg/mul_add.ptx
// RUN: test -s %t/reg/mul_add.cubin
// REG: .visible .entry mul_add(
// REG: .maxnreg 40
// REG: {
