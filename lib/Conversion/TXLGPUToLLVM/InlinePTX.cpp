//===- InlinePTX.cpp - the only place txl writes PTX text -----------------===//
#include "InlinePTX.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::txl;

static StringRef cacheSuffix(CacheModifier cache, bool isStore) {
  switch (cache) {
  case CacheModifier::CA:
    return isStore ? "" : ".ca";
  case CacheModifier::CG:
    return ".cg";
  case CacheModifier::CS:
    return ".cs";
  case CacheModifier::CV:
    return isStore ? "" : ".cv";
  case CacheModifier::WB:
    return isStore ? ".wb" : "";
  case CacheModifier::WT:
    return isStore ? ".wt" : "";
  case CacheModifier::None:
    return "";
  }
  return "";
}

static StringRef evictSuffix(EvictionPolicy evict) {
  switch (evict) {
  case EvictionPolicy::EvictFirst:
    return ".L1::evict_first";
  case EvictionPolicy::EvictLast:
    return ".L1::evict_last";
  case EvictionPolicy::Normal:
    return "";
  }
  return "";
}

/// Registers are at least 16 bits wide; an 8-bit access uses a .b16 one.
static unsigned regBitsFor(unsigned wordBits) {
  return std::max(wordBits, 16u);
}

static char constraintFor(unsigned wordBits) {
  unsigned bits = regBitsFor(wordBits);
  return bits == 64 ? 'l' : bits == 32 ? 'r' : 'h';
}

/// "v4." for four words, "" for one.
static std::string vecPrefix(size_t n) {
  return n == 1 ? std::string() : llvm::formatv("v{0}.", n).str();
}

/// "{ $0, $1 }" or "$0" for operands first..first+n-1.
static std::string operandList(unsigned first, size_t n) {
  if (n == 1)
    return llvm::formatv("${0}", first).str();
  std::string s = "{ ";
  for (size_t i = 0; i < n; ++i)
    s += llvm::formatv("{0}${1}", i ? ", " : "", first + i).str();
  return s + " }";
}

SmallVector<Value>
mlir::txl::emitPredicatedLoad(OpBuilder &b, Location loc, Value ptr, Value pred,
                              unsigned wordBits, ArrayRef<Value> others,
                              CacheModifier cache, EvictionPolicy evict,
                              bool isVolatile) {
  size_t n = others.size();
  char c = constraintFor(wordBits);
  // Outputs $0..$n-1, then ptr $n, pred $n+1, others $n+2...
  std::string asmText =
      llvm::formatv("{ .reg .pred p; setp.ne.b32 p, ${0}, 0;", n + 1).str();
  for (size_t i = 0; i < n; ++i)
    asmText += llvm::formatv(" mov.b{0} ${1}, ${2};", regBitsFor(wordBits), i,
                             n + 2 + i)
                   .str();
  asmText +=
      llvm::formatv(" @p ld{0}.global{1}{2}.{3}b{4} {5}, [ ${6} + 0 ]; }",
                    isVolatile ? ".volatile" : "",
                    isVolatile ? "" : cacheSuffix(cache, false),
                    isVolatile ? "" : evictSuffix(evict), vecPrefix(n),
                    wordBits, operandList(0, n), n)
          .str();
  std::string constraints;
  for (size_t i = 0; i < n; ++i)
    constraints += std::string("=") + c + ",";
  constraints += "l,r";
  for (size_t i = 0; i < n; ++i)
    constraints += std::string(",") + c;

  SmallVector<Value> operands{
      ptr, LLVM::ZExtOp::create(b, loc, b.getI32Type(), pred)};
  operands.append(others.begin(), others.end());
  Type wordTy = b.getIntegerType(regBitsFor(wordBits));
  SmallVector<Type> fields(n, wordTy);
  Type resultTy =
      n == 1 ? wordTy
             : LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  // Marked as having side effects (as Triton's loads are): an inline_asm
  // without them is pure to MLIR and LLVM, so two loads of one address
  // with a store between them were merged into the first (a load after a
  // store read the old value).
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultTy, operands, asmText, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
  if (n == 1)
    return {asmOp.getResult(0)};
  SmallVector<Value> words;
  for (size_t i = 0; i < n; ++i)
    words.push_back(
        LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return words;
}

void mlir::txl::emitPredicatedStore(OpBuilder &b, Location loc, Value ptr,
                                    Value pred, unsigned wordBits,
                                    ArrayRef<Value> words, CacheModifier cache,
                                    EvictionPolicy evict) {
  size_t n = words.size();
  // ptr $0, pred $1, words $2...
  std::string asmText =
      llvm::formatv("{ .reg .pred p; setp.ne.b32 p, $1, 0; @p "
                    "st.global{0}{1}.{2}b{3} [ $0 + 0 ], {4}; }",
                    cacheSuffix(cache, true), evictSuffix(evict), vecPrefix(n),
                    wordBits, operandList(2, n))
          .str();
  std::string constraints = "l,r";
  for (size_t i = 0; i < n; ++i)
    constraints += std::string(",") + constraintFor(wordBits);
  SmallVector<Value> operands{
      ptr, LLVM::ZExtOp::create(b, loc, b.getI32Type(), pred)};
  operands.append(words.begin(), words.end());
  LLVM::InlineAsmOp::create(b, loc, TypeRange(), operands, asmText, constraints,
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

/// An asm statement with side effects that takes `regs` and gives them
/// back through outputs tied to the inputs: the instructions computing them
/// stay above it and every later use is ordered after it.
static SmallVector<Value> tiedAsm(OpBuilder &b, Location loc,
                                  const std::string &asmText,
                                  ArrayRef<Value> regs) {
  size_t n = regs.size();
  std::string outs, ins;
  SmallVector<Type> types;
  for (size_t i = 0; i < n; ++i) {
    char c = regs[i].getType().isF32() ? 'f' : 'r';
    outs += llvm::formatv("{0}={1}", i ? "," : "", c).str();
    ins += llvm::formatv(",{0}", i).str();
    types.push_back(regs[i].getType());
  }
  Type resultTy = n == 1
                      ? types[0]
                      : LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, n ? TypeRange(resultTy) : TypeRange(), regs, asmText,
      outs + (n ? ins : ""), /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  if (n == 0)
    return {};
  if (n == 1)
    return {asmOp.getResult(0)};
  SmallVector<Value> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return out;
}

SmallVector<Value> mlir::txl::emitWarpGroupDotWait(OpBuilder &b, Location loc,
                                                   int pendings,
                                                   ArrayRef<Value> regs) {
  // The asm "redefines" each accumulator register, so no read of one can
  // move above the wait.
  return tiedAsm(
      b, loc,
      llvm::formatv("wgmma.wait_group.sync.aligned {0};", pendings).str(),
      regs);
}

Value mlir::txl::emitMBarrierTryWaitOnce(OpBuilder &b, Location loc, Value bar,
                                         Value parity,
                                         std::optional<int> suspendHintNs) {
  // A shared-window pointer is 32 bits wide (NVPTX's short shared
  // pointers): the asm takes it as is, in the `%r` register the other
  // mbarrier instructions on it name.
  auto ptrType = dyn_cast<LLVM::LLVMPointerType>(bar.getType());
  bool shortPointer = ptrType && ptrType.getAddressSpace() == 3;
  Value address =
      shortPointer
          ? bar
          : LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), bar).getResult();
  std::string hint =
      suspendHintNs ? llvm::formatv(", {0}", *suspendHintNs).str() : "";
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, TypeRange(b.getI32Type()), ValueRange{address, parity},
      "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [$1], $2" +
          hint + "; selp.u32 $0, 1, 0, p; }",
      shortPointer ? "=r,r,r" : "=r,l,r", /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  Value zero =
      LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(0));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                              asmOp.getResult(0), zero);
}

