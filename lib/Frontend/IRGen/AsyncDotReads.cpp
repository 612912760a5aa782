//===- AsyncDotReads.cpp - reads of accumulators async wgmma may write ----===//
//
// A tl.dot on shared buffers issues one wgmma group and returns at once;
// txl.dot_wait(n) returns once at most the n most recently committed groups
// are still running. So the result of a dot is safe to read after a
// dot_wait(n) when at least n groups were committed after its own on every
// path to that wait -- and not before any such wait.
//
// The check follows every value a dot may still be writing with its *age*:
// the fewest groups committed after the one writing it, over all paths to
// the current point (capped at kAgeCap: the pending count of a wait is at
// most 7, so any wait retires an older group). A dot ages every tracked
// value by one; dot_wait(n) retires (forgets) the values of age >= n.
// Anything but the next dot's accumulator operand, a wait, or carrying the
// value through control flow is a read, and reading a tracked value fails.
// Control flow merges by taking the younger age; loops iterate to a fixed
// point (ages only decrease, so it terminates).
//
// This accepts FA3's intra-warpgroup overlap: S_{j+1} = Q K_{j+1}^T is
// issued, then O += P_j V_j, then dot_wait(1) retires S_{j+1} (one group,
// P_j V_j, is younger) while O stays in flight.
//
// One wait is implicit, as in the TXL project: a `for` loop whose results
// carry a dot result still in flight at its exit (the K loop of a
// pipelined GEMM ending on dot_wait(1), FA3's loop ending on dot_wait(1))
// is followed by dot_wait(0) on those results, so the epilogue reads the
// finished accumulator. The TXL project's kernels rely on it (its
// WGMMAPipeline inserts the same wait after the loop); without it every
// such kernel would need an explicit wait that its source does not have.
// Reads inside the loop, after an `if`, or after a `while` get no implicit
// wait and still fail.
//
// Warpgroup roles: wgmma groups and their waits belong to a warpgroup, and
// a kernel with several warpgroups branches on txl.is_warpgroup(...) again
// and again (a dot in one `if is_warpgroup([0])`, its wait in a later one).
// The check runs once per warpgroup, following only the branches of role
// conditions that warpgroup takes; a read fails if it fails for any
// warpgroup that reaches it.
//
//===----------------------------------------------------------------------===//

#include "Gen.h"

#include "txl/Dialect/TXLGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
namespace tg = mlir::txlgpu;

namespace txl::irgen {
namespace {

constexpr int kAgeCap = 8;

/// Values an async dot may still be writing -> their age. Absent: retired
/// (or never written by a dot).
using Ages = llvm::DenseMap<Value, int>;

/// `into` becomes what holds on either path: a value tracked on one is
/// tracked, with the younger age.
bool mergeInto(Ages &into, const Ages &from) {
  bool changed = false;
  for (auto [v, age] : from) {
    auto [it, inserted] = into.try_emplace(v, age);
    if (!inserted && age < it->second) {
      it->second = age;
      changed = true;
    }
    changed |= inserted;
  }
  return changed;
}

/// Keeps the values defined outside `op` (those of its regions' previous
/// iterations are other SSA instances, dead at the next one).
Ages outside(const Ages &ages, Operation *op) {
  Ages out;
  for (auto [v, age] : ages) {
    Operation *def = v.getDefiningOp();
    Region *home = def ? def->getParentRegion()
                       : llvm::cast<BlockArgument>(v).getOwner()->getParent();
    if (!op->isAncestor(home->getParentOp()))
      out[v] = age;
  }
  return out;
}

class ReadCheck {
public:
  /// `warpgroup`: the warpgroup whose paths are followed (-1: all paths).
  ReadCheck(const Gen &g, int64_t warpgroup) : g(g), warpgroup(warpgroup) {}

  /// Loops whose exit gets the implicit dot_wait(0), with the indices of
  /// the results it carries through (the union over fixed-point rounds).
  llvm::MapVector<Operation *, llvm::SmallSetVector<unsigned, 4>> exitWaits;

  void region(Region &r, Ages &ages) {
    for (Block &b : r)
      for (Operation &op : b)
        visit(&op, ages);
  }

private:
  const Gen &g;
  int64_t warpgroup;

