//===- AtomicOpToLLVM.cpp - txl.atomic_rmw / txl.atomic_cas ---------------===//
//
// One predicated `atom` per element (inline PTX: NVVM has no predicated
// atomic with the PTX memory-order and scope qualifiers), or a vector `red`
// where the old values are unused and PTX has one. Replicated data
// is updated once, by the thread and register that StoreToLLVM would store
// from; a scalar atomic is done by one thread (scalarPerformerThread:
// thread 0, or lane 0 of its role's first warp). When the old values are
// used and some threads did not perform the atomic themselves (replicas,
// or every other thread for a scalar), the performers publish them through
// shared scratch (sized by AllocateSharedMemory) between two barriers.
//
//===----------------------------------------------------------------------===//
#include "SharedScratch.h"
#include "Utility.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

/// The PTX type suffix of an atomic on `elem` (after any int/float choice
/// made by the builder through `kind`).
std::string ptxType(StringRef kind, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (kind == "fadd") {
    if (elem.isBF16())
      return "noftz.bf16";
    if (elem.isF16())
      return "noftz.f16";
    return "f" + std::to_string(bits);
  }
  if (kind == "add")
    return "u" + std::to_string(bits);
  if (kind == "max" || kind == "min")
    return "s" + std::to_string(bits);
  if (kind == "umax" || kind == "umin")
    return "u" + std::to_string(bits);
  return "b" + std::to_string(bits); // and/or/xor/xchg/cas
}

StringRef ptxOp(StringRef kind) {
  if (kind == "fadd")
    return "add";
  if (kind == "umax")
    return "max";
  if (kind == "umin")
    return "min";
  if (kind == "xchg")
    return "exch";
  return kind;
}

char constraint(unsigned bits) {
  return bits == 16 ? 'h' : bits == 64 ? 'l' : 'r';
}

/// `old = atom(ptr, operands...)` under `pred` (0 when not performed).
Value emitAtom(OpBuilder &b, Location loc, StringRef op, StringRef type,
               StringRef sem, StringRef scope, Value ptr, Value pred,
               ArrayRef<Value> operands, unsigned bits) {
  // $0 old, $1 ptr, $2 pred, $3.. operands
  std::string args;
  for (size_t i = 0; i < operands.size(); ++i)
    args += llvm::formatv(", ${0}", 3 + i).str();
  // Qualifiers in Triton's order: PTX accepts any order, and tools that
  // grep the PTX (Triton's tests do) look for "atom.global.gpu.<sem>" in
  // read-modify-writes and "atom.global.<sem>" in compare-and-swaps.
  std::string qualifiers =
      op == "cas" ? (sem + "." + scope).str() : (scope + "." + sem).str();
  std::string text =
      llvm::formatv("{ .reg .pred p; setp.ne.b32 p, $2, 0; mov.b{0} $0, 0; "
                    "@p atom.global.{1}.{2}.{3} $0, [ $1 + 0 ]{4}; }",
                    bits, qualifiers, op, type, args)
          .str();
  char c = constraint(bits);
  std::string constraints = std::string("=") + c + ",l,r";
  for (size_t i = 0; i < operands.size(); ++i)
    constraints += std::string(",") + c;
  SmallVector<Value> ins{ptr,
                         LLVM::ZExtOp::create(b, loc, b.getI32Type(), pred)};
  ins.append(operands.begin(), operands.end());
  return LLVM::InlineAsmOp::create(
             b, loc, b.getIntegerType(bits), ins, text, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
             ArrayAttr())
      .getResult(0);
}

/// Whether an atomic whose old value nobody reads can be a `red`, which
/// returns nothing. Only the vector forms are worth it (one red.v2/v4.f32
/// for several elements: dQ += ... in an attention backward issues
/// thousands): a scalar `atom` whose result is dead is a RED in SASS
/// already (ptxas), and Triton, whose tests grep the PTX for
/// `atom.global.gpu.<sem>`, emits `atom` for every atomic.
bool hasRed(StringRef op, StringRef sem) {
  return (sem == "relaxed" || sem == "release") &&
         llvm::is_contained({"add", "and", "or", "xor", "min", "max"}, op);
}

