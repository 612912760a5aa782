//===- LayoutConstructors.h - Linear layouts of named layouts ---*- C++ -*-===//
//
// Builders for the linear layout of every named layout txl uses. All shapes
// are tensor shapes with power-of-two sizes (callers validate user shapes
// first); every parameter list has one entry per tensor dim.
//
// Distributed layouts have input dims (register, lane, warp) -- always all
// three, in that order, even when one has size 1 -- and output dims
// dim0..dim{rank-1} in tensor order (dim0 slowest, see LinearLayout.h).
//
// Fitting a layout's natural CTA tile to the tensor shape (Triton rules):
//   * tensor dim larger than the tile: the tile repeats; each repetition adds
//     register bits (above the tile's register bits), dims in `repOrder`
//     (fastest first);
//   * tensor dim smaller than the tile: coordinates wrap (coord mod size), so
//     register / lane / warp bits that would leave the tensor get zero bases
//     (broadcast: several registers, lanes or warps hold the same element).
// So a thread's register count is the tile's times the number of
// repetitions; registers are never dropped for small tensors (they repeat).
//
//===----------------------------------------------------------------------===//

#ifndef TXL_LAYOUT_LAYOUTCONSTRUCTORS_H
#define TXL_LAYOUT_LAYOUTCONSTRUCTORS_H

#include "txl/Layout/LinearLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace txl {

/// Parameters of a blocked layout (Triton's BlockedEncoding): every thread
/// owns sizePerThread contiguous elements; a warp is threadsPerWarp threads,
/// a CTA warpsPerCTA warps; order[0] is the fastest-varying tensor dim.
struct BlockedParams {
  llvm::SmallVector<unsigned> sizePerThread;
  llvm::SmallVector<unsigned> threadsPerWarp;
  llvm::SmallVector<unsigned> warpsPerCTA;
  llvm::SmallVector<unsigned> order;
  bool operator==(const BlockedParams &o) const {
    return sizePerThread == o.sizePerThread &&
           threadsPerWarp == o.threadsPerWarp && warpsPerCTA == o.warpsPerCTA &&
           order == o.order;
  }
};

/// Checks blocked parameters against a tensor rank: equal lengths, powers of
/// two, `order` a permutation. Returns an error message, or "" when valid.
/// (Product constraints such as prod(threadsPerWarp) == 32 are the caller's.)
std::string verifyBlockedParams(const BlockedParams &params, unsigned rank);

/// True when every entry is a power of two >= 1.
bool isPowerOf2Shape(llvm::ArrayRef<int64_t> shape);

/// inDim -> standard out dims: the bits of inDim enumerate a tensor of
/// `shape` in the dim order `order` (order[0] fastest = lowest input bits).
/// Output dims are dim0..dim{rank-1} in tensor order.
LinearLayout identityStandardND(llvm::StringRef inDim,
                                llvm::ArrayRef<int64_t> shape,
                                llvm::ArrayRef<unsigned> order);

/// Fit a CTA-tile layout (output dims dim0..dim{rank-1}, any input dims) to
/// `shape` with the rules in the file comment: wrap (mod) dims where the
/// tile is larger, append register bits for dims where it is smaller, in
/// `repOrder` (fastest first). Output dims come back in standard order with
/// exactly the sizes in `shape`.
LinearLayout fitToShape(const LinearLayout &tile, llvm::ArrayRef<int64_t> shape,
                        llvm::ArrayRef<unsigned> repOrder);

/// Triton BlockedEncoding semantics (see BlockedParams).
LinearLayout blockedToLinearLayout(llvm::ArrayRef<int64_t> shape,
                                   llvm::ArrayRef<unsigned> sizePerThread,
                                   llvm::ArrayRef<unsigned> threadsPerWarp,
                                   llvm::ArrayRef<unsigned> warpsPerCTA,
                                   llvm::ArrayRef<unsigned> order);
LinearLayout blockedToLinearLayout(llvm::ArrayRef<int64_t> shape,
                                   const BlockedParams &params);

