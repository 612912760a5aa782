// tl.make_tensor_descriptor: the kernel builds its TMA descriptors. The
// first warp of the warpgroup zeroes a 128-byte shared slot, lane 0 writes
// every field with tensormap.replace (dimensions innermost first: the box
// of a [128, 64] fp16 block is 64 x 128 with the 128-byte swizzle the
// tile's layout uses, the row stride in bytes, 16-bit elements, zero
// fill), the warp copies the map to the CTA's slot of the global scratch
// (the hidden last parameter) with a release to the tensormap proxy, the
// threads synchronize and acquire it, and TMA reads the global slot.
// RUN: txlc %S/../Inputs/make_tensor_descriptor.py --kernel-name make_desc_copy --signature "*fp16:16, *fp16:16, i32, i32, i32, i32, 128, 64" --target sm_90a --out-dir %t
// RUN: FileCheck %s < %t/make_desc_copy.ptx
// RUN: FileCheck %s --check-prefix=LLIR < %t/make_desc_copy.llir
// RUN: FileCheck %s --check-prefix=META < %t/make_desc_copy.json
// RUN: FileCheck %s --check-prefix=GIR < %t/make_desc_copy.txlgir
// (txlc assembles the PTX with nvJitLink or ptxas: the test fails if they
// reject it.)
// RUN: test -s %t/make_desc_copy.cubin
// CHECK: .param .u64 .ptr .global .align 1 make_desc_copy_param_6
// CHECK: ld.param.b64 {{%rd[0-9]+}}, [make_desc_copy_param_6];
// CHECK: %nctaid.x
// CHECK: bar.warp.sync -1;
// CHECK: tensormap.replace.tile.global_address.shared::cta.b1024.b64 [{{%rd[0-9]+}}], {{%rd[0-9]+}};
// CHECK: tensormap.replace.tile.rank.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 1;
// CHECK: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 0, {{%r[0-9]+}};
// CHECK: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 1, {{%r[0-9]+}};
// CHECK: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 0, {{%r[0-9]+}};
// CHECK: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 1, {{%r[0-9]+}};
// CHECK: tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [{{%rd[0-9]+}}], 0, {{%rd[0-9]+}};
// CHECK: tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 0, {{%r[0-9]+}};
// CHECK: tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 1, {{%r[0-9]+}};
// CHECK: tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 1;
// CHECK: tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 0;
// CHECK: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 3;
// CHECK: tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 0;
// CHECK: bar.warp.sync -1;
// CHECK: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 128;
// CHECK: bar.sync 0;
// CHECK: fence.proxy.tensormap::generic.acquire.gpu [[[X:%rd[0-9]+]]], 128;
// CHECK: tensormap.cp_fenceproxy.global
// CHECK: fence.proxy.tensormap::generic.acquire.gpu [[[Y:%rd[0-9]+]]], 128;
// CHECK: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [global_smem+{{[0-9]+}}], [[[X]], {{{.*}}}], [global_smem];
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [[[Y]], {{{.*}}}]
// The exact values: box 64 x 128 (innermost first), strides x 2 bytes.
// LLIR: "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [$0], 0, $1;", "l,r"(i64 {{.*}}, i32 64)
// LLIR: "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [$0], 1, $1;", "l,r"(i64 {{.*}}, i32 128)
// LLIR: "tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [$0], 0, $1;", "l,r"(i64 {{.*}}, i32 1)
// LLIR: call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr {{.*}}, i32 128)
// Two sites, one 128-byte slot each per warpgroup.
// META: "global_scratch_bytes": 256
// GIR: txlgpu.make_tensor_desc {{.*}}txlgpu.global_scratch_offset = 0 : i32, txlgpu.shared_offset = {{[0-9]+}} : i32, txlgpu.tma_box = array<i64: 128, 64>, txlgpu.tma_swizzle = 128 : i32}
// GIR: txlgpu.make_tensor_desc {{.*}}txlgpu.global_scratch_offset = 128 : i32
//
// Rows wider than the swizzle span: a [64, 128] fp16 block is two 64-column
// boxes, as for a host descriptor; with two warpgroups every group has its
// own slots (2 x 2 x 128 bytes per program).
// RUN: txlc %S/../Inputs/make_tensor_descriptor.py --kernel-name make_desc_copy --signature "*fp16:16, *fp16:16, i32, i32, i32, i32, 64, 128" --num-warpgroups 2 --target sm_90a --out-dir %t/wide
// RUN: FileCheck %s --check-prefix=WIDE < %t/wide/make_desc_copy.txlgir
// RUN: FileCheck %s --check-prefix=WIDEMETA < %t/wide/make_desc_copy.json
// WIDE: txlgpu.tma_box = array<i64: 64, 64>, txlgpu.tma_swizzle = 128 : i32
// WIDEMETA: "global_scratch_bytes": 512
//
// fp32 rows of 32 bytes: the 32-byte swizzle (mode 1), 32-bit elements.
// RUN: txlc %S/../../gpu/txl_kernels_make_desc.py --kernel-name make_desc_persistent --signature "*fp32:16, *fp32:16, i32, i32, i32, i32, 64, 8" --target sm_90a --out-dir %t/f32
// RUN: FileCheck %s --check-prefix=F32 < %t/f32/make_desc_persistent.ptx
// F32: tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 2;
// F32: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [{{%rd[0-9]+}}], 1;
//
// In-kernel descriptors feed txl.tma_load / tma_store and a matmul.
// RUN: txlc %S/../../gpu/txl_kernels_make_desc.py --kernel-name make_desc_tma --signature "*bf16:16, *bf16:16, i32, i32, i32, i32, 64, 32, tl.bfloat16" --target sm_90a --out-dir %t/tma
// RUN: grep -c "tensormap.cp_fenceproxy" %t/tma/make_desc_tma.ptx | FileCheck %s --check-prefix=TWO
// TWO: 2
// RUN: txlc %S/../../gpu/txl_kernels_make_desc.py --kernel-name make_desc_matmul --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, 128, 128, 64" --target sm_90a --out-dir %t/mm
// RUN: grep -c "tensormap.cp_fenceproxy" %t/mm/make_desc_matmul.ptx | FileCheck %s --check-prefix=THREE
// THREE: 3
//
// TMA needs sm_90: a located error on sm_80.
// RUN: not txlc %S/../Inputs/make_tensor_descriptor.py --kernel-name make_desc_copy --signature "*fp16:16, *fp16:16, i32, i32, i32, i32, 128, 64" --target sm_80 --out-dir %t/sm80 2>&1 | FileCheck %s --check-prefix=SM80
// SM80: make_tensor_descriptor.py:10:14: error: tl.make_tensor_descriptor (TMA) needs sm_90 or later, but the target is sm_80
// SM80-NEXT: x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N],
// SM80-NEXT: ^
