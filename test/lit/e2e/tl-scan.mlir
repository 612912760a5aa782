// Scans, histograms, sorts and int8 dots (test/gpu/txl_kernels_scan.py),
// compiled through ptxas on both targets. A scan is one txl.scan; its
// lowering scans each thread's registers in order, joins lanes with
// shfl.sync.bfly and warps through shared memory (bar.sync around the
// exchange); reverse walks the other way.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name cumsum_1d_kernel --signature "*fp32:16, *fp32:16, i32, False, 1024" --target sm_90a --out-dir %t/c1 > /dev/null
// RUN: FileCheck %s --check-prefix=SCAN-IR < %t/c1/cumsum_1d_kernel.txlir
// SCAN-IR: txl.scan
// SCAN-IR-SAME: axis = 0 : i32
// SCAN-IR-NOT: reverse
// SCAN-IR: arith.addf
// SCAN-IR: txl.scan.return
// RUN: FileCheck %s --check-prefix=SCAN-PTX < %t/c1/cumsum_1d_kernel.ptx
// SCAN-PTX: shfl.sync.bfly
// SCAN-PTX: bar.sync
// SCAN-PTX: st.shared
// SCAN-PTX: bar.sync
// SCAN-PTX: ld.shared
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name cumsum_1d_kernel --signature "*i64:16, *i64:16, i32, True, 4096" --target sm_80 --out-dir %t/c2 > /dev/null
// RUN: FileCheck %s --check-prefix=REVERSE < %t/c2/cumsum_1d_kernel.txlir
// REVERSE: txl.scan
// REVERSE-SAME: reverse
// Both axes of 2-D tiles; an axis held by one thread's registers needs no
// shuffle.
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name cumsum_2d_kernel --signature "*fp32:16, *fp32:16, i32, i32, 0, True, 128, 128" --target sm_90a --out-dir %t/a0 > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name cumsum_2d_kernel --signature "*fp32:16, *fp32:16, i32, i32, 1, False, 64, 32" --target sm_80 --out-dir %t/a1 > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name cumsum_2d_kernel --signature "*fp32:16, *fp32:16, i32, i32, 1, False, 8, 512" --target sm_90a --out-dir %t/a2 > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name cumprod_2d_kernel --signature "*i32:16, *i32:16, i32, i32, 0, False, 32, 64" --target sm_90a --out-dir %t/p0 > /dev/null
// RUN: FileCheck %s --check-prefix=PROD < %t/p0/cumprod_2d_kernel.txlir
// PROD: txl.scan
// PROD: arith.muli
// int8 cumsum widens to int32 before the scan.
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name cumsum_small_int_kernel --signature "*i8:16, *i32:16, i32, 256" --target sm_90a --out-dir %t/s8 > /dev/null
// RUN: FileCheck %s --check-prefix=WIDEN < %t/s8/cumsum_small_int_kernel.txlir
// WIDEN: arith.extsi {{.*}} to tensor<256xi32>
// WIDEN: txl.scan
// Tuple scans with a @jit combine function of four scalars.
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name linear_recurrence_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, True, 2048" --target sm_90a --out-dir %t/lr > /dev/null
// RUN: FileCheck %s --check-prefix=TUPLE < %t/lr/linear_recurrence_kernel.txlir
// TUPLE: txl.scan
// TUPLE-SAME: (tensor<2048xf32>, tensor<2048xf32>) -> (tensor<2048xf32>, tensor<2048xf32>)
// TUPLE: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name fill_forward_kernel --signature "*i32:16, *i32:16, i32, 1024, 4" --target sm_80 --out-dir %t/ff > /dev/null
// Histograms count with shared-memory atomics.
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name histogram_kernel --signature "*i8:16, *i32:16, i32, 64, 1024" --target sm_90a --out-dir %t/h > /dev/null
// RUN: FileCheck %s --check-prefix=HIST < %t/h/histogram_kernel.ptx
// HIST: atom.shared.add.u32
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name histogram_2d_source_kernel --signature "*i32:16, *i32:16, 128, 32, 64" --target sm_80 --out-dir %t/h2 > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name reduce_or_kernel --signature "*i64:16, *i64:16, i32, 64, 16" --target sm_90a --out-dir %t/or > /dev/null
// RUN: FileCheck %s --check-prefix=OR < %t/or/reduce_or_kernel.txlir
// OR: txl.reduce
// OR: arith.ori
// Sorting networks are tile ops on a hypercube reshape.
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name sort_kernel --signature "*fp16:16, *fp16:16, i32, 128, 8, True" --target sm_90a --out-dir %t/so > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name topk_kernel --signature "*fp32:16, *fp32:16, i32, 256, 8, 4" --target sm_80 --out-dir %t/tk > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name bitonic_merge_kernel --signature "*fp32:16, *fp32:16, 256, False" --target sm_90a --out-dir %t/bm > /dev/null
// int8 dots: mma.sync m16n8k32 s8 (saturating, as Triton) on sm_80, wgmma
// s8 into s32 on sm_90a.
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name int8_dot_kernel --signature "*i8:16, *i8:16, *i32:16, i32, i32, i32, False, 64, 64, 32" --target sm_80 --out-dir %t/d80 > /dev/null
// RUN: FileCheck %s --check-prefix=MMA < %t/d80/int8_dot_kernel.ptx
// MMA: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// RUN: txlc %S/../../gpu/txl_kernels_scan.py --kernel-name int8_dot_kernel --signature "*i8:16, *i8:16, *i32:16, i32, i32, i32, True, 128, 128, 64" --target sm_90a --out-dir %t/d90 > /dev/null
// RUN: FileCheck %s --check-prefix=WGMMA < %t/d90/int8_dot_kernel.ptx
// WGMMA: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.s32.s8.s8
