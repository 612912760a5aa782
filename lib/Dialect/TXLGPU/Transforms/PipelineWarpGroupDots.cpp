//===- PipelineWarpGroupDots.cpp - overlap staging copies with wgmma ------===//
//
// After AssignLayouts a plain matmul loop body reads
//
//   %as = local_alloc %a ; %bs = local_alloc %b
//   %d = warp_group_dot %as, %bs, %acc ; %w = warp_group_dot_wait %d {0}
//   scf.yield ..., %w
//
// so every iteration waits for its tensor-core work before copying the next
// operands. Here each local_alloc becomes a store into one of two stages of
// a buffer allocated before the loop (stage = iteration parity) and the
// wait keeps one group pending. The group that read a stage is two
// iterations old when the stage is rewritten, so `pendings = 1` has retired
// it; the copy's leading barrier makes every warpgroup's wait count. The
// accumulator stays in flight between iterations, which is fine because
// only the next wgmma reads it; one wait for everything follows the loop.
//
// The operands are register values stored each trip, usually after layout
// conversions (upcasts, shuffles) whose shared scratch is live next to the
// stages; so a loop is left synchronous when its two stages and one more
// copy of the operands do not fit the target's shared memory, or when the
// kernel (num_stages) or the loop (tl.range(num_stages=...)) asks for
// fewer than two stages.
//
// A loop with several dots, each waited for at once (attention: S = Q K^T,
// the softmax, O = P V + alpha O), keeps its last dot in flight instead
// when its accumulator is read only after the next iteration's first
// dot_wait(0): that wait (which retires every earlier group) also returns
// the accumulator, so P_i V_i runs on the tensor cores while iteration i+1
// issues S_{i+1}, back to back, rather than the warps waiting for it. The
// ring refills PipelineTMALoads put at the top of the body (stage
// (i-1) % S, which P_{i-1} V_{i-1} read) move after that wait, where the
// group has retired. Only in CTAs of one warpgroup (Triton's tutorial at
// 4 warps, where nothing else fills the tensor cores' gap at the back
// edge); a one-stage ring's refill feeds the same iteration's S and keeps
// the loop as it is.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Dialect/TXLGPU/Transforms/SharedMemoryLiveness.h"
#include "txl/Support/Debug.h"
#include "txl/Support/TargetFeatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_PIPELINEWARPGROUPDOTS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

#define TXL_DEBUG_TYPE "txlgpu-pipeline-warp-group-dots"

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

constexpr int64_t kStages = 2;

/// The accumulating dot of `loop` when both its operands are staged by a
/// local_alloc in the loop body.
std::optional<AccumulatingDot> match(scf::ForOp loop, WarpGroupDotOp dot) {
  auto c = matchAccumulatingDot(loop, dot);
  if (!c)
    return std::nullopt;
  for (Value operand : {Value(dot.getA()), Value(dot.getB())}) {
    auto alloc = operand.getDefiningOp<LocalAllocOp>();
    if (!alloc || alloc->getParentOp() != loop.getOperation() ||
        !alloc->hasOneUse())
      return std::nullopt;
  }
  return c;
}

/// Why `loop` keeps its dot synchronous, or nothing when it can pipeline.
std::optional<std::string> reasonToSkip(scf::ForOp loop, AccumulatingDot c,
                                        int64_t numStages) {
  if (auto attr = loop->getAttrOfType<IntegerAttr>("txl.num_stages"))
    numStages = attr.getInt();
  if (numStages < kStages)
    return std::to_string(numStages) + " stage(s) asked for";
  int64_t perStage = 0;
  for (Value operand : {Value(c.dot.getA()), Value(c.dot.getB())})
    perStage += cast<MemDescType>(operand.getType()).getSizeInBytes();
  StringRef target;
  if (auto module = loop->getParentOfType<ModuleOp>())
    if (auto attr =
            module->getAttrOfType<StringAttr>(TXLGPUDialect::kTargetAttr))
      target = attr.getValue();
  int64_t limit = ::txl::targetMaxSharedBytesPerBlock(target);
  if ((kStages + 1) * perStage > limit)
    return std::to_string(kStages) + " stages of " + std::to_string(perStage) +
           " operand bytes and the conversions feeding them would not fit "
           "the " +
           std::to_string(limit) + " bytes of shared memory";
  return std::nullopt;
}

