//===- PipelineAsyncCopies.cpp - multi-stage cp.async pipelining of dots --===//
//
// A plain matmul loop after AssignLayouts reads
//
//   %a = txl.load %a_ptrs, %mask   ; %as = local_alloc %a   (same for B)
//   %d = warp_group_dot %as, %bs, %acc ; %w = warp_group_dot_wait %d {0}
//   %a_ptrs' = addptr %a_ptrs, ... ; scf.yield %w, %a_ptrs', ...
//
// Here the operand tiles go from global to shared memory with cp.async,
// S stages deep (the loop's num_stages, else the launch's): S buffers per
// operand, the copies of iteration i+S-1 issued during iteration i. An
// iteration
//
//   waits for its own copies (async_wait S-2: the S-2 younger groups stay
//   in flight), which also fences them and synchronizes the CTA,
//   issues its wgmma on stage i%S and waits for the previous one (pendings
//   1), synchronizes (so every warpgroup's wgmma i-1 has retired) and
//   copies iteration i+S-1 into the stage wgmma i-1 read, (i-1)%S.
//
// The loop-carried addresses (the pointer tensors the body advances) run
// S-1 iterations ahead: the copies before the loop advance them S-1 times,
// so inside the loop the body's own address arithmetic, evaluated at
// induction value iv + (S-1)*step, computes exactly the addresses iteration
// i+S-1 of the original loop would have loaded. Copies of iterations past
// the end are skipped (scf.if), and every iteration still commits a group
// so the wait counts stay uniform.
//
// On sm_100a a plain dot is a tcgen05 MMA that AssignLayouts made
// synchronous (accumulator to TMEM, commit, wait, read back). Such a loop is
// taken the same way, with the accumulator moved out of it
// (makeTCGen05LoopAsync: stored to TMEM before the loop, read after the
// last commit) and the MMAs of iteration i committed to barrier i%S of a
// ring; instead of the wgmma wait, every thread waits for the commit of
// iteration i-1 before copying iteration i+S-1 into the stage it read.
//
// Taken when: one accumulating wgmma (or tcgen05 MMA) whose two operands are local_allocs of
// txl.loads in the body, the loads' `other` is absent or zero (cp.async
// zero-fills), each thread copies >= 4 contiguous bytes, and the values the
// addresses depend on are only used to compute addresses. Other loops are
// left to PrefetchLoopLoads and PipelineWarpGroupDots.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXL/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_PIPELINEASYNCCOPIES
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

#define TXL_DEBUG_TYPE "txlgpu-pipeline-async-copies"

using namespace mlir;
using namespace mlir::txlgpu;
namespace ttx = mlir::txl;

