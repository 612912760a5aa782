// `acc += tl.dot(a, b)` with operands in shared memory (the TXL project's
// spelling) accumulates in the asynchronous wgmma itself: the code is the
// code of `acc = tl.dot(a, b, acc)` (GEMM ladder step 2, run on the H100).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's/acc = tl.dot(sA, sB.T, acc)/acc += tl.dot(sA, sB.T)/' %tutorials/gemm/step02_k_loop.py > %t/aug.py
// RUN: grep -c "acc += tl.dot(sA, sB.T)" %t/aug.py | FileCheck %s --check-prefix=EDITED
// EDITED: 1
// RUN: txlc %tutorials/gemm/step02_k_loop.py --kernel-name gemm_step02 --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, 128, 128, 64" --target sm_90a --no-cubin --out-dir %t/orig > /dev/null
// RUN: txlc %t/aug.py --kernel-name gemm_step02 --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, 128, 128, 64" --target sm_90a --no-cubin --out-dir %t/aug > /dev/null
// RUN: grep -v "\.loc\|\.file\|^//" %t/orig/gemm_step02.ptx > %t/orig.ptx
// RUN: grep -v "\.loc\|\.file\|^//" %t/aug/gemm_step02.ptx | diff - %t/orig.ptx
//
// Without the wait in the loop the accumulator leaves it in flight, and the
// loop gets the implicit dot_wait(0) at its exit (the TXL project's rule,
// AsyncDotReads.cpp): the store after the loop reads the finished value.
// RUN: sed '/txl.dot_wait(0)  *# done reading/d' %t/aug.py > %t/nowait.py
// RUN: txlc %t/nowait.py --kernel-name gemm_step02 --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, 128, 128, 64" --target sm_90a --no-cubin --out-dir %t/nowait > /dev/null
// RUN: FileCheck %s --check-prefix=NOWAIT < %t/nowait/gemm_step02.txlir
// NOWAIT: scf.for
// NOWAIT-NOT: warp_group_dot_wait
// NOWAIT: scf.yield
// NOWAIT-NEXT: }
// NOWAIT-NEXT: txlgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
//
