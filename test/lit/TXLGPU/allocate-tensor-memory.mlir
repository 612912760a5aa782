// AllocateTensorMemory: the kernel's tmem_alloc buffers are laid out one
// after another in columns (a [128, N] fp32 stage takes N, an fp16 one
// N / 2); the first carries the CTA's whole allocation, rounded up to a
// power of two of at least 32 columns; a tmem_dealloc of it precedes every
// return. A kernel without tensor memory is left alone; one that needs
// more than 512 columns is an error at the buffer that overflows.
// RUN: txl-opt %s -split-input-file --txlgpu-allocate-tensor-memory --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @two_buffers
// CHECK: %[[ACC:.*]] = txlgpu.tmem_alloc {allocColumns = 512 : i32, column = 0 : i32} : <2x128x128xf32
// CHECK: txlgpu.tmem_alloc {column = 256 : i32} : <1x128x64xf16
// CHECK: scf.if
// CHECK-NOT: tmem_dealloc
// CHECK: txlgpu.tmem_dealloc %[[ACC]] {columns = 512 : i32}
// CHECK-NEXT: return
func.func @two_buffers(%c: i1) {
  %acc = txlgpu.tmem_alloc : !txlgpu.memdesc<2x128x128xf32, #txlgpu.tensor_memory>
  %a = txlgpu.tmem_alloc : !txlgpu.memdesc<1x128x64xf16, #txlgpu.tensor_memory>
  scf.if %c {
    txlgpu.tcgen05_fence
  }
  return
}

// -----

// 16 columns round up to the smallest allocation, 32.
// CHECK-LABEL: func.func @small
// CHECK: txlgpu.tmem_alloc {allocColumns = 32 : i32, column = 0 : i32}
// CHECK: txlgpu.tmem_dealloc %{{.*}} {columns = 32 : i32}
func.func @small() {
  %acc = txlgpu.tmem_alloc : !txlgpu.memdesc<1x128x16xf32, #txlgpu.tensor_memory>
  return
}

// -----

// CHECK-LABEL: func.func @none
// CHECK-NOT: tmem_dealloc
func.func @none() {
  return
}

// -----

func.func @overflow() {
  %a = txlgpu.tmem_alloc : !txlgpu.memdesc<1x128x256xf32, #txlgpu.tensor_memory>
  // expected-error @+1 {{the kernel's tensor-memory buffers need 768 columns, more than the 512 an SM has}}
  %b = txlgpu.tmem_alloc : !txlgpu.memdesc<2x128x256xf32, #txlgpu.tensor_memory>
  return
}
