// The txlgpu.make_tensor_desc verifier: a base of another element type,
// a missing stride.
// RUN: not txl-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: error: 'txlgpu.make_tensor_desc' op base must be a global pointer to the descriptor's element type
// CHECK: error: 'txlgpu.make_tensor_desc' op needs one shape and one stride per block dimension
func.func @bad_base(%p: !txl.ptr<f32>, %m: i32, %n: i32, %s: i64, %one: i64) {
  %a = txlgpu.make_tensor_desc %p, [%m, %n], [%s, %one] : !txl.ptr<f32> -> !txlgpu.tensordesc<64x64xf16>
  return
}

// -----

func.func @bad_rank(%p: !txl.ptr<f16>, %m: i32, %n: i32, %s: i64) {
  %a = txlgpu.make_tensor_desc %p, [%m, %n], [%s] : !txl.ptr<f16> -> !txlgpu.tensordesc<64x64xf16>
  return
}
