//===- HistogramOpToLLVM.cpp - histograms through shared-memory counters --===//
//
// The warpgroup zeroes max(num_bins, 32) int32 counters in its scratch
// area, every element (one copy of each, where mask holds) adds one to the
// counter of its low bits with a shared-memory atomic, and each thread
// reads the counters of its result registers. Binning by the low bits is
// Triton 3.6's rule (its ballot-per-bit lowering over at least a warp's
// width of bins): values in [0, num_bins) count in their own bin.
//
//===----------------------------------------------------------------------===//
#include "SharedScratch.h"
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

struct HistogramToLLVM : public ConvertOpToLLVMPattern<HistogramOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcMap = txlgpu::getLayoutMap(op.getSrc().getType());
    auto dstMap = txlgpu::getLayoutMap(op.getType());
    if (!srcMap || !dstMap)
      return rewriter.notifyMatchFailure(op, "no layout");
    int64_t bins = op.getType().getDimSize(0);
    int64_t counters = std::max<int64_t>(bins, 32);
    Type i32 = rewriter.getI32Type();
    int64_t offset = scratchOffset(op);
    auto counter = [&](Value idx) {
      return scratchElementPtr(rewriter, loc, op, offset, i32, idx);
    };

    // Zero the counters: thread t of the warpgroup clears t, t + T, ...
    int64_t threads = threadsPerCTAOf(op) / numWarpgroupsOf(op);
    Value tid = LLVM::AddOp::create(
        rewriter, loc, laneId(rewriter, loc),
        LLVM::MulOp::create(rewriter, loc, warpId(rewriter, loc),
                            i32Const(rewriter, loc, 32)));
    barrier(rewriter, loc);
    for (int64_t first = 0; first < counters; first += threads) {
      Value idx = LLVM::AddOp::create(rewriter, loc, tid,
                                      i32Const(rewriter, loc, first));
      Value inRange =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt, idx,
                               i32Const(rewriter, loc, counters));
      ifThen(rewriter, loc, inRange, [&] {
        LLVM::StoreOp::create(rewriter, loc, i32Const(rewriter, loc, 0),
                              counter(idx));
      });
    }
    barrier(rewriter, loc);

    // Count: one atomic add (of 0 or 1) per element this thread owns.
    SmallVector<Value> vals = unpackTensor(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackTensor(rewriter, loc, adaptor.getMask());
    Value first = isFirstReplica(rewriter, loc, *srcMap);
    auto srcElem = cast<IntegerType>(op.getSrc().getType().getElementType());
    for (int r = 0; r < srcMap->numRegs(); ++r) {
      if (srcMap->isDuplicateReg(r))
        continue;
      Value v = vals[r];
      unsigned width = srcElem.getWidth();
      // The front end widens to 32 bits by the input's signedness; an
      // i1 mask-like input is zero-extended.
      if (width == 1)
        v = LLVM::ZExtOp::create(rewriter, loc, i32, v);
      else if (width < 32)
        v = LLVM::SExtOp::create(rewriter, loc, i32, v);
      else if (width > 32)
        v = LLVM::TruncOp::create(rewriter, loc, i32, v);
      Value bin = LLVM::AndOp::create(rewriter, loc, v,
                                      i32Const(rewriter, loc, counters - 1));
      Value counts = LLVM::AndOp::create(
          rewriter, loc, first,
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt, bin,
                               i32Const(rewriter, loc, bins)));
      if (!masks.empty())
        counts = LLVM::AndOp::create(rewriter, loc, counts, masks[r]);
      LLVM::AtomicRMWOp::create(
          rewriter, loc, LLVM::AtomicBinOp::add, counter(bin),
          LLVM::ZExtOp::create(rewriter, loc, i32, counts),
          LLVM::AtomicOrdering::monotonic);
    }
    barrier(rewriter, loc);

    // Read the counters of the result's registers.
    SmallVector<SmallVector<Value>> coords =
        allRegCoords(rewriter, loc, *dstMap);
    SmallVector<Value> result;
    for (int r = 0; r < dstMap->numRegs(); ++r)
      result.push_back(
          LLVM::LoadOp::create(rewriter, loc, i32, counter(coords[r][0])));
    rewriter.replaceOp(op, packTensor(rewriter, loc, *getTypeConverter(),
                                      op.getType(), result));
    return success();
  }
};

} // namespace

void mlir::txl::populateHistogramOpPatterns(TXLTypeConverter &tc,
                                            RewritePatternSet &patterns) {
  patterns.add<HistogramToLLVM>(tc);
}
