//===- AssignSharedLayouts.cpp - encodings of explicit shared buffers -----===//
//
// txl.smem_alloc buffers come from the front end without a layout. A buffer
// that TMA or wgmma touches (directly or through get_buffer / views) gets
// the NVMMA layout with the widest swizzle its rows allow, row-major: the
// same choice the host-side TMA descriptor is encoded with, so writer and
// reader agree by construction. Other buffers get the unswizzled variant.
// Views (transposes, slices) then derive their encodings from their source.
// Finally every tensordesc kernel argument is annotated with the swizzle of
// the buffers it fills and the TMA box that swizzle allows: the launch
// metadata the host encodes the CUtensorMap from. A descriptor the kernel
// makes itself (tl.make_tensor_descriptor) gets the same annotation, which
// its lowering writes into the map it builds. Last, every TMA copy is
// checked against each descriptor it may use at run time: a swizzle or box
// that disagrees with the buffer is an error, never permuted data.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/IR/LayoutUtils.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Layout/LayoutConstructors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_ASSIGNSHAREDLAYOUTS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

/// The values that choose between `v` and other buffers: an arith.select
/// with `v` as an alternative (`buf = a if c else b`), or the result of an
/// scf.if whose branch yields `v` (`buf` assigned in both branches).
SmallVector<Value> choicesOf(Value v) {
  SmallVector<Value> choices;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (auto select = dyn_cast<arith::SelectOp>(user)) {
      if (use.getOperandNumber() > 0)
        choices.push_back(select.getResult());
    } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      if (auto ifOp = dyn_cast<scf::IfOp>(yield->getParentOp()))
        choices.push_back(ifOp.getResult(use.getOperandNumber()));
    }
  }
  return choices;
}

/// Whether a use of `v` (or of a view or stage of it, or of a choice
/// between it and other buffers) is an op of `Ops`.
template <typename... Ops> bool usedBy(Value v) {
  for (Operation *user : v.getUsers()) {
    if (isa<Ops...>(user))
      return true;
    if (isa<MemDescIndexOp, MemDescViewOp, MemDescReshapeOp>(user) &&
        usedBy<Ops...>(user->getResult(0)))
      return true;
  }
  return llvm::any_of(choicesOf(v), usedBy<Ops...>);
}

/// Whether `v` needs the NVMMA layout: TMA copies and tensor-core operands
/// (and tcgen05.cp sources, read the same way).
bool needsNVMMA(Value v) {
  return usedBy<TMALoadOp, TMAStoreOp, TMAGatherOp, WarpGroupDotOp,
                TCGen05MMAOp, TMemCopyOp>(v);
}

/// The choices (selects, if results) reachable from `v` through its
/// stages, views and further choices.
void collectChoices(Value v, llvm::SetVector<Value> &out) {
  for (Operation *user : v.getUsers())
    if (isa<MemDescIndexOp, MemDescViewOp, MemDescReshapeOp>(user))
      collectChoices(user->getResult(0), out);
  for (Value choice : choicesOf(v))
    if (out.insert(choice))
      collectChoices(choice, out);
}

MemDescType withEncoding(MemDescType t, Attribute enc) {
  return MemDescType::get(t.getContext(), t.getShape(), t.getElementType(),
                          enc);
}

/// The encoding of a view: a permutation renames the dimensions of the
/// order; a slice keeps the source's.
Attribute viewEncoding(MemDescViewOp view, NVMMASharedEncodingAttr src) {
  ArrayRef<int32_t> perm = view.getPermutation();
  SmallVector<unsigned> position(perm.size());
  for (auto [newDim, oldDim] : llvm::enumerate(perm))
    position[oldDim] = unsigned(newDim);
  SmallVector<unsigned> order;
  for (unsigned d : src.getOrder())
    order.push_back(position[d]);
  return NVMMASharedEncodingAttr::get(view.getContext(), src.getSwizzleBytes(),
                                      src.getElemBits(), order);
}

