//===- ViewOpToLLVM.cpp - ops that only rearrange or index elements -------===//
//
// make_range, splat, broadcast, expand_dims, addptr, hint and casts. Layout
// changes that move data between threads are not done here: AssignLayouts
// gives broadcast/expand_dims operands layouts whose lanes and warps hold
// the same elements as the result's, so only registers are renamed.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;
using txlgpu::Coord;
using txlgpu::LayoutMap;

namespace {

/// For each destination register, the source register holding its element,
/// where `project` maps a destination coordinate to the source's. Fails when
/// lanes or warps would need to exchange data.
/// `origin` (if given) is where the destination's coordinate 0 lies in the
/// source: an aligned window (extract_slice), whose offset bits lie above
/// the window's and so combine with lane and warp bits by OR.
FailureOr<SmallVector<int>>
mapRegisters(const LayoutMap &src, const LayoutMap &dst,
             llvm::function_ref<Coord(const Coord &)> project,
             const Coord &origin = {}) {
  auto sameBases = [&](const std::vector<Coord> &s,
                       const std::vector<Coord> &d) {
    if (s.size() != d.size())
      return false;
    for (size_t i = 0; i < s.size(); ++i)
      if (project(d[i]) != s[i])
        return false;
    return true;
  };
  if (!sameBases(src.laneBases, dst.laneBases) ||
      !sameBases(src.warpBases, dst.warpBases))
    return failure();
  auto placed = [&](Coord c) {
    for (size_t d = 0; d < origin.size(); ++d)
      c[d] |= origin[d];
    return c;
  };
  llvm::DenseMap<int64_t, int> srcRegOf;
  for (int s = src.numRegs() - 1; s >= 0; --s)
    srcRegOf[src.flatIndex(src.regCoord(s))] = s;
  SmallVector<int> mapping;
  for (int r = 0; r < dst.numRegs(); ++r) {
    auto it = srcRegOf.find(src.flatIndex(placed(project(dst.regCoord(r)))));
    if (it == srcRegOf.end())
      return failure();
    mapping.push_back(it->second);
  }
  return mapping;
}

template <typename Op>
struct TXLPattern : public ConvertOpToLLVMPattern<Op> {
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;
  Value pack(OpBuilder &b, Location loc, Type type,
             ArrayRef<Value> regs) const {
    return packTensor(b, loc, *this->getTypeConverter(), type, regs);
  }
};

struct MakeRangeToLLVM : public TXLPattern<MakeRangeOp> {
  using TXLPattern::TXLPattern;
  LogicalResult
  matchAndRewrite(MakeRangeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto map = txlgpu::getLayoutMap(op.getType());
    if (!map)
      return rewriter.notifyMatchFailure(op, "no layout");
    Location loc = op.getLoc();
    Value start = i32Const(rewriter, loc, op.getStart());
    SmallVector<Value> regs;
    for (auto &coord : allRegCoords(rewriter, loc, *map))
      regs.push_back(LLVM::AddOp::create(rewriter, loc, coord[0], start));
    rewriter.replaceOp(op, pack(rewriter, loc, op.getType(), regs));
    return success();
  }
};

struct SplatToLLVM : public TXLPattern<SplatOp> {
  using TXLPattern::TXLPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> regs(txlgpu::getNumRegs(type), adaptor.getSrc());
    rewriter.replaceOp(op, pack(rewriter, op.getLoc(), type, regs));
    return success();
  }
};

/// Shared by broadcast, expand_dims and extract_slice: rename registers.
template <typename Op>
struct RegisterRenaming : public TXLPattern<Op> {
  using TXLPattern<Op>::TXLPattern;
  using OpAdaptor = typename Op::Adaptor;
  virtual Coord project(Op op, const Coord &dst) const = 0;
  /// Where the result's coordinate 0 lies in the source (mapRegisters).
  virtual Coord origin(Op) const { return {}; }

  LogicalResult
  matchAndRewrite(Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcTy = cast<RankedTensorType>(op.getSrc().getType());
    auto dstTy = cast<RankedTensorType>(op.getType());
    auto src = txlgpu::getLayoutMap(srcTy);
    auto dst = txlgpu::getLayoutMap(dstTy);
    if (!src || !dst)
      return rewriter.notifyMatchFailure(op, "no layout");
    auto mapping = mapRegisters(
        *src, *dst, [&](const Coord &c) { return project(op, c); },
        origin(op));
    if (failed(mapping))
      return op.emitOpError("internal error: operand and result layouts "
                            "need a data exchange between threads");
    SmallVector<Value> srcRegs =
        unpackTensor(rewriter, op.getLoc(), adaptor.getSrc());
    SmallVector<Value> regs;
    for (int s : *mapping)
      regs.push_back(srcRegs[s]);
    rewriter.replaceOp(op, this->pack(rewriter, op.getLoc(), dstTy, regs));
    return success();
  }
};

struct BroadcastToLLVM : public RegisterRenaming<BroadcastOp> {
  using RegisterRenaming::RegisterRenaming;
  Coord project(BroadcastOp op, const Coord &dst) const override {
    auto srcShape = cast<RankedTensorType>(op.getSrc().getType()).getShape();
    Coord c = dst;
    for (size_t d = 0; d < c.size(); ++d)
      if (srcShape[d] == 1)
        c[d] = 0;
    return c;
  }
};

