//===- Dot.cpp - tl.dot and the `@` operator ------------------------------===//
//
// Triton's rules: 2-D operands of one type, K at least 16 (M and N may be
// smaller: the mma.sync tile is padded). Batched operands [B, M, K] x
// [B, K, N] give [B, M, N]; more leading dims than one are flattened into
// one batch dim and restored on the result (Triton does the same), so the
// compiler sees only 2-D and 3-D dots. The result is int32 for int8 operands,
// fp32 for fp32 and bf16, fp64 for fp64, and out_dtype (fp32 or fp16) for fp16
// and fp8; bf16 is never a result type. fp16 operands with out_dtype=fp16
// accumulate in fp16 (the f16 accumulators of mma.sync and wgmma); fp8 ones
// accumulate in fp32 and round once at the end.
//
// fp32 operands are multiplied as input_precision says:
//   tf32    one tensor-core dot on the operands rounded to tf32;
//   ieee    fp32 FMAs, no tensor cores (fp64 operands always take FMAs,
//           see DotOp::isFMA);
//   tf32x3, bf16x3, bf16x6
//           each operand split into pieces a = a0 + a1 (+ a2) that the
//           tensor cores take exactly (tf32: a0 keeps the top 19 bits, a1
//           is the rest, which the MMA rounds; bf16: each piece is the
//           remainder rounded to bf16), then one dot per product of pieces
//           whose magnitude matters, smallest first, and a0 * b0 last. 3 or
//           6 dots of ~2^-22 relative error instead of tf32's ~2^-11.
// The split forms are built here, as ordinary dots, so that every later
// stage sees only tf32, ieee and 16-bit dots.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "txl/Dialect/TXL/IR/Dialect.h"

using namespace txl;
using namespace txl::irgen;
using namespace mlir;
using ::mlir::txl::InputPrecision;

namespace {

InputPrecision precisionArg(Gen &g, const std::optional<Val> &p,
                            const std::optional<Val> &tf32, SourceLoc loc) {
  if (p && !p->isNone()) {
    if (p->kind != Val::Kind::Str)
      g.fail(loc, "input_precision must be a string");
    if (auto parsed = ::mlir::txl::symbolizeInputPrecision(p->s))
      return *parsed;
    g.fail(loc, "input_precision must be 'tf32', 'tf32x3', 'ieee', 'bf16x3' "
                "or 'bf16x6', got '" +
                    p->s + "'");
  }
  if (tf32 && !tf32->isNone() && !g.truthy(*tf32, loc))
    return InputPrecision::IEEE;
  return InputPrecision::TF32;
}

/// The element type of tl.dot's result for `operand` elements and the
/// requested `out` (Triton's rules, see the file comment).
DType resultDType(Gen &g, const DType &operand, const DType &out,
                  SourceLoc loc) {
  if (operand.isInt())
    return DType::I32;
  if (out.kind == DType::BF16)
    g.fail(loc, "tl.dot: out_dtype=bfloat16 is unsupported; use "
                "out_dtype=tl.float32 and cast with .to(tl.bfloat16)");
  if (operand.kind == DType::F32 || operand.kind == DType::BF16)
    return DType::F32;
  if (operand.kind == DType::F64)
    return DType::F64;
  if (out.kind != DType::F32 && out.kind != DType::F16)
    g.fail(loc, "tl.dot: out_dtype must be tl.float32 or tl.float16 for " +
                    operand.str() + " operands, got " + out.str());
  return out;
}

/// One txl.dot: a @ b + c, in c's type.
TValue emitDot(Gen &g, const TValue &a, const TValue &b, const TValue &c,
               InputPrecision precision) {
  Value d = ::mlir::txl::DotOp::create(g.b, g.cur, c.value.getType(), a.value,
                                       b.value, c.value, precision);
  return {d, c.dtype, c.shape};
}

TValue binop(Gen &g, BinOpKind op, const TValue &x, const TValue &y,
             SourceLoc loc) {
  return g.toTensor(g.binary(op, Val::tensor(x), Val::tensor(y), loc), loc);
}

/// fp32 `x` as pieces the tensor cores multiply exactly, largest first.
std::vector<TValue> splitOperand(Gen &g, const TValue &x,
                                 InputPrecision precision, SourceLoc loc) {
  if (precision == InputPrecision::TF32x3) {
    // tf32 keeps 10 of fp32's 23 mantissa bits: clearing the low 13 bits
    // gives the high piece exactly; x - hi is exact too.
    TValue bits = g.cast(x, DType::I32, loc, /*bitcast=*/true);
    TValue mask =
        g.constant(DType::I32, Val::integer(int32_t(0xffffe000)), x.shape);
    TValue hi = g.cast(binop(g, BinOpKind::BitAnd, bits, mask, loc), DType::F32,
                       loc, /*bitcast=*/true);
    return {hi, binop(g, BinOpKind::Sub, x, hi, loc)};
  }
  int pieces = precision == InputPrecision::BF16x3 ? 2 : 3;
  std::vector<TValue> out;
  TValue rest = x;
  for (int i = 0; i < pieces; ++i) {
    out.push_back(g.cast(rest, DType::BF16, loc));
    if (i + 1 < pieces)
      rest = binop(g, BinOpKind::Sub, rest, g.cast(out.back(), DType::F32, loc),
                   loc);
  }
  return out;
}

/// a @ b + c for fp32 operands at a split precision (see the file comment).
TValue splitPrecisionDot(Gen &g, const TValue &a, const TValue &b,
                         const TValue &c, InputPrecision precision, bool hasAcc,
                         SourceLoc loc) {
  std::vector<TValue> as = splitOperand(g, a, precision, loc);
  std::vector<TValue> bs = splitOperand(g, b, precision, loc);
  // Index pairs of the correction products, smallest first; a0 * b0 last.
  std::vector<std::pair<int, int>> terms =
      as.size() == 2 ? std::vector<std::pair<int, int>>{{1, 0}, {0, 1}}
                     : std::vector<std::pair<int, int>>{
                           {2, 0}, {0, 2}, {1, 1}, {1, 0}, {0, 1}};
  TValue zero = g.constant(DType::F32, Val::floating(0.0), c.shape);
  TValue corr = zero;
  for (auto [i, j] : terms)
    corr = emitDot(g, as[i], bs[j], corr, InputPrecision::TF32);
  // An infinite operand makes its pieces inf - inf = NaN: the corrections
  // are then dropped so that a0 * b0 carries the infinity (a NaN operand
  // still gives NaN through a0 * b0).
  TValue isNaN = g.toTensor(
      g.compare(CmpOpKind::NotEq, Val::tensor(corr), Val::tensor(corr), loc),
      loc);
  corr =
      g.where(Val::tensor(isNaN), Val::tensor(zero), Val::tensor(corr), loc).t;
  TValue d = emitDot(g, as[0], bs[0], corr, InputPrecision::TF32);
  return hasAcc ? binop(g, BinOpKind::Add, d, c, loc) : d;
}

} // namespace

