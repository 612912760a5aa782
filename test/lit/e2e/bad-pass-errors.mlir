// The bad-input cases whose error a GPU pass reports (`# stage: gpu` in
// test/bad/semantic: the mbarrier-protocol check) compile with txlc to
// exactly the located error their `# expect:` header names.
// RUN: python3 %S/../Inputs/check_bad_gpu.py %txl_src/test/bad/semantic | FileCheck %s
// CHECK: checked {{[1-9][0-9]*}} GPU-pass bad inputs, 0 failed