namespace {

/// Shared memory the staging buffers of one loop may take (the epilogue's
/// layout conversions reuse them, see AllocateSharedMemory); deeper
/// pipelines of large tiles get fewer stages than asked for.
constexpr int64_t kStagingBudgetBytes = 200 * 1024;

/// One dot operand: the load that fetches it, the local_alloc that stages
/// it, and the body ops computing the load's pointers and mask.
struct StagedOperand {
  ttx::LoadOp load;
  LocalAllocOp alloc;
  SmallVector<Operation *> slice;
  Value buffer; // the S-stage smem_alloc, made by the transformation
};

/// A loop-carried address value: its iter arg index and the body ops that
/// compute what the loop yields for it.
struct CarriedAddress {
  unsigned index;
  SmallVector<Operation *> advance;
};

struct Plan {
  scf::ForOp loop;
  Operation *dot;                        // the wgmma or the tcgen05 MMA
  std::optional<AccumulatingDot> wgmma;  // Hopper
  std::optional<TCGen05LoopDot> tcgen05; // sm_100a
  SmallVector<StagedOperand, 2> operands;
  SmallVector<CarriedAddress> addresses;
  int64_t stages;
};

/// Whether a load's `other` is absent or zero (what cp.async fills in).
bool isZeroOrAbsent(Value v) {
  if (!v)
    return true;
  if (auto convert = v.getDefiningOp<ConvertLayoutOp>())
    v = convert.getSrc();
  if (auto splat = v.getDefiningOp<ttx::SplatOp>())
    v = splat.getSrc();
  return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
}

/// The load staged by `operand`, when cp.async can replace the pair.
std::optional<StagedOperand> matchOperand(scf::ForOp loop, Value operand) {
  auto alloc = operand.getDefiningOp<LocalAllocOp>();
  if (!alloc || alloc->getBlock() != loop.getBody() || !alloc->hasOneUse())
    return std::nullopt;
  auto load = alloc.getSrc().getDefiningOp<ttx::LoadOp>();
  if (!load || load->getBlock() != loop.getBody() || !load->hasOneUse() ||
      !isZeroOrAbsent(load.getOther()) || load.getIsVolatile())
    return std::nullopt;
  Type elem = alloc.getType().getElementType();
  auto vec = load->getAttrOfType<IntegerAttr>(TXLGPUDialect::kVecAttr);
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() < 8 || !vec ||
      vec.getInt() * elem.getIntOrFloatBitWidth() < 32)
    return std::nullopt;
  // The copy's vectors must stay contiguous in the tile: the tile's
  // contiguous dimension is the one the pointers advance fastest along
  // (not so for an 8-bit B staged K-major from an N-contiguous tensor).
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(
      cast<RankedTensorType>(load.getPtr().getType()).getEncoding());
  auto shared =
      dyn_cast_or_null<NVMMASharedEncodingAttr>(alloc.getType().getEncoding());
  if (!blocked || !shared || blocked.getOrder()[0] != shared.getOrder()[0])
    return std::nullopt;
  SmallVector<Value> roots{load.getPtr()};
  if (load.getMask())
    roots.push_back(load.getMask());
  auto slice = recomputableSlice(roots, loop.getBody());
  if (failed(slice))
    return std::nullopt;
  return StagedOperand{load, alloc, *slice, Value()};
}

/// Whether `op` reads block argument `arg` directly.
bool reads(Operation *op, Value arg) {
  return llvm::is_contained(op->getOperands(), arg);
}

/// The iter args the operands' addresses depend on, each with the ops that
/// advance it; fails unless those values serve addresses only.
FailureOr<SmallVector<CarriedAddress>>
carriedAddresses(scf::ForOp loop, ArrayRef<StagedOperand> operands) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  llvm::SmallPtrSet<Operation *, 32> addressOps;
  for (StagedOperand o : operands) {
    addressOps.insert(o.slice.begin(), o.slice.end());
    addressOps.insert(o.load);
  }
  SmallVector<CarriedAddress> carried;
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    bool used =
        llvm::any_of(addressOps, [&](Operation *op) { return reads(op, arg); });
    if (!used)
      continue;
    auto advance = recomputableSlice(yield.getOperand(i), body);
    if (failed(advance) || !loop.getResult(i).use_empty())
      return failure();
    carried.push_back({unsigned(i), *advance});
  }
  // Every op reading a carried value must be address arithmetic, and the
  // advancing ops may only read carried values and the induction variable.
  llvm::SmallPtrSet<Operation *, 32> allowed(addressOps.begin(),
                                             addressOps.end());
  for (const CarriedAddress &c : carried)
    allowed.insert(c.advance.begin(), c.advance.end());
  auto isCarried = [&](Value v) {
    return llvm::any_of(carried, [&](const CarriedAddress &c) {
      return loop.getRegionIterArgs()[c.index] == v;
    });
  };
  for (const CarriedAddress &c : carried) {
    for (OpOperand &use : loop.getRegionIterArgs()[c.index].getUses())
      if (!allowed.contains(use.getOwner()) &&
          !(isa<scf::YieldOp>(use.getOwner()) &&
            use.getOperandNumber() == c.index))
        return failure();
    for (Operation *op : c.advance)
      for (Value v : op->getOperands())
        if (isa<BlockArgument>(v) && v.getParentBlock() == body &&
            v != loop.getInductionVar() && !isCarried(v))
          return failure();
  }
  for (const StagedOperand &o : operands) {
    SmallVector<Operation *> readers(o.slice.begin(), o.slice.end());
    readers.push_back(o.load);
    for (Operation *op : readers)
      for (Value v : op->getOperands())
        if (isa<BlockArgument>(v) && v.getParentBlock() == body &&
            v != loop.getInductionVar() && !isCarried(v))
          return failure();
  }
  return carried;
}

