//===- Debug.cpp - Pass debug output in any build (TXL_DEBUG_ONLY) --------===//
#include "txl/Support/Debug.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <cstdlib>

namespace txl {

namespace {

struct DebugTypes {
  bool all = false;
  llvm::StringSet<> names;
  DebugTypes() {
    const char *env = std::getenv("TXL_DEBUG_ONLY");
    if (!env)
      return;
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(env).split(parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef part : parts) {
      part = part.trim();
      all |= part == "all";
      names.insert(part);
    }
  }
};

} // namespace

bool debugEnabled(llvm::StringRef type) {
  static const DebugTypes types; // thread-safe initialization, read once
  return types.all || types.names.contains(type);
}

} // namespace txl
