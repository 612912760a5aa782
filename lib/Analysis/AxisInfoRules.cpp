//===- AxisInfoRules.cpp - per-op transfer functions of the axis analysis -===//
//
// Every rule reasons about aligned blocks along one dim at a time: because
// all block sizes are powers of two, blocks of different facts nest, so the
// minimum of two block sizes is a block size for which both facts hold.
//
//===----------------------------------------------------------------------===//
#include "AxisInfoRules.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using ::txl::AxisInfo;
namespace txlir = mlir::txl;

static constexpr int64_t kMax = AxisInfo::kMaxDivisibility;

int64_t ::txl::detail::unitBytesOf(Type type) {
  auto ptr = dyn_cast<txlir::PointerType>(getElementTypeOrSelf(type));
  if (!ptr)
    return 1;
  Type pointee = ptr.getPointeeType();
  if (isa<txlir::PointerType>(pointee))
    return 8;
  if (pointee.isIntOrFloat())
    return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  return 1;
}

int64_t ::txl::detail::highestPow2Divisor(int64_t value) {
  if (value == 0)
    return kMax;
  uint64_t magnitude = value < 0 ? 0 - uint64_t(value) : uint64_t(value);
  return std::min<int64_t>(kMax, int64_t(magnitude & (0 - magnitude)));
}

using ::txl::detail::highestPow2Divisor;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static int64_t satMul(int64_t a, int64_t b) {
  if (a >= kMax || b >= kMax || a * b >= kMax) // both <= 2^30: no overflow
    return kMax;
  return a * b;
}

/// Upper bound of run lengths along each dim: the dim size rounded up to a
/// power of two (1 for dynamic dims and scalars).
static SmallVector<int64_t> runCaps(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() == 0)
    return {1};
  SmallVector<int64_t> caps;
  for (int64_t n : tensor.getShape())
    caps.push_back(ShapedType::isDynamic(n) || n < 1
                       ? 1
                       : int64_t(llvm::PowerOf2Ceil(uint64_t(n))));
  return caps;
}

static unsigned bitWidthOf(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (elem.isIndex())
    return 64;
  if (elem.isIntOrFloat())
    return elem.getIntOrFloatBitWidth();
  return 0;
}

static bool isIntLike(Type type) {
  Type elem = getElementTypeOrSelf(type);
  return elem.isSignlessInteger() || elem.isIndex();
}

/// Integers and pointers: values whose divisibility means something.
static bool isAddressLike(Type type) {
  return isIntLike(type) || isa<txlir::PointerType>(getElementTypeOrSelf(type));
}

/// `value` wrapped to `width` bits: zero-extended for i1, else sign-extended.
static int64_t wrapTo(int64_t value, unsigned width) {
  if (width == 0 || width >= 64)
    return value;
  if (width == 1)
    return value & 1;
  return llvm::SignExtend64(uint64_t(value), width);
}

/// Brings `info` into canonical form for `type`: facts capped by the shape,
/// powers of two, and a known constant's exact facts.
static AxisInfo finalize(AxisInfo info, Type type) {
  SmallVector<int64_t> caps = runCaps(type);
  if (info.size() != caps.size())
    return AxisInfo::getPessimistic(type);
  if (info.constantValue)
    info.constantValue = wrapTo(*info.constantValue, bitWidthOf(type));
  for (unsigned d = 0; d < caps.size(); ++d) {
    auto clampPow2 = [](int64_t v, int64_t hi) {
      v = std::clamp<int64_t>(v, 1, hi);
      return int64_t(llvm::bit_floor(uint64_t(v)));
    };
    if (info.constantValue) {
      info.constancy[d] = caps[d];
      info.contiguity[d] = 1;
      info.divisibility[d] = std::max(info.divisibility[d],
                                      highestPow2Divisor(*info.constantValue));
    }
    info.contiguity[d] = clampPow2(info.contiguity[d], caps[d]);
    info.constancy[d] = clampPow2(info.constancy[d], caps[d]);
    info.divisibility[d] = clampPow2(info.divisibility[d], kMax);
  }
  info.unitBytes = ::txl::detail::unitBytesOf(type);
  info.initialized = true;
  return info;
}

