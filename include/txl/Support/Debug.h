//===- Debug.h - Pass debug output in any build (TXL_DEBUG_ONLY) -*- C++
//-*-===//
//
// LLVM's -debug-only output exists only in builds with assertions, which
// txl's users (and its wheel) do not have. txl's passes write their debug
// output through TXL_DEBUG instead, which checks at run time:
//
//   TXL_DEBUG_ONLY=txlgpu-pipeline-async-copies,txl-assign-layouts txlc ...
//   TXL_DEBUG_ONLY=all txlc ...
//
// names passes by their pass argument (txlc --list-passes); the output goes
// to stderr. In a pass:
//
//   #define TXL_DEBUG_TYPE "txlgpu-pipeline-async-copies"
//   TXL_DEBUG(llvm::dbgs() << "loop at " << loop.getLoc() << ": ...\n");
//
//===----------------------------------------------------------------------===//
#ifndef TXL_SUPPORT_DEBUG_H
#define TXL_SUPPORT_DEBUG_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Debug.h"

namespace txl {

/// True when $TXL_DEBUG_ONLY names `type` or is "all" (read once).
bool debugEnabled(llvm::StringRef type);

} // namespace txl

#define TXL_DEBUG(X)                                                           \
  do {                                                                         \
    if (::txl::debugEnabled(TXL_DEBUG_TYPE)) {                                 \
      X;                                                                       \
    }                                                                          \
  } while (false)

#endif // TXL_SUPPORT_DEBUG_H
