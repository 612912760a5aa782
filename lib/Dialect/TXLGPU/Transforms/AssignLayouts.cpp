//===- AssignLayouts.cpp - txl tile IR -> txlgpu IR -----------------------===//
//
// Every tensor gets a layout encoding:
//  * each load/store gets its own coalesced blocked layout: `vec` contiguous
//    elements per thread along the most contiguous dimension, lanes then
//    warps along it first (vec from the axis analysis, at most 16 bytes);
//  * each rank has a default layout: that of its first load (else store,
//    else a plain one for the largest tensor of that rank);
//  * elementwise ops take the layout of their first operand that is not a
//    cheap index value (make_range/splat/constant), so a load's layout flows
//    to its users; reductions produce slice layouts; scans keep their
//    operand's layout (or take the default); expand_dims wants its
//    operand in the slice of its result's layout;
//  * a reshape's source is born in the preimage of the result's layout
//    (blockedPreimage) where one exists, so the reshape only renames
//    registers: `tl.reshape(tl.arange(0, 4096) % 64, (64, 64))` or a
//    broadcast [512, 8] of a [512] slice viewed as [64, 64] need no shared
//    scratch. The result takes the layout its users want (a claimed
//    access layout, a txl.relayout's) where that has a preimage;
//  * where an operand's layout differs from what its user needs, a
//    convert_layout is inserted (RemoveLayoutConversions later recomputes
//    cheap values in place instead).
//  * tl.dot gets a tensor-core accumulator layout and its operands the
//    matching register-operand layouts; a loop-carried accumulator starts
//    in that layout (so the loop never converts it), and `acc + dot(a, b)`
//    is folded into `dot(a, b, acc)` first.
//
//===----------------------------------------------------------------------===//
#include "txl/Analysis/AxisInfo.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"
#include "txl/Dialect/TXLGPU/IR/LayoutUtils.h"
#include "txl/Dialect/TXLGPU/IR/TCGen05.h"
#include "txl/Dialect/TXLGPU/Transforms/DescLoadTiles.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Layout/LayoutConstructors.h"
#include "txl/Support/TargetFeatures.h"

#include "mlir/IR/Builders.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_ASSIGNLAYOUTS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

RankedTensorType withEncoding(Type type, Attribute encoding) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}

Attribute encodingOf(Value v) {
  if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
    return tensor.getEncoding();
  return {};
}

/// The dimension a lane or warp basis steps along, by a power of two, or
/// -1 for a zero basis; -2 when it moves more than one dimension (no
/// blocked layout has such a basis).
int basisDim(const Coord &basis) {
  int dim = -1;
  for (auto [d, v] : llvm::enumerate(basis)) {
    if (v == 0)
      continue;
    if (dim != -1 || !llvm::isPowerOf2_64(uint64_t(v)))
      return -2;
    dim = int(d);
  }
  return dim;
}

/// The blocked layout of a reshape's source in which the reshape into
/// `dstType` (its layout included) moves no data: every thread already
/// holds, in some order, exactly the result elements the destination
/// layout gives it, so the lowering renames registers and the allocator
/// gives it no scratch (both decide with getRegisterRenaming, as here).
/// A reshape renumbers elements row-major, which for power-of-two shapes
/// is linear in the coordinate bits: the destination's lane and warp
/// bases, read back as source coordinates, are the preimage layout's.
/// When each steps one source dimension by a power of two, lanes and then
/// warps filling the dimensions in one order, that is a blocked layout:
/// a dimension's first lane (or warp) basis is its size per thread, its
/// lanes and warps counted, and a dimension neither steps is held whole
/// by each thread; a zero basis (a broadcast lane or warp: the tile wraps
/// past the dimension's size) counts with the dimension before it. Null
/// when there is none.
Attribute blockedPreimage(MLIRContext *ctx, RankedTensorType srcType,
                          RankedTensorType dstType) {
  ArrayRef<int64_t> shape = srcType.getShape();
  std::optional<LayoutMap> dst = getLayoutMap(dstType);
  if (!dst || shape.empty() || !::txl::isPowerOf2Shape(shape))
    return {};
  CoordMap toSrc = reshapeCoordMap(dstType.getShape(), shape);
  unsigned rank = shape.size();
  SmallVector<unsigned> spt(rank, 0), tpw(rank, 1), wpc(rank, 1), order;
  // Lanes, then warps: the first basis along a dimension steps it by the
  // product of the counts below (size per thread, and lanes for a warp).
  auto place = [&](const std::vector<Coord> &bases,
                   SmallVector<unsigned> &count, bool warps) {
    int current = order.empty() ? -1 : int(order.front());
    for (const Coord &basis : bases) {
      int d = basisDim(toSrc(basis));
      if (d == -2 || (d == -1 && current == -1))
        return false;
      if (d == -1) {
        count[current] *= 2;
        continue;
      }
      current = d;
      if (!llvm::is_contained(order, unsigned(d)))
        order.push_back(unsigned(d));
      int64_t step = toSrc(basis)[d];
      if (spt[d] == 0)
        spt[d] = unsigned(warps ? std::max<int64_t>(1, step / tpw[d]) : step);
      count[d] *= 2;
    }
    return true;
  };
  if (!place(dst->laneBases, tpw, false) || !place(dst->warpBases, wpc, true))
    return {};
  // A dimension no lane or warp steps is all in registers, the fastest.
  for (int d = 0; d < int(rank); ++d)
    if (!llvm::is_contained(order, unsigned(d))) {
      order.insert(order.begin(), unsigned(d));
      spt[d] = unsigned(shape[d]);
    }
  Attribute enc = BlockedEncodingAttr::get(ctx, spt, tpw, wpc, order);
  std::optional<LayoutMap> src =
      getLayoutMap(RankedTensorType::get(shape, srcType.getElementType(), enc));
  if (!src || !getRegisterRenaming(*src, *dst,
                                   reshapeCoordMap(shape, dstType.getShape())))
    return {};
  return enc;
}

bool isCheapIndexValue(Value v) {
  Operation *def = v.getDefiningOp();
  return def && isa<mlir::txl::MakeRangeOp, mlir::txl::SplatOp, arith::ConstantOp>(def);
}

class LayoutAssigner {
public:
  LayoutAssigner(ModuleOp module, unsigned numWarps, unsigned threadsPerWarp,
                 bool hasWgmma, bool hasTcgen05, unsigned threadsPerCTA)
      : module(module), ctx(module.getContext()), numWarps(numWarps),
        threadsPerWarp(threadsPerWarp), hasWgmma(hasWgmma),
        hasTcgen05(hasTcgen05), threadsPerCTA(threadsPerCTA), axis(module) {}

  void run() {
    foldDotAdds();
    chooseAccessLayouts();
    seedDotAccumulators();
    if (failed)
      return;
    seedAccessOperands();
    seedReducedCarries();
    seedReshapeSources();
    module.walk([&](func::FuncOp func) {
      for (Block &block : func.getBody())
        visitBlock(block);
    });
  }

private:
  ModuleOp module;
  MLIRContext *ctx;
  unsigned numWarps, threadsPerWarp;
  bool hasWgmma; ///< sm_90a: dots go to wgmma where their shape allows
  bool hasTcgen05; ///< sm_100a: dots go to tcgen05 where their shape allows
  unsigned threadsPerCTA;
  /// The plain dots that become tcgen05 MMAs.
  llvm::DenseSet<Operation *> tcgen05Dots;
  ::txl::AxisInfoAnalysis axis;
  llvm::DenseMap<Operation *, Attribute> accessLayout;
  llvm::DenseMap<unsigned, Attribute> rankDefault;
  /// Layouts values should be born in (loop-carried dot accumulators).
  llvm::DenseMap<Value, Attribute> preferred;
  /// Accumulator layouts of the txl-level dots on shared buffers.
  llvm::DenseMap<Operation *, Attribute> userDots;
  /// Results of txl.relayout: a tl.store of one writes from the pinned
  /// layout (its pointers and mask follow it) rather than moving the data
  /// to the store's coalesced layout through shared scratch. A wgmma
  /// accumulator stored this way needs no scratch at all.
  llvm::DenseSet<Value> pinnedValues;
  /// The layouts of reshape results whose sources are born in the layout
  /// the reshape turns into it (seedReshapeSources).
  llvm::DenseMap<Operation *, Attribute> reshapeLayout;

public:
  bool failed = false;

private:

