//===- SharedMemoryLiveness.cpp - when shared buffers hold data -----------===//
#include "txl/Dialect/TXLGPU/Transforms/SharedMemoryLiveness.h"
#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::txlgpu;

ProgramOrder::ProgramOrder(Operation *root) {
  int64_t next = 0;
  number(root, next);
}

void ProgramOrder::number(Operation *op, int64_t &next) {
  int64_t first = next++;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &inner : block)
        number(&inner, next);
  spans[op] = {first, next++};
}

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

namespace {

/// The first op after `from` in program order (leaving enclosing regions,
/// never around a loop's back edge) that `isWait` accepts; the enclosing
/// function's terminator when none does (the access then lasts to the end).
Operation *findRetiringWait(Operation *from,
                            llvm::function_ref<bool(Operation *)> isWait) {
  Operation *op = from;
  while (true) {
    for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
      if (isWait(next))
        return next;
    Operation *parent = op->getParentOp();
    if (!parent || isa<func::FuncOp>(parent) || isa<ModuleOp>(parent))
      return op->getBlock()->getTerminator();
    op = parent;
  }
}

int64_t numElements(Type memdesc) {
  auto type = cast<MemDescType>(memdesc);
  int64_t n = 1;
  for (int64_t d : type.getShape())
    n *= d;
  return n;
}

/// The loop whose body waits on the stages of `bar` when `bar` is a stage
/// of a compiler-made ring (PipelineTMALoads): every copy into the ring,
/// before the loop or in it, is waited for by some iteration of that loop
/// (copies past the last iteration are never issued).
scf::ForOp ringLoop(Value bar) {
  auto stage = bar.getDefiningOp<MemDescIndexOp>();
  auto ring = stage ? stage.getSrc().getDefiningOp<MBarAllocOp>() : nullptr;
  if (!ring || !ring->hasAttr(kCompilerRingAttr))
    return nullptr;
  for (Operation *user : ring->getUsers())
    for (Operation *waitUser : user->getUsers())
      if (isa<MBarWaitOp>(waitUser))
        if (auto loop = waitUser->getParentOfType<scf::ForOp>())
          return loop;
  return nullptr;
}

/// A TMA copy writes its tile until its mbarrier completes: the first wait
/// on the same barrier value after it, or for a copy into a compiler-made
/// ring (whose waits name another stage value, e.g. in the next iteration
/// of the prefetching loop) the end of the ring's loop. Otherwise none is
/// found and the tile stays live to the end.
Operation *findBarrierWait(Operation *copy, Value bar) {
  if (scf::ForOp loop = ringLoop(bar))
    return loop.getBody()->getTerminator();
  return findRetiringWait(copy, [bar](Operation *op) {
    auto wait = dyn_cast<MBarWaitOp>(op);
    return wait && wait.getBar() == bar;
  });
}

struct AccessCollector {
  SmallVectorImpl<BufferAccess> &out;

  void add(Operation *op, bool kill, bool selfSync, bool asyncWrite = false) {
    out.push_back({op, kill, selfSync, asyncWrite});
  }
  void addRetiringWait(Operation *op) {
    out.push_back({op, /*kill=*/false, /*selfSynchronizing=*/false,
                   /*asyncProxyWrite=*/false, /*retires=*/true});
  }

  /// Visits the users of `v`, a view of the buffer that covers all of it
  /// when `whole`.
  bool visit(Value v, bool whole) {
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto index = dyn_cast<MemDescIndexOp>(user)) {
        auto src = cast<MemDescType>(index.getSrc().getType());
        if (!visit(index.getResult(), whole && src.getShape()[0] == 1))
          return false;
      } else if (auto view = dyn_cast<MemDescViewOp>(user)) {
        bool all =
            numElements(view.getType()) == numElements(view.getSrc().getType());
        if (!visit(view.getResult(), whole && all))
          return false;
      } else if (auto reshape = dyn_cast<MemDescReshapeOp>(user)) {
        if (!visit(reshape.getResult(), whole))
          return false;
      } else if (isa<SmemLoadOp>(user)) {
        add(user, /*kill=*/false, /*selfSync=*/false);
      } else if (isa<SmemStoreOp>(user)) {
        add(user, whole, /*selfSync=*/true);
      } else if (auto load = dyn_cast<TMALoadOp>(user)) {
        // A multicast also writes the peers' copies of the buffer, on their
        // schedule, not this CTA's.
        if (use.getOperandNumber() != 0 || load.getMulticast())
          return false;
        add(user, whole, load.getSync(), /*asyncWrite=*/true);
        if (!load.getSync())
          addRetiringWait(findBarrierWait(user, load.getBar()));
      } else if (auto gather = dyn_cast<TMAGatherOp>(user)) {
        if (use.getOperandNumber() != 0)
          return false;
        add(user, whole, /*selfSync=*/false, /*asyncWrite=*/true);
        addRetiringWait(findBarrierWait(user, gather.getBar()));
      } else if (isa<AsyncCopyGlobalToLocalOp>(user)) {
        // cp.async writes until an async_wait retires its group.
        add(user, whole, /*selfSync=*/false);
        addRetiringWait(findRetiringWait(user, [](Operation *op) {
          auto wait = dyn_cast<AsyncWaitOp>(op);
          return wait && wait.getPendings() == 0;
        }));
      } else if (isa<TMAStoreOp>(user)) {
        // TMA reads the tile until a tma_store_wait retires the store.
        add(user, /*kill=*/false, /*selfSync=*/false);
        addRetiringWait(findRetiringWait(user, [](Operation *op) {
          auto wait = dyn_cast<TMAStoreWaitOp>(op);
          return wait && wait.getPendings() == 0;
        }));
      } else if (isa<WarpGroupDotOp>(user)) {
        // wgmma reads its operand tiles until a wait retires its group.
        add(user, /*kill=*/false, /*selfSync=*/false);
        addRetiringWait(findRetiringWait(user, [](Operation *op) {
          auto wait = dyn_cast<WarpGroupDotWaitOp>(op);
          return wait && wait.getPendings() == 0;
        }));
      } else {
        return false;
      }
    }
    return true;
  }
};

} // namespace