struct ExpandDimsToLLVM : public RegisterRenaming<ExpandDimsOp> {
  using RegisterRenaming::RegisterRenaming;
  Coord project(ExpandDimsOp op, const Coord &dst) const override {
    Coord c = dst;
    c.erase(c.begin() + op.getAxis());
    return c;
  }
};

/// A window whose elements each thread already holds (AssignLayouts saw
/// to that): registers renamed.
struct ExtractSliceToLLVM : public RegisterRenaming<ExtractSliceOp> {
  using RegisterRenaming::RegisterRenaming;
  Coord project(ExtractSliceOp, const Coord &dst) const override {
    return dst;
  }
  Coord origin(ExtractSliceOp op) const override {
    return Coord(op.getOffsets().begin(), op.getOffsets().end());
  }
};

struct AddPtrToLLVM : public TXLPattern<AddPtrOp> {
  using TXLPattern::TXLPattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrTy = cast<PointerType>(getElementTypeOrSelf(op.getType()));
    Type pointee = getTypeConverter()->convertType(ptrTy.getPointeeType());
    Type llPtr = getTypeConverter()->convertType(ptrTy);
    SmallVector<Value> ptrs = unpackTensor(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> offs = unpackTensor(rewriter, loc, adaptor.getOffset());
    SmallVector<Value> regs;
    for (auto [p, o] : llvm::zip(ptrs, offs))
      regs.push_back(LLVM::GEPOp::create(rewriter, loc, llPtr, pointee, p,
                                         ArrayRef<LLVM::GEPArg>{o}));
    if (!isa<RankedTensorType>(op.getType()))
      rewriter.replaceOp(op, regs[0]);
    else
      rewriter.replaceOp(op, pack(rewriter, loc, op.getType(), regs));
    return success();
  }
};

struct HintToLLVM : public TXLPattern<HintOp> {
  using TXLPattern::TXLPattern;
  LogicalResult
  matchAndRewrite(HintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// Casts that apply to each register independently.
template <typename Op, typename LLVMOp>
struct PerRegisterCast : public TXLPattern<Op> {
  using TXLPattern<Op>::TXLPattern;
  using OpAdaptor = typename Op::Adaptor;
  LogicalResult
  matchAndRewrite(Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = convertElementType(*this->getTypeConverter(), op.getType());
    SmallVector<Value> regs;
    for (Value v : unpackTensor(rewriter, loc, adaptor.getSrc()))
      regs.push_back(LLVMOp::create(rewriter, loc, elem, v));
    if (!isa<RankedTensorType>(op.getType()))
      rewriter.replaceOp(op, regs[0]);
    else
      rewriter.replaceOp(op, this->pack(rewriter, loc, op.getType(), regs));
    return success();
  }
};

/// program_id / num_programs: one special register per grid axis.
/// A program is a CTA, or with num_ctas > 1 a cluster of CTAs: then its
/// id and the grid's size come from the cluster registers.
template <typename Op, typename X, typename Y, typename Z, typename CX,
          typename CY, typename CZ>
struct GridRegisterToLLVM : public TXLPattern<Op> {
  using TXLPattern<Op>::TXLPattern;
  using OpAdaptor = typename Op::Adaptor;
  LogicalResult
  matchAndRewrite(Op op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Location loc = op.getLoc();
    bool cluster = clusterSizeOf(op) > 1;
    Value v;
    switch (op.getAxis()) {
    case 0:
      v = cluster ? CX::create(rewriter, loc, i32).getResult()
                  : X::create(rewriter, loc, i32).getResult();
      break;
    case 1:
      v = cluster ? CY::create(rewriter, loc, i32).getResult()
                  : Y::create(rewriter, loc, i32).getResult();
      break;
    default:
      v = cluster ? CZ::create(rewriter, loc, i32).getResult()
                  : Z::create(rewriter, loc, i32).getResult();
      break;
    }
    rewriter.replaceOp(op, v);
    return success();
  }
};

using ProgramIdToLLVM =
    GridRegisterToLLVM<ProgramIdOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp,
                       NVVM::BlockIdZOp, NVVM::ClusterIdXOp, NVVM::ClusterIdYOp,
                       NVVM::ClusterIdZOp>;
using NumProgramsToLLVM =
    GridRegisterToLLVM<NumProgramsOp, NVVM::GridDimXOp, NVVM::GridDimYOp,
                       NVVM::GridDimZOp, NVVM::ClusterDimXOp,
                       NVVM::ClusterDimYOp, NVVM::ClusterDimZOp>;

} // namespace

void mlir::txl::populateViewOpPatterns(TXLTypeConverter &tc,
                                       RewritePatternSet &patterns) {
  patterns.add<MakeRangeToLLVM, SplatToLLVM, BroadcastToLLVM,
               ExpandDimsToLLVM, ExtractSliceToLLVM, AddPtrToLLVM, HintToLLVM,
               PerRegisterCast<BitcastOp, LLVM::BitcastOp>,
               PerRegisterCast<IntToPtrOp, LLVM::IntToPtrOp>,
               PerRegisterCast<PtrToIntOp, LLVM::PtrToIntOp>>(tc);
}

void mlir::txl::populateSPMDOpPatterns(TXLTypeConverter &tc,
                                       RewritePatternSet &patterns) {
  patterns.add<ProgramIdToLLVM, NumProgramsToLLVM>(tc);
}