  /// Whether this check's warpgroup takes the `then` branch of an `if` on
  /// `cond` (nullopt: not a warpgroup role, or all paths are followed).
  std::optional<bool> roleTaken(Value cond) const {
    auto it = g.rolePredicates.find(cond.getAsOpaquePointer());
    if (warpgroup < 0 || it == g.rolePredicates.end() || it->second.empty())
      return std::nullopt;
    return llvm::is_contained(it->second, warpgroup);
  }

  /// Ages of `vals` (-1 where not tracked).
  static SmallVector<int> agesOf(ValueRange vals, const Ages &ages) {
    SmallVector<int> out;
    for (Value v : vals) {
      auto it = ages.find(v);
      out.push_back(it == ages.end() ? -1 : it->second);
    }
    return out;
  }
  static void track(ValueRange vals, ArrayRef<int> a, Ages &ages) {
    for (auto [v, age] : llvm::zip(vals, a))
      if (age >= 0)
        ages[v] = age;
  }
  static SmallVector<int> younger(ArrayRef<int> a, ArrayRef<int> b) {
    SmallVector<int> out;
    for (auto [x, y] : llvm::zip(a, b))
      out.push_back(x < 0 ? y : y < 0 ? x : std::min(x, y));
    return out;
  }
  static ValueRange yielded(Region &r) {
    return r.front().getTerminator()->getOperands();
  }

  [[noreturn]] void readError(Operation *user) const {
    SourceLoc at = SourceLoc{1, 1};
    if (auto fileLoc = dyn_cast<FileLineColLoc>(user->getLoc()))
      at = SourceLoc{int(fileLoc.getLine()), int(fileLoc.getColumn())};
    g.fail(at, "this reads an accumulator that an asynchronous tl.dot on "
               "shared buffers may still be writing; call txl.dot_wait(0) "
               "before using it");
  }