/// The element offset of each bit of the row-major flat index of `type`'s
/// elements, low bit first (shared layouts are XOR-linear, so these say
/// where every element is). For a buffer array (a txlgpu.smem_alloc
/// result, whose encoding is its tile's), the stage bits come last.
std::optional<SmallVector<int64_t>> flatIndexOffsets(Value buffer,
                                                     MemDescType type) {
  bool array = isBufferArray(buffer);
  ArrayRef<int64_t> shape = type.getShape();
  MemDescType tile =
      array ? MemDescType::get(type.getContext(), shape.drop_front(),
                               type.getElementType(), type.getEncoding())
            : type;
  auto offsets = getSharedOffsets(tile);
  if (!offsets)
    return std::nullopt;
  SmallVector<int64_t> flat;
  for (size_t d = offsets->bitOffset.size(); d-- > 0;)
    llvm::append_range(flat, offsets->bitOffset[d]);
  if (array) {
    int64_t elemBytes =
        std::max(1u, type.getElementType().getIntOrFloatBitWidth() / 8);
    int64_t stride = getStageStride(type) / elemBytes;
    for (int64_t s = 1; s < shape[0]; s *= 2)
      flat.push_back(stride * s);
  }
  return flat;
}

/// The row-major NVMMA encoding of `type`'s rank with `src`'s swizzle.
NVMMASharedEncodingAttr rowMajorLike(NVMMASharedEncodingAttr src,
                                     MemDescType type) {
  SmallVector<unsigned> order;
  for (unsigned d = type.getShape().size(); d-- > 0;)
    order.push_back(d);
  return NVMMASharedEncodingAttr::get(type.getContext(), src.getSwizzleBytes(),
                                      src.getElemBits(), order);
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

std::string layoutName(MemDescType type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// The encoding of a reshape: the row-major NVMMA layout of the new shape,
/// which must put every element (same flat index) where the source's
/// layout does. Null (after an error) if it does not.
Attribute reshapeEncoding(MemDescReshapeOp op, NVMMASharedEncodingAttr src) {
  MemDescType srcType = op.getSrc().getType();
  auto enc = rowMajorLike(src, op.getType());
  auto from = flatIndexOffsets(op.getSrc(), srcType);
  auto to = flatIndexOffsets(op.getResult(), withEncoding(op.getType(), enc));
  if (from && to && *from == *to)
    return enc;
  op.emitError("txl.smem_reshape: viewing ")
      << layoutName(srcType) << " as " << layoutName(op.getType())
      << " is not supported: no shared layout of the new shape keeps the "
         "elements where the source's layout (swizzle "
      << src.getSwizzleBytes()
      << " bytes) stores them; a tile whose rows are wider than the swizzle "
         "span is stored as column chunks, so only reshapes that keep each "
         "chunk's rows together (e.g. merging or splitting leading "
         "dimensions of a tile one chunk wide) can be expressed";
  return {};
}

/// The encoding of one row of the leading dimension of a view (smem_index
/// on a tile, or on a reshaped or sliced one): the source's layout without
/// that dimension, which must be the sub-layout at index 0, with the rows a
/// fixed stride apart that does not disturb it. Null (after an error) if
/// not.
Attribute indexEncoding(MemDescIndexOp op, NVMMASharedEncodingAttr src) {
  MemDescType srcType = op.getSrc().getType();
  SmallVector<unsigned> order;
  for (unsigned d : src.getOrder())
    if (d != 0)
      order.push_back(d - 1);
  auto enc = NVMMASharedEncodingAttr::get(
      op.getContext(), src.getSwizzleBytes(), src.getElemBits(), order);
  auto whole = getSharedOffsets(srcType);
  auto row = getSharedOffsets(withEncoding(op.getType(), enc));
  int64_t rowElems = 1;
  for (int64_t d : op.getType().getShape())
    rowElems *= d;
  bool ok = whole && row &&
            llvm::ArrayRef(whole->bitOffset).drop_front() ==
                llvm::ArrayRef(row->bitOffset);
  if (ok && !whole->bitOffset[0].empty()) {
    int64_t stride = whole->bitOffset[0][0];
    ok = stride % rowElems == 0;
    for (auto [bit, off] : llvm::enumerate(whole->bitOffset[0]))
      ok &= off == stride << bit;
  }
  if (ok)
    return enc;
  op.emitError("txl.smem_index: the rows of ")
      << layoutName(srcType)
      << " are not stored as whole tiles of the same layout a fixed stride "
         "apart; this view cannot be indexed";
  return {};
}

/// Gives every stage/view of `v` its encoding, following uses. False
/// (after an error) if a view's layout cannot be expressed.
bool propagate(Value v, Attribute tileEnc) {
  bool ok = true;
  bool isArray = isBufferArray(v);
  // A choice between buffers has their (common, see unifyChoices) layout.
  for (Value choice : choicesOf(v)) {
    auto type = cast<MemDescType>(choice.getType());
    auto mine = cast<MemDescType>(v.getType());
    if (type.getEncoding() == mine.getEncoding())
      continue;
    if (type.getEncoding()) {
      choice.getDefiningOp()->emitError(
          "this chooses between shared buffers with different layouts (")
          << layoutName(type) << " and " << layoutName(mine)
          << "); give them the same shape, dtype and uses";
      ok = false;
      continue;
    }
    choice.setType(mine);
    ok &= propagate(choice, tileEnc);
  }
  for (Operation *user : v.getUsers()) {
    Attribute enc;
    if (auto index = dyn_cast<MemDescIndexOp>(user)) {
      enc = isArray
                ? tileEnc
                : indexEncoding(index, cast<NVMMASharedEncodingAttr>(tileEnc));
    } else if (auto view = dyn_cast<MemDescViewOp>(user)) {
      enc = viewEncoding(view, cast<NVMMASharedEncodingAttr>(tileEnc));
    } else if (auto reshape = dyn_cast<MemDescReshapeOp>(user)) {
      enc = reshapeEncoding(reshape, cast<NVMMASharedEncodingAttr>(tileEnc));
    } else {
      continue;
    }
    if (!enc) {
      ok = false;
      continue;
    }
    Value result = user->getResult(0);
    result.setType(withEncoding(cast<MemDescType>(result.getType()), enc));
    ok &= propagate(result, enc);
  }
  return ok;
}

/// Loop-carried or yielded buffers take the type of their source.
void fixCarriedTypes(ModuleOp module) {
  module.walk([](scf::ForOp op) {
    for (auto [init, arg, res] :
         llvm::zip(op.getInitArgs(), op.getRegionIterArgs(), op.getResults()))
      if (isa<MemDescType>(init.getType())) {
        arg.setType(init.getType());
        res.setType(init.getType());
      }
  });
  module.walk([](scf::IfOp op) {
    if (op.getNumResults() == 0)
      return;
    Operation *yield = op.thenBlock()->getTerminator();
    for (auto [res, v] : llvm::zip(op.getResults(), yield->getOperands()))
      if (isa<MemDescType>(v.getType()))
        res.setType(v.getType());
  });
}

/// The swizzle (bytes) of the buffer a TMA op moves; 0 if unencoded.
unsigned tmaBufferSwizzle(Operation *op) {
  Value buf = isa<TMALoadOp>(op)     ? cast<TMALoadOp>(op).getDst()
              : isa<TMAGatherOp>(op) ? cast<TMAGatherOp>(op).getDst()
                                     : cast<TMAStoreOp>(op).getSrc();
  auto enc = dyn_cast_or_null<NVMMASharedEncodingAttr>(
      cast<MemDescType>(buf.getType()).getEncoding());
  return enc ? enc.getSwizzleBytes() : 0;
}

/// The TMA copies that move data through descriptor `desc`, also where the
/// descriptor reaches them through arith.select or an scf.if / scf.for
/// result or loop argument (a descriptor chosen at run time).
void collectCopies(Value desc, SmallVectorImpl<Operation *> &copies,
                   llvm::SmallPtrSetImpl<Value> &seen) {
  if (!seen.insert(desc).second)
    return;
  for (OpOperand &use : desc.getUses()) {
    Operation *user = use.getOwner();
    if (isa<TMALoadOp, TMAStoreOp, TMAGatherOp>(user)) {
      copies.push_back(user);
    } else if (isa<arith::SelectOp>(user)) {
      collectCopies(user->getResult(0), copies, seen);
    } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
      if (use.getOperandNumber() >= loop.getNumControlOperands()) {
        unsigned i = use.getOperandNumber() - loop.getNumControlOperands();
        collectCopies(loop.getRegionIterArgs()[i], copies, seen);
        collectCopies(loop.getResult(i), copies, seen);
      }
    } else if (isa<scf::YieldOp>(user)) {
      Operation *parent = user->getParentOp();
      unsigned i = use.getOperandNumber();
      if (isa<scf::IfOp>(parent))
        collectCopies(parent->getResult(i), copies, seen);
      else if (auto loop = dyn_cast<scf::ForOp>(parent)) {
        collectCopies(loop.getRegionIterArgs()[i], copies, seen);
        collectCopies(loop.getResult(i), copies, seen);
      }
    }
  }
}

void collectCopies(Value desc, SmallVectorImpl<Operation *> &copies) {
  llvm::SmallPtrSet<Value, 8> seen;
  collectCopies(desc, copies, seen);
}

/// The swizzle the TMA copies through descriptor `desc` use and the box
/// that follows (getTMABoxes): the whole block, except that a row wider
/// than the swizzle span is cut into span-wide boxes (the shared layout
/// stores such a tile as column chunks of that width, one box each), and
/// so are dimensions over TMA's 256. False (after an error) if two copies
/// disagree on the swizzle.
bool descriptorLayout(Value desc, unsigned &swizzle,
                      SmallVector<int64_t> &box) {
  auto type = cast<TensorDescType>(desc.getType());
  ArrayRef<int64_t> block = type.getBlockShape();
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  bool ok = true;
  std::optional<unsigned> chosen;
  SmallVector<Operation *> copies;
  collectCopies(desc, copies);
  for (Operation *user : copies) {
    unsigned s = tmaBufferSwizzle(user);
    if (chosen && *chosen != s) {
      user->emitError("TMA copies through one descriptor use buffers with "
                      "different swizzles (")
          << *chosen << " and " << s << " bytes)";
      ok = false;
    }
    chosen = s;
  }
  swizzle = chosen ? *chosen : getTMASwizzleBytes(block, bits);
  if (std::optional<TMABoxes> boxes = getTMABoxes(block, bits, swizzle)) {
    box = boxes->box;
    return ok;
  }
  // A block no TMA copy can move (the front end and the copies' lowering
  // report it where it is used): the block itself, a span wide.
  box.assign(block.begin(), block.end());
  if (swizzle)
    box.back() = std::min<int64_t>(box.back(), swizzle * 8 / bits);
  return ok;
}

/// Annotates each tensordesc argument of `func` (launch metadata the host
/// encodes the CUtensorMap from) and each descriptor the kernel makes
/// itself (read by its lowering) with their swizzle and box.
bool annotateDescriptors(func::FuncOp func) {
  bool ok = true;
  Builder b(func.getContext());
  unsigned swizzle = 0;
  SmallVector<int64_t> box;
  for (BlockArgument arg : func.getArguments()) {
    if (!isa<TensorDescType>(arg.getType()))
      continue;
    ok &= descriptorLayout(arg, swizzle, box);
    func.setArgAttr(arg.getArgNumber(), TXLGPUDialect::kTMASwizzleAttr,
                    b.getI32IntegerAttr(int32_t(swizzle)));
    func.setArgAttr(arg.getArgNumber(), TXLGPUDialect::kTMABoxAttr,
                    b.getDenseI64ArrayAttr(box));
  }
  func.walk([&](MakeTensorDescOp op) {
    ok &= descriptorLayout(op.getResult(), swizzle, box);
    op->setAttr(TXLGPUDialect::kTMASwizzleAttr,
                b.getI32IntegerAttr(int32_t(swizzle)));
    op->setAttr(TXLGPUDialect::kTMABoxAttr, b.getDenseI64ArrayAttr(box));
  });
  return ok;
}

/// The descriptor value a TMA op copies through.
Value copyDescriptor(Operation *op) {
  if (auto load = dyn_cast<TMALoadOp>(op))
    return load.getDesc();
  if (auto gather = dyn_cast<TMAGatherOp>(op))
    return gather.getDesc();
  return cast<TMAStoreOp>(op).getDesc();
}

/// The recorded swizzle and box of descriptor `root`, a kernel argument or
/// a descriptor the kernel makes; false if it is neither.
bool recordedLayout(Value root, IntegerAttr &swizzle, DenseI64ArrayAttr &box) {
  if (auto arg = dyn_cast<BlockArgument>(root)) {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getBody().front())
      return false;
    swizzle = func.getArgAttrOfType<IntegerAttr>(
        arg.getArgNumber(), TXLGPUDialect::kTMASwizzleAttr);
    box = func.getArgAttrOfType<DenseI64ArrayAttr>(arg.getArgNumber(),
                                                   TXLGPUDialect::kTMABoxAttr);
    return swizzle && box;
  }
  Operation *def = root.getDefiningOp();
  if (!isa_and_nonnull<MakeTensorDescOp>(def))
    return false;
  swizzle = def->getAttrOfType<IntegerAttr>(TXLGPUDialect::kTMASwizzleAttr);
  box = def->getAttrOfType<DenseI64ArrayAttr>(TXLGPUDialect::kTMABoxAttr);
  return swizzle && box;
}

