//===- LayoutUtils.cpp - linear-layout view of txlgpu encodings -----------===//
#include "txl/Dialect/TXLGPU/IR/LayoutUtils.h"
#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Layout/LayoutConstructors.h"
#include "txl/Layout/LinearLayout.h"

using namespace mlir;
using namespace mlir::txlgpu;

static ::txl::BlockedParams paramsOf(BlockedEncodingAttr blocked) {
  ::txl::BlockedParams p;
  p.sizePerThread.assign(blocked.getSizePerThread().begin(),
                         blocked.getSizePerThread().end());
  p.threadsPerWarp.assign(blocked.getThreadsPerWarp().begin(),
                          blocked.getThreadsPerWarp().end());
  p.warpsPerCTA.assign(blocked.getWarpsPerCTA().begin(),
                       blocked.getWarpsPerCTA().end());
  p.order.assign(blocked.getOrder().begin(), blocked.getOrder().end());
  return p;
}

/// The linear layout of `encoding` for `shape`, if it is one we know.
static std::optional<::txl::LinearLayout> toLinearLayout(ArrayRef<int64_t> shape,
                                                         Attribute encoding) {
  if (!::txl::isPowerOf2Shape(shape))
    return std::nullopt;
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(encoding)) {
    if (blocked.getOrder().size() != shape.size())
      return std::nullopt;
    return ::txl::blockedToLinearLayout(shape, paramsOf(blocked));
  }
  if (auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(encoding)) {
    // mma.sync accumulators may carry a leading batch dim (batched dots).
    if (shape.size() != mma.getWarpsPerCTA().size() ||
        (shape.size() != 2 && !(shape.size() == 3 && mma.getVersion() == 2)))
      return std::nullopt;
    if (mma.getVersion() == 2)
      return ::txl::mmaV2AccumulatorLayout(shape, mma.getWarpsPerCTA());
    return ::txl::nvmmaAccumulatorLayout(shape, mma.getWarpsPerCTA(),
                                         mma.getInstrShape());
  }
  if (auto operand = dyn_cast_or_null<DotOperandEncodingAttr>(encoding)) {
    auto parent = dyn_cast<NvidiaMmaEncodingAttr>(operand.getParent());
    if (!parent || operand.getKWidth() == 0 ||
        shape.size() != parent.getWarpsPerCTA().size() ||
        (shape.size() != 2 && !(shape.size() == 3 && parent.getVersion() == 2)))
      return std::nullopt;
    unsigned elemBits = 32 / operand.getKWidth();
    if (parent.getVersion() == 2)
      return ::txl::mmaV2OperandLayout(shape, operand.getOpIdx(),
                                       parent.getWarpsPerCTA(), elemBits);
    if (operand.getOpIdx() == 0)
      return ::txl::wgmmaOperandALayout(shape, parent.getWarpsPerCTA(),
                                        elemBits);
    return std::nullopt; // wgmma reads B from shared memory only
  }
  if (auto message = dyn_cast_or_null<TMemMessageEncodingAttr>(encoding)) {
    std::optional<::txl::TMemMessage> msg = tmemMessageOf(message);
    if (!msg || !::txl::tmemMessageLayoutError(
                     *msg, shape, message.getNumWarps(), message.getElemBits())
                     .empty())
      return std::nullopt;
    return ::txl::tmemMessageLayout(*msg, shape, message.getNumWarps(),
                                    message.getElemBits());
  }
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding)) {
    std::optional<::txl::LinearLayout> failed;
    bool ok = true;
    Attribute parent = slice.getParent();
    auto ll = ::txl::sliceToLinearLayout(
        shape, slice.getDim(), [&](ArrayRef<int64_t> parentShape) {
          auto p = toLinearLayout(parentShape, parent);
          if (!p) {
            ok = false;
            return ::txl::LinearLayout::empty();
          }
          return *p;
        });
    if (!ok)
      return std::nullopt;
    return ll;
  }
  return std::nullopt;
}

