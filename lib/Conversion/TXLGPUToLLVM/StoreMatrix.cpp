//===- StoreMatrix.cpp - Register tiles to shared memory by stmatrix ------===//
//
// A 16-bit tensor in the mma fragment pattern (each lane holds element
// pairs of rows lane/4, columns 2 * (lane % 4)) is stored into a shared tile
// with stmatrix.x4: one instruction writes four 8x8 matrices for the warp,
// each lane naming the 16-byte row of one of them, where plain stores
// need one 4-byte store per element pair. The accumulator of a wgmma
// epilogue converted to fp16/bf16 has this pattern, so the epilogue's
// shared-memory writes (smem_store before a TMA store, the exchange of a
// layout conversion) shrink fourfold.
//
// Whether a layout qualifies is read off its bases: register bit 0 must be
// the next element, lane bits 0 and 1 the next pairs (a 16-byte row of 8
// elements per lane quad), lane bits 2-4 the eight rows of a matrix, and
// register bits 1 and 2 select the four matrices. Every other basis must
// move whole 16-byte rows (offsets multiple of 8 elements).
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

constexpr int kRowElems = 8; ///< b16 elements in one 16-byte matrix row

bool movesWholeRows(int64_t offset) { return offset % kRowElems == 0; }

/// Element offsets of the bases, or std::nullopt when the layout is not the
/// stmatrix pattern.
struct MatrixBases {
  SmallVector<int64_t> laneTable; ///< lane bit -> row / matrix offset
  SmallVector<int64_t> warpTable;
};

std::optional<MatrixBases> matrixBases(const txlgpu::LayoutMap &map,
                                       const txlgpu::SharedOffsets &offsets) {
  if (map.regBases.size() < 3 || map.laneBases.size() != 5)
    return std::nullopt;
  auto off = [&](const txlgpu::Coord &c) { return offsets.offsetOf(c); };
  if (off(map.regBases[0]) != 1 || off(map.laneBases[0]) != 2 ||
      off(map.laneBases[1]) != 4)
    return std::nullopt;
  MatrixBases bases;
  // Lane L of the x4 form names row L % 8 of matrix L / 8.
  for (int bit : {2, 3, 4})
    bases.laneTable.push_back(off(map.laneBases[bit]));
  for (int bit : {1, 2})
    bases.laneTable.push_back(off(map.regBases[bit]));
  for (const txlgpu::Coord &c : map.warpBases)
    bases.warpTable.push_back(off(c));
  for (size_t bit = 3; bit < map.regBases.size(); ++bit)
    if (!movesWholeRows(off(map.regBases[bit])))
      return std::nullopt;
  for (int64_t v : llvm::concat<int64_t>(bases.laneTable, bases.warpTable))
    if (!movesWholeRows(v))
      return std::nullopt;
  return bases;
}

/// Two 16-bit registers as one 32-bit stmatrix source.
Value packPair(OpBuilder &b, Location loc, Value lo, Value hi) {
  Value v = LLVM::UndefOp::create(b, loc, VectorType::get({2}, lo.getType()));
  v = LLVM::InsertElementOp::create(b, loc, v, lo, i32Const(b, loc, 0));
  v = LLVM::InsertElementOp::create(b, loc, v, hi, i32Const(b, loc, 1));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
}

} // namespace

bool mlir::txl::storeTileByMatrices(OpBuilder &b, Location loc, Operation *op,
                                    Value base, ArrayRef<Value> regs,
                                    RankedTensorType tensorTy,
                                    txlgpu::MemDescType tileTy) {
  Type elem = storageType(tensorTy.getElementType());
  if (targetSM(op) < 90 || elem.getIntOrFloatBitWidth() != 16 ||
      tensorTy.getShape() != tileTy.getShape())
    return false;
  auto map = txlgpu::getLayoutMap(tensorTy);
  auto offsets = txlgpu::getSharedOffsets(tileTy);
  if (!map || !offsets)
    return false;
  std::optional<MatrixBases> bases = matrixBases(*map, *offsets);
  if (!bases)
    return false;
  MLIRContext *ctx = b.getContext();
  Value thread = LLVM::XOrOp::create(
      b, loc, xorTable(b, loc, laneId(b, loc), bases->laneTable),
      xorTable(b, loc, warpId(b, loc), bases->warpTable));
  // Registers r with bits 0-2 clear start a group of four matrices.
  for (int r = 0; r < map->numRegs(); r += 8) {
    SmallVector<Value> sources;
    for (int m = 0; m < 4; ++m)
      sources.push_back(packPair(b, loc, regs[r + 2 * m], regs[r + 2 * m + 1]));
    int64_t start = offsets->offsetOf(map->regCoord(r));
    Value index = LLVM::XOrOp::create(b, loc, thread, i32Const(b, loc, start));
    Value ptr = LLVM::GEPOp::create(b, loc, base.getType(), elem, base,
                                    ValueRange{index});
    NVVM::StMatrixOp::create(b, loc, ptr, sources, NVVM::MMALayout::row,
                             NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
                             NVVM::LdStMatrixEltType::B16);
  }
  return true;
}