/// The descriptors `desc` may be at run time (through selects and scf
/// results and loop arguments), each a kernel argument or a made one;
/// false if some source is neither.
bool descriptorRoots(Value desc, SmallVectorImpl<Value> &roots,
                     llvm::SmallPtrSetImpl<Value> &seen) {
  if (!seen.insert(desc).second)
    return true;
  Operation *def = desc.getDefiningOp();
  if (auto select = dyn_cast_or_null<arith::SelectOp>(def))
    return descriptorRoots(select.getTrueValue(), roots, seen) &&
           descriptorRoots(select.getFalseValue(), roots, seen);
  if (auto branch = dyn_cast_or_null<scf::IfOp>(def)) {
    unsigned i = cast<OpResult>(desc).getResultNumber();
    return descriptorRoots(branch.thenYield().getOperand(i), roots, seen) &&
           descriptorRoots(branch.elseYield().getOperand(i), roots, seen);
  }
  if (auto loop = dyn_cast_or_null<scf::ForOp>(def)) {
    unsigned i = cast<OpResult>(desc).getResultNumber();
    return descriptorRoots(loop.getInitArgs()[i], roots, seen) &&
           descriptorRoots(loop.getYieldedValues()[i], roots, seen);
  }
  if (auto arg = dyn_cast<BlockArgument>(desc))
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg.getArgNumber() >= loop.getNumInductionVars()) {
        unsigned i = arg.getArgNumber() - loop.getNumInductionVars();
        return descriptorRoots(loop.getInitArgs()[i], roots, seen) &&
               descriptorRoots(loop.getYieldedValues()[i], roots, seen);
      }
  roots.push_back(desc);
  IntegerAttr swizzle;
  DenseI64ArrayAttr box;
  return recordedLayout(desc, swizzle, box);
}

