// Reads of asynchronous tl.dot results (lib/Frontend/IRGen/AsyncDotReads.cpp):
// a result is readable after a dot_wait(n) that follows at least n younger
// groups on every path. FA3's overlap (S_{j+1} issued, then P_j V_j, then
// dot_wait(1) retires S_{j+1}) compiles; reads no wait has made safe fail.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../Inputs/async_dot_reads.py --kernel-name overlap --signature "*fp16:16, *fp16:16, *fp32:16, i32" --target sm_90a --out-dir %t/ok
// RUN: FileCheck %s --check-prefix=OVERLAP < %t/ok/overlap.ptx
// S = Q K^T starts from zero: its first wgmma runs with scale-d = 0 on
// undefined registers (no zeros moved into them inside the pipeline), the
// next ones accumulate.
// OVERLAP: wgmma.fence.sync.aligned;
// OVERLAP-NOT: mov.b32 %r{{[0-9]+}}, 0;
// OVERLAP: setp.ne.b32 p, 0, 0;
// OVERLAP-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// OVERLAP: setp.ne.b32 p, 1, 0;
// OVERLAP-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// OVERLAP: wgmma.wait_group.sync.aligned 0;
// OVERLAP: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// OVERLAP: wgmma.commit_group.sync.aligned;
// OVERLAP: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// OVERLAP: wgmma.commit_group.sync.aligned;
// OVERLAP: wgmma.wait_group.sync.aligned 1;
// OVERLAP: ex2.approx
// OVERLAP: wgmma.wait_group.sync.aligned 0;
// RUN: txlc %S/../Inputs/async_dot_reads.py --kernel-name overlap_in_if --signature "*fp16:16, *fp32:16, i32" --target sm_90a --out-dir %t/ok
//
// RUN: not txlc %S/../Inputs/async_dot_reads.py --kernel-name read_younger --signature "*fp16:16, *fp32:16" --target sm_90a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=YOUNGER
// YOUNGER: async_dot_reads.py:60:{{[0-9]+}}: error: this reads an accumulator that an asynchronous tl.dot on shared buffers may still be writing
// RUN: not txlc %S/../Inputs/async_dot_reads.py --kernel-name read_maybe_young --signature "*fp16:16, *fp32:16, i32" --target sm_90a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=MAYBE
// MAYBE: async_dot_reads.py:75:{{[0-9]+}}: error: this reads an accumulator
// RUN: not txlc %S/../Inputs/async_dot_reads.py --kernel-name read_carried --signature "*fp16:16, *fp32:16, i32" --target sm_90a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=CARRIED
// CARRIED: async_dot_reads.py:89:{{[0-9]+}}: error: this reads an accumulator
