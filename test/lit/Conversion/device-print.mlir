// txl.print (tl.device_print) lowers to vprintf: one constant format string
// per distinct line shape, the arguments packed in a stack struct.
// RUN: txl-opt --txl-convert-txlgpu-to-llvm %s | FileCheck %s
// RUN: txl-opt --txl-convert-txlgpu-to-llvm %s | grep -c 'x=%f' | FileCheck %s --check-prefix=ONCE
// ONCE: 1

// CHECK-DAG: llvm.mlir.global internal constant @[[X:txl_printf_format_[0-9]+]]("pid (%u, %u, %u) idx (%3d) x=%f\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[N:txl_printf_format_[0-9]+]]("pid (%u, %u, %u) n=%d\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[S:txl_printf_format_[0-9]+]]("pid (%u, %u, %u) s=0x%016llx\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[P:txl_printf_format_[0-9]+]]("pid (%u, %u, %u) p=%p\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[PCT:txl_printf_format_[0-9]+]]("pid (%u, %u, %u) 50%%\0A\00")
// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-LABEL: llvm.func @print_kernel
// The stack slots are static: allocated in the entry block.
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, f64)>
// Two registers per thread: two lines per print of the tensor.
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.ctaid.y
// CHECK: nvvm.read.ptx.sreg.ctaid.z
// CHECK: llvm.fpext %{{.*}} : f32 to f64
// CHECK: %[[F0:.*]] = llvm.mlir.addressof @[[X]]
// CHECK: llvm.store %{{.*}}, %[[SLOT:.*]] {alignment = 8 : i64} : !llvm.struct<(i32, i32, i32, i32, f64)>
// CHECK: llvm.call @vprintf(%[[F0]], %[[SLOT]])
// CHECK: llvm.fpext
// CHECK: llvm.call @vprintf
// CHECK: llvm.call @vprintf
// CHECK: llvm.call @vprintf
// CHECK: llvm.mlir.addressof @[[N]]
// CHECK: llvm.store {{.*}} !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.call @vprintf
// CHECK: llvm.mlir.addressof @[[S]]
// CHECK: llvm.store {{.*}} !llvm.struct<(i32, i32, i32, i64)>
// CHECK: llvm.call @vprintf
// CHECK: llvm.ptrtoint %arg0 : !llvm.ptr<1> to i64
// CHECK: llvm.mlir.addressof @[[P]]
// CHECK: llvm.call @vprintf
// CHECK: llvm.mlir.addressof @[[PCT]]
// CHECK: llvm.call @vprintf
// CHECK-NOT: txl.print

// End to end from Python: a 1-D tensor, a scalar, hex, 2-D tensors, several
// operands, pointers, i1/i64/f16/bf16 and a print inside a loop; ptxas (or
// nvJitLink) must accept the PTX for every target.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../Inputs/device_print.py --kernel-name print_kernel --signature "*fp32:16, i32, 256" --target sm_90a --out-dir %t/90 > /dev/null
// RUN: test -s %t/90/print_kernel.cubin
// RUN: FileCheck %s --check-prefix=LLIR < %t/90/print_kernel.llir
// RUN: FileCheck %s --check-prefix=PTX < %t/90/print_kernel.ptx
// LLIR-DAG: c"pid (%u, %u, %u) idx (%3d) x=%f\0A\00"
// LLIR-DAG: c"pid (%u, %u, %u) n=%d\0A\00"
// LLIR-DAG: c"pid (%u, %u, %u) idx (%3d) offs0x%08x\0A\00"
// LLIR-DAG: declare {{.*}}i32 @vprintf(ptr, ptr)
// LLIR: call i32 @vprintf(
// PTX: .extern .func (.param .b32 func_retval0) vprintf
// PTX: call.uni (retval0), vprintf,
// RUN: txlc %S/../Inputs/device_print.py --kernel-name print_types_kernel --signature "*fp16:16, i32, 16, 32" --target sm_90a --out-dir %t/t90 > /dev/null
// RUN: test -s %t/t90/print_types_kernel.cubin
// RUN: FileCheck %s --check-prefix=TYPES < %t/t90/print_types_kernel.llir
// TYPES-DAG: c"pid (%u, %u, %u) hello 100%%\0A\00"
// TYPES-DAG: c"pid (%u, %u, %u) idx (%2d, %2d) h %f\0A\00"
// TYPES-DAG: c"pid (%u, %u, %u) idx (%2d, %2d) bits 0x%04x\0A\00"
// TYPES-DAG: c"pid (%u, %u, %u) idx (%2d, %2d) ptr %p\0A\00"
// TYPES-DAG: c"pid (%u, %u, %u) idx (%2d, %2d) big 0x%016llx\0A\00"
// TYPES-DAG: c"pid (%u, %u, %u) idx (%2d, %1d) pair (operand 0) %d\0A\00"
// TYPES-DAG: c"pid (%u, %u, %u) idx (%2d, %2d) pair (operand 1) %d\0A\00"
// TYPES-DAG: c"pid (%u, %u, %u) i (operand 0) %d\0A\00"
// TYPES-DAG: c"pid (%u, %u, %u) idx (%2d, %2d) i (operand 1) %f\0A\00"
// TYPES-LABEL: define ptx_kernel void @print_types_kernel
// TYPES-NOT: {{^[0-9]+:}}
// TYPES: alloca
// RUN: txlc %S/../Inputs/device_print.py --kernel-name print_types_kernel --signature "*fp16:16, i32, 16, 32" --target sm_80 --out-dir %t/t80 > /dev/null
// RUN: txlc %S/../Inputs/device_print.py --kernel-name print_types_kernel --signature "*fp16:16, i32, 16, 32" --target sm_100a --out-dir %t/t100 > /dev/null

#blocked = #txlgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.threads_per_warp = 32 : i32} {
  func.func @print_kernel(%p: !txl.ptr<f32>, %n: i32, %s: i64) attributes {txl.kernel} {
    %r = txl.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %f = arith.sitofp %r : tensor<256xi32, #blocked> to tensor<256xf32, #blocked>
    txl.print "x=" {hex = false} : %f : tensor<256xf32, #blocked>
    txl.print "x=" {hex = false} : %f : tensor<256xf32, #blocked>
    txl.print "n=" {hex = false} : %n : i32
    txl.print "s=" {hex = true} : %s : i64
    txl.print "p=" {hex = false} : %p : !txl.ptr<f32>
    txl.print "50%" {hex = false}
    return
  }
}
