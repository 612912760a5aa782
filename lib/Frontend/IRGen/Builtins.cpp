//===- Builtins.cpp - The tl.* surface: creation, memory, misc ------------===//
#include "Gen.h"
#include "Registry.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <cmath>
#include <iostream>
#include <map>

using namespace mlir;

namespace txl::irgen {

bool isPow2(int64_t v);

static std::string shortName(const std::string &name) {
  return name.rfind("tl.", 0) == 0 ? name : name;
}

std::vector<std::optional<Val>>
Gen::bind(const CallArgs &args, const std::vector<const char *> &params,
          size_t numRequired, const std::string &fname, SourceLoc loc) {
  std::vector<std::optional<Val>> out(params.size());
  if (args.pos.size() > params.size())
    fail(loc, shortName(fname) + "() takes at most " +
                  std::to_string(params.size()) + " arguments but " +
                  std::to_string(args.pos.size()) + " were given");
  for (size_t k = 0; k < args.pos.size(); ++k)
    out[k] = args.pos[k];
  for (auto &[name, v] : args.kw) {
    size_t k = 0;
    while (k < params.size() && name != params[k])
      ++k;
    if (k == params.size())
      fail(loc, shortName(fname) + "() got an unexpected keyword argument '" +
                    name + "'");
    if (out[k])
      fail(loc, shortName(fname) + "() got multiple values for argument '" +
                    name + "'");
    out[k] = v;
  }
  for (size_t k = 0; k < numRequired; ++k)
    if (!out[k])
      fail(loc, shortName(fname) + "() missing required argument '" +
                    params[k] + "'");
  return out;
}

int64_t Gen::constInt(const std::optional<Val> &v, const char *what,
                      SourceLoc loc) {
  if (!v || !v->isIntLike())
    fail(loc, std::string(what) + " must be a compile-time integer" +
                  (v ? ", got " + v->kindName() : std::string()));
  return v->asInt();
}

std::vector<int64_t> Gen::constShape(const Val &v, SourceLoc loc) {
  std::vector<int64_t> shape;
  if (v.isIntLike()) {
    shape.push_back(v.asInt());
  } else if (v.isTuple()) {
    for (const Val &d : v.elts) {
      if (!d.isIntLike())
        fail(loc, "shape elements must be compile-time integers, got " +
                      d.kindName());
      shape.push_back(d.asInt());
    }
  } else {
    fail(loc, "shape must be a tuple of compile-time integers, got " +
                  v.kindName());
  }
  return shape;
}

void Gen::validateShape(const std::vector<int64_t> &shape, SourceLoc loc) {
  int64_t n = 1;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (!isPow2(shape[k]))
      fail(loc, "shape element " + std::to_string(k) +
                    " must be a power of 2, got " + std::to_string(shape[k]));
    n *= shape[k];
    if (n > kMaxNumel)
      fail(loc, "tensor of shape " + shapeStr(shape) +
                    " has more than 1048576 elements");
  }
}

DType Gen::constDType(const std::optional<Val> &v, const char *what,
                      SourceLoc loc) {
  if (!v || v->kind != Val::Kind::DType)
    fail(loc, std::string(what) + " must be a dtype such as tl.float32" +
                  (v ? ", got " + v->kindName() : std::string()));
  return v->dtype;
}

TValue Gen::tensorArg(const std::optional<Val> &v, const char *what,
                      SourceLoc loc) {
  if (!v)
    fail(loc, std::string("missing ") + what);
  if (v->isTensor() && !v->t.isReg())
    fail(loc, std::string(what) + " must be a tensor, got a " +
                  v->t.typeStr());
  if (v->isTensor())
    return v->t;
  if (v->isNumber())
    return toTensor(*v, loc);
  fail(loc, std::string(what) + " must be a tensor, got " + v->kindName());
}

TValue Gen::makeRange(int64_t start, int64_t end, SourceLoc loc) {
  if (start < INT32_MIN || end > INT32_MAX || start >= end)
    fail(loc, "arange's end must be greater than its start and both must "
              "fit in int32");
  if (!isPow2(end - start))
    fail(loc, "arange's range must be a power of two, got " +
                  std::to_string(end - start));
  if (end - start > kMaxNumel)
    fail(loc, "arange's range is too large");
  std::vector<int64_t> shape{end - start};
  Value r = ::mlir::txl::MakeRangeOp::create(b, cur, mlirType(DType::I32, shape),
                                     b.getI32IntegerAttr(int32_t(start)),
                                     b.getI32IntegerAttr(int32_t(end)));
  return {r, DType::I32, shape};
}

namespace {
std::optional<::mlir::txl::CacheModifier> cacheFromString(const std::string &s) {
  if (s.empty())
    return ::mlir::txl::CacheModifier::None;
  if (s == ".ca")
    return ::mlir::txl::CacheModifier::CA;
  if (s == ".cg")
    return ::mlir::txl::CacheModifier::CG;
  if (s == ".wb")
    return ::mlir::txl::CacheModifier::WB;
  if (s == ".cs")
    return ::mlir::txl::CacheModifier::CS;
  if (s == ".wt")
    return ::mlir::txl::CacheModifier::WT;
  if (s == ".cv")
    return ::mlir::txl::CacheModifier::CV;
  return std::nullopt;
}

std::optional<::mlir::txl::EvictionPolicy> evictFromString(const std::string &s) {
  if (s.empty() || s == "evict_normal")
    return ::mlir::txl::EvictionPolicy::Normal;
  if (s == "evict_first")
    return ::mlir::txl::EvictionPolicy::EvictFirst;
  if (s == "evict_last")
    return ::mlir::txl::EvictionPolicy::EvictLast;
  return std::nullopt;
}
} // namespace

