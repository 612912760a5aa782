//===- TXLGPUDialect.td - GPU-level txl dialect ------------*- tablegen -*-===//
#ifndef TXLGPU_DIALECT_TD
#define TXLGPU_DIALECT_TD

include "mlir/IR/OpBase.td"

def TXLGPU_Dialect : Dialect {
  let name = "txlgpu";
  let cppNamespace = "::mlir::txlgpu";
  let summary = "Tile IR with layouts: where every element lives on the GPU";
  let description = [{
    Tensors carry a layout encoding (blocked, slice, ...), each of which is a
    linear layout from (register, lane, warp) to tensor coordinates. Adds
    layout conversion, shared-memory descriptors and hardware ops.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::mlir::txl::TXLDialect"];
  let extraClassDeclaration = [{
    static constexpr llvm::StringLiteral kNumWarpsAttr = "txlgpu.num_warps";
    static constexpr llvm::StringLiteral kNumWarpgroupsAttr = "txlgpu.num_warpgroups";
    /// Bytes between the warpgroups' copies of the scratch area (set only
    /// with several warpgroups).
    static constexpr llvm::StringLiteral kScratchStrideAttr = "txlgpu.scratch_stride";
    static constexpr llvm::StringLiteral kThreadsPerWarpAttr = "txlgpu.threads_per_warp";
    static constexpr llvm::StringLiteral kTargetAttr = "txlgpu.target";
    /// On a convert_layout made by txl.relayout: the layout its result
    /// must have (the tile IR carries no encodings).
    static constexpr llvm::StringLiteral kPinnedLayoutAttr = "txlgpu.pinned_layout";
    /// CTAs per cluster (launch option num_ctas); a program is one cluster.
    static constexpr llvm::StringLiteral kNumCtasAttr = "txlgpu.num_ctas";
    static constexpr llvm::StringLiteral kSharedBytesAttr = "txlgpu.shared";
    /// On the module: AllocateSharedMemory's placement, one dictionary per
    /// buffer (op, line, offset, bytes, whole_kernel), for the metadata.
    static constexpr llvm::StringLiteral kSharedPlanAttr = "txlgpu.shared_plan";
    static constexpr llvm::StringLiteral kSharedOffsetAttr = "txlgpu.shared_offset";
    /// On a compiler-made smem_alloc whose contents are dead once the loop
    /// using it ends (every copy and wgmma drained after it).
    static constexpr llvm::StringLiteral kLoopStagingAttr = "txlgpu.loop_staging";
    /// On a txlgpu.barrier: fence the generic proxy's shared-memory accesses
    /// against the asynchronous proxy (TMA) first.
    static constexpr llvm::StringLiteral kFenceAsyncProxyAttr = "txlgpu.fence_async_proxy";
    // On a kernel argument of tensordesc type: the swizzle (bytes) of the
    // shared buffers TMA moves through it and the TMA box (outermost
    // first) the host must encode the CUtensorMap with.
    static constexpr llvm::StringLiteral kTMASwizzleAttr = "txlgpu.tma_swizzle";
    // On the module (TXL_DEBUG_SYNC): the bound, in ns, of every mbarrier
    // wait; the record a timed-out wait fills is the global named
    // kDebugRecordGlobal (a pointer the runtime sets).
    static constexpr llvm::StringLiteral kDebugSyncTimeoutAttr = "txlgpu.debug_sync_timeout_ns";
    static constexpr llvm::StringLiteral kDebugRecordGlobal = "__txl_debug_record";
    static constexpr llvm::StringLiteral kTMABoxAttr = "txlgpu.tma_box";
    /// In-kernel TMA descriptors (make_tensor_desc): on the module, the
    /// bytes of global scratch one CTA needs; on each op, its slot's offset
    /// in that area (one 128-byte CUtensorMap per warpgroup).
    static constexpr llvm::StringLiteral kGlobalScratchBytesAttr = "txlgpu.global_scratch";
    static constexpr llvm::StringLiteral kGlobalScratchOffsetAttr = "txlgpu.global_scratch_offset";
    /// Elements per vector access of a load/store (from the axis analysis).
    static constexpr llvm::StringLiteral kVecAttr = "txlgpu.vec";
  }];
}

class TXLGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TXLGPU_Dialect, mnemonic, traits>;

#endif
