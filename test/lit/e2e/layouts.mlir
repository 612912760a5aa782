// txl layout classes. print_layout prints, while compiling, which thread and
// register hold each element (T<thread>:<reg>, copies joined by '|'); a
// blocked layout wider than the tensor shows its replicas. relayout pins
// the layout of its result (a convert_layout carrying the layout survives
// the tile-IR canonicalizer and AssignLayouts gives it to the result).
// RUN: txlc %S/../../gpu/txl_kernels_layout.py --kernel-name show_layouts --signature "" --num-warps 1 --target sm_80 --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=PRINT
// PRINT: T0:0|T4:0 T0:1|T4:1 T1:0|T5:0 T1:1|T5:1 T2:0|T6:0 T2:1|T6:1 T3:0|T7:0 T3:1|T7:1
// PRINT-NEXT: T8:0|T12:0 T8:1|T12:1
// PRINT: T24:0|T28:0 T24:1|T28:1 T25:0|T29:0 T25:1|T29:1 T26:0|T30:0 T26:1|T30:1 T27:0|T31:0 T27:1|T31:1
// The mma.sync m16n8 accumulator: rows 0-7 in registers 0-1, rows 8-15 in 2-3.
// PRINT-NEXT: T0:0 T0:1 T1:0 T1:1 T2:0 T2:1 T3:0 T3:1
// PRINT-NEXT: T4:0 T4:1 T5:0 T5:1 T6:0 T6:1 T7:0 T7:1
// PRINT: T28:0 T28:1 T29:0 T29:1 T30:0 T30:1 T31:0 T31:1
// PRINT-NEXT: T0:2 T0:3 T1:2 T1:3 T2:2 T2:3 T3:2 T3:3
//
// RUN: txlc %S/../../gpu/txl_kernels_layout.py --kernel-name relayout_roundtrip --signature "*fp32:16, *fp32:16, 32, 64" --num-warps 4 --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=PIN < %t/relayout_roundtrip.txlgir
// PIN: txlgpu.convert_layout {{.*}} -> tensor<32x64xf32, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
// PIN: arith.mulf {{.*}} : tensor<32x64xf32, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
// The last relayout flattens b + 1 into a slice layout: the sum is born in
// that layout's preimage ([1, 4] rows of 64 per warp), so the reshape moves
// nothing, and the clean-up folds b's pinned layout into the one move left.
// PIN: txlgpu.convert_layout {{.*}} -> tensor<32x64xf32, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// PIN: arith.addf {{.*}} : tensor<32x64xf32, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// PIN: txl.reshape %{{[0-9]+}} : tensor<32x64xf32, {{.*}} -> tensor<2048xf32, #txlgpu.slice<{dim = 0, parent = #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>}>>
// PIN-NOT: txlgpu.pinned_layout
//
// RUN: not txlc %S/../../gpu/txl_kernels_layout.py --kernel-name wrong_warps --signature "" --num-warps 4 --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=WARPS
// WARPS: txl_kernels_layout.py:{{[0-9]+}}:5: error: txl.print_layout: the layout spreads over 2 warps but the kernel runs 4
//
// frag_smem_store / frag_smem_load access the buffer in the layouts given
// (the predicated store reads the old elements first, in any layout).
// RUN: txlc %S/../../gpu/txl_kernels_layout.py --kernel-name fragment_io --signature "*fp32:16, *fp32:16, fp32, 32, 64" --num-warps 4 --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=FRAG < %t/fragment_io.txlgir
// FRAG: txlgpu.smem_store {{.*}} : tensor<32x64xf32, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
// FRAG: txlgpu.smem_load {{.*}} -> tensor<32x64xf32, #txlgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>
//
// frag_smem_store(pred=<per-thread scalar>, predStr="slice:1"): the [64,
// 64] broadcast is reduced to its [64] slice, and only the threads whose
// predicate holds write (a guarded smem_store: the stores sit in a branch,
// the barriers around them do not).
// RUN: txlc %S/../../gpu/txl_kernels_layout.py --kernel-name slice_owner_store --signature "*fp32:16, *fp32:16, 64, 64, 0" --num-warps 4 --target sm_90a --out-dir %towner --no-cubin
// RUN: FileCheck %s --check-prefix=OWNER < %towner/slice_owner_store.txlgir
// RUN: FileCheck %s --check-prefix=OWNERPTX < %towner/slice_owner_store.ptx
// OWNER: txlgpu.smem_store %{{.*}}, %{{.*}} if %{{.*}} : tensor<64xf32, #txlgpu.slice<{dim = 1, parent = #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
// OWNERPTX: @%p{{[0-9]+}} bra [[SKIP:\$L__BB[0-9_]+]];
// OWNERPTX-NEXT: st.shared.b32
// OWNERPTX-COUNT-3: st.shared.b32
// OWNERPTX-NEXT: [[SKIP]]:
// OWNERPTX: bar.sync 0;
