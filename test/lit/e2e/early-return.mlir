// `return` inside a runtime `if` (issue 13, Triton's test_if_return and
// test_nested_if_else_return): each branch that does not return runs the
// rest of the function; a helper's result becomes the scf.if's result.
// RUN: txlc %S/../Inputs/early_return.py --kernel-name if_return --signature "*i32, *i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=IFRET < %t/if_return.txlir
// IFRET: scf.if
// IFRET: txl.store
// IFRET: } else {
// IFRET: txl.store
// IFRET-NOT: txl.store
// RUN: txlc %S/../Inputs/early_return.py --kernel-name nested --signature "*i32, *i32, *i32, *i32, *i32, *i32, *i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=NESTED < %t/nested.txlir
// The store after the outer `if` is built in the two paths that reach it.
// NESTED: scf.if
// NESTED: scf.if
// NESTED: txl.store %arg6
// NESTED: } else {
// NESTED: scf.if {{.*}} -> (i32)
// NESTED: txl.store %arg6
// NESTED-NOT: txl.store
// RUN: txlc %S/../Inputs/early_return.py --kernel-name constexpr_then_runtime --signature "*i32, *i32, 4" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=SEM < %t/constexpr_then_runtime.txlir
// SEM: txl.atomic_rmw
// SEM: scf.if
// SEM: } else {
// SEM: txl.store
// RUN: txlc %S/../Inputs/early_return.py --kernel-name helpers --signature "*i32, i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=HELPERS < %t/helpers.txlir
// add_fn_return: both paths return; maybe_double: one returns, the rest of
// the helper is the other; falls_off: the path that falls off yields zero.
// HELPERS: scf.if {{.*}} -> (i32)
// HELPERS: scf.if {{.*}} -> (i32)
// HELPERS: scf.if {{.*}} -> (i32)
// HELPERS: arith.addi
// HELPERS: } else {
// HELPERS-NEXT: scf.yield %c0_i32 : i32
// HELPERS: txl.store
