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
