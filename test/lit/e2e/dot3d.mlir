// Batched and N-D tl.dot from source to cubin (test/gpu/txl_kernels_dot3d.py,
// numbers in test/gpu/test_dot3d.py): a rank-3 dot is mma.sync even on
// sm_90a, one instruction per 16 x 8 tile, batch and K step of each warp;
// fp64 operands are FMA dots; ranks above 3 are flattened to one batch dim
// (reshapes around a rank-3 txl.dot) and tl.trans without dims swaps the
// last two dims.
// RUN: rm -rf %t && mkdir -p %t
// [2, 32, 32] fp16 on 4 warps (warps [2, 1, 2]): 2 x 2 tiles x 2 k16 steps.
// RUN: txlc %S/../../gpu/txl_kernels_dot3d.py --kernel-name dot3d_kernel --signature "*fp16:16, *fp16:16, *fp32:16, *fp32:16, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, 2, 32, 32, 32, tl.float32, 'ieee', True" --out-dir %t/f16 > /dev/null
// RUN: FileCheck %s --check-prefix=F16 < %t/f16/dot3d_kernel.ptx
// F16-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// F16-NOT: mma.sync
// F16-NOT: wgmma
// [8, 32, 64] int8 on 16 warps (warps [8, 1, 2]): 2 x 2 tiles x 2 k32 steps.
// RUN: txlc %S/../../gpu/txl_kernels_dot3d.py --kernel-name dot3d_kernel --signature "*i8:16, *i8:16, *i32:16, *i32:16, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, 8, 32, 32, 64, tl.int32, 'ieee', False" --num-warps 16 --out-dir %t/i8 > /dev/null
// RUN: FileCheck %s --check-prefix=I8 < %t/i8/dot3d_kernel.ptx
// I8-COUNT-8: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// I8-NOT: mma.sync
// [2, 32, 32] fp64 at K = 16: FMAs, no tensor cores.
// RUN: txlc %S/../../gpu/txl_kernels_dot3d.py --kernel-name dot3d_kernel --signature "*fp64:16, *fp64:16, *fp64:16, *fp64:16, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, 2, 32, 32, 16, tl.float32, 'ieee', False" --out-dir %t/f64 > /dev/null
// RUN: FileCheck %s --check-prefix=F64 < %t/f64/dot3d_kernel.ptx
// F64: fma.rn.f64
// F64-NOT: mma
// Rank 5 with both operands transposed: [2, 2, 2, 32, 32] flattened to
// [8, 32, 32] around one batched dot.
// RUN: txlc %S/../../gpu/txl_kernels_dot3d.py --kernel-name dot_multidim_kernel --signature "*bf16:16, *bf16:16, *fp32:16, 5, True, True" --out-dir %t/r5 > /dev/null
// RUN: FileCheck %s --check-prefix=R5-IR < %t/r5/dot_multidim_kernel.txlir
// RUN: FileCheck %s --check-prefix=R5 < %t/r5/dot_multidim_kernel.ptx
// R5-IR: txl.trans {{.*}} {order = array<i32: 0, 1, 2, 4, 3>} : tensor<2x2x2x32x32xbf16> -> tensor<2x2x2x32x32xbf16>
// R5-IR: txl.trans {{.*}} {order = array<i32: 0, 1, 2, 4, 3>}
// R5-IR: txl.reshape {{.*}} : tensor<2x2x2x32x32xbf16> -> tensor<8x32x32xbf16>
// R5-IR: txl.reshape {{.*}} : tensor<2x2x2x32x32xbf16> -> tensor<8x32x32xbf16>
// R5-IR: txl.dot {{.*}} : tensor<8x32x32xbf16> * tensor<8x32x32xbf16> -> tensor<8x32x32xf32>
// R5-IR: txl.reshape {{.*}} : tensor<8x32x32xf32> -> tensor<2x2x2x32x32xf32>
// R5: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// R5-NOT: wgmma
