//===- ScanOpToLLVM.cpp - inclusive scans on any axis-aligned layout ------===//
//
// The index along the axis is made of bits of the register, lane and warp
// ids in some order (getAxisBits). The scan walks those bits from the
// lowest:
//  1. the lowest bits held in registers: each thread scans its runs of
//     registers sequentially ("groups");
//  2. every higher bit joins two blocks of the index range: each group
//     keeps the total T of its block and the combination P of the elements
//     of its block before the group. The partner block's total comes from
//     another register, a lane (shfl.xor) or a warp (shared memory); a
//     group in the later half puts it in front of P and T, one in the
//     earlier half behind T;
//  3. each element is combine(P, its in-thread prefix).
// The combine region is only ever applied as combine(earlier, later) in
// scan order (descending index with `reverse`), so it need not commute.
//
//===----------------------------------------------------------------------===//
#include "SharedScratch.h"
#include "Utility.h"


using namespace mlir;
using namespace mlir::txl;
using txlgpu::AxisBit;
using txlgpu::Coord;
using txlgpu::LayoutMap;

namespace {

using Values = SmallVector<Value>;

/// The combine region applied to (earlier, later).
Values combine(OpBuilder &b, ScanOp op, ArrayRef<Value> earlier,
               ArrayRef<Value> later) {
  return cloneCombineRegion(b, op.getCombineOp().front(), earlier, later);
}

Values selectAll(OpBuilder &b, Location loc, Value pred, ArrayRef<Value> t,
                 ArrayRef<Value> f) {
  Values out;
  for (auto [x, y] : llvm::zip(t, f))
    out.push_back(LLVM::SelectOp::create(b, loc, pred, x, y));
  return out;
}

Value boolConst(OpBuilder &b, Location loc, bool v) {
  return LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(v));
}

/// One group: registers of a thread that hold consecutive elements along
/// the axis (the lowest index bits), scanned in the thread.
struct Group {
  SmallVector<int> regs;     ///< in index order
  Values total;              ///< T: total of the group's current block
  Values prefix;             ///< P: the block's elements before the group
  Value hasPrefix;           ///< i1: whether P is set
  SmallVector<Values> local; ///< per register: in-thread inclusive prefix
};

