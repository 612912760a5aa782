// The txlgpu.make_tensor_desc verifier: a base of another element type,
// a missing stride, blocks TMA boxes cannot cover (a dimension that is not
// a power of two, rows under 16 bytes, more than 256 boxes).
// RUN: not txl-opt %s -split-input-file 2>&1 | FileCheck %s
// A rank-3 block with 512 rows (two boxes of 256 along them) verifies.
// RUN: not txl-opt %s -split-input-file 2>/dev/null | FileCheck %s --check-prefix=TALL

// CHECK: error: 'txlgpu.make_tensor_desc' op base must be a global pointer to the descriptor's element type
// CHECK: error: 'txlgpu.make_tensor_desc' op needs one shape and one stride per block dimension
// CHECK: error: 'txlgpu.make_tensor_desc' op TMA cannot move the block: it needs power-of-two dimensions, rows of at least 16 bytes and at most 256 boxes
// CHECK: error: 'txlgpu.make_tensor_desc' op TMA cannot move the block
// CHECK: error: 'txlgpu.make_tensor_desc' op TMA cannot move the block
// CHECK-NOT: error
// TALL: func.func @tall
// TALL-NEXT: txlgpu.make_tensor_desc {{.*}} -> <1x512x16xf16>
func.func @bad_base(%p: !txl.ptr<f32>, %m: i32, %n: i32, %s: i64, %one: i64) {
  %a = txlgpu.make_tensor_desc %p, [%m, %n], [%s, %one] : !txl.ptr<f32> -> !txlgpu.tensordesc<64x64xf16>
  return
}

// -----

func.func @bad_rank(%p: !txl.ptr<f16>, %m: i32, %n: i32, %s: i64) {
  %a = txlgpu.make_tensor_desc %p, [%m, %n], [%s] : !txl.ptr<f16> -> !txlgpu.tensordesc<64x64xf16>
  return
}

// -----

func.func @not_pow2(%p: !txl.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64) {
  %a = txlgpu.make_tensor_desc %p, [%m, %n, %n], [%s, %s, %one] : !txl.ptr<f16> -> !txlgpu.tensordesc<3x8x64xf16>
  return
}

// -----

func.func @narrow(%p: !txl.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64) {
  %a = txlgpu.make_tensor_desc %p, [%m, %n, %n], [%s, %s, %one] : !txl.ptr<f16> -> !txlgpu.tensordesc<2x8x4xf16>
  return
}

// -----

func.func @too_many_boxes(%p: !txl.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64) {
  %a = txlgpu.make_tensor_desc %p, [%m, %n, %n], [%s, %s, %one] : !txl.ptr<f16> -> !txlgpu.tensordesc<64x2x512xf16>
  return
}

// -----

func.func @tall(%p: !txl.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64) {
  %a = txlgpu.make_tensor_desc %p, [%m, %n, %n], [%s, %s, %one] : !txl.ptr<f16> -> !txlgpu.tensordesc<1x512x16xf16>
  return
}
