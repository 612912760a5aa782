// End-to-end: the txl.* hardware layer compiles for sm_90a and ptxas (or
// nvJitLink) accepts it. The hand-off kernel has two warpgroup roles that
// reallocate registers (so the kernel states its entry budget), an mbarrier
// initialized by one thread and published to the CTA, warpgroup-scoped
// named barriers around the shared store, and a parity wait. The GEMM
// ladder (tl.dot on shared buffers as wgmma) is checked in gemm-ladder.mlir.
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
