//===- InlineAsm.cpp - tl.inline_asm_elementwise --------------------------===//
//
// Inline PTX applied element-wise (txl.elementwise_inline_asm). The
// arguments are broadcast together, never converted (Triton's rule); each
// asm instance takes `pack` elements of every argument and gives `pack` of
// every result, elements narrower than 32 bits packed into 32-bit registers.
// LLVM trusts the constraint string to match the operands, so its counts
// are checked here, where a mismatch can still be a located error.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace txl::irgen {

namespace {

/// Module attribute: "file:line:col" of the first inline asm call
/// (Pipeline.cpp names it when ptxas rejects the PTX).
constexpr const char *kInlineAsmAttr = "txl.inline_asm";

int storageBits(const DType &d) { return d.isPtr() ? 64 : d.bitWidth(); }

/// Registers one asm instance uses for `pack` elements of `d` (fails when
/// `pack` elements do not fill whole registers).
int64_t registersPerInstance(Gen &g, const DType &d, int64_t pack,
                             const std::string &what, SourceLoc loc) {
  if (d.isBool())
    g.fail(loc, "tl.inline_asm_elementwise: " + what +
                    " has dtype int1; use int8 or int32");
  int64_t perReg = std::min<int64_t>(std::max(32 / storageBits(d), 1), pack);
  if (pack % perReg != 0)
    g.fail(loc, "tl.inline_asm_elementwise: pack=" + std::to_string(pack) +
                    " does not fill whole 32-bit registers of " + d.str() +
                    " (" + what + ")");
  return pack / perReg;
}

struct ConstraintCounts {
  int64_t outputs = 0, inputs = 0;
};

/// Counts outputs and inputs; fails on a register class NVPTX does not
/// have (LLVM would stop without a location).
ConstraintCounts countConstraints(Gen &g, llvm::StringRef constraints,
                                  SourceLoc loc) {
  ConstraintCounts c;
  llvm::SmallVector<llvm::StringRef> parts;
  constraints.split(parts, ',');
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (part.empty() || part.starts_with("~"))
      continue;
    bool output = part.consume_front("=");
    part.consume_front("&");
    // b c h r l q: 1/8/16/32/64/128-bit integers; f d: fp32/fp64; n: an
    // immediate; digits: tied to that output.
    if (part.empty() ||
        (part.find_first_not_of("bchrlqfdn") != llvm::StringRef::npos &&
         part.find_first_not_of("0123456789") != llvm::StringRef::npos))
      g.fail(loc, "tl.inline_asm_elementwise: unknown constraint '" +
                      part.str() +
                      "' (PTX registers: h, r, l, f, d; n for immediates)");
    ++(output ? c.outputs : c.inputs);
  }
  return c;
}

std::string constStr(Gen &g, const std::optional<Val> &v, const char *what,
                     SourceLoc loc) {
  if (!v || v->kind != Val::Kind::Str)
    g.fail(loc, std::string("tl.inline_asm_elementwise: ") + what +
                    " must be a string, got " +
                    (v ? v->kindName() : std::string("nothing")));
  return v->s;
}

} // namespace

namespace handlers {

Val inlineAsmElementwise(Gen &g, const std::string &name, CallArgs &args,
                         SourceLoc loc) {
  auto p =
      g.bind(args, {"asm", "constraints", "args", "dtype", "is_pure", "pack"},
             6, name, loc);
  std::string asmText = constStr(g, p[0], "asm", loc);
  std::string constraints = constStr(g, p[1], "constraints", loc);
  if (!p[2]->isTuple())
    g.fail(loc, "tl.inline_asm_elementwise: args must be a list or tuple of "
                "tensors, got " +
                    p[2]->kindName());
  bool multipleResults = p[3]->isTuple();
  std::vector<Val> dtypeVals =
      multipleResults ? p[3]->elts : std::vector<Val>{*p[3]};
  if (dtypeVals.empty())
    g.fail(loc, "tl.inline_asm_elementwise needs at least one result dtype");
  std::vector<DType> dtypes;
  for (const Val &d : dtypeVals)
    dtypes.push_back(g.constDType(d, "dtype", loc));
  if (!p[4]->isConstant())
    g.fail(loc, "tl.inline_asm_elementwise: is_pure must be a compile-time "
                "bool");
  bool isPure = g.truthy(*p[4], loc);
  int64_t pack = g.constInt(p[5], "pack", loc);
  if (pack < 1 || pack > 16)
    g.fail(loc, "tl.inline_asm_elementwise: pack must be in [1, 16], got " +
                    std::to_string(pack));

  // Broadcast every argument to the common shape (dtypes unchanged).
  std::vector<TValue> xs;
  for (const Val &a : p[2]->elts)
    xs.push_back(g.toTensor(a, loc));
  for (size_t i = 1; i < xs.size(); ++i)
    std::tie(xs[0], xs[i]) = g.broadcastPair(xs[0], xs[i], loc);
  for (size_t i = 1; i < xs.size(); ++i)
    std::tie(xs[i], xs[0]) = g.broadcastPair(xs[i], xs[0], loc);
  std::vector<int64_t> shape =
      xs.empty() ? std::vector<int64_t>{} : xs[0].shape;

  ConstraintCounts want;
  for (size_t i = 0; i < dtypes.size(); ++i)
    want.outputs += registersPerInstance(g, dtypes[i], pack,
                                         "result " + std::to_string(i), loc);
  for (size_t i = 0; i < xs.size(); ++i)
    want.inputs += registersPerInstance(g, xs[i].dtype, pack,
                                        "argument " + std::to_string(i), loc);
  ConstraintCounts got = countConstraints(g, constraints, loc);
  if (got.outputs != want.outputs || got.inputs != want.inputs)
    g.fail(loc, "tl.inline_asm_elementwise: the constraints name " +
                    std::to_string(got.outputs) + " outputs and " +
                    std::to_string(got.inputs) +
                    " inputs, but pack=" + std::to_string(pack) +
                    " of these dtypes needs " + std::to_string(want.outputs) +
                    " outputs and " + std::to_string(want.inputs) + " inputs");

  SmallVector<Value> operands;
  for (const TValue &x : xs)
    operands.push_back(x.value);
  SmallVector<Type> resultTypes;
  for (const DType &d : dtypes)
    resultTypes.push_back(g.mlirType(d, shape));
  auto op = mlir::txl::ElementwiseInlineAsmOp::create(
      g.b, g.cur, resultTypes, operands, g.b.getStringAttr(asmText),
      g.b.getStringAttr(constraints), g.b.getBoolAttr(isPure),
      g.b.getI32IntegerAttr(int32_t(pack)));
  // Where ptxas errors point: they are most likely in the user's asm.
  auto module = op->getParentOfType<ModuleOp>();
  if (module && !module->hasAttr(kInlineAsmAttr))
    module->setAttr(kInlineAsmAttr,
                    g.b.getStringAttr(g.curFile->getName() + ":" +
                                      std::to_string(loc.line) + ":" +
                                      std::to_string(loc.col)));
  std::vector<Val> results;
  for (size_t i = 0; i < dtypes.size(); ++i)
    results.push_back(Val::tensor({op->getResult(i), dtypes[i], shape}));
  return multipleResults ? Val::tuple(results) : results.front();
}

} // namespace handlers

} // namespace txl::irgen