static std::optional<int64_t> constantOf(const AxisInfo &info) {
  return info.constantValue;
}

static bool isPow2Constant(const AxisInfo &info) {
  return info.constantValue && *info.constantValue > 0 &&
         llvm::isPowerOf2_64(uint64_t(*info.constantValue));
}

//===----------------------------------------------------------------------===//
// Constant folding
//===----------------------------------------------------------------------===//

/// Folds a binary integer op on known constants with the type's wrapping.
static std::optional<int64_t> foldBinary(Operation *op, int64_t lhs,
                                         int64_t rhs, unsigned width) {
  if (width == 0 || width > 64)
    return std::nullopt;
  APInt a(width, uint64_t(lhs), /*isSigned=*/true, /*implicitTrunc=*/true);
  APInt b(width, uint64_t(rhs), /*isSigned=*/true, /*implicitTrunc=*/true);
  bool overflow = false;
  std::optional<APInt> r =
      llvm::TypeSwitch<Operation *, std::optional<APInt>>(op)
          .Case([&](arith::AddIOp) { return a + b; })
          .Case([&](arith::SubIOp) { return a - b; })
          .Case([&](arith::MulIOp) { return a * b; })
          .Case([&](arith::DivSIOp) -> std::optional<APInt> {
            if (b.isZero())
              return std::nullopt;
            APInt q = a.sdiv_ov(b, overflow);
            return overflow ? std::nullopt : std::optional<APInt>(q);
          })
          .Case([&](arith::DivUIOp) -> std::optional<APInt> {
            return b.isZero() ? std::nullopt : std::optional(a.udiv(b));
          })
          .Case([&](arith::RemSIOp) -> std::optional<APInt> {
            return b.isZero() ? std::nullopt : std::optional(a.srem(b));
          })
          .Case([&](arith::RemUIOp) -> std::optional<APInt> {
            return b.isZero() ? std::nullopt : std::optional(a.urem(b));
          })
          .Case([&](arith::AndIOp) { return a & b; })
          .Case([&](arith::OrIOp) { return a | b; })
          .Case([&](arith::XOrIOp) { return a ^ b; })
          .Case([&](arith::ShLIOp) -> std::optional<APInt> {
            return b.uge(width) ? std::nullopt : std::optional(a.shl(b));
          })
          .Case([&](arith::ShRSIOp) -> std::optional<APInt> {
            return b.uge(width) ? std::nullopt : std::optional(a.ashr(b));
          })
          .Case([&](arith::ShRUIOp) -> std::optional<APInt> {
            return b.uge(width) ? std::nullopt : std::optional(a.lshr(b));
          })
          .Case([&](arith::MaxSIOp) { return llvm::APIntOps::smax(a, b); })
          .Case([&](arith::MinSIOp) { return llvm::APIntOps::smin(a, b); })
          .Case([&](arith::MaxUIOp) { return llvm::APIntOps::umax(a, b); })
          .Case([&](arith::MinUIOp) { return llvm::APIntOps::umin(a, b); })
          .Case([&](arith::CmpIOp cmp) {
            return APInt(1, arith::applyCmpPredicate(cmp.getPredicate(), a, b));
          })
          .Default([](Operation *) { return std::nullopt; });
  if (!r)
    return std::nullopt;
  return r->getBitWidth() == 1 ? int64_t(r->getZExtValue()) : r->getSExtValue();
}

//===----------------------------------------------------------------------===//
// Arithmetic rules
//===----------------------------------------------------------------------===//

