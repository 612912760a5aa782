//===- AllocateSharedMemory.cpp - scratch and shared tiles ----------------===//
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"
#include "txl/Dialect/TXLGPU/IR/LayoutUtils.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Dialect/TXLGPU/Transforms/SharedMemoryLiveness.h"
#include "txl/Dialect/TXLGPU/Transforms/ThreadValues.h"
#include "txl/Support/Debug.h"
#include "txl/Support/TargetFeatures.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_ALLOCATESHAREDMEMORY
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

#define TXL_DEBUG_TYPE "txlgpu-allocate-shared-memory"

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

int64_t elemBytes(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isa<mlir::txl::PointerType>(elem))
    return 8;
  return std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
}

/// Bytes a relayout (convert_layout, reshape, trans) needs: none when
/// registers can simply be renamed, else the whole tensor.
int64_t relayoutBytes(Value src, Value dst, const CoordMap &map) {
  auto srcTy = cast<RankedTensorType>(src.getType());
  auto dstTy = cast<RankedTensorType>(dst.getType());
  auto srcMap = getLayoutMap(srcTy), dstMap = getLayoutMap(dstTy);
  if (srcMap && dstMap && getRegisterRenaming(*srcMap, *dstMap, map))
    return 0;
  return dstTy.getNumElements() * elemBytes(dstTy);
}

/// Bytes a cross-warp reduction needs: one partial per splitting warp for
/// every output element, per operand (layout as in ReduceOpToLLVM).
int64_t reduceBytes(mlir::txl::ReduceOp op) {
  auto srcTy = cast<RankedTensorType>(op.getSrcs()[0].getType());
  auto map = getLayoutMap(srcTy);
  if (!map)
    return 0;
  int64_t partials = 1;
  for (const Coord &basis : map->warpBases)
    if (basis[op.getAxis()] != 0)
      partials *= 2;
  if (partials == 1)
    return 0;
  int64_t outElems = srcTy.getNumElements() / srcTy.getShape()[op.getAxis()];
  int64_t bytes = 0;
  for (Value src : op.getSrcs())
    bytes = llvm::alignTo(
        bytes + partials * outElems * elemBytes(src.getType()), 16);
  return bytes;
}

/// Bytes a scan across warps needs: one partial per group of elements a
/// thread scans alone, per operand (layout as in ScanOpToLLVM).
int64_t scanBytes(mlir::txl::ScanOp op) {
  auto srcTy = cast<RankedTensorType>(op.getSrcs()[0].getType());
  auto map = getLayoutMap(srcTy);
  if (!map)
    return 0;
  auto bits = getAxisBits(*map, op.getAxis());
  if (!bits || llvm::none_of(*bits, [](const AxisBit &b) {
        return b.kind == AxisBit::Warp;
      }))
    return 0;
  int64_t groups = srcTy.getNumElements();
  for (const AxisBit &b : *bits) {
    if (b.kind != AxisBit::Reg)
      break;
    groups /= 2;
  }
  int64_t bytes = 0;
  for (Value src : op.getSrcs())
    bytes = llvm::alignTo(bytes + groups * elemBytes(src.getType()), 16);
  return bytes;
}

/// Bytes an atomic needs to hand its old values to the threads that did
/// not perform it (replicas; all but thread 0 for a scalar): one element
/// per tensor element, when the values are used (AtomicOpToLLVM.cpp).
int64_t atomicBytes(Operation *op) {
  if (!isa<mlir::txl::AtomicRMWOp, mlir::txl::AtomicCASOp>(op) ||
      op->getResult(0).use_empty())
    return 0;
  Type type = op->getResult(0).getType();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return elemBytes(type);
  auto map = getLayoutMap(tensor);
  if (!map)
    return 0;
  bool replicated = map->laneFreeMask() || map->warpFreeMask();
  for (int r = 0; r < map->numRegs() && !replicated; ++r)
    replicated = map->isDuplicateReg(r);
  return replicated ? tensor.getNumElements() * elemBytes(type) : 0;
}

