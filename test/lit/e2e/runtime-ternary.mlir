// `x if c else y` on a runtime scalar condition runs one side (an scf.if,
// as in Triton): a side with effects runs only when chosen. A tensor
// condition still selects element-wise. tl.where chooses between pointers
// of one type. A number has the scalar tensor's methods (`acc.to(...)`).
// RUN: txlc %S/../Inputs/runtime_ternary.py --kernel-name void_ternary --signature "*fp32, *fp32, *fp32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=VOID < %t/void_ternary.txlir
// VOID: scf.if
// VOID-NEXT: txl.load %arg0
// VOID-NEXT: txl.store %arg2
// VOID-NEXT: } else {
// VOID-NEXT: txl.load %arg1
// VOID-NEXT: txl.store %arg2
// RUN: txlc %S/../Inputs/runtime_ternary.py --kernel-name mixed_ternary --signature "*fp32, *fp32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=MIXED < %t/mixed_ternary.txlir
// MIXED: scf.if {{.*}} -> (f32)
// MIXED: scf.yield %cst
// MIXED: txl.load
// RUN: txlc %S/../Inputs/runtime_ternary.py --kernel-name promote_ternary --signature "*i64, *i64, 64" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=PROMOTE < %t/promote_ternary.txlir
// PROMOTE: scf.if {{.*}} -> (tensor<64xi64>)
// RUN: txlc %S/../Inputs/runtime_ternary.py --kernel-name tensor_cond --signature "*fp32, *fp32, 64" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=TCOND < %t/tensor_cond.txlir
// TCOND-NOT: scf.if
// TCOND: arith.select
// RUN: txlc %S/../Inputs/runtime_ternary.py --kernel-name where_ptrs --signature "*i32, *i32, *i32, *i32, 64" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=WHERE < %t/where_ptrs.txlir
// WHERE: arith.select {{.*}} !txl.ptr<i32>
// WHERE: arith.select {{.*}} tensor<64x!txl.ptr<i32>>
// RUN: txlc %S/../Inputs/runtime_ternary.py --kernel-name for_iv --signature "*i64, i64, i64, 2" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=FORIV < %t/for_iv.txlir
// FORIV: scf.for {{.*}} iter_args({{.*}} = %c0_i64) -> (i64) : i64
