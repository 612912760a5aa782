//===- DescLoadTiles.h - the shared tiles desc.load copies into -*- C++ -*-===//
//
// desc.load(offsets) is a synchronous TMA copy into a shared tile private to
// its call site, read back into registers (IRGen's siteBuffers). A wgmma
// operand that is such a read needs no second copy into shared memory: the
// wgmma can read the tile the TMA wrote (AssignLayouts), and a loop's
// copies can run ahead of their readers in a ring of stages
// (PipelineTMALoads). Both recognize the site here.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_DIALECT_TXLGPU_TRANSFORMS_DESCLOADTILES_H
#define TXL_DIALECT_TXLGPU_TRANSFORMS_DESCLOADTILES_H

#include "txl/Dialect/TXLGPU/IR/Dialect.h"

namespace mlir::txlgpu {

/// A desc.load call site: its one TMA copy (`sync`, no predicate or
/// multicast), the [1, ...] buffer array and mbarrier array made for it
/// alone, and the stage-0 views of both.
struct DescLoadSite {
  TMALoadOp copy;
  SmemAllocOp buffer;
  MemDescIndexOp tile;
  MBarAllocOp barriers;
  MemDescIndexOp barrier;
};

/// The site whose tile `tile` is, when it is one: the buffer has one
/// stage, its one view is `tile`, and the only op writing it is one sync
/// TMA copy whose barrier is private to that copy.
std::optional<DescLoadSite> matchDescLoadSite(Value tile);

/// For a 16-bit or K-major wgmma operand `v` (kDim: the operand's K
/// dimension, 1 for A, 0 for B): the shared tile it was read from, or a
/// transposed view of it made before `dot`, when the wgmma may read that
/// instead of a copy. `v` is smem_load(tile) of a desc.load site, possibly
/// transposed by a 2-D txl.trans; the copy runs before the read in the
/// read's block and `dot` is in that block (or nested in it), so the tile
/// is rewritten only after control leaves the region that contains the
/// dot and the wait that follows it. Null when not.
Value tileForWarpGroupDot(OpBuilder &b, Value v, unsigned kDim, Operation *dot);

} // namespace mlir::txlgpu

#endif
