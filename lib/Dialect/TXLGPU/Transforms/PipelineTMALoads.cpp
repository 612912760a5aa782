//===- PipelineTMALoads.cpp - desc.load copies S stages ahead -------------===//
//
// desc.load in a loop is a synchronous TMA copy into a tile private to its
// call site: every iteration issues the copy and waits for its bytes
// before anything can use them, so the loop runs at memory latency. Here
// each such copy in a plain scf.for gets a ring of S stages (the loop's
// num_stages, else the launch's) and S mbarriers:
//
//   before the loop   the copies of iterations 0..S-2, each into its stage
//                     (expect_tx + TMA, skipped for iterations past the end)
//   iteration i       barrier (every warp is done with stage (i-1) % S;
//                     a proxy fence too if threads read it with smem_load),
//                     then the copies of iteration i+S-1 into that stage;
//                     where the copy was: wait on barrier i % S with parity
//                     (i / S) & 1 and read stage i % S.
//
// The copy's coordinates for iteration i+S-1 are the body's own arithmetic
// evaluated at induction value iv + (S-1)*step and at the values the
// loop-carried inputs of that arithmetic have then: these run S-1
// iterations ahead in iter args of their own (advanced by the body's own
// update, the original ones are untouched). Before the loop the same
// updates produce iterations 0..S-1.
//
// S is the most stages, up to num_stages, that fit the target's shared
// memory next to what is live while the loop runs (ringBudget); where not
// even two fit, one stage still issues each iteration's copies at its top.
//
// Every copy into a ring is waited for inside its loop, so the ring is dead
// once the loop ends (SharedMemoryLiveness knows the compiler_ring mark):
// loops one after the other share bytes.
//
// Taken when: the loop issues a wgmma, the copy is a desc.load site
// (DescLoadTiles.h) directly in the body, every reader of its tile is in the
// body and done within the iteration (smem_load, or a wgmma waited for at once:
// AssignLayouts' form, which the later passes keep for loops with two dots),
// the descriptor is loop-invariant, the coordinates are pure arithmetic of the
// induction variable, loop invariants and iter args whose updates are such
// arithmetic too, and the step is a positive constant. Loops the user
// warp-specializes are left alone.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXL/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/Transforms/DescLoadTiles.h"
#include "txl/Dialect/TXLGPU/Transforms/LoopPipelining.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Dialect/TXLGPU/Transforms/SharedMemoryLiveness.h"
#include "txl/Support/Debug.h"
#include "txl/Support/TargetFeatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_PIPELINETMALOADS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

#define TXL_DEBUG_TYPE "txlgpu-pipeline-tma-loads"

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

struct RingLoad {
  DescLoadSite site;
  SmallVector<Operation *> coords; // the body ops computing the coordinates
  Value buffer, barriers;          // the S-stage arrays, made by transform
};

struct Plan {
  scf::ForOp loop;
  SmallVector<RingLoad, 2> loads;
  SmallVector<unsigned> carried; // iter args the coordinates depend on
  SmallVector<SmallVector<Operation *>> updates; // their yields' slices
  int64_t stages;
  int64_t bytes = 0;           // of its rings
  bool genericReaders = false; // some tile is read by smem_load
};

/// Whether every reader of `tile` (through views) is in `body`'s loop and
/// done with it by the end of the iteration.
bool readersDoneInIteration(Value tile, scf::ForOp loop) {
  for (Operation *user : tile.getUsers()) {
    if (isa<TMALoadOp>(user))
      continue;
    if (!loop.getBody()->findAncestorOpInBlock(*user))
      return false;
    if (auto view = dyn_cast<MemDescViewOp>(user)) {
      if (!readersDoneInIteration(view.getResult(), loop))
        return false;
      continue;
    }
    if (isa<SmemLoadOp>(user))
      continue;
    auto dot = dyn_cast<WarpGroupDotOp>(user);
    if (!dot || !dot->hasOneUse())
      return false;
    auto wait = dyn_cast<WarpGroupDotWaitOp>(*dot->getUsers().begin());
    if (!wait || wait.getPendings() != 0 || wait->getBlock() != dot->getBlock())
      return false;
  }
  return true;
}

