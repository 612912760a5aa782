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
// its lowering writes into the map it builds.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/IR/LayoutUtils.h"
#include "txl/Dialect/TXLGPU/Transforms/Passes.h"
#include "txl/Layout/LayoutConstructors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::txlgpu {
#define GEN_PASS_DEF_ASSIGNSHAREDLAYOUTS
#include "txl/Dialect/TXLGPU/Transforms/Passes.h.inc"
} // namespace mlir::txlgpu

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

/// Whether a use of `v` (or of a view or stage of it) needs the NVMMA
/// layout: TMA copies and wgmma operands.
bool needsNVMMA(Value v) {
  for (Operation *user : v.getUsers()) {
    if (isa<TMALoadOp, TMAStoreOp, WarpGroupDotOp>(user))
      return true;
    if (isa<MemDescIndexOp, MemDescViewOp>(user) &&
        needsNVMMA(user->getResult(0)))
      return true;
  }
  return false;
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

/// Gives every stage/view of `v` its encoding, following uses.
void propagate(Value v, Attribute tileEnc) {
  for (Operation *user : v.getUsers()) {
    if (auto index = dyn_cast<MemDescIndexOp>(user)) {
      index.getResult().setType(withEncoding(index.getType(), tileEnc));
      propagate(index.getResult(), tileEnc);
    } else if (auto view = dyn_cast<MemDescViewOp>(user)) {
      Attribute enc =
          viewEncoding(view, cast<NVMMASharedEncodingAttr>(tileEnc));
      view.getResult().setType(withEncoding(view.getType(), enc));
      propagate(view.getResult(), enc);
    }
  }
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
  Value buf = isa<TMALoadOp>(op) ? cast<TMALoadOp>(op).getDst()
                                 : cast<TMAStoreOp>(op).getSrc();
  auto enc = dyn_cast_or_null<NVMMASharedEncodingAttr>(
      cast<MemDescType>(buf.getType()).getEncoding());
  return enc ? enc.getSwizzleBytes() : 0;
}

/// The swizzle the TMA copies through descriptor `desc` use and the box
/// that follows: the whole block, except that a row wider than the swizzle
/// span is cut into span-wide boxes (the shared layout stores such a tile
/// as column chunks of that width, one box each). False (after an error)
/// if two copies disagree on the swizzle.
bool descriptorLayout(Value desc, unsigned &swizzle,
                      SmallVector<int64_t> &box) {
  auto type = cast<TensorDescType>(desc.getType());
  ArrayRef<int64_t> block = type.getBlockShape();
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<unsigned> order;
  for (unsigned d = block.size(); d-- > 0;)
    order.push_back(d);
  bool ok = true;
  std::optional<unsigned> chosen;
  for (Operation *user : desc.getUsers()) {
    if (!isa<TMALoadOp, TMAStoreOp>(user))
      continue;
    unsigned s = tmaBufferSwizzle(user);
    if (chosen && *chosen != s) {
      user->emitError("TMA copies through one descriptor use buffers with "
                      "different swizzles (")
          << *chosen << " and " << s << " bytes)";
      ok = false;
    }
    chosen = s;
  }
  swizzle = chosen ? *chosen : ::txl::largestSwizzleBytes(block, bits, order);
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

struct AssignSharedLayoutsPass
    : public txlgpu::impl::AssignSharedLayoutsBase<AssignSharedLayoutsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool ok = true;
    module.walk([&](SmemAllocOp alloc) {
      MemDescType type = alloc.getType();
      // Buffers made by the compiler itself (PipelineWarpGroupDots) come
      // with the layout their producer chose.
      if (Attribute enc = type.getEncoding()) {
        propagate(alloc.getResult(), enc);
        return;
      }
      ArrayRef<int64_t> tile = type.getShape().drop_front();
      unsigned bits = type.getElementType().getIntOrFloatBitWidth();
      SmallVector<unsigned> order;
      for (unsigned d = tile.size(); d-- > 0;)
        order.push_back(d);
      unsigned swizzle = 0;
      if (needsNVMMA(alloc.getResult())) {
        swizzle = ::txl::largestSwizzleBytes(tile, bits, order);
        if (tile.size() != 2 || swizzle == 0) {
          alloc.emitError("a buffer used by TMA or wgmma must be 2-D with "
                          "rows of at least 32 bytes, got ")
              << type;
          ok = false;
          return;
        }
      }
      auto enc =
          NVMMASharedEncodingAttr::get(&getContext(), swizzle, bits, order);
      alloc.getResult().setType(withEncoding(type, enc));
      propagate(alloc.getResult(), enc);
    });
    fixCarriedTypes(module);
    module.walk([&](func::FuncOp func) { ok &= annotateDescriptors(func); });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
