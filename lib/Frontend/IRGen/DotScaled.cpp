//===- DotScaled.cpp - tl.dot_scaled as upcast, scale and tl.dot ----------===//
//
// tl.dot_scaled multiplies microscaled (OCP MX) tiles. Each operand holds
// fp4 (e2m1, two per byte), fp8 (e4m3, e5m2) or 16-bit floats; with a scale,
// every 32 consecutive K elements of a row of lhs (a column of rhs) share
// one e8m0 exponent: the uint8 s stands for 2**(s - 127), 0xFF for NaN.
// NVIDIA's nvfp4 is the other scale format: e2m1 operands whose every 16
// consecutive K elements share one float8e4nv (e4m3) factor, which is the
// scale itself; the scale's dtype says which one a call uses, and its shape
// ([rows, K/16]) must match.
//
// Hopper and Ampere have no MMA that reads scales, so the call becomes
// ordinary tile IR, the decomposition Triton applies on those targets (its
// numerics are what Triton's tests check):
//   1. each operand is upcast to the compute type: fp16 if either format is
//      fp16, bf16 otherwise (exact for e2m1, e4m3 and e5m2);
//   2. multiplied by its scale, rebuilt from the exponent's bits in the
//      compute type (bf16 has 2**-127..2**127 and s = 0 gives 0; fp16 gets
//      2**(s-127) rounded from fp32, so it flushes or overflows far sooner)
//      or, for e4m3 scales, converted (exact in bf16 and fp16), and
//      repeated along K;
//   3. where an e8m0 scale is 0xFF the element becomes NaN, unless
//      fast_math (an e4m3 NaN scale is NaN by itself);
//   4. an ordinary tl.dot of the two compute-type tiles into an fp32
//      accumulator (mma.sync, or wgmma on sm_90a).
//
// sm_100a's tensor cores read the scales themselves (block-scaled
// tcgen05.mma): where both operands are e4m3/e5m2 (kind::mxf8f6f4) or both
// e2m1 packed along K (kind::mxf4, or kind::mxf4nvf4 with e4m3 scales),
// both scales are given and the tile fits
// one instruction's M and N, the call becomes a txlgpu.tcgen05_mma_scaled
// instead (see nativeScaledDot); every other case keeps the decomposition.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"

#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/IR/TCGen05.h"
#include "txl/Layout/LayoutConstructors.h"
#include "txl/Support/TargetFeatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cmath>

using namespace txl;
using namespace txl::irgen;
using namespace mlir;

namespace {

/// The element formats tl.dot_scaled accepts (Triton's ScaleDotElemType
/// subset that NVIDIA targets take).
enum class ScaledFormat { E2M1, E4M3, E5M2, BF16, FP16 };

/// Elements that share one scale along K: the MX block size (e8m0 scales)
/// and nvfp4's (e4m3 scales).
constexpr int64_t kScaleBlock = 32;
constexpr int64_t kNvfp4ScaleBlock = 16;
/// The e8m0 exponent that stands for NaN.
constexpr int64_t kScaleNaN = 0xFF;

/// One operand of tl.dot_scaled, checked. `data` is the tile as given
/// (bitcast to the format's float type except for e2m1, which stays
/// packed uint8); `packedAxis` is the axis two e2m1 values share a byte
/// along (-1 for the other formats).
struct ScaledOperand {
  TValue data;
  std::optional<TValue> scale;
  /// Whether `scale` holds e4m3 factors (nvfp4) rather than e8m0 exponents.
  bool e4m3Scale = false;
  ScaledFormat format;
  int packedAxis = -1;
  /// The operand's logical shape (e2m1 unpacked).
  std::vector<int64_t> shape;