struct ScanToLLVM : public ConvertOpToLLVMPattern<ScanOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcTy = cast<RankedTensorType>(op.getSrcs()[0].getType());
    auto map = txlgpu::getLayoutMap(srcTy);
    if (!map)
      return rewriter.notifyMatchFailure(op, "no layout");
    unsigned axis = op.getAxis();
    auto bits = txlgpu::getAxisBits(*map, axis);
    if (!bits)
      return op.emitOpError("internal error: the layout does not walk the "
                            "scan axis in single bits");
    bool reverse = op.getReverse();
    SmallVector<Values> srcRegs; // [operand][register]
    for (Value v : adaptor.getSrcs())
      srcRegs.push_back(unpackTensor(rewriter, loc, v));
    auto valuesOf = [&](int r) {
      Values v;
      for (Values &regs : srcRegs)
        v.push_back(regs[r]);
      return v;
    };

    // 1. Groups: the lowest index bits that registers hold.
    unsigned inThread = 0;
    while (inThread < bits->size() && (*bits)[inThread].kind == AxisBit::Reg)
      ++inThread;
    unsigned lowRegMask = 0;
    for (unsigned i = 0; i < inThread; ++i)
      lowRegMask |= 1u << (*bits)[i].index;
    unsigned dupMask = 0;
    for (auto [i, basis] : llvm::enumerate(map->regBases))
      if (llvm::all_of(basis, [](int64_t v) { return v == 0; }))
        dupMask |= 1u << i;
    std::map<int, Group> groups; // keyed by the register with no low bits
    for (int r = 0; r < map->numRegs(); ++r) {
      if ((r & (lowRegMask | dupMask)) != 0)
        continue;
      Group &g = groups[r];
      for (unsigned pos = 0; pos < (1u << inThread); ++pos) {
        int reg = r;
        for (unsigned i = 0; i < inThread; ++i)
          if (pos & (1u << i))
            reg |= 1 << (*bits)[i].index;
        g.regs.push_back(reg);
      }
      g.local.resize(g.regs.size());
      for (size_t k = 0; k < g.regs.size(); ++k) {
        size_t at = reverse ? g.regs.size() - 1 - k : k;
        Values x = valuesOf(g.regs[at]);
        g.local[at] =
            k == 0 ? x : combine(rewriter, op, g.local[prev(at, reverse)], x);
      }
      g.total = g.local[reverse ? 0 : g.regs.size() - 1];
      g.hasPrefix = boolConst(rewriter, loc, false);
    }

    // 2. Higher bits, lowest first.
    Value lane, warp;
    for (unsigned bit = inThread; bit < bits->size(); ++bit) {
      AxisBit ab = (*bits)[bit];
      std::map<int, Values> partnerTotal;
      if (ab.kind == AxisBit::Reg) {
        for (auto &[key, g] : groups)
          partnerTotal[key] = groups.at(key ^ (1 << ab.index)).total;
      } else if (ab.kind == AxisBit::Lane) {
        for (auto &[key, g] : groups)
          for (Value v : g.total)
            partnerTotal[key].push_back(
                shuffleXor(rewriter, loc, v, 1 << ab.index));
      } else {
        exchangeAcrossWarps(rewriter, op, *map, bit, groups, partnerTotal);
      }
      // Whether this thread's block comes later in scan order.
      std::function<Value(int)> later;
      if (ab.kind == AxisBit::Reg) {
        later = [&](int key) {
          bool set = (key >> ab.index) & 1;
          return boolConst(rewriter, loc, set != reverse);
        };
      } else {
        Value &id = ab.kind == AxisBit::Lane ? lane : warp;
        if (!id)
          id = ab.kind == AxisBit::Lane ? laneId(rewriter, loc)
                                        : warpId(rewriter, loc);
        Value set = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::ne,
            LLVM::AndOp::create(rewriter, loc, id,
                                i32Const(rewriter, loc, 1 << ab.index)),
            i32Const(rewriter, loc, 0));
        Value isLater =
            reverse ? LLVM::XOrOp::create(rewriter, loc, set,
                                          boolConst(rewriter, loc, true))
                    : set;
        later = [isLater](int) { return isLater; };
      }
      for (auto &[key, g] : groups) {
        const Values &other = partnerTotal.at(key);
        Value isLater = later(key);
        Values first = selectAll(rewriter, loc, isLater, other, g.total);
        Values second = selectAll(rewriter, loc, isLater, g.total, other);
        Values total = combine(rewriter, op, first, second);
        Values joined =
            g.prefix.empty()
                ? other
                : selectAll(rewriter, loc, g.hasPrefix,
                            combine(rewriter, op, other, g.prefix), other);
        g.prefix = g.prefix.empty()
                       ? joined
                       : selectAll(rewriter, loc, isLater, joined, g.prefix);
        g.hasPrefix = LLVM::OrOp::create(rewriter, loc, g.hasPrefix, isLater);
        g.total = total;
      }
    }

    // 3. Results.
    SmallVector<Values> results(srcRegs.size(),
                                Values(map->numRegs(), Value()));
    for (auto &[key, g] : groups)
      for (auto [k, reg] : llvm::enumerate(g.regs)) {
        Values v = g.local[k];
        if (!g.prefix.empty())
          v = selectAll(rewriter, loc, g.hasPrefix,
                        combine(rewriter, op, g.prefix, v), v);
        for (size_t i = 0; i < v.size(); ++i)
          results[i][reg] = v[i];
      }
    for (int r = 0; r < map->numRegs(); ++r)
      for (Values &res : results)
        if (!res[r])
          res[r] = res[r & ~dupMask];
    Values packed;
    for (auto [i, res] : llvm::enumerate(results))
      packed.push_back(packTensor(rewriter, loc, *getTypeConverter(),
                                  op.getResult(i).getType(), res));
    rewriter.replaceOp(op, packed);
    return success();
  }

  static size_t prev(size_t at, bool reverse) {
    return reverse ? at + 1 : at - 1;
  }

  /// Every group's total goes to shared memory at the group's first
  /// element (index along the axis shifted right by the in-thread bits);
  /// each group reads the one of the group `bit` away.
  void exchangeAcrossWarps(ConversionPatternRewriter &rewriter, ScanOp op,
                           const LayoutMap &map, unsigned bit,
                           std::map<int, Group> &groups,
                           std::map<int, Values> &partnerTotal) const {
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    auto bits = *txlgpu::getAxisBits(map, axis);
    unsigned inThread = 0;
    while (inThread < bits.size() && bits[inThread].kind == AxisBit::Reg)
      ++inThread;
    SmallVector<int64_t> scratchShape(map.shape.begin(), map.shape.end());
    scratchShape[axis] >>= inThread;
    int64_t entries = 1;
    for (int64_t d : scratchShape)
      entries *= d;
    SmallVector<int64_t> operandOffset;
    int64_t offset = scratchOffset(op);
    for (Value src : op.getSrcs()) {
      operandOffset.push_back(offset);
      offset = llvm::alignTo(
          offset + entries * scratchElemBytes(getElementTypeOrSelf(src)), 16);
    }
    SmallVector<SmallVector<Value>> coords = allRegCoords(rewriter, loc, map);
    auto indexOf = [&](int reg, bool partner) {
      SmallVector<Value> c = coords[reg];
      Value along = c[axis];
      if (partner)
        along = LLVM::XOrOp::create(rewriter, loc, along,
                                    i32Const(rewriter, loc, 1 << bit));
      c[axis] = LLVM::LShrOp::create(rewriter, loc, along,
                                     i32Const(rewriter, loc, inThread));
      return flatIndex(rewriter, loc, c, scratchShape);
    };
    barrier(rewriter, loc);
    for (auto &[key, g] : groups) {
      Value idx = indexOf(key, false);
      for (auto [k, v] : llvm::enumerate(g.total))
        storeScratch(rewriter, loc,
                     scratchElementPtr(rewriter, loc, op, operandOffset[k],
                                       v.getType(), idx),
                     v);
    }
    barrier(rewriter, loc);
    for (auto &[key, g] : groups) {
      Value idx = indexOf(key, true);
      for (auto [k, v] : llvm::enumerate(g.total))
        partnerTotal[key].push_back(
            loadScratch(rewriter, loc,
                        scratchElementPtr(rewriter, loc, op, operandOffset[k],
                                          v.getType(), idx),
                        v.getType()));
    }
  }
};

} // namespace

void mlir::txl::populateScanOpPatterns(TXLTypeConverter &tc,
                                       RewritePatternSet &patterns) {
  patterns.add<ScanToLLVM>(tc);
}
