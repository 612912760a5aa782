//===- Random.cpp - tl.rand/randn/randint: Philox 4x32 (and 4x64) ---------===//
//
// Counter-based random numbers that match Triton's streams bit for bit:
// Philox with Triton's keying (the seed's low and high words are the key,
// the offset is the first counter word, the other three are zero), ten
// rounds by default, and Triton's conversions to floats (a signed fold
// scaled into [0, 1); Box-Muller for normals). Everything is built from
// element-wise integer and float ops, so it lowers wherever they do.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

#include <array>

namespace txl::irgen {

namespace {

/// The Philox constants of one word width (Salmon et al., "Parallel random
/// numbers: as easy as 1, 2, 3"; the 64-bit ones are the golden ratio and
/// sqrt(3) - 1 Weyl increments and the 4x64 multipliers).
struct PhiloxConstants {
  uint64_t keyA, keyB, roundA, roundB;
};
constexpr PhiloxConstants kPhilox32 = {0x9E3779B9u, 0xBB67AE85u, 0xD2511F53u,
                                       0xCD9E8D57u};
constexpr PhiloxConstants kPhilox64 = {
    0x9E3779B97F4A7C15ull, 0xBB67AE8584CAA73Bull, 0xD2E7470EE14C6C93ull,
    0xCA5A826395121157ull};

using Words = std::array<Val, 4>;

Val constantOf(Gen &g, const DType &d, uint64_t v) {
  Val n = Val::integer(int64_t(v));
  n.b = d.bitWidth() == 64 && int64_t(v) < 0; // an unsigned 64-bit literal
  return Val::tensor(g.constant(d, n));
}

Val call(Gen &g, const char *name, std::vector<Val> pos, SourceLoc loc) {
  CallArgs a;
  a.pos = std::move(pos);
  a.posLocs.assign(a.pos.size(), loc);
  a.loc = loc;
  return g.callBuiltin(name, a, loc);
}

int64_t roundsArg(Gen &g, const std::optional<Val> &v, SourceLoc loc) {
  if (!v || v->isNone())
    return 10;
  int64_t n = g.constInt(v, "n_rounds", loc);
  if (n < 0 || n > 64)
    g.fail(loc, "n_rounds must be in [0, 64], got " + std::to_string(n));
  return n;
}

/// `n` Philox rounds on counters `c` (all of dtype `d`, u32 or u64) keyed
/// by (k0, k1).
Words philoxRounds(Gen &g, Words c, Val k0, Val k1, const DType &d,
                   int64_t rounds, SourceLoc loc) {
  const PhiloxConstants &k = d.bitWidth() == 32 ? kPhilox32 : kPhilox64;
  Val a = constantOf(g, d, k.roundA), b = constantOf(g, d, k.roundB);
  Val keyA = constantOf(g, d, k.keyA), keyB = constantOf(g, d, k.keyB);
  auto x = [&](const Val &p, const Val &q) {
    return g.binary(BinOpKind::BitXor, p, q, loc);
  };
  for (int64_t r = 0; r < rounds; ++r) {
    Val c0 = c[0], c2 = c[2];
    c[0] = x(x(call(g, "tl.umulhi", {b, c2}, loc), c[1]), k0);
    c[2] = x(x(call(g, "tl.umulhi", {a, c0}, loc), c[3]), k1);
    c[1] = g.binary(BinOpKind::Mul, b, c2, loc);
    c[3] = g.binary(BinOpKind::Mul, a, c0, loc);
    k0 = g.binary(BinOpKind::Add, k0, keyA, loc);
    k1 = g.binary(BinOpKind::Add, k1, keyB, loc);
  }
  return c;
}

TValue intTensor(Gen &g, const Val &v, const char *what, SourceLoc loc) {
  TValue t = g.toTensor(v, loc);
  if (!t.dtype.isInt() || t.dtype.isBool())
    g.fail(loc,
           std::string(what) + " must be an integer, got " + t.dtype.str());
  return t;
}

/// Triton's philox(seed, c0..c3): the key comes from the seed; the counter
/// width (32 or 64 bits) from c0.
Words philoxSeeded(Gen &g, const Val &seed, const Words &counters,
                   int64_t rounds, SourceLoc loc) {
  TValue s = intTensor(g, seed, "seed", loc);
  if (s.isTensor())
    g.fail(loc,
           "seed must be a scalar, got a tensor of shape " + shapeStr(s.shape));
  s = g.cast(s, DType::U64, loc);
  TValue c0 = intTensor(g, counters[0], "offset", loc);
  unsigned bits = c0.dtype.bitWidth();
  if (bits != 32 && bits != 64)
    g.fail(loc, "philox needs 32- or 64-bit offsets, got " + c0.dtype.str());
  DType d = bits == 32 ? DType(DType::U32) : DType(DType::U64);
  Val lo, hi;
  if (bits == 32) {
    Val mask = constantOf(g, DType::U64, 0xffffffffu);
    Val high =
        g.binary(BinOpKind::RShift, Val::tensor(s), Val::integer(32), loc);
    hi = Val::tensor(g.cast(
        g.toTensor(g.binary(BinOpKind::BitAnd, high, mask, loc), loc), d, loc));
    lo = Val::tensor(g.cast(
        g.toTensor(g.binary(BinOpKind::BitAnd, Val::tensor(s), mask, loc), loc),
        d, loc));
  } else {
    lo = Val::tensor(s);
    hi = constantOf(g, d, 0);
  }
  Words c;
  for (int k = 0; k < 4; ++k) {
    TValue w = intTensor(g, counters[k], "counter", loc);
    if (w.dtype.bitWidth() != bits)
      g.fail(loc, "philox counters must all be " + std::to_string(bits) +
                      "-bit, got " + w.dtype.str());
    c[k] = Val::tensor(g.cast(w, d, loc, /*bitcast=*/true));
  }
  return philoxRounds(g, c, lo, hi, d, rounds, loc);
}

/// randint4x(seed, offset): Philox of (offset, 0, 0, 0).
Words randomWords(Gen &g, const std::string &name, CallArgs &args,
                  SourceLoc loc) {
  auto p = g.bind(args, {"seed", "offset", "n_rounds"}, 2, name, loc);
  Val zero = g.binary(BinOpKind::Mul, *p[1], Val::integer(0), loc);
  return philoxSeeded(g, *p[0], {*p[1], zero, zero, zero},
                      roundsArg(g, p[2], loc), loc);
}

/// A random (u)int32/64 to a float in [0, 1): fold the sign (x < 0 ->
/// -x - 1) and scale by the largest factor that keeps the maximum below 1.
Val uniform(Gen &g, const Val &v, SourceLoc loc) {
  TValue x = intTensor(g, v, "x", loc);
  bool wide = x.dtype.bitWidth() == 64;
  if (x.dtype.bitWidth() != 32 && !wide)
    g.fail(loc, "uint_to_uniform_float needs a 32- or 64-bit integer, got " +
                    x.dtype.str());
  x = g.cast(x, wide ? DType(DType::I64) : DType(DType::I32), loc,
             /*bitcast=*/true);
  double scale = wide ? 1.0842020432385337e-19 : 4.6566127342e-10;
  Val xv = Val::tensor(x);
  Val negative = g.compare(CmpOpKind::Lt, xv, Val::integer(0), loc);
  Val folded = g.binary(BinOpKind::Sub, g.unary(UnaryOpKind::Neg, xv, loc),
                        Val::integer(1), loc);
  Val y = g.where(negative, folded, xv, loc);
  return g.binary(BinOpKind::Mul, y, Val::floating(scale), loc);
}

std::pair<Val, Val> boxMuller(Gen &g, const Val &u1, const Val &u2,
                              SourceLoc loc) {
  Val a = call(g, "tl.maximum", {Val::floating(1.0e-7), u1}, loc);
  Val th = g.binary(BinOpKind::Mul, Val::floating(6.283185307179586), u2, loc);
  Val lg = call(g, "tl.log", {a}, loc);
  Val r = call(g, "tl.sqrt",
               {g.binary(BinOpKind::Mul, Val::floating(-2.0), lg, loc)}, loc);
  return {g.binary(BinOpKind::Mul, r, call(g, "tl.cos", {th}, loc), loc),
          g.binary(BinOpKind::Mul, r, call(g, "tl.sin", {th}, loc), loc)};
}

Val tuple4(const Words &w) { return Val::tuple({w[0], w[1], w[2], w[3]}); }

} // namespace

namespace handlers {

Val randint4x(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  return tuple4(randomWords(g, name, args, loc));
}

Val randint(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  return randomWords(g, name, args, loc)[0];
}

Val rand(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  return uniform(g, randomWords(g, name, args, loc)[0], loc);
}

Val rand4x(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  Words w = randomWords(g, name, args, loc);
  for (Val &v : w)
    v = uniform(g, v, loc);
  return tuple4(w);
}

Val randn(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  Words w = randomWords(g, name, args, loc);
  return boxMuller(g, uniform(g, w[0], loc), uniform(g, w[1], loc), loc).first;
}

Val randn4x(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  Words w = randomWords(g, name, args, loc);
  for (Val &v : w)
    v = uniform(g, v, loc);
  auto [n1, n2] = boxMuller(g, w[0], w[1], loc);
  auto [n3, n4] = boxMuller(g, w[2], w[3], loc);
  return Val::tuple({n1, n2, n3, n4});
}

/// tl.philox(seed, c0, c1, c2, c3, n_rounds) and
/// tl.philox_impl(c0, c1, c2, c3, k0, k1, n_rounds).
Val philox(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc) {
  if (name == "tl.philox") {
    auto p = g.bind(args, {"seed", "c0", "c1", "c2", "c3", "n_rounds"}, 5, name,
                    loc);
    return tuple4(philoxSeeded(g, *p[0], {*p[1], *p[2], *p[3], *p[4]},
                               roundsArg(g, p[5], loc), loc));
  }
  auto p = g.bind(args, {"c0", "c1", "c2", "c3", "k0", "k1", "n_rounds"}, 6,
                  name, loc);
  Words c;
  for (int k = 0; k < 4; ++k)
    c[k] = Val::tensor(intTensor(g, *p[k], "counter", loc));
  DType d = c[0].t.dtype;
  if (d.kind != DType::U32 && d.kind != DType::U64)
    g.fail(loc, name + ": counters must be uint32 or uint64, got " + d.str());
  for (int k = 0; k < 4; ++k)
    if (c[k].t.dtype != d)
      g.fail(loc, name + ": counters must all be " + d.str() + ", got " +
                      c[k].t.dtype.str());
  Val k0 = Val::tensor(g.cast(intTensor(g, *p[4], "k0", loc), d, loc));
  Val k1 = Val::tensor(g.cast(intTensor(g, *p[5], "k1", loc), d, loc));
  return tuple4(philoxRounds(g, c, k0, k1, d, roundsArg(g, p[6], loc), loc));
}

Val uintToUniformFloat(Gen &g, const std::string &name, CallArgs &args,
                       SourceLoc loc) {
  auto p = g.bind(args, {"x"}, 1, name, loc);
  return uniform(g, *p[0], loc);
}

Val pairUniformToNormal(Gen &g, const std::string &name, CallArgs &args,
                        SourceLoc loc) {
  auto p = g.bind(args, {"u1", "u2"}, 2, name, loc);
  auto [n1, n2] = boxMuller(g, *p[0], *p[1], loc);
  return Val::tuple({n1, n2});
}

} // namespace handlers

} // namespace txl::irgen
