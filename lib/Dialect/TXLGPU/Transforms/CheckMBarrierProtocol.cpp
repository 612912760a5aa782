//===- CheckMBarrierProtocol.cpp - arrivals, bytes and trips per phase ----===//
//
// An mbarrier phase completes when its arrival count reaches the count the
// barrier was initialized with and every byte announced by expect_tx has
// landed. A count or a byte total that is off by one does not fail to
// compile or trap: the kernel hangs, or a phase completes early and a
// consumer reads a tile that is still in flight. This pass finds the cases
// it can prove from the IR:
//
//  * a site: one execution of an arrive makes more arrivals than a phase
//    takes (128 threads of a warpgroup on a barrier of count 1), or an
//    expect / TMA load sits where no thread issues it (both are issued by
//    the first thread of a warpgroup);
//  * a phase: the sites that signal a barrier (ring) once per "round" -
//    one execution of the block they are in, i.e. one loop iteration, with
//    one role per block - make a different number of arrivals than the
//    init count, or announce a different number of bytes than their TMA
//    boxes deliver. Only counted where a round provably is one phase: the
//    signals are unconditional in their block (or the same in both
//    branches of an if), the roles are disjoint thread sets whose loops
//    have the same bounds, and some thread waits on the barrier once per
//    round of such a loop;
//  * trip counts: a role that signals a barrier and a role that waits on
//    it run loop nests of the same depth, equal except for one loop whose
//    bounds provably differ (`num_k` against `num_k - 1`).
//
// Threads are counted with ThreadValues: the scf.if conditions around a
// site evaluated per thread id. Everything else is left alone.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"
#include "txl/Dialect/TXLGPU/IR/TCGen05.h"
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Dialect/TXLGPU/Transforms/ThreadValues.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_CHECKMBARRIERPROTOCOL
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

std::string where(Operation *op) {
  if (auto at = dyn_cast<FileLineColLoc>(op->getLoc()))
    return "line " + std::to_string(at.getLine()) + ":" +
           std::to_string(at.getColumn());
  return "an unknown line";
}

std::optional<int64_t> constantInt(Value v) {
  APInt c;
  if (v && matchPattern(v, m_ConstantInt(&c)))
    return c.getSExtValue();
  return std::nullopt;
}

/// Two values that are equal in every thread: the same SSA value, equal
/// constants, or the same pure op on equal operands (each role recomputes
/// `tl.program_id(0)` and `tl.cdiv(K, BLOCK_K)`).
bool sameValue(Value a, Value b, int depth = 6) {
  if (a == b)
    return true;
  std::optional<int64_t> ca = constantInt(a), cb = constantInt(b);
  if (ca || cb)
    return ca && cb && *ca == *cb;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (!x || !y || depth == 0 || x->getName() != y->getName() ||
      x->getNumRegions() || !isPure(x) ||
      x->getAttrDictionary() != y->getAttrDictionary() ||
      x->getNumOperands() != y->getNumOperands() ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  for (auto [p, q] : llvm::zip(x->getOperands(), y->getOperands()))
    if (!sameValue(p, q, depth - 1))
      return false;
  return true;
}

bool sameBounds(scf::ForOp a, scf::ForOp b) {
  return a == b || (sameValue(a.getLowerBound(), b.getLowerBound()) &&
                    sameValue(a.getUpperBound(), b.getUpperBound()) &&
                    sameValue(a.getStep(), b.getStep()));
}

/// `v` as base + offset with a constant offset (base null: a constant).
std::pair<Value, int64_t> splitOffset(Value v) {
  if (std::optional<int64_t> c = constantInt(v))
    return {Value(), *c};
  if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    if (std::optional<int64_t> c = constantInt(add.getRhs()))
      return {add.getLhs(), *c};
    if (std::optional<int64_t> c = constantInt(add.getLhs()))
      return {add.getRhs(), *c};
  }
  if (auto sub = v.getDefiningOp<arith::SubIOp>())
    if (std::optional<int64_t> c = constantInt(sub.getRhs()))
      return {sub.getLhs(), -*c};
  return {v, 0};
}

