// The txlgpu.prefetch_l2 verifier: cp.async.bulk.prefetch.L2 reads global
// memory only, in whole 16-byte units, so a shared pointer and a constant
// count that is not a positive multiple of 16 are refused.
// RUN: not txl-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: error: 'txlgpu.prefetch_l2' op ptr must point into global memory
// CHECK: error: 'txlgpu.prefetch_l2' op bytes must be a positive multiple of 16, got 100
// CHECK: error: 'txlgpu.prefetch_l2' op bytes must be a positive multiple of 16, got 0
// CHECK-NOT: error
func.func @shared(%p: !txl.ptr<f16, 3>, %n: i32) {
  txlgpu.prefetch_l2 %p, %n : !txl.ptr<f16, 3>
  return
}

// -----

func.func @ragged(%p: !txl.ptr<f16>) {
  %c = arith.constant 100 : i32
  txlgpu.prefetch_l2 %p, %c : !txl.ptr<f16>
  return
}

// -----

func.func @empty(%p: !txl.ptr<f16>) {
  %c = arith.constant 0 : i32
  txlgpu.prefetch_l2 %p, %c : !txl.ptr<f16>
  return
}
