//===- AllocateTensorMemory.cpp - columns of the CTA's tensor memory ------===//
//
// Tensor memory (TMEM, sm_100) is 128 lanes x 512 columns of 32 bits per
// SM, shared by the CTAs resident on it. A CTA gets its part from
// tcgen05.alloc, run by one whole warp, in a power of two of columns of at
// least 32; it must give the part back (tcgen05.dealloc) before it exits,
// or the next CTA on the SM waits forever for columns. So the pass:
//  * lays the kernel's tmem_alloc buffers out one after another (each
//    stage `getStageColumns()` columns), recording each buffer's first
//    column;
//  * puts the total, rounded up to a power of two >= 32, on the first
//    tmem_alloc (`allocColumns`): its lowering is the CTA's one
//    tcgen05.alloc, after which the CTA relinquishes its permit to
//    allocate (nothing else will), so that other CTAs' allocations on
//    the SM need not wait for this one to finish;
//  * inserts a tmem_dealloc of that allocation before every return;
//  * marks both `twoCtas` when the kernel's MMAs are cta_group::2 (the
//    allocation is then made by the CTA pair; a kernel may not mix CTA
//    groups).
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_ALLOCATETENSORMEMORY
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

/// The columns of tensor memory an SM has.
constexpr int64_t kTMemColumns = 512;
/// The smallest allocation tcgen05.alloc makes.
constexpr int64_t kMinAllocColumns = 32;

/// Whether the kernel's MMAs are cta_group::2; an error where a kernel
/// mixes them with cta_group::1 MMAs (PTX: one CTA group per kernel).
FailureOr<bool> usesCtaPairs(func::FuncOp func) {
  Operation *firstPair = nullptr, *firstSingle = nullptr;
  func.walk([&](Operation *op) {
    // tl.dot_scaled's block-scaled MMAs are cta_group::1.
    auto mma = dyn_cast<TCGen05MMAOp>(op);
    if (!mma && !isa<TCGen05MMAScaledOp>(op))
      return;
    Operation *&first = mma && mma.getTwoCtas() ? firstPair : firstSingle;
    if (!first)
      first = op;
  });
  if (firstPair && firstSingle) {
    InFlightDiagnostic diag =
        firstSingle->emitError("a kernel's tcgen05 MMAs must all be "
                               "cta_group::1 or all cta_group::2 (two_ctas)");
    diag.attachNote(firstPair->getLoc()) << "a cta_group::2 MMA";
    return failure();
  }
  return firstPair != nullptr;
}

LogicalResult allocate(func::FuncOp func) {
  SmallVector<TMemAllocOp> allocs(func.getOps<TMemAllocOp>());
  // tmem_alloc is a top-level op (the front end requires it); one nested
  // in a region would be allocated in a loop or a branch.
  LogicalResult result = success();
  func.walk([&](TMemAllocOp op) {
    if (op->getParentOp() != func.getOperation()) {
      op.emitError("txl.tmem_alloc must be at the kernel's top level");
      result = failure();
    }
  });
  if (failed(result) || allocs.empty())
    return result;
  Builder b(func.getContext());
  int64_t used = 0;
  for (TMemAllocOp op : allocs) {
    op.setColumnAttr(b.getI32IntegerAttr(int32_t(used)));
    used += op.getType().getShape()[0] * op.getStageColumns();
  }
  if (used > kTMemColumns)
    return allocs.back().emitError("the kernel's tensor-memory buffers need ")
           << used << " columns, more than the " << kTMemColumns
           << " an SM has (a [128, N] fp32 stage takes N columns)";
  int64_t total =
      std::max<int64_t>(kMinAllocColumns, int64_t(llvm::PowerOf2Ceil(used)));
  FailureOr<bool> twoCtas = usesCtaPairs(func);
  if (failed(twoCtas))
    return failure();
  TMemAllocOp first = allocs.front();
  first.setAllocColumnsAttr(b.getI32IntegerAttr(int32_t(total)));
  first.setTwoCtas(*twoCtas);
  func.walk([&](func::ReturnOp ret) {
    OpBuilder at(ret);
    auto dealloc = TMemDeallocOp::create(at, ret.getLoc(), first.getResult(),
                                         at.getI32IntegerAttr(int32_t(total)));
    dealloc.setTwoCtas(*twoCtas);
  });
  return success();
}

struct AllocateTensorMemoryPass
    : public mlir::txlgpu::impl::AllocateTensorMemoryBase<
          AllocateTensorMemoryPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(allocate(func)))
        return signalPassFailure();
  }
};

} // namespace
