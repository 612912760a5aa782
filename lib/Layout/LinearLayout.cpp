//===- LinearLayout.cpp - F2-linear maps between named index spaces -------===//

#include "txl/Layout/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <array>

using namespace txl;
using llvm::ArrayRef;
using llvm::StringRef;

namespace {

[[noreturn]] void fail(const llvm::Twine &msg) {
  llvm::report_fatal_error("txl LinearLayout: " + msg);
}

int32_t exactLog2(int64_t size, StringRef what) {
  if (size < 1 || !llvm::isPowerOf2_64(size))
    fail(llvm::Twine(what) + " size " + llvm::Twine(size) +
         " is not a power of two");
  return llvm::Log2_64(size);
}

// Over F2, a matrix in row-echelon form keyed by leading bit. Every stored
// vector remembers which input columns XOR to it ("combo"), so solving a
// system returns the input bits directly. Columns inserted earlier become
// pivots first; a column that reduces to 0 is dependent ("free").
class Echelon {
public:
  /// Returns true if `v` was independent of the vectors inserted so far.
  bool insert(uint64_t v, uint64_t combo) {
    while (v) {
      int h = 63 - llvm::countl_zero(v);
      if (!present[h]) {
        present[h] = true;
        vecs[h] = v;
        combos[h] = combo;
        return true;
      }
      v ^= vecs[h];
      combo ^= combos[h];
    }
    return false;
  }
  /// The combo of pivot columns whose XOR is `target`, if any.
  std::optional<uint64_t> solve(uint64_t target) const {
    uint64_t combo = 0;
    while (target) {
      int h = 63 - llvm::countl_zero(target);
      if (!present[h])
        return std::nullopt;
      target ^= vecs[h];
      combo ^= combos[h];
    }
    return combo;
  }

private:
  std::array<bool, 64> present{};
  std::array<uint64_t, 64> vecs{};
  std::array<uint64_t, 64> combos{};
};

} // namespace

//===----------------------------------------------------------------------===//
// Internal bit packing. Output dims are packed first dim at the LOW bits and
// input bits are numbered in input-dim order, bit 0 first. This packing is
// private; the public flatten convention is row-major (see header).
//===----------------------------------------------------------------------===//

namespace {

struct Packing {
  std::vector<int32_t> offsets; // bit offset of each dim
  std::vector<int32_t> widths;  // log2 size of each dim
  int32_t total = 0;
};

Packing outPacking(const LinearLayout::OutDimsT &outDims) {
  Packing p;
  for (const auto &[name, size] : outDims) {
    p.offsets.push_back(p.total);
    p.widths.push_back(llvm::Log2_32(size));
    p.total += p.widths.back();
  }
  return p;
}

Packing inPacking(const LinearLayout::BasesT &bases) {
  Packing p;
  for (const auto &[name, dimBases] : bases) {
    p.offsets.push_back(p.total);
    p.widths.push_back(dimBases.size());
    p.total += p.widths.back();
  }
  return p;
}

uint64_t pack(const LinearLayout::Basis &basis, const Packing &p) {
  uint64_t v = 0;
  for (size_t k = 0; k < basis.size(); ++k)
    v |= uint64_t(basis[k]) << p.offsets[k];
  return v;
}

LinearLayout::Basis unpack(uint64_t v, const Packing &p) {
  LinearLayout::Basis basis;
  for (size_t k = 0; k < p.offsets.size(); ++k)
    basis.push_back(int32_t((v >> p.offsets[k]) & ((1ull << p.widths[k]) - 1)));
  return basis;
}

// Every input column of `ll` packed with its own output packing.
std::vector<uint64_t> columns(const LinearLayout &ll) {
  Packing p = outPacking(ll.getOutDims());
  std::vector<uint64_t> cols;
  for (const auto &[name, dimBases] : ll.getBases())
    for (const auto &basis : dimBases)
      cols.push_back(pack(basis, p));
  return cols;
}

Echelon echelonOf(const std::vector<uint64_t> &cols,
                  std::vector<bool> *isPivot = nullptr) {
  Echelon e;
  for (size_t j = 0; j < cols.size(); ++j) {
    bool pivot = e.insert(cols[j], 1ull << j);
    if (isPivot)
      isPivot->push_back(pivot);
  }
  return e;
}

} // namespace

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

