//===- Dialect.cpp - txlgpu dialect registration and attributes -----------===//
#include "txl/Dialect/TXLGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::txlgpu;

#include "txl/Dialect/TXLGPU/IR/Dialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "txl/Dialect/TXLGPU/IR/Attrs.cpp.inc"

#define GET_OP_CLASSES
#include "txl/Dialect/TXLGPU/IR/Ops.cpp.inc"

void TXLGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "txl/Dialect/TXLGPU/IR/Attrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "txl/Dialect/TXLGPU/IR/Ops.cpp.inc"
      >();
}

LogicalResult
BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayRef<unsigned> sizePerThread,
                            ArrayRef<unsigned> threadsPerWarp,
                            ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> order) {
  size_t rank = sizePerThread.size();
  if (threadsPerWarp.size() != rank || warpsPerCTA.size() != rank ||
      order.size() != rank)
    return emitError() << "blocked layout parameters must have equal rank";
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "blocked layout order must be a permutation";
    seen[d] = true;
  }
  for (ArrayRef<unsigned> values : {sizePerThread, threadsPerWarp, warpsPerCTA})
    for (unsigned v : values)
      if (!llvm::isPowerOf2_32(v))
        return emitError() << "blocked layout sizes must be powers of two";
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // convert(convert(x)) -> convert(x), or x itself when it round-trips.
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}
