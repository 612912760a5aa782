//===- Dialect.cpp - txlgpu dialect registration and attributes -----------===//
#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/IR/LayoutUtils.h"
#include "txl/Layout/LayoutConstructors.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::txlgpu;

#include "txl/Dialect/TXLGPU/IR/Dialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "txl/Dialect/TXLGPU/IR/Attrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "txl/Dialect/TXLGPU/IR/Types.cpp.inc"

#define GET_OP_CLASSES
#include "txl/Dialect/TXLGPU/IR/Ops.cpp.inc"

void TXLGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "txl/Dialect/TXLGPU/IR/Attrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "txl/Dialect/TXLGPU/IR/Types.cpp.inc"
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
  // A txl.relayout's layout is still to be given (AssignLayouts).
  if ((*this)->hasAttr(TXLGPUDialect::kPinnedLayoutAttr))
    return {};
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

//===----------------------------------------------------------------------===//
// memdesc: `!txlgpu.memdesc<64x32xf16, #encoding>`
//===----------------------------------------------------------------------===//

/// `64x32xf16` then, optionally, `, #encoding` (the tile IR has none yet).
static ParseResult parseShapeAndEncoding(AsmParser &parser,
                                         SmallVector<int64_t> &shape,
                                         Type &elem, Attribute &encoding) {
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elem))
    return failure();
  if (succeeded(parser.parseOptionalComma()) &&
      parser.parseAttribute(encoding))
    return failure();
  return parser.parseGreater();
}

static void printShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                       Type elem) {
  for (int64_t d : shape)
    printer << d << "x";
  printer << elem;
}

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elem;
  Attribute encoding;
  if (parseShapeAndEncoding(parser, shape, elem, encoding))
    return Type();
  return MemDescType::get(parser.getContext(), shape, elem, encoding);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  printShape(printer, getShape(), getElementType());
  if (getEncoding())
    printer << ", " << getEncoding();
  printer << ">";
}

Type TensorDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elem;
  Attribute encoding;
  if (parseShapeAndEncoding(parser, shape, elem, encoding))
    return Type();
  if (encoding) {
    parser.emitError(parser.getCurrentLocation(), "tensordesc has no encoding");
    return Type();
  }
  return TensorDescType::get(parser.getContext(), shape, elem);
}

void TensorDescType::print(AsmPrinter &printer) const {
  printer << "<";
  printShape(printer, getBlockShape(), getElementType());
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Shared-memory and wgmma ops
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  auto src = getSrc().getType();
  auto dst = getType();
  if (src.getShape() != dst.getShape() ||
      src.getElementType() != dst.getElementType())
    return emitOpError("tile ") << dst << " does not match tensor " << src;
  auto enc = dyn_cast<NVMMASharedEncodingAttr>(dst.getEncoding());
  if (!enc)
    return emitOpError("needs an nvmma_shared tile");
  if (enc.getOrder().size() != src.getShape().size() ||
      enc.getElemBits() != src.getElementType().getIntOrFloatBitWidth())
    return emitOpError("nvmma_shared order/elemBits do not fit ") << src;
  return success();
}

ArrayRef<int64_t> WarpGroupDotOp::getAShape() {
  if (auto tensor = dyn_cast<RankedTensorType>(getA().getType()))
    return tensor.getShape();
  return cast<MemDescType>(getA().getType()).getShape();
}

Type WarpGroupDotOp::getAElementType() {
  if (auto tensor = dyn_cast<RankedTensorType>(getA().getType()))
    return tensor.getElementType();
  return cast<MemDescType>(getA().getType()).getElementType();
}

LogicalResult WarpGroupDotOp::verify() {
  if (!isa<RankedTensorType, MemDescType>(getA().getType()))
    return emitOpError("A must be a shared tile or a register tensor");
  ArrayRef<int64_t> a = getAShape();
  auto b = getB().getType();
  auto c = cast<RankedTensorType>(getC().getType());
  if (a.size() != 2 || b.getShape().size() != 2 || c.getRank() != 2)
    return emitOpError("operands must be 2-D");
  if (a[1] != b.getShape()[0] || a[0] != c.getShape()[0] ||
      b.getShape()[1] != c.getShape()[1])
    return emitOpError("shapes do not form a matrix product");
  // wgmma's register-A forms: f16/bf16 (k16) and e4m3/e5m2 (k32).
  Type aElem = getAElementType();
  if (hasRegisterA() && !(aElem.isF16() || aElem.isBF16() ||
                          isa<Float8E4M3FNType, Float8E5M2Type>(aElem)))
    return emitOpError("A in registers must be fp16, bf16, e4m3 or e5m2");
  if (c != getD().getType())
    return emitOpError("result type must match the accumulator");
  // The tile IR (user dots on shared buffers) has no layouts yet.
  if (!c.getEncoding())
    return success();
  auto mma = dyn_cast<NvidiaMmaEncodingAttr>(c.getEncoding());
  if (!mma || mma.getVersion() != 3)
    return emitOpError("accumulator needs an nvmma v3 layout");
  return success();
}