/// The descriptor contract (REFERENCE §3): the map a TMA copy goes through
/// must be encoded with the swizzle of the shared buffer it fills or reads
/// and with a box one column chunk of that buffer wide, or the data lands
/// permuted (or the expected bytes never all arrive). The annotation above
/// makes them agree; this checks every copy against every descriptor it
/// may use at run time, so no path (hand-written IR, a descriptor chosen
/// at run time) lets a mismatch through silently.
bool checkDescriptorContract(func::FuncOp func) {
  bool ok = true;
  func.walk([&](Operation *op) {
    if (!isa<TMALoadOp, TMAStoreOp, TMAGatherOp>(op))
      return;
    Value buf = isa<TMALoadOp>(op)     ? cast<TMALoadOp>(op).getDst()
                : isa<TMAGatherOp>(op) ? cast<TMAGatherOp>(op).getDst()
                                       : cast<TMAStoreOp>(op).getSrc();
    auto type = cast<MemDescType>(buf.getType());
    auto enc = dyn_cast_or_null<NVMMASharedEncodingAttr>(type.getEncoding());
    std::optional<TMABoxes> boxes = getTMABoxes(type);
    if (!enc || !boxes)
      return; // the lowering reports a tile TMA cannot move
    int64_t swizzle = enc.getSwizzleBytes();
    // A gather's box is one row of its destination.
    ArrayRef<int64_t> want = boxes->box;
    if (isa<TMAGatherOp>(op))
      want = want.take_back();
    SmallVector<Value> roots;
    llvm::SmallPtrSet<Value, 8> seen;
    if (!descriptorRoots(copyDescriptor(op), roots, seen)) {
      op->emitError("cannot tell which tensor descriptor this TMA copy "
                    "uses (only kernel arguments, descriptors the kernel "
                    "makes, and choices between them are followed), so its "
                    "swizzle and box cannot be checked against the buffer");
      ok = false;
      return;
    }
    for (Value root : roots) {
      IntegerAttr recordedSwizzle;
      DenseI64ArrayAttr box;
      recordedLayout(root, recordedSwizzle, box);
      if (recordedSwizzle.getInt() == swizzle &&
          box.asArrayRef().take_back(want.size()) == want)
        continue;
      op->emitError("the tensor descriptor's TMA layout (swizzle ")
          << recordedSwizzle.getInt() << " bytes, box "
          << shapeString(box.asArrayRef())
          << ") does not match the shared buffer's (swizzle " << swizzle
          << " bytes, boxes " << shapeString(boxes->box) << ") for " << type
          << ": the copy would land permuted";
      ok = false;
    }
  });
  return ok;
}