/// Whether `op`'s results reach only dead code: ops without memory effects,
/// regions or terminators whose own results do (so canonicalization will
/// erase them all).
bool onlyFeedsDeadCode(Operation *op, int depth = 0) {
  return depth < 8 && llvm::all_of(op->getUsers(), [&](Operation *user) {
           return isMemoryEffectFree(user) && user->getNumRegions() == 0 &&
                  !user->hasTrait<OpTrait::IsTerminator>() &&
                  onlyFeedsDeadCode(user, depth + 1);
         });
}

/// Whether tensor `v` is computed by pure ops from scalars and constants
/// alone (splats, ranges, broadcasts of them: causal attention's mask), so
/// that RemoveLayoutConversions rebuilds it in any layout instead of
/// converting it through shared memory.
bool builtFromScalars(Value v, int depth = 0) {
  if (!isa<RankedTensorType>(v.getType()))
    return true;
  Operation *op = v.getDefiningOp();
  if (!op || depth > 8 || !isPure(op) || op->getNumRegions() != 0)
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return builtFromScalars(operand, depth + 1);
  });
}

/// Whether `op` is a layout conversion that needs no scratch in the end.
bool isRebuiltConversion(Operation *op) {
  auto cvt = dyn_cast<ConvertLayoutOp>(op);
  return cvt && builtFromScalars(cvt.getSrc());
}

/// Room kept besides a loop's rings and the buffers live next to them:
/// mbarriers (live throughout the kernel) and the padding that aligns
/// swizzled tiles to 1024 bytes, one such gap per buffer.
constexpr int64_t kRingSlackBytes = 2048;
constexpr int64_t kTileAlignmentBytes = 1024;

/// Shared memory `loop`'s rings may take: the target's per-CTA maximum
/// less what is live while the loop runs -- the other tiles whose live
/// range overlaps the loop (attention's Q; the loop's own desc.load tiles
/// become the rings and are not counted) and the largest scratch an op of
/// the loop exchanges data through (layout conversions, reductions; one
/// at a time) -- and less the slack above. As many stages as this allows,
/// up to num_stages, is what Triton gets from the same num_stages where its
/// buffers fit (its launch fails where they do not). Rings of loops around
/// or inside this one are subtracted by the caller.
int64_t ringBudget(scf::ForOp loop, const ProgramOrder &order,
                   int64_t targetBytes) {
  int64_t loopStart = order.start(loop), loopEnd = order.end(loop);
  int64_t live = kRingSlackBytes, scratch = 0;
  auto func = loop->getParentOfType<FunctionOpInterface>();
  // With several warpgroups AllocateSharedMemory keeps one scratch area
  // for the whole kernel, a part per warpgroup (and one for extra warps).
  int64_t scratchParts = 1;
  if (auto groups =
          func->getParentOfType<ModuleOp>()->getAttrOfType<IntegerAttr>(
              TXLGPUDialect::kNumWarpgroupsAttr);
      groups && groups.getInt() > 1)
    scratchParts = groups.getInt() + 1;
  func->walk([&](Operation *op) {
    // (The front end's register copies of tiles that the wgmmas read in
    // place feed only dead code and are erased later.)
    if ((scratchParts > 1 || loop->isAncestor(op)) && !onlyFeedsDeadCode(op) &&
        !isRebuiltConversion(op) && sharedScratchBytes(op) > scratch) {
      scratch = sharedScratchBytes(op);
      TXL_DEBUG(llvm::dbgs()
                << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc() << ": "
                << scratch << " B of scratch: " << *op << "\n");
    }
    auto alloc = dyn_cast<SmemAllocOp>(op);
    int64_t bytes = 0;
    if (alloc)
      bytes = alloc.getType().getSizeInBytes();
    else if (auto local = dyn_cast<LocalAllocOp>(op))
      bytes = local.getType().getSizeInBytes();
    else
      return;
    if (alloc)
      for (Operation *user : alloc->getUsers())
        if (auto tile = dyn_cast<MemDescIndexOp>(user))
          if (auto site = matchDescLoadSite(tile.getResult());
              site && site->copy->getParentOp() == loop.getOperation())
            return; // becomes this loop's ring
    SmallVector<BufferAccess> accesses;
    std::optional<std::pair<int64_t, int64_t>> span;
    if (collectBufferAccesses(op->getResult(0), accesses))
      span = liveInterval(op, accesses, order);
    else
      span = {{order.start(op), order.end(func)}};
    // A tile the loop body stages from registers may get a second stage
    // from PipelineWarpGroupDots.
    if (!alloc && loop->isAncestor(op))
      bytes *= 2;
    if (span && span->first <= loopEnd && loopStart <= span->second) {
      live += bytes + kTileAlignmentBytes;
      TXL_DEBUG(llvm::dbgs()
                << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc() << ": "
                << bytes << " B live next to its rings: " << *op << "\n");
    }
  });
  scratch *= scratchParts;
  TXL_DEBUG(llvm::dbgs() << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc()
                         << ": ring budget " << targetBytes - live - scratch
                         << " B (" << scratch << " B scratch)\n");
  return targetBytes - live - scratch;
}