std::optional<::txl::TMemMessage>
mlir::txlgpu::tmemMessageOf(TMemMessageEncodingAttr message) {
  return ::txl::parseTMemMessage(std::to_string(message.getLanes()) + "x" +
                                 std::to_string(message.getBits()) + "b");
}

TMemMessageEncodingAttr
mlir::txlgpu::getTMemMessageEncoding(MLIRContext *ctx, ::txl::TMemMessage msg,
                                     unsigned numWarps, unsigned elemBits) {
  ::txl::TMemMessageShape m = ::txl::tmemMessageShape(msg);
  return TMemMessageEncodingAttr::get(ctx, m.lanes, m.columns * 32, numWarps,
                                      elemBits);
}

std::optional<LayoutMap> mlir::txlgpu::getLayoutMap(RankedTensorType type) {
  auto ll = toLinearLayout(type.getShape(), type.getEncoding());
  if (!ll)
    return std::nullopt;
  LayoutMap map;
  map.shape.assign(type.getShape().begin(), type.getShape().end());
  auto basesOf = [&](StringRef inDim, std::vector<Coord> &out) {
    if (!ll->hasInDim(inDim))
      return;
    for (int bit = 0, e = ll->getInDimSizeLog2(inDim); bit < e; ++bit) {
      Coord c(type.getRank(), 0);
      for (unsigned d = 0; d < type.getRank(); ++d) {
        std::string name = ::txl::standardOutDimName(d);
        if (ll->hasOutDim(name))
          c[d] = ll->getBasis(inDim, bit, name);
      }
      out.push_back(c);
    }
  };
  basesOf(::txl::kDimRegister, map.regBases);
  basesOf(::txl::kDimLane, map.laneBases);
  basesOf(::txl::kDimWarp, map.warpBases);
  return map;
}

int mlir::txlgpu::getNumRegs(RankedTensorType type) {
  auto map = getLayoutMap(type);
  return map ? map->numRegs() : 1;
}

static Coord xorBases(const std::vector<Coord> &bases, int64_t id,
                      size_t rank) {
  Coord c(rank, 0);
  for (size_t bit = 0; bit < bases.size(); ++bit)
    if (id & (int64_t(1) << bit))
      for (size_t d = 0; d < rank; ++d)
        c[d] ^= bases[bit][d];
  return c;
}

Coord LayoutMap::regCoord(int r) const {
  return xorBases(regBases, r, shape.size());
}
Coord LayoutMap::laneCoord(int lane) const {
  return xorBases(laneBases, lane, shape.size());
}
Coord LayoutMap::warpCoord(int warp) const {
  return xorBases(warpBases, warp, shape.size());
}

static unsigned freeMask(const std::vector<Coord> &bases) {
  unsigned mask = 0;
  for (size_t bit = 0; bit < bases.size(); ++bit)
    if (llvm::all_of(bases[bit], [](int64_t v) { return v == 0; }))
      mask |= 1u << bit;
  return mask;
}

unsigned LayoutMap::laneFreeMask() const { return freeMask(laneBases); }
unsigned LayoutMap::warpFreeMask() const { return freeMask(warpBases); }

bool LayoutMap::isDuplicateReg(int r) const {
  // Register bits mapping to zero are replicas of the register without them.
  return (r & freeMask(regBases)) != 0;
}

std::optional<SmallVector<AxisBit>>
mlir::txlgpu::getAxisBits(const LayoutMap &map, unsigned axis) {
  int64_t n = map.shape[axis];
  if (!llvm::isPowerOf2_64(n))
    return std::nullopt;
  SmallVector<std::optional<AxisBit>> bits(llvm::Log2_64(n));
  auto add = [&](const std::vector<Coord> &bases, AxisBit::Kind kind) {
    for (auto [i, basis] : llvm::enumerate(bases)) {
      int64_t along = basis[axis];
      if (along == 0)
        continue;
      for (size_t d = 0; d < basis.size(); ++d)
        if (d != axis && basis[d] != 0)
          return false;
      if (!llvm::isPowerOf2_64(along) || along >= n)
        return false;
      auto &slot = bits[llvm::Log2_64(along)];
      if (slot)
        return false;
      slot = AxisBit{kind, unsigned(i)};
    }
    return true;
  };
  if (!add(map.regBases, AxisBit::Reg) || !add(map.laneBases, AxisBit::Lane) ||
      !add(map.warpBases, AxisBit::Warp))
    return std::nullopt;
  SmallVector<AxisBit> out;
  for (auto &slot : bits) {
    if (!slot)
      return std::nullopt;
    out.push_back(*slot);
  }
  return out;
}

