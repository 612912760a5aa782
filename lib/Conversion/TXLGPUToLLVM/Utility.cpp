//===- Utility.cpp - shared helpers of the txlgpu -> LLVM lowering --------===//
#include "Utility.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::txl;
using txlgpu::LayoutMap;

TXLTypeConverter::TXLTypeConverter(MLIRContext *ctx) : LLVMTypeConverter(ctx) {
  addConversion([ctx](PointerType type) -> Type {
    return LLVM::LLVMPointerType::get(ctx, type.getAddressSpace());
  });
  // A TMA descriptor is the generic address of the by-value kernel
  // parameter (llvm.byval + nvvm.grid_constant, set in markKernels).
  addConversion([ctx](txlgpu::TensorDescType) -> Type {
    return LLVM::LLVMPointerType::get(ctx);
  });
  // A shared tile is the address of its first byte; a tensor-memory
  // buffer its TMEM address (lane << 16 | column) in NVPTX's tensor space.
  addConversion([ctx](txlgpu::MemDescType type) -> Type {
    if (txlgpu::isTensorMemory(type))
      return LLVM::LLVMPointerType::get(
          ctx, unsigned(NVVM::NVVMMemorySpace::Tensor));
    return LLVM::LLVMPointerType::get(ctx, 3);
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    if (!type.getEncoding())
      return std::nullopt;
    Type elem = convertType(type.getElementType());
    if (!elem)
      return std::nullopt;
    SmallVector<Type> fields(txlgpu::getNumRegs(type), elem);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), fields);
  });
}

SmallVector<Value> mlir::txl::unpackTensor(OpBuilder &b, Location loc,
                                           Value llStruct) {
  auto structTy = dyn_cast<LLVM::LLVMStructType>(llStruct.getType());
  if (!structTy)
    return {llStruct};
  SmallVector<Value> regs;
  for (int64_t i = 0, e = structTy.getBody().size(); i < e; ++i)
    regs.push_back(LLVM::ExtractValueOp::create(b, loc, llStruct, i));
  return regs;
}

Value mlir::txl::packTensor(OpBuilder &b, Location loc,
                            const TypeConverter &tc, Type tensorType,
                            ArrayRef<Value> regs) {
  Type structTy = tc.convertType(tensorType);
  Value result = LLVM::UndefOp::create(b, loc, structTy);
  for (auto [i, reg] : llvm::enumerate(regs))
    result = LLVM::InsertValueOp::create(b, loc, result, reg, i);
  return result;
}

Value mlir::txl::i32Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(v));
}

Value mlir::txl::i64Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(v));
}

Value mlir::txl::threadIdX(OpBuilder &b, Location loc) {
  return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
}

Value mlir::txl::laneId(OpBuilder &b, Location loc) {
  return LLVM::AndOp::create(b, loc, threadIdX(b, loc), i32Const(b, loc, 31));
}

/// Warps per warpgroup, recorded on the module by AssignLayouts.
static int numWarpsOf(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  if (auto attr = module->getAttrOfType<IntegerAttr>(
          txlgpu::TXLGPUDialect::kNumWarpsAttr))
    return attr.getInt();
  return 4;
}

Value mlir::txl::warpId(OpBuilder &b, Location loc) {
  Value warp =
      LLVM::LShrOp::create(b, loc, threadIdX(b, loc), i32Const(b, loc, 5));
  int numWarps = numWarpsOf(b.getInsertionBlock()->getParentOp());
  // A tensor spans one warpgroup: the warp index is taken within it.
  return LLVM::AndOp::create(b, loc, warp, i32Const(b, loc, numWarps - 1));
}

Value mlir::txl::uniformWarpId(OpBuilder &b, Location loc) {
  return NVVM::ShflOp::create(b, loc, b.getI32Type(), i32Const(b, loc, -1),
                              warpId(b, loc), i32Const(b, loc, 0),
                              i32Const(b, loc, 0x1f), NVVM::ShflKind::idx,
                              UnitAttr());
}