LogicalResult AccToDotAOp::verify() {
  auto src = getSrc().getType();
  Type elem = src.getElementType();
  if (src.getRank() != 2)
    return emitOpError("needs a 2-D tensor");
  if (!(elem.isF16() || elem.isBF16() ||
        isa<Float8E4M3FNType, Float8E5M2Type>(elem)))
    return emitOpError("needs fp16, bf16, e4m3 or e5m2 elements (the types "
                       "wgmma takes A from registers in)");
  int64_t group = 8 * (32 / elem.getIntOrFloatBitWidth());
  if (src.getDimSize(1) % group)
    return emitOpError("needs a multiple of ")
           << group << " columns (one A fragment's k extent)";
  // The tile IR has no layouts yet.
  if (!src.getEncoding() && !getType().getEncoding())
    return success();
  auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(src.getEncoding());
  auto operand =
      dyn_cast_or_null<DotOperandEncodingAttr>(getType().getEncoding());
  if (!mma || mma.getVersion() != 3 || !operand || operand.getOpIdx() != 0 ||
      operand.getKWidth() != 32 / elem.getIntOrFloatBitWidth())
    return emitOpError("goes from an nvmma v3 layout to the dot-operand "
                       "layout of A (kWidth 32 / bits)");
  return success();
}

LogicalResult MBarArriveOp::verify() {
  // cp.async.mbarrier.arrive has no shared::cluster form: a thread can
  // only make its own CTA's barrier track its copies.
  if (getTrackAsyncOp() && getCta())
    return emitOpError("track_async_op arrives on a barrier of the calling "
                       "CTA; it cannot take a cta");
  return success();
}

LogicalResult PrefetchL2Op::verify() {
  if (cast<mlir::txl::PointerType>(getPtr().getType()).getAddressSpace() != 1)
    return emitOpError("ptr must point into global memory");
  // cp.async.bulk moves whole 16-byte units; a size that is not one is
  // undefined behaviour, so refuse it where it is known.
  APInt bytes;
  if (matchPattern(getBytes(), m_ConstantInt(&bytes)) &&
      (bytes.getSExtValue() <= 0 || bytes.getSExtValue() % 16))
    return emitOpError("bytes must be a positive multiple of 16, got ")
           << bytes.getSExtValue();
  return success();
}

LogicalResult SmemAllocOp::verify() {
  if (getType().getShape().size() < 2)
    return emitOpError("needs a stage dimension and a tile shape");
  return success();
}

LogicalResult MakeTensorDescOp::verify() {
  TensorDescType type = getType();
  ArrayRef<int64_t> block = type.getBlockShape();
  auto base = cast<mlir::txl::PointerType>(getBase().getType());
  if (base.getAddressSpace() != 1 ||
      base.getPointeeType() != type.getElementType())
    return emitOpError("base must be a global pointer to the descriptor's "
                       "element type");
  Type elem = type.getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() < 8)
    return emitOpError("element type must be an 8-, 16-, 32- or 64-bit "
                       "number");
  if (block.empty() || block.size() > 5)
    return emitOpError("descriptor rank must be 1 to 5");
  if (getShape().size() != block.size() || getStrides().size() != block.size())
    return emitOpError("needs one shape and one stride per block dimension");
  // The block is copied as TMA boxes (getTMABoxes): a dimension over 256
  // elements is cut into boxes like a row wider than the swizzle span, so
  // only a block that no box set covers is wrong here.
  unsigned bits = elem.getIntOrFloatBitWidth();
  std::optional<TMABoxes> boxes =
      getTMABoxes(block, bits, getTMASwizzleBytes(block, bits));
  if (!boxes || boxes->copies.empty())
    return emitOpError("TMA cannot move the block: it needs power-of-two "
                       "dimensions, rows of at least 16 bytes and at most ")
           << TMABoxes::kMaxCopies << " boxes";
  if (Value scratch = getScratch())
    if (cast<mlir::txl::PointerType>(scratch.getType()).getAddressSpace() != 1)
      return emitOpError("scratch must be a global pointer");
  return success();
}

LogicalResult MemDescReshapeOp::verify() {
  MemDescType src = getSrc().getType(), dst = getType();
  auto count = [](ArrayRef<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  };
  if (src.getElementType() != dst.getElementType() ||
      count(src.getShape()) != count(dst.getShape()))
    return emitOpError("result must have the source's element type and "
                       "number of elements");
  return success();
}