static std::string constString(Gen &g, const std::optional<Val> &v,
                               const char *what, SourceLoc loc) {
  if (!v || v->isNone())
    return "";
  if (v->kind != Val::Kind::Str)
    g.fail(loc, std::string(what) + " must be a string");
  return v->s;
}

/// Pointer `ptr` and optional mask broadcast together (load/store).
static void checkPointer(Gen &g, const TValue &ptr, const char *fname,
                         SourceLoc loc) {
  if (!ptr.dtype.isPtr())
    g.fail(loc, std::string("unsupported ptr type ") + ptr.typeStr() +
                    " in `" + fname + "`: expected a pointer or a tensor "
                    "of pointers");
}

static Val loadBlock(Gen &g, std::vector<std::optional<Val>> &p,
                     bool maskOrOther, SourceLoc loc);
static std::vector<int64_t> boundaryCheck(Gen &g, const std::optional<Val> &v,
                                          SourceLoc loc);

static Val load(Gen &g, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args,
                  {"pointer", "mask", "other", "boundary_check",
                   "padding_option", "cache_modifier", "eviction_policy",
                   "volatile"},
                  1, "tl.load", loc);
  bool hasMask = p[1] && !p[1]->isNone();
  bool hasOther = p[2] && !p[2]->isNone();
  if (isBlockPointer(*p[0]))
    return loadBlock(g, p, hasMask || hasOther, loc);
  if (!p[0]->isTensor())
    g.fail(loc, "unsupported ptr type " + p[0]->kindName() +
                    " in `tl.load`: expected a pointer or a tensor of "
                    "pointers");
  TValue ptr = p[0]->t;
  checkPointer(g, ptr, "tl.load", loc);
  if (hasOther && !hasMask)
    g.fail(loc, "`other` cannot be provided without `mask`");
  TValue mask, other;
  if (hasMask) {
    mask = g.tensorArg(p[1], "mask", loc);
    if (!ptr.isTensor() && mask.isTensor())
      g.fail(loc, "mask argument cannot be a block if the pointer argument "
                  "is not a block");
    if (!mask.dtype.isBool())
      g.fail(loc, "mask must have boolean scalar type, got " + mask.typeStr());
    mask = g.broadcastTo(mask, ptr.shape, loc);
  }
  DType elem = *ptr.dtype.pointee;
  bool boolPtr = elem.isBool();
  if (boolPtr) {
    elem = DType::I8;
    ptr = g.cast(ptr, DType::pointerTo(elem, ptr.dtype.addrSpace), loc);
  }
  if (hasOther) {
    TValue o = p[2]->isTensor() ? p[2]->t : g.constant(elem, *p[2]);
    if (o.isTensor() && !ptr.isTensor())
      g.fail(loc, "other argument cannot be a block if the pointer argument "
                  "is not a block");
    other = g.broadcastTo(g.cast(o, elem, loc), ptr.shape, loc);
  }
  auto cache = cacheFromString(constString(g, p[5], "cache_modifier", loc));
  if (!cache)
    g.fail(loc, "unsupported cache modifier '" + p[5]->s + "'");
  auto evict = evictFromString(constString(g, p[6], "eviction_policy", loc));
  if (!evict)
    g.fail(loc, "unsupported eviction policy '" + p[6]->s + "'");
  bool isVolatile = p[7] && p[7]->isConstant() && g.truthy(*p[7], loc);
  Type resultType = g.mlirType(elem, ptr.shape);
  auto op = ::mlir::txl::LoadOp::create(g.b, g.cur, resultType, ptr.value,
                                hasMask ? mask.value : Value(),
                                hasOther ? other.value : Value(), *cache,
                                *evict, isVolatile);
  TValue r{op.getResult(), elem, ptr.shape};
  if (boolPtr)
    r = g.cast(r, DType::I1, loc);
  return Val::tensor(r);
}

/// The dimensions a block-pointer access checks (boundary_check).
static std::vector<int64_t> boundaryCheck(Gen &g, const std::optional<Val> &v,
                                          SourceLoc loc) {
  if (!v || v->isNone())
    return {};
  if (v->isIntLike())
    return {v->asInt()};
  return g.constShape(*v, loc);
}