SmallVector<Value> mlir::txl::emitWarpGroupDotRegisterA(
    OpBuilder &b, Location loc, ArrayRef<Value> acc, ArrayRef<Value> a,
    Value descB, StringRef type, int64_t k, bool transposeB, bool accumulate) {
  size_t n = acc.size();
  // Outputs $0..$n-1 tied to inputs $n..$2n-1 (the accumulators), then
  // A's registers $2n..$2n+3, B's descriptor $2n+4, and scale-d (1, or 0
  // without `accumulate`) as $2n+5 for the predicate. The 16-bit forms end
  // with B's transpose immediate; the 8-bit ones have none.
  std::string transpose =
      k == 16 ? llvm::formatv(", {0}", transposeB ? 1 : 0).str() : "";
  std::string asmText =
      llvm::formatv("{{ .reg .pred p; setp.ne.b32 p, ${0}, 0; "
                    "wgmma.mma_async.sync.aligned.m64n{1}k{7}.f32.{2}.{2} "
                    "{3}, {4}, ${5}, p, 1, 1{6}; }",
                    2 * n + 5, 2 * n, type, operandList(0, n),
                    operandList(2 * n, 4), 2 * n + 4, transpose, k)
          .str();
  std::string constraints;
  for (size_t i = 0; i < n; ++i)
    constraints += llvm::formatv("{0}=f", i ? "," : "").str();
  for (size_t i = 0; i < n; ++i)
    constraints += llvm::formatv(",{0}", i).str();
  constraints += ",r,r,r,r,l,r";
  SmallVector<Value> operands(acc.begin(), acc.end());
  operands.append(a.begin(), a.end());
  operands.push_back(descB);
  operands.push_back(LLVM::ConstantOp::create(
      b, loc, b.getI32Type(), b.getI32IntegerAttr(accumulate ? 1 : 0)));
  SmallVector<Type> types(n, b.getF32Type());
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, LLVM::LLVMStructType::getLiteral(b.getContext(), types), operands,
      asmText, constraints, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  SmallVector<Value> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return out;
}

SmallVector<Value> mlir::txl::emitRegisterPin(OpBuilder &b, Location loc,
                                              ArrayRef<Value> regs) {
  return tiedAsm(b, loc, "// registers ready", regs);
}

void mlir::txl::emitTensorMapReplace(OpBuilder &b, Location loc, Value map,
                                     StringRef field, std::optional<int> ord,
                                     Value value, int64_t imm) {
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), map);
  SmallVector<Value> operands{address};
  std::string text, constraints = "l";
  if (value) {
    bool wide = value.getType().isInteger(64);
    text = llvm::formatv("tensormap.replace.tile.{0}.shared::cta.b1024.b{1} "
                         "[$0], {2}$1;",
                         field, wide ? 64 : 32,
                         ord ? llvm::formatv("{0}, ", *ord).str() : "")
               .str();
    constraints += wide ? ",l" : ",r";
    operands.push_back(value);
  } else {
    text = llvm::formatv("tensormap.replace.tile.{0}.shared::cta.b1024.b32 "
                         "[$0], {1};",
                         field, imm)
               .str();
  }
  LLVM::InlineAsmOp::create(b, loc, TypeRange(), operands, text, constraints,
                            /*has_side_effects=*/true, /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

void mlir::txl::emitTensorMapCopyRelease(OpBuilder &b, Location loc, Value dst,
                                         Value map) {
  Value from = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), map);
  Value to = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), dst);
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange(), ValueRange{to, from},
      "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release."
      "gpu.sync.aligned [$0], [$1], 128;",
      "l,l", /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
}
