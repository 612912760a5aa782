//===- SharedScratch.h - exchanging registers through shared memory -*- C++ -*-=//
#ifndef TXL_CONVERSION_TXLGPUTOLLVM_SHAREDSCRATCH_H
#define TXL_CONVERSION_TXLGPUTOLLVM_SHAREDSCRATCH_H

#include "Utility.h"

namespace mlir::txl {

/// Pointer to element `index` (i32) of a scratch array of `elemTy` that
/// starts `byteOffset` bytes into shared memory; i1 is stored as i8.
Value scratchElementPtr(OpBuilder &b, Location loc, Operation *op,
                        int64_t byteOffset, Type elemTy, Value index);
void storeScratch(OpBuilder &b, Location loc, Value ptr, Value v);
Value loadScratch(OpBuilder &b, Location loc, Value ptr, Type elemTy);
/// The scratch offset AllocateSharedMemory gave `op` (0 if none).
int64_t scratchOffset(Operation *op);
/// Bytes one element occupies in scratch.
int64_t scratchElemBytes(Type elemTy);

/// Row-major flat index (i32) of per-dimension coordinates in `shape`.
Value flatIndex(OpBuilder &b, Location loc, ArrayRef<Value> coord,
                ArrayRef<int64_t> shape);

} // namespace mlir::txl

#endif
