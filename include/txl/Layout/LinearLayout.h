//===- LinearLayout.h - F2-linear maps between named index spaces -*- C++
//-*-===//
//
// A LinearLayout is a linear map over the field F2 (bits, XOR) from named
// *input* dimensions to named *output* dimensions. Every dimension has a
// power-of-two size, so an index in it is a bit vector. Distributed layouts
// map (register, lane, warp) to tensor coordinates (dim0, dim1, ...); shared
// layouts map (offset) to tensor coordinates.
//
// Representation: for every input dimension and every bit i of it, a *basis*:
// the output index (one integer per output dimension) that the input index
// with only bit i set maps to. Applying the layout XORs the bases of all set
// input bits, independently for every output dimension:
//
//   L(x) = XOR_{in dim d, bit i set in x_d} bases[d][i]
//
// A basis component may be any integer smaller than its output dimension's
// size (not only a power of two): that is how swizzles are expressed.
//
// Dimension order and the flattening convention (the lowering relies on it):
//   * Input and output dimensions keep the order in which they were given.
//   * Flattening several dimensions into one (flattenOuts, flattenIns,
//     reshapeOuts, reshapeIns) is ROW-MAJOR: the FIRST dimension is the
//     SLOWEST varying, the LAST dimension the FASTEST. For output dims
//     (d0, d1, ..., dk) with sizes (S0, S1, ..., Sk):
//         flat = ((d0 * S1 + d1) * S2 + d2) ... * Sk + dk
//     i.e. dk occupies the lowest bits of the flat index. For a tensor with
//     standard dims dim0..dim{r-1} this is the usual C / row-major linear
//     offset. The same rule holds for input dims: to flatten (register, lane,
//     warp) with register lowest, first transposeIns({warp, lane, register}).
//   * Both are the *opposite* of Triton's convention (where the first dim is
//     the most minor); code ported from Triton must account for it.
//
// Fallibility: operations whose preconditions can legitimately fail (inverse
// of a non-bijective map, ...) have a try* form returning std::nullopt.
// The plain forms treat a violated precondition as a compiler bug and call
// llvm::report_fatal_error with a message (never undefined behaviour).
//
// Sizes: total input and output bits are each limited to 62.
//
//===----------------------------------------------------------------------===//

#ifndef TXL_LAYOUT_LINEARLAYOUT_H
#define TXL_LAYOUT_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace txl {

// Standard input dimension names.
inline constexpr llvm::StringLiteral kDimRegister{"register"};
inline constexpr llvm::StringLiteral kDimLane{"lane"};
inline constexpr llvm::StringLiteral kDimWarp{"warp"};
inline constexpr llvm::StringLiteral kDimBlock{"block"};
/// Input dimension of shared-memory layouts: the element offset in a buffer.
inline constexpr llvm::StringLiteral kDimOffset{"offset"};

/// Standard output (tensor coordinate) dimension name: "dim<i>".
std::string standardOutDimName(unsigned i);
/// {"dim0", ..., "dim<rank-1>"}.
std::vector<std::string> standardOutDimNames(unsigned rank);

class LinearLayout {
public:
  /// One basis: one value per output dimension, in output-dimension order.
  using Basis = std::vector<int32_t>;
  /// For each input dimension (in order): its name and one basis per bit
  /// (bit 0 first). The input dimension's size is 2^(number of bases).
  using BasesT = std::vector<std::pair<std::string, std::vector<Basis>>>;
  /// Output dimensions (in order): name and size (a power of two).
  using OutDimsT = std::vector<std::pair<std::string, int32_t>>;
  /// A named index (input or output), e.g. {"lane", 5}.
  using NamedIndex = std::pair<std::string, int32_t>;

  /// The empty layout: no input and no output dimensions (the unit of `*`).
  LinearLayout() = default;

  /// Bases plus output-dimension names; each output size is the smallest
  /// power of two strictly greater than every basis component in that dim
  /// (so the layout is as small as it can be; 1 if all components are 0).
  LinearLayout(BasesT bases, llvm::ArrayRef<std::string> outDimNames);

  /// Bases plus explicit output sizes. Every basis component must be smaller
  /// than its dimension's size. If requireSurjective, the layout must also be
  /// surjective (report_fatal_error otherwise).
  LinearLayout(BasesT bases,
               llvm::ArrayRef<std::pair<std::string, int32_t>> outDims,
               bool requireSurjective);