bool mlir::txlgpu::collectBufferAccesses(Value root,
                                         SmallVectorImpl<BufferAccess> &out) {
  if (auto alloc = root.getDefiningOp<LocalAllocOp>())
    out.push_back({alloc, /*kill=*/true, /*selfSynchronizing=*/true});
  AccessCollector collector{out};
  return collector.visit(root, /*whole=*/true);
}

//===----------------------------------------------------------------------===//
// Live intervals
//===----------------------------------------------------------------------===//

namespace {

/// What running a block (or region) does to a buffer: whether some read
/// can see the contents it had on entry, and whether every run overwrites
/// all of it.
struct Flow {
  bool exposed = false;
  bool killed = false;
};

class ExposureScan {
public:
  ExposureScan(ArrayRef<BufferAccess> accesses) {
    for (const BufferAccess &a : accesses) {
      // An op that both reads and overwrites the buffer reads it first.
      auto [it, inserted] =
          kinds.try_emplace(a.op, a.kill ? Kind::Kill : Kind::Read);
      if (!inserted && !a.kill)
        it->second = Kind::Read;
      for (Operation *p = a.op->getParentOp(); p; p = p->getParentOp())
        containsAccess.insert(p);
    }
  }

  Flow scan(Block &block) {
    for (Operation &op : block) {
      auto it = kinds.find(&op);
      if (it != kinds.end()) {
        if (it->second == Kind::Read)
          return {true, false};
        return {false, true};
      }
      if (!containsAccess.contains(&op))
        continue;
      if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        Flow t = scan(ifOp.getThenRegion().front());
        Flow e = ifOp.getElseRegion().empty()
                     ? Flow{}
                     : scan(ifOp.getElseRegion().front());
        if (t.exposed || e.exposed)
          return {true, false};
        if (t.killed && e.killed)
          return {false, true};
        continue;
      }
      if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        // The body may run no times: it never kills for sure.
        if (scan(*forOp.getBody()).exposed)
          return {true, false};
        continue;
      }
      return {true, false}; // a region op this scan does not model
    }
    return {};
  }

private:
  enum class Kind { Read, Kill };
  DenseMap<Operation *, Kind> kinds;
  llvm::SmallPtrSet<Operation *, 16> containsAccess;
};

bool isLoop(Operation *op) { return isa<scf::ForOp, scf::WhileOp>(op); }

} // namespace

std::optional<std::pair<int64_t, int64_t>>
mlir::txlgpu::liveInterval(Operation *owner, ArrayRef<BufferAccess> accesses,
                           const ProgramOrder &order) {
  if (accesses.empty())
    return std::nullopt;
  int64_t lo = order.start(accesses.front().op), hi = lo;
  llvm::SetVector<Operation *> loops;
  for (const BufferAccess &a : accesses) {
    lo = std::min(lo, order.start(a.op));
    hi = std::max(hi, order.start(a.op));
    for (Operation *p = a.op->getParentOp(); p; p = p->getParentOp())
      if (isLoop(p))
        loops.insert(p);
  }
  ExposureScan exposure(accesses);
  for (Operation *loop : loops) {
    // The buffer is live through the whole loop when it holds data on entry
    // or on exit (for a buffer allocated in the body: an asynchronous reader
    // retired only after the loop, so still reading in the next iteration).
    bool leaves = llvm::any_of(accesses, [&](const BufferAccess &a) {
      return !loop->isAncestor(a.op);
    });
    // It is live across the back edge when an iteration can read what the
    // previous one left (a buffer allocated in the body is a new one each
    // iteration).
    bool carried = false;
    if (!loop->isAncestor(owner)) {
      auto forOp = dyn_cast<scf::ForOp>(loop);
      carried = !forOp || exposure.scan(*forOp.getBody()).exposed;
    }
    if (leaves || carried) {
      lo = std::min(lo, order.start(loop));
      hi = std::max(hi, order.end(loop));
    }
  }
  return std::make_pair(lo, hi);
}

