// RUN: txl-opt %s --txl-convert-txlgpu-to-llvm -verify-diagnostics
// The lowering relies on the NVMMA layout AssignSharedLayouts gives every
// TMA tile (it decides the box split); a tile without one is an error, not
// a copy with a guessed layout.
module attributes {txlgpu.num_warpgroups = 1 : i32, txlgpu.num_warps = 4 : i32, txlgpu.shared = 9216 : i32, txlgpu.target = "sm_90a", txlgpu.threads_per_warp = 32 : i32} {
  func.func @unencoded(%d: !txlgpu.tensordesc<64x64xf16>) attributes {txl.kernel} {
    %c0 = arith.constant 0 : i32
    %buf = txlgpu.smem_alloc {txlgpu.shared_offset = 1024 : i32} : <1x64x64xf16>
    %t = txlgpu.memdesc_index %buf[%c0] : <1x64x64xf16> -> <64x64xf16>
    // expected-error @+2 {{TMA needs a row-major shared tile of rank 1 to 5 with an NVMMA layout}}
    // expected-error @+1 {{failed to legalize operation 'txlgpu.tma_store'}}
    txlgpu.tma_store %t -> %d[%c0, %c0] : <64x64xf16> -> <64x64xf16>
    return
  }
}
