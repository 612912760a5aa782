//===- PrintOpToLLVM.cpp - tl.device_print through CUDA's vprintf ---------===//
//
// `txl.print` becomes calls of the CUDA device runtime's
// `i32 vprintf(i8* format, i8* args)`: the format is a constant global
// string, the arguments are packed, naturally aligned, into a struct on the
// stack. Every thread prints one line per element it holds:
//
//   pid (<x>, <y>, <z>) idx (<i0>, <i1>, ...) <prefix><value>
//
// The coordinates come from the operand's linear layout; scalars have no
// idx part (and are printed by every thread). With several operands each
// line also names its operand. Registers that repeat a lower register of the
// same thread are skipped, but elements replicated across lanes or warps
// (broadcast layouts) are printed once by each thread owning them, as
// Triton does: which copy is "the" one is not the user's concern.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::txl;
using txlgpu::LayoutMap;

namespace {

constexpr llvm::StringLiteral kFormatPrefix = "txl_printf_format_";

/// One value ready for vprintf: its conversion spec and the (promoted)
/// argument that goes into the argument struct.
struct PrintfArg {
  std::string spec;
  Value value;
};

/// Digits of the largest index of a dimension, to align the idx columns.
int indexWidth(int64_t size) {
  return std::to_string(std::max<int64_t>(size - 1, 0)).size();
}

/// `%` in user text must not start a conversion.
std::string escapePercent(StringRef text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

/// Promotes `v` (converted LLVM scalar whose source type is `srcTy`) the way
/// C varargs would, and picks its conversion. Hex prints the bit pattern.
PrintfArg formatValue(OpBuilder &b, Location loc, Type srcTy, Value v,
                      bool hex) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Type llTy = v.getType();
  if (isa<LLVM::LLVMPointerType>(llTy))
    return {"%p", LLVM::PtrToIntOp::create(b, loc, i64, v)};
  unsigned bits = llTy.getIntOrFloatBitWidth();
  bool isFloat = isa<FloatType>(llTy);
  if (isFloat && !hex) {
    if (bits < 64)
      v = LLVM::FPExtOp::create(b, loc, b.getF64Type(), v);
    return {"%f", v};
  }
  // Integers, the bits of floats, and 8-bit floats (integers in LLVM, so
  // printed as their bits: there is no double to extend them to).
  if (isFloat)
    v = LLVM::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
  bool asBits = hex || isa<FloatType>(srcTy) || bits == 1;
  // Signless integers print signed, like Triton's default.
  bool isUnsigned = srcTy.isUnsignedInteger();
  if (bits > 32) {
    if (asBits)
      return {"0x%0" + std::to_string(bits / 4) + "llx", v};
    return {isUnsigned ? "%llu" : "%lld", v};
  }
  if (bits < 32)
    v = asBits || isUnsigned ? LLVM::ZExtOp::create(b, loc, i32, v).getResult()
                             : LLVM::SExtOp::create(b, loc, i32, v).getResult();
  if (bits == 1 && !hex)
    return {"%d", v};
  if (asBits)
    return {"0x%0" + std::to_string(std::max(bits, 8u) / 4) + "x", v};
  return {isUnsigned ? "%u" : "%d", v};
}

class VPrintfBuilder {
public:
  VPrintfBuilder(ConversionPatternRewriter &rewriter, Operation *op)
      : rewriter(rewriter), op(op), module(op->getParentOfType<ModuleOp>()) {}

  /// Emits `vprintf(format, {args...})` at the rewriter's insertion point.
  void print(Location loc, StringRef format, ArrayRef<Value> args) {
    Value formatPtr = formatString(loc, format);
    MLIRContext *ctx = rewriter.getContext();
    auto ptrTy = LLVM::LLVMPointerType::get(ctx);
    Value argsPtr;
    if (args.empty()) {
      argsPtr = LLVM::ZeroOp::create(rewriter, loc, ptrTy);
    } else {
      SmallVector<Type> fields;
      for (Value a : args)
        fields.push_back(a.getType());
      auto structTy = LLVM::LLVMStructType::getLiteral(ctx, fields);
      Value packed = LLVM::UndefOp::create(rewriter, loc, structTy);
      for (auto [i, a] : llvm::enumerate(args))
        packed = LLVM::InsertValueOp::create(rewriter, loc, packed, a, i);
      argsPtr = stackSlot(loc, structTy);
      LLVM::StoreOp::create(rewriter, loc, packed, argsPtr, /*alignment=*/8);
    }
    LLVM::CallOp::create(rewriter, loc, vprintf(loc),
                         ValueRange{formatPtr, argsPtr});
  }

private:
  ConversionPatternRewriter &rewriter;
  Operation *op;
  ModuleOp module;
  /// One stack slot per argument struct type, reused by every line of this
  /// op (vprintf has consumed the arguments when it returns).
  llvm::DenseMap<Type, Value> slots;

  /// The alloca goes into the function's entry block: there it is a static
  /// frame object; inside a loop it would be a dynamic stack allocation.
  Value stackSlot(Location loc, Type structTy) {
    if (Value slot = slots.lookup(structTy))
      return slot;
    OpBuilder::InsertionGuard guard(rewriter);
    Region *body = op->getParentRegion();
    if (auto fn = op->getParentOfType<FunctionOpInterface>())
      body = &fn.getFunctionBody();
    rewriter.setInsertionPointToStart(&body->front());
    Value one = i32Const(rewriter, loc, 1);
    Value slot = LLVM::AllocaOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
        structTy, one, /*alignment=*/8);
    slots[structTy] = slot;
    return slot;
  }