/// How many more iterations loop `a` runs than loop `b`, where that is a
/// constant whenever either runs at all (the same step, bounds equal up to
/// constant offsets); nothing where it is not decidable.
std::optional<int64_t> extraTrips(scf::ForOp a, scf::ForOp b) {
  if (sameBounds(a, b))
    return 0;
  std::optional<int64_t> s = constantInt(a.getStep());
  if (!sameValue(a.getStep(), b.getStep()) || !s || *s <= 0)
    return std::nullopt;
  auto [la, lo] = splitOffset(a.getLowerBound());
  auto [lb, lo2] = splitOffset(b.getLowerBound());
  auto [ua, uo] = splitOffset(a.getUpperBound());
  auto [ub, uo2] = splitOffset(b.getUpperBound());
  auto same = [](Value x, Value y) {
    return (!x && !y) || (x && y && sameValue(x, y));
  };
  if (!same(la, lb) || !same(ua, ub))
    return std::nullopt;
  if (!ua && !la) { // all constant
    auto trips = [&](int64_t l, int64_t u) {
      return u > l ? (u - l + *s - 1) / *s : 0;
    };
    return trips(lo, uo) - trips(lo2, uo2);
  }
  // ceil((ub - lb) / s) of extents that differ by a multiple of s.
  int64_t d = (uo - lo) - (uo2 - lo2);
  if (d % *s)
    return std::nullopt;
  return d / *s;
}

/// Whether the parity `phase` waits for in a loop's first iteration is
/// provably 0 (a counter from 0, shifted, masked or divided): then that
/// first wait needs a phase someone completes. A parity flipped with ^ 1
/// (the producer's wait for a free stage) passes at once on a new barrier.
bool startsAtParityZero(Value phase, int depth = 8) {
  if (depth == 0)
    return false;
  if (std::optional<int64_t> c = constantInt(phase))
    return *c == 0;
  if (auto arg = dyn_cast<BlockArgument>(phase)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop)
      return false;
    if (arg == loop.getInductionVar())
      return startsAtParityZero(loop.getLowerBound(), depth - 1);
    return startsAtParityZero(loop.getInitArgs()[arg.getArgNumber() - 1],
                              depth - 1);
  }
  Operation *op = phase.getDefiningOp();
  if (isa_and_nonnull<arith::AndIOp, arith::DivSIOp, arith::DivUIOp,
                      arith::ShRUIOp, arith::ShRSIOp, arith::RemSIOp,
                      arith::RemUIOp>(op) &&
      constantInt(op->getOperand(1)))
    return startsAtParityZero(op->getOperand(0), depth - 1);
  return false;
}

/// What one execution of a site does to its barrier.
struct Signal {
  std::optional<int64_t> arrivals = 0;
  std::optional<int64_t> expectBytes = 0;
  std::optional<int64_t> landedBytes = 0;
  Signal &operator+=(const Signal &o) {
    auto add = [](std::optional<int64_t> &x, std::optional<int64_t> y) {
      x = x && y ? std::optional<int64_t>(*x + *y) : std::nullopt;
    };
    add(arrivals, o.arrivals);
    add(expectBytes, o.expectBytes);
    add(landedBytes, o.landedBytes);
    return *this;
  }
  bool operator==(const Signal &o) const {
    return arrivals == o.arrivals && expectBytes == o.expectBytes &&
           landedBytes == o.landedBytes;
  }
};

struct Site {
  Operation *op;
  int64_t order = 0; // program order
  MBarAllocOp root;
  Value index; // the ring stage; null for a single barrier
  bool wait = false;
  Signal signal;
  bool conditional = false; // a uniform `pred` operand
  bool remote = false;      // arrivals or bytes from/to other CTAs
  /// The block one round is an execution of: the innermost loop body (or
  /// the function's), through any scf.if.
  Block *anchor = nullptr;
  /// The scf.if ops on uniform conditions between the anchor and the
  /// site, outermost first, and the branch taken.
  SmallVector<std::pair<scf::IfOp, bool>> uniformIfs;
  /// The loops around the anchor, innermost first; empty with `nestKnown`
  /// false where an enclosing op is not a loop or an if (or a uniform if
  /// encloses the anchor).
  SmallVector<scf::ForOp> nest;
  bool nestKnown = true;
  /// The threads that execute the op (before choosing the issuing one).
  SmallVector<bool> threads;
  bool threadsKnown = true;
};