  void visit(Operation *op, Ages &ages) {
    if (auto dot = dyn_cast<tg::WarpGroupDotOp>(op)) {
      for (OpOperand &use : op->getOpOperands())
        if (use.get() != dot.getC() && ages.count(use.get()))
          readError(op);
      for (auto &[v, age] : ages)
        age = std::min(age + 1, kAgeCap);
      ages[dot.getResult()] = 0;
      return;
    }
    if (auto wait = dyn_cast<tg::WarpGroupDotWaitOp>(op)) {
      int pending = int(wait.getPendings());
      Ages running;
      for (auto [v, age] : ages)
        if (age < pending)
          running[v] = age;
      ages = std::move(running);
      track(wait.getResults(), agesOf(wait.getOperands(), ages), ages);
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return forLoop(loop, ages);
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return ifElse(branch, ages);
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return whileLoop(loop, ages);
    if (isa<scf::YieldOp>(op))
      return; // carried on by the parent
    if (auto cond = dyn_cast<scf::ConditionOp>(op)) {
      if (ages.count(cond.getCondition()))
        readError(op);
      return;
    }
    for (Value v : op->getOperands())
      if (ages.count(v))
        readError(op);
    for (Region &r : op->getRegions()) {
      Ages inner = ages;
      region(r, inner); // e.g. a reduction's combiner: reads only
    }
  }

  void forLoop(scf::ForOp loop, Ages &ages) {
    for (Value v : loop.getOperands().take_front(loop.getNumControlOperands()))
      if (ages.count(v))
        readError(loop);
    SmallVector<int> carried = agesOf(loop.getInitArgs(), ages);
    Ages entry = ages, end;
    for (int round = 0;; ++round) {
      Ages body = entry;
      track(loop.getRegionIterArgs(), carried, body);
      region(loop.getRegion(), body);
      SmallVector<int> next =
          younger(carried, agesOf(yielded(loop.getRegion()), body));
      end = outside(body, loop);
      bool changed = mergeInto(entry, end) || next != carried;
      carried = next;
      if (!changed || round > 64)
        break;
    }
    mergeInto(ages, end); // zero iterations leave `ages` as it was
    track(loop.getResults(), carried, ages);
    waitAtExit(loop, carried, ages);
  }

  /// The implicit dot_wait(0) after a loop that carries a dot result still
  /// in flight out of it: it retires every group.
  void waitAtExit(scf::ForOp loop, ArrayRef<int> carried, Ages &ages) {
    auto inFlight =
        llvm::make_filter_range(llvm::seq<unsigned>(0, carried.size()),
                                [&](unsigned i) { return carried[i] >= 0; });
    // A dot_wait(0) the program itself has right after the loop does it.
    auto next = dyn_cast_or_null<tg::WarpGroupDotWaitOp>(loop->getNextNode());
    if (inFlight.empty() || (next && next.getPendings() == 0))
      return;
    exitWaits[loop].insert(inFlight.begin(), inFlight.end());
    ages.clear();
  }

  void ifElse(scf::IfOp branch, Ages &ages) {
    if (ages.count(branch.getCondition()))
      readError(branch);
    if (std::optional<bool> taken = roleTaken(branch.getCondition()))
      return roleBranch(branch, *taken, ages);
    Ages thenAges = ages, elseAges = ages;
    region(branch.getThenRegion(), thenAges);
    SmallVector<int> results(branch.getNumResults(), -1);
    if (branch.getNumResults())
      results = agesOf(yielded(branch.getThenRegion()), thenAges);
    if (!branch.getElseRegion().empty()) {
      region(branch.getElseRegion(), elseAges);
      if (branch.getNumResults())
        results =
            younger(results, agesOf(yielded(branch.getElseRegion()), elseAges));
    }
    ages = outside(thenAges, branch);
    mergeInto(ages, outside(elseAges, branch));
    track(branch.getResults(), results, ages);
  }

  /// The one branch of a role condition this check's warpgroup runs.
  void roleBranch(scf::IfOp branch, bool then, Ages &ages) {
    Region &taken = then ? branch.getThenRegion() : branch.getElseRegion();
    if (taken.empty())
      return; // an `if` without `else`, not taken: nothing runs
    region(taken, ages);
    SmallVector<int> results = agesOf(yielded(taken), ages);
    ages = outside(ages, branch);
    track(branch.getResults(), results, ages);
  }

  void whileLoop(scf::WhileOp loop, Ages &ages) {
    SmallVector<int> carried = agesOf(loop.getInits(), ages);
    Ages entry = ages, afterCond;
    SmallVector<int> passed;
    for (int round = 0;; ++round) {
      Ages before = entry;
      track(loop.getBeforeArguments(), carried, before);
      region(loop.getBefore(), before);
      passed = agesOf(loop.getConditionOp().getArgs(), before);
      afterCond = outside(before, loop);
      Ages after = afterCond;
      track(loop.getAfterArguments(), passed, after);
      region(loop.getAfter(), after);
      SmallVector<int> next =
          younger(carried, agesOf(yielded(loop.getAfter()), after));
      bool changed = mergeInto(entry, outside(after, loop)) || next != carried;
      carried = next;
      if (!changed || round > 64)
        break;
    }
    ages = afterCond; // the loop leaves through its condition
    track(loop.getResults(), passed, ages);
  }
};

} // namespace

/// Inserts the implicit dot_wait(0) after `loop`, threading the results at
/// `indices` through it so every later use is ordered after the wait.
static void insertExitWait(Operation *loop, ArrayRef<unsigned> indices) {
  SmallVector<Value> results;
  for (unsigned i : indices)
    results.push_back(loop->getResult(i));
  OpBuilder b(loop->getContext());
  b.setInsertionPointAfter(loop);
  auto wait = tg::WarpGroupDotWaitOp::create(b, loop->getLoc(),
                                             ValueRange(results).getTypes(),
                                             results, b.getI32IntegerAttr(0));
  for (auto [from, to] : llvm::zip(results, wait.getResults()))
    from.replaceAllUsesExcept(to, wait);
}

void Gen::checkAccumulatorReads(func::FuncOp func) {
  // Loop -> the results that get the implicit wait, over all warpgroups.
  llvm::MapVector<Operation *, llvm::SmallSetVector<unsigned, 4>> exitWaits;
  for (int64_t wg = 0; wg < std::max(1, opts.numWarpgroups); ++wg) {
    Ages ages;
    ReadCheck check(*this, opts.numWarpgroups > 1 ? wg : -1);
    check.region(func.getBody(), ages);
    for (auto &[loop, indices] : check.exitWaits)
      exitWaits[loop].insert(indices.begin(), indices.end());
  }
  for (auto &[loop, indices] : exitWaits)
    insertExitWait(loop, indices.getArrayRef());
}

} // namespace txl::irgen
