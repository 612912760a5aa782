// txl.reg_alloc / reg_dealloc under any warpgroup-uniform condition
// (issue 13 point 4); refused under a condition that may differ inside a
// warpgroup.
// RUN: txlc %S/../Inputs/uniform_regalloc.py --kernel-name by_warpgroup_id --signature "*fp32:16" --num-warpgroups 2 --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=WGID < %t/by_warpgroup_id.llir
// WGID-DAG: setmaxnreg.dec.sync.aligned.u32(i32 40)
// WGID-DAG: setmaxnreg.inc.sync.aligned.u32(i32 232)
// RUN: txlc %S/../Inputs/uniform_regalloc.py --kernel-name by_thread_division --signature "*fp32:16, i32" --num-warpgroups 2 --target sm_90a --out-dir %t --no-cubin
// RUN: not txlc %S/../Inputs/uniform_regalloc.py --kernel-name by_warp_id --signature "*fp32:16" --num-warpgroups 2 --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=WARP
// WARP: uniform_regalloc.py:34:9: error: txl.reg_alloc must be called inside an 'if txl.is_warpgroup(...)' branch (or another condition that is the same for all threads of a warpgroup, such as txl.warpgroup_id() == 0)
// RUN: not txlc %S/../Inputs/uniform_regalloc.py --kernel-name divergent_inside_role --signature "*fp32:16" --num-warpgroups 2 --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=DIV
// DIV: uniform_regalloc.py:41:13: error: txl.reg_alloc is under an 'if' whose condition may differ between the threads of a warpgroup