/// Whether threads read `tile` themselves (smem_load, the generic proxy)
/// rather than only through wgmma (the asynchronous proxy, like the TMA
/// copies that overwrite it). An smem_load that feeds only dead code (the
/// front end's, where AssignLayouts let the wgmma read the tile in place)
/// is erased later.
bool readByGenericProxy(Value tile) {
  return llvm::any_of(tile.getUsers(), [](Operation *user) {
    if (auto view = dyn_cast<MemDescViewOp>(user))
      return readByGenericProxy(view.getResult());
    return isa<SmemLoadOp>(user) && !onlyFeedsDeadCode(user);
  });
}

/// The block arguments of `body` that `ops` read.
void argsRead(ArrayRef<Operation *> ops, Block *body,
              llvm::SetVector<Value> &out) {
  for (Operation *op : ops)
    for (Value v : op->getOperands())
      if (isa<BlockArgument>(v) && v.getParentBlock() == body)
        out.insert(v);
}

/// The iter args the coordinates depend on, closed under their updates,
/// each with the slice computing its yielded value; failure if a slice is
/// not pure arithmetic.
LogicalResult collectCarried(Plan &plan) {
  scf::ForOp loop = plan.loop;
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  llvm::SetVector<Value> args;
  for (RingLoad &r : plan.loads) {
    argsRead(r.coords, body, args);
    argsRead({r.site.copy}, body, args); // coordinates that are iter args
  }
  for (size_t i = 0; i < args.size(); ++i) {
    Value arg = args[i];
    if (arg == loop.getInductionVar())
      continue;
    unsigned index = cast<BlockArgument>(arg).getArgNumber() - 1;
    auto update = recomputableSlice(yield.getOperand(index), body);
    if (failed(update))
      return failure();
    if (Value y = yield.getOperand(index); y == arg) {
      // loop-invariant carried value: its update is itself
    } else if (isa<BlockArgument>(y) && y.getParentBlock() == body) {
      args.insert(y);
    }
    argsRead(*update, body, args);
    plan.carried.push_back(index);
    plan.updates.push_back(*update);
  }
  return success();
}