Value mlir::txl::ctaWarpId(OpBuilder &b, Location loc) {
  Value warp =
      LLVM::LShrOp::create(b, loc, threadIdX(b, loc), i32Const(b, loc, 5));
  return NVVM::ShflOp::create(b, loc, b.getI32Type(), i32Const(b, loc, -1),
                              warp, i32Const(b, loc, 0), i32Const(b, loc, 0x1f),
                              NVVM::ShflKind::idx, UnitAttr());
}

/// XOR over the set bits of `id` of the given bases' component `dim`.
static Value xorOfBases(OpBuilder &b, Location loc, Value id,
                        const std::vector<txlgpu::Coord> &bases,
                        unsigned dim) {
  Value acc = i32Const(b, loc, 0);
  for (auto [bit, basis] : llvm::enumerate(bases)) {
    if (basis[dim] == 0)
      continue;
    Value set = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, id, i32Const(b, loc, bit)),
        i32Const(b, loc, 1));
    Value term = LLVM::MulOp::create(b, loc, set, i32Const(b, loc, basis[dim]));
    acc = LLVM::XOrOp::create(b, loc, acc, term);
  }
  return acc;
}

SmallVector<Value> mlir::txl::threadCoordOffsets(OpBuilder &b, Location loc,
                                                 const LayoutMap &map) {
  Value lane = laneId(b, loc), warp = warpId(b, loc);
  SmallVector<Value> offsets;
  for (int d = 0; d < map.rank(); ++d)
    offsets.push_back(LLVM::XOrOp::create(
        b, loc, xorOfBases(b, loc, lane, map.laneBases, d),
        xorOfBases(b, loc, warp, map.warpBases, d)));
  return offsets;
}

SmallVector<SmallVector<Value>> mlir::txl::allRegCoords(OpBuilder &b,
                                                        Location loc,
                                                        const LayoutMap &map) {
  SmallVector<Value> offsets = threadCoordOffsets(b, loc, map);
  SmallVector<SmallVector<Value>> coords;
  for (int r = 0; r < map.numRegs(); ++r) {
    txlgpu::Coord c = map.regCoord(r);
    SmallVector<Value> regCoord;
    for (int d = 0; d < map.rank(); ++d)
      regCoord.push_back(
          LLVM::XOrOp::create(b, loc, offsets[d], i32Const(b, loc, c[d])));
    coords.push_back(regCoord);
  }
  return coords;
}

Value mlir::txl::isFirstReplica(OpBuilder &b, Location loc,
                                const LayoutMap &map) {
  Value ok = LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                      b.getBoolAttr(true));
  auto test = [&](Value id, unsigned mask) {
    if (!mask)
      return;
    Value bits = LLVM::AndOp::create(b, loc, id, i32Const(b, loc, mask));
    Value zero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bits,
                                      i32Const(b, loc, 0));
    ok = LLVM::AndOp::create(b, loc, ok, zero);
  };
  test(laneId(b, loc), map.laneFreeMask());
  test(warpId(b, loc), map.warpFreeMask());
  return ok;
}

static constexpr llvm::StringLiteral kSharedGlobal = "global_smem";

Value mlir::txl::sharedMemoryBase(OpBuilder &b, Location loc, Operation *op) {
  auto ptrTy = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::AddressOfOp::create(b, loc, ptrTy, kSharedGlobal);
}

static int moduleIntOf(Operation *op, StringRef name, int fallback) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op)
                                  : op->getParentOfType<ModuleOp>();
  if (auto attr = module->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return fallback;
}

int mlir::txl::numWarpgroupsOf(Operation *op) {
  return moduleIntOf(op, txlgpu::TXLGPUDialect::kNumWarpgroupsAttr, 1);
}

int mlir::txl::threadsPerCTAOf(Operation *op) {
  return moduleIntOf(op, txlgpu::TXLGPUDialect::kNumWarpsAttr, 4) *
         numWarpgroupsOf(op) * 32;
}

