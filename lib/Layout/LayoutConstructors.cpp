//===- LayoutConstructors.cpp - Linear layouts of named layouts -----------===//

#include "txl/Layout/LayoutConstructors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>

using namespace txl;
using llvm::ArrayRef;
using llvm::StringRef;

namespace {

[[noreturn]] void fail(const llvm::Twine &msg) {
  llvm::report_fatal_error("txl layout constructor: " + msg);
}

void requirePowerOf2Shape(ArrayRef<int64_t> shape, StringRef who) {
  if (!isPowerOf2Shape(shape))
    fail(who + ": shape sizes must be powers of two");
  for (int64_t s : shape)
    if (s > (int64_t(1) << 30))
      fail(who + ": dim larger than 2^30");
}

std::vector<std::string> standardNames(size_t rank) {
  return standardOutDimNames(rank);
}

std::vector<int64_t> toShape(ArrayRef<unsigned> v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

// The four register/lane/warp ins in canonical order, adding empty ones.
LinearLayout withDistributedIns(const LinearLayout &ll) {
  LinearLayout full = ll;
  for (StringRef dim : {kDimRegister, kDimLane, kDimWarp})
    if (!full.hasInDim(dim))
      full *= LinearLayout::identity1D(1, dim, standardOutDimName(0));
  return full.transposeIns(
      {kDimRegister.str(), kDimLane.str(), kDimWarp.str()});
}

} // namespace

bool txl::isPowerOf2Shape(ArrayRef<int64_t> shape) {
  return llvm::all_of(
      shape, [](int64_t s) { return s >= 1 && llvm::isPowerOf2_64(s); });
}

std::string txl::verifyBlockedParams(const BlockedParams &p, unsigned rank) {
  if (p.sizePerThread.size() != rank || p.threadsPerWarp.size() != rank ||
      p.warpsPerCTA.size() != rank || p.order.size() != rank)
    return "blocked layout parameters must each have " + std::to_string(rank) +
           " entries (the tensor rank)";
  for (auto list : {&p.sizePerThread, &p.threadsPerWarp, &p.warpsPerCTA})
    for (unsigned v : *list)
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return "blocked layout sizes must be powers of two";
  llvm::SmallVector<unsigned> sorted(p.order);
  llvm::sort(sorted);
  for (unsigned i = 0; i < rank; ++i)
    if (sorted[i] != i)
      return "blocked layout order must be a permutation of 0.." +
             std::to_string(rank - 1);
  return "";
}

LinearLayout txl::identityStandardND(StringRef inDim, ArrayRef<int64_t> shape,
                                     ArrayRef<unsigned> order) {
  requirePowerOf2Shape(shape, "identityStandardND");
  if (order.size() != shape.size())
    fail("identityStandardND: order and shape ranks differ");
  LinearLayout ll;
  for (unsigned d : order) {
    if (d >= shape.size())
      fail("identityStandardND: order entry out of range");
    ll *= LinearLayout::identity1D(shape[d], inDim, standardOutDimName(d));
  }
  if (!ll.hasInDim(inDim)) // rank 0
    ll *= LinearLayout::identity1D(1, inDim, standardOutDimName(0));
  return ll.transposeOuts(standardNames(shape.size()));
}

LinearLayout txl::fitToShape(const LinearLayout &tile, ArrayRef<int64_t> shape,
                             ArrayRef<unsigned> repOrder) {
  requirePowerOf2Shape(shape, "fitToShape");
  if (tile.getNumOutDims() != shape.size() || repOrder.size() != shape.size())
    fail("fitToShape: rank mismatch");
  LinearLayout ll = tile;
  for (unsigned d : repOrder) {
    std::string name = standardOutDimName(d);
    int64_t tileSize = ll.getOutDimSize(name);
    if (tileSize < shape[d])
      ll *= LinearLayout::identity1D(shape[d] / tileSize, kDimRegister, name);
    else if (tileSize > shape[d])
      ll = ll.resizeOutDim(name, shape[d]);
  }
  return ll.transposeOuts(standardNames(shape.size()));
}

LinearLayout txl::blockedToLinearLayout(ArrayRef<int64_t> shape,
                                        const BlockedParams &params) {
  std::string err = verifyBlockedParams(params, shape.size());
  if (!err.empty())
    fail("blockedToLinearLayout: " + err);
  requirePowerOf2Shape(shape, "blockedToLinearLayout");
  const auto &order = params.order;
  LinearLayout tile =
      identityStandardND(kDimRegister, toShape(params.sizePerThread), order) *
      identityStandardND(kDimLane, toShape(params.threadsPerWarp), order) *
      identityStandardND(kDimWarp, toShape(params.warpsPerCTA), order);
  return withDistributedIns(fitToShape(tile, shape, order));
}

LinearLayout txl::blockedToLinearLayout(ArrayRef<int64_t> shape,
                                        ArrayRef<unsigned> sizePerThread,
                                        ArrayRef<unsigned> threadsPerWarp,
                                        ArrayRef<unsigned> warpsPerCTA,
                                        ArrayRef<unsigned> order) {
  BlockedParams p{{sizePerThread.begin(), sizePerThread.end()},
                  {threadsPerWarp.begin(), threadsPerWarp.end()},
                  {warpsPerCTA.begin(), warpsPerCTA.end()},
                  {order.begin(), order.end()}};
  return blockedToLinearLayout(shape, p);
}

LinearLayout txl::sliceLinearLayout(const LinearLayout &parent, unsigned dim) {
  // An empty parent is how callers signal "unknown parent": pass it through.
  if (parent == LinearLayout::empty())
    return parent;
  unsigned rank = parent.getNumOutDims();
  if (dim >= rank)
    fail("sliceLinearLayout: dim out of range");
  std::vector<std::string> keep;
  LinearLayout::OutDimsT renamed;
  for (unsigned d = 0, j = 0; d < rank; ++d) {
    if (d == dim)
      continue;
    std::string name = standardOutDimName(d);
    keep.push_back(name);
    renamed.emplace_back(standardOutDimName(j++), parent.getOutDimSize(name));
  }
  std::vector<std::string> ins;
  for (StringRef in : parent.getInDimNames())
    ins.push_back(in.str());
  LinearLayout sub = parent.sublayout(ins, keep);
  LinearLayout sliced(sub.getBases(), renamed, false);
  if (sliced.hasInDim(kDimRegister))
    sliced = sliced.removeZeroBasesAlongDim(kDimRegister);
  return sliced;
}

LinearLayout txl::sliceToLinearLayout(
    ArrayRef<int64_t> shape, unsigned dim,
    llvm::function_ref<LinearLayout(ArrayRef<int64_t>)> parentToLinearLayout) {
  if (dim > shape.size())
    fail("sliceToLinearLayout: dim out of range");
  std::vector<int64_t> parentShape(shape.begin(), shape.end());
  parentShape.insert(parentShape.begin() + dim, 1);
  return sliceLinearLayout(parentToLinearLayout(parentShape), dim);
}

LinearLayout txl::sliceToLinearLayout(ArrayRef<int64_t> shape, unsigned dim,
                                      const BlockedParams &parent) {
  return sliceToLinearLayout(shape, dim, [&](ArrayRef<int64_t> parentShape) {
    return blockedToLinearLayout(parentShape, parent);
  });
}

//===----------------------------------------------------------------------===//
// Tensor-core accumulators
//===----------------------------------------------------------------------===//

namespace {

// The per-warp 16 x n accumulator tile shared by mma.sync (n = 8) and wgmma
// (n = instruction N): reg bit 0 -> col+1, reg bit 1 -> row+8, further reg
// bits -> next 8-column groups; lanes: bits 0-1 -> col pair, bits 2-4 -> row.
LinearLayout warpAccumulatorTile(int32_t n) {
  std::vector<LinearLayout::Basis> reg = {{0, 1}, {8, 0}};
  for (int32_t c = 8; c < n; c *= 2)
    reg.push_back({0, c});
  std::vector<LinearLayout::Basis> lane = {
      {0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  return LinearLayout({{kDimRegister.str(), reg}, {kDimLane.str(), lane}},
                      {{"dim0", 16}, {"dim1", n}}, /*requireSurjective=*/true);
}

// A rank-2 per-warp tile as a rank-3 one whose leading (batch) dim has size
// 1: every basis gets a 0 batch coordinate in front.
LinearLayout withBatchDim(const LinearLayout &tile) {
  LinearLayout::BasesT bases;
  for (const auto &[inDim, vectors] : tile.getBases()) {
    std::vector<LinearLayout::Basis> shifted;
    for (const LinearLayout::Basis &v : vectors) {
      LinearLayout::Basis b = {0};
      b.insert(b.end(), v.begin(), v.end());
      shifted.push_back(b);
    }
    bases.emplace_back(inDim, shifted);
  }
  LinearLayout::OutDimsT outs = {{"dim0", 1},
                                 {"dim1", tile.getOutDimSize("dim0")},
                                 {"dim2", tile.getOutDimSize("dim1")}};
  return LinearLayout(bases, outs, /*requireSurjective=*/true);
}

// Rank 2 [M, N] or rank 3 [B, M, N] (a batched dot: the batch is one more
// warp dim, slowest, and then repeats in registers, after N and M).
void checkDotRank(ArrayRef<int64_t> shape, ArrayRef<unsigned> warpsPerCTA,
                  StringRef who) {
  if ((shape.size() != 2 && shape.size() != 3) ||
      warpsPerCTA.size() != shape.size())
    fail(who + ": only rank-2 and rank-3 (batched) tensors are supported");
  requirePowerOf2Shape(shape, who);
  requirePowerOf2Shape(toShape(warpsPerCTA), who);
}

// The dims of a rank-`rank` dot tensor, innermost first: {1, 0} or
// {2, 1, 0}.
std::vector<unsigned> innerFirst(size_t rank) {
  return rank == 3 ? std::vector<unsigned>{2, 1, 0}
                   : std::vector<unsigned>{1, 0};
}

LinearLayout accumulatorLayout(ArrayRef<int64_t> shape,
                               ArrayRef<unsigned> warpsPerCTA,
                               ArrayRef<unsigned> warpOrder, int32_t n,
                               StringRef who) {
  checkDotRank(shape, warpsPerCTA, who);
  if (warpOrder.size() != shape.size())
    fail(who + ": warp order and shape ranks differ");
  LinearLayout tile = warpAccumulatorTile(n);
  if (shape.size() == 3)
    tile = withBatchDim(tile);
  tile *= identityStandardND(kDimWarp, toShape(warpsPerCTA), warpOrder);
  return withDistributedIns(fitToShape(tile, shape, innerFirst(shape.size())));
}

} // namespace

LinearLayout txl::nvmmaAccumulatorLayout(ArrayRef<int64_t> shape,
                                         ArrayRef<unsigned> warpsPerCTA,
                                         ArrayRef<unsigned> instrShape) {
  if (instrShape.size() < 2 || instrShape[0] != 16)
    fail("nvmmaAccumulatorLayout: instrShape must be {16, N[, K]} per warp");
  unsigned n = instrShape[1];
  if (n < 8 || n > 256 || !llvm::isPowerOf2_32(n))
    fail("nvmmaAccumulatorLayout: N must be a power of two in [8, 256]");
  // Warps stack along M first: a warpgroup's 4 warps cover 64 rows.
  if (shape.size() != 2)
    fail("nvmmaAccumulatorLayout: wgmma accumulators are rank 2");
  return accumulatorLayout(shape, warpsPerCTA, {0, 1}, n,
                           "nvmmaAccumulatorLayout");
}

LinearLayout txl::mmaV2AccumulatorLayout(ArrayRef<int64_t> shape,
                                         ArrayRef<unsigned> warpsPerCTA) {
  return accumulatorLayout(shape, warpsPerCTA, innerFirst(shape.size()), 8,
                           "mmaV2AccumulatorLayout");
}

namespace {

// One warp's register-operand fragment, A [16, 8kw] or B [8kw, 8], with
// kw = 32 / elemBits (see the header for the formulas).
LinearLayout warpOperandTile(unsigned opIdx, unsigned elemBits, StringRef who) {
  if (elemBits != 8 && elemBits != 16 && elemBits != 32)
    fail(who + ": elemBits must be 8, 16 or 32");
  int32_t kw = 32 / elemBits;
  // Basis along K (k) or along the non-K dim (mn), in A's (row, col) order.
  auto at = [&](int32_t mn, int32_t k) {
    return opIdx == 0 ? LinearLayout::Basis{mn, k} : LinearLayout::Basis{k, mn};
  };
  std::vector<LinearLayout::Basis> reg, lane;
  for (int32_t k = 1; k < kw; k *= 2)
    reg.push_back(at(0, k));
  if (opIdx == 0)
    reg.push_back(at(8, 0));
  reg.push_back(at(0, 4 * kw));
  lane = {at(0, kw), at(0, 2 * kw), at(1, 0), at(2, 0), at(4, 0)};
  int32_t mnSize = opIdx == 0 ? 16 : 8, kSize = 8 * kw;
  LinearLayout::OutDimsT outs =
      opIdx == 0 ? LinearLayout::OutDimsT{{"dim0", mnSize}, {"dim1", kSize}}
                 : LinearLayout::OutDimsT{{"dim0", kSize}, {"dim1", mnSize}};
  return LinearLayout({{kDimRegister.str(), reg}, {kDimLane.str(), lane}}, outs,
                      /*requireSurjective=*/true);
}

// Warps of an [wm, wn] grid in `warpOrder`; those along `broadcastDim`
// hold copies (zero bases), the others step by the tile size.
LinearLayout operandWarps(ArrayRef<unsigned> warpsPerCTA,
                          ArrayRef<unsigned> warpOrder, unsigned broadcastDim) {
  LinearLayout warps;
  for (unsigned d : warpOrder) {
    std::string name = standardOutDimName(d);
    warps *= d == broadcastDim
                 ? LinearLayout::zeros1D(warpsPerCTA[d], kDimWarp, name)
                 : LinearLayout::identity1D(warpsPerCTA[d], kDimWarp, name);
  }
  return warps;
}

void checkRank2(ArrayRef<int64_t> shape, ArrayRef<unsigned> warpsPerCTA,
                StringRef who) {
  if (shape.size() != 2 || warpsPerCTA.size() != 2)
    fail(who + ": only rank-2 tensors are supported");
  requirePowerOf2Shape(shape, who);
  requirePowerOf2Shape(toShape(warpsPerCTA), who);
}

} // namespace

LinearLayout txl::mmaV2OperandLayout(ArrayRef<int64_t> shape, unsigned opIdx,
                                     ArrayRef<unsigned> warpsPerCTA,
                                     unsigned elemBits) {
  StringRef who = "mmaV2OperandLayout";
  checkDotRank(shape, warpsPerCTA, who);
  if (opIdx > 1)
    fail(who + ": opIdx must be 0 or 1");
  // A is shared by warps along N (the accumulator's last dim), B by warps
  // along M; the operand's K dim is its last dim for A, the one before for
  // B. A leading batch dim is distributed like the accumulator's.
  unsigned batch = shape.size() - 2;
  LinearLayout tile = warpOperandTile(opIdx, elemBits, who);
  if (batch)
    tile = withBatchDim(tile);
  unsigned kDim = batch + (opIdx == 0 ? 1 : 0);
  unsigned mnDim = batch + (opIdx == 0 ? 0 : 1);
  // The warps along the accumulator dim this operand lacks sit at the
  // operand's K dim, with zero bases.
  LinearLayout warps = operandWarps(warpsPerCTA, innerFirst(shape.size()),
                                    /*broadcastDim=*/kDim);
  std::vector<unsigned> repOrder = {kDim, mnDim};
  if (batch)
    repOrder.push_back(0);
  return withDistributedIns(fitToShape(tile * warps, shape, repOrder));
}

LinearLayout txl::wgmmaOperandALayout(ArrayRef<int64_t> shape,
                                      ArrayRef<unsigned> warpsPerCTA,
                                      unsigned elemBits) {
  StringRef who = "wgmmaOperandALayout";
  checkRank2(shape, warpsPerCTA, who);
  LinearLayout tile = warpOperandTile(0, elemBits, who);
  LinearLayout warps = operandWarps(warpsPerCTA, {0, 1}, /*broadcastDim=*/1);
  return withDistributedIns(fitToShape(tile * warps, shape, {1, 0}));
}

std::vector<int32_t> txl::wgmmaAccToOperandAColumns(unsigned elemBits) {
  StringRef who = "wgmmaAccToOperandAColumns";
  if (elemBits != 8 && elemBits != 16)
    fail(who + ": elemBits must be 8 or 16");
  int32_t group = 8 * (32 / int32_t(elemBits));
  // One warp's [16, group] tile in both layouts (lane bases as the input
  // after the registers).
  LinearLayout acc =
      nvmmaAccumulatorLayout({16, group}, {1, 1}, {16, unsigned(group)});
  LinearLayout a = wgmmaOperandALayout({16, group}, {1, 1}, elemBits);
  int32_t regs = acc.getInDimSize(kDimRegister);
  if (a.getInDimSize(kDimRegister) != regs)
    fail(who + ": the layouts hold different numbers of registers");
  std::vector<int32_t> result(group, -1);
  auto coord = [](const LinearLayout &ll, int32_t reg, int32_t lane) {
    int32_t row = 0, col = 0;
    for (auto &[dim, value] : ll.apply({{kDimRegister.str(), reg},
                                        {kDimLane.str(), lane},
                                        {kDimWarp.str(), 0}}))
      (dim == standardOutDimName(0) ? row : col) = value;
    return std::make_pair(row, col);
  };
  for (int32_t lane = 0; lane < 32; ++lane) {
    // Per row, the thread's columns in register order, in both layouts.
    std::map<int32_t, std::vector<int32_t>> accCols, aCols;
    for (int32_t r = 0; r < regs; ++r) {
      auto [accRow, accCol] = coord(acc, r, lane);
      auto [aRow, aCol] = coord(a, r, lane);
      accCols[accRow].push_back(accCol);
      aCols[aRow].push_back(aCol);
    }
    if (accCols.size() != aCols.size())
      fail(who + ": a thread holds different rows in the two layouts");
    for (auto &[row, cols] : aCols) {
      const std::vector<int32_t> &from = accCols[row];
      if (from.size() != cols.size())
        fail(who + ": a thread holds rows unevenly in the two layouts");
      for (size_t i = 0; i < cols.size(); ++i) {
        if (result[cols[i]] != -1 && result[cols[i]] != from[i])
          fail(who + ": the pairing differs between threads");
        result[cols[i]] = from[i];
      }
    }
  }
  return result;
}

LinearLayout txl::tmemLoad32x32bLayout(ArrayRef<int64_t> shape,
                                       unsigned numWarps) {
  StringRef who = "tmemLoad32x32bLayout";
  requirePowerOf2Shape(shape, who);
  if (shape.size() != 2 || shape[0] != 128)
    fail(who + ": the tensor must be [128, N]");
  if (numWarps != 4 && numWarps != 8)
    fail(who + ": numWarps must be 4 or 8");
  int64_t warpgroups = numWarps / 4;
  if (shape[1] < warpgroups)
    fail(who + ": N smaller than the number of warpgroups");
  int32_t colsPerThread = int32_t(shape[1] / warpgroups);
  LinearLayout ll =
      LinearLayout::identity1D(colsPerThread, kDimRegister, "dim1") *
      LinearLayout::identity1D(32, kDimLane, "dim0") *
      LinearLayout::identity1D(4, kDimWarp, "dim0") *
      LinearLayout::identity1D(int32_t(warpgroups), kDimWarp, "dim1");
  return ll.transposeOuts({"dim0", "dim1"});
}

TMemMessageShape txl::tmemMessageShape(TMemMessage msg) {
  switch (msg) {
  case TMemMessage::M32x32b:
    return {32, 1, 1, "32x32b"};
  case TMemMessage::M16x64b:
    return {16, 2, 1, "16x64b"};
  case TMemMessage::M16x128b:
    return {16, 4, 2, "16x128b"};
  case TMemMessage::M16x256b:
    return {16, 8, 4, "16x256b"};
  }
  return {32, 1, 1, "32x32b"};
}

std::optional<TMemMessage> txl::parseTMemMessage(StringRef name) {
  for (TMemMessage msg : {TMemMessage::M32x32b, TMemMessage::M16x64b,
                          TMemMessage::M16x128b, TMemMessage::M16x256b})
    if (name == tmemMessageShape(msg).name)
      return msg;
  return std::nullopt;
}

std::string txl::tmemMessageLayoutError(TMemMessage msg,
                                        ArrayRef<int64_t> shape,
                                        unsigned numWarps, unsigned elemBits) {
  TMemMessageShape m = tmemMessageShape(msg);
  if (shape.size() != 2 || (shape[0] != 128 && shape[0] != 64) ||
      !isPowerOf2Shape(shape))
    return "the buffer must be [128, N] or [64, N] (N a power of two)";
  if (numWarps != 4 && numWarps != 8)
    return "tensor memory is read and written by whole warpgroups "
           "(num_warps 4 or 8)";
  if (elemBits != 32 && elemBits != 16)
    return "tensor memory holds 32- or 16-bit elements";
  if (shape[0] == 64 && m.lanes == 32)
    return std::string(m.name) +
           " moves 32 TMEM lanes per warp, but a 64-row buffer has 16 "
           "lanes in each warp's quarter (use 16x64b, 16x128b or 16x256b)";
  int64_t groupColumns = shape[1] / (numWarps / 4) * elemBits / 32;
  if (groupColumns < m.columns)
    return std::string(m.name) + " moves " + std::to_string(m.columns) +
           " 32-bit columns per warp, more than the " +
           std::to_string(groupColumns) + " each warpgroup holds";
  return "";
}

LinearLayout txl::tmemMessageLayout(TMemMessage msg, ArrayRef<int64_t> shape,
                                    unsigned numWarps, unsigned elemBits) {
  std::string error = tmemMessageLayoutError(msg, shape, numWarps, elemBits);
  if (!error.empty())
    fail("tmemMessageLayout: " + error);
  TMemMessageShape m = tmemMessageShape(msg);
  int32_t rows = int32_t(shape[0]), cols = int32_t(shape[1]);
  int32_t perColumn = int32_t(32 / elemBits); // elements per 32-bit column
  int32_t groupCols = cols / int32_t(numWarps / 4);
  using Basis = LinearLayout::Basis;
  auto row = [](int32_t r) { return Basis{r, 0}; };
  auto column = [&](int32_t c) { return Basis{0, c * perColumn}; };
  std::vector<Basis> reg, lane, warp;
  if (perColumn == 2)
    reg.push_back({0, 1});
  // The message's fragment (PTX ISA figures; rows are the warp's 16 or 32
  // lanes, columns 32-bit).
  switch (msg) {
  case TMemMessage::M32x32b:
    lane = {row(1), row(2), row(4), row(8), row(16)};
    break;
  case TMemMessage::M16x64b:
    lane = {row(8), column(1), row(1), row(2), row(4)};
    break;
  case TMemMessage::M16x128b:
    lane = {column(1), column(2), row(1), row(2), row(4)};
    reg.push_back(row(8));
    break;
  case TMemMessage::M16x256b:
    reg.push_back(column(1));
    lane = {column(2), column(4), row(1), row(2), row(4)};
    reg.push_back(row(8));
    break;
  }
  for (int32_t c = m.columns; c * perColumn < groupCols; c *= 2)
    reg.push_back(column(c)); // repetitions (.num)
  if (m.lanes == 16 && rows == 128)
    reg.push_back(row(16)); // the second 16 lanes of the warp's quarter
  warp = {row(rows / 4), row(rows / 2)};
  if (numWarps == 8)
    warp.push_back({0, groupCols});
  return LinearLayout({{std::string(kDimRegister), reg},
                       {std::string(kDimLane), lane},
                       {std::string(kDimWarp), warp}},
                      {{"dim0", rows}, {"dim1", cols}},
                      /*requireSurjective=*/true);
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

unsigned txl::largestSwizzleBytes(ArrayRef<int64_t> shape, unsigned elemBits,
                                  ArrayRef<unsigned> order) {
  if (shape.empty() || order.empty() || order[0] >= shape.size())
    return 0;
  int64_t rowBytes = shape[order[0]] * elemBits / 8;
  for (unsigned s : {128u, 64u, 32u})
    if (rowBytes >= s)
      return s;
  return 0;
}

namespace {

// Coordinates of logical (unswizzled) element-offset bits, low bit first:
// columns within a row, rows, column chunks, then the remaining dims.
std::vector<LinearLayout::Basis> logicalOffsetBases(ArrayRef<int64_t> shape,
                                                    ArrayRef<unsigned> order,
                                                    int64_t rowElems) {
  size_t rank = shape.size();
  unsigned inner = order[0];
  auto unit = [&](unsigned d, int64_t v) {
    LinearLayout::Basis b(rank, 0);
    b[d] = int32_t(v);
    return b;
  };
  std::vector<LinearLayout::Basis> bases;
  for (int64_t c = 1; c < rowElems; c *= 2)
    bases.push_back(unit(inner, c));
  if (rank > 1)
    for (int64_t r = 1; r < shape[order[1]]; r *= 2)
      bases.push_back(unit(order[1], r));
  for (int64_t c = rowElems; c < shape[inner]; c *= 2)
    bases.push_back(unit(inner, c));
  for (size_t i = 2; i < rank; ++i)
    for (int64_t v = 1; v < shape[order[i]]; v *= 2)
      bases.push_back(unit(order[i], v));
  return bases;
}

} // namespace

LinearLayout txl::sharedSwizzledLayout(ArrayRef<int64_t> shape,
                                       unsigned elemBits, unsigned swizzleBytes,
                                       ArrayRef<unsigned> order) {
  requirePowerOf2Shape(shape, "sharedSwizzledLayout");
  if (shape.empty() || order.size() != shape.size())
    fail("sharedSwizzledLayout: order and shape ranks differ");
  if (elemBits != 8 && elemBits != 16 && elemBits != 32 && elemBits != 64)
    fail("sharedSwizzledLayout: elemBits must be 8, 16, 32 or 64");
  if (swizzleBytes != 0 && swizzleBytes != 32 && swizzleBytes != 64 &&
      swizzleBytes != 128)
    fail("sharedSwizzledLayout: swizzle must be 0, 32, 64 or 128 bytes");
  int64_t elemBytes = elemBits / 8;
  int64_t innerSize = shape[order[0]];
  int64_t rowElems = std::max<int64_t>(swizzleBytes, 16) / elemBytes;
  if (swizzleBytes == 0)
    rowElems = std::min(rowElems, innerSize);
  else if (innerSize < rowElems)
    fail("sharedSwizzledLayout: inner dim narrower than the swizzle width");

  std::vector<LinearLayout::Basis> logical =
      logicalOffsetBases(shape, order, rowElems);
  uint64_t swizzleMask =
      swizzleBytes ? ((uint64_t(swizzleBytes) / 16 - 1) << 4) : 0;
  // Physical offset bit -> logical offset (the swizzle is an involution on
  // byte addresses) -> coordinates (XOR of the logical bits' coordinates).
  std::vector<LinearLayout::Basis> physical;
  for (size_t b = 0; b < logical.size(); ++b) {
    uint64_t byteAddr = (uint64_t(1) << b) * elemBytes;
    uint64_t logicalElem =
        (byteAddr ^ ((byteAddr >> 3) & swizzleMask)) / elemBytes;
    LinearLayout::Basis coords(shape.size(), 0);
    for (size_t j = 0; j < logical.size(); ++j)
      if (logicalElem >> j & 1)
        for (size_t k = 0; k < coords.size(); ++k)
          coords[k] ^= logical[j][k];
    physical.push_back(std::move(coords));
  }
  LinearLayout::OutDimsT outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.emplace_back(standardOutDimName(d), int32_t(shape[d]));
  return LinearLayout({{kDimOffset.str(), std::move(physical)}}, outs,
                      /*requireSurjective=*/true);
}

//===----------------------------------------------------------------------===//
// Default blocked parameters
//===----------------------------------------------------------------------===//

namespace {
unsigned floorPow2(int64_t v) {
  return v <= 1 ? 1u : unsigned(llvm::bit_floor(uint64_t(v)));
}
} // namespace

BlockedParams txl::defaultBlockedParams(ArrayRef<int64_t> shape,
                                        unsigned numWarps, unsigned elemBits,
                                        unsigned contiguity,
                                        unsigned threadsPerWarp,
                                        ArrayRef<unsigned> orderIn) {
  requirePowerOf2Shape(shape, "defaultBlockedParams");
  if (!llvm::isPowerOf2_32(numWarps) || !llvm::isPowerOf2_32(threadsPerWarp))
    fail("defaultBlockedParams: warps and threads must be powers of two");
  size_t rank = shape.size();
  BlockedParams p;
  if (orderIn.empty())
    for (size_t i = 0; i < rank; ++i)
      p.order.push_back(rank - 1 - i);
  else
    p.order.assign(orderIn.begin(), orderIn.end());
  p.sizePerThread.assign(rank, 1);
  p.threadsPerWarp.assign(rank, 1);
  p.warpsPerCTA.assign(rank, 1);
  std::string err = verifyBlockedParams(p, rank);
  if (!err.empty())
    fail("defaultBlockedParams: " + err);
  if (rank == 0)
    return p;
  unsigned fast = p.order[0];

  int64_t total = 1;
  for (int64_t s : shape)
    total *= s;
  int64_t perThreadIfAllBusy = total / (int64_t(numWarps) * threadsPerWarp);
  int64_t vec = std::max<int64_t>(1, 128 / std::max(1u, elemBits));
  vec = std::min<int64_t>({vec, std::max(1u, contiguity), shape[fast],
                           std::max<int64_t>(1, perThreadIfAllBusy)});
  p.sizePerThread[fast] = floorPow2(vec);

  // Lanes fill the fastest dim first (coalescing), then the next ones.
  unsigned lanesLeft = threadsPerWarp;
  for (unsigned d : p.order) {
    int64_t room = std::max<int64_t>(1, shape[d] / p.sizePerThread[d]);
    p.threadsPerWarp[d] = unsigned(std::min<int64_t>(lanesLeft, room));
    lanesLeft /= p.threadsPerWarp[d];
  }
  p.threadsPerWarp[fast] *= lanesLeft; // tensor too small: lanes broadcast

  unsigned warpsLeft = numWarps;
  for (unsigned d : p.order) {
    int64_t covered = int64_t(p.sizePerThread[d]) * p.threadsPerWarp[d];
    int64_t room = std::max<int64_t>(1, shape[d] / covered);
    p.warpsPerCTA[d] = unsigned(std::min<int64_t>(warpsLeft, room));
    warpsLeft /= p.warpsPerCTA[d];
  }
  p.warpsPerCTA[fast] *= warpsLeft; // tensor too small: warps broadcast
  return p;
}