  static LinearLayout empty() { return LinearLayout(); }
  /// inDim(size) -> outDim(size), x -> x. `size` is a power of two.
  static LinearLayout identity1D(int32_t size, llvm::StringRef inDim,
                                 llvm::StringRef outDim);
  /// inDim(size) -> outDim(outDimSize), x -> 0: every input bit is broadcast.
  static LinearLayout zeros1D(int32_t size, llvm::StringRef inDim,
                              llvm::StringRef outDim, int32_t outDimSize = 1);
  /// inDim(size) -> outDim(size*stride), x -> x*stride (stride a power of 2).
  static LinearLayout strided1D(int32_t size, int32_t stride,
                                llvm::StringRef inDim, llvm::StringRef outDim);

  // ---- Shape queries --------------------------------------------------
  unsigned getNumInDims() const { return bases.size(); }
  unsigned getNumOutDims() const { return outDims.size(); }
  llvm::SmallVector<llvm::StringRef> getInDimNames() const;
  llvm::SmallVector<llvm::StringRef> getOutDimNames() const;
  bool hasInDim(llvm::StringRef inDim) const;
  bool hasOutDim(llvm::StringRef outDim) const;
  /// Position of a dimension; report_fatal_error if absent.
  unsigned getInDimIndex(llvm::StringRef inDim) const;
  unsigned getOutDimIndex(llvm::StringRef outDim) const;

  int32_t getInDimSizeLog2(llvm::StringRef inDim) const;
  int32_t getInDimSize(llvm::StringRef inDim) const {
    return int32_t(1) << getInDimSizeLog2(inDim);
  }
  int32_t getOutDimSizeLog2(llvm::StringRef outDim) const;
  int32_t getOutDimSize(llvm::StringRef outDim) const;
  /// Sum of log2 sizes over all input (output) dims.
  int32_t getTotalInDimSizeLog2() const;
  int32_t getTotalOutDimSizeLog2() const;
  /// Product of the sizes of all input (output) dims.
  int64_t getTotalInDimSize() const {
    return int64_t(1) << getTotalInDimSizeLog2();
  }
  int64_t getTotalOutDimSize() const {
    return int64_t(1) << getTotalOutDimSizeLog2();
  }
  /// Output dimensions with their sizes, in order.
  const OutDimsT &getOutDims() const { return outDims; }

  // ---- Bases ----------------------------------------------------------
  const BasesT &getBases() const { return bases; }
  /// The basis of bit `bit` of `inDim`, one value per output dim.
  const Basis &getBasis(llvm::StringRef inDim, int32_t bit) const;
  int32_t getBasis(llvm::StringRef inDim, int32_t bit,
                   llvm::StringRef outDim) const;

  // ---- Evaluation -----------------------------------------------------
  /// Apply to named inputs. Input dims not mentioned are 0; unknown names or
  /// out-of-range values are fatal. Returns every output dim, in order.
  llvm::SmallVector<NamedIndex> apply(llvm::ArrayRef<NamedIndex> ins) const;
  /// Apply to one value per input dim (in input-dim order); returns one
  /// value per output dim (in output-dim order).
  llvm::SmallVector<int32_t> applyValues(llvm::ArrayRef<int32_t> ins) const;

  // ---- Properties -----------------------------------------------------
  /// Rank over F2 of the map (number of independent output bits reached).
  int32_t getRank() const;
  bool isSurjective() const { return getRank() == getTotalOutDimSizeLog2(); }
  bool isInjective() const { return getRank() == getTotalInDimSizeLog2(); }
  bool isInvertible() const { return isSurjective() && isInjective(); }

  /// For every input dim (in order): the mask of its *free* bits. Columns
  /// are scanned in input-dim order, bit 0 first; a bit is free when its
  /// basis is a XOR of earlier (non-free) bases -- in particular when it is
  /// zero (a broadcast / replicated bit). Setting free bits to 0 visits every
  /// element of the image exactly once; every input is equivalent to exactly
  /// one such input. Used to mask duplicate stores and duplicate reductions.
  llvm::SmallVector<NamedIndex> getFreeVariableMasks() const;
  int32_t getFreeVariableMask(llvm::StringRef inDim) const;

  /// Number of consecutive registers that hold consecutive elements of the
  /// LAST (fastest) output dim: the largest 2^k such that register bit i maps
  /// to (0, ..., 0, 2^i) for all i < k AND no other input bit (of any input
  /// dim, or a higher register bit) touches the low k bits of the last output
  /// dim (so each run of 2^k registers starts at a multiple of 2^k and is in
  /// increasing order). 1 if there is no "register" dim. For contiguity
  /// across all output dims of a row-major buffer, call flattenOuts() first.
  int32_t getNumConsecutiveInOut() const;

