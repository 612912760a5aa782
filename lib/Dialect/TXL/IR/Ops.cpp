//===- Ops.cpp - txl op verifiers and folders
//------------------------------===//
//
// Verifiers compare shapes and element types only, never encodings: the same
// ops carry layout-annotated tensors after AssignLayouts.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXL/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::txl;

static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

static bool isTensor(Type type) { return isa<RankedTensorType>(type); }

LogicalResult MakeRangeOp::verify() {
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be 1-D");
  int64_t n = int64_t(getEnd()) - int64_t(getStart());
  if (n <= 0)
    return emitOpError("end must be greater than start");
  if (!llvm::isPowerOf2_64(n))
    return emitOpError("range size must be a power of two, got ") << n;
  if (type.getShape()[0] != n)
    return emitOpError("result has ")
           << type.getShape()[0] << " elements, range has " << n;
  return success();
}

LogicalResult BroadcastOp::verify() {
  ArrayRef<int64_t> src = shapeOf(getSrc().getType());
  ArrayRef<int64_t> dst = shapeOf(getType());
  if (src.size() != dst.size())
    return emitOpError("source and result ranks differ");
  for (auto [s, d] : llvm::zip(src, dst))
    if (s != d && s != 1)
      return emitOpError("cannot broadcast dimension of size ")
             << s << " to " << d;
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

LogicalResult ExpandDimsOp::verify() {
  ArrayRef<int64_t> src = shapeOf(getSrc().getType());
  int axis = getAxis();
  if (axis < 0 || axis > int(src.size()))
    return emitOpError("axis out of range");
  SmallVector<int64_t> expected(src);
  expected.insert(expected.begin() + axis, 1);
  if (ArrayRef<int64_t>(expected) != shapeOf(getType()))
    return emitOpError("result shape must insert a 1 at axis ") << axis;
  return success();
}

static int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

LogicalResult ReshapeOp::verify() {
  if (numElements(shapeOf(getSrc().getType())) !=
      numElements(shapeOf(getType())))
    return emitOpError("reshape must keep the number of elements");
  return success();
}

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  // [M, K] x [K, N], or batched: [B, M, K] x [B, K, N].
  int64_t rank = a.getRank();
  if ((rank != 2 && rank != 3) || b.getRank() != rank || c.getRank() != rank)
    return emitOpError("operands must all be 2-D, or all 3-D (batched)");
  if (rank == 3 && (b.getDimSize(0) != a.getDimSize(0) ||
                    c.getDimSize(0) != a.getDimSize(0)))
    return emitOpError("batch dimensions differ");
  if (a.getDimSize(rank - 1) != b.getDimSize(rank - 2))
    return emitOpError("inner dimensions differ: ")
           << a.getDimSize(rank - 1) << " vs " << b.getDimSize(rank - 2);
  if (c.getDimSize(rank - 2) != a.getDimSize(rank - 2) ||
      c.getDimSize(rank - 1) != b.getDimSize(rank - 1))
    return emitOpError("accumulator shape must be [M, N] (or [B, M, N])");
  if (a.getElementType() != b.getElementType())
    return emitOpError("a and b must have the same element type");
  Type elem = a.getElementType(), acc = c.getElementType();
  bool ok = elem.isInteger(8) ? acc.isInteger(32)
            : elem.isF64()    ? acc.isF64()
            : elem.isF16()    ? acc.isF32() || acc.isF16()
                              : acc.isF32();
  if (!ok)
    return emitOpError("the accumulator must be int32 for int8 operands, "
                       "fp64 for fp64 operands, fp32 or fp16 for fp16 "
                       "operands, else fp32; got ")
           << acc;
  InputPrecision p = getInputPrecision();
  if (p != InputPrecision::TF32 && p != InputPrecision::IEEE)
    return emitOpError("input precision ")
           << stringifyInputPrecision(p)
           << " is a sum of several dots, which the front end builds";
  return success();
}

bool DotOp::isFMA() {
  Type elem = cast<RankedTensorType>(getA().getType()).getElementType();
  return elem.isF64() ||
         (elem.isF32() && getInputPrecision() == InputPrecision::IEEE);
}

LogicalResult TransOp::verify() {
  ArrayRef<int64_t> src = shapeOf(getSrc().getType());
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != src.size())
    return emitOpError("order must name every dimension once");
  SmallVector<bool> seen(src.size(), false);
  SmallVector<int64_t> expected;
  for (int32_t d : order) {
    if (d < 0 || d >= int(src.size()) || seen[d])
      return emitOpError("order must be a permutation");
    seen[d] = true;
    expected.push_back(src[d]);
  }
  if (ArrayRef<int64_t>(expected) != shapeOf(getType()))
    return emitOpError("result shape does not match the permutation");
  return success();
}

