// End-to-end: the txl.* hardware layer compiles for sm_90a and ptxas (or
// nvJitLink) accepts it. The hand-off kernel has two warpgroup roles that
// reallocate registers (so the kernel states its entry budget), an mbarrier
// initialized by one thread and published to the CTA, warpgroup-scoped
// named barriers around the shared store, and a parity wait. GEMM step 1
// issues wgmma on 128B-swizzled shared buffers and waits for it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %examples/warpgroup_handoff.py --kernel-name warpgroup_handoff --signature "*fp32:16, *fp32:16, i32, 1024" --num-warps 4 --num-warpgroups 2 --target sm_90a --out-dir %t/wg > /dev/null
// RUN: FileCheck %s --check-prefix=HANDOFF < %t/wg/warpgroup_handoff.ptx
// HANDOFF: .maxntid 256, 1, 1
// HANDOFF: .minnctapersm 1
// HANDOFF: mbarrier.init.shared.b64 [{{.*}}], 128;
// HANDOFF: fence.mbarrier_init
// HANDOFF: bar.sync {{.*}}0;
// HANDOFF: setmaxnreg.dec.sync.aligned.u32 {{.*}}40;
// HANDOFF: bar.sync {{.*}}, 128;
// HANDOFF: mbarrier.arrive
// HANDOFF: setmaxnreg.inc.sync.aligned.u32 {{.*}}232;
// HANDOFF: mbarrier.try_wait.parity
// RUN: txlc %tutorials/gemm/step01_one_tile.py --kernel-name gemm_step01 --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 128, 128, 64" --num-warps 4 --target sm_90a --out-dir %t/s1 > /dev/null
// RUN: FileCheck %s --check-prefix=STEP1 < %t/s1/gemm_step01.ptx
// STEP1: wgmma.fence.sync.aligned
// STEP1: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// STEP1: wgmma.commit_group.sync.aligned
// STEP1: wgmma.wait_group.sync.aligned 0
// RUN: FileCheck %s --check-prefix=STEP1-IR < %t/s1/gemm_step01.txlgir
// STEP1-IR: txlgpu.smem_alloc {{.*}}nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
// STEP1-IR: txlgpu.memdesc_view {{.*}}-> <64x128xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [0, 1]}>>
// STEP1-IR: txlgpu.warp_group_dot
// STEP1-IR: txlgpu.warp_group_dot_wait {{.*}}pendings = 0
