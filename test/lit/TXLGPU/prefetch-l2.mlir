// txlgpu.prefetch_l2 (txl.prefetch_l2) prints and parses back unchanged,
// with and without its per-thread predicate, for any pointee type (the
// count is in bytes).
// RUN: txl-opt %s | txl-opt | FileCheck %s

// CHECK-LABEL: func.func @prefetch
// CHECK: txlgpu.prefetch_l2 %{{.*}}, %{{.*}} : !txl.ptr<bf16>
// CHECK: txlgpu.prefetch_l2 %{{.*}}, %{{.*}}, %{{.*}} : !txl.ptr<bf16>
// CHECK: txlgpu.prefetch_l2 %{{.*}}, %{{.*}}, %{{.*}} : !txl.ptr<i8>
func.func @prefetch(%p: !txl.ptr<bf16>, %q: !txl.ptr<i8>, %n: i32, %pred: i1) {
  %c = arith.constant 73728 : i32
  txlgpu.prefetch_l2 %p, %n : !txl.ptr<bf16>
  txlgpu.prefetch_l2 %p, %c, %pred : !txl.ptr<bf16>
  txlgpu.prefetch_l2 %q, %n, %pred : !txl.ptr<i8>
  return
}