/// The layout of a tensor reduced along `dim`, from the parent's layout of
/// the un-reduced tensor (any size along `dim`): output dim `dim` is dropped
/// (bits that mapped into it now broadcast: lanes/warps get zero bases),
/// the remaining output dims are renamed dim0..dim{rank-2}, and all-zero
/// register bases are removed (a thread keeps one copy of each element).
/// An empty parent (LinearLayout::empty(), e.g. an unknown parent layout)
/// gives an empty result instead of an error.
LinearLayout sliceLinearLayout(const LinearLayout &parent, unsigned dim);

/// Slice layout for the reduced tensor `shape` (rank r-1): the parent layout
/// is built by `parentToLinearLayout` for `shape` with a 1 inserted at `dim`
/// (Triton's SliceEncoding), then sliced as above.
LinearLayout
sliceToLinearLayout(llvm::ArrayRef<int64_t> shape, unsigned dim,
                    llvm::function_ref<LinearLayout(llvm::ArrayRef<int64_t>)>
                        parentToLinearLayout);
/// Convenience: slice of a blocked parent.
LinearLayout sliceToLinearLayout(llvm::ArrayRef<int64_t> shape, unsigned dim,
                                 const BlockedParams &parent);

/// wgmma (sm_90, m64nNk16) accumulator layout for a rank-2 [M, N] tensor.
/// instrShape = {16, N[, K]} is the PER-WARP tile (Triton's NVMMA v3
/// convention: a warpgroup instruction m64nN is 4 warps x 16 rows), N a
/// power of two in [8, 256]. Within a warp (PTX ISA "wgmma D fragment"):
///   row = 16*warpM + lane/4 + 8*((reg/2)%2)
///   col = N*warpN + 8*(reg/4) + 2*(lane%4) + reg%2
/// Warps: the warp index enumerates warpsPerCTA with dim0 (M) fastest, so
/// the 4 warps of a warpgroup stack along M (64 rows). Tile repetitions
/// (shape > tile) add register bits, N first then M.
LinearLayout nvmmaAccumulatorLayout(llvm::ArrayRef<int64_t> shape,
                                    llvm::ArrayRef<unsigned> warpsPerCTA,
                                    llvm::ArrayRef<unsigned> instrShape);

/// mma.sync m16n8k16 (sm_80) accumulator layout for a rank-2 [M, N] tensor:
/// per warp a 16x8 tile, c0..c3:
///   row = lane/4 + 8*(reg/2),   col = 2*(lane%4) + reg%2
/// Warps enumerate warpsPerCTA with dim1 (N) fastest (Triton's MMAv2
/// convention; unlike wgmma, no warpgroup constraint); repetitions add
/// register bits, N first then M. A rank-3 [B, M, N] tensor (a batched
/// dot) has the same tile at batch 0, rank-3 warpsPerCTA [wb, wm, wn] with
/// the batch slowest, and repetitions N, M, then batch.
LinearLayout mmaV2AccumulatorLayout(llvm::ArrayRef<int64_t> shape,
                                    llvm::ArrayRef<unsigned> warpsPerCTA);

/// Register operand of mma.sync (sm_80, Triton's DotOperandEncoding with an
/// MMAv2 parent): opIdx 0 = A [M, K], 1 = B [K, N]; `warpsPerCTA` is the
/// parent accumulator's. With kw = 32 / elemBits elements per 32-bit
/// register (elemBits 8, 16 or 32: m16n8k32, m16n8k16, m16n8k8), element i
/// of a thread (PTX ISA mma.m16n8k* A/B fragment figures):
///   A: row = lane/4 + 8*((i/kw)%2),  col = kw*(lane%4) + i%kw + 4kw*(i/2kw)
///   B: k   = kw*(lane%4) + i%kw + 4kw*(i/kw),  n = lane/4
/// Warps enumerate warpsPerCTA with N fastest (as the accumulator); warps
/// that differ only along the other operand's dim hold the same fragment
/// (zero bases). Repetitions add register bits, K first. Rank 3 ([B, M, K]
/// or [B, K, N], with the accumulator's rank-3 warpsPerCTA): the batch is
/// distributed as in the accumulator and repeats last.
LinearLayout mmaV2OperandLayout(llvm::ArrayRef<int64_t> shape, unsigned opIdx,
                                llvm::ArrayRef<unsigned> warpsPerCTA,
                                unsigned elemBits);

