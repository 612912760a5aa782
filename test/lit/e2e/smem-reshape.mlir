// txl.smem_reshape: a view with another shape of the same elements
// (row-major). The view gets the NVMMA layout that keeps every element
// where the source stores it: a two-stage [2, 64, 64] array read and
// TMA-stored as one [128, 64] tile, a TMA-loaded (128-byte swizzled)
// [64, 64] tile read half by half through a [2, 32, 64] view, and one
// written through a [32, 2, 64] view and read by wgmma. The address of a
// reshape is its source's; ptxas accepts the result.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_gather.py --kernel-name reshape_stages --signature "tensordesc<fp16[64, 64]>, tensordesc<fp16[128, 64]>, *fp16:16, 2, 64, 64" --target sm_90a --out-dir %t/st > /dev/null
// RUN: FileCheck %s --check-prefix=STAGES < %t/st/reshape_stages.txlgir
// RUN: FileCheck %s --check-prefix=STAGESPTX < %t/st/reshape_stages.ptx
// RUN: test -s %t/st/reshape_stages.cubin
// STAGES: %[[BUFS:[0-9]+]] = txlgpu.smem_alloc {txlgpu.shared_offset = 1024 : i32} : <2x64x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// STAGES: txlgpu.memdesc_reshape %[[BUFS]] : <2x64x64xf16, {{.*}}> -> <128x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// The [128, 64] view is stored by TMA from the first stage's address.
// STAGESPTX: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+1024]
// STAGESPTX: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+9216]
// STAGESPTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [global_smem+1024];
//
// RUN: txlc %S/../../gpu/txl_kernels_gather.py --kernel-name reshape_dot --signature "tensordesc<fp16[64, 64]>, *fp16:16, *fp16:16, *fp32:16, *fp16:16, 64, 64, 64" --target sm_90a --out-dir %t/dot > /dev/null
// RUN: FileCheck %s --check-prefix=DOT < %t/dot/reshape_dot.txlgir
// RUN: test -s %t/dot/reshape_dot.cubin
// DOT: %[[HALVES:[0-9]+]] = txlgpu.memdesc_reshape %{{[0-9]+}} : <64x64xf16, {{.*}}> -> <2x32x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [2, 1, 0]}>>
// DOT: txlgpu.memdesc_index %[[HALVES]][%c0_i32] : <2x32x64xf16, {{.*}}> -> <32x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>>
// DOT: txlgpu.memdesc_index %[[HALVES]][%c1_i32]
// DOT: %[[PAIRS:[0-9]+]] = txlgpu.memdesc_reshape %{{[0-9]+}} : <64x64xf16, {{.*}}> -> <32x2x64xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [2, 1, 0]}>>
// DOT: txlgpu.smem_store %{{[0-9]+}}, %[[PAIRS]] : tensor<32x2x64xf16
// DOT: txlgpu.warp_group_dot
//
// A tile of 256-byte rows is stored as two 128-byte column chunks: its
// rows cannot be split apart, and that is a located error, not a wrong view.
// RUN: not txlc %S/../Inputs/smem_reshape_errors.py --kernel-name wide_split --signature "tensordesc<fp16[64, 128]>, *fp16:16" --target sm_90a --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: smem_reshape_errors.py:14:9: error: txl.smem_reshape: viewing !txlgpu.memdesc<64x128xf16, #txlgpu.nvmma_shared<{swizzle = 128, elemBits = 16, order = [1, 0]}>> as !txlgpu.memdesc<32x2x128xf16> is not supported
// BAD-NOT: internal error
