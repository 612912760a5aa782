// SliceTensorMemoryLoads: a tmem_load whose every use is a column slice of
// all rows (what tl.split of a reshaped/permuted accumulator folds to)
// becomes one tmem_load per slice, of a memdesc_view of that slice's
// columns, placed where the whole load was (before the MMA below, so the
// parts read what the whole read). A load with another use, or a slice of
// some rows, stays.
// RUN: txl-opt %s -split-input-file --txlgpu-slice-tensor-memory-loads | FileCheck %s

#tm = #txlgpu.tensor_memory

// CHECK-LABEL: func.func @halves
// CHECK-NOT: txl.extract_slice
// CHECK: %[[V0:.*]] = txlgpu.memdesc_view %[[ACC:.*]] {dim = 1 : i64, permutation = array<i32: 0, 1>, start = 0 : i64} : <128x256xf32, #txlgpu.tensor_memory> -> <128x128xf32, #txlgpu.tensor_memory>
// CHECK-NEXT: %[[L0:.*]] = txlgpu.tmem_load %[[V0]] : <128x128xf32, #txlgpu.tensor_memory> -> tensor<128x128xf32>
// CHECK-NEXT: %[[V1:.*]] = txlgpu.memdesc_view %[[ACC]] {dim = 1 : i64, permutation = array<i32: 0, 1>, start = 128 : i64}
// CHECK-NEXT: %[[L1:.*]] = txlgpu.tmem_load %[[V1]]
// CHECK-NEXT: txlgpu.tmem_store
// CHECK-NEXT: arith.truncf %[[L0]]
// CHECK-NEXT: arith.truncf %[[L1]]
func.func @halves(%acc: !txlgpu.memdesc<128x256xf32, #tm>, %z: tensor<128x256xf32>) -> (tensor<128x128xf16>, tensor<128x128xf16>) {
  %c = txlgpu.tmem_load %acc : !txlgpu.memdesc<128x256xf32, #tm> -> tensor<128x256xf32>
  %x = txl.extract_slice %c {offsets = array<i64: 0, 0>} : tensor<128x256xf32> -> tensor<128x128xf32>
  %y = txl.extract_slice %c {offsets = array<i64: 0, 128>} : tensor<128x256xf32> -> tensor<128x128xf32>
  txlgpu.tmem_store %z, %acc : tensor<128x256xf32> -> !txlgpu.memdesc<128x256xf32, #tm>
  %hx = arith.truncf %x : tensor<128x128xf32> to tensor<128x128xf16>
  %hy = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xf16>
  return %hx, %hy : tensor<128x128xf16>, tensor<128x128xf16>
}

// -----

#tm = #txlgpu.tensor_memory

// CHECK-LABEL: func.func @other_use
// CHECK: %[[C:.*]] = txlgpu.tmem_load %{{.*}} : <128x256xf32, #txlgpu.tensor_memory> -> tensor<128x256xf32>
// CHECK-NEXT: txl.extract_slice %[[C]]
func.func @other_use(%acc: !txlgpu.memdesc<128x256xf32, #tm>) -> (tensor<128x128xf32>, tensor<128x256xf32>) {
  %c = txlgpu.tmem_load %acc : !txlgpu.memdesc<128x256xf32, #tm> -> tensor<128x256xf32>
  %x = txl.extract_slice %c {offsets = array<i64: 0, 0>} : tensor<128x256xf32> -> tensor<128x128xf32>
  return %x, %c : tensor<128x128xf32>, tensor<128x256xf32>
}

// -----

#tm = #txlgpu.tensor_memory

// CHECK-LABEL: func.func @some_rows
// CHECK: %[[C:.*]] = txlgpu.tmem_load %{{.*}} : <128x256xf32, #txlgpu.tensor_memory> -> tensor<128x256xf32>
// CHECK-NEXT: txl.extract_slice %[[C]]
func.func @some_rows(%acc: !txlgpu.memdesc<128x256xf32, #tm>) -> tensor<64x256xf32> {
  %c = txlgpu.tmem_load %acc : !txlgpu.memdesc<128x256xf32, #tm> -> tensor<128x256xf32>
  %x = txl.extract_slice %c {offsets = array<i64: 64, 0>} : tensor<128x256xf32> -> tensor<64x256xf32>
  return %x : tensor<64x256xf32>
}
