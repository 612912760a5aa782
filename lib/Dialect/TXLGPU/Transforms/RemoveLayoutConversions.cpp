//===- RemoveLayoutConversions.cpp - recompute cheap values in place ------===//
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_REMOVELAYOUTCONVERSIONS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

/// Most ops recomputed for one conversion: beyond this, moving the data is
/// cheaper than recomputing it.
constexpr int kMaxClonedOps = 24;

Type withEncoding(Type type, Attribute encoding) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}

/// Ops cheap enough to recompute whose tensor operands and result share one
/// layout (expand_dims: its operand has the slice of its result's).
bool isRecomputable(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  if (isa<mlir::txl::MakeRangeOp, mlir::txl::SplatOp, mlir::txl::AddPtrOp,
          mlir::txl::HintOp, mlir::txl::BroadcastOp, mlir::txl::ExpandDimsOp>(
          op))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue()) ||
           !isa<ShapedType>(constant.getType());
  StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return ns == "arith" && isPure(op);
}

class Rematerializer {
public:
  /// Rematerializes for a conversion of `rootElements` elements.
  Rematerializer(OpBuilder &b, int64_t rootElements)
      : b(b), budget(rootElements) {}

  /// `v` recomputed with `encoding`, or null when too costly / impossible.
  Value get(Value v, Attribute encoding) {
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    if (!tensor)
      return v; // scalars are shared by every layout
    if (tensor.getEncoding() == encoding)
      return v;
    auto key = std::make_pair(v, encoding);
    if (auto it = cache.find(key); it != cache.end())
      return it->second;
    Operation *def = v.getDefiningOp();
    if (!def || !isRecomputable(def))
      return convertSmaller(v, encoding);
    if (++cloned > kMaxClonedOps)
      return {};
    // expand_dims reads its operand in the slice of its result's layout
    // (a mask built from `rows[:, None]` follows a wgmma accumulator's
    // layout as well as a blocked one's).
    Attribute operandEncoding = encoding;
    if (auto expand = dyn_cast<mlir::txl::ExpandDimsOp>(def))
      operandEncoding =
          SliceEncodingAttr::get(b.getContext(), expand.getAxis(), encoding);
    IRMapping mapping;
    for (Value operand : def->getOperands()) {
      Value moved = get(operand, operandEncoding);
      if (!moved)
        return {};
      mapping.map(operand, moved);
    }
    Operation *clone = b.clone(*def, mapping);
    Type newType = withEncoding(v.getType(), encoding);
    if (auto constant = dyn_cast<arith::ConstantOp>(clone)) {
      auto dense = cast<DenseElementsAttr>(constant.getValue());
      constant.setValueAttr(dense.reshape(cast<ShapedType>(newType)));
    }
    clone->getResult(0).setType(newType);
    return cache[key] = clone->getResult(0);
  }

  int cloned = 0;

private:
  /// A value that cannot be recomputed may still be converted itself when
  /// it is smaller than what the root conversion moves: a row statistic
  /// broadcast over a tile (`acc / l[:, None]`) converts the 64 values of
  /// `l`, not the 8192 of the broadcast. The conversions made for one root
  /// together stay below its size. A conversion's source is taken directly.
  Value convertSmaller(Value v, Attribute encoding) {
    auto tensor = cast<RankedTensorType>(v.getType());
    if (tensor.getNumElements() >= budget)
      return {};
    budget -= tensor.getNumElements();
    Value src = v;
    if (auto cvt = v.getDefiningOp<ConvertLayoutOp>())
      src = cvt.getSrc();
    Value moved = src;
    if (cast<RankedTensorType>(src.getType()).getEncoding() != encoding)
      moved = ConvertLayoutOp::create(b, v.getLoc(),
                                      withEncoding(v.getType(), encoding), src);
    return cache[{v, encoding}] = moved;
  }

  OpBuilder &b;
  int64_t budget; ///< elements the conversions made may still move
  llvm::DenseMap<std::pair<Value, Attribute>, Value> cache;
};

/// A conversion of a shared-memory read to an MMA operand fragment is the
/// read itself in that layout: smem_load reads any register layout, so a
/// second read (placed right after the first, where it sees the same
/// bytes) replaces a trip through a scratch buffer (a store, a barrier and
/// a load per use: a Q tile loaded once and converted to wgmma's A
/// fragment in every iteration). Reads in a layout the program chose
/// (frag_smem_load) stay as written.
LogicalResult loadInLayout(ConvertLayoutOp op) {
  auto load = op.getSrc().getDefiningOp<SmemLoadOp>();
  if (!load || !isa<DotOperandEncodingAttr>(op.getType().getEncoding()))
    return failure();
  OpBuilder b(load->getContext());
  b.setInsertionPointAfter(load);
  auto direct = SmemLoadOp::create(b, load.getLoc(), op.getType(),
                                   load->getOperands(), load->getAttrs());
  op.getResult().replaceAllUsesWith(direct.getResult());
  op.erase();
  return success();
}

struct RemoveLayoutConversionsPass
    : public txlgpu::impl::RemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    SmallVector<ConvertLayoutOp> converts;
    getOperation().walk([&](ConvertLayoutOp op) { converts.push_back(op); });
    for (ConvertLayoutOp op : converts) {
      if (succeeded(loadInLayout(op)))
        continue;
      OpBuilder b(op);
      Rematerializer remat(b, op.getType().getNumElements());
      Attribute encoding = op.getType().getEncoding();
      Value moved = remat.get(op.getSrc(), encoding);
      if (!moved)
        continue; // clones left unused are erased below
      op.getResult().replaceAllUsesWith(moved);
      op.erase();
    }
    // Drop what is now dead (the originals and any abandoned clones).
    bool changed = true;
    while (changed) {
      changed = false;
      getOperation().walk([&](Operation *op) {
        if (op->use_empty() && op->getNumResults() > 0 && isPure(op) &&
            op->getNumRegions() == 0) {
          op->erase();
          changed = true;
        }
      });
    }
  }
};

} // namespace