int64_t LayoutMap::flatIndex(const Coord &c) const {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    flat = flat * shape[d] + c[d];
  return flat;
}

int LayoutMap::contiguousRegs(unsigned dim) const {
  // Register bit i must step dim by 2^i and nothing else.
  int n = 1;
  for (size_t bit = 0; bit < regBases.size(); ++bit) {
    for (size_t d = 0; d < shape.size(); ++d)
      if (regBases[bit][d] != (d == dim ? (int64_t(1) << bit) : 0))
        return n;
    n *= 2;
  }
  return n;
}

Attribute mlir::txlgpu::getBlockedLayout(MLIRContext *ctx,
                                         ArrayRef<int64_t> shape,
                                         unsigned vec, ArrayRef<unsigned> order,
                                         unsigned numWarps,
                                         unsigned threadsPerWarp) {
  // defaultBlockedParams caps the vector at 16 bytes of `elemBits`; passing
  // 8-bit elements lets `vec` (already capped by the caller) through.
  ::txl::BlockedParams p = ::txl::defaultBlockedParams(
      shape, numWarps, /*elemBits=*/8, vec, threadsPerWarp, order);
  return BlockedEncodingAttr::get(ctx, p.sizePerThread, p.threadsPerWarp,
                                  p.warpsPerCTA, p.order);
}

CoordMap mlir::txlgpu::identityCoordMap() {
  return [](const Coord &c) { return c; };
}

CoordMap mlir::txlgpu::reshapeCoordMap(ArrayRef<int64_t> srcShape,
                                       ArrayRef<int64_t> dstShape) {
  SmallVector<int64_t> s(srcShape), d(dstShape);
  return [s, d](const Coord &c) {
    int64_t flat = 0;
    for (size_t i = 0; i < s.size(); ++i)
      flat = flat * s[i] + c[i];
    Coord out(d.size(), 0);
    for (int i = int(d.size()) - 1; i >= 0; --i) {
      out[i] = flat % d[i];
      flat /= d[i];
    }
    return out;
  };
}

CoordMap mlir::txlgpu::transposeCoordMap(ArrayRef<int32_t> order) {
  SmallVector<int32_t> o(order);
  return [o](const Coord &c) {
    Coord out(o.size(), 0);
    for (size_t i = 0; i < o.size(); ++i)
      out[i] = c[o[i]];
    return out;
  };
}

std::optional<SmallVector<int>>
mlir::txlgpu::getRegisterRenaming(const LayoutMap &src, const LayoutMap &dst,
                                  const CoordMap &srcToDst) {
  auto flatDst = [&](const Coord &srcCoord) {
    return dst.flatIndex(srcToDst(srcCoord));
  };
  auto same = [&](const std::vector<Coord> &s, const std::vector<Coord> &d) {
    if (s.size() != d.size())
      return false;
    for (size_t i = 0; i < s.size(); ++i)
      if (flatDst(s[i]) != dst.flatIndex(d[i]))
        return false;
    return true;
  };
  if (!same(src.laneBases, dst.laneBases) ||
      !same(src.warpBases, dst.warpBases))
    return std::nullopt;
  llvm::DenseMap<int64_t, int> srcRegOf;
  for (int s = src.numRegs() - 1; s >= 0; --s)
    srcRegOf[flatDst(src.regCoord(s))] = s;
  SmallVector<int> mapping;
  for (int r = 0; r < dst.numRegs(); ++r) {
    auto it = srcRegOf.find(dst.flatIndex(dst.regCoord(r)));
    if (it == srcRegOf.end())
      return std::nullopt;
    mapping.push_back(it->second);
  }
  return mapping;
}

