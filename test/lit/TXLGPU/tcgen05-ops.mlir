// The tensor-memory and tcgen05 ops print and parse back unchanged: a
// tmem_alloc stage array, a stage of it, an MMA from shared memory
// committed to two mbarriers, one with A in tensor memory and a predicate,
// the fences, tmem_load/tmem_store and the dealloc the compiler inserts.
// RUN: txl-opt %s | txl-opt | FileCheck %s

#tm = #txlgpu.tensor_memory
#sw = #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>
#bar = #txlgpu.barrier
#regs = #txlgpu.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>

// CHECK-LABEL: func.func @ops
// CHECK: %[[ACC:.*]] = txlgpu.tmem_alloc {allocColumns = 256 : i32, column = 0 : i32} : <2x128x128xf32, #txlgpu.tensor_memory>
// CHECK: %[[A16:.*]] = txlgpu.tmem_alloc {column = 256 : i32} : <1x128x64xf16, #txlgpu.tensor_memory>
// CHECK: %[[D:.*]] = txlgpu.memdesc_index %[[ACC]][%{{.*}}] : <2x128x128xf32, #txlgpu.tensor_memory> -> <128x128xf32, #txlgpu.tensor_memory>
// CHECK: txlgpu.tcgen05_mma %{{.*}}, %{{.*}}, %[[D]], %{{.*}} commit %{{.*}}, %{{.*}} {leaderWarp = 4 : i32} : <128x64xf16, {{.*}}> * <64x128xf16, {{.*}}> -> <128x128xf32, #txlgpu.tensor_memory>, !txlgpu.memdesc<1xi64, #txlgpu.barrier>, !txlgpu.memdesc<1xi64, #txlgpu.barrier>
// CHECK: txlgpu.tcgen05_mma %{{.*}}, %{{.*}}, %[[D]], %{{.*}}, %{{.*}} {leaderWarp = 0 : i32} : <128x64xf16, #txlgpu.tensor_memory> *
// CHECK: txlgpu.tcgen05_fence {after}
// CHECK: txlgpu.tcgen05_fence
// CHECK: txlgpu.tmem_load %[[D]] : <128x128xf32, #txlgpu.tensor_memory> -> tensor<128x128xf32, #txlgpu.blocked
// CHECK: txlgpu.tmem_store %{{.*}}, %[[D]] :
// CHECK: txlgpu.tmem_dealloc %[[ACC]] {columns = 512 : i32} : <2x128x128xf32, #txlgpu.tensor_memory>
func.func @ops(%i: i32, %use: i1, %p: i1,
               %a: !txlgpu.memdesc<128x64xf16, #sw>,
               %b: !txlgpu.memdesc<64x128xf16, #sw>,
               %bar0: !txlgpu.memdesc<1xi64, #bar>,
               %bar1: !txlgpu.memdesc<1xi64, #bar>) {
  %acc = txlgpu.tmem_alloc {allocColumns = 256 : i32, column = 0 : i32} : !txlgpu.memdesc<2x128x128xf32, #tm>
  %a16 = txlgpu.tmem_alloc {column = 256 : i32} : !txlgpu.memdesc<1x128x64xf16, #tm>
  %d = txlgpu.memdesc_index %acc[%i] : !txlgpu.memdesc<2x128x128xf32, #tm> -> !txlgpu.memdesc<128x128xf32, #tm>
  %at = txlgpu.memdesc_index %a16[%i] : !txlgpu.memdesc<1x128x64xf16, #tm> -> !txlgpu.memdesc<128x64xf16, #tm>
  txlgpu.tcgen05_mma %a, %b, %d, %use commit %bar0, %bar1 {leaderWarp = 4 : i32} : !txlgpu.memdesc<128x64xf16, #sw> * !txlgpu.memdesc<64x128xf16, #sw> -> !txlgpu.memdesc<128x128xf32, #tm>, !txlgpu.memdesc<1xi64, #bar>, !txlgpu.memdesc<1xi64, #bar>
  txlgpu.tcgen05_mma %at, %b, %d, %use, %p {leaderWarp = 0 : i32} : !txlgpu.memdesc<128x64xf16, #tm> * !txlgpu.memdesc<64x128xf16, #sw> -> !txlgpu.memdesc<128x128xf32, #tm>
  txlgpu.tcgen05_fence {after}
  txlgpu.tcgen05_fence
  %v = txlgpu.tmem_load %d : !txlgpu.memdesc<128x128xf32, #tm> -> tensor<128x128xf32, #regs>
  txlgpu.tmem_store %v, %d : tensor<128x128xf32, #regs> -> !txlgpu.memdesc<128x128xf32, #tm>
  txlgpu.tmem_dealloc %acc {columns = 512 : i32} : !txlgpu.memdesc<2x128x128xf32, #tm>
  return
}