/// tl.load through a block pointer: the block's pointers, masked on the
/// checked dimensions and padded with zero (or NaN) there, through the
/// ordinary load (p[5..7]: cache, eviction, volatile still apply).
static Val loadBlock(Gen &g, std::vector<std::optional<Val>> &p,
                     bool maskOrOther, SourceLoc loc) {
  if (maskOrOther)
    g.fail(loc, "tl.load: a block pointer takes boundary_check and "
                "padding_option, not mask and other");
  TValue mask;
  TValue ptr = g.blockPointerTensor(*p[0], boundaryCheck(g, p[3], loc), &mask,
                                    loc);
  std::string padding = constString(g, p[4], "padding_option", loc);
  if (!padding.empty() && padding != "zero" && padding != "nan")
    g.fail(loc, "tl.load: padding_option must be \"zero\" or \"nan\", got '" +
                    padding + "'");
  DType elem = *ptr.dtype.pointee;
  if (padding == "nan" && !elem.isFloat())
    g.fail(loc, "tl.load: padding_option=\"nan\" needs a floating-point "
                "tensor, got " + elem.str());
  p[0] = Val::tensor(ptr);
  if (mask.value) {
    p[1] = Val::tensor(mask);
    p[2] = padding == "nan" ? Val::floating(std::nan("")) : Val::integer(0);
  }
  p[3] = std::nullopt;
  p[4] = std::nullopt;
  CallArgs rebound;
  const char *names[] = {"pointer",        "mask",           "other",
                         "boundary_check", "padding_option", "cache_modifier",
                         "eviction_policy", "volatile"};
  for (size_t k = 0; k < p.size(); ++k)
    if (p[k])
      rebound.kw.push_back({names[k], *p[k]});
  rebound.loc = loc;
  return load(g, rebound, loc);
}

static Val store(Gen &g, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args,
                  {"pointer", "value", "mask", "boundary_check",
                   "cache_modifier", "eviction_policy"},
                  2, "tl.store", loc);
  if (isBlockPointer(*p[0])) {
    // Through a block pointer: its pointers, masked on the checked
    // dimensions.
    if (p[2] && !p[2]->isNone())
      g.fail(loc, "tl.store: a block pointer takes boundary_check, not mask");
    TValue mask;
    p[0] = Val::tensor(g.blockPointerTensor(
        *p[0], boundaryCheck(g, p[3], loc), &mask, loc));
    if (mask.value)
      p[2] = Val::tensor(mask);
  }
  if (!p[0]->isTensor())
    g.fail(loc, "unsupported ptr type " + p[0]->kindName() +
                    " in `tl.store`: expected a pointer or a tensor of "
                    "pointers");
  TValue ptr = p[0]->t;
  checkPointer(g, ptr, "tl.store", loc);
  if (ptr.dtype.isConstPtr)
    g.fail(loc, "Cannot store to a constant pointer (a parameter annotated "
                "tl.const)");
  DType elem = *ptr.dtype.pointee;
  if (elem.isBool()) {
    elem = DType::I8;
    ptr = g.cast(ptr, DType::pointerTo(elem, ptr.dtype.addrSpace), loc);
  }
  TValue value = p[1]->isTensor() ? p[1]->t : g.constant(elem, *p[1]);
  if (!p[1]->isTensor() && !p[1]->isNumber())
    g.fail(loc, "value to store must be a tensor or a number, got " +
                    p[1]->kindName());
  if (value.isTensor() && !ptr.isTensor())
    g.fail(loc, "value argument cannot be a block if the pointer argument "
                "is not a block");
  value = g.broadcastTo(g.cast(value, elem, loc), ptr.shape, loc);
  TValue mask;
  bool hasMask = p[2] && !p[2]->isNone();
  if (hasMask) {
    mask = g.tensorArg(p[2], "mask", loc);
    if (!ptr.isTensor() && mask.isTensor())
      g.fail(loc, "mask argument cannot be a block if the pointer argument "
                  "is not a block");
    if (!mask.dtype.isBool())
      g.fail(loc, "mask must have boolean scalar type, got " + mask.typeStr());
    mask = g.broadcastTo(mask, ptr.shape, loc);
  }
  auto cache = cacheFromString(constString(g, p[4], "cache_modifier", loc));
  if (!cache)
    g.fail(loc, "unsupported cache modifier '" + p[4]->s + "'");
  auto evict = evictFromString(constString(g, p[5], "eviction_policy", loc));
  if (!evict)
    g.fail(loc, "unsupported eviction policy '" + p[5]->s + "'");
  auto store = ::mlir::txl::StoreOp::create(
      g.b, g.cur, ptr.value, value.value, hasMask ? mask.value : Value(),
      *cache, *evict);
  if (!ptr.isTensor())
    g.markScalarPerformer(store);
  return Val::none();
}

static Val fullOf(Gen &g, const std::vector<int64_t> &shape, const Val &value,
                  const DType &dtype, SourceLoc loc) {
  g.validateShape(shape, loc);
  if (value.isNumber())
    return Val::tensor(g.constant(dtype, value, shape));
  if (!value.isTensor() || value.t.isTensor())
    g.fail(loc, "tl.full value must be a number or a scalar");
  return Val::tensor(g.splat(g.cast(value.t, dtype, loc), shape));
}