/// A operand of wgmma taken from registers, [M, K]: per warp the same 16 x
/// 8kw fragment as mma.sync's A; warps stack along M first (a warpgroup's 4
/// warps cover 64 rows, as nvmmaAccumulatorLayout); warps along N hold
/// copies. Repetitions add register bits, K first. For 16-bit elements the
/// fp32 accumulator of one wgmma is exactly the A layout of the next
/// (register reuse as in FlashAttention-3).
LinearLayout wgmmaOperandALayout(llvm::ArrayRef<int64_t> shape,
                                 llvm::ArrayRef<unsigned> warpsPerCTA,
                                 unsigned elemBits);

/// The column order under which a wgmma accumulator's registers already
/// are the register A operand of elemBits-wide elements (8 or 16): within
/// each group of G = 8 * (32 / elemBits) columns (one A fragment's k
/// extent: 16 or 32), A's column c is the accumulator's column result[c].
/// Derived from the two warp layouts above: a thread's accumulator
/// elements of one row, in register order, are paired with its A elements
/// of that row in register order, so no value leaves its thread. 16-bit:
/// the identity. 8-bit: a thread holds accumulator columns 2q, 2q+1, 8+2q,
/// 9+2q, ... (q = lane % 4) but A columns 4q .. 4q+3, 16+4q .. 19+4q, so
/// c = 16h + 4q + i maps to 16h + 8(i/2) + 2q + i%2 (a permutation of the
/// column's bits 1-3). A dot that reads A this way must read B's rows in
/// the same order (txl.acc_to_dot_a).
std::vector<int32_t> wgmmaAccToOperandAColumns(unsigned elemBits);

/// Registers of a [128, N] tensor-memory accumulator read with
/// tcgen05.ld.32x32b (sm_100, cta_group::1, M = 128): TMEM lane = row,
/// column = col. Warp w may only touch TMEM lanes 32*(w%4)..32*(w%4)+31, so
///   row = 32*(warp%4) + lane,   col = (N/numWarps*4)*(warp/4) + reg
/// numWarps 4 or 8; with 8 warps the second warpgroup takes the right half
/// of the columns. Precondition: shape[0] == 128, N >= numWarps / 4.
LinearLayout tmemLoad32x32bLayout(llvm::ArrayRef<int64_t> shape,
                                  unsigned numWarps);

/// The tcgen05.ld/st message shapes (PTX ISA, "Matrix fragments for
/// tcgen05.ld/st"): per warp and repetition (.num), `lanes` TMEM lanes of
/// `bits` bits each.
enum class TMemMessage { M32x32b, M16x64b, M16x128b, M16x256b };
struct TMemMessageShape {
  int lanes;        ///< TMEM lanes one warp's message covers (16 or 32)
  int columns;      ///< 32-bit TMEM columns one repetition covers
  int regsPerRep;   ///< 32-bit registers per thread per repetition
  const char *name; ///< "32x32b", ...
};
TMemMessageShape tmemMessageShape(TMemMessage msg);
std::optional<TMemMessage> parseTMemMessage(llvm::StringRef name);

/// Why no tmemMessageLayout exists for these arguments, or "" if it does.
std::string tmemMessageLayoutError(TMemMessage msg,
                                   llvm::ArrayRef<int64_t> shape,
                                   unsigned numWarps, unsigned elemBits);

/// Registers of a [rows, N] tensor-memory buffer (rows 128, or 64: an
/// M = 64 accumulator, whose row r is in TMEM lane 32*(r/16) + r%16, the
/// lanes 0-15 of each warp's quarter) read or written with tcgen05.ld/st of
/// shape `msg`. The warp -> lane-quarter rule: warp w (of a warpgroup)
/// reaches TMEM lanes 32*(w%4)..+31 only, so warps 0-3 hold rows
/// (rows/4)*(w%4) + ...; with 8 warps the second warpgroup takes the right
/// half of the columns. Within a warp the lanes and the first registers
/// are the message's fragment (in rows and 32-bit columns); the next
/// register bits repeat it along the columns (.num), and for a 16-lane
/// shape of a 128-row buffer the last one is the warp's second 16 lanes.
/// 16-bit elements are two to a column (the lowest register bit). With
/// msg = M32x32b and 128 rows this is tmemLoad32x32bLayout.
/// Precondition: tmemMessageLayoutError(...) is "".
LinearLayout tmemMessageLayout(TMemMessage msg, llvm::ArrayRef<int64_t> shape,
                               unsigned numWarps, unsigned elemBits);

