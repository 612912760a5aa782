//===- Builtins.cpp - The tl.* surface: creation, memory, misc ------------===//
#include "Gen.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

#include <cmath>
#include <iostream>

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
  ::mlir::txl::StoreOp::create(g.b, g.cur, ptr.value, value.value,
                       hasMask ? mask.value : Value(), *cache, *evict);
  return Val::none();
}

static Val full(Gen &g, const std::vector<int64_t> &shape, const Val &value,
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
  return Val::tensor({op.getResult(), x.dtype, x.shape});
}

static Val constMathFn(Gen &g, const std::string &name, CallArgs &args,
                       SourceLoc loc) {
  if (name == "math.gcd") {
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
  auto p = g.bind(args, {"x"}, 1, name, loc);
  if (!p[0]->isNumber())
    g.fail(loc, name + "() needs a compile-time number");
  double x = p[0]->asDouble();
  if (name == "math.log2")
    return Val::floating(std::log2(x));
  if (name == "math.log")
    return Val::floating(std::log(x));
  if (name == "math.log10")
    return Val::floating(std::log10(x));
  if (name == "math.sqrt")
    return Val::floating(std::sqrt(x));
  if (name == "math.exp")
    return Val::floating(std::exp(x));
  if (name == "math.ceil")
    return Val::integer(int64_t(std::ceil(x)));
  if (name == "math.floor")
    return Val::integer(int64_t(std::floor(x)));
  if (name == "math.isqrt")
    return Val::integer(int64_t(std::floor(std::sqrt(x))));
  g.fail(loc, "'" + name + "' is not supported");
}

/// Python builtins usable on compile-time values.
static Val pythonBuiltin(Gen &g, const std::string &name, CallArgs &args,
                         SourceLoc loc) {
  if (name == "range")
    g.fail(loc, "range() can only be used as the iterable of a for loop");
  if (name == "len") {
    auto p = g.bind(args, {"obj"}, 1, name, loc);
    if (p[0]->isTuple())
      return Val::integer(int64_t(p[0]->elts.size()));
    if (p[0]->isTensor() && p[0]->t.isTensor())
      return Val::integer(p[0]->t.shape[0]);
    if (p[0]->kind == Val::Kind::Str)
      return Val::integer(int64_t(p[0]->s.size()));
    g.fail(loc, "object of type '" + p[0]->kindName() + "' has no len()");
  }
  if (name == "min" || name == "max") {
    std::vector<Val> items = args.pos;
    if (items.size() == 1 && items[0].isTuple())
      items = items[0].elts;
    if (items.empty())
      g.fail(loc, name + "() needs at least one argument");
    Val best = items[0];
    bool allNumbers = llvm::all_of(items, [](const Val &v) {
      return v.isNumber();
    });
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
  if (name == "abs") {
    auto p = g.bind(args, {"x"}, 1, name, loc);
    if (p[0]->kind == Val::Kind::Float)
      return Val::floating(std::fabs(p[0]->f));
    if (p[0]->isIntLike())
      return Val::integer(std::llabs(p[0]->asInt()));
    CallArgs a2 = args;
    return g.callBuiltin("tl.abs", a2, loc);
  }
  if (name == "float") {
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
  if (name == "int") {
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
  if (name == "bool") {
    auto p = g.bind(args, {"x"}, 0, name, loc);
    if (!p[0])
      return Val::boolean(false);
    if (!p[0]->isConstant())
      g.fail(loc, "bool() needs a compile-time value");
    return Val::boolean(g.truthy(*p[0], loc));
  }
  if (name == "print") {
    std::string line;
    for (size_t k = 0; k < args.pos.size(); ++k)
      line += (k ? " " : "") + args.pos[k].repr();
    std::cerr << line << "\n";
    return Val::none();
  }
  if (name == "isinstance") {
    auto p = g.bind(args, {"obj", "cls"}, 2, name, loc);
    const Val &cls = *p[1];
    if (cls.kind == Val::Kind::Builtin) {
      const std::string &c = cls.s;
      const Val &o = *p[0];
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
    }
    g.fail(loc, "unsupported isinstance() check");
  }
  if (name == "tuple" || name == "list") {
    auto p = g.bind(args, {"x"}, 0, name, loc);
    if (!p[0])
      return Val::tuple({});
    if (!p[0]->isTuple())
      g.fail(loc, name + "() needs a tuple");
    return *p[0];
  }
  g.fail(loc, "'" + name + "' is not supported in kernels");
}

Val Gen::callBuiltin(const std::string &name, CallArgs &args, SourceLoc loc) {
  bool handled = false;
  Val r = callMathBuiltin(name, args, loc, handled);
  if (handled)
    return r;
  r = callShapeBuiltin(name, args, loc, handled);
  if (handled)
    return r;
  r = callReduceBuiltin(name, args, loc, handled);
  if (handled)
    return r;

  if (name.rfind("txl.", 0) == 0)
    return callTxl(name, args, loc);
  if (name.rfind("tl.", 0) != 0 && name.rfind("triton.", 0) != 0 &&
      name.rfind("math.", 0) != 0 && name.rfind("dtype.", 0) != 0)
    return pythonBuiltin(*this, name, args, loc);
  if (name.rfind("math.", 0) == 0)
    return constMathFn(*this, name, args, loc);

  if (name.rfind("dtype.", 0) == 0) {
    const DType &d = args.pos[0].dtype;
    std::string m = name.substr(6);
    if (args.pos.size() != 1 || !args.kw.empty())
      fail(loc, "dtype." + m + "() takes no arguments");
    if (m == "is_floating")
      return Val::boolean(d.isFloat());
    if (m == "is_int" || m == "is_integer_type")
      return Val::boolean(d.isInt());
    if (m == "is_int_signed")
      return Val::boolean(d.isSigned());
    if (m == "is_int_unsigned")
      return Val::boolean(d.isUnsigned());
    if (m == "is_bool" || m == "is_int1")
      return Val::boolean(d.isBool());
    if (m == "is_ptr")
      return Val::boolean(d.isPtr());
    if (m == "is_fp16")
      return Val::boolean(d.kind == DType::F16);
    if (m == "is_bf16")
      return Val::boolean(d.kind == DType::BF16);
    if (m == "is_fp32")
      return Val::boolean(d.kind == DType::F32);
    if (m == "is_fp64")
      return Val::boolean(d.kind == DType::F64);
    if (m == "is_fp8")
      return Val::boolean(d.isFP8());
    fail(loc, "'dtype' object has no attribute '" + m + "'");
  }

  if (name == "tl.program_id" || name == "tl.num_programs") {
    auto p = bind(args, {"axis"}, 1, name, loc);
    int64_t axis = constInt(p[0], "axis", loc);
    if (axis < 0 || axis > 2)
      fail(loc, name + " axis must be 0, 1 or 2, got " + std::to_string(axis));
    Value v = name == "tl.program_id"
                  ? Value(::mlir::txl::ProgramIdOp::create(b, cur, b.getI32Type(),
                                                   int32_t(axis)))
                  : Value(::mlir::txl::NumProgramsOp::create(b, cur, b.getI32Type(),
                                                     int32_t(axis)));
    return Val::tensor({v, DType::I32, {}});
  }
  if (name == "tl.arange") {
    auto p = bind(args, {"start", "end"}, 2, name, loc);
    return Val::tensor(makeRange(constInt(p[0], "arange start", loc),
                                 constInt(p[1], "arange end", loc), loc));
  }
  if (name == "tl.zeros" || name == "tl.full") {
    bool isFull = name == "tl.full";
    auto p = isFull ? bind(args, {"shape", "value", "dtype"}, 3, name, loc)
                    : bind(args, {"shape", "dtype"}, 2, name, loc);
    std::vector<int64_t> shape = constShape(*p[0], loc);
    DType d = constDType(isFull ? p[2] : p[1], "dtype", loc);
    return full(*this, shape, isFull ? *p[1] : Val::integer(0), d, loc);
  }
  if (name == "tl.zeros_like" || name == "tl.full_like") {
    bool isFull = name == "tl.full_like";
    auto p = isFull ? bind(args, {"input", "value", "dtype"}, 2, name, loc)
                    : bind(args, {"input", "dtype"}, 1, name, loc);
    TValue x = tensorArg(p[0], "input", loc);
    std::optional<Val> dt = isFull ? p[2] : p[1];
    DType d = dt && !dt->isNone() ? constDType(dt, "dtype", loc) : x.dtype;
    return full(*this, x.shape, isFull ? *p[1] : Val::integer(0), d, loc);
  }
  if (name == "tl.dot")
    return callDot(args, loc);
  if (name == "tl.load")
    return load(*this, args, loc);
  if (name == "tl.make_tensor_descriptor")
    return callTxlMemory("txl.make_tensor_descriptor", args, loc);
  if (name == "tl.make_block_ptr")
    return makeBlockPointer(args, loc);
  if (name == "tl.advance")
    return advanceBlockPointer(args, loc);
  if (name == "tl.store")
    return store(*this, args, loc);
  if (name == "tl.where") {
    auto p = bind(args, {"condition", "x", "y"}, 3, name, loc);
    return where(*p[0], *p[1], *p[2], loc);
  }
  if (name == "tl.maximum" || name == "tl.minimum") {
    auto p = bind(args, {"x", "y", "propagate_nan"}, 2, name, loc);
    bool nan = false;
    if (p[2] && !p[2]->isNone()) {
      if (p[2]->kind == Val::Kind::Str)
        nan = p[2]->s == "all" || p[2]->s == "ALL";
      else if (p[2]->isConstant())
        nan = truthy(*p[2], loc);
    }
    if (p[0]->isNumber() && p[1]->isNumber()) {
      bool takeA = name == "tl.maximum" ? p[0]->asDouble() >= p[1]->asDouble()
                                        : p[0]->asDouble() <= p[1]->asDouble();
      return takeA ? *p[0] : *p[1];
    }
    return minMax(name == "tl.maximum", *p[0], *p[1], loc, nan);
  }
  if (name == "tl.clamp") {
    auto p = bind(args, {"x", "min", "max", "propagate_nan"}, 3, name, loc);
    Val lo = minMax(true, *p[0], *p[1], loc);
    return minMax(false, lo, *p[2], loc);
  }
  if (name == "tl.cdiv" || name == "triton.cdiv") {
    auto p = bind(args, {"x", "div"}, 2, name, loc);
    Val sum = binary(BinOpKind::Add, *p[0], *p[1], loc);
    Val num = binary(BinOpKind::Sub, sum, Val::integer(1), loc);
    return binary(BinOpKind::FloorDiv, num, *p[1], loc);
  }
  if (name == "triton.next_power_of_2") {
    auto p = bind(args, {"n"}, 1, name, loc);
    int64_t n = constInt(p[0], "n", loc), r = 1;
    while (r < n && r < (int64_t(1) << 62))
      r <<= 1;
    return Val::integer(r);
  }
  if (name == "tl.multiple_of")
    return hint(*this, args, loc, false, "tl.multiple_of");
  if (name == "tl.max_contiguous")
    return hint(*this, args, loc, true, "tl.max_contiguous");
  if (name == "tl.max_constancy") {
    auto p = bind(args, {"input", "values"}, 2, name, loc);
    return *p[0];
  }
  if (name == "tl.assume" || name == "tl.device_assert" ||
      name == "tl.debug_barrier") {
    // Hints/checks with no effect on the tile IR (no device asserts here).
    if (name == "tl.debug_barrier")
      fail(loc, "'tl.debug_barrier' is not supported");
    return Val::none();
  }
  if (name == "tl.static_assert") {
    auto p = bind(args, {"cond", "msg"}, 1, name, loc);
    if (!p[0]->isConstant())
      fail(loc, "tl.static_assert needs a compile-time condition");
    if (!truthy(*p[0], loc)) {
      std::string msg = "static_assert failed";
      if (p[1] && !p[1]->isNone())
        msg += ": " + p[1]->repr();
      fail(loc, msg);
    }
    return Val::none();
  }
  if (name == "tl.static_print") {
    std::string line;
    for (size_t k = 0; k < args.pos.size(); ++k)
      line += (k ? " " : "") + args.pos[k].repr();
    std::cerr << line << "\n";
    return Val::none();
  }
  if (name == "tl.device_print") {
    if (args.pos.empty() || args.pos[0].kind != Val::Kind::Str)
      fail(loc, "tl.device_print needs a string prefix first");
    bool hex = false;
    for (auto &[k, v] : args.kw) {
      if (k != "hex")
        fail(loc, "tl.device_print() got an unexpected keyword argument '" +
                      k + "'");
      hex = v.isConstant() && truthy(v, loc);
    }
    SmallVector<Value> vals;
    for (size_t k = 1; k < args.pos.size(); ++k)
      vals.push_back(toTensor(args.pos[k], loc).value);
    ::mlir::txl::PrintOp::create(b, cur, b.getStringAttr(args.pos[0].s),
                         b.getBoolAttr(hex), vals);
    return Val::none();
  }
  if (name == "tl.constexpr") {
    auto p = bind(args, {"value"}, 1, name, loc);
    if (!p[0]->isConstant())
      fail(loc, "tl.constexpr() needs a compile-time value");
    return *p[0];
  }
  if (name == "tl.pointer_type") {
    auto p = bind(args, {"element_ty", "address_space"}, 1, name, loc);
    DType e = constDType(p[0], "element_ty", loc);
    int as = p[1] ? int(constInt(p[1], "address_space", loc)) : 1;
    return Val::dtypeVal(DType::pointerTo(e, as));
  }
  if (name == "tl.cast" || name == "tl.to") {
    auto p = bind(args,
                  {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2,
                  name, loc);
    DType to = constDType(p[1], "dtype", loc);
    bool bit = p[3] && p[3]->isConstant() && truthy(*p[3], loc);
    if (p[2] && !p[2]->isNone() &&
        !(p[2]->kind == Val::Kind::Str && p[2]->s == "rtne"))
      fail(loc, "only fp_downcast_rounding='rtne' is supported");
    if (p[0]->isNumber() && !bit)
      return Val::tensor(constant(to, *p[0]));
    return Val::tensor(cast(tensorArg(p[0], "input", loc), to, loc, bit));
  }
  if (name == "triton.jit" || name == "triton.autotune" ||
      name == "triton.heuristics" || name == "triton.Config")
    fail(loc, "'" + name + "' cannot be called inside a kernel");
  if (name == "tl.range" || name == "tl.static_range")
    fail(loc, name + "() can only be used as the iterable of a for loop");
  fail(loc, "'" + name + "' is not supported");
}

} // namespace txl::irgen
