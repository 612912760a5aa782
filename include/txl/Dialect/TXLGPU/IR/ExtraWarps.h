//===- ExtraWarps.h - warps launched beyond the tensor warps ---*- C++ -*-===//
#ifndef TXL_DIALECT_TXLGPU_IR_EXTRAWARPS_H
#define TXL_DIALECT_TXLGPU_IR_EXTRAWARPS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::txlgpu {

/// Module attribute (i32): warps the CTA is launched with beyond
/// num_warps x num_warpgroups. The TXL project launches a kernel whose
/// `txl.is_warp` roles name warps past num_warps with those warps too (a
/// TMA warp and an MMA warp beside 8 epilogue warps: warps 8 and 9 of a
/// num_warps = 8 kernel). Tensors are still laid out over num_warps warps
/// per warpgroup; the extra warps run role code (scalars, TMA, MMA
/// issue), and the CTA-wide barriers and the launch count them.
constexpr llvm::StringLiteral kNumExtraWarpsAttr = "txlgpu.num_extra_warps";

/// On an mbar_expect, tma_load or tma_store made in an `is_warp` role (i32):
/// the warp whose lane 0 issues it, the role's first warp. Without it the
/// first thread of each warpgroup that runs the op issues it - which no
/// thread of a role of other warps is (a TMA warp 9, or warp 1).
/// On a scalar txl.store or atomic made in a role (is_warpgroup or is_warp)
/// whose first warp is not warp 0: the warp whose lane 0 performs it
/// (scalarPerformerThread).
constexpr llvm::StringLiteral kIssuerWarpAttr = "txlgpu.issuer_warp";

/// The one thread that performs a scalar store or atomic: lane 0 of the
/// kIssuerWarpAttr warp where the op has one (it sits in a role that
/// thread 0 does not run, and would never be performed), else thread 0.
inline int64_t scalarPerformerThread(Operation *op) {
  if (auto issuer = op->getAttrOfType<IntegerAttr>(kIssuerWarpAttr))
    return issuer.getInt() * 32;
  return 0;
}

/// The thread that issues the single-thread async work (expect_tx, TMA
/// copies) of an op: lane 0 of its role's first warp where the op has
/// kIssuerWarpAttr, else the first thread of each warpgroup that runs it.
/// The rule's one home: the lowering builds it as IR (isWarpGroupLeader),
/// the mbarrier-protocol check evaluates it per thread.
struct AsyncIssuer {
  int64_t modulus; ///< 0: the thread id itself is compared
  int64_t thread;  ///< the issuing thread id (modulo `modulus`)
  bool issues(int64_t tid) const {
    return (modulus ? tid % modulus : tid) == thread;
  }
};

/// The issuer of `op`'s async work in a kernel of `warpsPerGroup` warps per
/// warpgroup.
inline AsyncIssuer asyncIssuerOf(Operation *op, int64_t warpsPerGroup) {
  if (auto issuer = op->getAttrOfType<IntegerAttr>(kIssuerWarpAttr))
    return {0, issuer.getInt() * 32};
  return {warpsPerGroup * 32, 0};
}

} // namespace mlir::txlgpu

#endif