LogicalResult TMAGatherOp::verify() {
  ArrayRef<int64_t> dst = getDst().getType().getShape();
  auto rows = cast<RankedTensorType>(getRows().getType());
  auto desc = cast<TensorDescType>(getDesc().getType());
  if (dst.size() != 2)
    return emitOpError("destination must be 2-D");
  if (rows.getRank() != 1 || rows.getShape()[0] != dst[0])
    return emitOpError("needs one row offset per destination row");
  if (desc.getBlockShape() != ArrayRef<int64_t>{1, dst[1]} ||
      desc.getElementType() != getDst().getType().getElementType())
    return emitOpError("descriptor block must be one destination row");
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  ArrayRef<int64_t> dst = getType().getShape();
  // One mbarrier of an array is itself a 1-element array.
  if (isa_and_nonnull<BarrierEncodingAttr>(getType().getEncoding()))
    return success(src.size() == 1 && dst == ArrayRef<int64_t>{1});
  if (isTensorMemory(getSrc().getType()) != isTensorMemory(getType()))
    return emitOpError("a stage of a tensor-memory buffer stays in tensor "
                       "memory");
  if (src.empty() || src.drop_front() != dst ||
      getSrc().getType().getElementType() != getType().getElementType())
    return emitOpError("result must be the source without its leading "
                       "dimension");
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor memory and tcgen05
//===----------------------------------------------------------------------===//

bool mlir::txlgpu::isTensorMemory(Type type) {
  auto desc = dyn_cast<MemDescType>(type);
  return desc && isa_and_nonnull<TensorMemoryEncodingAttr>(desc.getEncoding());
}

/// A [128, N] (or [64, N]: an M = 64 accumulator in lanes 0-15 of each
/// warp's quarter) tensor-memory tile of 16- or 32-bit elements whose rows
/// fill whole 32-bit columns.
static bool isTMemTile(ArrayRef<int64_t> shape, Type elem) {
  if (shape.size() != 2 || (shape[0] != 128 && shape[0] != 64) ||
      !elem.isIntOrFloat())
    return false;
  unsigned bits = elem.getIntOrFloatBitWidth();
  return (bits == 32 || bits == 16) && shape[1] * bits % 32 == 0 &&
         shape[1] > 0;
}

int64_t TMemAllocOp::getStageColumns() {
  MemDescType type = getType();
  return type.getShape()[2] * type.getElementType().getIntOrFloatBitWidth() /
         32;
}

LogicalResult TMemAllocOp::verify() {
  MemDescType type = getType();
  if (!isTensorMemory(type))
    return emitOpError("result must have the tensor_memory encoding");
  if (type.getShape().size() != 3 ||
      !isTMemTile(type.getShape().drop_front(), type.getElementType()))
    return emitOpError(
        "needs [stages, 128 or 64, N] elements of 16 or 32 bits");
  if (type.getShape()[0] * getStageColumns() > 512)
    return emitOpError("needs more than the 512 columns of tensor memory");
  return success();
}

/// A tcgen05.ld/st message shape, if one is named.
static LogicalResult verifyMessage(Operation *op,
                                   std::optional<StringRef> message) {
  if (message && !::txl::parseTMemMessage(*message))
    return op->emitOpError("message must be 32x32b, 16x64b, 16x128b or "
                           "16x256b, got ")
           << *message;
  return success();
}

LogicalResult TMemLoadOp::verify() {
  MemDescType src = getSrc().getType();
  auto dst = cast<RankedTensorType>(getType());
  if (!isTensorMemory(src) || !isTMemTile(src.getShape(), src.getElementType()))
    return emitOpError("source must be one [128, N] or [64, N] "
                       "tensor-memory buffer");
  if (dst.getShape() != src.getShape() ||
      dst.getElementType() != src.getElementType())
    return emitOpError("result must match the buffer");
  return verifyMessage(*this, getMessage());
}

LogicalResult TMemStoreOp::verify() {
  MemDescType dst = getDst().getType();
  auto src = cast<RankedTensorType>(getValue().getType());
  if (!isTensorMemory(dst) || !isTMemTile(dst.getShape(), dst.getElementType()))
    return emitOpError("destination must be one [128, N] or [64, N] "
                       "tensor-memory buffer");
  if (dst.getShape() != src.getShape() ||
      dst.getElementType() != src.getElementType())
    return emitOpError("value must match the buffer");
  return verifyMessage(*this, getMessage());
}

LogicalResult TMemCopyOp::verify() {
  MemDescType dst = getDst().getType(), src = getSrc().getType();
  if (!isTensorMemory(dst) || dst.getShape().size() != 2 ||
      dst.getShape()[0] != 128 ||
      !isTMemTile(dst.getShape(), dst.getElementType()))
    return emitOpError("destination must be one [128, N] tensor-memory "
                       "buffer");
  if (isTensorMemory(src) || src.getShape() != dst.getShape() ||
      src.getElementType() != dst.getElementType())
    return emitOpError("source must be a shared tile of the destination's "
                       "shape and element type");
  for (Value bar : getBarriers())
    if (!isa_and_nonnull<BarrierEncodingAttr>(
            cast<MemDescType>(bar.getType()).getEncoding()))
      return emitOpError("commits go to mbarriers");
  return success();
}

LogicalResult TCGen05MMAScaledOp::verify() {
  MemDescType a = getA().getType(), b = getB().getType(), d = getD().getType();
  if (!isTensorMemory(d) || d.getShape().size() != 2 ||
      d.getShape()[0] != 128 || !d.getElementType().isF32())
    return emitOpError("D must be a [128, N] fp32 tensor-memory buffer");
  if (isTensorMemory(a) || isTensorMemory(b) || a.getShape().size() != 2 ||
      b.getShape().size() != 2)
    return emitOpError("A and B must be 2-D shared tiles");
  if (a.getShape()[0] != 128 || a.getShape()[1] != b.getShape()[0] ||
      b.getShape()[1] != d.getShape()[1])
    return emitOpError("shapes do not form a matrix product");
  if (a.getElementType().getIntOrFloatBitWidth() != 8 ||
      b.getElementType().getIntOrFloatBitWidth() != 8)
    return emitOpError("A and B hold bytes (fp8, or two e2m1 per byte)");
  for (Value tile : {getAScaleTile(), getBScaleTile()}) {
    auto type = cast<MemDescType>(tile.getType());
    if (isTensorMemory(type) || type.getShape().size() != 2 ||
        type.getShape()[1] != 16 || type.getShape()[0] % 32 ||
        !(type.getElementType().isInteger(8) ||
          isa<Float8E4M3FNType>(type.getElementType())))
      return emitOpError("scale tiles must be [32 * chunks, 16] bytes (e8m0 "
                         "i8, or f8E4M3FN for nvfp4) in shared memory");
  }
  if (getAScaleTile().getType().getElementType() !=
      getBScaleTile().getType().getElementType())
    return emitOpError("both scale tiles hold the same scale format");
  for (Value cols : {getAScale(), getBScale()})
    if (!isTensorMemory(cast<MemDescType>(cols.getType())))
      return emitOpError("scales are copied to tensor memory");
  if (!isa_and_nonnull<BarrierEncodingAttr>(
          getBarrier().getType().getEncoding()))
    return emitOpError("commits go to an mbarrier");
  if (getLeaderWarp() < 0)
    return emitOpError("leaderWarp must be a warp");
  return success();
}

LogicalResult TCGen05MMAOp::verify() {
  MemDescType a = getA().getType(), b = getB().getType(), d = getD().getType();
  if (!isTensorMemory(d) || d.getShape().size() != 2 ||
      (d.getShape()[0] != 128 && d.getShape()[0] != 64) ||
      !d.getElementType().isF32())
    return emitOpError("D must be a [128, N] or [64, N] fp32 tensor-memory "
                       "buffer");
  if (d.getShape()[0] == 64 && (getTwoCtas() || isTensorMemory(a)))
    return emitOpError("an M = 64 MMA is cta_group::1 with A in shared "
                       "memory");
  if (isTensorMemory(b))
    return emitOpError("B must be in shared memory");
  if (a.getShape().size() != 2 || b.getShape().size() != 2)
    return emitOpError("A and B must be 2-D");
  // cta_group::2: B is this CTA's half of the columns, the peer's half
  // completes D's.
  int64_t bColumns = b.getShape()[1] * (getTwoCtas() ? 2 : 1);
  if (a.getShape()[0] != d.getShape()[0] ||
      a.getShape()[1] != b.getShape()[0] || bColumns != d.getShape()[1])
    return emitOpError("shapes do not form a matrix product");
  if (a.getElementType() != b.getElementType())
    return emitOpError("A and B must have one element type");
  if (isTensorMemory(a) && !isTMemTile(a.getShape(), a.getElementType()))
    return emitOpError("A in tensor memory must be a [128, K] buffer");
  for (Value bar : getBarriers())
    if (!isa_and_nonnull<BarrierEncodingAttr>(
            cast<MemDescType>(bar.getType()).getEncoding()))
      return emitOpError("commits go to mbarriers");
  if (!getBarrierPreds().empty() &&
      getBarrierPreds().size() != getBarriers().size())
    return emitOpError("needs one commit predicate per barrier");
  if (getLeaderWarp() < 0)
    return emitOpError("leaderWarp must be a warp");
  return success();
}
