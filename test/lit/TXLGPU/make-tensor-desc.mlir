// txlgpu.make_tensor_desc through the two passes that give it its layout
// and its memory. AssignSharedLayouts records the swizzle and box of the
// tiles the descriptor fills (the widest swizzle a row allows when no TMA
// op names it; a 64-column fp16 row is 128 bytes, a 16-column one 32);
// AllocateSharedMemory gives each op a 128-byte shared slot per warpgroup
// and a slot of the CTA's global scratch, whose size goes on the module.
// RUN: txl-opt %s --txlgpu-assign-shared-layouts --txlgpu-allocate-shared-memory | FileCheck %s

// CHECK: module attributes {txlgpu.global_scratch = 512 : i32
// CHECK: txlgpu.make_tensor_desc {{.*}} {txlgpu.global_scratch_offset = 0 : i32, txlgpu.shared_offset = 0 : i32, txlgpu.tma_box = array<i64: 64, 64>, txlgpu.tma_swizzle = 128 : i32}
// CHECK: txlgpu.make_tensor_desc {{.*}} {txlgpu.global_scratch_offset = 256 : i32, txlgpu.shared_offset = 256 : i32, txlgpu.tma_box = array<i64: 64, 16>, txlgpu.tma_swizzle = 32 : i32}
module attributes {txlgpu.num_warpgroups = 2 : i32, txlgpu.num_warps = 4 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @make(%p: !txl.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64) {
    %a = txlgpu.make_tensor_desc %p, [%m, %n], [%s, %one] : !txl.ptr<f16> -> !txlgpu.tensordesc<64x64xf16>
    %b = txlgpu.make_tensor_desc %p, [%m, %n], [%s, %one] : !txl.ptr<f16> -> !txlgpu.tensordesc<64x16xf16>
    return
  }
}