void pipeline(scf::ForOp loop, AccumulatingDot c) {
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Location loc = c.dot.getLoc();
  // stage = ((iv - lb) / step) % 2
  Value trip = arith::DivSIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, loop.getInductionVar(),
                            loop.getLowerBound()),
      loop.getStep());
  Value stage = arith::RemSIOp::create(
      b, loc, trip,
      arith::ConstantOp::create(b, loc,
                                b.getIntegerAttr(trip.getType(), kStages)));
  if (!stage.getType().isInteger(32))
    stage = arith::TruncIOp::create(b, loc, b.getI32Type(), stage);
  stageOperand(b, loop, c.dot.getA().getDefiningOp<LocalAllocOp>(), stage,
               kStages);
  stageOperand(b, loop, c.dot.getB().getDefiningOp<LocalAllocOp>(), stage,
               kStages);
  c.wait.setPendings(1);
  drainAfterLoop(loop, c);
}

/// The last dot of a loop with several, kept in flight across the back
/// edge (see the file comment); `first` is the body's first dot_wait(0),
/// `refills` the ring refills before it, in order.
struct InFlightDot {
  AccumulatingDot last;
  WarpGroupDotWaitOp first;
  SmallVector<Operation *> refills;
};

/// The stages of the compiler-made ring whose mbarrier stage `op` uses (0
/// when it uses none).
int64_t ringStages(Operation *op) {
  for (Value v : op->getOperands()) {
    auto stage = v.getDefiningOp<MemDescIndexOp>();
    auto ring = stage ? stage.getSrc().getDefiningOp<MBarAllocOp>() : nullptr;
    if (ring && ring->hasAttr(kCompilerRingAttr))
      return ring.getType().getShape()[0];
  }
  return 0;
}

/// Whether `op` uses a stage of a compiler-made ring's mbarriers.
bool usesRingBarrier(Operation *op) {
  return llvm::any_of(op->getOperands(), [](Value v) {
    auto stage = v.getDefiningOp<MemDescIndexOp>();
    auto ring = stage ? stage.getSrc().getDefiningOp<MBarAllocOp>() : nullptr;
    return ring && ring->hasAttr(kCompilerRingAttr);
  });
}

/// Whether the loop body writes the bytes `v` (a view of a shared buffer,
/// through index and view ops) other than by a compiler-made ring's TMA
/// copies.
bool writtenInLoop(Value v, scf::ForOp loop) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (isa<MemDescIndexOp, MemDescViewOp>(user)) {
      if (writtenInLoop(user->getResult(0), loop))
        return true;
      continue;
    }
    if (!loop->isAncestor(user) || isa<WarpGroupDotOp, SmemLoadOp>(user))
      continue;
    if (isa<TMALoadOp>(user) && usesRingBarrier(user))
      continue;
    return true;
  }
  return false;
}

/// Whether a shared operand of a dot kept in flight stays intact until the
/// next iteration's first wait: the body writes its buffer only through a
/// compiler-made ring's copies (whose refills move after that wait). A tile
/// the body writes itself (a local_alloc, smem_store) or a ring the user
/// manages may be overwritten while the dot still reads it.
bool sharedSafeInFlight(Value tile, scf::ForOp loop) {
  while (auto view = tile.getDefiningOp<MemDescViewOp>())
    tile = view.getSrc();
  if (auto stage = tile.getDefiningOp<MemDescIndexOp>())
    tile = stage.getSrc();
  Operation *alloc = tile.getDefiningOp();
  if (!isa_and_nonnull<SmemAllocOp, LocalAllocOp>(alloc))
    return false;
  return !loop->isAncestor(alloc) && !writtenInLoop(tile, loop);
}

