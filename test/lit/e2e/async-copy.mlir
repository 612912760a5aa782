// cp.async end to end (txlc, PTX).
//
// txl.async_load: 16-byte copies (.cg), zero-filled past the mask (a
// source size chosen per copy), one group per call; async_load_wait(n) is
// wait_group n, then the async-proxy fence and the CTA barrier.
// RUN: txlc %S/../Inputs/async_copy.py --kernel-name staged_copy --signature "*fp16:16, *fp16:16, i32:16, 1024" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=COPY < %t/staged_copy.ptx
// COPY: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// COPY: cp.async.commit_group;
// COPY: cp.async.cg.shared.global
// COPY: cp.async.commit_group;
// COPY: cp.async.wait_group 1;
// COPY-NEXT: fence.proxy.async.shared::cta;
// COPY-NEXT: bar.sync 0;
// COPY: cp.async.wait_group 0;
//
// On sm_80 the same kernel has no async proxy to fence.
// RUN: txlc %S/../Inputs/async_copy.py --kernel-name staged_copy --signature "*fp16:16, *fp16:16, i32:16, 1024" --target sm_80 --out-dir %t80 --no-cubin
// RUN: FileCheck %s --check-prefix=SM80 < %t80/staged_copy.ptx
// SM80: cp.async.wait_group 1;
// SM80-NOT: fence.proxy.async
// SM80: bar.sync 0;
//
// tl.range(num_stages=4) sets the depth of the automatic pipeline for
// that loop (the launch option says 3): the loop waits with two groups in
// flight (three prologue groups, one per iteration).
// RUN: txlc %S/../Inputs/async_copy.py --kernel-name matmul_stages --signature "*fp16:16, *fp16:16, *fp32:16, i32:16, 64, 64, 32, 4" --num-stages 3 --target sm_90a --out-dir %t4 --no-cubin
// RUN: FileCheck %s --check-prefix=FOUR < %t4/matmul_stages.ptx
// FOUR-COUNT-3: cp.async.commit_group;
// FOUR: cp.async.wait_group 2;
// FOUR: wgmma.mma_async
// FOUR: wgmma.wait_group.sync.aligned 1;
// FOUR: wgmma.wait_group.sync.aligned 0;
// FOUR: cp.async.wait_group 0;
//
// Copies narrower than 4 bytes (N not known to be a multiple of 16 so the
// row starts are unaligned) are a located error, not an internal one.
// RUN: not txlc %S/../Inputs/async_copy.py --kernel-name staged_copy --signature "*fp16:16, *fp16:16, i32, 1024" --target sm_90a --out-dir %tbad --no-cubin 2>&1 | FileCheck %s --check-prefix=NARROW
// NARROW: async_copy.py:11:5: error: txl.async_load: cp.async copies at least 4 contiguous bytes per thread, but only 2 byte(s)
// NARROW-NEXT: txl.async_load(txl.get_buffer(bufs, 1), x_ptr + N + offs, mask=offs < N)
// NARROW-NEXT: ^
// NARROW-NOT: internal error
//
// fp8 operands: wgmma reads 8-bit tiles K-major only, so B (N-contiguous in
// memory) cannot be copied by cp.async into its tile; the loop keeps the
// register path (and the 8-bit tiles are written as bytes).
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp8e4nv:16, *fp8e4nv:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8" --num-warps 8 --target sm_90a --out-dir %tf8 --no-cubin
// RUN: FileCheck %s --check-prefix=FP8 < %tf8/matmul_kernel.ptx
// FP8-NOT: cp.async.cg
// FP8: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
//
// An error in a statically unrolled loop is reported once, not per copy.
// RUN: not txlc %S/../Inputs/async_copy.py --kernel-name unrolled_narrow --signature "*fp16:16, i32, 1024" --target sm_90a --out-dir %tun --no-cubin 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE: async_copy.py:42:9: error: txl.async_load: cp.async copies at least 4 contiguous bytes
// ONCE-NOT: error:
//
// mbar_arrive(track_async_op=True) after async_load: the arrival is
// cp.async.mbarrier.arrive.noinc on the stage's barrier (it fires once the
// thread's copies have landed; no cp.async wait in the producer).
// RUN: txlc %S/../../gpu/txl_kernels_async_copy.py --kernel-name tracked_ring_copy --signature "*fp16:16, *fp16:16, i32, i32:16, i32:16, i32:16, 64, 64, 2, tl.float16, -3.0" --num-warpgroups 2 --target sm_90a --out-dir %ttrack --no-cubin
// RUN: FileCheck %s --check-prefix=TRACK < %ttrack/tracked_ring_copy.ptx
// TRACK: cp.async.cg.shared.global
// TRACK: cp.async.commit_group;
// TRACK: cp.async.mbarrier.arrive.noinc.shared.b64 [{{global_smem|%rd[0-9]+}}];
// TRACK-NOT: cp.async.wait_group
// TRACK: mbarrier.try_wait.parity.shared::cta.b64
