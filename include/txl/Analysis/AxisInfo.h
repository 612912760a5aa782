//===- AxisInfo.h - pointer/integer axis analysis --------------*- C++ -*-===//
//
// Per value and per tensor dimension, three facts that drive memory
// coalescing and vectorization (scalars are rank 0 and carry one entry):
//
//  * contiguity[d] = c: along d, every aligned block of c elements
//    ([k*c, (k+1)*c)) holds consecutive values (step 1; for pointers one
//    pointee element).
//  * divisibility[d] = v: the first element of every such c-block is a
//    multiple of v (for pointers: a byte address aligned to v bytes).
//  * constancy[d] = k: every aligned block of k elements along d holds one
//    value.
//
// All three are powers of two. Divisibility is tied to the contiguity it was
// stated for: the first elements of smaller blocks are only divisible by
// min(v, c' * unit) (see divisibilityForRuns).
//
// Assumption (as in Triton): signed division and remainder by powers of two
// are analyzed as if their dividends were non-negative, and index arithmetic
// does not overflow within a contiguous run.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_ANALYSIS_AXISINFO_H
#define TXL_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace txl {

struct AxisInfo {
  /// Divisibility claimed for zero (divisible by everything), and the cap of
  /// every divisibility.
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  llvm::SmallVector<int64_t> contiguity, divisibility, constancy;
  /// The value of every element, when it is one known integer.
  std::optional<int64_t> constantValue;
  /// Step of a contiguous run in divisibility units: the pointee size in
  /// bytes for pointers, 1 otherwise.
  int64_t unitBytes = 1;
  /// False for the lattice's bottom (not yet computed).
  bool initialized = false;

  /// Entries per fact: the rank, or 1 for scalars.
  unsigned size() const { return contiguity.size(); }

  /// No facts: contiguity 1, divisibility 1, constancy 1, for `type`.
  static AxisInfo getPessimistic(mlir::Type type);
  /// Facts of a value with the given shape (empty for scalars) whose elements
  /// are `values` in row-major order; pointers use `unitBytes` > 1.
  static AxisInfo getExact(llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<int64_t> values,
                           int64_t unitBytes = 1);
  /// Facts implied by both `lhs` and `rhs` (the lattice join).
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  /// Divisibility of the first element of every aligned block of `runLength`
  /// elements along `dim` (runLength a power of two).
  int64_t divisibilityForRuns(unsigned dim, int64_t runLength) const;
  /// Divisibility that holds for every element.
  int64_t elementDivisibility() const;

  bool operator==(const AxisInfo &other) const;
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }
  /// "contig=[..] div=[..] const=[..]".
  void print(llvm::raw_ostream &os) const;
  std::string toString() const;
};

/// Runs the analysis over `root` (a module or a function) once and answers
/// queries from the cached results; the IR must not change in between.
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(mlir::Operation *root);

  /// Facts of `value`, or nullptr when the value was not reached (dead code)
  /// or lies outside the analyzed root.
  const AxisInfo *getAxisInfo(mlir::Value value) const;

  /// Elements a thread may access with one vector instruction through this
  /// (tensor of) pointers along dim `d` (the fastest dim):
  /// min(contiguity[d], divisibility_bytes / elemBytes), capped at 16 bytes /
  /// elemBytes, at least 1.
  unsigned getPtrContiguity(mlir::Value ptr, unsigned d) const;
  /// Elements along `d` in runs that are both contiguous and aligned to their
  /// own size: min(contiguity[d], divisibility_bytes / elemBytes), uncapped
  /// (what a wider copy such as cp.async / TMA may use), at least 1.
  unsigned getPtrAlignment(mlir::Value ptr, unsigned d) const;
  /// Elements along `d` over which `mask` is constant: 1 when unknown,
  /// AxisInfo::kMaxDivisibility when there is no mask (null value) or the
  /// mask is a scalar.
  unsigned getMaskAlignment(mlir::Value mask, unsigned d) const;
  /// Dims of a tensor ordered by contiguity, most contiguous first (ties:
  /// later dim first): the `order` of a coalesced blocked layout.
  llvm::SmallVector<unsigned> getOrder(mlir::Value ptr) const;

private:
  llvm::DenseMap<mlir::Value, AxisInfo> infos;
};

/// Registers `txl-test-axis-info`, which annotates every op with its results'
/// facts (attribute `axis_info`) and every op with regions with its entry
/// block arguments' facts (`axis_info.args`).
void registerTestAxisInfoPass();

} // namespace txl

#endif