/// a + b, a - b and addptr (b scaled by `scale` bytes): contiguous plus
/// constant stays contiguous over the shorter of the two blocks.
static AxisInfo addLike(const AxisInfo &a, const AxisInfo &b, Type type,
                        bool isSub, int64_t scale) {
  AxisInfo r = AxisInfo::getPessimistic(type);
  for (unsigned d = 0; d < r.size(); ++d) {
    int64_t contig = std::min(a.contiguity[d], b.constancy[d]);
    if (!isSub)
      contig = std::max(contig, std::min(a.constancy[d], b.contiguity[d]));
    r.contiguity[d] = contig;
    r.divisibility[d] =
        std::min(a.divisibilityForRuns(d, contig),
                 satMul(b.divisibilityForRuns(d, contig), scale));
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  }
  return r;
}

/// Constancy both operands share (the baseline of every elementwise op).
static void meetConstancy(AxisInfo &r, const AxisInfo &a, const AxisInfo &b) {
  for (unsigned d = 0; d < r.size(); ++d)
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
}

static AxisInfo mulRule(const AxisInfo &a, const AxisInfo &b, Type type) {
  if (constantOf(b) == 1)
    return a;
  if (constantOf(a) == 1)
    return b;
  AxisInfo r = AxisInfo::getPessimistic(type);
  meetConstancy(r, a, b);
  int64_t div = satMul(a.elementDivisibility(), b.elementDivisibility());
  std::fill(r.divisibility.begin(), r.divisibility.end(), div);
  return r;
}

/// a / 2^k (division, or arithmetic/logical right shift): over an aligned
/// block of g <= 2^k consecutive values starting at a multiple of g the
/// quotient is one value.
static AxisInfo divByPow2(const AxisInfo &a, const AxisInfo &b, int64_t pow2,
                          Type type) {
  if (pow2 == 1)
    return a;
  AxisInfo r = AxisInfo::getPessimistic(type);
  meetConstancy(r, a, b);
  for (unsigned d = 0; d < r.size(); ++d) {
    int64_t run = std::min({a.contiguity[d], pow2, a.divisibility[d]});
    r.constancy[d] = std::max(r.constancy[d], std::min(run, b.constancy[d]));
    // A whole contiguity block maps to first / 2^k; otherwise each element
    // is its own block.
    int64_t dividend =
        run == a.contiguity[d] ? a.divisibility[d] : a.elementDivisibility();
    r.divisibility[d] = dividend > pow2 ? dividend / pow2 : 1;
  }
  return r;
}

/// a % 2^k (or a & (2^k - 1)): aligned runs of a shorter than 2^k stay
/// contiguous; multiples of 2^k become 0.
static AxisInfo remByPow2(const AxisInfo &a, const AxisInfo &b, int64_t pow2,
                          Type type) {
  AxisInfo r = AxisInfo::getPessimistic(type);
  if (a.elementDivisibility() >= pow2) {
    r.constantValue = 0;
    return r;
  }
  meetConstancy(r, a, b);
  for (unsigned d = 0; d < r.size(); ++d) {
    int64_t run = std::min({a.contiguity[d], pow2, a.divisibility[d]});
    int64_t first = a.divisibilityForRuns(d, run);
    r.contiguity[d] = run;
    r.divisibility[d] = first >= pow2 ? kMax : first;
  }
  return r;
}

/// a % b with b a multiple of 2^k (not a known constant): an aligned run of
/// a no longer than 2^k lies between two multiples of b, so it stays a run,
/// starting at a multiple of the run's and b's divisibility (Triton's rule;
/// `(pid * BLOCK + tl.arange(0, BLOCK)) % N` with N divisible by 16 keeps
/// runs of 16). Like the power-of-two case (AxisInfo.h), a signed
/// remainder is analyzed as if its dividend were non-negative.
static AxisInfo remByMultiple(const AxisInfo &a, const AxisInfo &b, Type type) {
  AxisInfo r = AxisInfo::getPessimistic(type);
  meetConstancy(r, a, b);
  int64_t multiple = b.elementDivisibility();
  for (unsigned d = 0; d < r.size(); ++d) {
    int64_t run = std::min({a.contiguity[d], multiple, a.divisibility[d]});
    r.contiguity[d] = run;
    r.divisibility[d] = std::min(a.divisibilityForRuns(d, run), multiple);
  }
  return r;
}