  /// `i32 vprintf(ptr, ptr)`, declared once per module.
  LLVM::LLVMFuncOp vprintf(Location loc) {
    if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>("vprintf"))
      return fn;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    auto ptrTy = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto fnTy =
        LLVM::LLVMFunctionType::get(rewriter.getI32Type(), {ptrTy, ptrTy});
    return LLVM::LLVMFuncOp::create(rewriter, loc, "vprintf", fnTy,
                                    LLVM::Linkage::External);
  }

  /// Address of a NUL-terminated constant holding `format`; one global per
  /// distinct string in the module.
  Value formatString(Location loc, StringRef format) {
    std::string bytes = format.str();
    bytes.push_back('\0');
    LLVM::GlobalOp global;
    unsigned count = 0;
    for (auto g : module.getOps<LLVM::GlobalOp>()) {
      if (!g.getSymName().starts_with(kFormatPrefix))
        continue;
      ++count;
      auto value = dyn_cast_or_null<StringAttr>(g.getValueOrNull());
      if (value && value.getValue() == bytes)
        global = g;
    }
    if (!global) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      auto type = LLVM::LLVMArrayType::get(rewriter.getI8Type(), bytes.size());
      std::string name = (kFormatPrefix + Twine(count)).str();
      while (module.lookupSymbol(name))
        name += "_";
      global = LLVM::GlobalOp::create(rewriter, loc, type, /*isConstant=*/true,
                                      LLVM::Linkage::Internal, name,
                                      rewriter.getStringAttr(bytes));
    }
    return LLVM::AddressOfOp::create(rewriter, loc, global);
  }
};

/// The `idx (...) ` part of a tensor's lines, columns as wide as the shape.
std::string indexFormat(const LayoutMap &map) {
  std::string format = " idx (";
  for (int d = 0; d < map.rank(); ++d)
    format +=
        (d ? ", %" : "%") + std::to_string(indexWidth(map.shape[d])) + "d";
  return format + ") ";
}

/// What every line of one print op shares: the program id and the prefix.
struct LineContext {
  VPrintfBuilder &printer;
  Location loc;
  SmallVector<Value> pid;
  std::string prefix; // user prefix, `%` escaped, plus the operand tag
  bool hex;
};

void printScalar(ConversionPatternRewriter &rewriter, LineContext &ctx,
                 Type srcTy, Value value) {
  PrintfArg arg = formatValue(rewriter, ctx.loc, srcTy, value, ctx.hex);
  SmallVector<Value> args(ctx.pid);
  args.push_back(arg.value);
  ctx.printer.print(ctx.loc, "pid (%u, %u, %u) " + ctx.prefix + arg.spec + "\n",
                    args);
}

/// One line per element this thread holds. Registers repeating a lower
/// register are skipped; lane/warp replicas still print once per thread.
void printTensor(ConversionPatternRewriter &rewriter, LineContext &ctx,
                 Type elemTy, const LayoutMap &map, Value llStruct) {
  std::string idx = indexFormat(map);
  SmallVector<Value> regs = unpackTensor(rewriter, ctx.loc, llStruct);
  SmallVector<SmallVector<Value>> coords = allRegCoords(rewriter, ctx.loc, map);
  for (int r = 0; r < map.numRegs() && r < (int)regs.size(); ++r) {
    if (map.isDuplicateReg(r))
      continue;
    PrintfArg arg = formatValue(rewriter, ctx.loc, elemTy, regs[r], ctx.hex);
    SmallVector<Value> args(ctx.pid);
    args.append(coords[r].begin(), coords[r].end());
    args.push_back(arg.value);
    ctx.printer.print(
        ctx.loc, "pid (%u, %u, %u)" + idx + ctx.prefix + arg.spec + "\n", args);
  }
}

struct PrintToVPrintf : public ConvertOpToLLVMPattern<PrintOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Check every layout first: a failed match must leave no IR behind.
    SmallVector<std::optional<LayoutMap>> maps;
    for (Value v : op.getArgs()) {
      maps.push_back(std::nullopt);
      if (auto tensor = dyn_cast<RankedTensorType>(v.getType())) {
        maps.back() = txlgpu::getLayoutMap(tensor);
        if (!maps.back())
          return rewriter.notifyMatchFailure(op, "operand without a layout");
      }
    }
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    VPrintfBuilder printer(rewriter, op);
    LineContext ctx{printer,
                    loc,
                    {NVVM::BlockIdXOp::create(rewriter, loc, i32),
                     NVVM::BlockIdYOp::create(rewriter, loc, i32),
                     NVVM::BlockIdZOp::create(rewriter, loc, i32)},
                    "",
                    op.getHex()};
    std::string prefix = escapePercent(op.getPrefix());
    if (op.getArgs().empty())
      printer.print(loc, "pid (%u, %u, %u) " + prefix + "\n", ctx.pid);

    size_t numArgs = op.getArgs().size();
    for (auto [k, orig, conv] :
         llvm::enumerate(op.getArgs(), adaptor.getArgs())) {
      // With several operands, each line says which one it shows.
      ctx.prefix = prefix;
      if (numArgs > 1)
        ctx.prefix += "(operand " + std::to_string(k) + ") ";
      Type elemTy = getElementTypeOrSelf(orig.getType());
      if (maps[k])
        printTensor(rewriter, ctx, elemTy, *maps[k], conv);
      else
        printScalar(rewriter, ctx, elemTy, conv);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::txl::populatePrintOpPatterns(TXLTypeConverter &tc,
                                        RewritePatternSet &patterns) {
  patterns.add<PrintToVPrintf>(tc);
}