/// A register A operand the next iteration may rewrite only after the
/// first wait: a value made outside the loop, or a renaming of an mma
/// accumulator (a convert_layout from an nvmma layout), which the next
/// iteration recomputes from its own dot after that wait.
bool registersSafeInFlight(Value a, scf::ForOp loop) {
  if (isa<MemDescType>(a.getType()) || loop.isDefinedOutsideOfLoop(a))
    return true;
  auto cvt = a.getDefiningOp<ConvertLayoutOp>();
  return cvt &&
         isa<NvidiaMmaEncodingAttr>(
             cast<RankedTensorType>(cvt.getSrc().getType()).getEncoding());
}

/// Whether the user synchronizes threads in `loop` (mbarriers other than the
/// compiler's rings, roles that run only on some threads): the user's
/// protocol may hand a tile on once the dot's own wait passed.
bool userSynchronized(scf::ForOp loop) {
  if (inThreadDependentRegion(loop))
    return true;
  return loop.getBody()
      ->walk([](Operation *op) {
        if (isa<MBarWaitOp, MBarArriveOp, MBarExpectOp, TMALoadOp>(op) &&
            !usesRingBarrier(op))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether the CTA running `loop` is one warpgroup.
bool oneWarpGroupCTA(scf::ForOp loop) {
  auto module = loop->getParentOfType<ModuleOp>();
  int64_t warps = 4, groups = 1;
  if (auto a = module->getAttrOfType<IntegerAttr>(TXLGPUDialect::kNumWarpsAttr))
    warps = a.getInt();
  if (auto a =
          module->getAttrOfType<IntegerAttr>(TXLGPUDialect::kNumWarpgroupsAttr))
    groups = a.getInt();
  return warps * groups <= 4;
}

std::optional<InFlightDot> matchInFlightDot(scf::ForOp loop) {
  // With several warpgroups in the CTA, the refill's CTA barrier right
  // after the first wait makes every warpgroup wait for the others' S
  // (queued behind all P Vs) before its softmax, so their softmaxes run
  // together and the tensor cores idle through them; with each dot waited
  // at once, the barrier at the top lets the second warpgroup's S run
  // under the first's softmax. Measured on the H100 (session 13, 8 warps
  // at head dim 128): in flight cost 3-5%.
  if (!oneWarpGroupCTA(loop))
    return std::nullopt;
  if (auto ws = loop->getAttrOfType<BoolAttr>("txl.warp_specialize");
      ws && ws.getValue())
    return std::nullopt;
  if (userSynchronized(loop))
    return std::nullopt;
  Block *body = loop.getBody();
  SmallVector<WarpGroupDotOp> dots(body->getOps<WarpGroupDotOp>());
  if (dots.size() < 2)
    return std::nullopt;
  WarpGroupDotOp dot = dots.back();
  if (dot->getParentOp() != loop.getOperation() || !dot->hasOneUse() ||
      !registersSafeInFlight(dot.getA(), loop) ||
      (isa<MemDescType>(dot.getA().getType()) &&
       !sharedSafeInFlight(dot.getA(), loop)) ||
      !sharedSafeInFlight(dot.getB(), loop))
    return std::nullopt;
  auto wait = dyn_cast<WarpGroupDotWaitOp>(*dot->getUsers().begin());
  if (!wait || wait->getBlock() != body || wait.getInputs().size() != 1 ||
      !wait->getResult(0).hasOneUse())
    return std::nullopt;
  auto yield = dyn_cast<scf::YieldOp>(*wait->getResult(0).getUsers().begin());
  if (!yield)
    return std::nullopt;
  unsigned index = wait->getResult(0).getUses().begin()->getOperandNumber();
  // Every wait of the body retires everything: then the dot is the only
  // group in flight at the back edge.
  SmallVector<WarpGroupDotWaitOp> waits(body->getOps<WarpGroupDotWaitOp>());
  if (llvm::any_of(waits,
                   [](WarpGroupDotWaitOp w) { return w.getPendings() != 0; }))
    return std::nullopt;
  WarpGroupDotWaitOp first = waits.front();
  if (first == wait || !first->isBeforeInBlock(dot))
    return std::nullopt;
  for (Operation *user : loop.getRegionIterArgs()[index].getUsers()) {
    Operation *top = body->findAncestorOpInBlock(*user);
    if (!top || !first->isBeforeInBlock(top))
      return std::nullopt;
  }
  InFlightDot match{{dot, wait, index}, first, {}};
  for (Operation &op : *body) {
    if (&op == first.getOperation())
      break;
    if ((isa<BarrierOp>(op) && &op == &body->front()) ||
        (isa<MBarExpectOp, TMALoadOp>(op) && usesRingBarrier(&op)))
      match.refills.push_back(&op);
    // A one-stage ring refills the stage with this iteration's tiles,
    // which S reads before the first wait: the refill cannot move.
    if (isa<TMALoadOp>(op) && ringStages(&op) == 1)
      return std::nullopt;
  }
  return match;
}

void keepInFlight(scf::ForOp loop, InFlightDot &m) {
  // The first wait also returns the accumulator the last dot left in
  // flight; its readers (all after that wait) read the returned value.
  Value acc = loop.getRegionIterArgs()[m.last.resultIndex];
  OpBuilder b(m.first);
  SmallVector<Value> inputs(m.first.getInputs());
  inputs.push_back(acc);
  auto first = WarpGroupDotWaitOp::create(b, m.first.getLoc(),
                                          ValueRange(inputs).getTypes(), inputs,
                                          m.first.getPendingsAttr());
  for (auto [old, now] : llvm::zip(m.first->getResults(), first->getResults()))
    old.replaceAllUsesWith(now);
  acc.replaceAllUsesExcept(first->getResults().back(), first);
  m.first->erase();
  Operation *after = first;
  for (Operation *op : m.refills) {
    op->moveAfter(after);
    after = op;
  }
  m.last.wait->getResult(0).replaceAllUsesWith(m.last.dot.getResult());
  m.last.wait->erase();
  drainAfterLoop(loop, m.last);
}

struct PipelineWarpGroupDotsPass
    : public txlgpu::impl::PipelineWarpGroupDotsBase<
          PipelineWarpGroupDotsPass> {
  using PipelineWarpGroupDotsBase::PipelineWarpGroupDotsBase;

  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, AccumulatingDot>> work;
    SmallVector<std::pair<scf::ForOp, InFlightDot>> inFlight;
    getOperation().walk([&](scf::ForOp loop) {
      SmallVector<WarpGroupDotOp> dots(
          loop.getBody()->getOps<WarpGroupDotOp>());
      if (dots.size() > 1) {
        if (auto m = matchInFlightDot(loop))
          inFlight.push_back({loop, *m});
        return;
      }
      if (dots.size() != 1)
        return;
      auto c = match(loop, dots.front());
      if (c) {
        if (auto why = reasonToSkip(loop, *c, numStages))
          TXL_DEBUG(llvm::dbgs()
                    << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc()
                    << ": not pipelined: " << *why << "\n");
        else
          work.push_back({loop, *c});
      } else
        TXL_DEBUG(llvm::dbgs()
                  << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc()
                  << ": not pipelined: the dot does not accumulate a loop-"
                     "carried value from operands staged in the loop\n");
    });
    for (auto &[loop, c] : work)
      pipeline(loop, c);
    for (auto &[loop, m] : inFlight)
      keepInFlight(loop, m);
  }
};

} // namespace