static AxisInfo divRule(Operation *op, const AxisInfo &a, const AxisInfo &b,
                        Type type) {
  bool isRem = isa<arith::RemSIOp, arith::RemUIOp>(op);
  if (isPow2Constant(b))
    return isRem ? remByPow2(a, b, *b.constantValue, type)
                 : divByPow2(a, b, *b.constantValue, type);
  if (isRem && !b.constantValue)
    return remByMultiple(a, b, type);
  AxisInfo r = AxisInfo::getPessimistic(type);
  meetConstancy(r, a, b);
  return r;
}

static AxisInfo shiftRule(Operation *op, const AxisInfo &a, const AxisInfo &b,
                          Type type) {
  unsigned width = bitWidthOf(type);
  std::optional<int64_t> amount = constantOf(b);
  bool known = amount && *amount >= 0 && *amount < int64_t(width);
  if (known && *amount == 0)
    return a;
  if (isa<arith::ShLIOp>(op)) {
    AxisInfo r = AxisInfo::getPessimistic(type);
    meetConstancy(r, a, b);
    int64_t scale = known ? (*amount >= 31 ? kMax : int64_t(1) << *amount) : 1;
    int64_t div = satMul(a.elementDivisibility(), scale);
    std::fill(r.divisibility.begin(), r.divisibility.end(), div);
    return r;
  }
  // Right shifts keep the high bits, which an aligned block shares, so this
  // holds for negative values too.
  if (known && *amount < 31)
    return divByPow2(a, b, int64_t(1) << *amount, type);
  AxisInfo r = AxisInfo::getPessimistic(type);
  meetConstancy(r, a, b);
  return r;
}

static AxisInfo bitwiseRule(Operation *op, const AxisInfo &a, const AxisInfo &b,
                            Type type) {
  unsigned width = bitWidthOf(type);
  if (isa<arith::AndIOp>(op) && width > 1) {
    for (auto [x, m] : {std::pair(&a, &b), std::pair(&b, &a)}) {
      std::optional<int64_t> mask = constantOf(*m);
      if (mask && *mask == -1)
        return *x;
      // x & (2^k - 1) == x mod 2^k in two's complement.
      if (mask && *mask >= 0 && *mask < kMax &&
          llvm::isPowerOf2_64(uint64_t(*mask) + 1))
        return remByPow2(*x, *m, *mask + 1, type);
    }
  }
  AxisInfo r = AxisInfo::getPessimistic(type);
  meetConstancy(r, a, b);
  int64_t da = a.elementDivisibility(), db = b.elementDivisibility();
  // Trailing zeros: and keeps the larger count, or/xor/min/max the smaller.
  int64_t div = isa<arith::AndIOp>(op) ? std::max(da, db) : std::min(da, db);
  std::fill(r.divisibility.begin(), r.divisibility.end(), div);
  return r;
}

//===----------------------------------------------------------------------===//
// Comparisons and selects
//===----------------------------------------------------------------------===//

/// Block size along `d` over which `x pred n` is constant when x runs
/// contiguously and n is constant: the predicate flips only where x crosses
/// a boundary point (n or n + 1), which must then be a multiple of the block.
static int64_t compareRun(const AxisInfo &x, const AxisInfo &n,
                          arith::CmpIPredicate pred, unsigned d) {
  using P = arith::CmpIPredicate;
  int64_t boundaryDiv;
  switch (pred) {
  case P::slt:
  case P::ult:
  case P::sge:
  case P::uge:
    boundaryDiv = n.elementDivisibility();
    break;
  case P::sle:
  case P::ule:
  case P::sgt:
  case P::ugt:
    if (!n.constantValue || *n.constantValue == INT64_MAX)
      return 1;
    boundaryDiv = highestPow2Divisor(*n.constantValue + 1);
    break;
  default:
    return 1;
  }
  return std::min(
      {x.contiguity[d], n.constancy[d], x.divisibility[d], boundaryDiv});
}