  /// K elements that share one scale.
  int64_t scaleBlock() const {
    return e4m3Scale ? kNvfp4ScaleBlock : kScaleBlock;
  }
};

std::optional<ScaledFormat> parseFormat(const std::string &s) {
  if (s == "e2m1")
    return ScaledFormat::E2M1;
  if (s == "e4m3")
    return ScaledFormat::E4M3;
  if (s == "e5m2")
    return ScaledFormat::E5M2;
  if (s == "bf16")
    return ScaledFormat::BF16;
  if (s == "fp16")
    return ScaledFormat::FP16;
  return std::nullopt;
}

/// The float type a non-e2m1 format's data is (or is bitcast to), and the
/// unsigned type of its width that Triton also accepts.
DType floatTypeOf(ScaledFormat f) {
  switch (f) {
  case ScaledFormat::E4M3:
    return DType::F8E4NV;
  case ScaledFormat::E5M2:
    return DType::F8E5;
  case ScaledFormat::BF16:
    return DType::BF16;
  default:
    return DType::F16;
  }
}

/// Mantissa width and exponent bias of the compute type.
struct FloatBits {
  int mantissa;
  int bias;
};
FloatBits bitsOf(const DType &compute) {
  return compute.kind == DType::BF16 ? FloatBits{7, 127} : FloatBits{10, 15};
}

/// A constant of `d` splatted to `shape`.
Val splatConst(Gen &g, DType d, int64_t v, const std::vector<int64_t> &shape) {
  return Val::tensor(g.constant(d, Val::integer(v), shape));
}

TValue binop(Gen &g, BinOpKind op, const TValue &x, const Val &y,
             SourceLoc loc) {
  return g.toTensor(g.binary(op, Val::tensor(x), y, loc), loc);
}

TValue select(Gen &g, const TValue &c, const TValue &x, const TValue &y,
              SourceLoc loc) {
  return g.where(Val::tensor(c), Val::tensor(x), Val::tensor(y), loc).t;
}

TValue equals(Gen &g, const TValue &x, int64_t v, SourceLoc loc) {
  return g
      .compare(CmpOpKind::Eq, Val::tensor(x),
               splatConst(g, x.dtype, v, x.shape), loc)
      .t;
}

/// `x` with every element repeated `factor` times along `axis`: a new axis
/// of size `factor` after `axis`, then merged into it (row-major, so the
/// copies of element i are i*factor .. i*factor+factor-1).
TValue repeatAlong(Gen &g, const TValue &x, int axis, int64_t factor,
                   SourceLoc loc) {
  std::vector<int64_t> wide = x.shape;
  wide.insert(wide.begin() + axis + 1, factor);
  TValue w = g.broadcastTo(g.expandDims(x, axis + 1, loc), wide, loc);
  std::vector<int64_t> merged = x.shape;
  merged[axis] *= factor;
  return g.reshape(w, merged, /*allowReorder=*/false, loc);
}

/// The 2-D transpose of `x`.
TValue transpose(Gen &g, const TValue &x) {
  std::vector<int64_t> shape = {x.shape[1], x.shape[0]};
  Value r =
      ::mlir::txl::TransOp::create(g.b, g.cur, g.mlirType(x.dtype, shape),
                                   x.value, g.b.getDenseI32ArrayAttr({1, 0}));
  return {r, x.dtype, shape};
}

/// The compute-type bits of e2m1 codes (uint16 holding 0..15: sign in bit 3,
/// two exponent bits, one mantissa bit; values 0, 0.5, 1, 1.5, 2, 3, 4, 6).
/// Every e2m1 value is exact in bf16 and fp16: codes with a non-zero
/// exponent keep their mantissa bit as the top mantissa bit and rebias the
/// exponent; the one subnormal magnitude, 0.5, is a constant.
TValue e2m1Bits(Gen &g, const TValue &code, const DType &compute,
                SourceLoc loc) {
  auto [mant, bias] = bitsOf(compute);
  const auto &shape = code.shape;
  auto u16 = [&](int64_t v) { return splatConst(g, DType::U16, v, shape); };
  TValue sign =
      binop(g, BinOpKind::LShift,
            binop(g, BinOpKind::BitAnd, code, u16(0x8), loc), u16(15 - 3), loc);
  TValue magnitude = binop(g, BinOpKind::BitAnd, code, u16(0x7), loc);
  // 1.exponent.mantissa with the e2m1 bias (1) traded for the compute one.
  TValue normal =
      binop(g, BinOpKind::Add,
            binop(g, BinOpKind::LShift, magnitude, u16(mant - 1), loc),
            u16(int64_t(bias - 1) << mant), loc);
  TValue half = u16(int64_t(bias - 1) << mant).t;
  TValue zero = u16(0).t;
  TValue isNormal =
      g.compare(CmpOpKind::Ge, Val::tensor(magnitude), u16(2), loc).t;
  TValue bits =
      select(g, isNormal, normal,
             select(g, equals(g, magnitude, 1, loc), half, zero, loc), loc);
  bits = binop(g, BinOpKind::BitOr, bits, Val::tensor(sign), loc);
  return g.cast(bits, compute, loc, /*bitcast=*/true);
}

/// Packed e2m1 bytes unpacked along `axis` into the compute type: the low
/// nibble is the first element of each pair, the high nibble the second.
TValue unpackE2M1(Gen &g, const TValue &bytes, int axis, const DType &compute,
                  SourceLoc loc) {
  // Each byte, repeated as a pair along a new axis after `axis`.
  std::vector<int64_t> pairs = bytes.shape;
  pairs.insert(pairs.begin() + axis + 1, 2);
  TValue wide = g.broadcastTo(g.expandDims(bytes, axis + 1, loc), pairs, loc);
  std::vector<int64_t> onlyPair(pairs.size(), 1);
  onlyPair[axis + 1] = 2;
  TValue second = g.broadcastTo(
      g.reshape(g.makeRange(0, 2, loc), onlyPair, /*allowReorder=*/false, loc),
      pairs, loc);
  auto u8 = [&](int64_t v) { return splatConst(g, DType::U8, v, pairs); };
  TValue code = select(g, equals(g, second, 0, loc),
                       binop(g, BinOpKind::BitAnd, wide, u8(0xF), loc),
                       binop(g, BinOpKind::RShift, wide, u8(4), loc), loc);
  TValue value = e2m1Bits(g, g.cast(code, DType::U16, loc), compute, loc);
  std::vector<int64_t> unpacked = bytes.shape;
  unpacked[axis] *= 2;
  return g.reshape(value, unpacked, /*allowReorder=*/false, loc);
}

/// 2**(s - 127) in the compute type, from the e8m0 bits `s` (uint8): the
/// exponent field of an fp32 (of a bf16, which has the same exponent), so
/// s = 0 gives 0 and 0xFF gives inf (step 3 turns it into NaN). fp16 takes
/// the fp32 value rounded to nearest even.
TValue scaleValue(Gen &g, const TValue &s, const DType &compute,
                  SourceLoc loc) {
  bool viaF32 = compute.kind != DType::BF16;
  DType bitsType = viaF32 ? DType::U32 : DType::U16;
  DType floatType = viaF32 ? DType::F32 : DType::BF16;
  int mant = viaF32 ? 23 : bitsOf(compute).mantissa;
  TValue shifted = binop(g, BinOpKind::LShift, g.cast(s, bitsType, loc),
                         splatConst(g, bitsType, mant, s.shape), loc);
  TValue f = g.cast(shifted, floatType, loc, /*bitcast=*/true);
  return g.cast(f, compute, loc);
}

/// The value of e4m3 (float8e4nv) scales in the compute type: cvt where
/// the target has it (sm_89 and later); before that, rebuilt from the bits
/// like e2m1Bits: a non-zero exponent is rebiased (7 -> the compute type's)
/// with the 3 mantissa bits on top, exponent 0 is the subnormal m * 2**-9
/// (exact in bf16 and fp16), S.1111.111 is NaN.
TValue e4m3Value(Gen &g, const TValue &s, const DType &compute, SourceLoc loc) {
  if (g.smVersion() >= 89)
    return g.cast(s, compute, loc);
  auto [mant, bias] = bitsOf(compute);
  const auto &shape = s.shape;
  auto u16 = [&](int64_t v) { return splatConst(g, DType::U16, v, shape); };
  auto fconst = [&](double v) {
    return g.constant(compute, Val::floating(v), shape);
  };
  TValue bits =
      g.cast(g.cast(s, DType::U8, loc, /*bitcast=*/true), DType::U16, loc);
  TValue exponent =
      binop(g, BinOpKind::BitAnd,
            binop(g, BinOpKind::RShift, bits, u16(3), loc), u16(0xF), loc);
  TValue mantissa = binop(g, BinOpKind::BitAnd, bits, u16(0x7), loc);
  TValue normal =
      g.cast(binop(g, BinOpKind::BitOr,
                   binop(g, BinOpKind::LShift,
                         binop(g, BinOpKind::Add, exponent, u16(bias - 7), loc),
                         u16(mant), loc),
                   Val::tensor(binop(g, BinOpKind::LShift, mantissa,
                                     u16(mant - 3), loc)),
                   loc),
             compute, loc, /*bitcast=*/true);
  TValue subnormal = binop(g, BinOpKind::Mul, g.cast(mantissa, compute, loc),
                           Val::tensor(fconst(std::ldexp(1.0, -9))), loc);
  TValue magnitude =
      select(g, equals(g, exponent, 0, loc), subnormal, normal, loc);
  TValue isNaN =
      equals(g, binop(g, BinOpKind::BitAnd, bits, u16(0x7F), loc), 0x7F, loc);
  magnitude = select(g, isNaN, fconst(std::nan("")), magnitude, loc);
  TValue negative =
      g.compare(CmpOpKind::Ge, Val::tensor(bits), u16(0x80), loc).t;
  TValue negated =
      g.toTensor(g.unary(UnaryOpKind::Neg, Val::tensor(magnitude), loc), loc);
  return select(g, negative, negated, magnitude, loc);
}

/// Steps 1-3 for one operand: the tile in the compute type, scaled along
/// K (`kAxis`: 1 for lhs, 0 for rhs). `scale` is [M, K/block] for lhs and
/// [N, K/block] for rhs (both keep K last).
TValue upcastScaled(Gen &g, const ScaledOperand &op, int kAxis,
                    const DType &compute, bool fastMath, SourceLoc loc) {
  TValue v = op.format == ScaledFormat::E2M1
                 ? unpackE2M1(g, op.data, op.packedAxis, compute, loc)
                 : g.cast(op.data, compute, loc);
  if (!op.scale)
    return v;
  TValue s = *op.scale;
  if (kAxis == 0)
    s = transpose(g, s);
  s = repeatAlong(g, s, kAxis, op.scaleBlock(), loc);
  if (op.e4m3Scale)
    return binop(g, BinOpKind::Mul, v,
                 Val::tensor(e4m3Value(g, s, compute, loc)), loc);
  v = binop(g, BinOpKind::Mul, v, Val::tensor(scaleValue(g, s, compute, loc)),
            loc);
  if (fastMath)
    return v;
  TValue nan = g.constant(compute, Val::floating(std::nan("")), v.shape);
  return select(g, equals(g, s, kScaleNaN, loc), nan, v, loc);
}

} // namespace

