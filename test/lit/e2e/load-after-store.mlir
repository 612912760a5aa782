// A masked load is inline PTX with side effects: the second load of the
// same addresses, after a store to them, must stay (it was merged into the
// first one and read the old values).
// RUN: txlc %S/../Inputs/load_after_store.py --kernel-name scale_twice --signature "*fp32:16, i32, fp32, fp32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s < %t/scale_twice.ptx
// CHECK: ld.global
// CHECK: st.global
// CHECK: ld.global
// CHECK: st.global