std::optional<Plan> makePlan(scf::ForOp loop, int64_t stages, int64_t budget) {
  auto skip = [&](const char *why) -> std::optional<Plan> {
    TXL_DEBUG(llvm::dbgs() << "[" TXL_DEBUG_TYPE "] loop at " << loop.getLoc()
                           << ": not pipelined: " << why << "\n");
    return std::nullopt;
  };
  if (auto ws = loop->getAttrOfType<BoolAttr>("txl.warp_specialize");
      ws && ws.getValue())
    return std::nullopt;
  // Loops feeding tensor cores: their shared memory is planned around the
  // operand tiles, and an elementwise loop's tile is read at once.
  if (loop.getBody()->getOps<WarpGroupDotOp>().empty())
    return std::nullopt;
  Plan plan{loop, {}, {}, {}, stages};
  if (auto attr = loop->getAttrOfType<IntegerAttr>("txl.num_stages"))
    plan.stages = attr.getInt();
  for (auto copy : loop.getBody()->getOps<TMALoadOp>()) {
    auto site = matchDescLoadSite(copy.getDst());
    if (!site || site->copy != copy)
      continue;
    if (!loop.isDefinedOutsideOfLoop(copy.getDesc()))
      return skip("a desc.load's descriptor changes in the loop");
    if (!readersDoneInIteration(copy.getDst(), loop))
      return skip("a desc.load's tile is read after its iteration");
    auto coords = recomputableSlice(copy.getCoords(), loop.getBody());
    if (failed(coords))
      return skip("a desc.load's coordinates are not pure arithmetic");
    plan.loads.push_back({*site, *coords, Value(), Value()});
    plan.genericReaders |= readByGenericProxy(copy.getDst());
  }
  if (plan.loads.empty())
    return std::nullopt;
  APInt step;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return skip("the step is not a positive constant");
  if (failed(collectCarried(plan)))
    return skip("the coordinates depend on a carried value updated by "
                "more than arithmetic");
  int64_t perStage = 0;
  for (RingLoad &r : plan.loads)
    perStage += r.site.tile.getType().getSizeInBytes();
  if (plan.stages < 2)
    return skip("fewer than 2 stages asked for");
  // Where two stages do not fit, one still helps: each iteration issues
  // all its copies at its top, so a tile read late in the body (attention's
  // V, after S and the softmax) arrives under the work before its wait,
  // and the tiles no longer share bytes.
  plan.stages = std::min(plan.stages, budget / perStage);
  if (plan.stages < 1)
    return skip("the ring budget leaves no stage");
  plan.bytes = plan.stages * perStage;
  return plan;
}

Value intConst(OpBuilder &b, Location loc, Type type, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}

Value toI32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
  if (v.getType().getIntOrFloatBitWidth() > 32)
    return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
  if (v.getType().getIntOrFloatBitWidth() < 32)
    return arith::ExtSIOp::create(b, loc, b.getI32Type(), v);
  return v;
}

/// Stage `stage` of a ring array.
Value stageOf(OpBuilder &b, Location loc, Value array, Value stage) {
  auto type = cast<MemDescType>(array.getType());
  auto one = MemDescType::get(b.getContext(), type.getShape().drop_front(),
                              type.getElementType(), type.getEncoding());
  if (isa_and_nonnull<BarrierEncodingAttr>(type.getEncoding()))
    one = MemDescType::get(b.getContext(), {1}, type.getElementType(),
                           type.getEncoding());
  return MemDescIndexOp::create(b, loc, one, array, stage);
}

/// The ring's copy of the iteration at induction value `iv`, the carried
/// values mapped by `at` to theirs then, into stage `stage`; skipped
/// unless `exists`.
void issue(OpBuilder &b, scf::ForOp loop, RingLoad &r, Value iv,
           const IRMapping &at, Value stage, Value exists) {
  Location loc = r.site.copy.getLoc();
  IRMapping map = at;
  map.map(loop.getInductionVar(), iv);
  for (Operation *op : r.coords)
    b.clone(*op, map);
  SmallVector<Value> coords;
  for (Value c : r.site.copy.getCoords())
    coords.push_back(map.lookupOrDefault(c));
  Value bar = stageOf(b, loc, r.barriers, stage);
  Value tile = stageOf(b, loc, r.buffer, stage);
  int64_t bytes = r.site.tile.getType().getSizeInBytes();
  MBarExpectOp::create(b, loc, bar, intConst(b, loc, b.getI32Type(), bytes),
                       exists);
  TMALoadOp::create(b, loc, tile, r.site.copy.getDesc(), coords, bar, exists,
                    Value());
}

