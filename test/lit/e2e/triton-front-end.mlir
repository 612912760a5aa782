// Triton front-end behaviours (issue 13, test_core.py): a one-element
// tensor is an `if` condition; isinstance(dtype, tl.pointer_type) folds
// (and short-circuits what follows); a noinline helper takes scalars.
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name unsplat --signature "*i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=UNSPLAT < %t/unsplat.txlir
// UNSPLAT: scf.if
// UNSPLAT: txl.store
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name short_circuiting --signature "*i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=SHORT < %t/short_circuiting.txlir
// SHORT: txl.load
// SHORT: scf.if
// SHORT: txl.store
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name short_circuiting --signature "*fp32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=SHORTF < %t/short_circuiting.txlir
// SHORTF-NOT: txl.load
// SHORTF-NOT: txl.store
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name short_circuiting --signature "i32" --target sm_90a --out-dir %t --no-cubin
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name short_circuiting --signature "none" --target sm_90a --out-dir %t --no-cubin
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name calls_noinline --signature "*i32, i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=NOINLINE < %t/calls_noinline.txlir
// NOINLINE: arith.muli
// A tl function passed as a constexpr (Triton's test_globaltimer); each
// call reads the timer.
// RUN: txlc %S/../Inputs/triton_front_end.py --kernel-name timer_as_constexpr --signature "*i64:16, tl.extra.cuda.globaltimer" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=TIMER < %t/timer_as_constexpr.ptx
// TIMER-COUNT-2: %globaltimer