/// Why `loop` is left alone, for TXL_DEBUG_ONLY=txlgpu-pipeline-async-copies.
std::nullopt_t skip(scf::ForOp loop, llvm::StringRef why) {
  TXL_DEBUG(llvm::dbgs() << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc()
                         << ": not pipelined: " << why << "\n");
  return std::nullopt;
}

std::optional<Plan> makePlan(scf::ForOp loop, int64_t defaultStages) {
  SmallVector<WarpGroupDotOp> dots(loop.getBody()->getOps<WarpGroupDotOp>());
  SmallVector<TCGen05MMAOp> mmas(loop.getBody()->getOps<TCGen05MMAOp>());
  if (dots.size() + mmas.size() != 1)
    return skip(loop, "the body has " +
                          std::to_string(dots.size() + mmas.size()) +
                          " tensor-core dots, not one");
  Plan plan{loop, nullptr, std::nullopt, std::nullopt, {}, {}, defaultStages};
  Value a, b;
  if (!dots.empty()) {
    plan.wgmma = matchAccumulatingDot(loop, dots.front());
    if (!plan.wgmma)
      return skip(loop,
                  "the dot does not accumulate into a loop-carried value");
    plan.dot = plan.wgmma->dot;
    a = plan.wgmma->dot.getA();
    b = plan.wgmma->dot.getB();
  } else {
    plan.tcgen05 = matchTCGen05LoopDot(loop, mmas.front());
    if (!plan.tcgen05)
      return skip(loop, "the tcgen05 MMA does not accumulate a loop-carried "
                        "value in tensor memory");
    plan.dot = plan.tcgen05->mma;
    a = mmas.front().getA();
    b = mmas.front().getB();
  }
  for (Value operand : {a, b}) {
    auto staged = matchOperand(loop, operand);
    if (!staged)
      return skip(loop, "a dot operand is not a global load staged through "
                        "shared memory in the loop");
    plan.operands.push_back(*staged);
  }
  auto carried = carriedAddresses(loop, plan.operands);
  if (failed(carried))
    return skip(loop, "an operand's addresses do not advance by a "
                      "loop-carried increment");
  plan.addresses = *carried;
  if (auto attr = loop->getAttrOfType<IntegerAttr>("txl.num_stages"))
    plan.stages = attr.getInt();
  int64_t perStage = 0;
  for (StagedOperand &o : plan.operands)
    perStage += o.alloc.getType().getSizeInBytes();
  int64_t asked = plan.stages;
  plan.stages = std::min(plan.stages, kStagingBudgetBytes / perStage);
  if (plan.stages < 2)
    return skip(loop, std::to_string(perStage) +
                          " bytes per stage leave "
                          "room for fewer than 2 stages");
  TXL_DEBUG(llvm::dbgs() << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc()
                         << ": " << plan.stages << " stages (asked " << asked
                         << ") of " << perStage << " bytes\n");
  return plan;
}

Value intConst(OpBuilder &b, Location loc, Type type, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}