  static bool isZeroSplat(Value v) {
    auto constant = v.getDefiningOp<arith::ConstantOp>();
    auto dense =
        constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
    return dense && dense.isSplat() &&
           isa<FloatType>(dense.getElementType()) &&
           dense.getSplatValue<APFloat>().isZero();
  }

  /// `x + dot(a, b, 0)` -> `dot(a, b, x)`: the tensor core accumulates for
  /// free, and a loop-carried `acc += tl.dot(a, b)` keeps one layout.
  void foldDotAdds() {
    module.walk([&](arith::AddFOp add) {
      for (unsigned i = 0; i < 2; ++i) {
        auto dot = add->getOperand(i).getDefiningOp<mlir::txl::DotOp>();
        if (!dot || !dot->hasOneUse() || !isZeroSplat(dot.getC()) ||
            add.getType() != dot.getType())
          continue;
        dot.getCMutable().assign(add->getOperand(1 - i));
        dot->moveAfter(add);
        add.replaceAllUsesWith(dot.getResult());
        add.erase();
        return;
      }
    });
  }

  /// The wgmma (nvmma v3) accumulator of a dot, or null where wgmma does
  /// not fit: warpgroups stack along M (64 rows each) as far as M allows,
  /// the rest split N; one instruction covers the warpgroup's columns (at
  /// most 256). Operand tiles must admit a swizzle of at least 32 bytes.
  /// On sm_100a a dot of M = 128 (or 64) rows whose operands fit tcgen05
  /// (16-bit or fp8, K a multiple of 32 bytes, N a multiple of 16 (8),
  /// rows of at least 32 bytes for the swizzled tiles) accumulates in
  /// tensor memory; its register layout is the message layout the
  /// accumulator is loaded in (32x32b; for 64 rows a 16-lane shape), which
  /// loop-carried accumulators are then born in.
  Attribute tcgen05Accumulator(mlir::txl::DotOp dot) {
    if (!hasTcgen05 || (numWarps != 4 && numWarps != 8))
      return {};
    ArrayRef<int64_t> shape = dot.getType().getShape();
    Type elem = dot.getA().getType().getElementType();
    if (!(elem.isF16() || elem.isBF16() ||
          isa<Float8E4M3FNType, Float8E5M2Type>(elem)) ||
        elem != dot.getB().getType().getElementType() ||
        !dot.getType().getElementType().isF32())
      return {};
    int64_t K = dot.getA().getType().getShape()[1];
    unsigned bits = elem.getIntOrFloatBitWidth();
    int64_t n = shape[1];
    // M = 64 (a [64, N] accumulator in lanes 0-15 of each warp's quarter)
    // takes N in steps of 8, M = 128 in steps of 16.
    int64_t nStep = shape[0] == 64 ? 8 : 16;
    if ((shape[0] != 128 && shape[0] != 64) || n % nStep ||
        (n > 256 && n % 256) || n > 512 || K % (256 / bits) ||
        ::txl::largestSwizzleBytes({shape[0], K}, bits, {1, 0}) < 32 ||
        ::txl::largestSwizzleBytes({K, n}, bits, {0, 1}) < 32)
      return {};
    if (shape[0] == 64) {
      std::optional<::txl::TMemMessage> msg = defaultTMemMessage(shape, 32);
      if (!msg)
        return {};
      tcgen05Dots.insert(dot);
      return getTMemMessageEncoding(ctx, *msg, numWarps, 32);
    }
    tcgen05Dots.insert(dot);
    unsigned groups = numWarps / 4;
    return BlockedEncodingAttr::get(ctx, {1, unsigned(n / groups)}, {32, 1},
                                    {4, groups}, {0, 1});
  }

  Attribute warpGroupAccumulator(mlir::txl::DotOp dot) {
    if (!hasWgmma || numWarps % 4)
      return {};
    ArrayRef<int64_t> shape = dot.getType().getShape();
    Type elem = dot.getA().getType().getElementType();
    int64_t K = dot.getA().getType().getShape()[1];
    unsigned bits = elem.getIntOrFloatBitWidth();
    if (::txl::largestSwizzleBytes({shape[0], K}, bits, {1, 0}) < 32 ||
        ::txl::largestSwizzleBytes({K, shape[1]}, bits, {0, 1}) < 32)
      return {};
    return warpGroupLayout(shape[0], shape[1], K, bits);
  }

  /// nvmma v3 for an [M, N] accumulator with K-deep operands of `bits`, or
  /// null when the shape does not split over the warpgroups.
  Attribute warpGroupLayout(int64_t M, int64_t N, int64_t K, unsigned bits) {
    int64_t kInstr = 256 / bits;
    unsigned groups = numWarps / 4;
    unsigned gm = 1;
    while (gm < groups && M % (64 * gm * 2) == 0)
      gm *= 2;
    unsigned gn = groups / gm;
    int64_t instrN = N / gn;
    if (M % (64 * gm) || N % gn || instrN % 8 || K % kInstr)
      return {};
    while (instrN > 256)
      instrN /= 2;
    return NvidiaMmaEncodingAttr::get(ctx, 3, {4 * gm, gn},
                                      {16, unsigned(instrN), unsigned(kInstr)});
  }

  /// The registers of a tensor-memory tile as tcgen05.ld/st move them
  /// (::txl::tmemMessageLayout): warp w (of a warpgroup) holds rows of the
  /// TMEM lanes 32*(w%4).. the hardware lets it reach; with 8 warps the
  /// second warpgroup the right half of the columns. The op's `message`
  /// names the shape; without one a [128, N] tile is read as 32x32b (a
  /// blocked layout, order [0, 1]: warps along the rows first, each thread
  /// a run of one row's columns) and a [64, N] tile (an M = 64
  /// accumulator, 16 lanes per warp) by the widest 16-lane shape that
  /// fits, so no message moves lanes the tile does not have.
  Attribute tensorMemoryLayout(Operation *op) {
    auto type = cast<RankedTensorType>(
        isa<TMemLoadOp>(op) ? op->getResult(0).getType()
                            : cast<TMemStoreOp>(op).getValue().getType());
    auto named = op->getAttrOfType<StringAttr>("message");
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    std::optional<::txl::TMemMessage> msg =
        named ? ::txl::parseTMemMessage(named.getValue())
              : defaultTMemMessage(type.getShape(), bits);
    std::string error = msg ? ::txl::tmemMessageLayoutError(
                                  *msg, type.getShape(), numWarps, bits)
                            : "no tcgen05.ld/st message shape fits";
    if (!error.empty()) {
      op->emitError("tensor memory ") << type.getShape() << ": " << error
                                      << " (num_warps = " << numWarps << ")";
      failed = true;
      return {};
    }
    if (*msg != ::txl::TMemMessage::M32x32b || type.getShape()[0] != 128)
      return getTMemMessageEncoding(ctx, *msg, numWarps, bits);
    unsigned groups = numWarps / 4;
    return BlockedEncodingAttr::get(ctx,
                                    {1, unsigned(type.getShape()[1] / groups)},
                                    {32, 1}, {4, groups}, {0, 1});
  }

  /// 32x32b for 128 rows; for 64 the widest 16-lane message of at most the
  /// columns each warpgroup holds.
  std::optional<::txl::TMemMessage> defaultTMemMessage(ArrayRef<int64_t> shape,
                                                       unsigned bits) {
    using ::txl::TMemMessage;
    if (shape.size() != 2 || shape[0] != 64)
      return TMemMessage::M32x32b;
    for (TMemMessage msg :
         {TMemMessage::M16x256b, TMemMessage::M16x128b, TMemMessage::M16x64b})
      if (::txl::tmemMessageLayoutError(msg, shape, numWarps, bits).empty())
        return msg;
    return std::nullopt;
  }

  /// The accumulator of a txl-level dot on shared buffers (a wgmma group
  /// the kernel waits for itself with txl.dot_wait).
  Attribute userDotLayout(WarpGroupDotOp dot) {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(dot.getType()).getShape();
    if (numWarps % 4) {
      dot.emitError("tl.dot on shared buffers needs whole warpgroups "
                    "(num_warps a multiple of 4)");
      return {};
    }
    Attribute acc =
        warpGroupLayout(shape[0], shape[1], dot.getAShape()[1],
                        dot.getAElementType().getIntOrFloatBitWidth());
    if (!acc)
      dot.emitError("tl.dot on shared buffers: an [")
          << shape[0] << ", " << shape[1] << "] accumulator does not split "
          << "into wgmma tiles over " << numWarps / 4 << " warpgroup(s)";
    return acc;
  }

