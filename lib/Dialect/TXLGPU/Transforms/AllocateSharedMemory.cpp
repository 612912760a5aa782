//===- AllocateSharedMemory.cpp - scratch and shared tiles ----------------===//
#include "txl/Dialect/TXLGPU/IR/LayoutUtils.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_ALLOCATESHAREDMEMORY
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

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
    bytes = llvm::alignTo(bytes + partials * outElems * elemBytes(src.getType()),
                          16);
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

/// The op of `block` that contains `op` (or null).
Operation *ancestorIn(Block *block, Operation *op) {
  for (; op; op = op->getParentOp())
    if (op->getBlock() == block)
      return op;
  return nullptr;
}

/// Where a loop-staging buffer's lifetime ends: the op of the buffer's
/// block containing its last use (the pipelined loop).
Operation *lastUse(SmemAllocOp alloc) {
  Block *block = alloc->getBlock();
  Operation *last = alloc;
  SmallVector<Value> work{alloc.getResult()};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      Operation *at = ancestorIn(block, user);
      if (!at)
        return nullptr;
      if (last->isBeforeInBlock(at))
        last = at;
      if (isa<MemDescIndexOp, MemDescViewOp, MemDescReshapeOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  return last;
}

/// Whether scratch `op` only runs once every loop-staging buffer is dead,
/// so it may reuse their bytes (the matmul epilogue after its K loop).
bool runsAfterStaging(Operation *op, ArrayRef<SmemAllocOp> staging) {
  for (SmemAllocOp alloc : staging) {
    Operation *end = lastUse(alloc);
    Operation *at = ancestorIn(alloc->getBlock(), op);
    if (!end || !at || at == end || !end->isBeforeInBlock(at))
      return false;
  }
  return true;
}

struct AllocateSharedMemoryPass
    : public txlgpu::impl::AllocateSharedMemoryBase<AllocateSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    int64_t warpgroups = 1;
    if (auto attr = module->getAttrOfType<IntegerAttr>(
            TXLGPUDialect::kNumWarpgroupsAttr))
      warpgroups = attr.getInt();
    SmallVector<SmemAllocOp> staging;
    module.walk([&](SmemAllocOp alloc) {
      if (alloc->hasAttr(TXLGPUDialect::kLoopStagingAttr))
        staging.push_back(alloc);
    });
    // Scratch that runs after every pipelined loop goes on top of the
    // loops' staging buffers (one warpgroup: with several, scratch is
    // strided per warpgroup below).
    SmallVector<Operation *> late;
    int64_t lateBytes = 0;
    int64_t total = 0;
    bool failed = false;
    module.walk([&](Operation *op) {
      int64_t bytes = 0;
      if (auto cvt = dyn_cast<ConvertLayoutOp>(op))
        bytes = relayoutBytes(cvt.getSrc(), cvt.getResult(), identityCoordMap());
      else if (auto reshape = dyn_cast<mlir::txl::ReshapeOp>(op))
        bytes = relayoutBytes(
            reshape.getSrc(), reshape.getResult(),
            reshapeCoordMap(reshape.getSrc().getType().getShape(),
                            reshape.getType().getShape()));
      else if (auto trans = dyn_cast<mlir::txl::TransOp>(op))
        bytes = relayoutBytes(trans.getSrc(), trans.getResult(),
                              transposeCoordMap(trans.getOrder()));
      else if (auto reduce = dyn_cast<mlir::txl::ReduceOp>(op))
        bytes = reduceBytes(reduce);
      else
        bytes = atomicBytes(op);
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
      if (warpgroups == 1 && !staging.empty() &&
          runsAfterStaging(op, staging)) {
        late.push_back(op);
        lateBytes = std::max(lateBytes, bytes);
        return;
      }
      // Scratch uses are fenced by barriers in the lowering, so they all
      // start at 0 and the kernel needs the largest one.
      op->setAttr(TXLGPUDialect::kSharedOffsetAttr, b.getI32IntegerAttr(0));
      total = std::max(total, bytes);
    });
    if (failed)
      return signalPassFailure();
    // Shared tiles (wgmma/TMA operands) follow the scratch area, each on
    // its own 1024-byte boundary: the hardware swizzle is a function of the
    // address bits, so a tile must start where its pattern repeats. Besides
    // late scratch over loop staging, tiles are not reused across disjoint
    // lifetimes.
    total = llvm::alignTo(total, 16);
    if (warpgroups > 1 && total > 0) {
      module->setAttr(TXLGPUDialect::kScratchStrideAttr,
                      b.getI32IntegerAttr(total));
      total *= warpgroups;
    }
    // mbarriers (8 bytes each) before the tiles, so they do not cost a
    // 1024-byte alignment gap.
    module.walk([&](MBarAllocOp alloc) {
      total = llvm::alignTo(total, 8);
      alloc->setAttr(TXLGPUDialect::kSharedOffsetAttr,
                     b.getI32IntegerAttr(total));
      total += alloc.getType().getShape()[0] * getStageStride(alloc.getType());
    });
    // The CTA's tensor-memory address: tcgen05.alloc writes it to shared
    // memory, where every thread reads it. One slot serves all tmem_allocs
    // (AllocateTensorMemory makes them one allocation).
    std::optional<int64_t> tmemSlot;
    module.walk([&](TMemAllocOp alloc) {
      if (!tmemSlot) {
        tmemSlot = llvm::alignTo(total, 16);
        total = *tmemSlot + 16;
      }
      alloc->setAttr(TXLGPUDialect::kSharedOffsetAttr,
                     b.getI32IntegerAttr(*tmemSlot));
    });
    // An in-kernel TMA descriptor is built in a 128-byte shared slot per
    // warpgroup (tensormap.replace needs 128-byte alignment) and copied to
    // its slot of the CTA's global scratch, where TMA reads it.
    int64_t globalScratch = 0;
    module.walk([&](MakeTensorDescOp op) {
      total = llvm::alignTo(total, 128);
      op->setAttr(TXLGPUDialect::kSharedOffsetAttr, b.getI32IntegerAttr(total));
      op->setAttr(TXLGPUDialect::kGlobalScratchOffsetAttr,
                  b.getI32IntegerAttr(globalScratch));
      total += 128 * warpgroups;
      globalScratch += 128 * warpgroups;
    });
    if (globalScratch)
      module->setAttr(TXLGPUDialect::kGlobalScratchBytesAttr,
                      b.getI32IntegerAttr(globalScratch));
    auto place = [&](SmemAllocOp alloc) {
      total = llvm::alignTo(total, 1024);
      alloc->setAttr(TXLGPUDialect::kSharedOffsetAttr,
                     b.getI32IntegerAttr(total));
      total += alloc.getType().getShape()[0] * getStageStride(alloc.getType());
    };
    // Staging buffers first and together, so late scratch overlays them.
    int64_t stagingStart = llvm::alignTo(total, 1024);
    for (SmemAllocOp alloc : staging)
      place(alloc);
    for (Operation *op : late)
      op->setAttr(TXLGPUDialect::kSharedOffsetAttr,
                  b.getI32IntegerAttr(stagingStart));
    if (!late.empty())
      total = std::max(total, stagingStart + lateBytes);
    module.walk([&](SmemAllocOp alloc) {
      if (!alloc->hasAttr(TXLGPUDialect::kLoopStagingAttr))
        place(alloc);
    });
    module.walk([&](LocalAllocOp alloc) {
      total = llvm::alignTo(total, 1024);
      alloc->setAttr(TXLGPUDialect::kSharedOffsetAttr,
                     b.getI32IntegerAttr(total));
      total += getSharedBytes(alloc.getType());
    });
    module->setAttr(TXLGPUDialect::kSharedBytesAttr,
                    b.getI32IntegerAttr(llvm::alignTo(total, 16)));
  }
};

} // namespace