/// The shape of a dot of `a` [..., M, K] and `b` [..., K, N] with the
/// batch dims of `a` (checked equal to `b`'s).
static std::vector<int64_t> dotShape(Gen &g, const TValue &a, const TValue &b,
                                     SourceLoc loc) {
  size_t rank = a.shape.size();
  if (rank < 2 || b.shape.size() != rank)
    g.fail(loc, "tl.dot needs 2-D operands, or batched ones of one rank "
                "([..., M, K] @ [..., K, N]), got " +
                    a.typeStr() + " and " + b.typeStr());
  if (!std::equal(a.shape.begin(), a.shape.end() - 2, b.shape.begin()))
    g.fail(loc, "tl.dot: batch dimensions differ: " + a.typeStr() + " @ " +
                    b.typeStr());
  if (a.shape[rank - 1] != b.shape[rank - 2])
    g.fail(loc, "tl.dot: inner dimensions differ: " + a.typeStr() + " @ " +
                    b.typeStr());
  std::vector<int64_t> shape(a.shape.begin(), a.shape.end() - 1);
  shape.push_back(b.shape[rank - 1]);
  return shape;
}

/// `x` [d0, ..., dn-3, R, C] as [d0 * ... * dn-3, R, C].
static TValue flattenBatch(Gen &g, const TValue &x, SourceLoc loc) {
  size_t rank = x.shape.size();
  int64_t batch = 1;
  for (size_t d = 0; d + 2 < rank; ++d)
    batch *= x.shape[d];
  return g.reshape(x, {batch, x.shape[rank - 2], x.shape[rank - 1]},
                   /*allowReorder=*/false, loc);
}

