//===- MMAOperandTile.h - shared-memory matrix descriptors -----*- C++ -*-===//
//
// wgmma (sm_90a) and tcgen05.mma (sm_100a) read their shared-memory
// operands through a 64-bit "matrix descriptor": the tile's address, two
// strides and the swizzle mode. The two generations use the same fields at
// the same bits (address >> 4 in 0..13, leading-dimension offset in 16..29,
// stride-dimension offset in 32..45, swizzle in 61..63: 128B = 2, 64B = 4,
// 32B = 6, i.e. wgmma's 1, 2, 3 at bit 62); tcgen05 adds a version field
// (bits 46..48 = 0b001). The strides are read off the tile's own linear
// layout, so they agree with whatever wrote it (smem_store, TMA).
//
//===----------------------------------------------------------------------===//
#ifndef TXL_CONVERSION_TXLGPUTOLLVM_MMAOPERANDTILE_H
#define TXL_CONVERSION_TXLGPUTOLLVM_MMAOPERANDTILE_H

#include "Utility.h"

namespace mlir::txl {

/// One MMA operand tile in a swizzled NVMMA layout (PTX ISA "matrix
/// descriptor"). K-major: the contiguous dimension is K; rows of W =
/// swizzle bytes run along M (A) or N (B), 8-row core groups SBO = 8W
/// apart, LBO unused. MN-major (16-bit types only, the MMA's transpose
/// bit): the contiguous dimension is M or N, stored as chunks of W bytes;
/// LBO is the distance between chunks and SBO between groups of 8 K rows.
struct OperandTile {
  txlgpu::MemDescType type;
  txlgpu::NVMMASharedEncodingAttr enc;
  txlgpu::SharedOffsets offsets;
  unsigned kDim; ///< 1 for A [M, K], 0 for B [K, N]
  bool kMajor;

  static FailureOr<OperandTile> get(Value tile, unsigned kDim) {
    auto type = cast<txlgpu::MemDescType>(tile.getType());
    auto enc = dyn_cast<txlgpu::NVMMASharedEncodingAttr>(type.getEncoding());
    if (!enc)
      return failure();
    auto offsets = txlgpu::getSharedOffsets(spanWide(type, enc));
    if (!offsets || enc.getSwizzleBytes() < 32)
      return failure();
    bool kMajor = enc.getOrder()[0] == kDim;
    if (!kMajor && type.getElementType().getIntOrFloatBitWidth() != 16)
      return failure();
    return OperandTile{type, enc, *offsets, kDim, kMajor};
  }

  /// A slice narrower than its swizzle span (a view inside the span, see
  /// MemDescViewOpToLLVM) is read through the span's layout: the offsets
  /// the descriptors use (K steps inside a row, whole 8-row groups) are
  /// the same as in the whole span, where the hardware swizzles by address.
  static txlgpu::MemDescType spanWide(txlgpu::MemDescType type,
                                      txlgpu::NVMMASharedEncodingAttr enc) {
    unsigned inner = enc.getOrder()[0];
    int64_t bytes =
        std::max(1u, type.getElementType().getIntOrFloatBitWidth() / 8);
    int64_t span = enc.getSwizzleBytes() / bytes;
    if (type.getShape().size() != 2 || span == 0 ||
        type.getShape()[inner] >= span)
      return type;
    SmallVector<int64_t> shape(type.getShape());
    shape[inner] = span;
    return txlgpu::MemDescType::get(type.getContext(), shape,
                                    type.getElementType(), enc);
  }

  int64_t elemBytes() const {
    return std::max(1u, type.getElementType().getIntOrFloatBitWidth() / 8);
  }

  /// Byte offset of the element (outer, k), outer along M or N. Callers
  /// pass k a multiple of 8 and outer a multiple of 8 (K-major) or of the
  /// swizzle row (MN-major) or inside the first row, where the swizzle
  /// leaves the offset in place and the hardware re-applies it.
  int64_t byteOffset(int64_t outer, int64_t k) const {
    txlgpu::Coord c =
        kDim == 1 ? txlgpu::Coord{outer, k} : txlgpu::Coord{k, outer};
    return offsets.offsetOf(c) * elemBytes();
  }

  int64_t outerSize() const { return type.getShape()[1 - kDim]; }

  /// wgmma's operand layout: row-major A and column-major B are the
  /// K-major forms.
  NVVM::MMALayout layout() const {
    bool rowMajor = (kDim == 1) == kMajor;
    return rowMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  }

  /// The descriptor's fields other than the address; `tcgen05` adds the
  /// sm_100 version bits.
  uint64_t descriptorBits(bool tcgen05 = false) const {
    unsigned w = enc.getSwizzleBytes();
    uint64_t mode = w == 128 ? 1 : w == 64 ? 2 : 3;
    uint64_t lbo = 1, sbo = 8 * w / 16;
    if (!kMajor) {
      int64_t chunk = w / elemBytes();
      sbo = uint64_t(byteOffset(0, 8)) / 16;
      if (outerSize() > chunk)
        lbo = uint64_t(byteOffset(chunk, 0)) / 16;
    }
    uint64_t version = tcgen05 ? uint64_t(1) << 46 : 0;
    return (lbo << 16) | (sbo << 32) | version | (mode << 62);
  }
};

/// Byte address (i32, shared window) of a lowered tile (a pointer).
inline Value tileAddress(OpBuilder &b, Location loc, Value tile) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), tile);
}

/// A shared-memory matrix descriptor's start-address field (bits 0-13):
/// the i32 byte address in 16-byte units, as an i64 to OR the other
/// fields into.
inline Value descriptorAddressField(OpBuilder &b, Location loc, Value address) {
  return LLVM::ZExtOp::create(
      b, loc, b.getI64Type(),
      LLVM::LShrOp::create(
          b, loc,
          LLVM::AndOp::create(b, loc, address, i32Const(b, loc, 0x3FFFF)),
          i32Const(b, loc, 4)));
}

/// The 64-bit descriptor of the tile at `address` (i32 byte address).
inline Value operandDescriptor(OpBuilder &b, Location loc,
                               const OperandTile &tile, Value address,
                               bool tcgen05 = false) {
  return LLVM::OrOp::create(
      b, loc, descriptorAddressField(b, loc, address),
      i64Const(b, loc, int64_t(tile.descriptorBits(tcgen05))));
}

/// `desc` moved `byteOffset` bytes into its tile: only the address field
/// changes (16-byte units), and a static offset inside the tile never
/// carries out of it, so one 64-bit add does it.
inline Value stepDescriptor(OpBuilder &b, Location loc, Value desc,
                            int64_t byteOffset) {
  if (byteOffset == 0)
    return desc;
  return LLVM::AddOp::create(b, loc, desc, i64Const(b, loc, byteOffset / 16));
}

} // namespace mlir::txl

#endif