static AxisInfo cmpRule(arith::CmpIOp op, const AxisInfo &a,
                        const AxisInfo &b) {
  AxisInfo r = AxisInfo::getPessimistic(op.getType());
  meetConstancy(r, a, b);
  // `n pred x` is `x swap(pred) n`.
  auto swapPred = [](arith::CmpIPredicate p) {
    using P = arith::CmpIPredicate;
    switch (p) {
    case P::slt:
      return P::sgt;
    case P::sgt:
      return P::slt;
    case P::sle:
      return P::sge;
    case P::sge:
      return P::sle;
    case P::ult:
      return P::ugt;
    case P::ugt:
      return P::ult;
    case P::ule:
      return P::uge;
    case P::uge:
      return P::ule;
    default:
      return p;
    }
  };
  for (unsigned d = 0; d < r.size(); ++d) {
    int64_t run = std::max(compareRun(a, b, op.getPredicate(), d),
                           compareRun(b, a, swapPred(op.getPredicate()), d));
    r.constancy[d] = std::max(r.constancy[d], run);
  }
  return r;
}

static AxisInfo selectRule(arith::SelectOp op, const AxisInfo &cond,
                           const AxisInfo &a, const AxisInfo &b) {
  AxisInfo r = AxisInfo::getPessimistic(op.getType());
  bool scalarCond = !isa<RankedTensorType>(op.getCondition().getType());
  if (cond.constantValue)
    return *cond.constantValue ? a : b;
  for (unsigned d = 0; d < r.size(); ++d) {
    int64_t condRun = scalarCond ? kMax : cond.constancy[d];
    int64_t contig = std::min({condRun, a.contiguity[d], b.contiguity[d]});
    r.contiguity[d] = contig;
    r.divisibility[d] = std::min(a.divisibilityForRuns(d, contig),
                                 b.divisibilityForRuns(d, contig));
    r.constancy[d] = std::min({condRun, a.constancy[d], b.constancy[d]});
  }
  if (a.constantValue && a.constantValue == b.constantValue)
    r.constantValue = a.constantValue;
  return r;
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

/// Casts keep which elements are equal; runs survive only when the step
/// unit is unchanged, and divisibility only between integers and pointers.
static AxisInfo castRule(Operation *op, const AxisInfo &a) {
  Type from = op->getOperand(0).getType(), to = op->getResult(0).getType();
  AxisInfo r = AxisInfo::getPessimistic(to);
  r.constancy = a.constancy;
  if (!isAddressLike(from) || !isAddressLike(to))
    return r;
  if (a.unitBytes == r.unitBytes) {
    r.contiguity = a.contiguity;
    r.divisibility = a.divisibility;
  } else {
    std::fill(r.divisibility.begin(), r.divisibility.end(),
              a.elementDivisibility());
  }
  if (a.constantValue && isIntLike(to)) {
    unsigned fromWidth = bitWidthOf(from);
    int64_t v = *a.constantValue;
    if (fromWidth > 0 && fromWidth < 64)
      v = isa<arith::ExtUIOp, arith::IndexCastUIOp>(op)
              ? int64_t(uint64_t(v) & ((uint64_t(1) << fromWidth) - 1))
              : llvm::SignExtend64(uint64_t(v), fromWidth);
    r.constantValue = v;
  }
  return r;
}

//===----------------------------------------------------------------------===//
// txl shape ops
//===----------------------------------------------------------------------===//

static AxisInfo makeRangeRule(txlir::MakeRangeOp op) {
  AxisInfo r = AxisInfo::getPessimistic(op.getType());
  int64_t n = op.getType().getShape()[0];
  r.contiguity[0] = n;
  r.divisibility[0] = highestPow2Divisor(op.getStart());
  if (n == 1)
    r.constantValue = op.getStart();
  return r;
}

static AxisInfo splatRule(txlir::SplatOp op, const AxisInfo &s) {
  AxisInfo r = AxisInfo::getPessimistic(op.getType());
  std::fill(r.constancy.begin(), r.constancy.end(), kMax);
  std::fill(r.divisibility.begin(), r.divisibility.end(),
            s.elementDivisibility());
  r.constantValue = s.constantValue;
  return r;
}

static AxisInfo broadcastRule(txlir::BroadcastOp op, const AxisInfo &s) {
  AxisInfo r = s;
  auto src = cast<RankedTensorType>(op.getSrc().getType());
  auto dst = cast<RankedTensorType>(op.getType());
  if (src.getRank() != dst.getRank() || src.getRank() != int64_t(r.size()))
    return AxisInfo::getPessimistic(dst);
  for (unsigned d = 0; d < r.size(); ++d) {
    if (src.getDimSize(d) != 1 || dst.getDimSize(d) == 1)
      continue;
    r.contiguity[d] = 1;
    r.constancy[d] = kMax;
    r.divisibility[d] = s.elementDivisibility();
  }
  return r;
}

static AxisInfo expandDimsRule(txlir::ExpandDimsOp op, const AxisInfo &s) {
  AxisInfo r = s;
  unsigned axis = std::min<unsigned>(op.getAxis(), r.size());
  r.contiguity.insert(r.contiguity.begin() + axis, 1);
  r.constancy.insert(r.constancy.begin() + axis, 1);
  r.divisibility.insert(r.divisibility.begin() + axis, s.elementDivisibility());
  return r;
}

static AxisInfo transRule(txlir::TransOp op, const AxisInfo &s) {
  AxisInfo r = AxisInfo::getPessimistic(op.getType());
  ArrayRef<int32_t> order = op.getOrder();
  for (unsigned d = 0; d < r.size() && d < order.size(); ++d) {
    unsigned from = unsigned(order[d]);
    if (from >= s.size())
      return AxisInfo::getPessimistic(op.getType());
    r.contiguity[d] = s.contiguity[from];
    r.divisibility[d] = s.divisibility[from];
    r.constancy[d] = s.constancy[from];
  }
  r.constantValue = s.constantValue;
  return r;
}

static SmallVector<int64_t> nonUnitDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> dims;
  for (int64_t n : shape)
    if (n != 1)
      dims.push_back(n);
  return dims;
}