  // ---- Algebra --------------------------------------------------------
  /// Product of layouts acting on independent bits: input dims of `rhs` not
  /// in `lhs` are appended, shared input dims concatenate their bases (lhs's
  /// bits low, rhs's bits high). Output dims of `rhs` not in `lhs` are
  /// appended; a shared output dim gets size lhs*rhs and rhs's components in
  /// it are shifted above lhs's (rhs repeats lhs's tile).
  friend LinearLayout operator*(const LinearLayout &lhs,
                                const LinearLayout &rhs);
  LinearLayout &operator*=(const LinearLayout &rhs) {
    return *this = *this * rhs;
  }

  /// x -> outer(this(x)). this's output dims must all be input dims of
  /// `outer` with sizes no larger than outer's. Result: this's input dims ->
  /// outer's output dims.
  LinearLayout compose(const LinearLayout &outer) const;

  /// Inverse of a bijective layout: output dims become input dims and vice
  /// versa (names and sizes kept). Fatal / nullopt if not bijective.
  LinearLayout invert() const;
  std::optional<LinearLayout> tryInvert() const;

  /// A right inverse of a surjective layout: P with this(P(y)) == y for all
  /// y. Where preimages are not unique, picks the one whose free bits (see
  /// getFreeVariableMasks) are all zero. Fatal / nullopt if not surjective.
  LinearLayout pseudoinvert() const;
  std::optional<LinearLayout> tryPseudoinvert() const;

  /// this: A -> C, outer: B -> C. Returns R: A -> B with
  /// outer(R(a)) == this(a) for all a, picking for each value the preimage
  /// under `outer` whose free bits are zero (a broadcast destination register
  /// resolves to the lowest register holding the element). Output dims of
  /// this absent from outer must map to 0. Fatal / nullopt when some this(a)
  /// is not in the image of `outer`.
  /// Example: src.invertAndCompose(dst) maps a source (register, lane, warp)
  /// to the destination (register, lane, warp) holding the same element.
  LinearLayout invertAndCompose(const LinearLayout &outer) const;
  std::optional<LinearLayout>
  tryInvertAndCompose(const LinearLayout &outer) const;

  // ---- Restructuring --------------------------------------------------
  /// Permute output (input) dims; `newOrder` lists every dim exactly once.
  LinearLayout transposeOuts(llvm::ArrayRef<std::string> newOrder) const;
  LinearLayout transposeIns(llvm::ArrayRef<std::string> newOrder) const;

  /// Row-major (first dim slowest) flatten of all output dims into one named
  /// `name` (default: the name of the first output dim). Same for inputs.
  LinearLayout flattenOuts(llvm::StringRef name = "") const;
  LinearLayout flattenIns(llvm::StringRef name = "") const;

  /// Row-major flatten then row-major split into `newOutDims` (names and
  /// sizes; total size must match). Same for inputs.
  LinearLayout
  reshapeOuts(llvm::ArrayRef<std::pair<std::string, int32_t>> newOutDims) const;
  LinearLayout
  reshapeIns(llvm::ArrayRef<std::pair<std::string, int32_t>> newInDims) const;

  /// Keep only the given input and output dims, in the given order.
  LinearLayout sublayout(llvm::ArrayRef<std::string> inDims,
                         llvm::ArrayRef<std::string> outDims) const;
  /// True when every basis of the given input dims is 0 in the given outputs.
  bool sublayoutIsZero(llvm::ArrayRef<std::string> inDims,
                       llvm::ArrayRef<std::string> outDims) const;

  /// Drop every all-zero basis of `inDim` (its size shrinks accordingly).
  LinearLayout removeZeroBasesAlongDim(llvm::StringRef inDim) const;

  /// Set output dim `outDim`'s size to `newSize` (power of two). Shrinking
  /// keeps only the low bits of every component (coordinate mod newSize);
  /// growing just widens the range.
  LinearLayout resizeOutDim(llvm::StringRef outDim, int32_t newSize) const;

  // ---- Comparison and printing ----------------------------------------
  /// Same dims (names, order, sizes) and same bases.
  bool operator==(const LinearLayout &other) const;
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }
  std::string toString() const;

private:
  BasesT bases;
  OutDimsT outDims;

  void checkInvariants(bool requireSurjective) const;
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const LinearLayout &ll);

} // namespace txl

#endif // TXL_LAYOUT_LINEARLAYOUT_H
