// Many compiles in one process through the real library (as a test suite or
// an autotuner does): no crash, no internal error, expected errors located.
// RUN: rm -rf %t && env TXL_LIBRARY=%txl_lib TXL_CACHE_DIR=%t python3 %S/../Inputs/compile_sequence.py %txl_src | FileCheck %s
// CHECK-NOT: FAILED
// CHECK: located error overhang_copy: cp.async copies at least 4 contiguous bytes
// CHECK-NOT: FAILED
// CHECK: located error column_max: the reduced axis is split across warps
// CHECK-NOT: FAILED
// CHECK: compiled 74
