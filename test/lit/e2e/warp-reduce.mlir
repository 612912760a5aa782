// txl.warp_max / txl.warp_sum: tl.max / tl.sum whose reduced axis must stay
// inside each warp. On a wgmma accumulator (each row in 4 lanes of a warp)
// and on a row-per-warp blocked tile the reduction is shuffles only: no
// shared-memory offset on the reduce. A column reduction over warps stacked
// along the rows is a located error.
// RUN: txlc %S/../../gpu/txl_kernels_warp_reduce.py --kernel-name accumulator_row_max --signature "*fp16:16, *fp16:16, *fp32:16, 64" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=ACC < %t/accumulator_row_max.txlgir
// ACC: txl.reduce(%{{.*}}) {axis = 1 : i32, txl.within_warp = "txl.warp_max"} : (tensor<64x64xf32, #txlgpu.nvmma
// RUN: txlc %S/../../gpu/txl_kernels_warp_reduce.py --kernel-name row_reduce --signature "*fp32:16, *fp32:16, *fp32:16, i32, 128, 16" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=ROWS < %t/row_reduce.txlgir
// ROWS: txl.reduce(%{{.*}}) {axis = 1 : i32, txl.within_warp = "txl.warp_max"}
// ROWS: txl.reduce(%{{.*}}) {axis = 1 : i32, txl.within_warp = "txl.warp_sum"}
// RUN: not txlc %S/../../gpu/txl_kernels_warp_reduce.py --kernel-name column_max --signature "*fp32:16, *fp32:16, 64, 64" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=COLS
// COLS: txl_kernels_warp_reduce.py:45:26: error: txl.warp_max: the reduced axis is split across warps in this layout
// COLS-NEXT: tl.store(y_ptr + rn, txl.warp_max(x, 0))
// COLS-NEXT: ^
