//===- TXLGPUOps.td - txlgpu operations --------------------*- tablegen -*-===//
#ifndef TXLGPU_OPS_TD
#define TXLGPU_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "txl/Dialect/TXLGPU/IR/TXLGPUDialect.td"
include "txl/Dialect/TXLGPU/IR/TXLGPUAttrs.td"
include "txl/Dialect/TXLGPU/IR/TXLGPUTypes.td"
include "txl/Dialect/TXL/IR/TXLTypes.td"

def TXLGPU_ConvertLayoutOp : TXLGPU_Op<"convert_layout",
    [Pure, SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Move a tensor's elements into another layout";
  let description = [{
    Lowered through registers when the two layouts agree on lanes and warps,
    through warp shuffles when they agree on warps, else through a shared
    memory scratch buffer (offset assigned by AllocateSharedMemory).
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

def TXLGPU_LocalAllocOp : TXLGPU_Op<"local_alloc",
    [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "Copy a register tensor into a new shared-memory tile";
  let description = [{
    Every thread writes its registers to their places in the tile's layout;
    the write is then fenced for the async proxy and the CTA synchronized,
    so wgmma (or TMA) may read it. The tile lives at the offset
    AllocateSharedMemory records in `txlgpu.shared_offset`; before writing,
    the CTA synchronizes so a previous use of the same bytes has finished.
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs TXLGPU_MemDescType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TXLGPU_WarpGroupDotOp : TXLGPU_Op<"warp_group_dot",
    [MemoryEffects<[MemRead]>, AllTypesMatch<["c", "d"]>]> {
  let summary = "Asynchronous wgmma: d = a @ b + c, b in shared memory";
  let description = [{
    Issued by whole warpgroups (sm_90a): b [K, N] is a shared tile with an
    nvmma_shared layout; a [M, K] is one too, or a register tensor in the
    dot-operand layout of the accumulator (16-bit types: FlashAttention's
    P @ V keeps P in registers). c and d carry an nvmma v3 layout. The
    result may only be read after a txlgpu.warp_group_dot_wait that takes
    it.
  }];
  let arguments = (ins AnyType:$a, TXLGPU_MemDescType:$b,
                       AnyRankedTensor:$c);
  let extraClassDeclaration = [{
    /// Whether A comes from registers (a ranked tensor) rather than a tile.
    bool hasRegisterA() { return isa<RankedTensorType>(getA().getType()); }
    ArrayRef<int64_t> getAShape();
    Type getAElementType();
  }];
  let results = (outs AnyRankedTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TXLGPU_WarpGroupDotWaitOp : TXLGPU_Op<"warp_group_dot_wait",
    [MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["inputs", "outputs"]>]> {
  let summary = "Wait until at most `pendings` wgmma groups are in flight";
  let description = [{
    Returns its inputs (accumulators of earlier warp_group_dot ops) once the
    hardware has finished writing them; uses of the results are ordered
    after the wait.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<AnyRankedTensor>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

def TXLGPU_AccToDotAOp : TXLGPU_Op<"acc_to_dot_a",
    [Pure, SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "A wgmma accumulator's registers as a register A operand";
  let description = [{
    `src` [M, K] (fp16, bf16, e4m3 or e5m2) in a wgmma accumulator layout
    becomes wgmma's register A operand without a value leaving its thread:
    the result is `src` with its columns permuted within each group of G
    (the A fragment's k extent: 16 for 16-bit, 32 for 8-bit elements),
    result[:, g + c] = src[:, g + order[c]], order being
    ::txl::wgmmaAccToOperandAColumns (the identity for 16 bits). A product
    that takes the result as A must read B's rows in the same order (for
    attention's P V: the keys of V permuted within each group of G, which
    leaves P V unchanged). The result carries the dot-operand layout
    (opIdx 0, kWidth 32 / bits) of the source's accumulator layout.
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Explicit shared memory, mbarriers and TMA (the txl.* surface)
//===----------------------------------------------------------------------===//

def TXLGPU_SmemAllocOp : TXLGPU_Op<"smem_alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "A shared-memory buffer array of num_stages tiles";
  let description = [{
    The result's leading dimension is the stage count. The tile encoding is
    chosen by AssignLayouts from the buffer's users (an nvmma_shared swizzle
    for TMA and wgmma); the bytes live at the offset AllocateSharedMemory
    records in `txlgpu.shared_offset`, each stage 1024-byte aligned.
  }];
  let arguments = (ins UnitAttr:$immutable);
  let results = (outs TXLGPU_MemDescType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TXLGPU_MemDescIndexOp : TXLGPU_Op<"memdesc_index", [Pure]> {
  let summary = "One stage of a buffer array (get_buffer / smem_index)";
  let arguments = (ins TXLGPU_MemDescType:$src, I32:$index);
  let results = (outs TXLGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TXLGPU_MemDescViewOp : TXLGPU_Op<"memdesc_view", [Pure]> {
  let summary = "A transposed or sliced view of a shared tile";
  let description = [{
    `permutation` reorders the dimensions (smem_trans, `.T`); a slice keeps
    `length` elements of dimension `dim` from `start` (smem_slice). The
    view's encoding is derived from the source's by AssignLayouts.
  }];
  let arguments = (ins TXLGPU_MemDescType:$src,
                       DenseI32ArrayAttr:$permutation,
                       I64Attr:$dim, I64Attr:$start);
  let results = (outs TXLGPU_MemDescType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TXLGPU_MemDescReshapeOp : TXLGPU_Op<"memdesc_reshape", [Pure]> {
  let summary = "A shared tile (or buffer array) seen with another shape";
  let description = [{
    smem_reshape: the same elements in row-major order under another shape
    of the same size. AssignSharedLayouts gives the view the NVMMA layout
    that places every element where the source's layout does, and rejects
    a reshape no such layout expresses (e.g. splitting the rows of a tile
    stored as several swizzle-wide column chunks). The address is the
    source's.
  }];
  let arguments = (ins TXLGPU_MemDescType:$src);
  let results = (outs TXLGPU_MemDescType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TXLGPU_SmemLoadOp : TXLGPU_Op<"smem_load", [MemoryEffects<[MemRead]>]> {
  let summary = "Read a shared tile into registers";
  let arguments = (ins TXLGPU_MemDescType:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TXLGPU_SmemStoreOp : TXLGPU_Op<"smem_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Write a register tensor into a shared tile";
  let description = [{
    With `pred`, only the threads whose `pred` is true write their
    elements (txl.frag_smem_store's per-thread predicate: with a layout
    that gives several threads one element, it picks the writer); the
    group still synchronizes around the write.

    The write is synchronized within the storing warpgroup (a barrier
    before it, for earlier readers of the bytes; an async-proxy fence and
    a barrier after it, for wgmma and TMA readers). `unsynced`
    (txl.smem_store(..., sync=False)) drops all three: the kernel orders
    the write itself, e.g. a buffer handed to another warpgroup by named
    barriers, with txl.fence_proxy_async() before the hand-over.
  }];
  let arguments = (ins TXLGPU_MemDescType:$dst, AnyRankedTensor:$value,
                       Optional<I1>:$pred, UnitAttr:$unsynced);
  let assemblyFormat = [{
    $value `,` $dst (`if` $pred^)? attr-dict `:` type($value) `->` type($dst)
  }];
  let builders = [
    OpBuilder<(ins "Value":$dst, "Value":$value), [{
      build($_builder, $_state, dst, value, Value(), UnitAttr());
    }]>
  ];
}

def TXLGPU_MBarAllocOp : TXLGPU_Op<"mbar_alloc",
    [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "num_stages mbarriers, each initialized to arrive_count";
  let description = [{
    Thread 0 initializes every barrier (phase 0), then fence.mbarrier_init
    and a CTA barrier publish them. Must execute on every thread once, at
    the kernel's top level.
  }];
  let arguments = (ins I32Attr:$arriveCount);
  let results = (outs TXLGPU_MemDescType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TXLGPU_MBarExpectOp : TXLGPU_Op<"mbar_expect", [MemoryEffects<[MemWrite]>]> {
  let summary = "One elected thread arrives and expects `bytes` of transactions";
  let arguments = (ins TXLGPU_MemDescType:$bar, I32:$bytes, Optional<I1>:$pred);
  let assemblyFormat = [{
    $bar `,` $bytes (`,` $pred^)? attr-dict `:` type($bar)
  }];
}

def TXLGPU_MBarWaitOp : TXLGPU_Op<"mbar_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Block until the phase of parity `phase` has completed";
  let arguments = (ins TXLGPU_MemDescType:$bar, I32:$phase);
  let assemblyFormat = "$bar `,` $phase attr-dict `:` type($bar)";
}

def TXLGPU_MBarArriveOp : TXLGPU_Op<"mbar_arrive",
    [MemoryEffects<[MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "Each calling thread arrives on the barrier";
  let description = [{
    With `cta`, the arrival goes to the barrier at the same shared-memory
    offset in the CTA of that rank in the cluster (release at cluster
    scope): how a consumer frees a stage that a peer CTA's multicast
    copies write into.

    With `trackAsyncOp`, the arrival is deferred until every cp.async the
    calling thread issued before it has landed in shared memory
    (cp.async.mbarrier.arrive.noinc): a producer that fills a stage with
    txl.async_load signals the stage without waiting for its copies. The
    arrival is `.noinc`, so it counts against the barrier's arrive count
    like a plain arrival: the count passed to txl.mbar_alloc must include
    one per thread that arrives this way (a whole warpgroup: 128). The
    barrier must be in the calling CTA (no `cta`).
  }];
  let arguments = (ins TXLGPU_MemDescType:$bar, Optional<I1>:$pred,
                       Optional<I32>:$cta, UnitAttr:$trackAsyncOp);
  let assemblyFormat = [{
    $bar (`,` $pred^)? (`cta` $cta^)? (`track_async_op` $trackAsyncOp^)?
    attr-dict `:` type($bar)
  }];
  let hasVerifier = 1;
}

def TXLGPU_TMALoadOp : TXLGPU_Op<"tma_load",
    [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "Copy a box of a global tensor into a shared tile (TMA)";
  let description = [{
    One thread issues cp.async.bulk.tensor; completion is signalled on
    `bar` by byte count. `coords` are in the tensor's own order (outermost
    first); the tile may need several boxes when its rows are wider than
    the swizzle span. With `multicast`, the box lands at the same offset in
    the shared memory of every CTA of the cluster whose rank bit is set, and
    each of them counts the bytes on its own barrier at `bar`'s offset.

    With `sync` (desc.load), the copy is complete when the op returns:
    the threads sharing the tile synchronize (earlier readers of `dst` are
    done), the leader expects the bytes, copies and waits on the arrival's
    state token, and the threads synchronize again. `bar` is private to the
    op, so no phase needs tracking.

    With `twoCtas` (sm_100a, tcgen05 cta_group::2), the bytes are counted
    on the barrier at `bar`'s offset in the even CTA of the calling CTA's
    pair (cp.async.bulk.tensor .cta_group::2): that CTA issues the MMA that
    reads both CTAs' tiles, so it must learn when both have landed.
  }];
  let arguments = (ins TXLGPU_MemDescType:$dst, TXLGPU_TensorDescType:$desc,
                       Variadic<I32>:$coords, TXLGPU_MemDescType:$bar,
                       Optional<I1>:$pred, Optional<I16>:$multicast,
                       UnitAttr:$sync, UnitAttr:$twoCtas);
  let assemblyFormat = [{
    $desc `[` $coords `]` `->` $dst `,` $bar (`,` $pred^)?
    (`multicast` $multicast^)? attr-dict `:`
    type($desc) `->` type($dst) `,` type($bar)
  }];
}

def TXLGPU_TMAGatherOp : TXLGPU_Op<"tma_gather",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Gather rows of a 2-D global tensor into a shared tile (TMA)";
  let description = [{
    Row i of `dst` receives columns [col, col + W) of global row `rows[i]`
    (W: dst's row length; the descriptor's block is [1, W]); rows outside
    the tensor read as zeros. Completion is signalled on `bar` by byte
    count, all of dst's bytes. On sm_90 every row is one 2-D TMA copy
    (a box one row high per swizzle-wide chunk) issued by a thread that
    holds the row's offset; the copy lands at the row's place in the tile,
    where TMA's address-based swizzle puts it exactly as a whole-tile load
    would.
  }];
  let arguments = (ins TXLGPU_MemDescType:$dst, TXLGPU_TensorDescType:$desc,
                       RankedTensorOf<[I32]>:$rows, I32:$col,
                       TXLGPU_MemDescType:$bar);
  let assemblyFormat = [{
    $desc `[` $rows `,` $col `]` `->` $dst `,` $bar attr-dict `:`
    type($desc) `,` type($rows) `->` type($dst) `,` type($bar)
  }];
  let hasVerifier = 1;
}

def TXLGPU_TMAStoreOp : TXLGPU_Op<"tma_store",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Copy a shared tile into a box of a global tensor (TMA)";
  let description = [{
    With `reduce` (add, min, max, inc, dec, and, or, xor) the tile is
    combined with the box's elements instead of overwriting them
    (cp.reduce.async.bulk.tensor: each element atomically, in L2).
  }];
  let arguments = (ins TXLGPU_MemDescType:$src, TXLGPU_TensorDescType:$desc,
                       Variadic<I32>:$coords, OptionalAttr<StrAttr>:$reduce);
  let assemblyFormat = [{
    $src `->` $desc `[` $coords `]` attr-dict `:` type($src) `->` type($desc)
  }];
}

def TXLGPU_MakeTensorDescOp : TXLGPU_Op<"make_tensor_desc",
    [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "Build a TMA descriptor in the kernel (tl.make_tensor_descriptor)";
  let description = [{
    Describes the global tensor at `base` (`shape` elements per dimension,
    `strides` in elements, outermost first, the last stride 1) whose TMA
    block is the result's block shape. AssignSharedLayouts records the
    swizzle and box (`txlgpu.tma_swizzle`, `txlgpu.tma_box`) of the shared
    tiles it fills, as it does for descriptor kernel arguments;
    AllocateSharedMemory gives the op a 128-byte shared slot per warpgroup
    (`txlgpu.shared_offset`) and a slot of the per-CTA global scratch
    (`txlgpu.global_scratch_offset`). The LLVM conversion appends the
    scratch buffer as a hidden kernel parameter and hands it to `scratch`.
    The lowering builds the CUtensorMap in the shared slot, copies it to
    the global slot and fences it for the tensormap proxy.
  }];
  let arguments = (ins TXL_Ptr:$base, Variadic<I32>:$shape,
                       Variadic<I64>:$strides, Optional<TXL_Ptr>:$scratch);
  let results = (outs TXLGPU_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` (`scratch` $scratch^)?
    attr-dict `:` type($base) (`,` type($scratch)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def TXLGPU_TMAStoreWaitOp : TXLGPU_Op<"tma_store_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait until at most `pendings` TMA store groups are in flight";
  let arguments = (ins I32Attr:$pendings);
  let assemblyFormat = "attr-dict";
}

// A hint with no result: the write effect keeps it from being erased as
// dead and from moving across the kernel's other memory operations.
def TXLGPU_PrefetchL2Op : TXLGPU_Op<"prefetch_l2",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Ask L2 for `bytes` contiguous global bytes (bulk prefetch)";
  let description = [{
    cp.async.bulk.prefetch.L2 of the `bytes` bytes at `ptr`, from every
    executing thread where `pred` holds (no election: the caller picks the
    issuing threads). Nothing lands in shared memory and nothing completes
    on a barrier, so there is nothing to wait for. `ptr` must be 16-byte
    aligned and `bytes` a multiple of 16 (the verifier checks a constant
    `bytes`; the alignment is the caller's promise).
  }];
  let arguments = (ins TXL_Ptr:$ptr, I32:$bytes, Optional<I1>:$pred);
  let assemblyFormat = [{
    $ptr `,` $bytes (`,` $pred^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def TXLGPU_AsyncCopyGlobalToLocalOp : TXLGPU_Op<"async_copy_global_to_local",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Start copying a tile of global elements into shared memory";
  let description = [{
    cp.async: every thread copies its vectors of `ptr` (up to 16 bytes each,
    the width `txlgpu.vec` records) to their places in `dst` without going
    through registers. Masked-off vectors are zero-filled. The copies join
    the thread's current cp.async group, which async_commit_group closes and
    async_wait waits for. `contiguity` (the TXL project's async_load
    argument) is the programmer's promise that runs of that many elements
    are contiguous, aligned and equally masked: it replaces what the axis
    analysis proves, as in the TXL project.
  }];
  let arguments = (ins AnyRankedTensor:$ptr, TXLGPU_MemDescType:$dst,
                       Optional<AnyRankedTensor>:$mask,
                       OptionalAttr<I32Attr>:$contiguity);
  let assemblyFormat = [{
    $ptr `,` $dst (`,` $mask^)? attr-dict `:` type($ptr) `->` type($dst)
    (`,` type($mask)^)?
  }];
}

def TXLGPU_AsyncCommitGroupOp : TXLGPU_Op<"async_commit_group",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Close the calling thread's current cp.async group";
  let assemblyFormat = "attr-dict";
}

def TXLGPU_AsyncWaitOp : TXLGPU_Op<"async_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait until at most `pendings` cp.async groups are in flight";
  let description = [{
    Then the copied bytes are fenced for the async proxy (wgmma reads them)
    and the threads that share the tiles synchronize, so every thread sees
    every other thread's copies.
  }];
  let arguments = (ins I32Attr:$pendings);
  let assemblyFormat = "attr-dict";
}

def TXLGPU_BarrierOp : TXLGPU_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Synchronize the threads that share tensors (CTA or warpgroup)";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Tensor memory and tcgen05 (sm_100a)
//===----------------------------------------------------------------------===//

def TXLGPU_TMemAllocOp : TXLGPU_Op<"tmem_alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "num_stages accumulators of [128, N] in tensor memory";
  let description = [{
    The result ([stages, 128, N], #txlgpu.tensor_memory) is a TMEM address.
    The CTA's tensor memory is allocated once for all of its tmem_alloc
    ops: AllocateTensorMemory gives each its first `column` and the first
    op `allocColumns`, the power-of-two total (>= 32, <= 512). That op's
    lowering has warp 0 run tcgen05.alloc (which writes the address to the
    shared slot at `txlgpu.shared_offset`) and relinquish the CTA's permit
    to allocate; after a CTA barrier every thread reads the address. Must
    run on every thread once, at the kernel's top level. `twoCtas` (set by
    AllocateTensorMemory when the kernel issues cta_group::2 MMAs): the
    allocation, relinquish and dealloc are cta_group::2 (every tcgen05
    instruction of a kernel must name the same CTA group).
  }];
  let arguments = (ins OptionalAttr<I32Attr>:$column,
                       OptionalAttr<I32Attr>:$allocColumns,
                       UnitAttr:$twoCtas);
  let results = (outs TXLGPU_MemDescType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// 32-bit TMEM columns one stage takes.
    int64_t getStageColumns();
  }];
}

def TXLGPU_TMemDeallocOp : TXLGPU_Op<"tmem_dealloc",
    [MemoryEffects<[MemFree]>]> {
  let summary = "Free the CTA's tensor memory before the kernel exits";
  let description = [{
    Inserted by AllocateTensorMemory before each return of a kernel that
    allocates tensor memory; `base` is the allocating tmem_alloc. Every
    thread runs it: a CTA (cluster) barrier orders it after all reads and
    MMAs of the CTA, then warp 0 runs tcgen05.dealloc of `columns`.
  }];
  let arguments = (ins TXLGPU_MemDescType:$base, I32Attr:$columns,
                       UnitAttr:$twoCtas);
  let assemblyFormat = "$base attr-dict `:` type($base)";
}

def TXLGPU_TMemLoadOp : TXLGPU_Op<"tmem_load", [MemoryEffects<[MemRead]>]> {
  let summary = "Read a [128, N] or [64, N] tensor-memory buffer into registers";
  let description = [{
    tcgen05.ld: warp w reads TMEM lanes 32*(w%4).. (rows). `message`
    ("32x32b", "16x64b", "16x128b", "16x256b") names the message shape;
    without it AssignLayouts picks one (32x32b for 128 rows, the widest
    16-lane shape that fits for 64). The result's layout is that message's
    (tmemMessageLayout; for 32x32b of 128 rows the equivalent blocked
    layout). The lowering fences after the thread synchronization that
    made the data ready (tcgen05.fence::after_thread_sync), waits for the
    loads, and fences before the next thread synchronization (so an
    mbarrier arrive that frees the buffer is ordered after the reads).
  }];
  let arguments = (ins TXLGPU_MemDescType:$src,
                       OptionalAttr<StrAttr>:$message);
  let results = (outs AnyRankedTensor:$result);
  let builders = [OpBuilder<(ins "Type":$result, "Value":$src), [{
    build($_builder, $_state, result, src, StringAttr());
  }]>];
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TXLGPU_TMemStoreOp : TXLGPU_Op<"tmem_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Write a register tensor into a tensor-memory buffer";
  let description = [{
    tcgen05.st of the message shape `message` (chosen as for tmem_load
    when absent) in the layout tmem_load reads; 16-bit elements are packed
    two to a column. Fenced like tmem_load, so a barrier after it
    publishes the stores to the thread that issues the next MMA.
  }];
  let arguments = (ins TXLGPU_MemDescType:$dst, AnyRankedTensor:$value,
                       OptionalAttr<StrAttr>:$message);
  let builders = [OpBuilder<(ins "Value":$dst, "Value":$value), [{
    build($_builder, $_state, dst, value, StringAttr());
  }]>];
  let assemblyFormat = [{
    $value `,` $dst attr-dict `:` type($value) `->` type($dst)
  }];
  let hasVerifier = 1;
}

def TXLGPU_TCGen05MMAOp : TXLGPU_Op<"tcgen05_mma",
    [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "d (+)= a @ b on the 5th-generation tensor cores (txl.dotx)";
  let description = [{
    One thread issues tcgen05.mma.cta_group::1 (M = 128): the elected lane
    of warp `leaderWarp` (the first warp of the role that calls it). B
    [K, N] is a shared tile; A [128, K] a shared tile or a tensor-memory
    buffer; D [128, N] is in tensor memory. `useD` false overwrites D
    (the first K step of a tile); `pred` false skips the MMAs. The same
    thread then commits them to every barrier of `barriers`
    (tcgen05.commit: each barrier gets one arrival when the MMAs are done).
    `barrierPreds`, when present, holds one predicate per barrier: the
    commit to barriers[i] is issued only where barrierPreds[i] is true.

    With `twoCtas` (a cluster of CTA pairs), the MMA is cta_group::2: M =
    256, of which each CTA of the pair holds 128 rows of A and of D (in its
    own shared and tensor memory, at the same addresses); B [K, N/2] is
    this CTA's half of B's columns, the peer's half at the same shared
    offset, and D [128, N] gets all N columns. Only the even CTA of the
    pair issues; its commits arrive on the barrier at each of `barriers`'
    offsets in both CTAs (multicast::cluster).
  }];
  let arguments = (ins TXLGPU_MemDescType:$a, TXLGPU_MemDescType:$b,
                       TXLGPU_MemDescType:$d, I1:$useD, Optional<I1>:$pred,
                       Variadic<TXLGPU_MemDescType>:$barriers,
                       Variadic<I1>:$barrierPreds,
                       I32Attr:$leaderWarp, UnitAttr:$twoCtas);
  let assemblyFormat = [{
    $a `,` $b `,` $d `,` $useD (`,` $pred^)? (`commit` $barriers^)?
    (`if` $barrierPreds^)? attr-dict
    `:` type($a) `*` type($b) `->` type($d) (`,` type($barriers)^)?
  }];
  let hasVerifier = 1;
}

def TXLGPU_TCGen05MMAScaledOp : TXLGPU_Op<"tcgen05_mma_scaled",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "d (+)= (a * aScale) @ (b * bScale), block-scaled (tl.dot_scaled)";
  let description = [{
    tl.dot_scaled on sm_100a (DotScaled.cpp): block-scaled
    tcgen05.mma.cta_group::1, M = 128, synchronous. `a` [128, K] and `b`
    [K, N] are K-major swizzled shared tiles of `aFormat` / `bFormat`
    ("e4m3", "e5m2": kind::mxf8f6f4; "e2m1" on both sides, two per byte:
    kind::mxf4); `d` [128, N] fp32 in tensor memory. `aScaleTile` and
    `bScaleTile` are unswizzled [rows, 16] shared tiles in tcgen05.cp's
    32x128b order (TCGen05.h, scaleFactorSharedOffset): uint8 e8m0 scales,
    one per 32 elements, or f8E4M3FN scales, one per 16 (nvfp4: e2m1 on
    both sides, kind::mxf4nvf4; both tiles the same type); `aScale` /
    `bScale` the tensor-memory columns they are copied to. One thread
    (the elected lane of `leaderWarp`) copies the scales
    (tcgen05.cp.32x128b.warpx4 per 512 bytes), issues the MMAs (useD false
    overwrites d) and commits them to `barrier`. With
    kSyncCommitAttr (as the front end makes it) the barrier counts the
    calling threads + 1 and every thread then arrives on it and waits for
    its own arrival's phase, so d is ready afterwards; without it (a K loop
    PipelineTCGen05Dots made asynchronous) the commit is the only arrival.
  }];
  let arguments = (ins TXLGPU_MemDescType:$a, TXLGPU_MemDescType:$b,
                       TXLGPU_MemDescType:$d, TXLGPU_MemDescType:$aScaleTile,
                       TXLGPU_MemDescType:$bScaleTile,
                       TXLGPU_MemDescType:$aScale, TXLGPU_MemDescType:$bScale,
                       I1:$useD, TXLGPU_MemDescType:$barrier,
                       StrAttr:$aFormat, StrAttr:$bFormat,
                       I32Attr:$leaderWarp);
  let assemblyFormat = [{
    $a `,` $b `,` $d `,` $useD `scales` $aScaleTile `,` $bScaleTile `to`
    $aScale `,` $bScale `commit` $barrier attr-dict `:` type($a) `*`
    type($b) `->` type($d) `,` type($aScaleTile) `,` type($bScaleTile) `,`
    type($aScale) `,` type($bScale) `,` type($barrier)
  }];
  let hasVerifier = 1;
}

def TXLGPU_TMemCopyOp : TXLGPU_Op<"tmem_copy",
    [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "Copy a shared tile into tensor memory (tcgen05.cp)";
  let description = [{
    One thread (the elected lane of warp `leaderWarp`, as tcgen05_mma)
    issues tcgen05.cp.cta_group::1.128x256b once per 32 bytes of the
    tile's rows: `src` [128, K] is a shared tile read through a matrix
    descriptor as an MMA reads a K-major A operand, `dst` the [128, K]
    tensor-memory buffer it lands in (row r in lane r, 32-bit columns).
    The copy is asynchronous and runs on the tensor-core pipe in issue
    order, so an MMA the same thread issues later reads the copied data;
    the thread then commits the copies to every barrier of `barriers`
    (each gets one arrival when they are done).
  }];
  let arguments = (ins TXLGPU_MemDescType:$dst, TXLGPU_MemDescType:$src,
                       Optional<I1>:$pred,
                       Variadic<TXLGPU_MemDescType>:$barriers,
                       I32Attr:$leaderWarp);
  let assemblyFormat = [{
    $src `,` $dst (`,` $pred^)? (`commit` $barriers^)? attr-dict
    `:` type($src) `->` type($dst) (`,` type($barriers)^)?
  }];
  let hasVerifier = 1;
}

def TXLGPU_TCGen05FenceOp : TXLGPU_Op<"tcgen05_fence",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "tcgen05.fence::before_thread_sync / after_thread_sync";
  let description = [{
    Orders the calling thread's tcgen05 operations against its thread
    synchronizations (barriers, mbarrier arrive/wait): `before` prior
    tcgen05 work before the next synchronization, `after` later tcgen05
    work after the last one.
  }];
  let arguments = (ins UnitAttr:$after);
  let assemblyFormat = "attr-dict";
}

def TXLGPU_ClcTryCancelOp : TXLGPU_Op<"clc_try_cancel",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Ask to take over a cluster not yet launched (sm_100)";
  let description = [{
    clusterlaunchcontrol.try_cancel: one thread (the elected lane of warp
    `leaderWarp`; in a cluster, of the CTA of rank 0) asks the hardware to
    cancel the launch of a cluster that has not started yet. The 16-byte
    response lands in `response` (a shared buffer) and completes 16
    transaction bytes on `bar`; in a cluster the response and the
    completion are multicast to the same offsets in every CTA of the
    cluster (.multicast::cluster::all), so each CTA expects 16 bytes on its
    own barrier. Read the response with clc_query after waiting on `bar`.
  }];
  let arguments = (ins TXLGPU_MemDescType:$response, TXLGPU_MemDescType:$bar,
                       I32Attr:$leaderWarp);
  let assemblyFormat = [{
    $response `,` $bar attr-dict `:` type($response) `,` type($bar)
  }];
}

def TXLGPU_ClcQueryOp : TXLGPU_Op<"clc_query", [MemoryEffects<[MemRead]>]> {
  let summary = "The program a try_cancel response hands over, or -1";
  let description = [{
    clusterlaunchcontrol.query_cancel on the 16-byte response in
    `response`: when the request succeeded, the program id along x of the
    canceled cluster (its first CTA's id divided by the cluster size, as
    tl.program_id counts clusters); otherwise -1.
  }];
  let arguments = (ins TXLGPU_MemDescType:$response);
  let results = (outs I32:$result);
  let assemblyFormat = "$response attr-dict `:` type($response)";
}

#endif