/// `at` extended by the carried values one iteration later (the body's
/// updates evaluated at induction value `iv`).
IRMapping advance(OpBuilder &b, Plan &plan, Value iv, const IRMapping &at) {
  IRMapping map = at;
  map.map(plan.loop.getInductionVar(), iv);
  for (auto &update : plan.updates)
    for (Operation *op : update)
      b.clone(*op, map);
  auto yield = cast<scf::YieldOp>(plan.loop.getBody()->getTerminator());
  IRMapping next;
  for (unsigned index : plan.carried)
    next.map(plan.loop.getRegionIterArgs()[index],
             map.lookupOrDefault(yield.getOperand(index)));
  return next;
}

void makeRings(Plan &plan) {
  for (RingLoad &r : plan.loads) {
    OpBuilder b(r.site.buffer);
    Location loc = r.site.buffer.getLoc();
    auto type = r.site.buffer.getType();
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = plan.stages;
    r.buffer = SmemAllocOp::create(b, loc,
                                   MemDescType::get(b.getContext(), shape,
                                                    type.getElementType(),
                                                    type.getEncoding()),
                                   /*immutable=*/false);
    auto bars = r.site.barriers.getType();
    r.buffer.getDefiningOp()->setAttr(TXLGPUDialect::kLoopStagingAttr,
                                      b.getUnitAttr());
    r.barriers = MBarAllocOp::create(
        b, loc,
        MemDescType::get(b.getContext(), {plan.stages}, bars.getElementType(),
                         bars.getEncoding()),
        /*arriveCount=*/1);
    r.barriers.getDefiningOp()->setAttr(kCompilerRingAttr, b.getUnitAttr());
  }
}

