//===- SharedScratch.cpp - exchanging registers through shared memory -----===//
#include "SharedScratch.h"

using namespace mlir;
using namespace mlir::txl;

static Type scratchType(OpBuilder &b, Type elemTy) {
  if (elemTy.isInteger(1))
    return b.getI8Type();
  if (isa<LLVM::LLVMPointerType>(elemTy))
    return b.getI64Type();
  return elemTy;
}

int64_t mlir::txl::scratchElemBytes(Type elemTy) {
  if (elemTy.isInteger(1))
    return 1;
  if (isa<LLVM::LLVMPointerType>(elemTy) || isa<PointerType>(elemTy))
    return 8;
  return std::max<int64_t>(1, elemTy.getIntOrFloatBitWidth() / 8);
}

int64_t mlir::txl::scratchOffset(Operation *op) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(
          txlgpu::TXLGPUDialect::kSharedOffsetAttr))
    return attr.getInt();
  return 0;
}

Value mlir::txl::scratchElementPtr(OpBuilder &b, Location loc, Operation *op,
                                   int64_t byteOffset, Type elemTy,
                                   Value index) {
  auto ptrTy = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = sharedMemoryBase(b, loc, op);
  Value start = LLVM::GEPOp::create(b, loc, ptrTy, b.getI8Type(), base,
                                    ArrayRef<LLVM::GEPArg>{(int32_t)byteOffset});
  // Warpgroups (which may run different roles at once) own disjoint
  // parts of the scratch area: this thread's starts at its warpgroup's
  // offset (a select over the warpgroup id; parts of equal offsets fold).
  auto module = op->getParentOfType<ModuleOp>();
  if (auto offsets = module->getAttrOfType<DenseI32ArrayAttr>(
          txlgpu::TXLGPUDialect::kScratchOffsetsAttr)) {
    Value group = warpGroupId(b, loc);
    Value skip = i32Const(b, loc, offsets[0]);
    for (int g = 1; g < offsets.size(); ++g) {
      Value isG = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, group,
                                       i32Const(b, loc, g));
      skip = LLVM::SelectOp::create(b, loc, isG, i32Const(b, loc, offsets[g]),
                                    skip);
    }
    start = LLVM::GEPOp::create(b, loc, ptrTy, b.getI8Type(), start,
                                ValueRange{skip});
  }
  return LLVM::GEPOp::create(b, loc, ptrTy, scratchType(b, elemTy), start,
                             ArrayRef<LLVM::GEPArg>{index});
}

void mlir::txl::storeScratch(OpBuilder &b, Location loc, Value ptr, Value v) {
  Type t = v.getType();
  if (t.isInteger(1))
    v = LLVM::ZExtOp::create(b, loc, b.getI8Type(), v);
  else if (isa<LLVM::LLVMPointerType>(t))
    v = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), v);
  LLVM::StoreOp::create(b, loc, v, ptr);
}

Value mlir::txl::loadScratch(OpBuilder &b, Location loc, Value ptr,
                             Type elemTy) {
  Value v = LLVM::LoadOp::create(b, loc, scratchType(b, elemTy), ptr);
  if (elemTy.isInteger(1))
    return LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::ne, v,
        LLVM::ConstantOp::create(b, loc, b.getI8Type(), b.getI8IntegerAttr(0)));
  if (isa<LLVM::LLVMPointerType>(elemTy))
    return LLVM::IntToPtrOp::create(b, loc, elemTy, v);
  return v;
}

Value mlir::txl::flatIndex(OpBuilder &b, Location loc, ArrayRef<Value> coord,
                           ArrayRef<int64_t> shape) {
  Value flat = i32Const(b, loc, 0);
  for (size_t d = 0; d < shape.size(); ++d) {
    flat = LLVM::MulOp::create(b, loc, flat, i32Const(b, loc, shape[d]));
    flat = LLVM::AddOp::create(b, loc, flat, coord[d]);
  }
  return flat;
}
