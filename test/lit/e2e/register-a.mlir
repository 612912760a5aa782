// wgmma with A from registers (the FlashAttention P @ V pattern): P comes
// from the first dot's accumulator, is exponentiated and rounded to 16
// bits, reaches wgmma's A fragment without touching shared memory (the
// accumulator and A-fragment layouts share lanes and warps), and is issued
// as the register form of wgmma.mma_async (four 32-bit A registers, B's
// descriptor, B MN-major: transpose bit 1).
// RUN: txlc %S/../../gpu/txl_kernels_register_a.py --kernel-name chained_dot --signature "*fp16:16, *fp16:16, *fp16:16, *fp32:16, fp32, 64, 64, 64" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=GIR < %t/chained_dot.txlgir
// RUN: FileCheck %s < %t/chained_dot.ptx
// GIR: %[[P:.*]] = txlgpu.convert_layout %{{.*}} : tensor<64x64xf16, #txlgpu.nvmma<{{.*}}>> -> tensor<64x64xf16, #txlgpu.dot_op<{opIdx = 0, {{.*}}kWidth = 2}>>
// GIR-NOT: shared_offset
// GIR: txlgpu.warp_group_dot %[[P]], %{{.*}}, %{{.*}} : tensor<64x64xf16, #txlgpu.dot_op
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%r{{[0-9]+}}, {{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// CHECK: wgmma.wait_group.sync.aligned 0;
// All of P is converted before the fence (no cvt between the register-A
// wgmmas, which would make ptxas add a warpgroup.arrive before each: C7519).
// CHECK: registers ready
// CHECK: wgmma.fence.sync.aligned;
// CHECK-NOT: cvt.rn.f16x2.f32
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1; }
//
// bf16, two warpgroups, a K loop, A loaded from global memory.
// RUN: txlc %S/../../gpu/txl_kernels_register_a.py --kernel-name reg_a_dot --signature "*bf16:16, *bf16:16, *bf16:16, i32, i32:16, i32, 128, 64, 64" --num-warps 8 --target sm_90a --out-dir %t2
// RUN: FileCheck %s --check-prefix=BF16 < %t2/reg_a_dot.ptx
// BF16-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1, 1; }
//
// fp8 (e4m3): the k32 register form, A as four 32-bit registers of four
// e4m3 each (dot-operand layout k_width 4), B K-major (B^T's rows in the
// buffer), no transpose operand in the PTX form.
// RUN: txlc %S/../../gpu/txl_kernels_register_a.py --kernel-name reg_a_dot_fp8 --signature "*fp8e4nv:16, *fp8e4nv:16, *fp32:16, i32, i32:16, i32:16, 64, 64, 64" --target sm_90a --out-dir %t3 | FileCheck %s --check-prefix=FP8OUT
// RUN: FileCheck %s --check-prefix=FP8GIR < %t3/reg_a_dot_fp8.txlgir
// RUN: FileCheck %s --check-prefix=FP8 < %t3/reg_a_dot_fp8.ptx
// FP8OUT: compiled reg_a_dot_fp8 for sm_90a {{.*}}0 B spilled)
// FP8GIR: txlgpu.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xf8E4M3FN, #txlgpu.dot_op<{opIdx = 0, {{.*}}kWidth = 4}>>
// FP8: registers ready
// FP8: wgmma.fence.sync.aligned;
// FP8-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1; }
//
// The 8-bit A fragment (PTX ISA, wgmma m64nNk32 A with .e4m3): thread
// 4g+q holds rows g and g+8, k 4q..4q+3 (a0-a3, a4-a7) and 16+4q..19+4q
// (a8-a11, a12-a15). The fp32 accumulator of the same warps holds pairs of
// columns per thread instead (2q, 2q+1, 8+2q, 9+2q, ...).
// RUN: txlc %S/../../gpu/txl_kernels_register_a.py --kernel-name show_fp8_a_fragment --signature "" --num-warps 4 --target sm_90a --out-dir %t4 --no-cubin 2>&1 | FileCheck %s --check-prefix=FRAG
// FRAG: T0:0 T0:1 T0:2 T0:3 T1:0 T1:1 T1:2 T1:3 T2:0 T2:1 T2:2 T2:3 T3:0 T3:1 T3:2 T3:3 T0:8 T0:9 T0:10 T0:11 T1:8 T1:9 T1:10 T1:11 T2:8 T2:9 T2:10 T2:11 T3:8 T3:9 T3:10 T3:11
// FRAG-NEXT: T4:0 T4:1 T4:2 T4:3 T5:0 {{.*}} T7:11
// FRAG: T0:4 T0:5 T0:6 T0:7 T1:4 T1:5 T1:6 T1:7 T2:4 T2:5 T2:6 T2:7 T3:4 T3:5 T3:6 T3:7 T0:12 T0:13 T0:14 T0:15 T1:12 T1:13 T1:14 T1:15 T2:12 T2:13 T2:14 T2:15 T3:12 T3:13 T3:14 T3:15
// FRAG: T0:0 T0:1 T1:0 T1:1 T2:0 T2:1 T3:0 T3:1 T0:4 T0:5 T1:4 T1:5 T2:4 T2:5 T3:4 T3:5 T0:8 T0:9 T1:8 T1:9 T2:8 T2:9 T3:8 T3:9 T0:12 T0:13 T1:12 T1:13 T2:12 T2:13 T3:12 T3:13
//
// txl.acc_to_dot_a: the e4m3 P of S's accumulator taken as A in place (its
// columns renamed within groups of 32): no conversion to the kWidth-4
// layout, nothing through shared memory between S's wait and P V.
// RUN: txlc %S/../../gpu/txl_kernels_register_a.py --kernel-name chained_dot_acc_to_dot_a --signature "*fp8e4nv:16, *fp8e4nv:16, *fp8e4nv:16, *fp32:16, none, fp32, 64, 64, 64, False" --target sm_90a --out-dir %t5 | FileCheck %s --check-prefix=INPLACEOUT
// RUN: FileCheck %s --check-prefix=INPLACEGIR < %t5/chained_dot_acc_to_dot_a.txlgir
// RUN: FileCheck %s --check-prefix=INPLACE < %t5/chained_dot_acc_to_dot_a.ptx
// INPLACEOUT: compiled chained_dot_acc_to_dot_a {{.*}} 0 B spilled)
// INPLACEGIR: txlgpu.acc_to_dot_a %{{.*}} : tensor<64x64xf8E4M3FN, #txlgpu.nvmma<{{.*}}>> -> tensor<64x64xf8E4M3FN, #txlgpu.dot_op<{opIdx = 0, {{.*}}kWidth = 4}>>
// INPLACEGIR-NOT: txlgpu.convert_layout {{.*}}kWidth = 4
// INPLACE: wgmma.wait_group.sync.aligned 0;
// INPLACE-NOT: st.shared
// INPLACE-NOT: ld.shared
// INPLACE: registers ready
// INPLACE-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 { %r{{[0-9]+}}, {{.*}} }, { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }, %rd{{[0-9]+}}, p, 1, 1; }