/// Reshape: per-element divisibility always survives. Adding or dropping
/// unit dims keeps every fact; otherwise the last dim keeps its runs over
/// blocks that never straddle a row of either shape.
static AxisInfo reshapeRule(txlir::ReshapeOp op, const AxisInfo &s) {
  AxisInfo r = AxisInfo::getPessimistic(op.getType());
  std::fill(r.divisibility.begin(), r.divisibility.end(),
            s.elementDivisibility());
  r.constantValue = s.constantValue;
  if (op.getAllowReorder())
    return r;
  auto src = cast<RankedTensorType>(op.getSrc().getType());
  auto dst = cast<RankedTensorType>(op.getType());
  if (!src.hasStaticShape() || !dst.hasStaticShape() || src.getRank() == 0 ||
      dst.getRank() == 0)
    return r;
  ArrayRef<int64_t> from = src.getShape(), to = dst.getShape();
  if (nonUnitDims(from) == nonUnitDims(to)) {
    unsigned j = 0;
    for (unsigned d = 0; d < to.size(); ++d) {
      if (to[d] == 1)
        continue;
      while (from[j] == 1)
        ++j;
      r.contiguity[d] = s.contiguity[j];
      r.divisibility[d] = s.divisibility[j];
      r.constancy[d] = s.constancy[j];
      ++j;
    }
    return r;
  }
  unsigned last = s.size() - 1, rLast = r.size() - 1;
  int64_t block = highestPow2Divisor(std::gcd(from.back(), to.back()));
  r.contiguity[rLast] = std::min(s.contiguity[last], block);
  r.constancy[rLast] = std::min(s.constancy[last], block);
  r.divisibility[rLast] = s.divisibilityForRuns(last, r.contiguity[rLast]);
  return r;
}

