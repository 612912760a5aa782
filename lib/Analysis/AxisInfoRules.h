//===- AxisInfoRules.h - transfer functions of the axis analysis -*- C++
//-*-===//
//
// Internal to TXLAnalysis: the per-op rules, kept apart from the data-flow
// driver so they can be read (and tested through it) on their own.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_LIB_ANALYSIS_AXISINFORULES_H
#define TXL_LIB_ANALYSIS_AXISINFORULES_H

#include "txl/Analysis/AxisInfo.h"

#include "mlir/IR/Value.h"

namespace txl::detail {

/// Pointee size in bytes for (tensors of) pointers, 1 for everything else.
int64_t unitBytesOf(mlir::Type type);
/// Largest power of two dividing `value` (kMaxDivisibility for 0), capped.
int64_t highestPow2Divisor(int64_t value);

/// Facts of every result of `op` from its operands' (initialized) facts.
llvm::SmallVector<AxisInfo> inferResults(mlir::Operation *op,
                                         llvm::ArrayRef<const AxisInfo *> in);
/// Facts of a value nothing flows into: function arguments read their
/// `txl.divisibility` / `txl.equal_to_1` attributes; anything else has none.
AxisInfo inferEntryValue(mlir::Value value);
/// Facts of an scf.for induction variable: lb + i * step.
AxisInfo inferInductionVar(mlir::Value iv, const AxisInfo &lowerBound,
                           const AxisInfo &step);

} // namespace txl::detail

#endif
