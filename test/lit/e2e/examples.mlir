// End-to-end: every example compiles for all three targets and ptxas (or
// nvJitLink) accepts the PTX; the vector add loads 16 bytes at a time.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" --out-dir %t/90 > /dev/null
// RUN: FileCheck %s --check-prefix=VADD < %t/90/add_kernel.ptx
// VADD: .entry add_kernel
// VADD: ld.global.v4.b32
// RUN: txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" --target sm_80 --out-dir %t/80 > /dev/null
// RUN: txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" --target sm_100a --out-dir %t/100 > /dev/null
// RUN: txlc %examples/fused_softmax.py --kernel-name softmax_kernel --signature "*fp32:16, *fp32:16, i32:16, i32:16, i32, i32, 1024, 1" --out-dir %t/sm > /dev/null
// RUN: FileCheck %s --check-prefix=SOFTMAX < %t/sm/softmax_kernel.ptx
// SOFTMAX: shfl.sync.bfly
// SOFTMAX: ex2.approx
// RUN: txlc %examples/fused_softmax.py --kernel-name softmax_kernel --signature "*fp16:16, *fp16:16, i32:16, i32:16, i32, i32, 16384, 1" --num-warps 16 --target sm_80 --out-dir %t/sm16 > /dev/null
// RUN: txlc %examples/argmax_rows.py --kernel-name row_argmax_kernel --signature "*fp32:16, *i32:16, *fp32:16, i32, i32:16, 1024" --target sm_100a --out-dir %t/am > /dev/null
// RUN: txlc %examples/transpose_2d.py --kernel-name transpose_kernel --signature "*fp32:16, *fp32:16, i32, i32, i32:16, i32:16, 64, 64" --out-dir %t/tr > /dev/null
// RUN: txlc %examples/transpose_2d.py --kernel-name copy_2d_kernel --signature "*fp16:16, *fp16:16, i32, i32, i32:16, i32:16, 64, 128" --out-dir %t/cp > /dev/null
// RUN: txlc %examples/layer_norm.py --kernel-name _layer_norm_fwd --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32, fp32, 1024" --target sm_80 --out-dir %t/ln > /dev/null
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 64, 64, 32, 8" --out-dir %t/mm > /dev/null
// RUN: FileCheck %s --check-prefix=MATMUL < %t/mm/matmul_kernel.ptx
// On sm_90a a 64x64 tile with 4 warps is one warpgroup: m64n64k16 wgmmas on
// swizzled shared tiles, fenced for the async proxy, committed and waited.
// MATMUL: fence.proxy.async.shared::cta
// MATMUL: wgmma.fence.sync.aligned
// MATMUL-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// MATMUL: wgmma.commit_group.sync.aligned
// MATMUL: wgmma.wait_group.sync.aligned 0
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 64, 64, 32, 8" --target sm_80 --out-dir %t/mm80h > /dev/null
// RUN: FileCheck %s --check-prefix=MATMUL-SM80 < %t/mm80h/matmul_kernel.ptx
// MATMUL-SM80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MATMUL-SM80-NOT: wgmma
// Two warpgroups stacked along M, tf32 wgmma (k8) on fp32 inputs.
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, i32, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 32, 8" --num-warps 8 --out-dir %t/mmtf > /dev/null
// RUN: FileCheck %s --check-prefix=MATMUL-TF32-WG < %t/mmtf/matmul_kernel.ptx
// MATMUL-TF32-WG-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// MATMUL-TF32-WG-NOT: wgmma.mma_async
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*bf16:16, *bf16:16, *fp32:16, i32, i32, i32, i32, i32, i32, i32, i32, i32, 128, 128, 32, 8" --num-warps 8 --target sm_80 --out-dir %t/mm80 > /dev/null
// RUN: FileCheck %s --check-prefix=MATMUL-BF16 < %t/mm80/matmul_kernel.ptx
// MATMUL-BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, i32, i32, i32, i32:1, i32, i32:1, i32, i32:1, 32, 32, 16, 8" --target sm_100a --out-dir %t/mm100 > /dev/null
// RUN: FileCheck %s --check-prefix=MATMUL-TF32 < %t/mm100/matmul_kernel.ptx
// MATMUL-TF32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// RUN: not txlc %examples/vector_add.py --kernel-name nope --signature "1" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error:
