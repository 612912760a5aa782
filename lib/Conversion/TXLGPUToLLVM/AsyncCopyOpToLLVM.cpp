//===- AsyncCopyOpToLLVM.cpp - cp.async global -> shared copies -----------===//
//
// txlgpu.async_copy_global_to_local sends each thread's vectors of pointers
// straight to their places in the shared tile with cp.async: 4, 8 or 16
// bytes per copy, 16-byte copies bypassing L1 (.cg). A masked-off vector
// copies zero source bytes, which zero-fills its destination. A copy covers
// the shorter of the global vector (the axis analysis's width, which also
// bounds how far the mask is known to be constant) and the run the tile's
// layout keeps contiguous.
//
// async_wait waits for the thread's own groups; the fence and the barrier
// after it make every thread's copies visible to every reader, including
// wgmma through the async proxy.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

struct AsyncCopyOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::AsyncCopyGlobalToLocalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(txlgpu::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrTy = cast<RankedTensorType>(op.getPtr().getType());
    txlgpu::MemDescType tileTy = op.getDst().getType();
    Type elem = tileTy.getElementType();
    unsigned bits = elem.getIntOrFloatBitWidth();
    if (bits < 8)
      return op.emitError("cp.async copies whole bytes; got ") << elem;
    auto valueTy =
        RankedTensorType::get(ptrTy.getShape(), elem, ptrTy.getEncoding());
    unsigned vec = globalVectorWidth(op, ptrTy, bits);
    SmallVector<Value> ptrs = unpackTensor(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackTensor(rewriter, loc, adaptor.getMask());

    int64_t narrowest = 16;
    LogicalResult walked = forEachSharedRun(
        rewriter, loc, op, adaptor.getDst(), valueTy, tileTy, vec,
        [&](int r, int64_t n, Value dst) {
          int32_t bytes = int32_t(n * bits / 8);
          narrowest = std::min<int64_t>(narrowest, bytes);
          if (bytes < 4)
            return;
          Value srcSize;
          if (!masks.empty())
            srcSize = LLVM::SelectOp::create(rewriter, loc, masks[r],
                                             i32Const(rewriter, loc, bytes),
                                             i32Const(rewriter, loc, 0));
          auto modifier = bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                      : NVVM::LoadCacheModifierKind::CA;
          NVVM::CpAsyncOp::create(
              rewriter, loc, dst, ptrs[r], rewriter.getI32IntegerAttr(bytes),
              NVVM::LoadCacheModifierKindAttr::get(op.getContext(), modifier),
              srcSize);
        });
    if (failed(walked))
      return failure();
    if (narrowest < 4)
      return op.emitError("cp.async needs at least 4 contiguous bytes per "
                          "thread in global and shared memory; this copy has "
                          "runs of ")
             << narrowest << " (mark strides and sizes multiples of 16, or "
             << "use tl.load + txl.smem_store)";
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitGroupOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::AsyncCommitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::AsyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, op.getPendings());
    fenceAsyncProxy(rewriter, loc);
    barrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::BarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->hasAttr(txlgpu::TXLGPUDialect::kFenceAsyncProxyAttr))
      fenceAsyncProxy(rewriter, op.getLoc());
    barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::txl::populateAsyncCopyOpPatterns(TXLTypeConverter &tc,
                                            RewritePatternSet &patterns) {
  patterns.add<AsyncCopyOpToLLVM, AsyncCommitGroupOpToLLVM, AsyncWaitOpToLLVM,
               BarrierOpToLLVM>(tc);
}