class ProtocolChecker {
public:
  ProtocolChecker(func::FuncOp func, int64_t warps, int64_t warpgroups,
                  int64_t extraWarps)
      : func(func), warpgroupThreads(warps * 32),
        values((warps * warpgroups + extraWarps) * 32) {}

  LogicalResult run();

private:
  void collect();
  static MBarAllocOp rootOf(Value bar, Value *index = nullptr);
  void addSite(Value bar, Site site);
  void locate(Site &site);
  int64_t countThreads(const Site &site, Value pred, bool leaderOnly,
                       bool &known, bool &conditional);
  bool anyInWarp(const Site &site, int64_t warp);
  LogicalResult checkSite(Site &site);
  LogicalResult checkBarrier(MBarAllocOp root, ArrayRef<Site *> sites);
  std::optional<Signal> round(ArrayRef<Site *> sites, size_t depth);
  bool sameIndex(ArrayRef<Site *> sites);
  bool disjoint(const Site &a, const Site &b);
  bool sameNest(const Site &a, const Site &b);
  bool onlyAnchor(const Site &site, ArrayRef<Site *> group);
  LogicalResult checkTrips(MBarAllocOp root, ArrayRef<Site *> group,
                           const Signal &round, ArrayRef<Site *> signals,
                           ArrayRef<Site *> waits);

  func::FuncOp func;
  int64_t warpgroupThreads;
  ThreadValues values;
  std::vector<Site> sites;
  bool unresolved = false; // a barrier operand of unknown origin
  // desc.load's own barriers and the rings pipelining passes made
  llvm::DenseSet<Operation *> privateBars;
};

MBarAllocOp ProtocolChecker::rootOf(Value bar, Value *index) {
  while (auto idx = bar.getDefiningOp<MemDescIndexOp>()) {
    if (index)
      *index = idx.getIndex();
    bar = idx.getSrc();
  }
  return bar.getDefiningOp<MBarAllocOp>();
}

void ProtocolChecker::addSite(Value bar, Site site) {
  site.root = rootOf(bar, &site.index);
  if (!site.root) {
    unresolved = true;
    return;
  }
  if (site.root.getType().getShape()[0] == 1)
    site.index = Value();
  sites.push_back(std::move(site));
}

/// The anchor, the uniform ifs, the loop nest and the executing threads.
void ProtocolChecker::locate(Site &site) {
  int64_t n = values.numThreads();
  site.threads.assign(n, true);
  bool inAnchor = true;
  Operation *child = site.op;
  for (Operation *parent = child->getParentOp(); parent && parent != func;
       child = parent, parent = parent->getParentOp()) {
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (inAnchor)
        site.anchor = loop.getBody();
      inAnchor = false;
      site.nest.push_back(loop);
      continue;
    }
    auto ifOp = dyn_cast<scf::IfOp>(parent);
    if (!ifOp) {
      site.nestKnown = false;
      site.threadsKnown = false;
      inAnchor = false;
      continue;
    }
    bool thenBranch = &ifOp.getThenRegion() == child->getParentRegion();
    const ThreadLanes &cond = values.get(ifOp.getCondition());
    bool uniform = false;
    for (int64_t t = 0; t < n; ++t) {
      if (!site.threads[t])
        continue;
      if (cond[t].kind == ThreadValue::Varying)
        site.threadsKnown = false;
      else if (cond[t].kind == ThreadValue::Uniform)
        uniform = true;
      else if (bool(cond[t].value) != thenBranch)
        site.threads[t] = false;
    }
    if (uniform && inAnchor)
      site.uniformIfs.insert(site.uniformIfs.begin(), {ifOp, thenBranch});
    else if (uniform)
      site.nestKnown = false; // a whole loop runs conditionally
  }
  if (inAnchor)
    site.anchor = &func.getBody().front();
}