//===----------------------------------------------------------------------===//
// sm_100a: block-scaled tcgen05
//===----------------------------------------------------------------------===//

namespace {

namespace tg = ::mlir::txlgpu;

/// The permutation of `x` by `order` (tl.permute).
TValue permute(Gen &g, const TValue &x, const std::vector<int32_t> &order) {
  std::vector<int64_t> shape;
  for (int32_t d : order)
    shape.push_back(x.shape[d]);
  Value r =
      ::mlir::txl::TransOp::create(g.b, g.cur, g.mlirType(x.dtype, shape),
                                   x.value, g.b.getDenseI32ArrayAttr(order));
  return {r, x.dtype, shape};
}

/// `x` repeated `times` times along a new outer axis merged into `axis`
/// (0 or 1 of a 2-D tile): x, x, ... one after the other, so element i of
/// the result is x's element i % size.
TValue tileAlong(Gen &g, const TValue &x, int axis, int64_t times,
                 SourceLoc loc) {
  if (times == 1)
    return x;
  std::vector<int64_t> wide = x.shape;
  wide.insert(wide.begin() + axis, times);
  TValue w = g.broadcastTo(g.expandDims(x, axis, loc), wide, loc);
  std::vector<int64_t> merged = x.shape;
  merged[axis] *= times;
  return g.reshape(w, merged, /*allowReorder=*/false, loc);
}

/// The scales [rows, K/block] of one operand as tcgen05.cp copies them:
/// rows padded to `paddedRows` (a multiple of 128) and the K groups to a
/// multiple of 4 by repeating the tile (the padding is never read), then
/// each K group g of row r at byte scaleFactorSharedOffset(r, g, padded
/// rows) of a [bytes / 16, 16] tile: [r2 r1 r0][k1 k0] (r = 128 r2 + 32 r1
/// + r0, g = 4 k1 + k0) permuted to [k1 r2 r0][r1 k0].
TValue scaleTileBytes(Gen &g, const TValue &scale, int64_t paddedRows,
                      int64_t paddedGroups, SourceLoc loc) {
  TValue s = tileAlong(g, scale, 1, paddedGroups / scale.shape[1], loc);
  s = tileAlong(g, s, 0, paddedRows / scale.shape[0], loc);
  s = g.reshape(s, {paddedRows / 128, 4, 32, paddedGroups / 4, 4},
                /*allowReorder=*/false, loc);
  s = permute(g, s, {3, 0, 2, 1, 4});
  return g.reshape(s, {paddedRows * paddedGroups / 16, 16},
                   /*allowReorder=*/false, loc);
}

/// A register tile written to shared memory in `enc`.
Value sharedTile(Gen &g, const TValue &x, Attribute enc) {
  auto type = tg::MemDescType::get(&g.ctx, x.shape, g.mlirType(x.dtype), enc);
  return tg::LocalAllocOp::create(g.b, g.cur, type, x.value);
}

/// A K-major swizzled MMA operand tile (kDim: 1 for A [M, K], 0 for B).
Value operandTile(Gen &g, const TValue &x, unsigned kDim) {
  SmallVector<unsigned> order = {kDim, 1 - kDim};
  unsigned swizzle = ::txl::largestSwizzleBytes(x.shape, 8, order);
  return sharedTile(
      g, x, tg::NVMMASharedEncodingAttr::get(&g.ctx, swizzle, 8, order));
}

/// A [128, columns] tensor-memory buffer of its own, allocated at entry.
Value tensorMemory(Gen &g, OpBuilder &entry, int64_t columns, Type elem) {
  Attribute enc = tg::TensorMemoryEncodingAttr::get(&g.ctx);
  auto stages = tg::TMemAllocOp::create(
      entry, g.cur, tg::MemDescType::get(&g.ctx, {1, 128, columns}, elem, enc),
      IntegerAttr(), IntegerAttr());
  Value zero = arith::ConstantIntOp::create(entry, g.cur, 0, 32);
  return tg::MemDescIndexOp::create(
      entry, g.cur, tg::MemDescType::get(&g.ctx, {128, columns}, elem, enc),
      stages, zero);
}

bool isFp8(ScaledFormat f) {
  return f == ScaledFormat::E4M3 || f == ScaledFormat::E5M2;
}

const char *formatName(ScaledFormat f) {
  switch (f) {
  case ScaledFormat::E2M1:
    return "e2m1";
  case ScaledFormat::E4M3:
    return "e4m3";
  case ScaledFormat::E5M2:
    return "e5m2";
  case ScaledFormat::BF16:
    return "bf16";
  default:
    return "fp16";
  }
}

/// Whether the call can be one block-scaled tcgen05 MMA (M = 128, N a
/// multiple of 16 up to 256, K whole instructions of 32 bytes) issued
/// synchronously by the whole CTA (one warpgroup of 4 or 8 warps, not in a
/// warp role or under a divergent branch), with both scales given, the
/// formats one kind (e4m3/e5m2 on both sides: mxf8f6f4; e2m1 on both,
/// packed along K: mxf4, or mxf4nvf4 with e4m3 scales on both sides) and
/// the accumulator, if any, an fp32 [M, N] tile.
bool nativeScaledDotFits(Gen &g, const ScaledOperand &lhs,
                         const ScaledOperand &rhs,
                         const std::optional<Val> &acc) {
  const CompileOptions &o = g.opts;
  if (!::txl::targetHasTcgen05(o.target) ||
      (o.numWarps != 4 && o.numWarps != 8) || o.numWarpgroups != 1 ||
      g.extraWarps || !g.roleWarps.empty() || g.divergentDepth > 0)
    return false;
  if (!lhs.scale || !rhs.scale)
    return false;
  bool fp4 = lhs.format == ScaledFormat::E2M1 &&
             rhs.format == ScaledFormat::E2M1 && lhs.packedAxis == 1 &&
             rhs.packedAxis == 0;
  if (!fp4 && !(isFp8(lhs.format) && isFp8(rhs.format)))
    return false;
  if (lhs.e4m3Scale != rhs.e4m3Scale || (lhs.e4m3Scale && !fp4))
    return false;
  int64_t M = lhs.shape[0], N = rhs.shape[1], K = lhs.shape[1];
  int64_t kBytes = fp4 ? K / 2 : K;
  if (M != 128 || N % 16 || N > 256 || kBytes % 32)
    return false;
  if (acc && !acc->isNone() &&
      (!acc->isTensor() || acc->t.dtype.kind != DType::F32 ||
       acc->t.shape != std::vector<int64_t>{M, N}))
    return false;
  // Tensor memory: the accumulator and both scale tiles' columns.
  int64_t groups = std::max<int64_t>(4, K / lhs.scaleBlock());
  int64_t bRows = std::max<int64_t>(128, N);
  return N + groups + groups / 4 * (bRows / 32) <= 512;
}

} // namespace

