// tl.split and Triton's epilogue idiom x.reshape([M, 2, N/2]).permute(0, 2,
// 1).split(): the halves become extract_slice windows of x itself. On a
// wgmma accumulator they keep its layout (a narrower instruction's, the
// wider one's first columns), so no data moves: no convert_layout and no
// shared memory between the dot and the windows. A loaded tile whose lanes
// span both halves moves first to a blocked layout whose CTA tile fits a
// half (one convert_layout), then slices in registers.
// RUN: txlc %S/../../gpu/txl_kernels_split.py --kernel-name dot_halves --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, 64, 256, 64" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=ACC < %t/dot_halves.txlgir
// ACC: %[[ACC:.*]] = txlgpu.warp_group_dot_wait
// ACC-NOT: convert_layout %[[ACC]]
// ACC: txl.extract_slice %[[ACC]] {offsets = array<i64: 0, 0>} : tensor<64x256xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>> -> tensor<64x128xf32, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>
// ACC: txl.extract_slice %[[ACC]] {offsets = array<i64: 0, 128>}
// RUN: txlc %S/../../gpu/txl_kernels_split.py --kernel-name tile_halves --signature "*fp32:16, *fp32:16, *fp32:16, 64, 128" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=TILE < %t/tile_halves.txlgir
// TILE: %[[FIT:.*]] = txlgpu.convert_layout {{.*}} -> tensor<64x128xf32, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16]
// TILE: txl.extract_slice %[[FIT]] {offsets = array<i64: 0, 0>} {{.*}} -> tensor<64x64xf32, #txlgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16]
// TILE: txl.extract_slice %[[FIT]] {offsets = array<i64: 0, 64>}
// RUN: txlc %S/../../gpu/txl_kernels_split.py --kernel-name pairs --signature "*fp32:16, *fp32:16, *fp32:16, 128" --target sm_80 --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=PAIRS < %t/pairs.txlgir
// PAIRS: txl.extract_slice {{.*}} {offsets = array<i64: 0, 0>} : tensor<128x2xf32
// PAIRS: txl.extract_slice {{.*}} {offsets = array<i64: 0, 1>} : tensor<128x2xf32
// A 1-D source takes the general path (windows of the [N/2, 2] tensor):
// it compiles, whatever its layout's lanes span.
// RUN: txlc %S/../../gpu/txl_kernels_split.py --kernel-name vector_halves --signature "*fp32:16, *fp32:16, *fp32:16, 128" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=VEC < %t/vector_halves.txlgir
// VEC: txl.extract_slice {{.*}} : tensor<64x2xf32