LogicalResult ExtractSliceOp::verify() {
  ArrayRef<int64_t> src = shapeOf(getSrc().getType());
  ArrayRef<int64_t> dst = shapeOf(getType());
  ArrayRef<int64_t> offsets = getOffsets();
  if (dst.size() != src.size() || offsets.size() != src.size())
    return emitOpError("offsets and result must have the source's rank");
  for (size_t d = 0; d < src.size(); ++d) {
    if (dst[d] <= 0 || (dst[d] & (dst[d] - 1)) != 0)
      return emitOpError("window sizes must be powers of two");
    if (offsets[d] < 0 || offsets[d] % dst[d] != 0 ||
        offsets[d] + dst[d] > src[d])
      return emitOpError("each offset must be a multiple of its window size "
                         "and the window must lie inside the source");
  }
  return success();
}

LogicalResult AddPtrOp::verify() {
  if (isTensor(getPtr().getType()) != isTensor(getOffset().getType()) ||
      shapeOf(getPtr().getType()) != shapeOf(getOffset().getType()))
    return emitOpError("pointer and offset shapes must match");
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (matchPattern(getOffset(), m_Zero()))
    return getPtr();
  return {};
}

static LogicalResult verifySameShape(Operation *op, Type a, Type b,
                                     StringRef what) {
  if (isTensor(a) != isTensor(b) || shapeOf(a) != shapeOf(b))
    return op->emitOpError(what) << " must have the shape of the pointer";
  return success();
}

static LogicalResult verifyPointee(Operation *op, Type ptrType, Type value) {
  auto ptr = cast<PointerType>(getElementTypeOrSelf(ptrType));
  if (ptr.getPointeeType() != getElementTypeOrSelf(value))
    return op->emitOpError("value element type ")
           << getElementTypeOrSelf(value) << " does not match pointee type "
           << ptr.getPointeeType();
  return success();
}

LogicalResult LoadOp::verify() {
  Type ptr = getPtr().getType();
  if (failed(verifySameShape(*this, ptr, getType(), "result")) ||
      failed(verifyPointee(*this, ptr, getType())))
    return failure();
  if (getMask() &&
      failed(verifySameShape(*this, ptr, getMask().getType(), "mask")))
    return failure();
  if (getOther() && getOther().getType() != getType())
    return emitOpError("`other` must have the result type");
  return success();
}

LogicalResult StoreOp::verify() {
  Type ptr = getPtr().getType();
  if (failed(verifySameShape(*this, ptr, getValue().getType(), "value")) ||
      failed(verifyPointee(*this, ptr, getValue().getType())))
    return failure();
  if (getMask() &&
      failed(verifySameShape(*this, ptr, getMask().getType(), "mask")))
    return failure();
  return success();
}

static LogicalResult verifyAtomicAttrs(Operation *op, StringRef sem,
                                       StringRef scope) {
  if (!llvm::is_contained({"relaxed", "acquire", "release", "acq_rel"}, sem))
    return op->emitOpError("unknown memory semantics '") << sem << "'";
  if (!llvm::is_contained({"gpu", "cta", "sys"}, scope))
    return op->emitOpError("unknown scope '") << scope << "'";
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  Type ptr = getPtr().getType();
  if (failed(verifySameShape(*this, ptr, getVal().getType(), "value")) ||
      failed(verifyPointee(*this, ptr, getVal().getType())))
    return failure();
  if (getMask() &&
      failed(verifySameShape(*this, ptr, getMask().getType(), "mask")))
    return failure();
  if (getType() != getVal().getType())
    return emitOpError("the result must have the value's type");
  if (!llvm::is_contained({"add", "fadd", "max", "umax", "min", "umin", "and",
                           "or", "xor", "xchg"},
                          getKind()))
    return emitOpError("unknown kind '") << getKind() << "'";
  return verifyAtomicAttrs(*this, getSem(), getScope());
}

LogicalResult AtomicCASOp::verify() {
  Type ptr = getPtr().getType();
  if (failed(verifySameShape(*this, ptr, getVal().getType(), "value")) ||
      failed(verifyPointee(*this, ptr, getVal().getType())))
    return failure();
  if (getCmp().getType() != getVal().getType() ||
      getType() != getVal().getType())
    return emitOpError("cmp, val and the result must have one type");
  return verifyAtomicAttrs(*this, getSem(), getScope());
}

static unsigned bitWidth(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isa<PointerType>(elem))
    return 64;
  return elem.getIntOrFloatBitWidth();
}

LogicalResult BitcastOp::verify() {
  if (shapeOf(getSrc().getType()) != shapeOf(getType()))
    return emitOpError("bitcast must keep the shape");
  if (bitWidth(getSrc().getType()) != bitWidth(getType()))
    return emitOpError("bitcast must keep the element bit width");
  return success();
}

SmallVector<int64_t> ReduceOp::resultShape(RankedTensorType srcTy, int axis) {
  SmallVector<int64_t> shape(srcTy.getShape());
  shape.erase(shape.begin() + axis);
  return shape;
}