/// tl.dot_scaled as block-scaled tcgen05 (nativeScaledDotFits says when):
/// the accumulator (if given) is stored to a tensor-memory buffer of this
/// call site; A [128, K], B [K, N] (K-major, swizzled) and both scale
/// tiles are written to shared memory; a CTA barrier publishes all of it
/// (fenced for the async proxy); then one elected thread copies the scales
/// to tensor memory, issues the MMAs and commits them to a barrier of the
/// call site, every thread waits for that commit (kSyncCommitAttr) and the
/// accumulator is read back. In a K loop that accumulates, PipelineTCGen05Dots
/// later keeps the accumulator in tensor memory and the MMAs in flight.
static std::optional<Val> nativeScaledDot(Gen &g, const ScaledOperand &lhs,
                                          const ScaledOperand &rhs,
                                          const std::optional<Val> &acc,
                                          SourceLoc loc) {
  if (!nativeScaledDotFits(g, lhs, rhs, acc))
    return std::nullopt;
  int64_t N = rhs.shape[1], K = lhs.shape[1];
  int64_t groups = std::max<int64_t>(4, K / lhs.scaleBlock());
  int64_t bRows = std::max<int64_t>(128, N);
  auto func = g.b.getInsertionBlock()->getParentOp();
  if (!isa<func::FuncOp>(func))
    func = func->getParentOfType<func::FuncOp>();
  OpBuilder entry = OpBuilder::atBlockBegin(&cast<func::FuncOp>(func).front());
  Value d = tensorMemory(g, entry, N, g.b.getF32Type());
  Value aScale = tensorMemory(g, entry, groups, g.b.getI32Type());
  Value bScale =
      tensorMemory(g, entry, groups / 4 * (bRows / 32), g.b.getI32Type());
  Type bars = tg::MemDescType::get(&g.ctx, {1}, g.b.getI64Type(),
                                   tg::BarrierEncodingAttr::get(&g.ctx));
  auto alloc = tg::MBarAllocOp::create(
      entry, g.cur, bars, uint32_t(g.opts.numWarps * kThreadsPerWarp + 1));
  Value zero = arith::ConstantIntOp::create(entry, g.cur, 0, 32);
  Value bar = tg::MemDescIndexOp::create(entry, g.cur, bars, alloc, zero);

  bool useD = acc && !acc->isNone();
  if (useD)
    tg::TMemStoreOp::create(g.b, g.cur, d, acc->t.value);
  Value a = operandTile(g, lhs.data, 1);
  Value b = operandTile(g, rhs.data, 0);
  Attribute plain = tg::NVMMASharedEncodingAttr::get(&g.ctx, 0, 8, {1, 0});
  Value aScaleTile =
      sharedTile(g, scaleTileBytes(g, *lhs.scale, 128, groups, loc), plain);
  Value bScaleTile =
      sharedTile(g, scaleTileBytes(g, *rhs.scale, bRows, groups, loc), plain);
  auto publish = tg::BarrierOp::create(g.b, g.cur);
  publish->setAttr(tg::TXLGPUDialect::kFenceAsyncProxyAttr, g.b.getUnitAttr());
  auto mma = tg::TCGen05MMAScaledOp::create(
      g.b, g.cur, a, b, d, aScaleTile, bScaleTile, aScale, bScale,
      arith::ConstantIntOp::create(g.b, g.cur, useD, 1), bar,
      g.b.getStringAttr(formatName(lhs.format)),
      g.b.getStringAttr(formatName(rhs.format)), g.b.getI32IntegerAttr(0));
  // Synchronous here; PipelineTCGen05Dots makes a K loop's asynchronous.
  mma->setAttr(tg::kSyncCommitAttr, g.b.getUnitAttr());
  std::vector<int64_t> shape = {128, N};
  Value result =
      tg::TMemLoadOp::create(g.b, g.cur, g.mlirType(DType::F32, shape), d);
  return Val::tensor(TValue{result, DType::F32, shape});
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

namespace {

bool constFlag(Gen &g, const std::optional<Val> &v, bool dflt,
               const std::string &what, SourceLoc loc) {
  if (!v || v->isNone())
    return dflt;
  if (!v->isConstant())
    g.fail(loc, "tl.dot_scaled: " + what + " must be a compile-time constant");
  return g.truthy(*v, loc);
}

ScaledFormat formatArg(Gen &g, const std::optional<Val> &v,
                       const std::string &which, SourceLoc loc) {
  const char *expected = "'e2m1', 'e4m3', 'e5m2', 'bf16' or 'fp16'";
  if (!v || v->kind != Val::Kind::Str)
    g.fail(loc, "tl.dot_scaled: " + which +
                    "_format must be a string constant: " + expected);
  if (std::optional<ScaledFormat> f = parseFormat(v->s))
    return *f;
  g.fail(loc, "tl.dot_scaled: unknown " + which + "_format '" + v->s +
                  "' (expected " + expected + ")");
}

/// The data of one operand, bitcast to its format's float type where it is
/// given as unsigned bits (Triton accepts both); e2m1 stays uint8.
TValue formatData(Gen &g, const TValue &x, ScaledFormat f,
                  const std::string &which, const std::string &fmt,
                  SourceLoc loc) {
  if (f == ScaledFormat::E2M1) {
    if (x.dtype.kind != DType::U8)
      g.fail(loc, "tl.dot_scaled: " + which +
                      " in format 'e2m1' must be uint8 (two values per "
                      "byte), got " +
                      x.typeStr());
    return x;
  }
  DType ft = floatTypeOf(f);
  if (x.dtype == ft)
    return x;
  DType bits = ft.bitWidth() == 8 ? DType::U8 : DType::U16;
  if (x.dtype != bits)
    g.fail(loc, "tl.dot_scaled: " + which + " in format '" + fmt +
                    "' must be " + ft.str() + " or " + bits.str() + ", got " +
                    x.typeStr());
  return g.cast(x, ft, loc, /*bitcast=*/true);
}

ScaledOperand operandArg(Gen &g, const std::string &which, int opIdx,
                         const std::optional<Val> &data,
                         const std::optional<Val> &scale,
                         const std::optional<Val> &format,
                         const std::optional<Val> &kPackArg, SourceLoc loc) {
  ScaledOperand op;
  op.format = formatArg(g, format, which, loc);
  TValue x = g.tensorArg(data, which.c_str(), loc);
  if (x.shape.size() != 2)
    g.fail(loc, "tl.dot_scaled needs 2-D operands, got " + which + " " +
                    x.typeStr() +
                    (x.shape.size() == 3 ? " (batched dot_scaled is not "
                                           "supported yet)"
                                         : ""));
  op.data = formatData(g, x, op.format, which, format->s, loc);
  bool kPack = constFlag(g, kPackArg, true, which + "_k_pack", loc);
  if (!kPack && op.format != ScaledFormat::E2M1)
    g.fail(loc, "tl.dot_scaled: only e2m1 operands can be packed along a "
                "dimension other than K (" +
                    which + "_k_pack=False with format '" + format->s + "')");
  int kAxis = opIdx == 0 ? 1 : 0;
  op.shape = x.shape;
  if (op.format == ScaledFormat::E2M1) {
    op.packedAxis = kPack ? kAxis : 1 - kAxis;
    op.shape[op.packedAxis] *= 2;
  }
  if (scale && !scale->isNone()) {
    TValue s = g.tensorArg(scale, (which + "_scale").c_str(), loc);
    if (s.dtype.kind == DType::I8)
      s = g.cast(s, DType::U8, loc, /*bitcast=*/true);
    op.e4m3Scale = s.dtype.kind == DType::F8E4NV;
    if (s.dtype.kind != DType::U8 && !op.e4m3Scale)
      g.fail(loc, "tl.dot_scaled: " + which +
                      "_scale must hold uint8 e8m0 exponents (or float8e4nv "
                      "factors with e2m1 operands: nvfp4), got " +
                      s.typeStr());
    if (op.e4m3Scale && op.format != ScaledFormat::E2M1)
      g.fail(loc, "tl.dot_scaled: float8e4nv scales (nvfp4) need format "
                  "'e2m1', but " +
                      which + "_format is '" + format->s + "'");
    op.scale = s;
  }
  return op;
}

/// Checks a scale against its operand: [rows, K/block].
void checkScaleShape(Gen &g, const ScaledOperand &op, const std::string &which,
                     int64_t rows, int64_t k, SourceLoc loc) {
  if (!op.scale)
    return;
  int64_t block = op.scaleBlock();
  std::string b = std::to_string(block);
  if (k % block != 0)
    g.fail(loc, "tl.dot_scaled: K = " + std::to_string(k) +
                    " is not a multiple of " + b +
                    ", the number of elements that share one " +
                    (op.e4m3Scale ? "float8e4nv scale (nvfp4)" : "scale"));
  std::vector<int64_t> want = {rows, k / block};
  if (op.scale->shape != want)
    g.fail(loc, "tl.dot_scaled: " + which + "_scale must be [" +
                    (which == "lhs" ? "M" : "N") + ", K/" + b +
                    "] = " + shapeStr(want) + ", got " + op.scale->typeStr());
}

} // namespace

Val Gen::callDotScaled(CallArgs &args, SourceLoc loc) {
  auto p =
      bind(args,
           {"lhs", "lhs_scale", "lhs_format", "rhs", "rhs_scale", "rhs_format",
            "acc", "fast_math", "lhs_k_pack", "rhs_k_pack", "out_dtype"},
           6, "tl.dot_scaled", loc);
  if (p[10] && !p[10]->isNone() &&
      constDType(p[10], "out_dtype", loc).kind != DType::F32)
    fail(loc, "tl.dot_scaled: only out_dtype=tl.float32 is supported");
  bool fastMath = constFlag(*this, p[7], false, "fast_math", loc);
  ScaledOperand lhs = operandArg(*this, "lhs", 0, p[0], p[1], p[2], p[8], loc);
  ScaledOperand rhs = operandArg(*this, "rhs", 1, p[3], p[4], p[5], p[9], loc);
  int64_t k = lhs.shape[1];
  if (rhs.shape[0] != k)
    fail(loc, "tl.dot_scaled: the operands' K differ: lhs holds " +
                  shapeStr(lhs.shape) + " and rhs " + shapeStr(rhs.shape) +
                  " elements (e2m1 counts two per byte)");
  if (lhs.scale && rhs.scale && lhs.e4m3Scale != rhs.e4m3Scale)
    fail(loc, "tl.dot_scaled: the scales' formats differ: lhs_scale is " +
                  lhs.scale->typeStr() + " and rhs_scale " +
                  rhs.scale->typeStr() +
                  " (nvfp4 takes float8e4nv scales on both sides)");
  checkScaleShape(*this, lhs, "lhs", lhs.shape[0], k, loc);
  checkScaleShape(*this, rhs, "rhs", rhs.shape[1], k, loc);
  if (std::optional<Val> native = nativeScaledDot(*this, lhs, rhs, p[6], loc))
    return *native;
  bool anyFp16 =
      lhs.format == ScaledFormat::FP16 || rhs.format == ScaledFormat::FP16;
  DType compute = anyFp16 ? DType::F16 : DType::BF16;
  TValue a = upcastScaled(*this, lhs, /*kAxis=*/1, compute, fastMath, loc);
  TValue bt = upcastScaled(*this, rhs, /*kAxis=*/0, compute, fastMath, loc);
  return Val::tensor(dot(a, bt, p[6], ::mlir::txl::InputPrecision::TF32, loc));
}