/// The threads that execute `site` with `pred` true; with `leaderOnly`,
/// only its async issuer (asyncIssuerOf: who issues expect_tx and TMA).
int64_t ProtocolChecker::countThreads(const Site &site, Value pred,
                                      bool leaderOnly, bool &known,
                                      bool &conditional) {
  known = site.threadsKnown;
  const ThreadLanes *p = pred ? &values.get(pred) : nullptr;
  int64_t count = 0;
  AsyncIssuer issuer = asyncIssuerOf(site.op, warpgroupThreads / 32);
  for (int64_t t = 0; t < values.numThreads(); ++t) {
    if (!site.threads[t] || (leaderOnly && !issuer.issues(t)))
      continue;
    if (p && (*p)[t].kind == ThreadValue::Varying)
      known = false;
    if (p && (*p)[t].kind == ThreadValue::Uniform)
      conditional = true;
    if (p && (*p)[t].kind == ThreadValue::Known && !(*p)[t].value)
      continue;
    ++count;
  }
  return count;
}

bool ProtocolChecker::anyInWarp(const Site &site, int64_t warp) {
  for (int64_t t = warp * 32; t < (warp + 1) * 32 && t < values.numThreads();
       ++t)
    if (site.threads[t])
      return true;
  return false;
}

void ProtocolChecker::collect() {
  int64_t order = 0;
  func.walk([&](Operation *op) {
    if (op->hasAttr(kCompilerRingAttr))
      privateBars.insert(op); // a pipelining pass's own ring
    Site s;
    s.op = op;
    s.order = order++;
    bool known = true;
    auto counted = [&](int64_t n) {
      return known ? std::optional<int64_t>(n) : std::nullopt;
    };
    if (auto arrive = dyn_cast<MBarArriveOp>(op)) {
      locate(s);
      s.remote = bool(arrive.getCta());
      int64_t n =
          countThreads(s, arrive.getPred(), false, known, s.conditional);
      s.signal.arrivals = counted(n);
      addSite(arrive.getBar(), s);
    } else if (auto expect = dyn_cast<MBarExpectOp>(op)) {
      locate(s);
      int64_t n = countThreads(s, expect.getPred(), true, known, s.conditional);
      s.signal.arrivals = counted(n);
      std::optional<int64_t> bytes = constantInt(expect.getBytes());
      s.signal.expectBytes =
          known && bytes ? std::optional<int64_t>(n * *bytes) : std::nullopt;
      addSite(expect.getBar(), s);
    } else if (auto load = dyn_cast<TMALoadOp>(op)) {
      if (load.getSync()) { // its barrier is its own (desc.load)
        if (MBarAllocOp root = rootOf(load.getBar()))
          privateBars.insert(root);
        return;
      }
      locate(s);
      s.remote = load.getMulticast() || load.getTwoCtas();
      int64_t n = countThreads(s, load.getPred(), true, known, s.conditional);
      s.signal.landedBytes =
          counted(n * load.getDst().getType().getSizeInBytes());
      addSite(load.getBar(), s);
    } else if (auto gather = dyn_cast<TMAGatherOp>(op)) {
      locate(s);
      s.signal.landedBytes = std::nullopt; // issued by the rows' holders
      addSite(gather.getBar(), s);
    } else if (auto mma = dyn_cast<TCGen05MMAOp>(op)) {
      locate(s);
      std::optional<int64_t> pred = constantInt(mma.getPred());
      s.conditional = mma.getPred() && !pred;
      bool issues = anyInWarp(s, mma.getLeaderWarp()) && (!pred || *pred);
      int64_t arrivals = issues ? 1 : 0;
      // A plain tl.dot's MMA: every thread arrives too, then waits.
      bool sync = op->hasAttr(kSyncCommitAttr);
      if (sync)
        arrivals += llvm::count(s.threads, true);
      s.signal.arrivals =
          s.threadsKnown ? std::optional<int64_t>(arrivals) : std::nullopt;
      ValueRange commitPreds = mma.getBarrierPreds();
      for (auto [i, bar] : llvm::enumerate(mma.getBarriers())) {
        // A commit under a predicate of its own (dotx's mbarPreds) is
        // conditional; one whose predicate is false never happens.
        Site c = s;
        if (!commitPreds.empty()) {
          std::optional<int64_t> commitPred = constantInt(commitPreds[i]);
          if (commitPred && !*commitPred)
            continue;
          c.conditional |= !commitPred;
        }
        addSite(bar, c);
        if (sync) {
          Site w = s;
          w.wait = true;
          w.signal = Signal();
          addSite(bar, w);
        }
      }
    } else if (auto scaled = dyn_cast<TCGen05MMAScaledOp>(op)) {
      // tl.dot_scaled's MMA: the issuer's commit; synchronous, every
      // thread's arrival too, then every thread waits.
      locate(s);
      bool sync = op->hasAttr(kSyncCommitAttr);
      int64_t arrivals = (anyInWarp(s, scaled.getLeaderWarp()) ? 1 : 0) +
                         (sync ? llvm::count(s.threads, true) : 0);
      s.signal.arrivals =
          s.threadsKnown ? std::optional<int64_t>(arrivals) : std::nullopt;
      addSite(scaled.getBarrier(), s);
      if (sync) {
        Site w = s;
        w.wait = true;
        w.signal = Signal();
        addSite(scaled.getBarrier(), w);
      }
    } else if (auto copy = dyn_cast<TMemCopyOp>(op)) {
      // Committed like an MMA: one arrival per barrier from its issuer.
      locate(s);
      std::optional<int64_t> pred = constantInt(copy.getPred());
      s.conditional = copy.getPred() && !pred;
      bool issues = anyInWarp(s, copy.getLeaderWarp()) && (!pred || *pred);
      s.signal.arrivals = s.threadsKnown
                              ? std::optional<int64_t>(issues ? 1 : 0)
                              : std::nullopt;
      for (Value bar : copy.getBarriers())
        addSite(bar, s);
    } else if (auto clc = dyn_cast<ClcTryCancelOp>(op)) {
      locate(s);
      s.signal.landedBytes = anyInWarp(s, clc.getLeaderWarp()) ? 16 : 0;
      addSite(clc.getBar(), s);
    } else if (auto wait = dyn_cast<MBarWaitOp>(op)) {
      locate(s);
      s.wait = true;
      addSite(wait.getBar(), s);
    }
  });
}

