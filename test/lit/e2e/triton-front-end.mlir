// Triton front-end behaviours (issue 13, test_core.py): a tl.const pointer
// loads like any; map_elementwise's function may branch on an element (both
// branches run, results are selected); tl.condition is a while condition;
// a one-element tensor is an `if` condition; isinstance(dtype,
// tl.pointer_type); a noinline helper with scalar arguments.
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name copy_from_const --signature "*fp32:16, *fp32:16, i32, 128" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=CONST < %t/copy_from_const.txlir
// CONST: txl.load %{{.*}} : tensor<128x!txl.ptr<f32>>
// CONST: txl.store
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name map_compare --signature "*i32:16, *i32:16, *i32:16, 128" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=MAP < %t/map_compare.txlir
// MAP-NOT: scf.if
// MAP: [[LT:%[0-9]+]] = arith.cmpi slt
// MAP: arith.cmpi eq
// MAP: arith.select
// MAP: arith.select [[LT]],
// (clamp_names's x < y is the same comparison: CSE shares it.)
// MAP: arith.select [[LT]],
// MAP: txl.store
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name while_condition --signature "*i32, i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=WHILE < %t/while_condition.txlir
// WHILE: scf.while
// WHILE: arith.cmpi slt
// WHILE: scf.condition
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name unsplat --signature "*i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=UNSPLAT < %t/unsplat.txlir
// UNSPLAT: scf.if
// UNSPLAT: txl.store
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name short_circuiting --signature "*i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=SHORT < %t/short_circuiting.txlir
// SHORT: scf.if
// SHORT: txl.store
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name short_circuiting --signature "*fp32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=SHORTF < %t/short_circuiting.txlir
// SHORTF-NOT: txl.load
// SHORTF-NOT: txl.store
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name short_circuiting --signature "i32" --target sm_90a --out-dir %t --no-cubin
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name calls_noinline --signature "*i32, i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=NOINLINE < %t/calls_noinline.txlir
// NOINLINE: arith.muli
// A tl function passed as a constexpr (Triton's test_globaltimer); each
// call reads the timer.
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name timer_as_constexpr --signature "*i64:16, tl.extra.cuda.globaltimer" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=TIMER < %t/timer_as_constexpr.ptx
// TIMER-COUNT-2: %globaltimer
