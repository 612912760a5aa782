//===- DebugSyncToLLVM.cpp - mbarrier waits that cannot hang --------------===//
//
// With TXL_DEBUG_SYNC the module carries a time bound and every txl.mbar_wait
// becomes a loop of single try_wait probes that reads %globaltimer. Past the
// bound the first timed-out thread claims the record the runtime handed the
// module (a host-mapped buffer whose device address sits in the global
// __txl_debug_record), writes where it waited (source line and column,
// phase, block, thread, barrier address) and traps. The host reads the
// record after the failed launch — host memory survives the dead context —
// and reports the wait. Without a record (null) the thread only traps.
//
// Record layout (32-bit words): 0 claimed flag, 1 line, 2 column, 3 phase
// parity, 4-6 block x/y/z, 7 thread x, 8 barrier shared address.
//
//===----------------------------------------------------------------------===//
#include "InlinePTX.h"
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

Value i32(OpBuilder &b, Location loc, int64_t v) { return i32Const(b, loc, v); }

/// The first thread to time out fills the record at `record` (generic
/// pointer, non-null).
void writeRecord(ConversionPatternRewriter &rewriter, Location loc,
                 Value record, ArrayRef<Value> fields) {
  MLIRContext *ctx = rewriter.getContext();
  auto claim = LLVM::AtomicCmpXchgOp::create(
      rewriter, loc, record, i32(rewriter, loc, 0), i32(rewriter, loc, 1),
      LLVM::AtomicOrdering::monotonic, LLVM::AtomicOrdering::monotonic);
  Value won = LLVM::ExtractValueOp::create(rewriter, loc, claim, 1);
  ifThen(rewriter, loc, won, [&] {
    for (auto [i, field] : llvm::enumerate(fields)) {
      Value slot = LLVM::GEPOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(ctx), rewriter.getI32Type(),
          record, ArrayRef<LLVM::GEPArg>{int32_t(i + 1)});
      LLVM::StoreOp::create(rewriter, loc, field, slot, /*alignment=*/4,
                            /*isVolatile=*/true);
    }
    // Make the stores reach host memory before the trap kills the grid.
    LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::seq_cst);
  });
}

/// Reports the timed-out wait (when the runtime gave a record) and traps.
void reportAndTrap(ConversionPatternRewriter &rewriter, Location loc,
                   Operation *op, Value bar, Value parity) {
  MLIRContext *ctx = rewriter.getContext();
  int line = 0, col = 0;
  if (auto fileLoc = dyn_cast<FileLineColLoc>(op->getLoc())) {
    line = int(fileLoc.getLine());
    col = int(fileLoc.getColumn());
  }
  Value global = LLVM::AddressOfOp::create(
      rewriter, loc, LLVM::LLVMPointerType::get(ctx, 1),
      txlgpu::TXLGPUDialect::kDebugRecordGlobal);
  Value address =
      LLVM::LoadOp::create(rewriter, loc, rewriter.getI64Type(), global);
  Value present = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                       address, i64Const(rewriter, loc, 0));
  ifThen(rewriter, loc, present, [&] {
    Value record = LLVM::IntToPtrOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(ctx), address);
    Type i32Ty = rewriter.getI32Type();
    SmallVector<Value> fields = {
        i32(rewriter, loc, line),
        i32(rewriter, loc, col),
        parity,
        NVVM::BlockIdXOp::create(rewriter, loc, i32Ty),
        NVVM::BlockIdYOp::create(rewriter, loc, i32Ty),
        NVVM::BlockIdZOp::create(rewriter, loc, i32Ty),
        threadIdX(rewriter, loc),
        LLVM::PtrToIntOp::create(rewriter, loc, i32Ty, bar)};
    writeRecord(rewriter, loc, record, fields);
  });
  LLVM::Trap::create(rewriter, loc);
}

} // namespace

std::optional<int64_t> mlir::txl::debugSyncTimeoutNs(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  if (auto attr = module ? module->getAttrOfType<IntegerAttr>(
                               txlgpu::TXLGPUDialect::kDebugSyncTimeoutAttr)
                         : IntegerAttr())
    return attr.getInt();
  return std::nullopt;
}

void mlir::txl::declareDebugRecord(ModuleOp module) {
  if (!module->hasAttr(txlgpu::TXLGPUDialect::kDebugSyncTimeoutAttr))
    return;
  OpBuilder b(module.getBodyRegion());
  LLVM::GlobalOp::create(b, module.getLoc(), b.getI64Type(),
                         /*isConstant=*/false, LLVM::Linkage::External,
                         txlgpu::TXLGPUDialect::kDebugRecordGlobal,
                         b.getI64IntegerAttr(0), /*alignment=*/8,
                         /*addrSpace=*/1);
}

void mlir::txl::emitBoundedMBarrierWait(ConversionPatternRewriter &rewriter,
                                        Location loc, Operation *op, Value bar,
                                        Value parity, int64_t timeoutNs) {
  Type i64Ty = rewriter.getI64Type();
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Block *probe = rewriter.createBlock(after);
  Block *check = rewriter.createBlock(after);
  Block *expired = rewriter.createBlock(after);

  rewriter.setInsertionPointToEnd(before);
  Value start = NVVM::GlobalTimerOp::create(rewriter, loc, i64Ty);
  LLVM::BrOp::create(rewriter, loc, probe);

  rewriter.setInsertionPointToEnd(probe);
  Value done = emitMBarrierTryWaitOnce(rewriter, loc, bar, parity);
  LLVM::CondBrOp::create(rewriter, loc, done, after, check);

  rewriter.setInsertionPointToEnd(check);
  Value now = NVVM::GlobalTimerOp::create(rewriter, loc, i64Ty);
  Value elapsed = LLVM::SubOp::create(rewriter, loc, now, start);
  Value over =
      LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ugt, elapsed,
                           i64Const(rewriter, loc, timeoutNs));
  LLVM::CondBrOp::create(rewriter, loc, over, expired, probe);

  rewriter.setInsertionPointToEnd(expired);
  reportAndTrap(rewriter, loc, op, bar, parity);
  LLVM::BrOp::create(rewriter, loc, after); // not reached: the trap ends it

  rewriter.setInsertionPointToStart(after);
}