static Val hint(Gen &g, CallArgs &args, SourceLoc loc, bool contiguity,
                const char *fname) {
  auto p = g.bind(args, {"input", "values"}, 2, fname, loc);
  if (!p[0]->isTensor())
    return *p[0]; // a constant needs no hint
  TValue x = p[0]->t;
  std::vector<int64_t> values = g.constShape(*p[1], loc);
  if (values.size() != std::max<size_t>(1, x.shape.size()))
    g.fail(loc, std::string(fname) + ": expected " +
                    std::to_string(std::max<size_t>(1, x.shape.size())) +
                    " values, got " + std::to_string(values.size()));
  auto op = ::mlir::txl::HintOp::create(g.b, g.cur, x.value.getType(), x.value,
                                DenseI64ArrayAttr(), DenseI64ArrayAttr());
  if (contiguity)
    op.setContiguityAttr(g.b.getDenseI64ArrayAttr(values));
  else
    op.setDivisibilityAttr(g.b.getDenseI64ArrayAttr(values));
  // Triton records the fact on the value itself, so it holds even where
  // the call's result is dropped (`tl.multiple_of(offs, 16)` as a
  // statement): the local names bound to the value now read the hinted one.
  if (g.locals)
    for (auto &[name, v] : *g.locals)
      if (v.isTensor() && v.t.value == x.value)
        v.t.value = op.getResult();
  return Val::tensor({op.getResult(), x.dtype, x.shape});
}

/// The `dtype.is_*()` methods of a dtype value.
static Val dtypeMethod(Gen &g, const std::string &name, CallArgs &args,
                       SourceLoc loc) {
  const DType &d = args.pos[0].dtype;
  std::string m = name.substr(6);
  if (args.pos.size() != 1 || !args.kw.empty())
    g.fail(loc, "dtype." + m + "() takes no arguments");
  static const std::map<std::string, bool (*)(const DType &)> predicates = {
      {"is_floating", [](const DType &d) { return d.isFloat(); }},
      {"is_int", [](const DType &d) { return d.isInt(); }},
      {"is_integer_type", [](const DType &d) { return d.isInt(); }},
      {"is_int_signed", [](const DType &d) { return d.isSigned(); }},
      {"is_int_unsigned", [](const DType &d) { return d.isUnsigned(); }},
      {"is_bool", [](const DType &d) { return d.isBool(); }},
      {"is_int1", [](const DType &d) { return d.isBool(); }},
      {"is_ptr", [](const DType &d) { return d.isPtr(); }},
      {"is_fp16", [](const DType &d) { return d.kind == DType::F16; }},
      {"is_bf16", [](const DType &d) { return d.kind == DType::BF16; }},
      {"is_fp32", [](const DType &d) { return d.kind == DType::F32; }},
      {"is_fp64", [](const DType &d) { return d.kind == DType::F64; }},
      {"is_fp8", [](const DType &d) { return d.isFP8(); }},
  };
  auto it = predicates.find(m);
  if (it == predicates.end())
    g.fail(loc, "'dtype' object has no attribute '" + m + "'");
  return Val::boolean(it->second(d));
}

Val Gen::callBuiltin(const std::string &name, CallArgs &args, SourceLoc loc) {
  if (name.rfind("dtype.", 0) == 0)
    return dtypeMethod(*this, name, args, loc);
  if (name == "tensor.item") {
    if (args.pos.size() != 1 || !args.kw.empty())
      fail(loc, "tensor.item() takes no arguments");
    return Val::tensor(scalarOf(args.pos[0].t, loc));
  }
  const BuiltinInfo *entry = findBuiltin(name);
  if (!entry || !entry->handler) {
    bool library = name.rfind("tl.", 0) == 0 || name.rfind("txl.", 0) == 0 ||
                   name.rfind("triton.", 0) == 0 || name.rfind("math.", 0) == 0;
    fail(loc,
         "'" + name + "' is not supported" + (library ? "" : " in kernels"));
  }
  if (entry->minSm >= 100)
    requireBlackwell(loc, entry->targetWhat ? entry->targetWhat : entry->name);
  else if (entry->minSm >= 90)
    requireHopper(loc, entry->targetWhat ? entry->targetWhat : entry->name);
  return entry->handler(*this, entry->name, args, loc);
}

//===----------------------------------------------------------------------===//
// Handlers (Registry.h)
//===----------------------------------------------------------------------===//

namespace handlers {

Val programId(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"axis"}, 1, name, loc);
  int64_t axis = g.constInt(p[0], "axis", loc);
  if (axis < 0 || axis > 2)
    g.fail(loc, name + " axis must be 0, 1, or 2 but got " +
                    std::to_string(axis)); // Triton's phrase
  Value v = name == "tl.program_id"
                ? Value(::mlir::txl::ProgramIdOp::create(
                      g.b, g.cur, g.b.getI32Type(), int32_t(axis)))
                : Value(::mlir::txl::NumProgramsOp::create(
                      g.b, g.cur, g.b.getI32Type(), int32_t(axis)));
  return Val::tensor({v, DType::I32, {}});
}

Val arange(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"start", "end"}, 2, name, loc);
  return Val::tensor(g.makeRange(g.constInt(p[0], "arange start", loc),
                                 g.constInt(p[1], "arange end", loc), loc));
}

Val full(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  bool isFull = name == "tl.full";
  auto p = isFull ? g.bind(args, {"shape", "value", "dtype"}, 3, name, loc)
                  : g.bind(args, {"shape", "dtype"}, 2, name, loc);
  std::vector<int64_t> shape = g.constShape(*p[0], loc);
  DType d = g.constDType(isFull ? p[2] : p[1], "dtype", loc);
  return fullOf(g, shape, isFull ? *p[1] : Val::integer(0), d, loc);
}

