//===- AxisInfo.cpp - lattice value, data-flow driver and queries ---------===//
//
// The facts are propagated with MLIR's sparse forward data-flow framework so
// that scf.for / scf.if / scf.while are handled by its region-branch logic:
// loop-carried values are joined over the entry and every back edge until a
// fixpoint, so no fact survives a back edge that does not hold for it.
//
//===----------------------------------------------------------------------===//
#include "txl/Analysis/AxisInfo.h"

#include "AxisInfoRules.h"

#include "txl/Dialect/TXL/IR/Dialect.h"

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using ::txl::AxisInfo;
using ::txl::AxisInfoAnalysis;

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo AxisInfo::getPessimistic(Type type) {
  AxisInfo info;
  unsigned n = 1;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    n = std::max<unsigned>(1, tensor.getRank());
  info.contiguity.assign(n, 1);
  info.divisibility.assign(n, 1);
  info.constancy.assign(n, 1);
  info.unitBytes = ::txl::detail::unitBytesOf(type);
  info.initialized = true;
  return info;
}

int64_t AxisInfo::divisibilityForRuns(unsigned dim, int64_t runLength) const {
  // Runs at least as long as the contiguity start at a subset of the
  // contiguity blocks' first elements; shorter runs start inside a block, at
  // a multiple of runLength steps past its first element.
  if (runLength >= contiguity[dim])
    return divisibility[dim];
  int64_t step = runLength * unitBytes;
  return std::min(divisibility[dim], std::max<int64_t>(step, 1));
}

int64_t AxisInfo::elementDivisibility() const {
  // Each dim's per-element claim covers every element; all of them hold.
  int64_t best = 1;
  for (unsigned d = 0; d < size(); ++d)
    best = std::max(best, divisibilityForRuns(d, 1));
  return best;
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.initialized)
    return rhs;
  if (!rhs.initialized)
    return lhs;
  AxisInfo out = lhs;
  if (lhs.size() != rhs.size() || lhs.unitBytes != rhs.unitBytes) {
    // Never happens for well-typed IR; fall back to no facts.
    std::fill(out.contiguity.begin(), out.contiguity.end(), 1);
    std::fill(out.divisibility.begin(), out.divisibility.end(), 1);
    std::fill(out.constancy.begin(), out.constancy.end(), 1);
    out.constantValue.reset();
    return out;
  }
  for (unsigned d = 0; d < lhs.size(); ++d) {
    int64_t contig = std::min(lhs.contiguity[d], rhs.contiguity[d]);
    out.contiguity[d] = contig;
    out.divisibility[d] = std::min(lhs.divisibilityForRuns(d, contig),
                                   rhs.divisibilityForRuns(d, contig));
    out.constancy[d] = std::min(lhs.constancy[d], rhs.constancy[d]);
  }
  if (lhs.constantValue != rhs.constantValue)
    out.constantValue.reset();
  return out;
}

// Largest power of two p <= limit such that every aligned block of p
// elements along the dim (size n, stride s) satisfies `linked` between
// neighbours.
template <typename Linked>
static int64_t longestAlignedRun(ArrayRef<int64_t> values, int64_t n,
                                 int64_t stride, Linked linked) {
  int64_t run = int64_t(llvm::PowerOf2Ceil(uint64_t(n)));
  auto holds = [&](int64_t len) {
    for (int64_t idx = 0; idx < int64_t(values.size()); ++idx) {
      int64_t i = (idx / stride) % n;
      if (i % len != 0 && !linked(values[idx - stride], values[idx]))
        return false;
    }
    return true;
  };
  while (run > 1 && !holds(run))
    run /= 2;
  return run;
}

AxisInfo AxisInfo::getExact(ArrayRef<int64_t> shape, ArrayRef<int64_t> values,
                            int64_t unitBytes) {
  AxisInfo info;
  info.unitBytes = unitBytes;
  info.initialized = true;
  unsigned rank = std::max<unsigned>(1, shape.size());
  info.contiguity.assign(rank, 1);
  info.divisibility.assign(rank, kMaxDivisibility);
  info.constancy.assign(rank, 1);
  if (values.empty())
    return info;
  if (llvm::all_equal(values) && unitBytes == 1)
    info.constantValue = values.front();
  int64_t stride = 1;
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    int64_t n = shape[d];
    info.contiguity[d] =
        longestAlignedRun(values, n, stride, [&](int64_t a, int64_t b) {
          return b - a == unitBytes;
        });
    info.constancy[d] = longestAlignedRun(
        values, n, stride, [](int64_t a, int64_t b) { return a == b; });
    for (int64_t idx = 0; idx < int64_t(values.size()); ++idx)
      if (((idx / stride) % n) % info.contiguity[d] == 0)
        info.divisibility[d] =
            std::min(info.divisibility[d],
                     ::txl::detail::highestPow2Divisor(values[idx]));
    stride *= n;
  }
  if (shape.empty())
    info.divisibility[0] = ::txl::detail::highestPow2Divisor(values.front());
  return info;
}

bool AxisInfo::operator==(const AxisInfo &other) const {
  return initialized == other.initialized && contiguity == other.contiguity &&
         divisibility == other.divisibility && constancy == other.constancy &&
         constantValue == other.constantValue && unitBytes == other.unitBytes;
}

