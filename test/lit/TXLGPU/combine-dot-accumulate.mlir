// CombineDotAccumulate: acc + dot(a, b, 0) (either operand order) becomes
// dot(a, b, acc); a dot with a nonzero accumulator or another user stays.
// RUN: txl-opt %s -split-input-file --txlgpu-combine-dot-accumulate | FileCheck %s

// CHECK-LABEL: func.func @fold
// CHECK-SAME: (%[[A:.*]]: tensor<64x32xf16>, %[[B:.*]]: tensor<32x64xf16>, %[[ACC:.*]]: tensor<64x64xf32>)
// CHECK: %[[D:.*]] = txl.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: %[[E:.*]] = txl.dot %[[A]], %[[B]], %[[D]]
// CHECK-NEXT: return %[[E]]
func.func @fold(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = txl.dot %a, %b, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %s = arith.addf %acc, %d : tensor<64x64xf32>
  %e = txl.dot %a, %b, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %t = arith.addf %e, %s : tensor<64x64xf32>
  return %t : tensor<64x64xf32>
}

// -----

// CHECK-LABEL: func.func @keep
// CHECK: %[[D:.*]] = txl.dot %{{.*}}, %{{.*}}, %{{.*}}
// CHECK: arith.addf %{{.*}}, %[[D]]
// CHECK: %[[E:.*]] = txl.dot %{{.*}}, %{{.*}}, %[[Z:.*]] :
// CHECK: arith.addf %{{.*}}, %[[E]]
// CHECK: arith.mulf %[[E]], %[[E]]
func.func @keep(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %acc: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %one = arith.constant dense<1.0> : tensor<64x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = txl.dot %a, %b, %one : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %s = arith.addf %acc, %d : tensor<64x64xf32>
  %e = txl.dot %a, %b, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %t = arith.addf %acc, %e : tensor<64x64xf32>
  %u = arith.mulf %e, %e : tensor<64x64xf32>
  return %s, %t, %u : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}
