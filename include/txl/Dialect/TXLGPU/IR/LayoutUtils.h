//===- LayoutUtils.h - what a layout means for one tensor shape -*- C++ -*-===//
//
// The lowering needs, for a tensor type with a layout encoding, the
// coordinates of each register, lane bit and warp bit: the bases of the
// layout's linear map restricted to that shape. `LayoutMap` is that view of
// the linear layout (txl/Layout/LinearLayout.h), flattened for codegen.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_DIALECT_TXLGPU_IR_LAYOUTUTILS_H
#define TXL_DIALECT_TXLGPU_IR_LAYOUTUTILS_H

#include "txl/Layout/LayoutConstructors.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <optional>
#include <vector>

namespace mlir::txlgpu {

using Coord = llvm::SmallVector<int64_t, 4>;

class TMemMessageEncodingAttr;
/// The tcgen05.ld/st message shape a tmem_message encoding names.
std::optional<::txl::TMemMessage> tmemMessageOf(TMemMessageEncodingAttr);
/// The tmem_message encoding of `msg` (for tensors of `elemBits` elements
/// moved by `numWarps` warps).
TMemMessageEncodingAttr getTMemMessageEncoding(MLIRContext *ctx,
                                               ::txl::TMemMessage msg,
                                               unsigned numWarps,
                                               unsigned elemBits);

struct LayoutMap {
  llvm::SmallVector<int64_t, 4> shape;
  /// Coordinates each input bit maps to (XOR-combined), per dimension.
  std::vector<Coord> regBases, laneBases, warpBases;

  int numRegs() const { return 1 << regBases.size(); }
  int rank() const { return shape.size(); }
  /// Coordinate of register `r` in lane 0 of warp 0.
  Coord regCoord(int r) const;
  /// Coordinate contributed by a whole lane/warp id.
  Coord laneCoord(int lane) const;
  Coord warpCoord(int warp) const;
  /// Bits of the lane / warp id that map to nothing (replicated data).
  unsigned laneFreeMask() const;
  unsigned warpFreeMask() const;
  /// Registers that are copies of a lower-numbered register.
  bool isDuplicateReg(int r) const;
  /// Row-major flat index of a coordinate.
  int64_t flatIndex(const Coord &c) const;
  /// Number of consecutive registers (starting at multiples of the result)
  /// that hold consecutive elements of dimension `dim`.
  int contiguousRegs(unsigned dim) const;
};

/// Which bit of a register, lane or warp id moves one bit of the index
/// along an axis.
struct AxisBit {
  enum Kind { Reg, Lane, Warp } kind;
  unsigned index;
};
/// For each bit of the index along `axis` (lowest first), the id bit that
/// moves it; std::nullopt unless every basis moves along `axis` alone by a
/// distinct power of two or not at all (blocked and tensor-core layouts
/// do), which is what a scan along `axis` needs.
std::optional<llvm::SmallVector<AxisBit>> getAxisBits(const LayoutMap &map,
                                                      unsigned axis);

/// Where a source coordinate lands in the destination of a data movement
/// (identity for convert_layout, row-major renumbering for reshape, a
/// permutation for trans). Must be linear over coordinate bits.
using CoordMap = std::function<Coord(const Coord &)>;
CoordMap identityCoordMap();
CoordMap reshapeCoordMap(ArrayRef<int64_t> srcShape, ArrayRef<int64_t> dstShape);
/// Result dim i is source dim order[i].
CoordMap transposeCoordMap(ArrayRef<int32_t> order);

/// When every lane and warp already holds the elements the destination
/// layout gives it, the source register holding each destination register;
/// std::nullopt when data must move between threads.
std::optional<llvm::SmallVector<int>>
getRegisterRenaming(const LayoutMap &src, const LayoutMap &dst,
                    const CoordMap &srcToDst);

/// The layout map of a tensor type whose encoding is a txlgpu layout, or
/// std::nullopt when it has none we understand.
std::optional<LayoutMap> getLayoutMap(RankedTensorType type);

/// Registers one thread holds for a tensor of this type.
int getNumRegs(RankedTensorType type);

/// The blocked encoding txl uses by default for `shape`: `vec` contiguous
/// elements per thread along `order[0]`, lanes then warps filling the fastest
/// dimensions first.
Attribute getBlockedLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                           unsigned vec, ArrayRef<unsigned> order,
                           unsigned numWarps, unsigned threadsPerWarp);