LogicalResult ProtocolChecker::checkSite(Site &site) {
  int64_t count = site.root.getArriveCount();
  std::optional<int64_t> arrivals = site.signal.arrivals;
  if (site.wait || !arrivals)
    return success();
  Operation *op = site.op;
  if (*arrivals > count && isa<MBarArriveOp, MBarExpectOp>(op)) {
    return op->emitError()
           << "mbarrier protocol: one execution of this "
           << op->getName().stripDialect() << " makes " << *arrivals
           << " arrivals (one per thread that runs it), but the mbarrier "
              "allocated at "
           << where(site.root) << " completes a phase every " << count
           << " arrival" << (count == 1 ? "" : "s")
           << "; arrive from one elected thread or allocate it with "
           << *arrivals;
  }
  bool issuedByLeader = isa<MBarExpectOp, TMALoadOp>(op);
  bool runs = site.threadsKnown && llvm::is_contained(site.threads, true);
  bool issues = isa<MBarExpectOp>(op)
                    ? *arrivals > 0
                    : site.signal.landedBytes && *site.signal.landedBytes > 0;
  if (issuedByLeader && runs && !issues && !site.conditional) {
    int64_t first = llvm::find(site.threads, true) - site.threads.begin();
    return op->emitError()
           << "mbarrier protocol: "
           << (isa<MBarExpectOp>(op) ? "txl.mbar_expect" : "txl.tma_load")
           << " is issued by the first thread of a warpgroup, and no "
              "warpgroup's first thread runs this code (it runs on warp "
           << first / 32
           << "), so it never happens and the mbarrier allocated at "
           << where(site.root) << " never completes its phase";
  }
  return success();
}

/// The signal of one round made by `sites` (all in one anchor), looking
/// `depth` uniform ifs deep: the sites directly there, plus each if whose
/// two branches signal the same.
std::optional<Signal> ProtocolChecker::round(ArrayRef<Site *> sites,
                                             size_t depth) {
  Signal total;
  llvm::MapVector<Operation *,
                  std::pair<SmallVector<Site *>, SmallVector<Site *>>>
      ifs;
  for (Site *s : sites) {
    if (s->conditional)
      return std::nullopt;
    if (s->uniformIfs.size() == depth) {
      total += s->signal;
      continue;
    }
    auto [ifOp, thenBranch] = s->uniformIfs[depth];
    auto &branches = ifs[ifOp];
    (thenBranch ? branches.first : branches.second).push_back(s);
  }
  for (auto &[ifOp, branches] : ifs) {
    std::optional<Signal> a = round(branches.first, depth + 1);
    std::optional<Signal> b = round(branches.second, depth + 1);
    if (!a || !b || !(*a == *b))
      return std::nullopt;
    total += *a;
  }
  return total;
}