/// Bytes `op` exchanges through shared memory (0 if none).
int64_t scratchBytes(Operation *op) {
  if (auto cvt = dyn_cast<ConvertLayoutOp>(op))
    return relayoutBytes(cvt.getSrc(), cvt.getResult(), identityCoordMap());
  if (auto reshape = dyn_cast<mlir::txl::ReshapeOp>(op))
    return relayoutBytes(reshape.getSrc(), reshape.getResult(),
                         reshapeCoordMap(reshape.getSrc().getType().getShape(),
                                         reshape.getType().getShape()));
  if (auto trans = dyn_cast<mlir::txl::TransOp>(op))
    return relayoutBytes(trans.getSrc(), trans.getResult(),
                         transposeCoordMap(trans.getOrder()));
  if (auto reduce = dyn_cast<mlir::txl::ReduceOp>(op))
    return reduceBytes(reduce);
  if (auto scan = dyn_cast<mlir::txl::ScanOp>(op))
    return scanBytes(scan);
  // A histogram's int32 counters, at least a warp's width of them
  // (HistogramOpToLLVM.cpp).
  if (auto hist = dyn_cast<mlir::txl::HistogramOp>(op))
    return 4 * std::max<int64_t>(32, hist.getType().getDimSize(0));
  // An FMA dot reads its operands back from scratch (DotOpToLLVM.cpp).
  if (auto dot = dyn_cast<mlir::txl::DotOp>(op))
    if (dot.isFMA())
      return dot.getA().getType().getNumElements() *
                 elemBytes(dot.getA().getType()) +
             dot.getB().getType().getNumElements() *
                 elemBytes(dot.getB().getType());
  // tl.gather: the whole source, read back at data-dependent rows.
  if (auto gather = dyn_cast<mlir::txl::GatherOp>(op))
    return gather.getSrc().getType().getNumElements() *
           elemBytes(gather.getSrc().getType());
  return atomicBytes(op);
}

/// A piece of shared memory: scratch of one op, a tile, a buffer array,
/// mbarriers or a descriptor slot. Buffers whose live intervals do not
/// overlap may share bytes; a pinned one is live for the whole kernel.
struct Buffer {
  SmallVector<Operation *> owners; ///< the ops that get the offset
  int64_t bytes = 0;
  int64_t alignment = 16;
  bool pinned = false;
  SmallVector<BufferAccess> accesses;
  std::optional<std::pair<int64_t, int64_t>> live;
  int64_t offset = 0;

  bool interferes(const Buffer &other) const {
    if (pinned || other.pinned)
      return true;
    if (!live || !other.live)
      return false;
    return live->first <= other.live->second &&
           other.live->first <= live->second;
  }
  bool overlapsBytes(const Buffer &other) const {
    return offset < other.offset + other.bytes && other.offset < offset + bytes;
  }
};

/// Scratch lowering works on any 16-byte boundary; a large exchange tile
/// is swizzled, and starting it where the pattern repeats keeps its
/// accesses free of bank conflicts.
int64_t scratchAlignment(int64_t bytes) {
  return std::clamp<int64_t>(llvm::PowerOf2Ceil(bytes), 16, 1024);
}

/// First fit: the lowest aligned offset where `buffer` overlaps no placed
/// buffer it interferes with.
int64_t firstFit(const Buffer &buffer, ArrayRef<const Buffer *> placed) {
  SmallVector<std::pair<int64_t, int64_t>> taken;
  for (const Buffer *other : placed)
    if (buffer.interferes(*other))
      taken.push_back({other->offset, other->offset + other->bytes});
  llvm::sort(taken);
  int64_t offset = 0;
  for (auto [begin, end] : taken)
    if (offset < end && begin < offset + buffer.bytes)
      offset = llvm::alignTo(end, buffer.alignment);
  return offset;
}

