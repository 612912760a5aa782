//===- DescLoadTiles.cpp - the shared tiles desc.load copies into ---------===//
#include "txl/Dialect/TXLGPU/Transforms/DescLoadTiles.h"
#include "txl/Dialect/TXL/IR/Dialect.h"

using namespace mlir;
using namespace mlir::txlgpu;

std::optional<DescLoadSite> mlir::txlgpu::matchDescLoadSite(Value tile) {
  auto index = tile.getDefiningOp<MemDescIndexOp>();
  if (!index)
    return std::nullopt;
  auto buffer = index.getSrc().getDefiningOp<SmemAllocOp>();
  if (!buffer || !buffer->hasOneUse() || buffer.getType().getShape()[0] != 1)
    return std::nullopt;
  TMALoadOp copy;
  for (Operation *user : tile.getUsers()) {
    if (auto load = dyn_cast<TMALoadOp>(user)) {
      if (copy || load.getDst() != tile)
        return std::nullopt;
      copy = load;
      continue;
    }
    // Readers only: anything else might write the tile.
    if (!isa<SmemLoadOp, MemDescViewOp, WarpGroupDotOp>(user))
      return std::nullopt;
  }
  if (!copy || !copy.getSync() || copy.getPred() || copy.getMulticast() ||
      copy.getTwoCtas())
    return std::nullopt;
  auto barrier = copy.getBar().getDefiningOp<MemDescIndexOp>();
  if (!barrier || !barrier->hasOneUse())
    return std::nullopt;
  auto barriers = barrier.getSrc().getDefiningOp<MBarAllocOp>();
  if (!barriers || !barriers->hasOneUse())
    return std::nullopt;
  return DescLoadSite{copy, buffer, index, barriers, barrier};
}

Value mlir::txlgpu::tileForWarpGroupDot(OpBuilder &b, Value v, unsigned kDim,
                                        Operation *dot) {
  auto trans = v.getDefiningOp<mlir::txl::TransOp>();
  if (trans) {
    if (trans.getOrder().size() != 2 || trans.getOrder()[0] != 1)
      return {};
    v = trans.getSrc();
  }
  auto read = v.getDefiningOp<SmemLoadOp>();
  if (!read)
    return {};
  auto site = matchDescLoadSite(read.getSrc());
  if (!site)
    return {};
  Block *block = read->getBlock();
  if (site->copy->getBlock() != block || !site->copy->isBeforeInBlock(read) ||
      !block->findAncestorOpInBlock(*dot))
    return {};
  // The tile is row-major (TMA writes it so): contiguous along its last
  // dimension, the first one after a transpose. wgmma reads only 16-bit
  // operands with their M/N dimension contiguous.
  auto type = cast<MemDescType>(read.getSrc().getType());
  unsigned contiguous = trans ? 0 : 1;
  if (contiguous != kDim && type.getElementType().getIntOrFloatBitWidth() != 16)
    return {};
  if (!trans)
    return read.getSrc();
  auto viewType =
      MemDescType::get(b.getContext(), {type.getShape()[1], type.getShape()[0]},
                       type.getElementType(), Attribute());
  return MemDescViewOp::create(b, dot->getLoc(), viewType, read.getSrc(),
                               b.getDenseI32ArrayAttr({1, 0}),
                               b.getI64IntegerAttr(0), b.getI64IntegerAttr(0));
}