  /// The accumulator layout `v` will have when it is a dot's result, or an
  /// elementwise function of one (scaled, converted, passed through
  /// txl.dot_wait), found before any layout is assigned; null otherwise.
  Attribute accumulatorSourceLayout(Value v) {
    for (unsigned depth = 0; depth < 16 && v; ++depth) {
      Operation *def = v.getDefiningOp();
      if (!def)
        return {};
      if (auto dot = dyn_cast<mlir::txl::DotOp>(def))
        return accumulatorLayout(dot);
      if (auto dot = dyn_cast<WarpGroupDotOp>(def)) {
        if (numWarps % 4)
          return {};
        ArrayRef<int64_t> shape =
            cast<RankedTensorType>(dot.getType()).getShape();
        return warpGroupLayout(shape[0], shape[1], dot.getAShape()[1],
                               dot.getAElementType().getIntOrFloatBitWidth());
      }
      if (auto wait = dyn_cast<WarpGroupDotWaitOp>(def)) {
        v = wait->getOperand(cast<OpResult>(v).getResultNumber());
        continue;
      }
      v = rescaledAccumulator(v);
    }
    return {};
  }

  /// The accumulator layout of a dot: wgmma where it fits, else mma.sync v2
  /// tiles (16 x 8 per warp), warps spread over M and N in proportion to the
  /// tile counts.
  /// A batched (rank-3) dot has mma.sync tiles, the batch being one more
  /// warp dim: as many warps as batches first (up to all of them), the rest
  /// over M and N as for a 2-D dot.
  Attribute accumulatorLayout(mlir::txl::DotOp dot) {
    ArrayRef<int64_t> shape = dot.getType().getShape();
    bool batched = shape.size() == 3;
    unsigned wb = batched ? batchWarps(shape[0]) : 1;
    if (dot.isFMA())
      return fmaAccumulator(shape.size(), wb);
    if (!batched) {
      if (Attribute tc = tcgen05Accumulator(dot))
        return tc;
      if (Attribute wg = warpGroupAccumulator(dot))
        return wg;
    }
    ArrayRef<int64_t> mn = shape.take_back(2);
    unsigned wm = 1, wn = 1;
    while (wb * wm * wn < numWarps) {
      bool mFits = mn[0] >= 16 * wm * 2, nFits = mn[1] >= 8 * wn * 2;
      if (mFits && (!nFits || mn[0] / (16 * wm) >= mn[1] / (8 * wn)))
        wm *= 2;
      else if (nFits)
        wn *= 2;
      else
        wm *= 2; // more warps than tiles: the extra ones hold copies
    }
    if (batched)
      return NvidiaMmaEncodingAttr::get(ctx, 2, {wb, wm, wn}, {1, 16, 8});
    return NvidiaMmaEncodingAttr::get(ctx, 2, {wm, wn}, {16, 8});
  }

  /// Warps along the batch dim of a batched dot: one per batch, at most
  /// all warps (both powers of two).
  unsigned batchWarps(int64_t batch) const {
    return unsigned(std::min<int64_t>(batch, numWarps));
  }

  /// The accumulator of an FMA dot: one element per thread and tile, a
  /// warp's 32 lanes as 4 x 8, warps stacked along M (after `wb` of them
  /// along a batch dim): a thread's elements share few rows and columns,
  /// whose operand elements it reads.
  Attribute fmaAccumulator(size_t rank, unsigned wb) {
    if (rank == 3)
      return BlockedEncodingAttr::get(ctx, {1, 1, 1}, {1, 4, 8},
                                      {wb, numWarps / wb, 1}, {2, 1, 0});
    return BlockedEncodingAttr::get(ctx, {1, 1}, {4, 8}, {numWarps, 1}, {1, 0});
  }

  static unsigned kWidthOf(Value operand) {
    Type elem = cast<RankedTensorType>(operand.getType()).getElementType();
    return 32 / std::max(8u, elem.getIntOrFloatBitWidth());
  }

  /// Loop-carried accumulators: the chain acc -> iter_arg -> init is born in
  /// the accumulator layout.
  /// Whether `store` writes the accumulator of a block-scaled MMA.
  static bool feedsScaledMMA(TMemStoreOp store) {
    return llvm::any_of(store.getDst().getUsers(), [&](Operation *user) {
      auto mma = dyn_cast<TCGen05MMAScaledOp>(user);
      return mma && mma.getD() == store.getDst();
    });
  }

