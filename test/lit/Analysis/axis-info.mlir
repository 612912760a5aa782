// RUN: txl-opt %s -txl-test-axis-info -split-input-file | FileCheck %s

// Vector add: pid * 128 + arange, through a 16-byte aligned fp32 pointer,
// masked by offs < n with n divisible by 16.
// CHECK-LABEL: func.func @vector_add
func.func @vector_add(%x: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %n: i32 {txl.divisibility = 16 : i32}) {
  // CHECK: txl.program_id 0 {axis_info = "contig=[1] div=[1] const=[1]"}
  %pid = txl.program_id 0 : i32
  %c128 = arith.constant 128 : i32
  // CHECK: arith.muli {{.*}}axis_info = "contig=[1] div=[128] const=[1]"
  %start = arith.muli %pid, %c128 : i32
  // CHECK: txl.make_range {axis_info = "contig=[128] div=[1073741824] const=[1]"
  %r = txl.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // CHECK: txl.splat {{.*}}axis_info = "contig=[1] div=[128] const=[128]"
  %ss = txl.splat %start : i32 -> tensor<128xi32>
  // CHECK: arith.addi {{.*}}axis_info = "contig=[128] div=[128] const=[1]"
  %offs = arith.addi %ss, %r : tensor<128xi32>
  // CHECK: txl.splat {{.*}}axis_info = "contig=[1] div=[16] const=[128]"
  %xs = txl.splat %x : !txl.ptr<f32> -> tensor<128x!txl.ptr<f32>>
  // CHECK: txl.addptr {{.*}}axis_info = "contig=[128] div=[16] const=[1]"
  %p = txl.addptr %xs, %offs : tensor<128x!txl.ptr<f32>>, tensor<128xi32>
  %ns = txl.splat %n : i32 -> tensor<128xi32>
  // CHECK: arith.cmpi slt, {{.*}}axis_info = "contig=[1] div=[1] const=[16]"
  %m = arith.cmpi slt, %offs, %ns : tensor<128xi32>
  // CHECK: txl.load {{.*}}axis_info = "contig=[1] div=[1] const=[1]"
  %v = txl.load %p, %m : tensor<128x!txl.ptr<f32>>, tensor<128xi1> -> tensor<128xf32>
  txl.store %p, %v, %m : tensor<128x!txl.ptr<f32>>, tensor<128xf32>, tensor<128xi1>
  return
}

// -----

// The bound n carries no divisibility: the mask is only known per element.
// CHECK-LABEL: func.func @unaligned_bound
func.func @unaligned_bound(%n: i32) {
  %r = txl.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %ns = txl.splat %n : i32 -> tensor<128xi32>
  // CHECK: arith.cmpi slt, {{.*}}axis_info = "contig=[1] div=[1] const=[1]"
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  return
}

// -----

// rows[:, None] * stride + cols[None, :] with stride % 16 == 0.
// CHECK-LABEL: func.func @tile
func.func @tile(%base: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %stride: i32 {txl.divisibility = 16 : i32}) {
  %rows = txl.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %cols = txl.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %r2 = txl.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rb = txl.broadcast %r2 : tensor<32x1xi32> -> tensor<32x64xi32>
  %ss = txl.splat %stride : i32 -> tensor<32x64xi32>
  // CHECK: arith.muli {{.*}}axis_info = "contig=[1, 1] div=[16, 16] const=[1, 64]"
  %rs = arith.muli %rb, %ss : tensor<32x64xi32>
  %c2 = txl.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cb = txl.broadcast %c2 : tensor<1x64xi32> -> tensor<32x64xi32>
  // CHECK: arith.addi {{.*}}axis_info = "contig=[1, 64] div=[1, 16] const=[1, 1]"
  %offs = arith.addi %rs, %cb : tensor<32x64xi32>
  %bs = txl.splat %base : !txl.ptr<f16> -> tensor<32x64x!txl.ptr<f16>>
  // CHECK: txl.addptr {{.*}}axis_info = "contig=[1, 64] div=[2, 16] const=[1, 1]"
  %p = txl.addptr %bs, %offs : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
  return
}

// -----

// A pointer advanced by an unknown step in a loop keeps its runs but only
// the step's alignment survives the back edge.
// CHECK-LABEL: func.func @loop
func.func @loop(%x: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %step: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = txl.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xs = txl.splat %x : !txl.ptr<f32> -> tensor<128x!txl.ptr<f32>>
  %p0 = txl.addptr %xs, %r : tensor<128x!txl.ptr<f32>>, tensor<128xi32>
  %ss = txl.splat %step : i32 -> tensor<128xi32>
  // CHECK: scf.for
  %res = scf.for %iv = %c0 to %n step %c1 iter_args(%p = %p0) -> (tensor<128x!txl.ptr<f32>>) : i32 {
    // CHECK: txl.addptr {{.*}}axis_info = "contig=[128] div=[4] const=[1]"
    %next = txl.addptr %p, %ss : tensor<128x!txl.ptr<f32>>, tensor<128xi32>
    scf.yield %next : tensor<128x!txl.ptr<f32>>
  }
  // CHECK: axis_info = "contig=[128] div=[4] const=[1]", axis_info.args = ["contig=[1] div=[1] const=[1]", "contig=[128] div=[4] const=[1]"]
  return
}

// -----

// User hints override what the analysis derives.
// CHECK-LABEL: func.func @hints
func.func @hints(%v: i32, %t: tensor<64xi32>) {
  // CHECK: txl.hint {{.*}}axis_info = "contig=[1] div=[16] const=[1]"
  %h = txl.hint %v {divisibility = array<i64: 16>} : i32
  // CHECK: txl.hint {{.*}}axis_info = "contig=[64] div=[16] const=[1]"
  %ht = txl.hint %t {contiguity = array<i64: 64>, divisibility = array<i64: 16>} : tensor<64xi32>
  return
}

// -----

// x // 4 is constant over runs of 4; x % 32 restarts every 32 elements.
// CHECK-LABEL: func.func @pow2_div
func.func @pow2_div() {
  %r = txl.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %c4 = arith.constant dense<4> : tensor<128xi32>
  %c32 = arith.constant dense<32> : tensor<128xi32>
  // CHECK: arith.divsi {{.*}}axis_info = "contig=[1] div=[1] const=[4]"
  %d = arith.divsi %r, %c4 : tensor<128xi32>
  // CHECK: arith.remsi {{.*}}axis_info = "contig=[32] div=[1073741824] const=[1]"
  %m = arith.remsi %r, %c32 : tensor<128xi32>
  return
}

// -----

// A remainder by a value divisible by 16 keeps aligned runs of 16 of a
// contiguous dividend (Triton's `(pid * BLOCK + arange) % N`); by a value
// of unknown divisibility, none.
// CHECK-LABEL: func.func @rem_by_multiple
func.func @rem_by_multiple(%n: i32 {txl.divisibility = 16 : i32}, %m: i32) {
  %pid = txl.program_id 0 : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %s = txl.splat %start : i32 -> tensor<256xi32>
  %r = txl.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %o = arith.addi %s, %r : tensor<256xi32>
  %ns = txl.splat %n : i32 -> tensor<256xi32>
  %ms = txl.splat %m : i32 -> tensor<256xi32>
  // CHECK: arith.remsi {{.*}}axis_info = "contig=[16] div=[16] const=[1]"
  %a = arith.remsi %o, %ns : tensor<256xi32>
  // CHECK: arith.remsi {{.*}}axis_info = "contig=[1] div=[1] const=[1]"
  %b = arith.remsi %o, %ms : tensor<256xi32>
  return
}