/// `red(ptr, vals)` under `pred`: vals.size() consecutive elements, one
/// vector `red` when there are several (red.v2/v4.f32, sm_90).
void emitRed(OpBuilder &b, Location loc, StringRef op, StringRef type,
             StringRef sem, StringRef scope, Value ptr, Value pred,
             ArrayRef<Value> vals, unsigned bits) {
  std::string operand = "$2";
  std::string vecSuffix;
  if (vals.size() > 1) {
    vecSuffix = ".v" + std::to_string(vals.size());
    operand = "{";
    for (size_t i = 0; i < vals.size(); ++i)
      operand += (i ? ", $" : "$") + std::to_string(2 + i);
    operand += "}";
  }
  std::string text =
      llvm::formatv("{ .reg .pred p; setp.ne.b32 p, $1, 0; "
                    "@p red.{0}.{1}.global.{2}{3}.{4} [ $0 + 0 ], {5}; }",
                    sem, scope, op, vecSuffix, type, operand)
          .str();
  std::string constraints = "l,r";
  for (size_t i = 0; i < vals.size(); ++i)
    constraints += std::string(",") + constraint(bits);
  SmallVector<Value> ins{ptr,
                         LLVM::ZExtOp::create(b, loc, b.getI32Type(), pred)};
  ins.append(vals.begin(), vals.end());
  LLVM::InlineAsmOp::create(b, loc, LLVM::LLVMVoidType::get(b.getContext()),
                            ins, text, constraints,
                            /*has_side_effects=*/true, /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

/// How many consecutive registers one `red` of `op` may cover: the run the
/// layout and the axis analysis give (globalVectorWidth), where PTX has a
/// vector form (f32 add on sm_90), else 1.
unsigned redVectorWidth(Operation *op, StringRef ptxOpName, Type elem,
                        Type ptrType) {
  if (ptxOpName != "add" || !elem.isF32() || targetSM(op) < 90)
    return 1;
  return std::min(4u, globalVectorWidth(op, ptrType, 32));
}

Value toBits(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (isa<IntegerType>(t))
    return v;
  return LLVM::BitcastOp::create(
      b, loc, b.getIntegerType(t.getIntOrFloatBitWidth()), v);
}

Value fromBits(OpBuilder &b, Location loc, Value v, Type t) {
  return v.getType() == t ? v : LLVM::BitcastOp::create(b, loc, t, v);
}

/// Shared lowering of both ops: `operandsOf(r)` gives register r's data
/// operands (val, or cmp and val).
LogicalResult
lowerAtomic(Operation *op, Value ptrIn, Value maskIn, Type resultType,
            StringRef ptxOpName, StringRef type, StringRef sem, StringRef scope,
            llvm::function_ref<SmallVector<Value>(int)> operandsOf,
            const TypeConverter &tc, ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  Type elemTy = convertElementType(tc, resultType);
  unsigned bits = elemTy.getIntOrFloatBitWidth();
  auto tensorTy = dyn_cast<RankedTensorType>(resultType);
  SmallVector<Value> ptrs =
      tensorTy ? unpackTensor(rewriter, loc, ptrIn) : SmallVector<Value>{ptrIn};
  SmallVector<Value> masks;
  if (maskIn)
    masks = tensorTy ? unpackTensor(rewriter, loc, maskIn)
                     : SmallVector<Value>{maskIn};

  std::optional<txlgpu::LayoutMap> map;
  Value performer; // i1: this thread performs its non-duplicate registers
  if (tensorTy) {
    map = txlgpu::getLayoutMap(tensorTy);
    if (!map)
      return op->emitError("atomic: unsupported layout");
    if (map->laneFreeMask() || map->warpFreeMask())
      performer = isFirstReplica(rewriter, loc, *map);
  } else {
    performer = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, threadIdX(rewriter, loc),
        i32Const(rewriter, loc, txlgpu::scalarPerformerThread(op)));
  }
  Value yes = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                       rewriter.getBoolAttr(true));
  SmallVector<Value> olds(ptrs.size());
  bool anyDuplicate = false;
  bool used = !op->getResult(0).use_empty();
  bool red = !used && hasRed(ptxOpName, sem);
  unsigned vec = red && tensorTy ? redVectorWidth(op, ptxOpName, elemTy,
                                                  op->getOperand(0).getType())
                                 : 1;
  red = red && vec > 1;
  for (size_t r = 0; r < ptrs.size(); ++r) {
    if (map && map->isDuplicateReg(r)) {
      anyDuplicate = true;
      continue;
    }
    Value pred = masks.empty() ? yes : masks[r];
    if (performer)
      pred = LLVM::AndOp::create(rewriter, loc, pred, performer);
    SmallVector<Value> data;
    for (Value v : operandsOf(r))
      data.push_back(toBits(rewriter, loc, v));
    if (red) {
      // Registers r .. r+vec-1 are consecutive elements in memory, equally
      // masked (the width is what the analysis proved), and all performed
      // or all duplicates together.
      if (r % vec)
        continue;
      for (unsigned i = 1; i < vec; ++i)
        data.push_back(toBits(rewriter, loc, operandsOf(r + i)[0]));
      emitRed(rewriter, loc, ptxOpName, type, sem, scope, ptrs[r], pred, data,
              bits);
      continue;
    }
    Value old = emitAtom(rewriter, loc, ptxOpName, type, sem, scope, ptrs[r],
                         pred, data, bits);
    olds[r] = fromBits(rewriter, loc, old, elemTy);
  }

  if (used && (performer || anyDuplicate)) {
    // Publish the old values: the performer of each element writes it,
    // everyone reads every register's element back.
    int64_t offset = scratchOffset(op);
    SmallVector<SmallVector<Value>> coords;
    SmallVector<int64_t> shape;
    if (tensorTy) {
      coords = allRegCoords(rewriter, loc, *map);
      shape.assign(tensorTy.getShape().begin(), tensorTy.getShape().end());
    }
    auto slot = [&](size_t r) {
      Value idx = tensorTy ? flatIndex(rewriter, loc, coords[r], shape)
                           : i32Const(rewriter, loc, 0);
      return scratchElementPtr(rewriter, loc, op, offset, elemTy, idx);
    };
    barrier(rewriter, loc);
    for (size_t r = 0; r < ptrs.size(); ++r) {
      if (!olds[r])
        continue;
      Value ptr = slot(r);
      Value writer = performer ? performer : yes;
      ifThen(rewriter, loc, writer,
             [&] { storeScratch(rewriter, loc, ptr, olds[r]); });
    }
    barrier(rewriter, loc);
    for (size_t r = 0; r < ptrs.size(); ++r)
      olds[r] = loadScratch(rewriter, loc, slot(r), elemTy);
  } else {
    // Unused (or every value already where it is needed): duplicates
    // repeat their original register's value.
    for (size_t r = 0; r < ptrs.size(); ++r)
      if (!olds[r])
        olds[r] =
            olds[0] ? olds[0] : LLVM::UndefOp::create(rewriter, loc, elemTy);
  }
  if (!tensorTy)
    rewriter.replaceOp(op, olds[0]);
  else
    rewriter.replaceOp(op, packTensor(rewriter, loc, tc, resultType, olds));
  return success();
}

