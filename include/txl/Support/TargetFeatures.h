//===- TargetFeatures.h - What each GPU target has --------------*- C++ -*-===//
//
// The one home of the per-target hardware facts the front end, the layout
// pass and the pipeline ask about: which tensor-core instruction families
// a target has and how much shared memory one CTA may use. Targets are
// "sm_XY" strings with an optional "a"/"f" suffix (sm_80, sm_90a,
// sm_100a, sm_120a).
//
// The two Blackwell families differ: sm_100a/sm_101a/sm_103a (data
// centre) have tensor memory and tcgen05; sm_120a (GeForce/RTX) has TMA,
// mbarrier transactions and clusters like Hopper, but neither wgmma nor
// tcgen05 - its dots are mma.sync, as on sm_80/sm_89.
//
//===----------------------------------------------------------------------===//

#ifndef TXL_SUPPORT_TARGETFEATURES_H
#define TXL_SUPPORT_TARGETFEATURES_H

#include "llvm/ADT/StringRef.h"

namespace txl {

/// The number in "sm_XY[a|f]" (90 for sm_90a); 0 if `target` is not one.
inline int targetSmVersion(llvm::StringRef target) {
  int sm = 0;
  if (target.consume_front("sm_"))
    target.take_while([](char c) { return c >= '0' && c <= '9'; })
        .getAsInteger(10, sm);
  return sm;
}

/// Hopper's warpgroup MMA (wgmma.mma_async): sm_90 only.
inline bool targetHasWgmma(llvm::StringRef target) {
  return target.starts_with("sm_90");
}

/// Tensor memory and tcgen05 (data-centre Blackwell; not sm_120a).
inline bool targetHasTcgen05(llvm::StringRef target) {
  return target == "sm_100a" || target == "sm_101a" || target == "sm_103a";
}

/// The most dynamic shared memory one CTA may use on `target` (bytes), from
/// the CUDA programming guide's per-compute-capability table: 163 KB on
/// 8.0/8.7, 99 KB on 8.6/8.9 and 12.x, 227 KB on 9.0 and 10.x.
inline int targetMaxSharedBytesPerBlock(llvm::StringRef target) {
  int sm = targetSmVersion(target);
  if (sm >= 80 && sm < 90)
    return sm == 80 || sm == 87 ? 163 * 1024 : 99 * 1024;
  if (sm >= 120)
    return 99 * 1024;
  return 227 * 1024;
}

} // namespace txl

#endif // TXL_SUPPORT_TARGETFEATURES_H