static AxisInfo hintRule(txlir::HintOp op, const AxisInfo &s) {
  AxisInfo r = s;
  auto apply = [&](std::optional<ArrayRef<int64_t>> facts,
                   SmallVector<int64_t> &into) {
    if (!facts || facts->size() != into.size())
      return;
    // A user fact n only implies runs and alignment of n's power-of-two
    // factor (runs of 24 are not aligned runs of 16).
    for (auto [mine, user] : llvm::zip(into, *facts))
      if (user > 0)
        mine = std::max(mine, highestPow2Divisor(user));
  };
  apply(op.getDivisibility(), r.divisibility);
  apply(op.getContiguity(), r.contiguity);
  return r;
}

//===----------------------------------------------------------------------===//
// Constants and entry values
//===----------------------------------------------------------------------===//

static AxisInfo constantRule(arith::ConstantOp op) {
  Type type = op.getType();
  AxisInfo r = AxisInfo::getPessimistic(type);
  Attribute value = op.getValue();
  if (auto intAttr = dyn_cast<IntegerAttr>(value)) {
    r.constantValue = intAttr.getValue().getBitWidth() == 1
                          ? int64_t(intAttr.getValue().getZExtValue())
                          : intAttr.getValue().getSExtValue();
    return r;
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return r;
  if (dense.isSplat()) {
    std::fill(r.constancy.begin(), r.constancy.end(), kMax);
    if (dense.getElementType().isIntOrIndex()) {
      APInt v = dense.getSplatValue<APInt>();
      r.constantValue =
          v.getBitWidth() == 1 ? int64_t(v.getZExtValue()) : v.getSExtValue();
    }
    return r;
  }
  if (!dense.getElementType().isIntOrIndex() ||
      dense.getNumElements() > (1 << 16))
    return r;
  SmallVector<int64_t> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(v.getBitWidth() == 1 ? int64_t(v.getZExtValue())
                                          : v.getSExtValue());
  return AxisInfo::getExact(dense.getType().getShape(), values);
}

auto ::txl::detail::inferEntryValue(Value value) -> AxisInfo {
  AxisInfo r = AxisInfo::getPessimistic(value.getType());
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return r;
  auto func = dyn_cast_or_null<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func)
    return r;
  unsigned index = arg.getArgNumber();
  if (auto div =
          func.getArgAttrOfType<IntegerAttr>(index, txlir::kDivisibilityAttr)) {
    int64_t v = div.getValue().getSExtValue();
    std::fill(r.divisibility.begin(), r.divisibility.end(),
              v > 0 ? highestPow2Divisor(v) : 1);
  }
  if (func.getArgAttr(index, txlir::kEqualsOneAttr) && isIntLike(arg.getType()))
    r.constantValue = 1;
  return finalize(r, value.getType());
}

