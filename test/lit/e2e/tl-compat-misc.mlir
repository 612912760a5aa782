// Smaller Triton-compatibility fixes (test/gpu/txl_kernels_tcore.py):
// '>>' is arithmetic when the tensor operand is signed, even when the
// common type is unsigned (int8 >> uint8 computes in uint8); tensor.item()
// and a 1-D tl.split give scalars; tl.extra.cuda.num_threads() is a
// constexpr and smid reads %smid; a dot of M = 2, N = 4 runs mma.sync on a
// padded tile; compare-and-swap is spelled atom.global.<sem>.<scope>.cas.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name shift_kernel --signature "*i8:16, *u8:16, *u8:16, i32, 256" --out-dir %t/sh > /dev/null
// RUN: FileCheck %s --check-prefix=SHR < %t/sh/shift_kernel.txlir
// SHR: arith.shrsi {{.*}} : tensor<256xi8>
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name shift_kernel --signature "*u8:16, *i8:16, *u8:16, i32, 256" --out-dir %t/shu > /dev/null
// RUN: FileCheck %s --check-prefix=SHRU < %t/shu/shift_kernel.txlir
// SHRU: arith.shrui {{.*}} : tensor<256xi8>
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name cas_item_lock_kernel --signature "*fp32:16, *i64:16, tl.int64, 'relaxed'" --out-dir %t/cas > /dev/null
// RUN: FileCheck %s --check-prefix=CAS < %t/cas/cas_item_lock_kernel.ptx
// CAS: atom.global.relaxed.gpu.cas.b64
// CAS: atom.global.gpu.acq_rel.exch.b64
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name split_scalar_kernel --signature "*fp32:16, *fp32:16, *fp32:16" --out-dir %t/split > /dev/null
// RUN: FileCheck %s --check-prefix=SPLIT < %t/split/split_scalar_kernel.txlir
// SPLIT-COUNT-2: txl.reduce
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name cuda_extra_kernel --signature "*i32:16, *i32:16" --num-warps 8 --out-dir %t/cuda > /dev/null
// RUN: FileCheck %s --check-prefix=CUDA < %t/cuda/cuda_extra_kernel.ptx
// CUDA: %smid
// RUN: FileCheck %s --check-prefix=CUDA-IR < %t/cuda/cuda_extra_kernel.txlir
// CUDA-IR: txl.make_range {{.*}}end = 256
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 2, 4, 32, tl.float32, 'ieee', False" --num-warps 1 --out-dir %t/small > /dev/null
// RUN: FileCheck %s --check-prefix=SMALL < %t/small/dot_kernel.ptx
// SMALL: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// fp8 operands of such a dot (Triton's M=1, N=2 float8e5 case) are widened
// to fp16 (exactly) for mma.sync.
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp8e5:16, *fp8e5:16, *fp32:16, *fp32:16, i32, i32, i32, 1, 2, 32, tl.float32, 'ieee', False" --num-warps 1 --out-dir %t/small8 > /dev/null
// RUN: FileCheck %s --check-prefix=SMALL8 < %t/small8/dot_kernel.ptx
// SMALL8: cvt.rn.f16x2.e5m2x2
// SMALL8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// A scalar pointer indexed [None, None, None, :] (':' past the rank is
// accepted, as in Triton) and a number's .dtype (int32).
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name reduce_keep_dims_3d_kernel --signature "*i32:16, *i32:16, 4, 8, 16" --out-dir %t/keep > /dev/null
// RUN: FileCheck %s --check-prefix=KEEP < %t/keep/reduce_keep_dims_3d_kernel.txlir
// KEEP: txl.splat %c32_i32 : i32 -> tensor<1x1x1xi32>
// KEEP: txl.store {{.*}} : tensor<1x1x1x!txl.ptr<i32>>, tensor<1x1x1xi32>