/// NVMMA-compatible (wgmma / TMA) shared-memory layout: "offset" (element
/// offset in the buffer) -> tensor coordinates dim0..dim{rank-1}.
/// Let inner = order[0] (contiguous dim), outer = order[1], E = elemBits/8
/// bytes, W = max(swizzleBytes, 16) bytes, w = W / E elements. Ignoring the
/// swizzle, the buffer is laid out as
///   [rest dims (order[rank-1] slowest .. order[2])][shape[inner]/w chunks]
///   [shape[outer] rows][w elements]
/// i.e. rows of W bytes; an inner dim wider than W is split into W-byte
/// column chunks, each a full block of all rows (as TMA boxes land).
/// The swizzle (CUTLASS Swizzle<B,4,3>, B = log2(swizzleBytes/16)) then
/// permutes byte addresses within each aligned 1024-byte group:
///   physical byte address P = A ^ ((A >> 3) & (((1 << B) - 1) << 4))
/// where A is the unswizzled byte address: 128B swizzle XORs bits [4:6] with
/// bits [7:9] (16-byte chunk in a 128-byte row ^= row % 8), 64B XORs [4:5]
/// with [7:8] (chunk ^= (row/2) % 4), 32B XORs [4] with [7]. The returned
/// map takes the PHYSICAL element offset P/E to coordinates. The swizzle is
/// purely address-based (as TMA and wgmma apply it to a 1024-byte aligned
/// buffer): with fewer than 8 rows, bits [7:9] are column-chunk or higher
/// bits and the XOR uses them. With a multiple of 8 rows this is the classic
///   chunk16(row, col) ^= (row / (128 / swizzleBytes)) % (swizzleBytes / 16).
/// Preconditions: elemBits in {8,16,32,64}, swizzleBytes in {0,32,64,128},
/// shape[inner] * E >= W (use largestSwizzleBytes), rank >= 1 (rank 1:
/// one row). The result is bijective.
LinearLayout sharedSwizzledLayout(llvm::ArrayRef<int64_t> shape,
                                  unsigned elemBits, unsigned swizzleBytes,
                                  llvm::ArrayRef<unsigned> order);

/// Largest of 128/64/32 bytes not exceeding the inner dim's row bytes
/// (shape[order[0]] * elemBits / 8), else 0.
unsigned largestSwizzleBytes(llvm::ArrayRef<int64_t> shape, unsigned elemBits,
                             llvm::ArrayRef<unsigned> order);

/// Default blocked parameters for a tensor of `shape` (what layout
/// assignment uses for loads/stores/elementwise): order = row-major
/// ({rank-1, ..., 0}) unless given; sizePerThread along order[0] is the
/// largest power of two <= min(16 bytes / elem, contiguity, shape[order[0]],
/// elements per thread if all threads were used), others 1; lanes go along
/// order[0] first, then the next dims; warps likewise after the lanes'
/// coverage. Lanes or warps left over (tensor smaller than the CTA) are put
/// on order[0] and broadcast. Valid for any power-of-two shape; prod of
/// threadsPerWarp == threadsPerWarp arg, prod of warpsPerCTA == numWarps.
BlockedParams defaultBlockedParams(llvm::ArrayRef<int64_t> shape,
                                   unsigned numWarps, unsigned elemBits,
                                   unsigned contiguity,
                                   unsigned threadsPerWarp = 32,
                                   llvm::ArrayRef<unsigned> order = {});

} // namespace txl

#endif // TXL_LAYOUT_LAYOUTCONSTRUCTORS_H
