// tl.make_block_ptr / tl.advance become ordinary pointer tensors: a block
// pointer carried through a tl.range loop and advanced each iteration gives
// loads the cp.async pipeliner takes (16-byte copies, three stages), and
// boundary_check turns into a mask with zero (or NaN) padding.
// RUN: txlc %S/../../gpu/txl_kernels_block_ptr.py --kernel-name bp_matmul --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64" --num-warps 8 --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=MM < %t/bp_matmul.txlgir
// MM: txlgpu.smem_alloc {txlgpu.loop_staging, {{.*}}} : <3x128x64xf16
// MM: txlgpu.async_copy_global_to_local {{.*}} {txlgpu.vec = 8 : i32}
// MM: txlgpu.warp_group_dot
// RUN: txlc %S/../../gpu/txl_kernels_block_ptr.py --kernel-name bp_pad --signature "*fp32:16, *fp32:16, i32, i32, i32, i32, 32, 64, True" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=NAN < %t/bp_pad.txlir
// NAN: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// NAN: txl.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x64x!txl.ptr<f32>>, tensor<32x64xi1>, tensor<32x64xf32>
//
// A block pointer takes boundary_check and padding_option, not mask.
// RUN: not txlc %S/../Inputs/block_ptr_errors.py --kernel-name masked --signature "*fp32:16, i32" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=MASK
// MASK: block_ptr_errors.py:9:9: error: tl.load: a block pointer takes boundary_check and padding_option, not mask and other
// RUN: not txlc %S/../Inputs/block_ptr_errors.py --kernel-name bad_advance --signature "*fp32:16, i32" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=ADV
// ADV: block_ptr_errors.py:15:9: error: tl.advance: 1 offsets for a block pointer of rank 2