/// Where each element of a shared tile lives: the element offset of a
/// coordinate is the XOR of the offsets of its set bits (shared layouts are
/// linear), so codegen adds a per-register constant to a per-thread part.
struct SharedOffsets {
  /// bitOffset[d][i]: element offset of the coordinate with only bit i of
  /// dimension d set.
  std::vector<llvm::SmallVector<int64_t>> bitOffset;
  int64_t offsetOf(const Coord &c) const;
};
/// The offsets of a memdesc with an nvmma_shared layout; std::nullopt when
/// its shape or encoding is not one we can lay out.
std::optional<SharedOffsets> getSharedOffsets(Type memDescType);

/// Shared bytes a memdesc occupies.
int64_t getSharedBytes(Type memDescType);

/// Bytes between consecutive stages of a txlgpu.smem_alloc (each tile
/// aligned as getTileAlignment says) or txlgpu.mbar_alloc (8-byte
/// mbarriers) result.
int64_t getStageStride(Type stagedMemDescType);

/// Where a shared tile of this type may start: 1024 bytes for a swizzled
/// NVMMA tile (where the swizzle pattern repeats), 128 for any other (the
/// alignment TMA needs).
int64_t getTileAlignment(Type memDescType);

/// How TMA fills or reads a whole shared tile: the box the tensor map is
/// encoded with and one copy per box. A box lands in shared memory as
/// row-major rows of its innermost extent (swizzled by address), so each box
/// must cover a contiguous run of the tile's layout (getSharedOffsets:
/// [leading dims][column chunks][rows][row]): the innermost extent is one
/// row of the layout (a swizzle span; up to 256 elements for a 1-D tile),
/// then whole rows, whole column chunks and whole leading dimensions for as
/// long as each fits in TMA's 256 per dimension; past the first dimension
/// a box cannot cover whole, it spans 1.
struct TMABoxes {
  struct Copy {
    SmallVector<int64_t> at; ///< the box's first element in the tile
    int64_t byteOffset;      ///< its unswizzled byte offset in the tile
  };
  SmallVector<int64_t> box; ///< outermost first
  int64_t numCopies = 0;
  /// Empty when there would be more than kMaxCopies (too many to unroll).
  SmallVector<Copy> copies;
  static constexpr int64_t kMaxCopies = 256;
};
/// The boxes of a tile of `shape` (rank 1 to 5) with `elemBits` elements
/// in the row-major NVMMA layout of `swizzleBytes`; std::nullopt if TMA
/// cannot move it (rank, or a row narrower than 16 bytes).
std::optional<TMABoxes> getTMABoxes(ArrayRef<int64_t> shape, unsigned elemBits,
                                    unsigned swizzleBytes);
/// The swizzle AssignSharedLayouts gives a shared tile that TMA moves: the
/// widest its rows allow; none for a 1-D tile or rows of 16 bytes.
unsigned getTMASwizzleBytes(ArrayRef<int64_t> shape, unsigned elemBits);
/// The same for a memdesc; std::nullopt also when its layout is not a
/// row-major NVMMA one.
std::optional<TMABoxes> getTMABoxes(Type memDescType);

/// Whether `v` is a buffer array (the result of txlgpu.smem_alloc or
/// txlgpu.mbar_alloc, or a choice between such: an arith.select or an
/// scf.if result), whose leading dimension is the stage.
bool isBufferArray(Value v);
} // namespace mlir::txlgpu

#endif