int mlir::txl::clusterSizeOf(Operation *op) {
  return moduleIntOf(op, txlgpu::TXLGPUDialect::kNumCtasAttr, 1);
}

Value mlir::txl::warpGroupId(OpBuilder &b, Location loc) {
  Operation *where = b.getInsertionBlock()->getParentOp();
  int warps = moduleIntOf(where, txlgpu::TXLGPUDialect::kNumWarpsAttr, 4);
  return LLVM::UDivOp::create(b, loc, threadIdX(b, loc),
                              i32Const(b, loc, warps * 32));
}

/// With several warpgroups a tensor belongs to one of them (they may run
/// different roles), so its exchanges synchronize only that warpgroup:
/// named barrier top - warpgroup, top = 15 unless the kernel's own
/// txl.bar_* ids take one of those (kGroupBarrierTopAttr). Extra warps
/// (kNumExtraWarpsAttr) form one more, smaller group of their own: tensor
/// code in the other warps never waits for them.
void mlir::txl::barrier(OpBuilder &b, Location loc) {
  Operation *where = b.getInsertionBlock()->getParentOp();
  int extra = moduleIntOf(where, txlgpu::kNumExtraWarpsAttr, 0);
  int groups = numWarpgroupsOf(where);
  if (groups <= 1 && extra == 0) {
    NVVM::Barrier0Op::create(b, loc);
    return;
  }
  int warps = moduleIntOf(where, txlgpu::TXLGPUDialect::kNumWarpsAttr, 4);
  Value group = warpGroupId(b, loc);
  int top = moduleIntOf(where, kGroupBarrierTopAttr, 15);
  Value id = LLVM::SubOp::create(b, loc, i32Const(b, loc, top), group);
  Value count = i32Const(b, loc, warps * 32);
  if (extra > 0) {
    Value isExtra = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge,
                                         group, i32Const(b, loc, groups));
    count = LLVM::SelectOp::create(b, loc, isExtra,
                                   i32Const(b, loc, extra * 32), count);
  }
  NVVM::BarrierOp::create(b, loc, TypeRange{}, id, count, {}, {});
}

void mlir::txl::ctaBarrier(OpBuilder &b, Location loc) {
  NVVM::Barrier0Op::create(b, loc);
}

Value mlir::txl::shuffleXor(OpBuilder &b, Location loc, Value v,
                            int laneMask) {
  Type type = v.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Type i32 = b.getI32Type();
  if (bits == 64) {
    // Two 32-bit halves.
    Value asInt = LLVM::BitcastOp::create(b, loc, b.getI64Type(), v);
    Value lo = LLVM::TruncOp::create(b, loc, i32, asInt);
    Value hi = LLVM::TruncOp::create(
        b, loc, i32, LLVM::LShrOp::create(b, loc, asInt, i64Const(b, loc, 32)));
    lo = shuffleXor(b, loc, lo, laneMask);
    hi = shuffleXor(b, loc, hi, laneMask);
    Value wide = LLVM::OrOp::create(
        b, loc, LLVM::ZExtOp::create(b, loc, b.getI64Type(), lo),
        LLVM::ShlOp::create(b, loc,
                            LLVM::ZExtOp::create(b, loc, b.getI64Type(), hi),
                            i64Const(b, loc, 32)));
    return LLVM::BitcastOp::create(b, loc, type, wide);
  }
  Value word = v;
  if (bits < 32) {
    Value asInt = v;
    if (!isa<IntegerType>(type))
      asInt = LLVM::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
    word = LLVM::ZExtOp::create(b, loc, i32, asInt);
  } else if (!type.isInteger(32)) {
    word = LLVM::BitcastOp::create(b, loc, i32, v);
  }
  Value shuffled = NVVM::ShflOp::create(
      b, loc, i32, i32Const(b, loc, -1), word, i32Const(b, loc, laneMask),
      i32Const(b, loc, 0x1f), NVVM::ShflKind::bfly, UnitAttr());
  if (bits < 32) {
    Value narrow =
        LLVM::TruncOp::create(b, loc, b.getIntegerType(bits), shuffled);
    return isa<IntegerType>(type)
               ? narrow
               : LLVM::BitcastOp::create(b, loc, type, narrow).getResult();
  }
  if (!type.isInteger(32))
    return LLVM::BitcastOp::create(b, loc, type, shuffled);
  return shuffled;
}