  void seedDotAccumulators() {
    module.walk([&](Operation *op) {
      Attribute enc;
      Value v;
      if (auto dot = dyn_cast<mlir::txl::DotOp>(op)) {
        enc = accumulatorLayout(dot);
        v = dot.getC();
      } else if (auto dot = dyn_cast<WarpGroupDotOp>(op)) {
        enc = userDotLayout(dot);
        if (!enc) {
          failed = true;
          return;
        }
        userDots[dot] = enc;
        v = dot.getC();
      } else if (auto store = dyn_cast<TMemStoreOp>(op);
                 store && feedsScaledMMA(store)) {
        // tl.dot_scaled's accumulator (DotScaled.cpp) goes to tensor
        // memory: born in the message layout, a loop-carried one needs no
        // conversion per iteration (and PipelineTCGen05Dots can keep it
        // in tensor memory).
        enc = tensorMemoryLayout(store);
        if (!enc)
          return;
        v = store.getValue();
      } else {
        return;
      }
      while (v && !preferred.count(v)) {
        preferred[v] = enc;
        if (Value scaled = rescaledAccumulator(v)) {
          v = scaled;
          continue;
        }
        auto arg = dyn_cast<BlockArgument>(v);
        auto forOp =
            arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()) : nullptr;
        if (!forOp || arg.getArgNumber() == 0)
          break;
        v = forOp.getInitArgs()[arg.getArgNumber() - 1];
      }
    });
  }

  /// Loop-carried statistics of a dot's rows (an online softmax's running
  /// max and sum): a rank-1 iter_arg whose next value is computed
  /// elementwise from a reduction of a dot's result is born in that
  /// reduction's layout, a slice of the accumulator's. Otherwise it keeps
  /// the generic layout of its initial constant and every iteration moves
  /// it through shared memory (a conversion and a barrier) both ways.
  void seedReducedCarries() {
    module.walk([&](scf::ForOp loop) {
      for (auto [arg, next] :
           llvm::zip(loop.getRegionIterArgs(), loop.getYieldedValues())) {
        auto type = dyn_cast<RankedTensorType>(arg.getType());
        if (!type || type.getRank() != 1 || preferred.count(arg))
          continue;
        if (Attribute enc = reducedDotLayout(next, loop))
          preferBackwards(arg, enc);
      }
    });
  }

  /// Arithmetic and math ops computing one value element by element.
  static bool isElementwise(Operation *op) {
    if (!op->getDialect() || !isPure(op) || op->getNumResults() != 1)
      return false;
    StringRef dialect = op->getDialect()->getNamespace();
    return dialect == "arith" || dialect == "math";
  }

  /// Walks `root`'s producers inside `loop` through elementwise ops and
  /// scf.if results (both branches' yields) of the same rank; returns the
  /// first non-null `visit(op)` of a producer that is neither.
  Attribute findProducer(Value root, Operation *loop,
                         llvm::function_ref<Attribute(Operation *)> visit) {
    unsigned rank = cast<RankedTensorType>(root.getType()).getRank();
    SmallVector<Value> work{root};
    llvm::DenseSet<Value> seen;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || type.getRank() != rank || !seen.insert(v).second)
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || !loop->isAncestor(def))
        continue;
      if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
        unsigned i = cast<OpResult>(v).getResultNumber();
        work.push_back(ifOp.thenYield().getOperand(i));
        if (ifOp.elseBlock())
          work.push_back(ifOp.elseYield().getOperand(i));
        continue;
      }
      if (isElementwise(def)) {
        llvm::append_range(work, def->getOperands());
        continue;
      }
      if (Attribute found = visit(def))
        return found;
    }
    return {};
  }

  /// The slice of a wgmma or mma accumulator layout a reduction among
  /// `v`'s producers inside `loop` gets, or null.
  Attribute reducedDotLayout(Value v, scf::ForOp loop) {
    return findProducer(v, loop, [&](Operation *op) -> Attribute {
      auto reduce = dyn_cast<mlir::txl::ReduceOp>(op);
      if (!reduce || reduce->getNumOperands() != 1)
        return {};
      Attribute acc =
          findProducer(reduce->getOperand(0), loop,
                       [&](Operation *def) { return dotResultLayout(def); });
      if (!isa_and_nonnull<NvidiaMmaEncodingAttr>(acc))
        return {};
      return SliceEncodingAttr::get(ctx, reduce.getAxis(), acc);
    });
  }

  /// The accumulator layout of a dot (or of the wait that retires it).
  Attribute dotResultLayout(Operation *op) {
    if (auto wait = dyn_cast<WarpGroupDotWaitOp>(op))
      for (Value in : wait.getInputs())
        if (auto dot = in.getDefiningOp<WarpGroupDotOp>())
          return userDots.lookup(dot);
    if (auto dot = dyn_cast<WarpGroupDotOp>(op))
      return userDots.lookup(dot);
    if (auto dot = dyn_cast<mlir::txl::DotOp>(op))
      return preferred.lookup(dot.getC());
    return {};
  }

  /// The accumulator `v` is computed from, when `v` is an elementwise
  /// rescale of it (`acc * alpha[:, None]` in an online softmax): the one
  /// operand of `v`'s type that is not a broadcast, splat or constant. The
  /// rescaled accumulator is then born in the dot's layout too.
  static Value rescaledAccumulator(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || !def->getDialect() ||
        def->getDialect()->getNamespace() != "arith" || !isPure(def) ||
        def->getNumResults() != 1)
      return {};
    Value source;
    for (Value operand : def->getOperands()) {
      if (operand.getType() != v.getType())
        continue;
      Operation *opDef = operand.getDefiningOp();
      if (opDef &&
          isa<mlir::txl::BroadcastOp, mlir::txl::SplatOp, arith::ConstantOp>(
              opDef))
        continue;
      if (source)
        return {}; // two candidates: not a rescale
      source = operand;
    }
    return source;
  }

  /// Pointer and mask computations are born in the layout of the access
  /// that consumes them, so a load or store needs no conversion of its
  /// (wide) pointers: the chain is walked backwards through index arithmetic
  /// and loop-carried values. The first access to claim a value wins.
  void seedAccessOperands() {
    module.walk([&](Operation *op) {
      auto it = accessLayout.find(op);
      if (it == accessLayout.end())
        return;
      Attribute enc = it->second;
      auto seed = [&](Value v) {
        if (v && isa<RankedTensorType>(v.getType()))
          preferBackwards(v, enc);
      };
      if (auto load = dyn_cast<mlir::txl::LoadOp>(op)) {
        seed(load.getPtr());
        seed(load.getMask());
      } else if (auto store = dyn_cast<mlir::txl::StoreOp>(op)) {
        seed(store.getPtr());
        seed(store.getMask());
      } else if (auto rmw = dyn_cast<mlir::txl::AtomicRMWOp>(op)) {
        seed(rmw.getPtr());
        seed(rmw.getMask());
      } else if (auto cas = dyn_cast<mlir::txl::AtomicCASOp>(op)) {
        seed(cas.getPtr());
      } else if (auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op)) {
        seed(copy.getPtr());
        seed(copy.getMask());
      }
    });
  }

  /// The layouts a reshape's result is wanted in, best first: the one its
  /// users claimed (an access's pointers or mask, seeded backwards), the
  /// one a txl.relayout of it pins, its rank's default.
  SmallVector<Attribute> wantedReshapeLayouts(mlir::txl::ReshapeOp reshape) {
    SmallVector<Attribute> wanted;
    Attribute claimed = preferred.lookup(reshape.getResult());
    if (isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr>(claimed))
      wanted.push_back(claimed);
    for (Operation *user : reshape->getUsers())
      if (isa<ConvertLayoutOp>(user))
        if (Attribute pinned = user->getAttr(TXLGPUDialect::kPinnedLayoutAttr))
          wanted.push_back(pinned);
    wanted.push_back(defaultFor(reshape.getType()));
    return wanted;
  }

  /// A reshape moves no data when its source is in the preimage of its
  /// result's layout (blockedPreimage): the first wanted result layout
  /// that has one is the result's, and the source's producers (index
  /// arithmetic, ranges, broadcasts of slices) are born in the preimage.
  /// Without one the reshape keeps the default and moves its data through
  /// shared scratch. Last in, first seeded: a reshape of a reshape's
  /// result has chosen the layout its source is wanted in.
  void seedReshapeSources() {
    SmallVector<mlir::txl::ReshapeOp> reshapes;
    module.walk([&](mlir::txl::ReshapeOp r) { reshapes.push_back(r); });
    for (mlir::txl::ReshapeOp reshape : llvm::reverse(reshapes)) {
      auto srcType = cast<RankedTensorType>(reshape.getSrc().getType());
      for (Attribute want : wantedReshapeLayouts(reshape)) {
        Attribute pre = blockedPreimage(ctx, srcType,
                                        withEncoding(reshape.getType(), want));
        if (!pre)
          continue;
        reshapeLayout[reshape] = want;
        preferBackwards(reshape.getSrc(), pre);
        break;
      }
    }
  }

  /// Index arithmetic whose operands may simply share its result's layout.
  static bool isLayoutTransparent(Operation *op) {
    if (isa<mlir::txl::AddPtrOp, mlir::txl::SplatOp, mlir::txl::BroadcastOp,
            mlir::txl::HintOp, mlir::txl::MakeRangeOp, arith::ConstantOp>(op))
      return true;
    return op->getDialect() &&
           op->getDialect()->getNamespace() == "arith" && isPure(op) &&
           op->getNumResults() == 1;
  }

  void preferBackwards(Value root, Attribute rootEnc) {
    SmallVector<std::pair<Value, Attribute>> work{{root, rootEnc}};
    while (!work.empty()) {
      auto [v, enc] = work.pop_back_val();
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || preferred.count(v))
        continue;
      preferred[v] = enc;
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
        if (!forOp || arg.getArgNumber() == 0)
          continue;
        unsigned i = arg.getArgNumber() - 1;
        work.push_back({forOp.getInitArgs()[i], enc});
        work.push_back({forOp.getYieldedValues()[i], enc});
        continue;
      }
      Operation *def = v.getDefiningOp();
      if (auto expand = dyn_cast_or_null<mlir::txl::ExpandDimsOp>(def)) {
        if (isa<BlockedEncodingAttr>(enc))
          work.push_back({expand.getSrc(),
                          SliceEncodingAttr::get(ctx, expand.getAxis(), enc)});
        continue;
      }
      if (!def || !isLayoutTransparent(def))
        continue;
      for (Value operand : def->getOperands())
        if (auto t = dyn_cast<RankedTensorType>(operand.getType()))
          if (t.getRank() == type.getRank())
            work.push_back({operand, enc});
    }
  }

  /// The order of an operand's shared tile: K-major, except that a 16-bit
  /// operand loaded with its M or N dimension contiguous in memory (B from
  /// a row-major [K, N] tensor, A from A^T) stays MN-major, which wgmma
  /// reads with its transpose bit: the copy into shared memory then keeps
  /// the loads' vectors instead of scattering single elements.
  SmallVector<unsigned> sharedOrder(Value operand, unsigned kDim) {
    SmallVector<unsigned> kMajor = {kDim, 1 - kDim};
    auto type = cast<RankedTensorType>(operand.getType());
    // A tile prefetched by PrefetchLoopLoads arrives as a loop-carried
    // value; its first load (before the loop) has the same addresses.
    if (auto arg = dyn_cast<BlockArgument>(operand))
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
        if (OpOperand *init = loop.getTiedLoopInit(arg))
          operand = init->get();
    auto load = operand.getDefiningOp<mlir::txl::LoadOp>();
    if (!load || type.getElementType().getIntOrFloatBitWidth() != 16)
      return kMajor;
    SmallVector<unsigned> order = axis.getOrder(load.getPtr());
    if (order.empty() || order[0] == kDim ||
        axis.getPtrContiguity(load.getPtr(), order[0]) < 2)
      return kMajor;
    return {1 - kDim, kDim};
  }

  /// wgmma reads both operands from shared memory: each is written there
  /// K-major (or MN-major, see sharedOrder) with the widest swizzle its rows
  /// allow, the async MMA is issued, and its result is waited for right away
  /// (pipelining passes may later move the wait). A tile of `v` in the widest
  /// swizzle its rows allow (wgmma/tcgen05).
  Value toShared(OpBuilder &b, Location loc, Value v,
                 SmallVector<unsigned> order) {
    auto type = cast<RankedTensorType>(v.getType());
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    unsigned swizzle = ::txl::largestSwizzleBytes(type.getShape(), bits, order);
    auto enc = NVMMASharedEncodingAttr::get(ctx, swizzle, bits, order);
    auto tile =
        MemDescType::get(ctx, type.getShape(), type.getElementType(), enc);
    return LocalAllocOp::create(b, loc, tile, v);
  }

  /// A plain dot on sm_100a: A and B go to swizzled shared tiles, the
  /// accumulator to a tensor-memory buffer of its own (allocated at the
  /// kernel's entry with the barrier the MMA commits to); one thread
  /// issues the MMAs (useD false when the accumulator is zero, else the
  /// accumulator is stored to TMEM first), every thread waits for the
  /// commit (kSyncCommitAttr) and reads the result back.
  void visitTCGen05Dot(mlir::txl::DotOp dot, Attribute acc) {
    Location loc = dot.getLoc();
    auto func = dot->getParentOfType<func::FuncOp>();
    OpBuilder entry(&func.front(), func.front().begin());
    auto type = cast<RankedTensorType>(dot.getType());
    Attribute tmemEnc = TensorMemoryEncodingAttr::get(ctx);
    Type f32 = type.getElementType();
    auto stages = TMemAllocOp::create(
        entry, loc,
        MemDescType::get(ctx, {1, type.getShape()[0], type.getShape()[1]}, f32,
                         tmemEnc),
        IntegerAttr(), IntegerAttr());
    Value zero = arith::ConstantIntOp::create(entry, loc, 0, 32);
    Value d = MemDescIndexOp::create(
        entry, loc, MemDescType::get(ctx, type.getShape(), f32, tmemEnc),
        stages, zero);
    Attribute barEnc = BarrierEncodingAttr::get(ctx);
    Type i64 = entry.getI64Type();
    auto bars = MBarAllocOp::create(
        entry, loc, MemDescType::get(ctx, {1}, i64, barEnc), threadsPerCTA + 1);
    Value bar = MemDescIndexOp::create(
        entry, loc, MemDescType::get(ctx, {1}, i64, barEnc), bars, zero);

    OpBuilder b(dot);
    // The accumulator's stores come first: the CTA barrier that the
    // operand tiles' writes end with orders every thread's tcgen05.st
    // before the MMA the elected thread issues.
    bool fromZero = isZeroSplat(dot.getC());
    if (!fromZero) {
      require(dot, dot.getCMutable(), acc);
      TMemStoreOp::create(b, loc, d, dot.getC());
    }
    Value a = toShared(b, loc, dot.getA(), sharedOrder(dot.getA(), 1));
    Value bTile = toShared(b, loc, dot.getB(), sharedOrder(dot.getB(), 0));
    Value useD = arith::ConstantIntOp::create(b, loc, !fromZero, 1);
    auto mma = TCGen05MMAOp::create(b, loc, a, bTile, d, useD, Value(),
                                    ValueRange{bar}, ValueRange{},
                                    b.getI32IntegerAttr(0));
    mma->setAttr(kSyncCommitAttr, b.getUnitAttr());
    auto load = TMemLoadOp::create(
        b, loc, RankedTensorType::get(type.getShape(), f32, acc), d);
    dot.getResult().replaceAllUsesWith(load.getResult());
    dot.erase();
  }

  /// Elements of A per 32-bit register of wgmma's A fragment.
  static unsigned registerAKWidth(Value a) {
    auto type = cast<RankedTensorType>(a.getType());
    return 32 / type.getElementType().getIntOrFloatBitWidth();
  }

  /// Whether wgmma takes A from registers: a 16-bit tensor computed in a
  /// wgmma accumulator layout of the same warps (softmax(S) cast to
  /// fp16 in attention). Each thread then already holds its elements of
  /// A's register fragment (kWidth 2: the accumulator's pairs of columns),
  /// so the operand is renamed registers, not a round trip through
  /// shared memory.
  static bool isRegisterA(Value a, Attribute acc) {
    auto from = dyn_cast_or_null<NvidiaMmaEncodingAttr>(encodingOf(a));
    auto to = cast<NvidiaMmaEncodingAttr>(acc);
    auto type = cast<RankedTensorType>(a.getType());
    return from && from.getVersion() == 3 &&
           from.getWarpsPerCTA() == to.getWarpsPerCTA() &&
           type.getElementType().isIntOrFloat() &&
           type.getElementType().getIntOrFloatBitWidth() == 16;
  }

  void visitWarpGroupDot(mlir::txl::DotOp dot, Attribute acc) {
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    auto toShared = [&](Value v, unsigned kDim) -> Value {
      // A desc.load's tile is in shared memory already (DescLoadTiles.h).
      if (Value tile = tileForWarpGroupDot(b, v, kDim, dot))
        return tile;
      SmallVector<unsigned> order = sharedOrder(v, kDim);
      auto type = cast<RankedTensorType>(v.getType());
      unsigned bits = type.getElementType().getIntOrFloatBitWidth();
      unsigned swizzle =
          ::txl::largestSwizzleBytes(type.getShape(), bits, order);
      auto enc = NVMMASharedEncodingAttr::get(ctx, swizzle, bits, order);
      auto tile = MemDescType::get(ctx, type.getShape(),
                                   type.getElementType(), enc);
      return LocalAllocOp::create(b, loc, tile, v);
    };
    Value a;
    if (isRegisterA(dot.getA(), acc)) {
      require(dot, dot.getAMutable(),
              DotOperandEncodingAttr::get(ctx, 0, acc, /*kWidth=*/2));
      a = dot.getA();
    } else {
      a = toShared(dot.getA(), /*kDim=*/1);
    }
    Value bTile = toShared(dot.getB(), /*kDim=*/0);
    require(dot, dot.getCMutable(), acc);
    Value c = dot.getC();
    auto mma = WarpGroupDotOp::create(b, loc, c.getType(), a, bTile, c);
    Value d = mma.getResult();
    auto wait = WarpGroupDotWaitOp::create(b, loc, TypeRange(d.getType()),
                                           ValueRange(d),
                                           b.getI32IntegerAttr(0));
    dot.getResult().replaceAllUsesWith(wait.getResult(0));
    dot.erase();
  }

  /// txl.acc_to_dot_a: the source stays in the wgmma accumulator layout it
  /// was computed in (softmax(S) in attention), where each thread already
  /// holds its A elements; the result is that layout's A operand. A source
  /// computed elsewhere, or with warps along N (whose A would be copies),
  /// is first moved into an accumulator layout of warps along M.
  void visitAccToDotA(AccToDotAOp view) {
    auto type = view.getSrc().getType();
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    auto mma =
        dyn_cast_or_null<NvidiaMmaEncodingAttr>(encodingOf(view.getSrc()));
    if (!mma || mma.getVersion() != 3 || mma.getWarpsPerCTA().size() != 2 ||
        mma.getWarpsPerCTA()[1] != 1) {
      unsigned n = unsigned(std::min<int64_t>(256, type.getDimSize(1)));
      mma = NvidiaMmaEncodingAttr::get(ctx, 3, {numWarps, 1},
                                       {16, n, 256 / bits});
      require(view, view.getSrcMutable(), mma);
    }
    setResultEncodings(view,
                       DotOperandEncodingAttr::get(ctx, 0, mma, 32 / bits));
  }

  void visitDot(mlir::txl::DotOp dot) {
    Attribute acc = accumulatorLayout(dot);
    if (dot.isFMA()) {
      // The operands are read through shared scratch: any layout will do.
      for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()})
        if (!encodingOf(operand->get()))
          require(dot, *operand, defaultFor(dot.getType().getRank()));
      require(dot, dot.getCMutable(), acc);
      return setResultEncodings(dot, acc);
    }
    if (tcgen05Dots.contains(dot))
      return visitTCGen05Dot(dot, acc);
    if (cast<NvidiaMmaEncodingAttr>(acc).getVersion() == 3)
      return visitWarpGroupDot(dot, acc);
    widenFp8Operands(dot);
    require(dot, dot.getAMutable(),
            DotOperandEncodingAttr::get(ctx, 0, acc, kWidthOf(dot.getA())));
    require(dot, dot.getBMutable(),
            DotOperandEncodingAttr::get(ctx, 1, acc, kWidthOf(dot.getB())));
    require(dot, dot.getCMutable(), acc);
    setResultEncodings(dot, acc);
  }

  /// txl's mma.sync lowering has no fp8 form, so fp8 operands of a dot
  /// that goes to mma.sync (sm_80, or M or N too small for wgmma) are
  /// widened to fp16 in their own layout first. The widening is exact:
  /// every e4m3 and e5m2 value is an fp16 value.
  void widenFp8Operands(mlir::txl::DotOp dot) {
    for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()}) {
      auto type = cast<RankedTensorType>(operand->get().getType());
      if (!isa<Float8E4M3FNType, Float8E5M2Type>(type.getElementType()))
        continue;
      OpBuilder b(dot);
      auto wide = RankedTensorType::get(type.getShape(), b.getF16Type(),
                                        type.getEncoding());
      operand->set(b.create<arith::ExtFOp>(dot.getLoc(), wide, operand->get()));
    }
  }

  /// The coalesced layout of one memory access, recorded with its width.
  Attribute accessLayoutFor(Operation *op, Value ptr, Value mask) {
    auto type = cast<RankedTensorType>(ptr.getType());
    auto ptrTy = cast<mlir::txl::PointerType>(type.getElementType());
    unsigned elemBits = ptrTy.getPointeeType().isIntOrFloat()
                            ? std::max(8u, ptrTy.getPointeeType().getIntOrFloatBitWidth())
                            : 64;
    SmallVector<unsigned> order = axis.getOrder(ptr);
    unsigned vec = axis.getPtrContiguity(ptr, order[0]);
    if (mask)
      vec = std::min(vec, axis.getMaskAlignment(mask, order[0]));
    // An async_load's contiguity=N is the programmer's promise (the TXL
    // project's semantics): it replaces what the analysis proves.
    auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op);
    if (copy && copy.getContiguity())
      vec = unsigned(*copy.getContiguity());
    vec = std::max(1u, std::min(vec, 128 / elemBits));
    op->setAttr(TXLGPUDialect::kVecAttr,
                IntegerAttr::get(IntegerType::get(ctx, 32), vec));
    return getBlockedLayout(ctx, type.getShape(), vec, order, numWarps,
                            threadsPerWarp);
  }

  /// cp.async moves 4, 8 or 16 bytes per copy; the axis analysis must
  /// prove that many contiguous, aligned, uniformly masked bytes.
  void checkAsyncCopyWidth(AsyncCopyGlobalToLocalOp copy) {
    unsigned bits =
        copy.getDst().getType().getElementType().getIntOrFloatBitWidth();
    int64_t vec =
        copy->getAttrOfType<IntegerAttr>(TXLGPUDialect::kVecAttr).getInt();
    if (vec * bits >= 32)
      return;
    copy.emitError("txl.async_load: cp.async copies at least 4 contiguous "
                   "bytes per thread, but only ")
        << vec * bits / 8
        << " byte(s) of these pointers are known to be contiguous, aligned "
           "and equally masked (make the inner dimension contiguous and its "
           "sizes and strides multiples of 16, or use tl.load + "
           "txl.smem_store)";
    failed = true;
  }

  void chooseAccessLayouts() {
    llvm::DenseMap<unsigned, Attribute> firstStore;
    llvm::DenseMap<unsigned, RankedTensorType> largest;
    module.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        if (auto tensor = dyn_cast<RankedTensorType>(t)) {
          auto &big = largest[tensor.getRank()];
          if (!big || tensor.getNumElements() > big.getNumElements())
            big = tensor;
        }
      Attribute layout;
      unsigned rank = 0;
      if (auto load = dyn_cast<mlir::txl::LoadOp>(op)) {
        if (!isa<RankedTensorType>(load.getPtr().getType()))
          return;
        layout = accessLayoutFor(op, load.getPtr(), load.getMask());
        rank = cast<RankedTensorType>(load.getPtr().getType()).getRank();
        rankDefault.try_emplace(rank, layout);
      } else if (auto store = dyn_cast<mlir::txl::StoreOp>(op)) {
        if (!isa<RankedTensorType>(store.getPtr().getType()))
          return;
        layout = accessLayoutFor(op, store.getPtr(), store.getMask());
        rank = cast<RankedTensorType>(store.getPtr().getType()).getRank();
        firstStore.try_emplace(rank, layout);
      } else if (isa<mlir::txl::AtomicRMWOp, mlir::txl::AtomicCASOp>(op)) {
        Value ptr = op->getOperand(0);
        auto type = dyn_cast<RankedTensorType>(ptr.getType());
        if (!type)
          return;
        // One atom per element (no vector form), so any layout issues the
        // same number of them with every 32-byte sector fully used. A
        // tensor-core result (dQ += dS K in an attention backward) is added
        // where it lies: moving it to a coalesced layout would cost a trip
        // through shared memory per call. Otherwise: the coalesced layout
        // of a width-1 access.
        auto rmw = dyn_cast<mlir::txl::AtomicRMWOp>(op);
        layout = rmw ? accumulatorSourceLayout(rmw.getVal()) : Attribute();
        // There, the contiguous run the axis analysis proves (along the
        // last dimension, the accumulator's fastest) may become one
        // vector `red` (sm_90: red.v2/v4.f32) where the layout keeps
        // elements together.
        if (layout) {
          SmallVector<unsigned> order = axis.getOrder(ptr);
          accessLayoutFor(op, ptr, rmw.getMask());
          if (order.empty() || order[0] != type.getRank() - 1)
            op->removeAttr(TXLGPUDialect::kVecAttr);
        }
        if (!layout)
          layout = getBlockedLayout(ctx, type.getShape(), 1, axis.getOrder(ptr),
                                    numWarps, threadsPerWarp);
      } else if (auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op)) {
        layout = accessLayoutFor(op, copy.getPtr(), copy.getMask());
        rankDefault.try_emplace(
            cast<RankedTensorType>(copy.getPtr().getType()).getRank(), layout);
        checkAsyncCopyWidth(copy);
      } else {
        return;
      }
      accessLayout[op] = layout;
    });
    for (auto [rank, layout] : firstStore)
      rankDefault.try_emplace(rank, layout);
    for (auto [rank, type] : largest)
      rankDefault.try_emplace(rank, fittedLayout(type.getShape()));
  }

  Attribute defaultFor(unsigned rank) {
    auto it = rankDefault.find(rank);
    if (it != rankDefault.end())
      return it->second;
    return rankDefault[rank] = fittedLayout(SmallVector<int64_t>(rank, 1));
  }

  /// A blocked layout fitted to `shape` (lanes, then warps, along the
  /// fastest dimensions first).
  Attribute fittedLayout(ArrayRef<int64_t> shape) {
    SmallVector<unsigned> order;
    for (int d = shape.size() - 1; d >= 0; --d)
      order.push_back(d);
    return getBlockedLayout(ctx, shape, 1, order, numWarps, threadsPerWarp);
  }

  /// Whether `enc`'s CTA tile overshoots `type`'s shape so far that each
  /// thread would hold many copies of the tensor in many registers. (An
  /// e2m1 unpack's [64, 64, 2] under a rank-3 layout fitted to
  /// [4, 32, 128] puts all 128 threads along the dimension of 2: 8192
  /// registers per thread, minutes in ptxas.) A row that a later broadcast
  /// fills ([1, 128] in a layout of 16-row tiles: 16 registers) is cheap
  /// however replicated, hence the floor.
  bool overReplicates(RankedTensorType type, Attribute enc) {
    constexpr int kMaxReplication = 8, kCheapRegs = 64;
    int regs = getNumRegs(withEncoding(type, enc));
    if (regs <= kCheapRegs)
      return false;
    int fittedRegs =
        getNumRegs(withEncoding(type, fittedLayout(type.getShape())));
    return regs > kMaxReplication * std::max(fittedRegs, 1);
  }

  /// The default layout for a tensor of this type: its rank's, unless
  /// that over-replicates it; then one fitted to its shape, at the cost of
  /// a conversion where it meets tensors in the rank's default.
  Attribute defaultFor(RankedTensorType type) {
    Attribute rankLayout = defaultFor(type.getRank());
    return overReplicates(type, rankLayout) ? fittedLayout(type.getShape())
                                            : rankLayout;
  }

  /// Makes `operand` of `op` carry `encoding`, converting if needed.
  void require(Operation *op, OpOperand &operand, Attribute encoding) {
    Value v = operand.get();
    if (!isa<RankedTensorType>(v.getType()) || encodingOf(v) == encoding)
      return;
    OpBuilder b(op);
    auto convert = ConvertLayoutOp::create(
        b, op->getLoc(), withEncoding(v.getType(), encoding), v);
    operand.set(convert);
  }

  void setResultEncodings(Operation *op, Attribute encoding) {
    for (OpResult r : op->getResults())
      if (isa<RankedTensorType>(r.getType()))
        r.setType(withEncoding(r.getType(), encoding));
  }

  void visitBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block))
      visit(&op);
  }

  void visit(Operation *op) {
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return visitFor(forOp);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return visitIf(ifOp);
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return visitWhile(whileOp);
    if (auto reduce = dyn_cast<mlir::txl::ReduceOp>(op))
      return visitReduce(reduce);
    if (auto scan = dyn_cast<mlir::txl::ScanOp>(op))
      return visitScan(scan);
    if (auto hist = dyn_cast<mlir::txl::HistogramOp>(op)) {
      // Any layout in, the default one out (the counts go through shared
      // memory); the mask rides with the input.
      if (hist.getMask())
        require(op, hist.getMaskMutable()[0], encodingOf(hist.getSrc()));
      return setResultEncodings(op, defaultFor(1));
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      return visitConstant(constant);
    if (auto dot = dyn_cast<mlir::txl::DotOp>(op))
      return visitDot(dot);
    if (auto dot = dyn_cast<WarpGroupDotOp>(op)) {
      Attribute acc = userDots.lookup(dot);
      require(dot, dot.getCMutable(), acc);
      // A from registers: each thread holds wgmma's A fragment (two 16-bit
      // or four 8-bit elements per register).
      if (dot.hasRegisterA())
        require(dot, dot.getAMutable(),
                DotOperandEncodingAttr::get(ctx, 0, acc,
                                            registerAKWidth(dot.getA())));
      return setResultEncodings(dot, acc);
    }
    if (auto view = dyn_cast<AccToDotAOp>(op))
      return visitAccToDotA(view);
    if (auto wait = dyn_cast<WarpGroupDotWaitOp>(op)) {
      // The accumulators pass through in the layout they were made in.
      for (auto [in, out] : llvm::zip(wait.getInputs(), wait.getOutputs()))
        out.setType(in.getType());
      return;
    }
    if (isa<scf::YieldOp, scf::ConditionOp>(op))
      return; // handled by the parent
    // Tensor memory is read and written in a tcgen05.ld/st message layout.
    if (isa<TMemLoadOp, TMemStoreOp>(op)) {
      Attribute enc = tensorMemoryLayout(op);
      if (!enc)
        return;
      if (auto store = dyn_cast<TMemStoreOp>(op))
        return require(op, store.getValueMutable(), enc);
      return setResultEncodings(op, enc);
    }
    // txl.relayout / frag_smem_load / frag_smem_store: the user chose the
    // layout of the result, or of the stored value.
    if (Attribute pinned = op->getAttr(TXLGPUDialect::kPinnedLayoutAttr)) {
      op->removeAttr(TXLGPUDialect::kPinnedLayoutAttr);
      if (auto store = dyn_cast<SmemStoreOp>(op))
        return require(op, store.getValueMutable(), pinned);
      if (isa<ConvertLayoutOp, SmemLoadOp>(op)) {
        pinnedValues.insert(op->getResult(0));
        return setResultEncodings(op, pinned);
      }
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        visitBlock(block);
    visitGeneric(op);
  }

  void visitGeneric(Operation *op) {
    bool hasTensor =
        llvm::any_of(op->getOperandTypes(), llvm::IsaPred<RankedTensorType>) ||
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
    if (!hasTensor)
      return;
    if (auto expand = dyn_cast<mlir::txl::ExpandDimsOp>(op)) {
      auto it = preferred.find(expand.getResult());
      Attribute enc =
          it != preferred.end() && isa<BlockedEncodingAttr>(it->second)
              ? it->second
              : defaultFor(expand.getType());
      // A row of an accumulator (alpha[:, None] in an online softmax)
      // expands back into the accumulator's layout, in registers.
      auto slice =
          dyn_cast_or_null<SliceEncodingAttr>(encodingOf(expand.getSrc()));
      if (it == preferred.end() && slice &&
          slice.getDim() == expand.getAxis() &&
          isAccumulatorLayout(slice.getParent()))
        enc = slice.getParent();
      require(op, op->getOpOperand(0),
              SliceEncodingAttr::get(ctx, expand.getAxis(), enc));
      return setResultEncodings(op, enc);
    }
    if (isa<mlir::txl::ReshapeOp, mlir::txl::TransOp>(op)) {
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      Attribute enc = reshapeLayout.lookup(op);
      return setResultEncodings(op, enc ? enc : defaultFor(type));
    }
    if (auto slice = dyn_cast<mlir::txl::ExtractSliceOp>(op))
      return visitWindow(slice);
    if (auto gather = dyn_cast<mlir::txl::GatherOp>(op))
      return visitGather(gather);
    Attribute enc = chooseEncoding(op);
    for (OpOperand &operand : op->getOpOperands())
      require(op, operand, enc);
    setResultEncodings(op, enc);
  }

  /// A window keeps its source's layout, so that a window along a
  /// dimension held in registers is a choice of registers. A wgmma
  /// accumulator's instruction width is clipped to the window's columns
  /// (the narrower instruction's layout is the wider one's first columns).
  Attribute windowEncoding(mlir::txl::ExtractSliceOp slice) {
    Attribute enc = encodingOf(slice.getSrc());
    auto type = cast<RankedTensorType>(slice.getType());
    if (!enc)
      return defaultFor(type.getRank());
    auto mma = dyn_cast<NvidiaMmaEncodingAttr>(enc);
    if (!mma || mma.getVersion() != 3 || type.getRank() != 2 ||
        mma.getInstrShape().size() < 2 ||
        mma.getInstrShape()[1] <= type.getShape()[1])
      return enc;
    SmallVector<unsigned> instr(mma.getInstrShape());
    instr[1] = std::max<unsigned>(8, unsigned(type.getShape()[1]));
    return NvidiaMmaEncodingAttr::get(ctx, 3, mma.getWarpsPerCTA(), instr);
  }

  /// Whether each thread holds its elements of the window in `enc`
  /// already: the window's lanes and warps map to the same coordinates as
  /// the source's (the slice's lowering then only picks registers).
  bool windowInRegisters(mlir::txl::ExtractSliceOp slice, Attribute src,
                         Attribute dst) {
    auto srcMap = getLayoutMap(withEncoding(slice.getSrc().getType(), src));
    auto dstMap = getLayoutMap(withEncoding(slice.getType(), dst));
    return srcMap && dstMap && srcMap->laneBases == dstMap->laneBases &&
           srcMap->warpBases == dstMap->warpBases;
  }

  /// `enc` with the threads and warps along each dimension cut down until
  /// the CTA tile fits inside the window (the factors move to another
  /// dimension), so that the window is a choice of registers.
  Attribute blockedWithinWindow(BlockedEncodingAttr enc,
                                ArrayRef<int64_t> window) {
    SmallVector<unsigned> spt(enc.getSizePerThread()),
        tpw(enc.getThreadsPerWarp()), wpc(enc.getWarpsPerCTA());
    ArrayRef<unsigned> order = enc.getOrder();
    for (unsigned d = 0; d < window.size(); ++d) {
      unsigned other = order.back() == d ? order.front() : order.back();
      if (other == d)
        break; // rank 1: nowhere to move threads (the lowering reports it)
      while (int64_t(spt[d]) * tpw[d] * wpc[d] > window[d]) {
        if (tpw[d] > 1) {
          tpw[d] /= 2;
          tpw[other] *= 2;
        } else if (wpc[d] > 1) {
          wpc[d] /= 2;
          wpc[other] *= 2;
        } else {
          spt[d] /= 2;
        }
      }
    }
    return BlockedEncodingAttr::get(ctx, spt, tpw, wpc, order);
  }

  /// extract_slice: keeps its source's layout where the window is a choice
  /// of registers; otherwise the source first moves to a blocked layout
  /// whose CTA tile fits in the window.
  void visitWindow(mlir::txl::ExtractSliceOp slice) {
    Attribute src = encodingOf(slice.getSrc());
    Attribute dst = windowEncoding(slice);
    if (src && windowInRegisters(slice, src, dst))
      return setResultEncodings(slice, dst);
    auto type = cast<RankedTensorType>(slice.getType());
    auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(src);
    if (!blocked)
      blocked = cast<BlockedEncodingAttr>(defaultFor(type.getRank()));
    Attribute fitted = blockedWithinWindow(blocked, type.getShape());
    require(slice, slice.getSrcMutable(), fitted);
    setResultEncodings(slice, fitted);
  }

  /// tl.gather reads its source through shared scratch, so the source
  /// keeps whatever layout it has; the result is born in the indices'
  /// layout (each thread reads the rows its own index registers name).
  void visitGather(mlir::txl::GatherOp gather) {
    unsigned rank = gather.getType().getRank();
    if (!encodingOf(gather.getSrc()))
      require(gather, gather.getSrcMutable(), defaultFor(rank));
    Attribute enc = encodingOf(gather.getIndices());
    if (!enc) {
      enc = defaultFor(rank);
      require(gather, gather.getIndicesMutable(), enc);
    }
    setResultEncodings(gather, enc);
  }

  Attribute chooseEncoding(Operation *op) {
    if (auto store = dyn_cast<mlir::txl::StoreOp>(op))
      if (pinnedValues.contains(store.getValue()))
        return encodingOf(store.getValue());
    auto it = accessLayout.find(op);
    if (it != accessLayout.end())
      return it->second;
    if (op->getNumResults() == 1) {
      auto pref = preferred.find(op->getResult(0));
      if (pref != preferred.end())
        return pref->second;
    }
    // A broadcast keeps its source's layout, unless the source's CTA tile
    // fits the small source but over-replicates the broadcast result.
    if (auto broadcast = dyn_cast<mlir::txl::BroadcastOp>(op)) {
      if (auto enc = dyn_cast_or_null<BlockedEncodingAttr>(
              encodingOf(broadcast.getSrc())))
        return overReplicates(broadcast.getType(), enc)
                   ? defaultFor(broadcast.getType())
                   : enc;
    }
    // A tensor-core accumulator (or a row of one) is the costliest operand
    // to move (through shared memory), while masks and indices built from
    // ranges are recomputed in any layout: `tl.where(mask, acc, x)` keeps
    // acc's layout.
    for (Value v : op->getOperands())
      if (isAccumulatorLayout(encodingOf(v)) && !isCheapIndexValue(v))
        return encodingOf(v);
    Attribute fallback;
    for (Value v : op->getOperands()) {
      Attribute enc = encodingOf(v);
      if (!enc)
        continue;
      if (!isCheapIndexValue(v))
        return enc;
      if (!fallback)
        fallback = enc;
    }
    if (fallback && !isa<mlir::txl::SplatOp, mlir::txl::MakeRangeOp>(op))
      return fallback;
    for (Type t : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(t))
        return defaultFor(tensor);
    return fallback;
  }

  static bool isAccumulatorLayout(Attribute enc) {
    if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(enc))
      enc = slice.getParent();
    return isa_and_nonnull<NvidiaMmaEncodingAttr>(enc);
  }

  void visitConstant(arith::ConstantOp op) {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return;
    auto it = preferred.find(op.getResult());
    auto newType = withEncoding(type, it != preferred.end() ? it->second
                                                            : defaultFor(type));
    auto dense = cast<DenseElementsAttr>(op.getValue());
    op.setValueAttr(dense.reshape(newType));
    op.getResult().setType(newType);
  }

  void visitReduce(mlir::txl::ReduceOp op) {
    Attribute enc = encodingOf(op.getSrcs()[0]);
    for (OpOperand &operand : op->getOpOperands())
      require(op, operand, enc);
    for (OpResult r : op->getResults())
      if (isa<RankedTensorType>(r.getType()))
        r.setType(withEncoding(r.getType(),
                               SliceEncodingAttr::get(ctx, op.getAxis(), enc)));
  }

  /// A scan keeps its operand's layout when the lowering can walk the
  /// axis in it (getAxisBits), else it takes the default one.
  void visitScan(mlir::txl::ScanOp op) {
    auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
    Attribute enc = encodingOf(op.getSrcs()[0]);
    auto map = enc ? getLayoutMap(withEncoding(type, enc)) : std::nullopt;
    if (!map || !getAxisBits(*map, op.getAxis()))
      enc = defaultFor(type.getRank());
    for (OpOperand &operand : op->getOpOperands())
      require(op, operand, enc);
    setResultEncodings(op, enc);
  }

  /// Converts the operands of `yield` to the given types' encodings.
  void matchYield(Operation *yield, TypeRange types, unsigned firstOperand = 0) {
    for (auto [i, t] : llvm::enumerate(types))
      if (auto tensor = dyn_cast<RankedTensorType>(t))
        require(yield, yield->getOpOperand(firstOperand + i),
                tensor.getEncoding());
  }

  void visitFor(scf::ForOp op) {
    for (auto [init, arg, res] : llvm::zip(op.getInitArgsMutable(),
                                           op.getRegionIterArgs(),
                                           op.getResults())) {
      auto it = preferred.find(arg);
      if (it != preferred.end())
        require(op, init, it->second);
      arg.setType(init.get().getType());
      res.setType(init.get().getType());
    }
    visitBlock(*op.getBody());
    matchYield(op.getBody()->getTerminator(), op.getInitArgs().getTypes());
  }

  void visitIf(scf::IfOp op) {
    visitBlock(*op.thenBlock());
    if (op.elseBlock())
      visitBlock(*op.elseBlock());
    Operation *thenYield = op.thenBlock()->getTerminator();
    for (auto [res, v] : llvm::zip(op.getResults(), thenYield->getOperands()))
      res.setType(v.getType());
    if (op.elseBlock())
      matchYield(op.elseBlock()->getTerminator(), op.getResultTypes());
  }

  void visitWhile(scf::WhileOp op) {
    for (auto [init, arg] : llvm::zip(op.getInits(), op.getBeforeArguments()))
      arg.setType(init.getType());
    visitBlock(op.getBefore().front());
    auto cond = op.getConditionOp();
    for (auto [v, arg, res] : llvm::zip(cond.getArgs(), op.getAfterArguments(),
                                        op.getResults())) {
      arg.setType(v.getType());
      res.setType(v.getType());
    }
    visitBlock(op.getAfter().front());
    matchYield(op.getAfter().front().getTerminator(), op.getInits().getTypes());
  }
};