struct AssignSharedLayoutsPass
    : public txlgpu::impl::AssignSharedLayoutsBase<AssignSharedLayoutsPass> {
  /// Buffers that one choice (select / if) picks between must share a
  /// layout: each gets the NVMMA one when any of them needs it.
  llvm::DenseSet<Operation *> needNVMMAByChoice(ModuleOp module) {
    llvm::EquivalenceClasses<Operation *> groups;
    DenseMap<Value, Operation *> firstAllocOf;
    module.walk([&](SmemAllocOp alloc) {
      groups.insert(alloc);
      llvm::SetVector<Value> choices;
      collectChoices(alloc.getResult(), choices);
      for (Value choice : choices) {
        auto [it, inserted] = firstAllocOf.try_emplace(choice, alloc);
        if (!inserted)
          groups.unionSets(it->second, alloc);
      }
    });
    llvm::DenseSet<Operation *> need;
    for (auto it = groups.begin(); it != groups.end(); ++it) {
      if (!(*it)->isLeader())
        continue;
      bool any = llvm::any_of(groups.members(**it), [](Operation *op) {
        return needsNVMMA(op->getResult(0));
      });
      if (any)
        for (Operation *op : groups.members(**it))
          need.insert(op);
    }
    return need;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool ok = true;
    llvm::DenseSet<Operation *> nvmma = needNVMMAByChoice(module);
    module.walk([&](SmemAllocOp alloc) {
      MemDescType type = alloc.getType();
      // Buffers made by the compiler itself (PipelineWarpGroupDots) come
      // with the layout their producer chose.
      if (Attribute enc = type.getEncoding()) {
        ok &= propagate(alloc.getResult(), enc);
        return;
      }
      ArrayRef<int64_t> tile = type.getShape().drop_front();
      unsigned bits = type.getElementType().getIntOrFloatBitWidth();
      SmallVector<unsigned> order;
      for (unsigned d = tile.size(); d-- > 0;)
        order.push_back(d);
      // A TMA tile takes the widest swizzle its rows allow; a 1-D one (no
      // rows to swizzle across) and one of 16-byte rows stay unswizzled.
      // An MMA operand needs a swizzled 2-D tile.
      unsigned swizzle = 0;
      if (nvmma.contains(alloc)) {
        swizzle = getTMASwizzleBytes(tile, bits);
        bool mma = usedBy<WarpGroupDotOp, TCGen05MMAOp>(alloc.getResult());
        if (mma ? tile.size() != 2 || swizzle == 0
                : !getTMABoxes(tile, bits, swizzle)) {
          alloc.emitError("a buffer used by TMA or wgmma must be 2-D with "
                          "rows of at least 32 bytes (or, for TMA only, of "
                          "rank 1 to 5 with rows of at least 16 bytes), got ")
              << type;
          ok = false;
          return;
        }
      }
      auto enc =
          NVMMASharedEncodingAttr::get(&getContext(), swizzle, bits, order);
      alloc.getResult().setType(withEncoding(type, enc));
      ok &= propagate(alloc.getResult(), enc);
    });
    fixCarriedTypes(module);
    module.walk([&](func::FuncOp func) { ok &= annotateDescriptors(func); });
    if (ok)
      module.walk(
          [&](func::FuncOp func) { ok &= checkDescriptorContract(func); });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
