//===- Registry.h - The one table of built-in functions ---------*- C++ -*-===//
//
// Every function a kernel may call by name — `tl.*`, `txl.*`, `triton.*`,
// Python's `math.*` and builtins — has one entry in Registry.cpp: its
// canonical name, its aliases (`tl.math.exp`, `libdevice.exp`), the handler
// that builds it, the minimum target, its Python parameter list, a one-line
// doc and how complete it is. Name resolution (Exprs.cpp), dispatch
// (Gen::callBuiltin), `txlc --list-builtins`, docs/compatibility.md and the
// Python stubs in python/txl all read this table; no other file lists
// builtin names. Triton functions txl does not implement yet are entries
// without a handler, so the compatibility table lists them too.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_LIB_FRONTEND_IRGEN_REGISTRY_H
#define TXL_LIB_FRONTEND_IRGEN_REGISTRY_H

#include "Gen.h"

#include <string>
#include <vector>

namespace txl::irgen {

/// Builds one call. `name` is the canonical name of the entry (handlers
/// shared by several entries tell them apart by it).
using BuiltinHandler = Val (*)(Gen &g, const std::string &name, CallArgs &args,
                               SourceLoc loc);

enum class Support { Full, Partial, NotYet };

struct BuiltinInfo {
  /// Canonical name: "tl.load", "txl.tma_load", "triton.cdiv", "math.log2",
  /// or a bare Python builtin ("len").
  const char *name;
  /// Python parameter list, as `help()` shows it: "(pointer, mask=None)".
  const char *params;
  const char *doc;
  /// Null: accepted by Triton, not by txl yet (listed, never resolved).
  BuiltinHandler handler;
  Support support = Support::Full;
  /// Partial: what is missing.
  const char *note = "";
  /// Other spellings: "tl.math.exp", "libdevice.exp" (also reached as
  /// triton.language.extra.libdevice.exp and tl.extra.cuda.libdevice.exp).
  std::vector<const char *> aliases = {};
  /// Minimum SM version (90: Hopper); checked before the handler runs.
  int minSm = 0;
  /// How the target error names the feature (default: the name).
  const char *targetWhat = nullptr;
};

/// The entry `name` (canonical or alias) names; null if none. Entries
/// without a handler are returned too.
const BuiltinInfo *findBuiltin(const std::string &name);
const std::vector<BuiltinInfo> &allBuiltins();

/// Handlers, defined next to the code they build (one per entry or one per
/// family of entries that differ only in an operation).
namespace handlers {
#define TXL_BUILTIN_HANDLER(fn)                                                \
  Val fn(Gen &g, const std::string &name, CallArgs &args, SourceLoc loc)
// Builtins.cpp: creation, memory, hints, debugging, casts
TXL_BUILTIN_HANDLER(programId);
TXL_BUILTIN_HANDLER(arange);
TXL_BUILTIN_HANDLER(full);
TXL_BUILTIN_HANDLER(fullLike);
TXL_BUILTIN_HANDLER(load);
TXL_BUILTIN_HANDLER(store);
TXL_BUILTIN_HANDLER(makeBlockPtr);
TXL_BUILTIN_HANDLER(advance);
TXL_BUILTIN_HANDLER(where);
TXL_BUILTIN_HANDLER(minimumMaximum);
TXL_BUILTIN_HANDLER(clamp);
TXL_BUILTIN_HANDLER(tensorDescriptorIO);
TXL_BUILTIN_HANDLER(cdiv);
TXL_BUILTIN_HANDLER(nextPowerOf2);
TXL_BUILTIN_HANDLER(multipleOf);
TXL_BUILTIN_HANDLER(maxContiguous);
TXL_BUILTIN_HANDLER(maxConstancy);
TXL_BUILTIN_HANDLER(noEffect);
TXL_BUILTIN_HANDLER(loopCondition);
TXL_BUILTIN_HANDLER(debugBarrier);
TXL_BUILTIN_HANDLER(staticAssert);
TXL_BUILTIN_HANDLER(staticPrint);
TXL_BUILTIN_HANDLER(devicePrint);
TXL_BUILTIN_HANDLER(constexprValue);
TXL_BUILTIN_HANDLER(pointerType);
TXL_BUILTIN_HANDLER(cast);
TXL_BUILTIN_HANDLER(dot);
TXL_BUILTIN_HANDLER(dotScaled);
TXL_BUILTIN_HANDLER(hostOnly);
TXL_BUILTIN_HANDLER(loopIterableOnly);
// Builtins.cpp: Python's builtins and `math` module on compile-time values
TXL_BUILTIN_HANDLER(pyLen);
TXL_BUILTIN_HANDLER(pyMinMax);
TXL_BUILTIN_HANDLER(pyAbs);
TXL_BUILTIN_HANDLER(pyFloat);
TXL_BUILTIN_HANDLER(pyInt);
TXL_BUILTIN_HANDLER(pyBool);
TXL_BUILTIN_HANDLER(pyPrint);
TXL_BUILTIN_HANDLER(pyIsinstance);
TXL_BUILTIN_HANDLER(pyHasattr);
TXL_BUILTIN_HANDLER(pyTuple);
TXL_BUILTIN_HANDLER(pyGetattr);
TXL_BUILTIN_HANDLER(pyEnumerate);
TXL_BUILTIN_HANDLER(pyZip);
TXL_BUILTIN_HANDLER(pyRound);
TXL_BUILTIN_HANDLER(mathGcd);
TXL_BUILTIN_HANDLER(mathConst);
// MathShape.cpp: element-wise math and shape manipulation
TXL_BUILTIN_HANDLER(floatUnary);
TXL_BUILTIN_HANDLER(abs);
TXL_BUILTIN_HANDLER(fma);
TXL_BUILTIN_HANDLER(pow);
TXL_BUILTIN_HANDLER(atan2);
TXL_BUILTIN_HANDLER(sigmoid);
TXL_BUILTIN_HANDLER(fdiv);
TXL_BUILTIN_HANDLER(umulhi);
TXL_BUILTIN_HANDLER(transPermute);
TXL_BUILTIN_HANDLER(reshapeView);
TXL_BUILTIN_HANDLER(ravel);
TXL_BUILTIN_HANDLER(expandDims);
TXL_BUILTIN_HANDLER(broadcastTo);
TXL_BUILTIN_HANDLER(split);
TXL_BUILTIN_HANDLER(join);
TXL_BUILTIN_HANDLER(interleave);
TXL_BUILTIN_HANDLER(flip);
TXL_BUILTIN_HANDLER(broadcast);
// Indexing.cpp
TXL_BUILTIN_HANDLER(gather);
TXL_BUILTIN_HANDLER(cat);
TXL_BUILTIN_HANDLER(swizzle2d);
// Libdevice.cpp: libdevice functions called as __nv_*
TXL_BUILTIN_HANDLER(libdeviceCall);
// InlineAsm.cpp, MapElementwise.cpp
TXL_BUILTIN_HANDLER(inlineAsmElementwise);
TXL_BUILTIN_HANDLER(mapElementwise);
// Reduce.cpp
TXL_BUILTIN_HANDLER(sumXorSum);
TXL_BUILTIN_HANDLER(maxMinArg);
TXL_BUILTIN_HANDLER(reduce);
TXL_BUILTIN_HANDLER(softmax);
TXL_BUILTIN_HANDLER(reduceOr);
// Scan.cpp
TXL_BUILTIN_HANDLER(associativeScan);
TXL_BUILTIN_HANDLER(cumsumCumprod);
TXL_BUILTIN_HANDLER(histogram);
// Sort.cpp
TXL_BUILTIN_HANDLER(sortTopk);
TXL_BUILTIN_HANDLER(bitonicMerge);
// Atomics.cpp
TXL_BUILTIN_HANDLER(atomicRMW);
TXL_BUILTIN_HANDLER(atomicCAS);
// Random.cpp: Philox
TXL_BUILTIN_HANDLER(randint4x);
TXL_BUILTIN_HANDLER(randint);
TXL_BUILTIN_HANDLER(rand);
TXL_BUILTIN_HANDLER(rand4x);
TXL_BUILTIN_HANDLER(randn);
TXL_BUILTIN_HANDLER(randn4x);
TXL_BUILTIN_HANDLER(philox);
TXL_BUILTIN_HANDLER(uintToUniformFloat);
TXL_BUILTIN_HANDLER(pairUniformToNormal);
// Hardware.cpp, HardwareMemory.cpp, Layouts.cpp: the txl.* extensions
TXL_BUILTIN_HANDLER(txlHardware);
TXL_BUILTIN_HANDLER(cudaExtra);
TXL_BUILTIN_HANDLER(txlMemory);
TXL_BUILTIN_HANDLER(txlLayout);
#undef TXL_BUILTIN_HANDLER
} // namespace handlers

} // namespace txl::irgen

#endif // TXL_LIB_FRONTEND_IRGEN_REGISTRY_H