auto ::txl::detail::inferInductionVar(Value iv, const AxisInfo &lowerBound,
                                      const AxisInfo &step) -> AxisInfo {
  AxisInfo r = AxisInfo::getPessimistic(iv.getType());
  r.divisibility[0] =
      std::min(lowerBound.elementDivisibility(), step.elementDivisibility());
  return finalize(r, iv.getType());
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

static AxisInfo inferBinaryInt(Operation *op, const AxisInfo &a,
                               const AxisInfo &b, Type type) {
  if (a.constantValue && b.constantValue)
    if (auto folded = foldBinary(op, *a.constantValue, *b.constantValue,
                                 bitWidthOf(op->getOperand(0).getType()))) {
      AxisInfo r = AxisInfo::getPessimistic(type);
      r.constantValue = folded;
      return r;
    }
  return llvm::TypeSwitch<Operation *, AxisInfo>(op)
      .Case([&](arith::AddIOp) { return addLike(a, b, type, false, 1); })
      .Case([&](arith::SubIOp) { return addLike(a, b, type, true, 1); })
      .Case([&](arith::MulIOp) { return mulRule(a, b, type); })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(
          [&](Operation *) { return divRule(op, a, b, type); })
      .Case<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(
          [&](Operation *) { return shiftRule(op, a, b, type); })
      .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::MaxSIOp,
            arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(
          [&](Operation *) { return bitwiseRule(op, a, b, type); })
      .Case([&](arith::CmpIOp cmp) { return cmpRule(cmp, a, b); })
      .Default([&](Operation *) { return AxisInfo::getPessimistic(type); });
}

static AxisInfo inferSingle(Operation *op, ArrayRef<const AxisInfo *> in) {
  Type type = op->getResult(0).getType();
  auto operand = [&](unsigned i) -> const AxisInfo & { return *in[i]; };
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
          arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::ShLIOp,
          arith::ShRSIOp, arith::ShRUIOp, arith::AndIOp, arith::OrIOp,
          arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
          arith::MinUIOp, arith::CmpIOp>(op)) {
    if (in.size() != 2 || in[0]->size() != in[1]->size())
      return AxisInfo::getPessimistic(type);
    return inferBinaryInt(op, operand(0), operand(1), type);
  }
  return llvm::TypeSwitch<Operation *, AxisInfo>(op)
      .Case([&](arith::ConstantOp c) { return constantRule(c); })
      .Case([&](arith::SelectOp s) {
        return selectRule(s, operand(0), operand(1), operand(2));
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp, arith::BitcastOp, txlir::BitcastOp,
            txlir::PtrToIntOp, txlir::IntToPtrOp>(
          [&](Operation *) { return castRule(op, operand(0)); })
      .Case([&](txlir::MakeRangeOp r) { return makeRangeRule(r); })
      .Case([&](txlir::SplatOp s) { return splatRule(s, operand(0)); })
      .Case([&](txlir::BroadcastOp b) { return broadcastRule(b, operand(0)); })
      .Case(
          [&](txlir::ExpandDimsOp e) { return expandDimsRule(e, operand(0)); })
      .Case([&](txlir::ReshapeOp r) { return reshapeRule(r, operand(0)); })
      .Case([&](txlir::TransOp t) { return transRule(t, operand(0)); })
      .Case([&](txlir::HintOp h) { return hintRule(h, operand(0)); })
      .Case([&](txlir::AddPtrOp p) {
        if (operand(0).size() != operand(1).size())
          return AxisInfo::getPessimistic(type);
        return addLike(operand(0), operand(1), type, false,
                       ::txl::detail::unitBytesOf(type));
      })
      .Default([&](Operation *other) {
        // Layout conversions keep every value where it is.
        if (other->getName().getStringRef() == "txlgpu.convert_layout" &&
            in.size() == 1)
          return operand(0);
        return AxisInfo::getPessimistic(type);
      });
}

auto ::txl::detail::inferResults(Operation *op, ArrayRef<const AxisInfo *> in)
    -> SmallVector<AxisInfo> {
  SmallVector<AxisInfo> out;
  if (op->getNumResults() == 1) {
    Type type = op->getResult(0).getType();
    out.push_back(finalize(inferSingle(op, in), type));
    return out;
  }
  for (Value result : op->getResults())
    out.push_back(AxisInfo::getPessimistic(result.getType()));
  return out;
}
