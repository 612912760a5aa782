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

struct AllocateSharedMemoryPass
    : public txlgpu::impl::AllocateSharedMemoryBase<AllocateSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    int64_t total = 0;
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
      if (bytes == 0)
        return;
      // Scratch uses are fenced by barriers in the lowering, so they all
      // start at 0 and the kernel needs the largest one.
      op->setAttr(TXLGPUDialect::kSharedOffsetAttr, b.getI32IntegerAttr(0));
      total = std::max(total, bytes);
    });
    // Shared tiles (wgmma/TMA operands) follow the scratch area, each on
    // its own 1024-byte boundary: the hardware swizzle is a function of the
    // address bits, so a tile must start where its pattern repeats. Tiles
    // are not yet reused across disjoint lifetimes.
    total = llvm::alignTo(total, 16);
    int64_t warpgroups = 1;
    if (auto attr = module->getAttrOfType<IntegerAttr>(
            TXLGPUDialect::kNumWarpgroupsAttr))
      warpgroups = attr.getInt();
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
    module.walk([&](SmemAllocOp alloc) {
      total = llvm::alignTo(total, 1024);
      alloc->setAttr(TXLGPUDialect::kSharedOffsetAttr,
                     b.getI32IntegerAttr(total));
      total += alloc.getType().getShape()[0] * getStageStride(alloc.getType());
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