Val fullLike(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  bool isFull = name == "tl.full_like";
  auto p = isFull ? g.bind(args, {"input", "value", "dtype"}, 2, name, loc)
                  : g.bind(args, {"input", "dtype"}, 1, name, loc);
  TValue x = g.tensorArg(p[0], "input", loc);
  std::optional<Val> dt = isFull ? p[2] : p[1];
  DType d = dt && !dt->isNone() ? g.constDType(dt, "dtype", loc) : x.dtype;
  return fullOf(g, x.shape, isFull ? *p[1] : Val::integer(0), d, loc);
}

Val load(Gen &g, const std::string &, CallArgs &args, SourceLoc loc) {
  return irgen::load(g, args, loc);
}

Val store(Gen &g, const std::string &, CallArgs &args, SourceLoc loc) {
  return irgen::store(g, args, loc);
}

Val makeBlockPtr(Gen &g, const std::string &, CallArgs &args, SourceLoc loc) {
  return g.makeBlockPointer(args, loc);
}

Val advance(Gen &g, const std::string &, CallArgs &args, SourceLoc loc) {
  return g.advanceBlockPointer(args, loc);
}

Val dot(Gen &g, const std::string &, CallArgs &args, SourceLoc loc) {
  return g.callDot(args, loc);
}

Val dotScaled(Gen &g, const std::string &, CallArgs &args, SourceLoc loc) {
  return g.callDotScaled(args, loc);
}

Val where(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"condition", "x", "y"}, 3, name, loc);
  return g.where(*p[0], *p[1], *p[2], loc);
}

/// propagate_nan: tl.PropagateNan.ALL (or a true constant) asks for NaN
/// in, NaN out.
static bool propagatesNan(Gen &g, const std::optional<Val> &v, SourceLoc loc) {
  if (!v || v->isNone())
    return false;
  if (v->kind == Val::Kind::Str)
    return v->s == "all" || v->s == "ALL";
  return v->isConstant() && g.truthy(*v, loc);
}

Val minimumMaximum(Gen &g, const std::string &name, CallArgs &args,
                   SourceLoc loc) {
  auto p = g.bind(args, {"x", "y", "propagate_nan"}, 2, name, loc);
  bool nan = propagatesNan(g, p[2], loc);
  bool isMax = name == "tl.maximum";
  if (p[0]->isNumber() && p[1]->isNumber()) {
    bool takeA = isMax ? p[0]->asDouble() >= p[1]->asDouble()
                       : p[0]->asDouble() <= p[1]->asDouble();
    return takeA ? *p[0] : *p[1];
  }
  return g.minMax(isMax, *p[0], *p[1], loc, nan);
}

Val clamp(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x", "min", "max", "propagate_nan"}, 3, name, loc);
  bool nan = propagatesNan(g, p[3], loc);
  // Triton computes a bf16 clamp in fp32 (and returns fp32).
  std::vector<Val> xs;
  for (int i = 0; i < 3; ++i) {
    TValue v = g.toTensor(*p[i], loc);
    xs.push_back(Val::tensor(
        v.dtype.kind == DType::BF16 ? g.cast(v, DType(DType::F32), loc) : v));
  }
  // With min and max not NaN (else the result is undefined), a
  // NaN-propagating maximum then minimum propagates exactly x's NaN.
  Val lo = g.minMax(true, xs[0], xs[1], loc, nan);
  return g.minMax(false, lo, xs[2], loc, nan);
}

/// tl.load_tensor_descriptor / tl.store_tensor_descriptor: desc.load and
/// desc.store written as functions.
Val tensorDescriptorIO(Gen &g, const std::string &name, CallArgs &args,
                       SourceLoc loc) {
  return g.callBuiltin(name == "tl.load_tensor_descriptor" ? "txl.desc_load"
                                                           : "txl.desc_store",
                       args, loc);
}

Val cdiv(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x", "div"}, 2, name, loc);
  Val sum = g.binary(BinOpKind::Add, *p[0], *p[1], loc);
  Val num = g.binary(BinOpKind::Sub, sum, Val::integer(1), loc);
  return g.binary(BinOpKind::FloorDiv, num, *p[1], loc);
}

Val nextPowerOf2(Gen &g, const std::string &name, CallArgs &args,
                 SourceLoc loc) {
  auto p = g.bind(args, {"n"}, 1, name, loc);
  int64_t n = g.constInt(p[0], "n", loc), r = 1;
  while (r < n && r < (int64_t(1) << 62))
    r <<= 1;
  return Val::integer(r);
}

Val multipleOf(Gen &g, const std::string &, CallArgs &args, SourceLoc loc) {
  return hint(g, args, loc, false, "tl.multiple_of");
}

Val maxContiguous(Gen &g, const std::string &, CallArgs &args, SourceLoc loc) {
  return hint(g, args, loc, true, "tl.max_contiguous");
}