void transform(Plan &plan) {
  int64_t S = plan.stages;
  makeRings(plan);
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  Type ivType = loop.getInductionVar().getType();
  OpBuilder b(loop);

  // Iterations 0..S-2 before the loop; the carried values of iteration
  // S-1 seed the ones running ahead.
  IRMapping at;
  for (unsigned index : plan.carried)
    at.map(loop.getRegionIterArgs()[index], loop.getInitArgs()[index]);
  for (int64_t j = 0; j < S - 1; ++j) {
    Value iv = arith::AddIOp::create(
        b, loc, loop.getLowerBound(),
        arith::MulIOp::create(b, loc, loop.getStep(),
                              intConst(b, loc, ivType, j)));
    Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv,
                                         loop.getUpperBound());
    for (RingLoad &r : plan.loads)
      issue(b, loop, r, iv, at, intConst(b, loc, b.getI32Type(), j), exists);
    at = advance(b, plan, iv, at);
  }
  SmallVector<Value> seeds;
  for (unsigned index : plan.carried)
    seeds.push_back(at.lookup(loop.getRegionIterArgs()[index]));

  // The loop carries the values S-1 iterations ahead.
  auto ahead = [&](OpBuilder &ob, Location l, Value iv) -> Value {
    return arith::AddIOp::create(
        ob, l, iv,
        arith::MulIOp::create(ob, l, loop.getStep(),
                              intConst(ob, l, ivType, S - 1)));
  };
  IRRewriter rewriter(loop->getContext());
  auto grown = loop.replaceWithAdditionalYields(
      rewriter, seeds, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &yb, Location l, ArrayRef<BlockArgument> args) {
        IRMapping now;
        for (auto [k, index] : llvm::enumerate(plan.carried))
          now.map(plan.loop.getRegionIterArgs()[index], args[k]);
        IRMapping next =
            advance(yb, plan, ahead(yb, l, plan.loop.getInductionVar()), now);
        SmallVector<Value> values;
        for (unsigned index : plan.carried)
          values.push_back(next.lookup(plan.loop.getRegionIterArgs()[index]));
        return values;
      });
  if (failed(grown))
    return;
  loop = cast<scf::ForOp>(grown->getOperation());
  plan.loop = loop;
  Block *body = loop.getBody();
  unsigned first = loop.getNumRegionIterArgs() - plan.carried.size();

  // Every warp is done with stage (i-1) % S before iteration i+S-1's
  // copies overwrite it. Reads by smem_load (the generic proxy) must also
  // be fenced against the TMA writes (the asynchronous proxy); wgmma reads
  // through the asynchronous proxy already, and its dot_wait(0) retired
  // them (a proxy fence there would cost every iteration a MEMBAR.CTA).
  b.setInsertionPointToStart(body);
  auto barrier = BarrierOp::create(b, loc);
  if (plan.genericReaders)
    barrier->setAttr(TXLGPUDialect::kFenceAsyncProxyAttr, b.getUnitAttr());
  Value trip = toI32(b, loc,
                     arith::DivSIOp::create(
                         b, loc,
                         arith::SubIOp::create(b, loc, loop.getInductionVar(),
                                               loop.getLowerBound()),
                         loop.getStep()));
  Value sConst = intConst(b, loc, b.getI32Type(), S);
  Value ivAhead = ahead(b, loc, loop.getInductionVar());
  Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       ivAhead, loop.getUpperBound());
  Value writeStage = arith::RemSIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, trip,
                            intConst(b, loc, b.getI32Type(), S - 1)),
      sConst);
  IRMapping now;
  for (auto [k, index] : llvm::enumerate(plan.carried))
    now.map(loop.getRegionIterArgs()[index],
            loop.getRegionIterArgs()[first + k]);
  for (RingLoad &r : plan.loads)
    issue(b, loop, r, ivAhead, now, writeStage, exists);

  Value readStage = arith::RemSIOp::create(b, loc, trip, sConst);
  Value parity = arith::AndIOp::create(
      b, loc, arith::DivSIOp::create(b, loc, trip, sConst),
      intConst(b, loc, b.getI32Type(), 1));
  for (RingLoad &r : plan.loads) {
    b.setInsertionPoint(r.site.copy);
    MBarWaitOp::create(b, loc, stageOf(b, loc, r.barriers, readStage), parity);
    Value tile = stageOf(b, loc, r.buffer, readStage);
    r.site.copy.erase();
    r.site.tile.getResult().replaceAllUsesWith(tile);
    r.site.tile.erase();
    r.site.buffer.erase();
    r.site.barrier.erase();
    r.site.barriers.erase();
  }
}

struct PipelineTMALoadsPass
    : public txlgpu::impl::PipelineTMALoadsBase<PipelineTMALoadsPass> {
  using PipelineTMALoadsBase::PipelineTMALoadsBase;

  void runOnOperation() override {
    SmallVector<Plan, 2> plans;
    ModuleOp module = getOperation();
    StringRef target;
    if (auto attr =
            module->getAttrOfType<StringAttr>(TXLGPUDialect::kTargetAttr))
      target = attr.getValue();
    int64_t targetBytes = ::txl::targetMaxSharedBytesPerBlock(target);
    ProgramOrder order(module);
    module.walk([&](scf::ForOp loop) {
      // Rings live at the same time as this loop's: those of the loops
      // around it and inside it.
      int64_t budget = ringBudget(loop, order, targetBytes);
      for (const Plan &other : plans)
        if (other.loop->isAncestor(loop) || loop->isAncestor(other.loop))
          budget -= other.bytes;
      if (auto plan = makePlan(loop, numStages, budget))
        plans.push_back(*plan);
    });
    for (Plan &plan : plans)
      transform(plan);
  }
};

} // namespace
