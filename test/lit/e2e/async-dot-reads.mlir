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
//
// A `for` loop that carries a result out still in flight gets the implicit
// dot_wait(0) at its exit (the TXL project's rule): the epilogue reads the
// finished accumulator.
// RUN: txlc %S/../Inputs/async_dot_reads.py --kernel-name exit_wait --signature "*fp16:16, *fp32:16, i32" --target sm_90a --out-dir %t/ok
// RUN: FileCheck %s --check-prefix=EXIT < %t/ok/exit_wait.ptx
// RUN: FileCheck %s --check-prefix=EXIT-IR < %t/ok/exit_wait.txlir
// EXIT: wgmma.commit_group.sync.aligned;
// EXIT: wgmma.wait_group.sync.aligned 1;
// EXIT: bra $L__BB
// EXIT-NEXT: {{^}}$L__BB
// EXIT-NEXT: // begin inline asm
// EXIT-NEXT: wgmma.wait_group.sync.aligned 0;
// EXIT: st.global
// EXIT-IR: scf.for
// EXIT-IR: txlgpu.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
// EXIT-IR: scf.yield
// EXIT-IR: %[[DONE:.*]] = txlgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// EXIT-IR: txl.store {{.*}}, %[[DONE]]
// RUN: txlc %S/../Inputs/async_dot_reads.py --kernel-name overlap_exit --signature "*fp16:16, *fp16:16, *fp32:16, i32" --target sm_90a --out-dir %t/ok
// RUN: FileCheck %s --check-prefix=OVEXIT < %t/ok/overlap_exit.ptx
// OVEXIT: wgmma.wait_group.sync.aligned 1;
// OVEXIT: wgmma.wait_group.sync.aligned 0;
// OVEXIT: st.global
// RUN: not txlc %S/../Inputs/async_dot_reads.py --kernel-name read_after_while --signature "*fp16:16, *fp32:16, i32" --target sm_90a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=WHILE
// WHILE: async_dot_reads.py:144:5: error: this reads an accumulator
// RUN: not txlc %S/../Inputs/async_dot_reads.py --kernel-name read_in_next_iteration --signature "*fp16:16, *fp32:16, i32" --target sm_90a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=NEXTITER
// NEXTITER: async_dot_reads.py:157:15: error: this reads an accumulator
//
// Warpgroup roles: the check follows each warpgroup's branches of
// txl.is_warpgroup conditions, so a dot issued in one role branch and
// retired in a later branch of the same role compiles; a wait that only
// another warpgroup runs does not retire it.
// RUN: txlc %S/../Inputs/async_dot_reads.py --kernel-name roles_dot_then_wait --signature "*fp16:16, *fp32:16, i32" --num-warpgroups 2 --target sm_90a --out-dir %t/ok --no-cubin
// RUN: not txlc %S/../Inputs/async_dot_reads.py --kernel-name roles_wait_in_other_role --signature "*fp16:16, *fp32:16, i32" --num-warpgroups 2 --target sm_90a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=ROLES
// ROLES: async_dot_reads.py:193:{{[0-9]+}}: error: this reads an accumulator