bool ProtocolChecker::sameIndex(ArrayRef<Site *> sites) {
  for (Site *s : sites)
    if (bool(s->index) != bool(sites[0]->index) ||
        (s->index && !sameValue(s->index, sites[0]->index)))
      return false;
  return true;
}

bool ProtocolChecker::disjoint(const Site &a, const Site &b) {
  if (!a.threadsKnown || !b.threadsKnown)
    return false;
  for (size_t t = 0; t < a.threads.size(); ++t)
    if (a.threads[t] && b.threads[t])
      return false;
  return true;
}

/// Whether every one of `group` that shares a thread with `site` is in
/// its anchor: no iteration of the role's loop is peeled off before or
/// after it.
bool ProtocolChecker::onlyAnchor(const Site &site, ArrayRef<Site *> group) {
  return llvm::all_of(group, [&](Site *other) {
    return other->anchor == site.anchor || disjoint(site, *other);
  });
}

bool ProtocolChecker::sameNest(const Site &a, const Site &b) {
  if (!a.nestKnown || !b.nestKnown || a.nest.size() != b.nest.size())
    return false;
  for (auto [x, y] : llvm::zip(a.nest, b.nest))
    if (!sameBounds(x, y))
      return false;
  return true;
}

LogicalResult ProtocolChecker::checkBarrier(MBarAllocOp root,
                                            ArrayRef<Site *> all) {
  SmallVector<Site *> signals, waits;
  for (Site *s : all)
    (s->wait ? waits : signals).push_back(s);
  if (signals.empty() || unresolved)
    return success();
  // Rounds per anchor; anchors must be disjoint roles with equal loops.
  llvm::MapVector<Block *, SmallVector<Site *>> anchors;
  for (Site *s : signals) {
    if (s->remote)
      return success();
    anchors[s->anchor].push_back(s);
  }
  Signal total;
  for (auto &[anchor, group] : anchors) {
    if (!sameIndex(group))
      return success();
    std::optional<Signal> r = round(group, 0);
    if (!r)
      return success();
    if (failed(checkTrips(root, group, *r, signals, waits)))
      return failure();
    total += *r;
    // A wait between two signals of one anchor splits it into phases.
    auto [lo, hi] =
        std::minmax_element(group.begin(), group.end(), [](Site *x, Site *y) {
          return x->order < y->order;
        });
    for (Site *w : waits)
      if (w->anchor == anchor && w->order > (*lo)->order &&
          w->order < (*hi)->order)
        return success();
    for (auto &[other, otherGroup] : anchors)
      for (Site *x : group)
        for (Site *y : otherGroup)
          if (other != anchor && (!disjoint(*x, *y) || !sameNest(*x, *y)))
            return success();
  }
  // A round is a phase if a thread waits on the barrier once per round.
  Site *anchorSite = signals[0];
  bool paced = llvm::any_of(waits, [&](Site *w) {
    return w->uniformIfs.empty() &&
           (w->anchor == anchorSite->anchor || sameNest(*w, *anchorSite));
  });
  if (!paced)
    return success();
  std::string lines;
  for (Site *s : signals)
    lines += (lines.empty() ? "" : ", ") + where(s->op);
  if (total.arrivals && *total.arrivals != root.getArriveCount())
    return root.emitError()
           << "mbarrier protocol: this mbarrier completes a phase every "
           << root.getArriveCount() << " arrivals, but each round of the "
           << "code that signals it (" << lines << ") makes "
           << *total.arrivals;
  if (total.expectBytes && total.landedBytes &&
      *total.expectBytes != *total.landedBytes) {
    Site *first = signals[0];
    for (Site *s : signals)
      if (isa<MBarExpectOp>(s->op)) {
        first = s;
        break;
      }
    return first->op->emitError()
           << "mbarrier protocol: each phase of the mbarrier allocated at "
           << where(root) << " expects " << *total.expectBytes
           << " bytes, but the TMA copies completing on it in the same phase ("
           << lines << ") deliver " << *total.landedBytes;
  }
  return success();
}