/// Copies the tiles of the iteration at induction value `iv`, whose
/// carried addresses `map` holds, into stage `stage`; nothing when that
/// iteration does not exist. Then closes the group.
void issueCopies(OpBuilder &b, Plan &plan, Value iv, IRMapping map,
                 Value stage) {
  Location loc = plan.dot->getLoc();
  map.map(plan.loop.getInductionVar(), iv);
  Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv,
                                       plan.loop.getUpperBound());
  auto guard = scf::IfOp::create(b, loc, exists, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(guard.thenBlock());
    for (StagedOperand &o : plan.operands) {
      IRMapping local = map;
      for (Operation *op : o.slice)
        b.clone(*op, local);
      Value view =
          MemDescIndexOp::create(b, loc, o.alloc.getType(), o.buffer, stage);
      Value mask = o.load.getMask() ? local.lookup(o.load.getMask()) : Value();
      auto copy = AsyncCopyGlobalToLocalOp::create(
          b, o.load.getLoc(), local.lookupOrDefault(o.load.getPtr()), view,
          mask, /*contiguity=*/IntegerAttr());
      copy->setAttr(TXLGPUDialect::kVecAttr,
                    o.load->getAttr(TXLGPUDialect::kVecAttr));
    }
  }
  AsyncCommitGroupOp::create(b, loc);
}

/// The carried addresses after the iteration at `iv` whose addresses
/// `map` holds; `map` is updated to them.
void advance(OpBuilder &b, Plan &plan, Value iv, IRMapping &map) {
  IRMapping local = map;
  local.map(plan.loop.getInductionVar(), iv);
  auto yield = cast<scf::YieldOp>(plan.loop.getBody()->getTerminator());
  SmallVector<Value> next;
  for (CarriedAddress &c : plan.addresses) {
    for (Operation *op : c.advance)
      if (!local.contains(op->getResult(0)))
        b.clone(*op, local);
    next.push_back(local.lookupOrDefault(yield.getOperand(c.index)));
  }
  for (auto [c, v] : llvm::zip(plan.addresses, next))
    map.map(plan.loop.getRegionIterArgs()[c.index], v);
}

/// (s + delta) mod S for a stage s in [0, S) and 0 < delta < S.
Value rotateStage(OpBuilder &b, Location loc, Value s, int64_t delta,
                  int64_t stages) {
  Type i32 = b.getI32Type();
  Value sum = arith::AddIOp::create(b, loc, s, intConst(b, loc, i32, delta));
  Value wrapped =
      arith::SubIOp::create(b, loc, sum, intConst(b, loc, i32, stages));
  Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, sum,
                                      intConst(b, loc, i32, stages));
  return arith::SelectOp::create(b, loc, wraps, wrapped, sum);
}

