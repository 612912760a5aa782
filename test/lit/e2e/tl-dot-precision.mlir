// tl.dot's result types and fp32 precisions (test/gpu/txl_kernels_tcore.py):
// fp16 operands with out_dtype=fp16 accumulate in fp16 on the tensor cores
// (wgmma .f16.f16.f16, mma.sync .f16.f16.f16.f16); fp32 tf32x3 is three
// tf32 dots of the operands' pieces, bf16x3 three and bf16x6 six bf16 dots,
// each with a NaN guard on the corrections; ieee fp32 and fp64 are FMA
// dots (blocked accumulator, operands read back from shared scratch, no
// MMA instruction).
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 64, 64, 64, tl.float16, 'ieee', True" --target sm_90a --out-dir %t/h64 > /dev/null
// RUN: FileCheck %s --check-prefix=H64 < %t/h64/dot_kernel.ptx
// H64: wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16
// H64-NOT: cvt.rn.f16.f32
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 16, 16, 16, tl.float16, 'ieee', False" --target sm_90a --out-dir %t/h16 > /dev/null
// RUN: FileCheck %s --check-prefix=H16 < %t/h16/dot_kernel.ptx
// H16: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 64, 64, 32, tl.float16, 'ieee', True" --target sm_80 --out-dir %t/h80 > /dev/null
// RUN: FileCheck %s --check-prefix=H16 < %t/h80/dot_kernel.ptx
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_loop_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 128, 128, 32, tl.float16, 'tf32'" --target sm_90a --out-dir %t/hloop > /dev/null
// RUN: FileCheck %s --check-prefix=HLOOP < %t/hloop/dot_loop_kernel.ptx
// HLOOP: wgmma.mma_async.sync.aligned.m64n128k16.f16.f16.f16
// HLOOP: wgmma.wait_group.sync.aligned

// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, i32, i32, 64, 64, 64, tl.float32, 'tf32x3', True" --target sm_90a --out-dir %t/t3 > /dev/null
// RUN: FileCheck %s --check-prefix=T3-IR < %t/t3/dot_kernel.txlir
// RUN: FileCheck %s --check-prefix=T3 < %t/t3/dot_kernel.ptx
// T3-IR: arith.andi {{.*}} : tensor<64x64xi32>
// T3-IR-COUNT-3: txl.dot
// T3-IR-NOT: txl.dot
// T3: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, i32, i32, 16, 16, 16, tl.float32, 'tf32x3', False" --target sm_90a --out-dir %t/t3s > /dev/null
// RUN: FileCheck %s --check-prefix=T3S < %t/t3s/dot_kernel.ptx
// T3S: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, i32, i32, 64, 64, 64, tl.float32, 'bf16x3', False" --target sm_90a --out-dir %t/b3 > /dev/null
// RUN: FileCheck %s --check-prefix=B3-IR < %t/b3/dot_kernel.txlir
// RUN: FileCheck %s --check-prefix=B3 < %t/b3/dot_kernel.ptx
// B3-IR-COUNT-3: txl.dot {{.*}} : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
// B3-IR-NOT: txl.dot
// B3: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, i32, i32, 32, 32, 32, tl.float32, 'bf16x6', True" --target sm_90a --out-dir %t/b6 > /dev/null
// RUN: FileCheck %s --check-prefix=B6-IR < %t/b6/dot_kernel.txlir
// RUN: FileCheck %s --check-prefix=B6 < %t/b6/dot_kernel.ptx
// B6-IR-COUNT-5: txl.dot {{.*}} : tensor<32x32xbf16> * tensor<32x32xbf16> -> tensor<32x32xf32>
// B6-IR: arith.cmpf une
// B6-IR: txl.dot {{.*}} : tensor<32x32xbf16> * tensor<32x32xbf16> -> tensor<32x32xf32>
// B6-IR-NOT: txl.dot
// B6: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, i32, i32, 64, 64, 64, tl.float32, 'ieee', True" --target sm_90a --out-dir %t/ieee > /dev/null
// RUN: FileCheck %s --check-prefix=IEEE-IR < %t/ieee/dot_kernel.txlir
// RUN: FileCheck %s --check-prefix=IEEE-GIR < %t/ieee/dot_kernel.txlgir
// RUN: FileCheck %s --check-prefix=IEEE < %t/ieee/dot_kernel.ptx
// IEEE-IR: txl.dot {{.*}} {inputPrecision = 2 : i32} : tensor<64x64xf32> * tensor<64x64xf32> -> tensor<64x64xf32>
// IEEE-IR-NOT: txl.dot
// IEEE-GIR: txl.dot {{.*}} -> tensor<64x64xf32, #txlgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
// IEEE-NOT: mma
// IEEE: fma.rn.f32
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name dot_kernel --signature "*fp64:16, *fp64:16, *fp64:16, *fp64:16, i32, i32, i32, 32, 32, 32, tl.float32, 'ieee', False" --target sm_90a --out-dir %t/f64 > /dev/null
// RUN: FileCheck %s --check-prefix=F64 < %t/f64/dot_kernel.ptx
// F64-NOT: mma
// F64: bar.sync
// F64: st.shared.b64
// F64: bar.sync
// F64: ld.shared.b64
// F64: fma.rn.f64
