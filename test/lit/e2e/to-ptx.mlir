// txl-opt --to-ptx (which runs txlc --to-ptx) finishes the pipeline from IR
// dumped anywhere in it and
// gives the PTX txlc gives (line info aside: a dump without locations has
// the dump's own lines).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" --out-dir %t --print-after-all %t/passes > /dev/null
// RUN: grep -v "^//\|\.loc\|\.file" %t/add_kernel.ptx > %t/expected.ptx
//
// From a --print-after-all file: its name says how far it got.
// RUN: txl-opt --to-ptx %t/passes/txlgir-06-txlgpu-pipeline-warp-group-dots.mlir -o %t/a.ptx 2>&1 | FileCheck %s --check-prefix=FROM6
// FROM6: txlc --to-ptx: add_kernel for sm_90a from after pass 11
// RUN: grep -v "^//\|\.loc\|\.file" %t/a.ptx | diff - %t/expected.ptx
// RUN: txlc --to-ptx %t/passes/llvm-02-txl-convert-txlgpu-to-llvm.mlir -o %t/b.ptx
// RUN: grep -v "^//\|\.loc\|\.file" %t/b.ptx | diff - %t/expected.ptx
//
// From the artifacts: tile IR resumes after the tile stage, GPU IR with
// its shared memory assigned after the GPU stage.
// RUN: txl-opt --to-ptx %t/add_kernel.txlir -o %t/c.ptx --cubin %t/c.cubin
// RUN: grep -v "^//\|\.loc\|\.file" %t/c.ptx | diff - %t/expected.ptx
// RUN: test -s %t/c.cubin
// RUN: txl-opt --to-ptx %t/add_kernel.txlgir | grep -v "^//\|\.loc\|\.file" | diff - %t/expected.ptx
//
// A hand edit of the GPU IR reaches the PTX: the add becomes a multiply.
// RUN: sed 's/arith.addf/arith.mulf/' %t/add_kernel.txlgir > %t/edited.txlgir
// RUN: txl-opt --to-ptx %t/edited.txlgir | FileCheck %s --check-prefix=EDIT
// EDIT: mul{{(.rn)?}}.f32
// EDIT-NOT: add.{{(rn.)?}}f32
//
// Options recorded in the module win: an 8-warp GPU IR stays 8 warps.
// RUN: txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" --num-warps 8 --out-dir %t/w8 > /dev/null
// RUN: txl-opt --to-ptx %t/w8/add_kernel.txlgir --num-warps 4 | FileCheck %s --check-prefix=W8
// RUN: txl-opt --to-ptx %t/w8/add_kernel.txlir | FileCheck %s --check-prefix=W8
// W8: .maxntid 256, 1, 1
//
// The tile IR records them too, so one pass replays with no options.
// RUN: txl-opt --txl-assign-layouts %t/w8/add_kernel.txlir | FileCheck %s --check-prefix=REPLAY
// REPLAY: txlgpu.num_warps = 8 : i32
// REPLAY: warpsPerCTA = [8]
//
// Bad input is an error, not a crash.
// RUN: echo "this is not IR" > %t/bad.mlir
// RUN: not txl-opt --to-ptx %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: bad.mlir: error: not a txl module
// RUN: not txl-opt --to-ptx 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: txlc --to-ptx: error: no input file
// RUN: not txlc --to-ptx %t/bad.mlir --after-pass x 2>&1 | FileCheck %s --check-prefix=BADNUM
// BADNUM: txlc --to-ptx: error: --after-pass needs a non-negative number
// RUN: not txlc --to-ptx %t/bad.mlir --frobnicate 2>&1 | FileCheck %s --check-prefix=BADFLAG
// BADFLAG: txlc --to-ptx: error: unknown option '--frobnicate' with --to-ptx