void transform(Plan &plan) {
  scf::ForOp loop = plan.loop;
  Location loc = plan.dot->getLoc();
  int64_t S = plan.stages;
  // tcgen05: the accumulator stays in TMEM and the MMAs of trip t commit
  // to barrier t % S of a ring, which the copies into their stage wait on.
  Value ring, trip;
  if (plan.tcgen05)
    std::tie(ring, trip) = makeTCGen05LoopAsync(loop, *plan.tcgen05, S);
  OpBuilder b(loop);
  for (StagedOperand &o : plan.operands) {
    MemDescType tile = o.alloc.getType();
    SmallVector<int64_t> shape{S};
    shape.append(tile.getShape().begin(), tile.getShape().end());
    o.buffer = SmemAllocOp::create(b, o.alloc.getLoc(),
                                   MemDescType::get(b.getContext(), shape,
                                                    tile.getElementType(),
                                                    tile.getEncoding()),
                                   /*immutable=*/nullptr);
    o.buffer.getDefiningOp()->setAttr(TXLGPUDialect::kLoopStagingAttr,
                                      b.getUnitAttr());
  }

  // Prologue: iterations 0 .. S-2 into stages 0 .. S-2.
  IRMapping state;
  for (CarriedAddress &c : plan.addresses)
    state.map(loop.getRegionIterArgs()[c.index], loop.getInitArgs()[c.index]);
  Type ivType = loop.getInductionVar().getType();
  for (int64_t s = 0; s + 1 < S; ++s) {
    Value iv = arith::AddIOp::create(
        b, loc, loop.getLowerBound(),
        arith::MulIOp::create(b, loc, loop.getStep(),
                              intConst(b, loc, ivType, s)));
    issueCopies(b, plan, iv, state, intConst(b, loc, b.getI32Type(), s));
    advance(b, plan, iv, state);
  }
  for (CarriedAddress &c : plan.addresses)
    loop.getInitArgsMutable()[c.index].set(
        state.lookup(loop.getRegionIterArgs()[c.index]));

  // The loop carries the stage it reads.
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  Value zero = intConst(b, loc, b.getI32Type(), 0);
  auto grown = loop.replaceWithAdditionalYields(
      rewriter, zero, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &yb, Location l, ArrayRef<BlockArgument> args) {
        return SmallVector<Value>{rotateStage(yb, l, args[0], 1, S)};
      });
  if (failed(grown))
    return;
  loop = cast<scf::ForOp>(grown->getOperation());
  plan.loop = loop;
  Value readStage = loop.getRegionIterArgs().back();
  Block *body = loop.getBody();

  b.setInsertionPointToStart(body);
  AsyncWaitOp::create(b, loc, b.getI32IntegerAttr(S - 2));
  for (StagedOperand &o : plan.operands) {
    b.setInsertionPoint(o.alloc);
    Value view = MemDescIndexOp::create(b, o.alloc.getLoc(), o.alloc.getType(),
                                        o.buffer, readStage);
    o.alloc.getResult().replaceAllUsesWith(view);
  }

  // After this iteration's wgmma is issued and the previous one retired in
  // every warpgroup, the stage it read takes iteration i+S-1's tiles. On
  // tcgen05 every thread waits for the previous MMAs' commit instead.
  if (plan.wgmma) {
    plan.wgmma->wait.setPendings(1);
    b.setInsertionPointAfter(plan.wgmma->wait);
    BarrierOp::create(b, loc);
  } else {
    b.setInsertionPointAfter(plan.dot);
    Value ahead = arith::AddIOp::create(
        b, loc, trip, intConst(b, loc, b.getI32Type(), S - 1));
    waitForStageReaders(b, loc, ring, ahead, S);
  }
  Value ahead = arith::AddIOp::create(
      b, loc, loop.getInductionVar(),
      arith::MulIOp::create(b, loc, loop.getStep(),
                            intConst(b, loc, ivType, S - 1)));
  IRMapping identity;
  issueCopies(b, plan, ahead, identity,
              rotateStage(b, loc, readStage, S - 1, S));

  // The carried addresses advance from iteration i+S-1 to i+S.
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  b.setInsertionPoint(yield);
  IRMapping next;
  advance(b, plan, ahead, next);
  for (CarriedAddress &c : plan.addresses)
    yield.setOperand(c.index, next.lookup(loop.getRegionIterArgs()[c.index]));

  for (StagedOperand &o : plan.operands) {
    o.alloc.erase();
    o.load.erase();
  }
  b.setInsertionPointAfter(loop);
  AsyncWaitOp::create(b, loc, b.getI32IntegerAttr(0));
  if (plan.wgmma)
    drainAfterLoop(loop, *plan.wgmma);
}

struct PipelineAsyncCopiesPass
    : public txlgpu::impl::PipelineAsyncCopiesBase<PipelineAsyncCopiesPass> {
  using PipelineAsyncCopiesBase::PipelineAsyncCopiesBase;

  void runOnOperation() override {
    SmallVector<Plan, 2> plans;
    getOperation().walk([&](scf::ForOp loop) {
      if (auto plan = makePlan(loop, numStages))
        plans.push_back(*plan);
    });
    for (Plan &plan : plans)
      transform(plan);
  }
};

} // namespace
