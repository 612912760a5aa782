// Tensor descriptors of rank 3 to 5 (txlgpu::getTMABoxes decides the
// boxes). A block whose rows are one swizzle span is one box over all its
// leading dimensions; rows of two spans (fp32 x 64) are one box per span
// and leading index ([1, 8, 32]: four copies of 1 KB at consecutive
// offsets, one expect_tx of the 4 KB tile); a 1-D block of 2048 elements
// is eight boxes of 256 (TMA's limit). txlc assembles every kernel (the
// test fails if ptxas / nvJitLink reject the PTX).
// RUN: rm -rf %t && mkdir -p %t
//
// Stores through rank 3-5 descriptors are refused for now: on the H100
// they wrote outside the tensor (test_tensor_desc_nd.py::
// test_host_descriptor, session 10), while loads of those ranks read
// correctly (test_load_zero_fill).
// RUN: not txlc %S/../Inputs/desc_nd.py --kernel-name desc_copy_3d --signature "tensordesc<fp32[2, 8, 64]>, tensordesc<fp32[2, 8, 64]>" --target sm_90a --out-dir %t 2>&1 | FileCheck %s --check-prefix=STORE3
// STORE3: error: desc.store: stores through tensor descriptors of rank 3 are not supported yet
//
// A rank-5 map built in the kernel is refused for now: on the H100 such
// maps stored outside the tensor (test_tensor_desc_nd.py::
// test_made_descriptor, session 10), so the in-kernel encoding of the
// extra dimensions is wrong somewhere.
// RUN: not txlc %S/../Inputs/desc_nd.py --kernel-name made_copy_5d --signature "*fp16:16, *fp16:16, i32, i32, i32, i32, i32, 2, 2, 2, 8, 64" --target sm_90a --out-dir %t 2>&1 | FileCheck %s --check-prefix=MADE5
// MADE5: error: tl.make_tensor_descriptor: descriptors of rank 5 made in a kernel are not supported yet
//
// txl.tma_load of a 3-D buffer: one box, the expected bytes counted.
// RUN: txlc %S/../Inputs/desc_nd.py --kernel-name tma_load_3d --signature "tensordesc<fp16[2, 8, 64]>, *fp16:16, 2, 8, 64" --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=TMA3 < %t/tma_load_3d.ptx
// TMA3-COUNT-1: cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// TMA3-NOT: cp.async.bulk.tensor
//
// Triton's test_trans_4d builds its rank-4 descriptors in the kernel:
// refused for the same reason.
// RUN: not txlc %S/../Inputs/desc_nd.py --kernel-name trans_4d --signature "*i32:16, *i32:16, 2, 2, 8, 64, 0, 2, 1, 3" --target sm_90a --out-dir %t 2>&1 | FileCheck %s --check-prefix=TRANS
// TRANS: error: tl.make_tensor_descriptor: descriptors of rank 4 made in a kernel are not supported yet