struct AllocateSharedMemoryPass
    : public txlgpu::impl::AllocateSharedMemoryBase<AllocateSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    warpgroups = 1;
    if (auto attr = module->getAttrOfType<IntegerAttr>(
            TXLGPUDialect::kNumWarpgroupsAttr))
      warpgroups = attr.getInt();
    ProgramOrder order(module);
    module.walk([&](Operation *op) {
      if (isa<scf::ForOp, scf::WhileOp>(op))
        loopSpans.push_back({order.start(op), order.end(op)});
    });
    if (failed(collectScratch(module)))
      return signalPassFailure();
    collectTiles(module);
    computeLiveness(order);
    int64_t total = place(/*smallFixedLast=*/false);
    // Small fixed buffers first is the placement every kernel has run with
    // on the GPU. When it does not fit the target, they go last instead,
    // into the holes the 1024-byte tile alignment leaves (up to 1 KB less).
    if (total > ::txl::targetMaxSharedBytesPerBlock(targetOf(module))) {
      total = place(/*smallFixedLast=*/true);
      TXL_DEBUG(llvm::dbgs() << "[" TXL_DEBUG_TYPE "] over the target's "
                                "shared memory: mbarriers and descriptor "
                                "slots placed after the tiles\n");
    }
    TXL_DEBUG(report(total));
    insertBarriers();
    for (Buffer &buffer : buffers)
      for (Operation *owner : buffer.owners)
        owner->setAttr(TXLGPUDialect::kSharedOffsetAttr,
                       b.getI32IntegerAttr(buffer.offset));
    module->setAttr(TXLGPUDialect::kSharedBytesAttr,
                    b.getI32IntegerAttr(llvm::alignTo(total, 16)));
    module->setAttr(TXLGPUDialect::kSharedPlanAttr, plan(b));
  }

  /// The placement as the metadata reports it: each placed buffer's first
  /// owner op and source line, offset, bytes, and whether it is live for
  /// the whole kernel (else it shares bytes with buffers live at other
  /// times), by offset.
  ArrayAttr plan(Builder &b) {
    SmallVector<const Buffer *> placed;
    for (const Buffer &buffer : buffers)
      if (buffer.pinned || buffer.live)
        placed.push_back(&buffer);
    llvm::stable_sort(placed, [](const Buffer *x, const Buffer *y) {
      return x->offset < y->offset;
    });
    SmallVector<Attribute> entries;
    for (const Buffer *buffer : placed) {
      Operation *owner = buffer->owners.front();
      int64_t line = 0;
      if (auto at = dyn_cast<FileLineColLoc>(owner->getLoc()))
        line = at.getLine();
      else if (auto fused = dyn_cast<FusedLoc>(owner->getLoc()))
        for (Location inner : fused.getLocations())
          if (auto at = dyn_cast<FileLineColLoc>(inner); at && !line)
            line = at.getLine();
      entries.push_back(b.getDictionaryAttr({
          b.getNamedAttr("op",
                         b.getStringAttr(owner->getName().getStringRef())),
          b.getNamedAttr("line", b.getI32IntegerAttr(line)),
          b.getNamedAttr("offset", b.getI32IntegerAttr(buffer->offset)),
          b.getNamedAttr("bytes", b.getI32IntegerAttr(buffer->bytes)),
          b.getNamedAttr("whole_kernel", b.getBoolAttr(buffer->pinned)),
      }));
    }
    return b.getArrayAttr(entries);
  }

  /// One buffer per op that exchanges data through shared memory. With
  /// several warpgroups (which may run different roles at once) each owns
  /// a part of one scratch area that all such ops share, kept whole; a
  /// part is as large as the most any op its threads may run needs (the
  /// role checks around an op rule out other warpgroups' threads).
  LogicalResult collectScratch(ModuleOp module) {
    bool failed = false;
    Buffer shared;
    SmallVector<int64_t> partBytes(scratchGroups(module), 0);
    ThreadValues values(partBytes.size() * warpThreads(module));
    module.walk([&](Operation *op) {
      int64_t bytes = scratchBytes(op);
      if (auto within = op->getAttrOfType<StringAttr>("txl.within_warp");
          within && bytes > 0) {
        op->emitError(within.getValue())
            << ": the reduced axis is split across warps in this layout, so "
               "the reduction would need shared memory and a barrier (use the "
               "tl. form, or give the axis to a single warp)";
        failed = true;
        return;
      }
      if (bytes == 0)
        return;
      if (warpgroups > 1) {
        shared.owners.push_back(op);
        llvm::BitVector threads = threadsThatMayRun(op, values);
        for (size_t g = 0; g < partBytes.size(); ++g)
          if (threads.find_first_in(g * warpThreads(module),
                                    (g + 1) * warpThreads(module)) != -1)
            partBytes[g] = std::max(partBytes[g], bytes);
        return;
      }
      Buffer buffer;
      buffer.owners = {op};
      buffer.bytes = bytes;
      buffer.alignment = scratchAlignment(bytes);
      buffer.accesses = {{op, /*kill=*/true, /*selfSynchronizing=*/true}};
      buffer.pinned = inThreadDependentRegion(op);
      buffers.push_back(std::move(buffer));
    });
    if (!shared.owners.empty()) {
      SmallVector<int32_t> offsets;
      for (int64_t bytes : partBytes) {
        offsets.push_back(shared.bytes);
        shared.bytes += llvm::alignTo(bytes, 16);
      }
      module->setAttr(TXLGPUDialect::kScratchOffsetsAttr,
                      DenseI32ArrayAttr::get(module.getContext(), offsets));
      shared.alignment = 1024;
      shared.pinned = true;
      buffers.push_back(std::move(shared));
    }
    return success(!failed);
  }

  /// Threads of one warpgroup.
  static int64_t warpThreads(ModuleOp module) {
    int64_t warps = 4;
    if (auto attr =
            module->getAttrOfType<IntegerAttr>(TXLGPUDialect::kNumWarpsAttr))
      warps = attr.getInt();
    return warps * 32;
  }

  /// The warpgroups that may use scratch: the launch's, and the extra
  /// warps past them as one more (they count as warpgroup `warpgroups`).
  int64_t scratchGroups(ModuleOp module) const {
    auto extra = module->getAttrOfType<IntegerAttr>(kNumExtraWarpsAttr);
    return warpgroups + (extra && extra.getInt() > 0 ? 1 : 0);
  }

  /// Tiles and buffer arrays (live by their accesses), mbarriers and
  /// descriptor slots (live throughout).
  void collectTiles(ModuleOp module) {
    std::optional<size_t> tmemSlot; // the buffer all tmem_allocs share
    module.walk([&](Operation *op) {
      Buffer buffer;
      buffer.owners = {op};
      if (auto alloc = dyn_cast<SmemAllocOp>(op)) {
        // Swizzled tiles start where the swizzle pattern repeats (1024
        // bytes): the hardware swizzle is a function of the address bits.
        // Others need 128 bytes (TMA) at most.
        buffer.bytes =
            alloc.getType().getShape()[0] * getStageStride(alloc.getType());
        buffer.alignment = getTileAlignment(alloc.getType());
        buffer.pinned = !trackAccesses(alloc.getResult(), buffer);
      } else if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
        buffer.bytes = getSharedBytes(alloc.getType());
        buffer.alignment = getTileAlignment(alloc.getType());
        buffer.pinned = !trackAccesses(alloc.getResult(), buffer);
      } else if (auto alloc = dyn_cast<MBarAllocOp>(op)) {
        buffer.bytes =
            alloc.getType().getShape()[0] * getStageStride(alloc.getType());
        buffer.alignment = 8;
        buffer.pinned = true;
      } else if (isa<TMemAllocOp>(op)) {
        // The CTA's tensor-memory address: tcgen05.alloc writes it to
        // shared memory, where every thread reads it. One 16-byte slot
        // serves all tmem_allocs (AllocateTensorMemory makes them one
        // allocation), live throughout.
        if (tmemSlot) {
          buffers[*tmemSlot].owners.push_back(op);
          return;
        }
        tmemSlot = buffers.size();
        buffer.bytes = 16;
        buffer.alignment = 16;
        buffer.pinned = true;
      } else if (auto desc = dyn_cast<MakeTensorDescOp>(op)) {
        // An in-kernel TMA descriptor is built in a 128-byte shared slot per
        // warpgroup (tensormap.replace needs 128-byte alignment) and copied
        // to its slot of the CTA's global scratch, where TMA reads it.
        desc->setAttr(
            TXLGPUDialect::kGlobalScratchOffsetAttr,
            Builder(op->getContext()).getI32IntegerAttr(globalScratch));
        globalScratch += 128 * warpgroups;
        buffer.bytes = 128 * warpgroups;
        buffer.alignment = 128;
        buffer.pinned = true;
      } else {
        return;
      }
      buffers.push_back(std::move(buffer));
    });
    if (globalScratch)
      module->setAttr(
          TXLGPUDialect::kGlobalScratchBytesAttr,
          Builder(module.getContext()).getI32IntegerAttr(globalScratch));
  }

  /// Records the accesses of the buffer `root` names; false when it must
  /// stay unshared: several warpgroups (which run unordered), a user the
  /// analysis does not know, or a place that needs a barrier where not
  /// every thread arrives.
  bool trackAccesses(Value root, Buffer &buffer) {
    if (warpgroups > 1 || !collectBufferAccesses(root, buffer.accesses))
      return false;
    return llvm::none_of(
        firstAccesses(buffer.accesses),
        [](const BufferAccess &a) { return inThreadDependentRegion(a.op); });
  }

  void computeLiveness(const ProgramOrder &order) {
    for (Buffer &buffer : buffers)
      if (!buffer.pinned)
        buffer.live =
            liveInterval(buffer.owners.front(), buffer.accesses, order);
  }

  /// Places mbarriers, the tensor-memory address and descriptor slots
  /// first (or, with `smallFixedLast`, last), then the other buffers live
  /// throughout, then the largest buffers first, each at its first fit;
  /// returns the bytes the kernel needs. A buffer that is never accessed
  /// takes none.
  /// For TXL_DEBUG_ONLY=txlgpu-allocate-shared-memory: every buffer's
  /// place, size and live range, and the total.
  void report(int64_t total) const {
    for (const Buffer &buffer : buffers) {
      Operation *op = buffer.owners.front();
      llvm::dbgs() << "[" TXL_DEBUG_TYPE "] " << op->getName() << " at "
                   << op->getLoc() << ": offset " << buffer.offset << ", "
                   << buffer.bytes << " B, "
                   << (buffer.pinned ? "live throughout"
                       : buffer.live ? "live in its uses"
                                     : "never accessed (no bytes)")
                   << "\n";
    }
    llvm::dbgs() << "[" TXL_DEBUG_TYPE "] total " << total << " B\n";
  }

  static llvm::StringRef targetOf(ModuleOp module) {
    auto target = module->getAttrOfType<StringAttr>(TXLGPUDialect::kTargetAttr);
    return target ? target.getValue() : llvm::StringRef("sm_90a");
  }

  int64_t place(bool smallFixedLast) {
    SmallVector<Buffer *> bySize;
    for (Buffer &buffer : buffers)
      if (buffer.pinned || buffer.live)
        bySize.push_back(&buffer);
    auto isSmallFixed = [](const Buffer *buffer) {
      return isa<MBarAllocOp, TMemAllocOp, MakeTensorDescOp>(
          buffer->owners.front());
    };
    // Then buffers live throughout, in program order, then the rest.
    auto rank = [&](const Buffer *buffer) {
      if (isSmallFixed(buffer))
        return smallFixedLast ? 3 : 0;
      return buffer->pinned ? 1 : 2;
    };
    llvm::stable_sort(bySize, [&](const Buffer *x, const Buffer *y) {
      if (rank(x) != rank(y))
        return rank(x) < rank(y);
      return rank(x) == 2 && x->bytes > y->bytes;
    });
    SmallVector<const Buffer *> placed;
    int64_t total = 0;
    for (Buffer *buffer : bySize) {
      buffer->offset = firstFit(*buffer, placed);
      total = std::max(total, buffer->offset + buffer->bytes);
      placed.push_back(buffer);
    }
    return total;
  }

  /// Where a buffer takes over bytes another used before, the threads must
  /// be done with the old contents (its last reads, and the asynchronous
  /// reads its waits retired) before the new ones are written: a barrier
  /// before every access that can come first, unless that access starts
  /// with one. Before a TMA write the barrier also fences the generic
  /// proxy's earlier accesses against the asynchronous one.
  void insertBarriers() {
    llvm::SmallPtrSet<Operation *, 8> done;
    for (Buffer &buffer : buffers) {
      if (!buffer.live)
        continue;
      bool reuses = llvm::any_of(buffers, [&](const Buffer &other) {
        return &other != &buffer && other.live && !buffer.interferes(other) &&
               buffer.overlapsBytes(other) &&
               mayRunBefore(*other.live, *buffer.live);
      });
      if (!reuses)
        continue;
      for (const BufferAccess &first : firstAccesses(buffer.accesses)) {
        if (first.selfSynchronizing && !first.asyncProxyWrite)
          continue;
        if (!done.insert(first.op).second)
          continue;
        OpBuilder builder(first.op);
        auto barrier = BarrierOp::create(builder, first.op->getLoc());
        if (first.asyncProxyWrite)
          barrier->setAttr(TXLGPUDialect::kFenceAsyncProxyAttr,
                           builder.getUnitAttr());
      }
    }
  }

  /// Whether a buffer live over `earlier` can hold its bytes before one
  /// live over `later` does (two disjoint intervals): it comes first in
  /// program order, or a loop around both runs it again afterwards.
  bool mayRunBefore(std::pair<int64_t, int64_t> earlier,
                    std::pair<int64_t, int64_t> later) const {
    if (earlier.second < later.first)
      return true;
    return llvm::any_of(loopSpans, [&](std::pair<int64_t, int64_t> loop) {
      return loop.first <= later.first && earlier.second <= loop.second;
    });
  }

  int64_t warpgroups = 1;
  int64_t globalScratch = 0;
  SmallVector<std::pair<int64_t, int64_t>> loopSpans;
  SmallVector<Buffer> buffers;
};

} // namespace

int64_t mlir::txlgpu::sharedScratchBytes(Operation *op) {
  return scratchBytes(op);
}
