//===- LaunchParamJson.h - one launch parameter as JSON --------*- C++ -*-===//
//
// The compiler writes the `params` entries of a kernel's metadata and the
// runtime writes them again (canonical form) and reads them back on a cache
// hit; both go through these two functions so the keys cannot drift apart.
// Kept out of Pipeline.h, which exposes no LLVM types.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_PIPELINE_LAUNCHPARAMJSON_H
#define TXL_PIPELINE_LAUNCHPARAMJSON_H

#include "txl/Pipeline/Pipeline.h"

#include "llvm/Support/JSON.h"

namespace txl {

/// {name, type, size} plus, for "tensordesc", {dtype, block, box, swizzle}.
inline llvm::json::Object launchParamToJson(const LaunchParam &p) {
  llvm::json::Object object{
      {"name", p.name}, {"type", p.type}, {"size", p.sizeBytes}};
  if (p.type == "tensordesc") {
    object["dtype"] = p.elementType;
    object["block"] = llvm::json::Array(p.block);
    object["box"] = llvm::json::Array(p.box);
    object["swizzle"] = p.swizzleBytes;
  }
  return object;
}

/// Reads the tensordesc fields of `object` into `p` (the common keys are
/// read by the caller, which accepts several spellings). False if a
/// tensordesc entry lacks them.
inline bool launchParamDescFromJson(const llvm::json::Object &object,
                                    LaunchParam &p) {
  if (p.type != "tensordesc")
    return true;
  auto ints = [&](llvm::StringRef key, std::vector<int64_t> &out) {
    const llvm::json::Array *array = object.getArray(key);
    if (!array)
      return false;
    out.clear();
    for (const llvm::json::Value &v : *array) {
      std::optional<int64_t> n = v.getAsInteger();
      if (!n)
        return false;
      out.push_back(*n);
    }
    return true;
  };
  std::optional<llvm::StringRef> dtype = object.getString("dtype");
  std::optional<int64_t> swizzle = object.getInteger("swizzle");
  if (!dtype || !swizzle || !ints("block", p.block) || !ints("box", p.box))
    return false;
  p.elementType = dtype->str();
  p.swizzleBytes = int(*swizzle);
  return true;
}

} // namespace txl

#endif // TXL_PIPELINE_LAUNCHPARAMJSON_H