std::string txl::standardOutDimName(unsigned i) {
  return "dim" + std::to_string(i);
}

std::vector<std::string> txl::standardOutDimNames(unsigned rank) {
  std::vector<std::string> names;
  for (unsigned i = 0; i < rank; ++i)
    names.push_back(standardOutDimName(i));
  return names;
}

LinearLayout::LinearLayout(BasesT basesIn, ArrayRef<std::string> outDimNames)
    : bases(std::move(basesIn)) {
  for (size_t k = 0; k < outDimNames.size(); ++k) {
    int32_t maxComp = 0;
    for (const auto &[name, dimBases] : bases)
      for (const auto &basis : dimBases)
        if (k < basis.size())
          maxComp = std::max(maxComp, basis[k]);
    int32_t size = maxComp == 0 ? 1 : int32_t(llvm::NextPowerOf2(maxComp));
    outDims.emplace_back(outDimNames[k], size);
  }
  checkInvariants(false);
}

LinearLayout::LinearLayout(BasesT basesIn,
                           ArrayRef<std::pair<std::string, int32_t>> outDimsIn,
                           bool requireSurjective)
    : bases(std::move(basesIn)), outDims(outDimsIn.begin(), outDimsIn.end()) {
  checkInvariants(requireSurjective);
}

void LinearLayout::checkInvariants(bool requireSurjective) const {
  llvm::StringSet<> seen;
  int32_t totalOut = 0;
  for (const auto &[name, size] : outDims) {
    if (!seen.insert(name).second)
      fail("duplicate output dim '" + name + "'");
    totalOut += exactLog2(size, "output dim '" + name + "'");
  }
  seen.clear();
  int32_t totalIn = 0;
  for (const auto &[name, dimBases] : bases) {
    if (!seen.insert(name).second)
      fail("duplicate input dim '" + name + "'");
    totalIn += dimBases.size();
    for (const auto &basis : dimBases) {
      if (basis.size() != outDims.size())
        fail("a basis of '" + name + "' has " + llvm::Twine(basis.size()) +
             " components, expected " + llvm::Twine(outDims.size()));
      for (size_t k = 0; k < basis.size(); ++k)
        if (basis[k] < 0 || basis[k] >= outDims[k].second)
          fail("a basis of '" + name + "' has component " +
               llvm::Twine(basis[k]) + " out of range for output dim '" +
               outDims[k].first + "'");
    }
  }
  if (totalIn > 62 || totalOut > 62)
    fail("more than 62 input or output bits");
  if (requireSurjective && !isSurjective())
    fail("layout is not surjective:\n" + toString());
}

LinearLayout LinearLayout::identity1D(int32_t size, StringRef inDim,
                                      StringRef outDim) {
  return strided1D(size, 1, inDim, outDim);
}

LinearLayout LinearLayout::strided1D(int32_t size, int32_t stride,
                                     StringRef inDim, StringRef outDim) {
  int32_t bits = exactLog2(size, "identity1D");
  exactLog2(stride, "strided1D stride");
  std::vector<Basis> dimBases;
  for (int32_t i = 0; i < bits; ++i)
    dimBases.push_back({stride << i});
  return LinearLayout({{inDim.str(), std::move(dimBases)}},
                      {{outDim.str(), size * stride}}, false);
}