struct AtomicRMWToLLVM : public ConvertOpToLLVMPattern<AtomicRMWOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool tensor = isa<RankedTensorType>(op.getType());
    SmallVector<Value> vals =
        tensor ? unpackTensor(rewriter, loc, adaptor.getVal())
               : SmallVector<Value>{adaptor.getVal()};
    Type elem = getElementTypeOrSelf(op.getType());
    return lowerAtomic(
        op, adaptor.getPtr(), adaptor.getMask(), op.getType(),
        ptxOp(op.getKind()), ptxType(op.getKind(), elem), op.getSem(),
        op.getScope(), [&](int r) { return SmallVector<Value>{vals[r]}; },
        *getTypeConverter(), rewriter);
  }
};

struct AtomicCASToLLVM : public ConvertOpToLLVMPattern<AtomicCASOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool tensor = isa<RankedTensorType>(op.getType());
    auto unpack = [&](Value v) {
      return tensor ? unpackTensor(rewriter, loc, v) : SmallVector<Value>{v};
    };
    SmallVector<Value> cmps = unpack(adaptor.getCmp());
    SmallVector<Value> vals = unpack(adaptor.getVal());
    Type elem = getElementTypeOrSelf(op.getType());
    return lowerAtomic(
        op, adaptor.getPtr(), Value(), op.getType(), "cas",
        ptxType("cas", elem), op.getSem(), op.getScope(),
        [&](int r) {
          return SmallVector<Value>{cmps[r], vals[r]};
        },
        *getTypeConverter(), rewriter);
  }
};

} // namespace

void mlir::txl::populateAtomicOpPatterns(TXLTypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<AtomicRMWToLLVM, AtomicCASToLLVM>(tc);
}