int64_t mlir::txlgpu::SharedOffsets::offsetOf(const Coord &c) const {
  int64_t offset = 0;
  for (auto [d, bits] : llvm::enumerate(bitOffset))
    for (auto [i, off] : llvm::enumerate(bits))
      if (c[d] >> i & 1)
        offset ^= off;
  return offset;
}

std::optional<SharedOffsets> mlir::txlgpu::getSharedOffsets(Type type) {
  auto desc = dyn_cast<MemDescType>(type);
  auto enc = desc ? dyn_cast<NVMMASharedEncodingAttr>(desc.getEncoding())
                  : NVMMASharedEncodingAttr();
  if (!enc)
    return std::nullopt;
  ArrayRef<int64_t> shape = desc.getShape();
  ArrayRef<unsigned> order = enc.getOrder();
  unsigned bits = enc.getElemBits(), swizzle = enc.getSwizzleBytes();
  // The constructor's preconditions, checked here so that bad IR gets an
  // error instead of a fatal failure.
  if (!::txl::isPowerOf2Shape(shape) || order.size() != shape.size() ||
      shape.empty() || (bits != 8 && bits != 16 && bits != 32 && bits != 64) ||
      (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128) ||
      llvm::any_of(order, [&](unsigned d) { return d >= shape.size(); }) ||
      (swizzle && shape[order[0]] * bits / 8 < swizzle))
    return std::nullopt;
  ::txl::LinearLayout inv =
      ::txl::sharedSwizzledLayout(shape, bits, swizzle, order).invert();
  SharedOffsets result;
  for (unsigned d = 0; d < shape.size(); ++d) {
    llvm::SmallVector<int64_t> perBit;
    for (int64_t i = 0; (int64_t(1) << i) < shape[d]; ++i) {
      SmallVector<::txl::LinearLayout::NamedIndex> ins;
      for (unsigned k = 0; k < shape.size(); ++k)
        ins.push_back({::txl::standardOutDimName(k),
                       k == d ? int32_t(1) << i : 0});
      perBit.push_back(inv.apply(ins)[0].second);
    }
    result.bitOffset.push_back(std::move(perBit));
  }
  return result;
}

std::optional<TMABoxes> mlir::txlgpu::getTMABoxes(ArrayRef<int64_t> shape,
                                                  unsigned elemBits,
                                                  unsigned swizzleBytes) {
  constexpr int64_t kMaxBoxDim = 256;
  size_t rank = shape.size();
  int64_t elemBytes = elemBits / 8;
  if (rank < 1 || rank > 5 || !::txl::isPowerOf2Shape(shape) ||
      (elemBytes != 1 && elemBytes != 2 && elemBytes != 4 && elemBytes != 8))
    return std::nullopt;
  int64_t cols = shape.back(), rows = rank > 1 ? shape[rank - 2] : 1;
  if (cols * elemBytes < 16 ||
      (swizzleBytes && cols * elemBytes < swizzleBytes))
    return std::nullopt;
  // One row of the layout (sharedSwizzledLayout): a swizzle span, 16 bytes
  // unswizzled; a 1-D tile is one contiguous row.
  int64_t width = rank == 1 ? std::min(cols, kMaxBoxDim)
                            : std::max<int64_t>(swizzleBytes, 16) / elemBytes;
  width = std::min(width, cols);
  int64_t chunks = cols / width;
  TMABoxes result;
  result.box.assign(rank, 1);
  result.box.back() = width;
  // Levels of the layout from fastest to slowest: rows, column chunks (a
  // box is one chunk wide), leading dimensions innermost first.
  bool open = true;
  auto span = [&](int64_t size) {
    int64_t b = open ? std::min(size, kMaxBoxDim) : 1;
    open &= b == size;
    return b;
  };
  if (rank > 1)
    result.box[rank - 2] = span(rows);
  open &= chunks == 1;
  for (size_t d = rank < 2 ? 0 : rank - 2; d-- > 0;)
    result.box[d] = span(shape[d]);
  // Every box position, the last dimension fastest.
  SmallVector<int64_t> count(rank), idx(rank, 0);
  result.numCopies = 1;
  for (size_t d = 0; d < rank; ++d) {
    count[d] = shape[d] / result.box[d];
    result.numCopies *= count[d];
  }
  while (result.numCopies <= TMABoxes::kMaxCopies) {
    TMABoxes::Copy copy;
    int64_t lead = 0;
    for (size_t d = 0; d < rank; ++d) {
      copy.at.push_back(idx[d] * result.box[d]);
      if (d + 2 < rank)
        lead = lead * shape[d] + copy.at[d];
    }
    int64_t row = rank > 1 ? copy.at[rank - 2] : 0;
    copy.byteOffset = ((lead * chunks + copy.at.back() / width) * rows + row) *
                      width * elemBytes;
    result.copies.push_back(std::move(copy));
    size_t d = rank;
    while (d-- > 0 && ++idx[d] == count[d])
      idx[d] = 0;
    if (d == size_t(-1))
      break;
  }
  return result;
}