LinearLayout LinearLayout::zeros1D(int32_t size, StringRef inDim,
                                   StringRef outDim, int32_t outDimSize) {
  int32_t bits = exactLog2(size, "zeros1D");
  std::vector<Basis> dimBases(bits, Basis{0});
  return LinearLayout({{inDim.str(), std::move(dimBases)}},
                      {{outDim.str(), outDimSize}}, false);
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

llvm::SmallVector<StringRef> LinearLayout::getInDimNames() const {
  llvm::SmallVector<StringRef> names;
  for (const auto &entry : bases)
    names.push_back(entry.first);
  return names;
}

llvm::SmallVector<StringRef> LinearLayout::getOutDimNames() const {
  llvm::SmallVector<StringRef> names;
  for (const auto &entry : outDims)
    names.push_back(entry.first);
  return names;
}

bool LinearLayout::hasInDim(StringRef inDim) const {
  return llvm::any_of(bases, [&](const auto &e) { return e.first == inDim; });
}

bool LinearLayout::hasOutDim(StringRef outDim) const {
  return llvm::any_of(outDims,
                      [&](const auto &e) { return e.first == outDim; });
}

unsigned LinearLayout::getInDimIndex(StringRef inDim) const {
  for (unsigned i = 0; i < bases.size(); ++i)
    if (bases[i].first == inDim)
      return i;
  fail("no input dim '" + inDim + "' in\n" + toString());
}

unsigned LinearLayout::getOutDimIndex(StringRef outDim) const {
  for (unsigned i = 0; i < outDims.size(); ++i)
    if (outDims[i].first == outDim)
      return i;
  fail("no output dim '" + outDim + "' in\n" + toString());
}

int32_t LinearLayout::getInDimSizeLog2(StringRef inDim) const {
  return bases[getInDimIndex(inDim)].second.size();
}

int32_t LinearLayout::getOutDimSizeLog2(StringRef outDim) const {
  return llvm::Log2_32(getOutDimSize(outDim));
}

int32_t LinearLayout::getOutDimSize(StringRef outDim) const {
  return outDims[getOutDimIndex(outDim)].second;
}

int32_t LinearLayout::getTotalInDimSizeLog2() const {
  int32_t total = 0;
  for (const auto &entry : bases)
    total += entry.second.size();
  return total;
}

int32_t LinearLayout::getTotalOutDimSizeLog2() const {
  int32_t total = 0;
  for (const auto &entry : outDims)
    total += llvm::Log2_32(entry.second);
  return total;
}

const LinearLayout::Basis &LinearLayout::getBasis(StringRef inDim,
                                                  int32_t bit) const {
  const auto &dimBases = bases[getInDimIndex(inDim)].second;
  if (bit < 0 || bit >= int32_t(dimBases.size()))
    fail("bit " + llvm::Twine(bit) + " out of range for input dim '" + inDim +
         "'");
  return dimBases[bit];
}

int32_t LinearLayout::getBasis(StringRef inDim, int32_t bit,
                               StringRef outDim) const {
  return getBasis(inDim, bit)[getOutDimIndex(outDim)];
}

llvm::SmallVector<int32_t>
LinearLayout::applyValues(ArrayRef<int32_t> ins) const {
  if (ins.size() != bases.size())
    fail("applyValues: expected " + llvm::Twine(bases.size()) + " inputs");
  llvm::SmallVector<int32_t> out(outDims.size(), 0);
  for (size_t d = 0; d < bases.size(); ++d) {
    const auto &dimBases = bases[d].second;
    if (ins[d] < 0 || int64_t(ins[d]) >= (int64_t(1) << dimBases.size()))
      fail("input " + llvm::Twine(ins[d]) + " out of range for '" +
           bases[d].first + "'");
    for (size_t i = 0; i < dimBases.size(); ++i)
      if (ins[d] >> i & 1)
        for (size_t k = 0; k < out.size(); ++k)
          out[k] ^= dimBases[i][k];
  }
  return out;
}

llvm::SmallVector<LinearLayout::NamedIndex>
LinearLayout::apply(ArrayRef<NamedIndex> ins) const {
  llvm::SmallVector<int32_t> values(bases.size(), 0);
  for (const auto &[name, value] : ins)
    values[getInDimIndex(name)] = value;
  llvm::SmallVector<int32_t> out = applyValues(values);
  llvm::SmallVector<NamedIndex> named;
  for (size_t k = 0; k < outDims.size(); ++k)
    named.emplace_back(outDims[k].first, out[k]);
  return named;
}

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

int32_t LinearLayout::getRank() const {
  std::vector<bool> isPivot;
  echelonOf(columns(*this), &isPivot);
  return llvm::count(isPivot, true);
}

llvm::SmallVector<LinearLayout::NamedIndex>
LinearLayout::getFreeVariableMasks() const {
  std::vector<bool> isPivot;
  echelonOf(columns(*this), &isPivot);
  llvm::SmallVector<NamedIndex> masks;
  size_t col = 0;
  for (const auto &[name, dimBases] : bases) {
    int32_t mask = 0;
    for (size_t i = 0; i < dimBases.size(); ++i, ++col)
      if (!isPivot[col])
        mask |= int32_t(1) << i;
    masks.emplace_back(name, mask);
  }
  return masks;
}

int32_t LinearLayout::getFreeVariableMask(StringRef inDim) const {
  unsigned idx = getInDimIndex(inDim);
  return getFreeVariableMasks()[idx].second;
}

int32_t LinearLayout::getNumConsecutiveInOut() const {
  if (!hasInDim(kDimRegister) || outDims.empty())
    return 1;
  size_t last = outDims.size() - 1;
  const auto &regBases = bases[getInDimIndex(kDimRegister)].second;
  auto isUnitInLast = [&](const Basis &b, int32_t i) {
    for (size_t k = 0; k < last; ++k)
      if (b[k] != 0)
        return false;
    return b[last] == (int32_t(1) << i);
  };
  int32_t k = 0;
  while (k < int32_t(regBases.size()) && isUnitInLast(regBases[k], k))
    ++k;
  // Any other input bit touching the low k bits breaks alignment (XOR would
  // reorder or offset the run), so shrink k to below its lowest such bit.
  for (const auto &[name, dimBases] : bases)
    for (size_t i = 0; i < dimBases.size(); ++i) {
      if (name == kDimRegister && int32_t(i) < k)
        continue;
      int32_t low = dimBases[i][last] & ((int32_t(1) << k) - 1);
      if (low)
        k = llvm::countr_zero(uint32_t(low));
    }
  return int32_t(1) << k;
}

//===----------------------------------------------------------------------===//
// Algebra
//===----------------------------------------------------------------------===//

namespace txl {
LinearLayout operator*(const LinearLayout &lhs, const LinearLayout &rhs) {
  // Output dims: lhs's, then rhs's new ones. rhs components are shifted
  // above lhs's in shared dims.
  LinearLayout::OutDimsT outDims = lhs.outDims;
  std::vector<int32_t> rhsToOut, rhsShift;
  for (const auto &[name, size] : rhs.outDims) {
    auto it = llvm::find_if(outDims, [&](auto &e) { return e.first == name; });
    if (it == outDims.end()) {
      rhsToOut.push_back(outDims.size());
      rhsShift.push_back(0);
      outDims.emplace_back(name, size);
    } else {
      rhsToOut.push_back(it - outDims.begin());
      rhsShift.push_back(llvm::Log2_32(it->second));
      it->second *= size;
    }
  }
  LinearLayout::BasesT bases;
  for (const auto &[name, dimBases] : lhs.bases) {
    std::vector<LinearLayout::Basis> widened;
    for (const auto &b : dimBases) {
      LinearLayout::Basis w(outDims.size(), 0);
      llvm::copy(b, w.begin());
      widened.push_back(std::move(w));
    }
    bases.emplace_back(name, std::move(widened));
  }
  for (const auto &[name, dimBases] : rhs.bases) {
    auto it = llvm::find_if(bases, [&](auto &e) { return e.first == name; });
    if (it == bases.end()) {
      bases.emplace_back(name, std::vector<LinearLayout::Basis>());
      it = bases.end() - 1;
    }
    for (const auto &b : dimBases) {
      LinearLayout::Basis w(outDims.size(), 0);
      for (size_t k = 0; k < b.size(); ++k)
        w[rhsToOut[k]] = b[k] << rhsShift[k];
      it->second.push_back(std::move(w));
    }
  }
  return LinearLayout(std::move(bases), outDims, false);
}
} // namespace txl

LinearLayout LinearLayout::compose(const LinearLayout &outer) const {
  for (const auto &[name, size] : outDims)
    if (!outer.hasInDim(name) || outer.getInDimSize(name) < size)
      fail("compose: output dim '" + name +
           "' is missing or larger in the outer layout");
  BasesT result;
  for (const auto &[name, dimBases] : bases) {
    std::vector<Basis> composed;
    for (const auto &b : dimBases) {
      llvm::SmallVector<NamedIndex> ins;
      for (size_t k = 0; k < outDims.size(); ++k)
        ins.emplace_back(outDims[k].first, b[k]);
      auto named = outer.apply(ins);
      Basis v;
      for (const auto &entry : named)
        v.push_back(entry.second);
      composed.push_back(std::move(v));
    }
    result.emplace_back(name, std::move(composed));
  }
  return LinearLayout(std::move(result), outer.outDims, false);
}

std::optional<LinearLayout> LinearLayout::tryPseudoinvert() const {
  Packing outP = outPacking(outDims), inP = inPacking(bases);
  Echelon e = echelonOf(columns(*this));
  BasesT result;
  for (size_t k = 0; k < outDims.size(); ++k) {
    std::vector<Basis> dimBases;
    for (int32_t i = 0; i < outP.widths[k]; ++i) {
      auto combo = e.solve(1ull << (outP.offsets[k] + i));
      if (!combo)
        return std::nullopt;
      dimBases.push_back(unpack(*combo, inP));
    }
    result.emplace_back(outDims[k].first, std::move(dimBases));
  }
  OutDimsT resultOuts;
  for (const auto &[name, dimBases] : bases)
    resultOuts.emplace_back(name, int32_t(1) << dimBases.size());
  return LinearLayout(std::move(result), resultOuts, false);
}

LinearLayout LinearLayout::pseudoinvert() const {
  if (auto inv = tryPseudoinvert())
    return *inv;
  fail("pseudoinvert of a non-surjective layout:\n" + toString());
}

std::optional<LinearLayout> LinearLayout::tryInvert() const {
  if (!isInjective())
    return std::nullopt;
  return tryPseudoinvert();
}

LinearLayout LinearLayout::invert() const {
  if (auto inv = tryInvert())
    return *inv;
  fail("invert of a non-bijective layout:\n" + toString());
}

std::optional<LinearLayout>
LinearLayout::tryInvertAndCompose(const LinearLayout &outer) const {
  Packing outerOutP = outPacking(outer.outDims),
          outerInP = inPacking(outer.bases);
  Echelon e = echelonOf(columns(outer));
  // Where each of this's output dims sits in outer's outputs (-1: absent).
  std::vector<int> toOuter;
  for (const auto &[name, size] : outDims)
    toOuter.push_back(outer.hasOutDim(name) ? int(outer.getOutDimIndex(name))
                                            : -1);
  BasesT result;
  for (const auto &[name, dimBases] : bases) {
    std::vector<Basis> solved;
    for (const auto &b : dimBases) {
      Basis inOuter(outer.outDims.size(), 0);
      for (size_t k = 0; k < b.size(); ++k) {
        if (b[k] == 0)
          continue;
        if (toOuter[k] < 0 || b[k] >= outer.outDims[toOuter[k]].second)
          return std::nullopt;
        inOuter[toOuter[k]] = b[k];
      }
      auto combo = e.solve(pack(inOuter, outerOutP));
      if (!combo)
        return std::nullopt;
      solved.push_back(unpack(*combo, outerInP));
    }
    result.emplace_back(name, std::move(solved));
  }
  OutDimsT resultOuts;
  for (const auto &[name, dimBases] : outer.bases)
    resultOuts.emplace_back(name, int32_t(1) << dimBases.size());
  return LinearLayout(std::move(result), resultOuts, false);
}

LinearLayout LinearLayout::invertAndCompose(const LinearLayout &outer) const {
  if (auto r = tryInvertAndCompose(outer))
    return *r;
  fail("invertAndCompose: image not covered by the outer layout\nthis:\n" +
       toString() + "outer:\n" + outer.toString());
}

//===----------------------------------------------------------------------===//
// Restructuring
//===----------------------------------------------------------------------===//

namespace {
// Index of every name of `order` in `names`, which must be a permutation.
template <typename NamesT>
std::vector<unsigned> permutationOf(const NamesT &names,
                                    ArrayRef<std::string> order) {
  if (order.size() != names.size())
    fail("transpose: wrong number of dims");
  std::vector<unsigned> perm;
  for (const auto &name : order) {
    auto it = llvm::find_if(names, [&](auto &e) { return e.first == name; });
    if (it == names.end() || llvm::is_contained(perm, it - names.begin()))
      fail("transpose: '" + name + "' is not a distinct existing dim");
    perm.push_back(it - names.begin());
  }
  return perm;
}
} // namespace

LinearLayout LinearLayout::transposeOuts(ArrayRef<std::string> order) const {
  std::vector<unsigned> perm = permutationOf(outDims, order);
  OutDimsT newOuts;
  for (unsigned p : perm)
    newOuts.push_back(outDims[p]);
  BasesT newBases;
  for (const auto &[name, dimBases] : bases) {
    std::vector<Basis> permuted;
    for (const auto &b : dimBases) {
      Basis v;
      for (unsigned p : perm)
        v.push_back(b[p]);
      permuted.push_back(std::move(v));
    }
    newBases.emplace_back(name, std::move(permuted));
  }
  return LinearLayout(std::move(newBases), newOuts, false);
}

LinearLayout LinearLayout::transposeIns(ArrayRef<std::string> order) const {
  std::vector<unsigned> perm = permutationOf(bases, order);
  BasesT newBases;
  for (unsigned p : perm)
    newBases.push_back(bases[p]);
  return LinearLayout(std::move(newBases), outDims, false);
}

LinearLayout LinearLayout::flattenOuts(StringRef name) const {
  if (getTotalOutDimSizeLog2() > 30)
    fail("flattenOuts: more than 30 output bits");
  std::string flatName = !name.empty()     ? name.str()
                         : outDims.empty() ? "dim0"
                                           : outDims[0].first;
  BasesT newBases;
  for (const auto &[inName, dimBases] : bases) {
    std::vector<Basis> flat;
    for (const auto &b : dimBases) {
      int32_t v = 0;
      for (size_t k = 0; k < b.size(); ++k)
        v = (v << llvm::Log2_32(outDims[k].second)) | b[k];
      flat.push_back({v});
    }
    newBases.emplace_back(inName, std::move(flat));
  }
  int32_t total = int32_t(1) << getTotalOutDimSizeLog2();
  return LinearLayout(std::move(newBases), {{flatName, total}}, false);
}

LinearLayout LinearLayout::flattenIns(StringRef name) const {
  if (getTotalInDimSizeLog2() > 30)
    fail("flattenIns: more than 30 input bits");
  std::string flatName = !name.empty()   ? name.str()
                         : bases.empty() ? "in"
                                         : bases[0].first;
  // Row-major: the last input dim supplies the lowest bits.
  std::vector<Basis> flat;
  for (auto it = bases.rbegin(); it != bases.rend(); ++it)
    flat.insert(flat.end(), it->second.begin(), it->second.end());
  return LinearLayout({{flatName, std::move(flat)}}, outDims, false);
}

LinearLayout LinearLayout::reshapeOuts(
    ArrayRef<std::pair<std::string, int32_t>> newOutDims) const {
  int32_t newBits = 0;
  for (const auto &[name, size] : newOutDims)
    newBits += exactLog2(size, "reshapeOuts dim '" + name + "'");
  if (newBits != getTotalOutDimSizeLog2())
    fail("reshapeOuts: total size changes");
  LinearLayout flat = flattenOuts("flat");
  BasesT newBases;
  for (const auto &[inName, dimBases] : flat.bases) {
    std::vector<Basis> split;
    for (const auto &b : dimBases) {
      Basis v(newOutDims.size(), 0);
      int32_t rest = b[0];
      for (size_t k = newOutDims.size(); k-- > 0;) {
        v[k] = rest & (newOutDims[k].second - 1);
        rest >>= llvm::Log2_32(newOutDims[k].second);
      }
      split.push_back(std::move(v));
    }
    newBases.emplace_back(inName, std::move(split));
  }
  return LinearLayout(std::move(newBases), newOutDims, false);
}

LinearLayout LinearLayout::reshapeIns(
    ArrayRef<std::pair<std::string, int32_t>> newInDims) const {
  int32_t newBits = 0;
  for (const auto &[name, size] : newInDims)
    newBits += exactLog2(size, "reshapeIns dim '" + name + "'");
  if (newBits != getTotalInDimSizeLog2())
    fail("reshapeIns: total size changes");
  std::vector<Basis> flat = flattenIns("flat").bases[0].second;
  // The last new dim takes the lowest bits.
  BasesT newBases(newInDims.size());
  size_t next = 0;
  for (size_t k = newInDims.size(); k-- > 0;) {
    int32_t bits = llvm::Log2_32(newInDims[k].second);
    newBases[k].first = newInDims[k].first;
    newBases[k].second.assign(flat.begin() + next, flat.begin() + next + bits);
    next += bits;
  }
  return LinearLayout(std::move(newBases), outDims, false);
}

LinearLayout LinearLayout::sublayout(ArrayRef<std::string> inDims,
                                     ArrayRef<std::string> outDimNames) const {
  std::vector<unsigned> outIdx;
  OutDimsT newOuts;
  for (const auto &name : outDimNames) {
    outIdx.push_back(getOutDimIndex(name));
    newOuts.push_back(outDims[outIdx.back()]);
  }
  BasesT newBases;
  for (const auto &name : inDims) {
    std::vector<Basis> restricted;
    for (const auto &b : bases[getInDimIndex(name)].second) {
      Basis v;
      for (unsigned k : outIdx)
        v.push_back(b[k]);
      restricted.push_back(std::move(v));
    }
    newBases.emplace_back(name, std::move(restricted));
  }
  return LinearLayout(std::move(newBases), newOuts, false);
}

bool LinearLayout::sublayoutIsZero(ArrayRef<std::string> inDims,
                                   ArrayRef<std::string> outDimNames) const {
  LinearLayout sub = sublayout(inDims, outDimNames);
  for (const auto &[name, dimBases] : sub.bases)
    for (const auto &b : dimBases)
      if (llvm::any_of(b, [](int32_t c) { return c != 0; }))
        return false;
  return true;
}

LinearLayout LinearLayout::removeZeroBasesAlongDim(StringRef inDim) const {
  BasesT newBases = bases;
  auto &dimBases = newBases[getInDimIndex(inDim)].second;
  llvm::erase_if(dimBases, [](const Basis &b) {
    return llvm::all_of(b, [](int32_t c) { return c == 0; });
  });
  return LinearLayout(std::move(newBases), outDims, false);
}

LinearLayout LinearLayout::resizeOutDim(StringRef outDim,
                                        int32_t newSize) const {
  exactLog2(newSize, "resizeOutDim");
  unsigned k = getOutDimIndex(outDim);
  BasesT newBases = bases;
  for (auto &[name, dimBases] : newBases)
    for (auto &b : dimBases)
      b[k] &= newSize - 1;
  OutDimsT newOuts = outDims;
  newOuts[k].second = newSize;
  return LinearLayout(std::move(newBases), newOuts, false);
}

//===----------------------------------------------------------------------===//
// Comparison and printing
//===----------------------------------------------------------------------===//

bool LinearLayout::operator==(const LinearLayout &other) const {
  return bases == other.bases && outDims == other.outDims;
}

std::string LinearLayout::toString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (const auto &[name, dimBases] : bases) {
    os << " - " << name << " (size " << (int64_t(1) << dimBases.size())
       << ")\n";
    for (size_t i = 0; i < dimBases.size(); ++i) {
      os << "     " << name << "=" << (int64_t(1) << i) << " -> (";
      llvm::interleaveComma(dimBases[i], os);
      os << ")\n";
    }
  }
  os << " where out dims are: [";
  llvm::interleaveComma(outDims, os, [&](const auto &e) {
    os << e.first << " (size " << e.second << ")";
  });
  os << "]\n";
  return s;
}

llvm::raw_ostream &txl::operator<<(llvm::raw_ostream &os,
                                   const LinearLayout &ll) {
  return os << ll.toString();
}
