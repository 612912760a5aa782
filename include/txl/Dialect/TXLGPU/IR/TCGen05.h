//===- TCGen05.h - facts shared by the tcgen05 passes ----------*- C++ -*-===//
#ifndef TXL_DIALECT_TXLGPU_IR_TCGEN05_H
#define TXL_DIALECT_TXLGPU_IR_TCGEN05_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::txlgpu {

/// On a txlgpu.tcgen05_mma made for a plain tl.dot (AssignLayouts): the
/// op is synchronous. Its one barrier is initialized to the CTA's thread
/// count + 1; after the elected thread commits the MMAs to it, every thread
/// arrives and waits on its own arrival's phase token, which completes only
/// with the commit's arrival - so no phase needs tracking across loop
/// iterations, and every thread may read the accumulator afterwards.
constexpr llvm::StringLiteral kSyncCommitAttr = "txlgpu.sync_commit";

//===----------------------------------------------------------------------===//
// Block-scaled tcgen05.mma (tl.dot_scaled on sm_100a)
//===----------------------------------------------------------------------===//

/// The block-scaled MMA kinds txl issues. PTX ISA "Block Scaling" (Table
/// "Valid combinations of scale_vectorsize with types and MMA-Kind"):
/// kind::mxf8f6f4 takes E4M3/E5M2/E2M3/E3M2/E2M1 with UE8M0 scales, one per
/// 32 K elements (.scale_vec::1X = .block32); kind::mxf4 takes E2M1 (two per
/// byte) with UE8M0 scales, two per instruction of K = 64 (.scale_vec::2X =
/// .block32); kind::mxf4nvf4 takes E2M1 with UE4M3 scales (nvfp4), four per
/// instruction of K = 64, one per 16 elements (.scale_vec::4X = .block16).
enum class BlockScaledKind { MXF8F6F4, MXF4, MXF4NVF4 };

/// An operand format's code in the instruction descriptor's atype/btype
/// fields (PTX ISA, "Instruction descriptor format for .kind::mxf8f6f4":
/// E4M3 = 0, E5M2 = 1, E2M1 = 5; "... for .kind::mxf4 and .kind::mxf4nvf4":
/// E2M1 = 1), or nullopt where the kind does not take the format.
inline std::optional<uint32_t> blockScaledFormatCode(BlockScaledKind kind,
                                                     llvm::StringRef format) {
  if (kind != BlockScaledKind::MXF8F6F4)
    return format == "e2m1" ? std::optional<uint32_t>(1) : std::nullopt;
  if (format == "e4m3")
    return 0;
  if (format == "e5m2")
    return 1;
  if (format == "e2m1")
    return 5;
  return std::nullopt;
}

/// The 32-bit instruction descriptor of a dense block-scaled MMA, K-major
/// A and B (PTX ISA tables "Instruction descriptor format for
/// .kind::mxf8f6f4" and "... for .kind::mxf4 and .kind::mxf4nvf4"):
///   bits 4-5   Matrix B scale factor data ID (`sfbId`)
///   bits 7-9   atype, 10-12 btype (10-11 for mxf4 / mxf4nvf4)
///   bits 15/16 transpose A/B: 0 (K-major)
///   bits 17-22 N >> 3
///   bit  23    scale matrix type: UE8M0 = 1, UE4M3 = 0 (mxf4nvf4 only)
///   bits 27-28 M >> 7
///   bits 29-30 Matrix A scale factor data ID (`sfaId`; 0 for 4X)
/// everything else (sparsity, negation, bit 31: K = 64 for mxf4) 0.
inline uint32_t blockScaledInstructionDescriptor(uint32_t aCode, uint32_t bCode,
                                                 int64_t n, int64_t m,
                                                 uint32_t sfaId, uint32_t sfbId,
                                                 bool ue4m3Scales = false) {
  uint32_t scaleType = ue4m3Scales ? 0 : 1;
  return (sfbId << 4) | (aCode << 7) | (bCode << 10) |
         (uint32_t(n >> 3) << 17) | (scaleType << 23) |
         (uint32_t(m >> 7) << 27) | (sfaId << 29);
}

/// Scale factors in tensor memory (PTX ISA "Scale Factor A ID" / "B ID"
/// layouts for scale_vec::1X and 2X): row r of A (column r of B) reads
/// lane r % 32 of any lane quarter (the factors are duplicated to all four,
/// "Scale factors for A and B matrices need to be duplicated to all 32 lane
/// partitions of tensor memory") in column r / 32 of the instruction's
/// scale address; the byte `id` of that 32-bit column (1X: 0-3, 2X: 0 or 2,
/// the halfword; 4X: 0, all four bytes) picks which of the four scale
/// columns of K a given instruction uses. A "group" is 32 K elements
/// (UE8M0) or 16 (UE4M3, nvfp4); the layout is the same. txl keeps four K
/// groups (g, g+1, g+2, g+3 with g % 4
/// == 0) per column and puts the groups of K one block of `rows` / 32
/// columns after the other: K group g of row r lives in column
/// (g / 4) * (rows / 32) + r / 32, byte g % 4, where `rows` is M = 128 or
/// N rounded up to a multiple of 128.
inline int64_t scaleFactorColumn(int64_t group, int64_t row, int64_t rows) {
  return (group / 4) * (rows / 32) + row / 32;
}

/// The shared-memory byte of (row, group) in txl's scale tile: whole
/// 512-byte chunks, each one tcgen05.cp.32x128b.warpx4 of four columns
/// (chunk c fills columns 4c .. 4c + 3); inside a chunk, lane l's 16 bytes
/// are its four columns of four bytes (the 32x128b shape copies 32 rows of
/// 128 bits, row l to lane l of every quarter with .warpx4).
inline int64_t scaleFactorSharedOffset(int64_t row, int64_t group,
                                       int64_t rows) {
  int64_t column = scaleFactorColumn(group, row, rows);
  return (column / 4) * 512 + (row % 32) * 16 + (column % 4) * 4 + group % 4;
}

} // namespace mlir::txlgpu

#endif
