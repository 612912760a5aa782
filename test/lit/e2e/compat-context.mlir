// Module-level context of kernels written for Triton and for the TXL
// project (issue 13 point 2 and 4): proton scopes compile to nothing
// (profiling is off), `teraxlang` is txl, isinstance/hasattr fold.
// RUN: txlc %S/../Inputs/compat_context.py --kernel-name scoped_copy --signature "*fp32:16, *fp32:16, i32, 256" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=SCOPE < %t/scoped_copy.txlir
// SCOPE: txl.load
// SCOPE: txl.store
// SCOPE-NOT: scope
// RUN: txlc %S/../Inputs/compat_context.py --kernel-name type_queries --signature "*fp32:16, *fp32:16, 64, 3" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=QUERY < %t/type_queries.txlir
// QUERY: arith.mulf
// A descriptor argument is a tl.tensor_descriptor (no in-kernel descriptor
// is made); a pointer is not (one is).
// RUN: txlc %S/../Inputs/compat_context.py --kernel-name desc_query --signature "tensordesc<fp32[64, 64]>, *fp32:16, 64" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=HOSTDESC < %t/desc_query.json
// HOSTDESC: "global_scratch_bytes": 0,
// RUN: txlc %S/../Inputs/compat_context.py --kernel-name desc_query --signature "*fp32:16, *fp32:16, 64" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=DEVDESC < %t/desc_query.json
// DEVDESC: "global_scratch_bytes": {{[1-9]}}
// RUN: txlc %S/../Inputs/compat_context.py --kernel-name txl_by_package_name --signature "*fp32:16" --target sm_90a --out-dir %t --no-cubin
// RUN: txlc %S/../Inputs/compat_context.py --kernel-name constexpr_param_gets_tensor --signature "*i32:16, 32" --target sm_90a --out-dir %t --no-cubin
