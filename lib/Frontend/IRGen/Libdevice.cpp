//===- Libdevice.cpp - libdevice functions without a `math` op ------------===//
//
// The libdevice functions (triton.language.extra.libdevice) that no `math`
// or `arith` op expresses are calls of their `__nv_*` function, one per
// element (txl.extern_elementwise, lowered in MathOpToLLVM.cpp). Like
// Triton's extern_elementwise, a call dispatches on the exact dtypes of its
// arguments (Python numbers are int32 / fp32): fp16 or a mixed fp32/fp64
// pair is an error, not a promotion. The arguments are broadcast together.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

#include <map>

using namespace mlir;

namespace txl::irgen {

namespace {

/// One signature of a libdevice function: the dtypes it takes, the
/// function that implements it and the dtype it returns.
struct Overload {
  std::vector<DType::Kind> params;
  const char *symbol;
  DType::Kind result;
};

struct LibdeviceFn {
  std::vector<Overload> overloads;
  /// isnan/isinf: Triton turns the int32 answer into int1.
  bool returnsBool = false;
};

constexpr DType::Kind F32 = DType::F32, F64 = DType::F64, I32 = DType::I32,
                      I64 = DType::I64;

/// fp32 -> `<base>f`, fp64 -> `<base>` (the usual libdevice naming).
LibdeviceFn floats(const char *f32, const char *f64, int arity = 1) {
  std::vector<DType::Kind> p32(arity, F32), p64(arity, F64);
  return {{{p32, f32, F32}, {p64, f64, F64}}};
}

/// fp32/fp64 -> int32 (classification functions).
LibdeviceFn classify(const char *f32, const char *f64, bool toBool) {
  return {{{{F32}, f32, I32}, {{F64}, f64, I32}}, toBool};
}

const std::map<std::string, LibdeviceFn> &libdeviceTable() {
  static const std::map<std::string, LibdeviceFn> table = {
      {"libdevice.erfinv", floats("__nv_erfinvf", "__nv_erfinv")},
      {"libdevice.hypot", floats("__nv_hypotf", "__nv_hypot", 2)},
      {"libdevice.fmod", floats("__nv_fmodf", "__nv_fmod", 2)},
      {"libdevice.copysign", floats("__nv_copysignf", "__nv_copysign", 2)},
      {"libdevice.fmax", floats("__nv_fmaxf", "__nv_fmax", 2)},
      {"libdevice.fmin", floats("__nv_fminf", "__nv_fmin", 2)},
      {"libdevice.exp10", floats("__nv_exp10f", "__nv_exp10")},
      {"libdevice.exp2", floats("__nv_exp2f", "__nv_exp2")},
      {"libdevice.lgamma", floats("__nv_lgammaf", "__nv_lgamma")},
      {"libdevice.tgamma", floats("__nv_tgammaf", "__nv_tgamma")},
      {"libdevice.nearbyint", floats("__nv_nearbyintf", "__nv_nearbyint")},
      {"libdevice.rcp_rn", floats("__nv_frcp_rn", "__nv_drcp_rn")},
      {"libdevice.isnan", classify("__nv_isnanf", "__nv_isnand", true)},
      {"libdevice.isinf", classify("__nv_isinff", "__nv_isinfd", true)},
      {"libdevice.signbit", classify("__nv_signbitf", "__nv_signbitd", false)},
      {"libdevice.ilogb", classify("__nv_ilogbf", "__nv_ilogb", false)},
      {"libdevice.ldexp",
       {{{{F32, I32}, "__nv_ldexpf", F32}, {{F64, I32}, "__nv_ldexp", F64}}}},
      {"libdevice.fast_expf", {{{{F32}, "__nv_fast_expf", F32}}}},
      {"libdevice.fast_logf", {{{{F32}, "__nv_fast_logf", F32}}}},
      {"libdevice.saturatef", {{{{F32}, "__nv_saturatef", F32}}}},
      {"libdevice.popc",
       {{{{I32}, "__nv_popc", I32}, {{I64}, "__nv_popcll", I32}}}},
      {"libdevice.clz",
       {{{{I32}, "__nv_clz", I32}, {{I64}, "__nv_clzll", I32}}}},
      {"libdevice.brev",
       {{{{I32}, "__nv_brev", I32}, {{I64}, "__nv_brevll", I64}}}},
  };
  return table;
}

std::string signatureStr(const std::vector<DType::Kind> &kinds) {
  std::string s = "(";
  for (size_t i = 0; i < kinds.size(); ++i)
    s += (i ? ", " : "") + DType(kinds[i]).str();
  return s + ")";
}

} // namespace

namespace handlers {

Val libdeviceCall(Gen &g, const std::string &name, CallArgs &args,
                  SourceLoc loc) {
  auto it = libdeviceTable().find(name);
  if (it == libdeviceTable().end())
    g.fail(loc, "'" + name + "' is not supported");
  const LibdeviceFn &fn = it->second;
  size_t arity = fn.overloads.front().params.size();
  std::vector<const char *> names = {"x", "y"};
  names.resize(arity);
  auto p = g.bind(args, names, arity, name, loc);
  std::vector<TValue> xs;
  std::vector<DType::Kind> kinds;
  for (auto &v : p) {
    xs.push_back(g.toTensor(*v, loc));
    kinds.push_back(xs.back().dtype.kind);
  }
  const Overload *match = nullptr;
  for (const Overload &o : fn.overloads)
    if (o.params == kinds)
      match = &o;
  if (!match) {
    std::string expected;
    for (const Overload &o : fn.overloads)
      expected += (expected.empty() ? "" : ", ") + signatureStr(o.params);
    g.fail(loc, name + ": no overload for argument dtypes " +
                    signatureStr(kinds) + "; expected one of " + expected);
  }
  if (xs.size() == 2)
    std::tie(xs[0], xs[1]) = g.broadcastPair(xs[0], xs[1], loc);
  std::vector<int64_t> shape = xs[0].shape;
  SmallVector<Value> operands;
  for (const TValue &x : xs)
    operands.push_back(x.value);
  DType result(match->result);
  Value call = mlir::txl::ExternElementwiseOp::create(
      g.b, g.cur, g.mlirType(result, shape), operands,
      g.b.getStringAttr(match->symbol));
  TValue r{call, result, shape};
  if (fn.returnsBool)
    r = g.cast(r, DType(DType::I1), loc);
  return Val::tensor(r);
}

} // namespace handlers

} // namespace txl::irgen