TValue Gen::dot(const TValue &a, const TValue &bm,
                const std::optional<Val> &acc, InputPrecision precision,
                SourceLoc loc, DType out) {
  const TValue &b_ = bm; // `b` is the builder
  std::vector<int64_t> shape = dotShape(*this, a, b_, loc);
  size_t rank = shape.size();
  if (rank > 3) {
    std::optional<Val> flatAcc = acc;
    if (acc && acc->isTensor() && acc->t.shape == shape)
      flatAcc = Val::tensor(flattenBatch(*this, acc->t, loc));
    else if (acc && !acc->isNone())
      fail(loc, "tl.dot: acc must be a " + shapeStr(shape) + " tensor");
    TValue d = dot(flattenBatch(*this, a, loc), flattenBatch(*this, b_, loc),
                   flatAcc, precision, loc, out);
    return reshape(d, shape, /*allowReorder=*/false, loc);
  }
  int64_t K = a.shape[rank - 1];
  // M and N may be small (the tensor cores compute a padded tile whose
  // extra rows and columns repeat real ones); K is summed over, so it must
  // fill an instruction.
  if (K < 16)
    fail(loc,
         "tl.dot needs K >= 16, got " + a.typeStr() + " @ " + b_.typeStr());
  if (a.dtype != b_.dtype && !(a.dtype.isFP8() && b_.dtype.isFP8()))
    fail(loc, "tl.dot operands must have the same type, got " + a.typeStr() +
                  " and " + b_.typeStr());
  // One 8-bit mma/wgmma instruction is 32 deep (Triton: K >= 32).
  if (a.dtype.bitWidth() == 8 && K < 32)
    fail(loc, "tl.dot of 8-bit operands needs K >= 32, got " + a.typeStr() +
                  " @ " + b_.typeStr());
  bool isInt = a.dtype.isInt();
  if (isInt && a.dtype.kind != DType::I8)
    fail(loc, "tl.dot: only int8 is supported among integer operands, got " +
                  a.typeStr());
  if (!isInt && !a.dtype.isFloat())
    fail(loc, "tl.dot supports int8, fp16, bf16, fp32, fp64 and fp8 "
              "operands, got " +
                  a.typeStr());
  DType result = resultDType(*this, a.dtype, out, loc);
  // fp8 operands accumulate in fp32 whatever the result type.
  DType accType = a.dtype.isFP8() ? DType(DType::F32) : result;
  bool hasAcc = acc && !acc->isNone();
  TValue c;
  if (!hasAcc) {
    c = isInt ? constant(accType, Val::integer(0), shape)
              : constant(accType, Val::floating(0.0), shape);
  } else {
    if (!acc->isTensor() || acc->t.shape != shape)
      fail(loc, "tl.dot: acc must be a " + shapeStr(shape) + " tensor");
    if (acc->t.dtype != result)
      fail(loc, std::string("tl.dot: ") +
                    (isInt ? "int8 operands need an int32 accumulator, got "
                           : "the accumulator must have the result's type " +
                                 result.str() + " (out_dtype), got ") +
                    acc->t.typeStr());
    c = cast(acc->t, accType, loc);
  }
  // Only fp32 operands have a precision to choose.
  if (a.dtype.kind != DType::F32)
    precision = InputPrecision::TF32;
  TValue d;
  if (precision == InputPrecision::TF32x3 ||
      precision == InputPrecision::BF16x3 ||
      precision == InputPrecision::BF16x6)
    d = splitPrecisionDot(*this, a, b_, c, precision, hasAcc, loc);
  else
    d = emitDot(*this, a, b_, c, precision);
  return cast(d, result, loc);
}

Val Gen::callDot(CallArgs &args, SourceLoc loc) {
  auto p = bind(args,
                {"input", "other", "acc", "input_precision", "allow_tf32",
                 "max_num_imprecise_acc", "out_dtype"},
                2, "tl.dot", loc);
  auto inSharedMemory = [](const std::optional<Val> &v) {
    return v && v->isTensor() && !v->t.isReg();
  };
  if (inSharedMemory(p[0]) || inSharedMemory(p[1]))
    return asyncDot(p[0]->t, p[1]->t, p[2], loc);
  TValue a = tensorArg(p[0], "input", loc);
  TValue bt = tensorArg(p[1], "other", loc);
  // Triton: int8 operands give int32 whatever out_dtype says, but an
  // explicit accumulator must have type out_dtype (float32 by default).
  bool isInt = a.dtype.isInt();
  DType out = p[6] && !p[6]->isNone() ? constDType(p[6], "out_dtype", loc)
                                      : DType(DType::F32);
  if (isInt && p[2] && !p[2]->isNone() && p[2]->isTensor() &&
      p[2]->t.dtype != out)
    fail(loc, "tl.dot: acc has type " + p[2]->t.dtype.str() +
                  " but out_dtype is " + out.str() +
                  " (pass out_dtype=tl.int32 with an int32 accumulator)");
  return Val::tensor(
      dot(a, bt, p[2], precisionArg(*this, p[3], p[4], loc), loc, out));
}