Val maxConstancy(Gen &g, const std::string &name, CallArgs &args,
                 SourceLoc loc) {
  auto p = g.bind(args, {"input", "values"}, 2, name, loc);
  return *p[0];
}

/// tl.condition(cond, disable_licm=False): a `while` loop's condition with
/// a loop hint; the hint is accepted and dropped (as tl.range's is).
Val loopCondition(Gen &g, const std::string &name, CallArgs &args,
                  SourceLoc loc) {
  auto p = g.bind(args, {"arg", "disable_licm"}, 1, name, loc);
  if (p[1] && !p[1]->isConstant())
    g.fail(loc, name + ": disable_licm must be a compile-time bool");
  return *p[0];
}

/// tl.assume / tl.device_assert: accepted, no effect on the tile IR.
Val noEffect(Gen &, const std::string &, CallArgs &, SourceLoc) {
  return Val::none();
}

/// bar.sync 0 across the CTA, like Triton's gpu.barrier.
Val debugBarrier(Gen &g, const std::string &name, CallArgs &args,
                 SourceLoc loc) {
  g.bind(args, {}, 0, name, loc);
  NVVM::BarrierOp::create(g.b, g.cur, TypeRange{}, Value(), Value(), {}, {});
  return Val::none();
}

Val staticAssert(Gen &g, const std::string &name, CallArgs &args,
                 SourceLoc loc) {
  auto p = g.bind(args, {"cond", "msg"}, 1, name, loc);
  if (!p[0]->isConstant())
    g.fail(loc, "tl.static_assert needs a compile-time condition");
  if (!g.truthy(*p[0], loc)) {
    std::string msg = "static_assert failed";
    if (p[1] && !p[1]->isNone())
      msg += ": " + p[1]->repr();
    g.fail(loc, msg);
  }
  return Val::none();
}

Val staticPrint(Gen &, const std::string &, CallArgs &args, SourceLoc) {
  std::string line;
  for (size_t k = 0; k < args.pos.size(); ++k)
    line += (k ? " " : "") + args.pos[k].repr();
  std::cerr << line << "\n";
  return Val::none();
}

Val devicePrint(Gen &g, const std::string &, CallArgs &args, SourceLoc loc) {
  if (args.pos.empty() || args.pos[0].kind != Val::Kind::Str)
    g.fail(loc, "tl.device_print needs a string prefix first");
  bool hex = false;
  for (auto &[k, v] : args.kw) {
    if (k != "hex")
      g.fail(loc, "tl.device_print() got an unexpected keyword argument '" + k +
                      "'");
    hex = v.isConstant() && g.truthy(v, loc);
  }
  SmallVector<Value> vals;
  for (size_t k = 1; k < args.pos.size(); ++k)
    vals.push_back(g.toTensor(args.pos[k], loc).value);
  ::mlir::txl::PrintOp::create(g.b, g.cur, g.b.getStringAttr(args.pos[0].s),
                               g.b.getBoolAttr(hex), vals);
  return Val::none();
}

Val constexprValue(Gen &g, const std::string &name, CallArgs &args,
                   SourceLoc loc) {
  auto p = g.bind(args, {"value"}, 1, name, loc);
  if (!p[0]->isConstant())
    g.fail(loc, "tl.constexpr() needs a compile-time value");
  return *p[0];
}

Val pointerType(Gen &g, const std::string &name, CallArgs &args,
                SourceLoc loc) {
  auto p = g.bind(args, {"element_ty", "address_space"}, 1, name, loc);
  DType e = g.constDType(p[0], "element_ty", loc);
  int as = p[1] ? int(g.constInt(p[1], "address_space", loc)) : 1;
  return Val::dtypeVal(DType::pointerTo(e, as));
}

Val cast(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"input", "dtype", "fp_downcast_rounding", "bitcast"},
                  2, name, loc);
  DType to = g.constDType(p[1], "dtype", loc);
  bool bit = p[3] && p[3]->isConstant() && g.truthy(*p[3], loc);
  if (p[2] && !p[2]->isNone() &&
      !(p[2]->kind == Val::Kind::Str && p[2]->s == "rtne"))
    g.fail(loc, "only fp_downcast_rounding='rtne' is supported");
  if (p[0]->isNumber() && !bit)
    return Val::tensor(g.constant(to, *p[0]));
  return Val::tensor(g.cast(g.tensorArg(p[0], "input", loc), to, loc, bit));
}

Val hostOnly(Gen &g, const std::string &name, CallArgs &, SourceLoc loc) {
  g.fail(loc, "'" + name + "' cannot be called inside a kernel");
}

Val loopIterableOnly(Gen &g, const std::string &name, CallArgs &,
                     SourceLoc loc) {
  g.fail(loc, name + "() can only be used as the iterable of a for loop");
}

//===--- Python builtins on compile-time values ---------------------------===//

Val pyLen(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"obj"}, 1, name, loc);
  if (p[0]->isTuple())
    return Val::integer(int64_t(p[0]->elts.size()));
  if (p[0]->isTensor() && p[0]->t.isTensor())
    return Val::integer(p[0]->t.shape[0]);
  if (p[0]->kind == Val::Kind::Str)
    return Val::integer(int64_t(p[0]->s.size()));
  g.fail(loc, "object of type '" + p[0]->kindName() + "' has no len()");
}