struct AssignLayoutsPass
    : public txlgpu::impl::AssignLayoutsBase<AssignLayoutsPass> {
  using AssignLayoutsBase::AssignLayoutsBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    // The launch options the front end recorded in the module win over
    // this pass's own (the same values in the pipeline; a replayed dump
    // then needs no options restated).
    if (auto n = module->getAttrOfType<IntegerAttr>(TXLGPUDialect::kNumWarpsAttr))
      numWarps = unsigned(n.getInt());
    if (auto n = module->getAttrOfType<IntegerAttr>(
            TXLGPUDialect::kNumWarpgroupsAttr))
      numWarpgroups = unsigned(n.getInt());
    if (auto t = module->getAttrOfType<StringAttr>(TXLGPUDialect::kTargetAttr))
      target = t.str();
    module->setAttr(TXLGPUDialect::kNumWarpsAttr, b.getI32IntegerAttr(numWarps));
    module->setAttr(TXLGPUDialect::kNumWarpgroupsAttr,
                    b.getI32IntegerAttr(numWarpgroups));
    module->setAttr(TXLGPUDialect::kThreadsPerWarpAttr,
                    b.getI32IntegerAttr(threadsPerWarp));
    module->setAttr(TXLGPUDialect::kTargetAttr, b.getStringAttr(target));
    bool hasWgmma = ::txl::targetHasWgmma(target);
    bool hasTcgen05 = ::txl::targetHasTcgen05(target);
    // Every launched thread, extra warps included, arrives on a plain
    // tcgen05 dot's barrier.
    unsigned extraWarps = 0;
    if (auto n = module->getAttrOfType<IntegerAttr>(kNumExtraWarpsAttr))
      extraWarps = unsigned(n.getInt());
    LayoutAssigner assigner(
        module, numWarps, threadsPerWarp, hasWgmma, hasTcgen05,
        unsigned((numWarps * numWarpgroups + extraWarps) * threadsPerWarp));
    assigner.run();
    if (assigner.failed)
      signalPassFailure();
  }
};

} // namespace
