//===- SliceTensorMemoryLoads.cpp - read only the columns that are used ---===//
//
// An epilogue that splits an accumulator into column halves (the TXL
// project's EPILOGUE_SUBTILE: reshape, permute and split, which fold into
// txl.extract_slice) reads the whole [128, N] tensor-memory buffer and then
// slices the registers. With 8 warps the 32x32b message layout gives each
// warpgroup half of the columns, so a column slice lives in one warpgroup
// and taking it converts the whole tile through shared memory (128 KB for
// a [128, 256] fp32 accumulator, more than a pipelined GEMM has left).
// Reading each slice from its own columns of tensor memory
// (memdesc_view, as txl.tmem_slice does) gives it the message layout
// directly: no conversion, and the same registers in all.
//
// The sliced reads are placed where the whole read was, so they see the
// same accumulator contents.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXL/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_SLICETENSORMEMORYLOADS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

using namespace mlir;
namespace ttx = mlir::txl;
namespace tg = mlir::txlgpu;

namespace {

/// A slice of all rows and a power-of-two run of whole 32-bit columns at a
/// multiple of its length (what txl.tmem_slice accepts).
bool isColumnSlice(ttx::ExtractSliceOp slice) {
  auto type = cast<RankedTensorType>(slice.getType());
  auto src = cast<RankedTensorType>(slice.getSrc().getType());
  ArrayRef<int64_t> offsets = slice.getOffsets();
  if (type.getRank() != 2 || offsets[0] != 0 ||
      type.getShape()[0] != src.getShape()[0])
    return false;
  int64_t n = type.getShape()[1];
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  return llvm::isPowerOf2_64(n) && n * bits % 32 == 0 && offsets[1] % n == 0;
}

void sliceLoad(tg::TMemLoadOp load) {
  // A load whose message shape the kernel named keeps the columns it read
  // that shape with (a slice may be too narrow for it).
  if (load.getMessage())
    return;
  SmallVector<ttx::ExtractSliceOp> slices;
  for (Operation *user : load->getUsers()) {
    auto slice = dyn_cast<ttx::ExtractSliceOp>(user);
    if (!slice || !isColumnSlice(slice))
      return;
    slices.push_back(slice);
  }
  if (slices.empty())
    return;
  // The parts in column order (use lists are in no useful order).
  llvm::stable_sort(slices, [](ttx::ExtractSliceOp x, ttx::ExtractSliceOp y) {
    return x.getOffsets()[1] < y.getOffsets()[1];
  });
  OpBuilder b(load);
  auto src = cast<tg::MemDescType>(load.getSrc().getType());
  for (ttx::ExtractSliceOp slice : slices) {
    auto type = cast<RankedTensorType>(slice.getType());
    auto view = tg::MemDescViewOp::create(
        b, load.getLoc(),
        tg::MemDescType::get(b.getContext(), type.getShape(),
                             src.getElementType(), src.getEncoding()),
        load.getSrc(), b.getDenseI32ArrayAttr({0, 1}), b.getI64IntegerAttr(1),
        b.getI64IntegerAttr(slice.getOffsets()[1]));
    auto part = tg::TMemLoadOp::create(b, load.getLoc(), type, view);
    slice.getResult().replaceAllUsesWith(part.getResult());
    slice.erase();
  }
  load.erase();
}

struct SliceTensorMemoryLoadsPass
    : public tg::impl::SliceTensorMemoryLoadsBase<SliceTensorMemoryLoadsPass> {
  void runOnOperation() override {
    SmallVector<tg::TMemLoadOp> loads;
    getOperation().walk([&](tg::TMemLoadOp load) { loads.push_back(load); });
    for (tg::TMemLoadOp load : loads)
      sliceLoad(load);
  }
};

} // namespace
