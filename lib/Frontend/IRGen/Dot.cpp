//===- Dot.cpp - tl.dot and the `@` operator ------------------------------===//
//
// Triton's rules: 2-D operands of one floating type with every dimension at
// least 16, an fp32 accumulator (a zero one when `acc` is absent), fp32
// operands rounded to tf32 unless input_precision says otherwise; int8
// operands accumulate in int32 (mma.sync s8 / wgmma s8, saturating like
// Triton's).
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "txl/Dialect/TXL/IR/Dialect.h"

using namespace txl;
using namespace txl::irgen;
using namespace mlir;

static ::mlir::txl::InputPrecision precisionArg(Gen &g,
                                                const std::optional<Val> &p,
                                                const std::optional<Val> &tf32,
                                                SourceLoc loc) {
  if (p && !p->isNone()) {
    if (p->kind != Val::Kind::Str)
      g.fail(loc, "input_precision must be a string");
    if (p->s == "tf32")
      return ::mlir::txl::InputPrecision::TF32;
    if (p->s == "tf32x3")
      return ::mlir::txl::InputPrecision::TF32x3;
    if (p->s == "ieee")
      return ::mlir::txl::InputPrecision::IEEE;
    g.fail(loc, "input_precision must be 'tf32', 'tf32x3' or 'ieee', got '" +
                    p->s + "'");
  }
  if (tf32 && !tf32->isNone() && !g.truthy(*tf32, loc))
    return ::mlir::txl::InputPrecision::IEEE;
  return ::mlir::txl::InputPrecision::TF32;
}

TValue Gen::dot(const TValue &a, const TValue &bm,
                const std::optional<Val> &acc,
                ::mlir::txl::InputPrecision precision, SourceLoc loc) {
  const TValue &b_ = bm; // `b` is the builder
  if (a.shape.size() != 2 || b_.shape.size() != 2)
    fail(loc, "tl.dot needs 2-D operands, got " + a.typeStr() + " and " +
                  b_.typeStr() +
                  (a.shape.size() == 3 ? " (batched dot is not supported yet)"
                                       : ""));
  if (a.shape[1] != b_.shape[0])
    fail(loc, "tl.dot: inner dimensions differ: " + a.typeStr() + " @ " +
                  b_.typeStr());
  for (int64_t d : {a.shape[0], a.shape[1], b_.shape[1]})
    if (d < 16)
      fail(loc, "tl.dot needs every dimension >= 16, got " + a.typeStr() +
                    " @ " + b_.typeStr());
  if (a.dtype != b_.dtype && !(a.dtype.isFP8() && b_.dtype.isFP8()))
    fail(loc, "tl.dot operands must have the same type, got " + a.typeStr() +
                  " and " + b_.typeStr());
  // One 8-bit mma/wgmma instruction is 32 deep (Triton: K >= 32).
  if (a.dtype.bitWidth() == 8 && a.shape[1] < 32)
    fail(loc, "tl.dot of 8-bit operands needs K >= 32, got " + a.typeStr() +
                  " @ " + b_.typeStr());
  bool isInt = a.dtype.isInt();
  if (isInt && a.dtype.kind != DType::I8)
    fail(loc, "tl.dot: only int8 is supported among integer operands, got " +
                  a.typeStr());
  if (!isInt && (!a.dtype.isFloat() || a.dtype.kind == DType::F64))
    fail(loc, "tl.dot supports int8, fp16, bf16, fp32 and fp8 operands, got " +
                  a.typeStr());
  if (a.dtype.kind == DType::F32 &&
      precision != ::mlir::txl::InputPrecision::TF32)
    fail(loc, "tl.dot: only input_precision='tf32' is supported for fp32 "
              "operands so far");
  std::vector<int64_t> shape = {a.shape[0], b_.shape[1]};
  // int8 operands accumulate in int32 (Triton: whatever out_dtype says).
  DType accType = isInt ? DType(DType::I32) : DType(DType::F32);
  TValue c;
  if (!acc || acc->isNone()) {
    c = isInt ? constant(accType, Val::integer(0), shape)
              : constant(accType, Val::floating(0.0), shape);
  } else {
    if (!acc->isTensor() || acc->t.shape != shape)
      fail(loc, "tl.dot: acc must be a [" + std::to_string(shape[0]) + ", " +
                    std::to_string(shape[1]) + "] tensor");
    if (acc->t.dtype != accType)
      fail(loc, std::string("tl.dot: ") +
                    (isInt ? "int8 operands need an int32 accumulator, got "
                           : "only an fp32 accumulator is supported so far, "
                             "got ") +
                    acc->t.typeStr());
    c = acc->t;
  }
  Value d = ::mlir::txl::DotOp::create(b, cur, c.value.getType(), a.value,
                                       b_.value, c.value, precision);
  return {d, accType, shape};
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
  if (!isInt && out.kind != DType::F32)
    fail(loc, "tl.dot: only out_dtype=tl.float32 is supported so far for "
              "floating-point operands");
  if (isInt && p[2] && !p[2]->isNone() && p[2]->isTensor() &&
      p[2]->t.dtype != out)
    fail(loc, "tl.dot: acc has type " + p[2]->t.dtype.str() +
                  " but out_dtype is " + out.str() +
                  " (pass out_dtype=tl.int32 with an int32 accumulator)");
  return Val::tensor(dot(a, bt, p[2], precisionArg(*this, p[3], p[4], loc),
                         loc));
}