/// A role that waits on a barrier in a loop nest equal to the signalling
/// role's but for one loop that runs more iterations hangs: its extra
/// waits need phases nobody completes. Decided only where the signaller
/// completes one phase per round (`round` equals the init count), both
/// roles touch the barrier nowhere else, and the waits start at parity 0.
LogicalResult ProtocolChecker::checkTrips(MBarAllocOp root,
                                          ArrayRef<Site *> group,
                                          const Signal &round,
                                          ArrayRef<Site *> signals,
                                          ArrayRef<Site *> waits) {
  Site *s = group[0];
  if (round.arrivals != std::optional<int64_t>(root.getArriveCount()) ||
      !s->nestKnown || !onlyAnchor(*s, signals))
    return success();
  for (Site *w : waits) {
    auto wait = dyn_cast<MBarWaitOp>(w->op);
    if (!wait || w->anchor == s->anchor || !w->nestKnown ||
        w->nest.size() != s->nest.size() || !w->uniformIfs.empty() ||
        !llvm::all_of(group, [&](Site *x) { return disjoint(*x, *w); }) ||
        !onlyAnchor(*w, waits) || !startsAtParityZero(wait.getPhase()))
      continue;
    // Exactly one loop level differs; every other is equal.
    std::optional<int64_t> extra;
    size_t level = 0;
    bool decided = true;
    for (size_t i = 0; i < s->nest.size() && decided; ++i) {
      std::optional<int64_t> d = extraTrips(w->nest[i], s->nest[i]);
      if (d && *d == 0)
        continue;
      decided = d && !extra;
      extra = d;
      level = i;
    }
    if (!decided || !extra || *extra < 0)
      continue;
    return w->nest[level].emitError()
           << "mbarrier protocol: this loop waits on the mbarrier allocated "
              "at "
           << where(root) << " (at " << where(w->op) << ") " << *extra
           << " more time" << (*extra == 1 ? "" : "s") << " than the loop at "
           << where(s->nest[level]) << " signals it (at " << where(s->op)
           << ", one phase per iteration): the last wait"
           << (*extra == 1 ? "" : "s") << " never complete"
           << (*extra == 1 ? "s" : "");
  }
  return success();
}

LogicalResult ProtocolChecker::run() {
  collect();
  bool ok = true;
  for (Site &s : sites)
    if (!privateBars.contains(s.root) && failed(checkSite(s)))
      ok = false;
  if (!ok)
    return failure();
  llvm::MapVector<Operation *, SmallVector<Site *>> byRoot;
  for (Site &s : sites)
    if (!privateBars.contains(s.root))
      byRoot[s.root].push_back(&s);
  for (auto &[root, group] : byRoot)
    if (failed(checkBarrier(cast<MBarAllocOp>(root), group)))
      ok = false;
  return success(ok);
}

int64_t moduleInt(ModuleOp m, StringRef name, int64_t fallback) {
  if (auto a = m->getAttrOfType<IntegerAttr>(name))
    return a.getInt();
  return fallback;
}

struct CheckMBarrierProtocolPass
    : public txlgpu::impl::CheckMBarrierProtocolBase<
          CheckMBarrierProtocolPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t warps = moduleInt(module, TXLGPUDialect::kNumWarpsAttr, 4);
    int64_t groups = moduleInt(module, TXLGPUDialect::kNumWarpgroupsAttr, 1);
    // Warps of is_warp roles past the tensor warps run too (ExtraWarps.h).
    int64_t extra = moduleInt(module, kNumExtraWarpsAttr, 0);
    if (warps <= 0 || groups <= 0 || extra < 0 || warps * groups + extra > 64)
      return; // the front end rejects such launches
    bool ok = true;
    module.walk([&](func::FuncOp func) {
      if (!func.isExternal() &&
          failed(ProtocolChecker(func, warps, groups, extra).run()))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
