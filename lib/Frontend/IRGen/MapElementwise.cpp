//===- MapElementwise.cpp - tl.map_elementwise ----------------------------===//
//
// Triton builds a region that runs the scalar function once per element (or
// per `pack` elements), so the function may branch on an element's value.
// txl calls the function once on the whole broadcast tensors instead: the
// results are the same for every function whose `if`s and loops do not
// depend on the elements (a data-dependent `if` is a located error: the
// condition of an 'if' must be a scalar). With pack > 1, every slot of a
// pack gets the same tensors and the first slot's results are kept (the
// others are dead code): Triton leaves unspecified which elements share a
// pack, so a function may only combine a slot's own inputs.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

namespace txl::irgen {

namespace handlers {

Val mapElementwise(Gen &g, const std::string &name, CallArgs &args,
                   SourceLoc loc) {
  int64_t pack = 1;
  for (auto &kw : args.kw) {
    if (kw.first != "pack")
      g.fail(loc,
             name + "() got an unexpected keyword argument '" + kw.first + "'");
    pack = g.constInt(kw.second, "pack", loc);
  }
  if (pack < 1)
    g.fail(loc, name + ": pack must be >= 1, got " + std::to_string(pack));
  if (args.pos.empty() || args.pos[0].kind != Val::Kind::Function)
    g.fail(loc, name + ": scalar_fn must be a @jit function");
  if (args.pos.size() < 2)
    g.fail(loc, name + " must have at least 1 input tensor");
  std::vector<TValue> xs;
  for (size_t i = 1; i < args.pos.size(); ++i)
    xs.push_back(g.toTensor(args.pos[i], loc));
  for (size_t i = 1; i < xs.size(); ++i)
    std::tie(xs[0], xs[i]) = g.broadcastPair(xs[0], xs[i], loc);
  for (size_t i = 1; i < xs.size(); ++i)
    std::tie(xs[i], xs[0]) = g.broadcastPair(xs[i], xs[0], loc);
  std::vector<Val> fnArgs;
  for (const TValue &x : xs)
    for (int64_t j = 0; j < pack; ++j)
      fnArgs.push_back(Val::tensor(x));
  Val out = g.callWithValues(args.pos[0], fnArgs, loc);
  bool single = !out.isTuple();
  std::vector<Val> all = single ? std::vector<Val>{out} : out.elts;
  if (all.empty() || all.size() % size_t(pack) != 0)
    g.fail(loc, name + ": scalar_fn must return a multiple of pack=" +
                    std::to_string(pack) + " values, got " +
                    std::to_string(all.size()));
  std::vector<Val> results;
  for (size_t k = 0; k < all.size(); k += size_t(pack)) {
    TValue r = g.toTensor(all[k], loc);
    if (r.shape != xs[0].shape)
      r = g.broadcastTo(r, xs[0].shape, loc);
    results.push_back(Val::tensor(r));
  }
  // Triton's rule: a tuple unless the function returned one tensor (with
  // pack > 1 that is a tuple of one).
  return single ? results.front() : Val::tuple(results);
}

} // namespace handlers

} // namespace txl::irgen