/// What a reduce and a scan both require: operands, one result each, and an
/// axis of the first operand.
static LogicalResult verifyOperandsAndAxis(Operation *op, ValueRange srcs,
                                           int axis) {
  if (srcs.empty())
    return op->emitOpError("needs at least one operand");
  if (srcs.size() != op->getNumResults())
    return op->emitOpError("needs one result per operand");
  auto first = cast<RankedTensorType>(srcs[0].getType());
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("axis ") << axis << " out of range";
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyOperandsAndAxis(*this, getSrcs(), getAxis())))
    return failure();
  auto first = cast<RankedTensorType>(getSrcs()[0].getType());
  int axis = getAxis();
  SmallVector<int64_t> expected = resultShape(first, axis);
  for (auto [src, res] : llvm::zip(getSrcs(), getResults())) {
    Type elem = getElementTypeOrSelf(src.getType());
    if (getElementTypeOrSelf(res.getType()) != elem)
      return emitOpError("result element types must match the operands");
    if (ArrayRef<int64_t>(expected) != shapeOf(res.getType()) ||
        (expected.empty() && isTensor(res.getType())))
      return emitOpError("result shape must drop the reduced axis");
  }
  return success();
}

/// The combine region of a reduce or scan over `srcs`: two scalars per
/// operand in, one per operand out (yielded by `ReturnOp`), all of the
/// operands' element types.
template <typename ReturnOp>
static LogicalResult verifyCombineRegion(Operation *op, Block &block,
                                         ValueRange srcs) {
  unsigned n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("combine region takes ") << 2 * n << " scalars";
  for (unsigned i = 0; i < 2 * n; ++i)
    if (block.getArgument(i).getType() !=
        getElementTypeOrSelf(srcs[i % n].getType()))
      return op->emitOpError(
          "combine argument types must be the element types");
  auto ret = dyn_cast<ReturnOp>(block.getTerminator());
  if (!ret || ret.getResult().size() != n)
    return op->emitOpError("combine region must yield ") << n << " values";
  for (unsigned i = 0; i < n; ++i)
    if (ret.getResult()[i].getType() != getElementTypeOrSelf(srcs[i].getType()))
      return op->emitOpError("combine results must be the element types");
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion<ReduceReturnOp>(*this, getCombineOp().front(),
                                             getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyOperandsAndAxis(*this, getSrcs(), getAxis())))
    return failure();
  for (auto [src, res] : llvm::zip(getSrcs(), getResults()))
    if (getElementTypeOrSelf(res.getType()) !=
        getElementTypeOrSelf(src.getType()))
      return emitOpError("result element types must match the operands");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion<ScanReturnOp>(*this, getCombineOp().front(),
                                           getSrcs());
}

LogicalResult HistogramOp::verify() {
  if (getSrc().getType().getRank() != 1 || getType().getRank() != 1)
    return emitOpError("input and result must be 1-D");
  if (getMask() &&
      getMask().getType().getShape() != getSrc().getType().getShape())
    return emitOpError("mask must have the input's shape");
  return success();
}

#define GET_OP_CLASSES
#include "txl/Dialect/TXL/IR/Ops.cpp.inc"

LogicalResult GatherOp::verify() {
  ArrayRef<int64_t> src = shapeOf(getSrc().getType());
  ArrayRef<int64_t> idx = shapeOf(getIndices().getType());
  if (src.size() != idx.size())
    return emitOpError("source and indices must have the same rank");
  int64_t axis = getAxis();
  if (axis < 0 || axis >= int64_t(src.size()))
    return emitOpError("axis out of range");
  for (size_t d = 0; d < src.size(); ++d)
    if (int64_t(d) != axis && src[d] != idx[d])
      return emitOpError("indices must match the source outside the axis");
  if (shapeOf(getType()) != idx)
    return emitOpError("result must have the indices' shape");
  if (getElementTypeOrSelf(getType()) != getElementTypeOrSelf(getSrc()))
    return emitOpError("result must have the source's element type");
  return success();
}

/// The operands share `shape` (or all are scalars, like the results).
static LogicalResult verifyElementwiseShapes(Operation *op, ValueRange values,
                                             TypeRange results) {
  if (results.empty())
    return op->emitOpError("needs at least one result");
  Type first = results.front();
  for (Type t : results)
    if (isTensor(t) != isTensor(first) || shapeOf(t) != shapeOf(first))
      return op->emitOpError("results must share one shape");
  for (Value v : values)
    if (isTensor(v.getType()) != isTensor(first) ||
        shapeOf(v.getType()) != shapeOf(first))
      return op->emitOpError("operands must have the results' shape");
  return success();
}

LogicalResult ExternElementwiseOp::verify() {
  if (getSymbol().empty())
    return emitOpError("needs a function name");
  return verifyElementwiseShapes(*this, getSrcs(), getType());
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  return verifyElementwiseShapes(*this, getArgs(), getResultTypes());
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
}