Val pyMinMax(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  std::vector<Val> items = args.pos;
  if (items.size() == 1 && items[0].isTuple())
    items = items[0].elts;
  if (items.empty())
    g.fail(loc, name + "() needs at least one argument");
  Val best = items[0];
  bool allNumbers =
      llvm::all_of(items, [](const Val &v) { return v.isNumber(); });
  if (!allNumbers) {
    // Like Triton: min/max of runtime scalars or tensors is an element-wise
    // minimum/maximum (the tutorial matmul's group_size_m needs it).
    for (size_t i = 1; i < items.size(); ++i)
      best = g.minMax(name == "max", best, items[i], loc);
    return best;
  }
  for (const Val &v : items) {
    bool less = v.asDouble() < best.asDouble();
    if (name == "min" ? less : v.asDouble() > best.asDouble())
      best = v;
  }
  return best;
}

Val pyAbs(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x"}, 1, name, loc);
  if (p[0]->kind == Val::Kind::Float)
    return Val::floating(std::fabs(p[0]->f));
  if (p[0]->isIntLike())
    return Val::integer(std::llabs(p[0]->asInt()));
  CallArgs a2 = args;
  return g.callBuiltin("tl.abs", a2, loc);
}

Val pyFloat(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x"}, 0, name, loc);
  if (!p[0])
    return Val::floating(0.0);
  if (p[0]->kind == Val::Kind::Str) {
    std::string s = p[0]->s;
    for (char &ch : s)
      ch = char(tolower(ch));
    if (s == "inf" || s == "+inf" || s == "infinity")
      return Val::floating(INFINITY);
    if (s == "-inf" || s == "-infinity")
      return Val::floating(-INFINITY);
    if (s == "nan" || s == "+nan" || s == "-nan")
      return Val::floating(NAN);
    char *end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end)
      g.fail(loc, "could not convert string to float: '" + p[0]->s + "'");
    return Val::floating(d);
  }
  if (p[0]->isNumber())
    return Val::floating(p[0]->asDouble());
  g.fail(loc, "float() needs a compile-time number or string");
}

Val pyInt(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x"}, 0, name, loc);
  if (!p[0])
    return Val::integer(0);
  if (p[0]->kind == Val::Kind::Float) {
    if (!std::isfinite(p[0]->f))
      g.fail(loc, "cannot convert " + p[0]->repr() + " to an integer");
    return Val::integer(int64_t(p[0]->f));
  }
  if (p[0]->isIntLike())
    return Val::integer(p[0]->asInt());
  g.fail(loc, "int() needs a compile-time number");
}

Val pyBool(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x"}, 0, name, loc);
  if (!p[0])
    return Val::boolean(false);
  if (!p[0]->isConstant())
    g.fail(loc, "bool() needs a compile-time value");
  return Val::boolean(g.truthy(*p[0], loc));
}

Val pyPrint(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  return staticPrint(g, name, args, loc);
}

Val pyHasattr(Gen &g, const std::string &name, CallArgs &args,
              SourceLoc loc) {
  auto p = g.bind(args, {"obj", "name"}, 2, name, loc);
  if (p[1]->kind != Val::Kind::Str)
    g.fail(loc, "hasattr(): the attribute name must be a string");
  try {
    g.getAttr(*p[0], p[1]->s, loc);
    return Val::boolean(true);
  } catch (CompileError &) {
    return Val::boolean(false);
  }
}

/// getattr(obj, name[, default]) with a compile-time name: the attribute
/// `obj.name` (a module's function, a tensor's dtype), or `default` when it
/// has none.
Val pyGetattr(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"obj", "name", "default"}, 2, name, loc);
  if (p[1]->kind != Val::Kind::Str)
    g.fail(loc, "getattr(): the attribute name must be a compile-time string");
  if (!p[2])
    return g.getAttr(*p[0], p[1]->s, loc);
  try {
    return g.getAttr(*p[0], p[1]->s, loc);
  } catch (CompileError &) {
    return *p[2];
  }
}

/// The items of a compile-time sequence (a tuple or list) for enumerate
/// and zip, which kernels use to unroll `for` loops over tuples.
static const std::vector<Val> &
sequenceItems(Gen &g, const Val &v, const std::string &fname, SourceLoc loc) {
  if (!v.isTuple())
    g.fail(loc, fname +
                    "() in a kernel needs a compile-time tuple or list, "
                    "got " +
                    v.kindName());
  return v.elts;
}

Val pyEnumerate(Gen &g, const std::string &name, CallArgs &args,
                SourceLoc loc) {
  auto p = g.bind(args, {"iterable", "start"}, 1, name, loc);
  int64_t start = p[1] ? g.constInt(p[1], "start", loc) : 0;
  std::vector<Val> items;
  for (const Val &v : sequenceItems(g, *p[0], name, loc))
    items.push_back(Val::tuple({Val::integer(start++), v}));
  return Val::tuple(items);
}