unsigned mlir::txlgpu::getTMASwizzleBytes(ArrayRef<int64_t> shape,
                                          unsigned elemBits) {
  if (shape.size() < 2)
    return 0;
  SmallVector<unsigned> order;
  for (unsigned d = shape.size(); d-- > 0;)
    order.push_back(d);
  return ::txl::largestSwizzleBytes(shape, elemBits, order);
}

std::optional<TMABoxes> mlir::txlgpu::getTMABoxes(Type type) {
  auto desc = dyn_cast<MemDescType>(type);
  auto enc = desc
                 ? dyn_cast_or_null<NVMMASharedEncodingAttr>(desc.getEncoding())
                 : NVMMASharedEncodingAttr();
  if (!enc)
    return std::nullopt;
  ArrayRef<unsigned> order = enc.getOrder();
  size_t rank = desc.getShape().size();
  if (order.size() != rank)
    return std::nullopt;
  for (size_t i = 0; i < rank; ++i)
    if (order[i] != rank - 1 - i)
      return std::nullopt;
  if (rank == 1 && enc.getSwizzleBytes())
    return std::nullopt;
  return getTMABoxes(desc.getShape(), enc.getElemBits(), enc.getSwizzleBytes());
}

int64_t mlir::txlgpu::getSharedBytes(Type type) {
  auto desc = cast<MemDescType>(type);
  int64_t elems = 1;
  for (int64_t d : desc.getShape())
    elems *= d;
  return elems * std::max(1u, desc.getElementType().getIntOrFloatBitWidth() / 8);
}

int64_t mlir::txlgpu::getStageStride(Type type) {
  auto desc = cast<MemDescType>(type);
  if (isa_and_nonnull<BarrierEncodingAttr>(desc.getEncoding()))
    return 8;
  int64_t elems = 1;
  for (int64_t d : desc.getShape().drop_front())
    elems *= d;
  int64_t bytes =
      elems * std::max(1u, desc.getElementType().getIntOrFloatBitWidth() / 8);
  int64_t align = getTileAlignment(type);
  return (bytes + align - 1) / align * align;
}

int64_t mlir::txlgpu::getTileAlignment(Type type) {
  // A swizzled tile starts where its pattern repeats (the hardware swizzles
  // by address bits); any other tile needs TMA's 128 bytes at most.
  auto enc = dyn_cast_or_null<NVMMASharedEncodingAttr>(
      cast<MemDescType>(type).getEncoding());
  return enc && enc.getSwizzleBytes() ? 1024 : 128;
}

bool mlir::txlgpu::isBufferArray(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<SmemAllocOp, MBarAllocOp>(def))
    return true;
  // Matched by name: this library does not depend on arith or scf.
  StringRef name = def->getName().getStringRef();
  if (name == "arith.select")
    return isBufferArray(def->getOperand(1));
  if (name == "scf.if" && !def->getRegion(0).empty())
    return isBufferArray(def->getRegion(0).front().getTerminator()->getOperand(
        cast<OpResult>(v).getResultNumber()));
  return false;
}