Type mlir::txl::convertElementType(const TypeConverter &tc, Type tensorType) {
  return tc.convertType(getElementTypeOrSelf(tensorType));
}

int mlir::txl::targetSM(Operation *op) {
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  auto target = module ? module->getAttrOfType<StringAttr>(
                             txlgpu::TXLGPUDialect::kTargetAttr)
                       : StringAttr();
  if (!target || !target.getValue().starts_with("sm_"))
    return kUnknownSM;
  int sm = 0;
  target.getValue()
      .drop_front(3)
      .take_while([](char c) { return c >= '0' && c <= '9'; })
      .getAsInteger(10, sm);
  return sm;
}

void mlir::txl::fenceAsyncProxy(OpBuilder &b, Location loc) {
  // Before Hopper there is no async proxy (no wgmma, no TMA) to fence for.
  if (targetSM(b.getInsertionBlock()->getParentOp()) < 90)
    return;
  MLIRContext *ctx = b.getContext();
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
}

void mlir::txl::ifThen(ConversionPatternRewriter &rewriter, Location loc,
                       Value pred, function_ref<void()> body) {
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Block *then = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(before);
  LLVM::CondBrOp::create(rewriter, loc, pred, then, after);
  rewriter.setInsertionPointToStart(then);
  body();
  LLVM::BrOp::create(rewriter, loc, after);
  rewriter.setInsertionPointToStart(after);
}

void mlir::txl::spinUntil(ConversionPatternRewriter &rewriter, Location loc,
                          function_ref<Value(OpBuilder &)> probe) {
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Block *loop = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(before);
  LLVM::BrOp::create(rewriter, loc, loop);
  rewriter.setInsertionPointToStart(loop);
  LLVM::CondBrOp::create(rewriter, loc, probe(rewriter), after, loop);
  rewriter.setInsertionPointToStart(after);
}

Value mlir::txl::isWarpGroupLeader(OpBuilder &b, Location loc, Operation *op) {
  txlgpu::AsyncIssuer issuer = txlgpu::asyncIssuerOf(
      op, moduleIntOf(op, txlgpu::TXLGPUDialect::kNumWarpsAttr, 4));
  if (!issuer.modulus) {
    Value thread = i32Const(b, loc, issuer.thread);
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                threadIdX(b, loc), thread);
  }
  Value modulus = i32Const(b, loc, issuer.modulus);
  Value inGroup = LLVM::URemOp::create(b, loc, threadIdX(b, loc), modulus);
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, inGroup,
                              i32Const(b, loc, issuer.thread));
}

Value mlir::txl::andPred(OpBuilder &b, Location loc, Value a, Value maybe) {
  return maybe ? LLVM::AndOp::create(b, loc, a, maybe).getResult() : a;
}

Type mlir::txl::storageType(Type elem) {
  if (auto f = dyn_cast<FloatType>(elem); f && f.getWidth() == 8)
    return IntegerType::get(elem.getContext(), 8);
  return elem;
}

SmallVector<Value> mlir::txl::cloneCombineRegion(OpBuilder &b, Block &region,
                                                 ArrayRef<Value> lhs,
                                                 ArrayRef<Value> rhs) {
  IRMapping map;
  size_t n = lhs.size();
  for (size_t i = 0; i < n; ++i) {
    map.map(region.getArgument(i), lhs[i]);
    map.map(region.getArgument(n + i), rhs[i]);
  }
  for (Operation &inner : region.without_terminator())
    b.clone(inner, map);
  SmallVector<Value> out;
  for (Value v : region.getTerminator()->getOperands())
    out.push_back(map.lookupOrDefault(v));
  return out;
}