Val pyZip(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  for (auto &kw : args.kw)
    if (kw.first != "strict")
      g.fail(loc,
             "zip() got an unexpected keyword argument '" + kw.first + "'");
  size_t n = SIZE_MAX;
  for (const Val &v : args.pos)
    n = std::min(n, sequenceItems(g, v, name, loc).size());
  if (args.pos.empty())
    n = 0;
  std::vector<Val> items(n);
  for (size_t i = 0; i < n; ++i) {
    std::vector<Val> row;
    for (const Val &v : args.pos)
      row.push_back(v.elts[i]);
    items[i] = Val::tuple(row);
  }
  return Val::tuple(items);
}

/// round(x[, ndigits]) of a compile-time number, as Python rounds: half
/// to even; an int without ndigits, a float with it.
Val pyRound(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"number", "ndigits"}, 1, name, loc);
  if (!p[0]->isNumber())
    g.fail(loc, "round() in a kernel needs a compile-time number, got " +
                    p[0]->kindName() + " (use libdevice.rint on tensors)");
  bool noDigits = !p[1] || p[1]->isNone();
  if (p[0]->isIntLike() && noDigits)
    return Val::integer(p[0]->asInt());
  double x = p[0]->asDouble();
  if (noDigits) {
    if (!std::isfinite(x))
      g.fail(loc, "cannot convert " + p[0]->repr() + " to an integer");
    return Val::integer(int64_t(std::nearbyint(x)));
  }
  int64_t digits = g.constInt(p[1], "ndigits", loc);
  if (digits > 300 || digits < -300)
    return Val::floating(digits > 0 ? x : 0.0 * x);
  double scale = std::pow(10.0, double(digits));
  double r = std::nearbyint(x * scale) / scale;
  if (p[0]->isIntLike())
    return Val::integer(int64_t(r));
  return Val::floating(r);
}

Val pyIsinstance(Gen &g, const std::string &name, CallArgs &args,
                 SourceLoc loc) {
  auto p = g.bind(args, {"obj", "cls"}, 2, name, loc);
  const Val &cls = *p[1];
  if (cls.isTuple()) { // isinstance(x, (A, B))
    for (const Val &c : cls.elts) {
      CallArgs one;
      one.pos = {*p[0], c};
      one.posLocs = {loc, loc};
      one.loc = loc;
      if (pyIsinstance(g, name, one, loc).b)
        return Val::boolean(true);
    }
    return Val::boolean(false);
  }
  if (cls.kind == Val::Kind::Builtin) {
    const std::string &c = cls.s;
    const Val &o = *p[0];
    if (c == "tl.tensor_descriptor")
      return Val::boolean(o.kind == Val::Kind::Tensor &&
                          o.t.space == TValue::Space::Desc);
    if (c == "int")
      return Val::boolean(o.isIntLike());
    if (c == "float")
      return Val::boolean(o.kind == Val::Kind::Float);
    if (c == "bool")
      return Val::boolean(o.kind == Val::Kind::Bool);
    if (c == "tuple")
      return Val::boolean(o.isTuple());
    if (c == "tl.tensor")
      return Val::boolean(o.isTensor());
    if (c == "tl.constexpr")
      return Val::boolean(o.isConstant());
    if (c == "tl.dtype")
      return Val::boolean(o.kind == Val::Kind::DType);
    if (c == "tl.pointer_type")
      return Val::boolean(o.kind == Val::Kind::DType && o.dtype.isPtr());
  }
  g.fail(loc, "unsupported isinstance() check");
}

Val pyTuple(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x"}, 0, name, loc);
  if (!p[0])
    return Val::tuple({});
  if (!p[0]->isTuple())
    g.fail(loc, name + "() needs a tuple");
  return *p[0];
}

//===--- Python's math module
//----------------------------------------------===//

Val mathGcd(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"a", "b"}, 2, name, loc);
  int64_t a = std::llabs(g.constInt(p[0], "a", loc));
  int64_t c = std::llabs(g.constInt(p[1], "b", loc));
  while (c) {
    int64_t t = a % c;
    a = c;
    c = t;
  }
  return Val::integer(a);
}

Val mathConst(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  auto p = g.bind(args, {"x"}, 1, name, loc);
  if (!p[0]->isNumber())
    g.fail(loc, name + "() needs a compile-time number");
  double x = p[0]->asDouble();
  using Fn = double (*)(double);
  static const std::map<std::string, std::pair<Fn, bool>> fns = {
      // name -> (function, returns an int)
      {"math.log2", {[](double v) { return std::log2(v); }, false}},
      {"math.log", {[](double v) { return std::log(v); }, false}},
      {"math.log10", {[](double v) { return std::log10(v); }, false}},
      {"math.sqrt", {[](double v) { return std::sqrt(v); }, false}},
      {"math.exp", {[](double v) { return std::exp(v); }, false}},
      {"math.ceil", {[](double v) { return std::ceil(v); }, true}},
      {"math.floor", {[](double v) { return std::floor(v); }, true}},
      {"math.isqrt", {[](double v) { return std::floor(std::sqrt(v)); }, true}},
  };
  auto it = fns.find(name);
  if (it == fns.end())
    g.fail(loc, "'" + name + "' is not supported");
  double r = it->second.first(x);
  return it->second.second ? Val::integer(int64_t(r)) : Val::floating(r);
}

} // namespace handlers

} // namespace txl::irgen