static void printList(llvm::raw_ostream &os, ArrayRef<int64_t> list) {
  os << "[";
  llvm::interleave(list, os, ", ");
  os << "]";
}

void AxisInfo::print(llvm::raw_ostream &os) const {
  if (!initialized) {
    os << "<uninitialized>";
    return;
  }
  os << "contig=";
  printList(os, contiguity);
  os << " div=";
  printList(os, divisibility);
  os << " const=";
  printList(os, constancy);
}

std::string AxisInfo::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Data-flow driver
//===----------------------------------------------------------------------===//

namespace {
class AxisInfoLattice : public dataflow::Lattice<AxisInfo> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AxisInfoLattice)
  using Lattice::Lattice;
};

class AxisInfoDataFlow
    : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  void setToEntryState(AxisInfoLattice *lattice) override {
    AxisInfo entry = ::txl::detail::inferEntryValue(lattice->getAnchor());
    propagateIfChanged(lattice, lattice->join(entry));
  }

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override {
    // Wait for every operand: deciding early would pin pessimistic facts
    // that the join could never raise again.
    SmallVector<const AxisInfo *> in;
    for (const AxisInfoLattice *operand : operands) {
      if (!operand->getValue().initialized)
        return success();
      in.push_back(&operand->getValue());
    }
    SmallVector<AxisInfo> out = ::txl::detail::inferResults(op, in);
    for (auto [lattice, info] : llvm::zip(results, out))
      propagateIfChanged(lattice, lattice->join(info));
    return success();
  }

  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override {
    auto forOp = dyn_cast<scf::ForOp>(op);
    if (!forOp || successor.getSuccessor() != &forOp.getRegion() ||
        firstIndex != 1) {
      SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
          op, successor, argLattices, firstIndex);
      return;
    }
    ProgramPoint *point = getProgramPointAfter(op);
    const AxisInfoLattice *lb =
        getLatticeElementFor(point, forOp.getLowerBound());
    const AxisInfoLattice *step = getLatticeElementFor(point, forOp.getStep());
    if (!lb->getValue().initialized || !step->getValue().initialized)
      return;
    AxisInfo iv = ::txl::detail::inferInductionVar(
        forOp.getInductionVar(), lb->getValue(), step->getValue());
    propagateIfChanged(argLattices[0], argLattices[0]->join(iv));
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// AxisInfoAnalysis
//===----------------------------------------------------------------------===//

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root) {
  DataFlowSolver solver;
  dataflow::loadBaselineAnalyses(solver);
  solver.load<AxisInfoDataFlow>();
  if (failed(solver.initializeAndRun(root)))
    return;
  auto record = [&](Value value) {
    const auto *state = solver.lookupState<AxisInfoLattice>(value);
    if (state && state->getValue().initialized)
      infos.try_emplace(value, state->getValue());
  };
  root->walk([&](Operation *op) {
    for (Value result : op->getResults())
      record(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          record(arg);
  });
}

const AxisInfo *AxisInfoAnalysis::getAxisInfo(Value value) const {
  auto it = infos.find(value);
  return it == infos.end() ? nullptr : &it->second;
}

// Run length along `d` whose first element is aligned to the whole run.
static int64_t alignedRun(const AxisInfo &info, unsigned d, int64_t elemBytes) {
  int64_t alignedElems = std::max<int64_t>(1, info.divisibility[d] / elemBytes);
  return std::max<int64_t>(1, std::min(info.contiguity[d], alignedElems));
}

unsigned AxisInfoAnalysis::getPtrAlignment(Value ptr, unsigned d) const {
  const AxisInfo *info = getAxisInfo(ptr);
  if (!info || d >= info->size())
    return 1;
  return unsigned(alignedRun(*info, d, std::max<int64_t>(1, info->unitBytes)));
}

unsigned AxisInfoAnalysis::getPtrContiguity(Value ptr, unsigned d) const {
  const AxisInfo *info = getAxisInfo(ptr);
  if (!info || d >= info->size())
    return 1;
  int64_t elemBytes = std::max<int64_t>(1, info->unitBytes);
  int64_t maxVector = std::max<int64_t>(1, 16 / elemBytes);
  return unsigned(std::min(alignedRun(*info, d, elemBytes), maxVector));
}

unsigned AxisInfoAnalysis::getMaskAlignment(Value mask, unsigned d) const {
  if (!mask || !isa<RankedTensorType>(mask.getType()))
    return unsigned(AxisInfo::kMaxDivisibility);
  const AxisInfo *info = getAxisInfo(mask);
  if (!info || d >= info->size())
    return 1;
  return unsigned(info->constancy[d]);
}

SmallVector<unsigned> AxisInfoAnalysis::getOrder(Value ptr) const {
  auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tensor)
    return {};
  SmallVector<unsigned> order;
  for (int d = int(tensor.getRank()) - 1; d >= 0; --d)
    order.push_back(unsigned(d));
  const AxisInfo *info = getAxisInfo(ptr);
  if (!info || info->size() != order.size())
    return order;
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return info->contiguity[a] > info->contiguity[b];
  });
  return order;
}