//===----------------------------------------------------------------------===//
// Barrier sites
//===----------------------------------------------------------------------===//

namespace {

/// Marks the accesses that can run first after entry to a block.
class FirstAccessScan {
public:
  explicit FirstAccessScan(ArrayRef<BufferAccess> accesses) {
    for (const BufferAccess &a : accesses) {
      byOp.try_emplace(a.op, a);
      for (Operation *p = a.op->getParentOp(); p; p = p->getParentOp())
        containsAccess.insert(p);
    }
  }

  /// Returns whether an access has surely run once the block finishes,
  /// given `covered` (one surely ran before it).
  bool scan(Block &block, bool covered) {
    for (Operation &op : block) {
      auto it = byOp.find(&op);
      if (it != byOp.end() && it->second.retires)
        continue;
      if (it != byOp.end()) {
        if (!covered && seen.insert(&op).second)
          first.push_back(it->second);
        covered = true;
        continue;
      }
      if (!containsAccess.contains(&op))
        continue;
      if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        bool t = scan(ifOp.getThenRegion().front(), covered);
        bool e = ifOp.getElseRegion().empty()
                     ? covered
                     : scan(ifOp.getElseRegion().front(), covered);
        covered = t && e;
        continue;
      }
      // A loop's first iteration is the least covered; it may not run.
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          scan(inner, covered);
    }
    return covered;
  }

  SmallVector<BufferAccess> first;

private:
  DenseMap<Operation *, BufferAccess> byOp;
  llvm::SmallPtrSet<Operation *, 16> containsAccess;
  llvm::SmallPtrSet<Operation *, 16> seen;
};

/// The innermost block holding every op of `accesses`.
Block *commonBlock(ArrayRef<BufferAccess> accesses) {
  Block *block = accesses.front().op->getBlock();
  auto holds = [](Block *b, Operation *op) {
    for (; op; op = op->getParentOp())
      if (op->getBlock() == b)
        return true;
    return false;
  };
  while (block && !llvm::all_of(accesses, [&](const BufferAccess &a) {
           return holds(block, a.op);
         })) {
    Operation *parent = block->getParentOp();
    block = parent ? parent->getBlock() : nullptr;
  }
  return block;
}

} // namespace

SmallVector<BufferAccess>
mlir::txlgpu::firstAccesses(ArrayRef<BufferAccess> accesses) {
  if (accesses.empty())
    return {};
  Block *block = commonBlock(accesses);
  if (!block)
    return SmallVector<BufferAccess>(accesses.begin(), accesses.end());
  FirstAccessScan scan(accesses);
  scan.scan(*block, /*covered=*/false);
  return scan.first;
}

//===----------------------------------------------------------------------===//
// Thread-dependent control flow
//===----------------------------------------------------------------------===//

namespace {

bool isThreadIndexRead(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (!name.starts_with("nvvm.read.ptx.sreg."))
    return false;
  // The CTA's and the cluster's coordinates are the same on every thread.
  return !(name.contains("ctaid") || name.contains("nctaid") ||
           name.contains("ntid") || name.contains("cluster"));
}

bool dependsOnThread(Value v, llvm::SmallPtrSetImpl<Value> &visited) {
  if (!visited.insert(v).second)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<func::FuncOp>(owner))
      return false;
    if (auto forOp = dyn_cast<scf::ForOp>(owner)) {
      if (arg == forOp.getInductionVar())
        return dependsOnThread(forOp.getLowerBound(), visited) ||
               dependsOnThread(forOp.getUpperBound(), visited) ||
               dependsOnThread(forOp.getStep(), visited);
      unsigned i = arg.getArgNumber() - 1;
      return dependsOnThread(forOp.getInitArgs()[i], visited) ||
             dependsOnThread(forOp.getYieldedValues()[i], visited);
    }
    return true;
  }
  Operation *def = v.getDefiningOp();
  if (isThreadIndexRead(def) || def->getNumRegions() > 0)
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOnThread(operand, visited);
  });
}

bool dependsOnThread(Value v) {
  llvm::SmallPtrSet<Value, 16> visited;
  return dependsOnThread(v, visited);
}

} // namespace

bool mlir::txlgpu::inThreadDependentRegion(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (auto ifOp = dyn_cast<scf::IfOp>(p)) {
      if (dependsOnThread(ifOp.getCondition()))
        return true;
    } else if (auto forOp = dyn_cast<scf::ForOp>(p)) {
      if (dependsOnThread(forOp.getLowerBound()) ||
          dependsOnThread(forOp.getUpperBound()) ||
          dependsOnThread(forOp.getStep()))
        return true;
    } else if (isa<scf::WhileOp>(p)) {
      return true;
    }
  }
  return false;
}
