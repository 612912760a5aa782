//===- IRGenTest.cpp - AST to txl dialect builder tests -------------------===//
#include "txl/Frontend/IRGen.h"
#include "txl/Frontend/Parser.h"
#include "txl/Pipeline/Pipeline.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <dirent.h>
#include <fstream>
#include <random>
#include <sstream>

using namespace txl;

namespace {

/// A small test-side signature parser: "*fp32:16" pointer (divisible by
/// 16), "i32", "i32:16", "i32:1" (equal to one), "none", anything else a
/// constexpr value as source text. "tensordesc<fp16[64, 128]>" entries go to
/// the compiler's own parser (their commas are inside brackets).
std::vector<ArgSpec> parseSig(const std::string &text) {
  std::vector<ArgSpec> out;
  std::vector<std::string> items(1);
  int depth = 0;
  for (char c : text) {
    if (c == '[')
      ++depth;
    else if (c == ']')
      --depth;
    if (c == ',' && depth == 0)
      items.emplace_back();
    else
      items.back() += c;
  }
  for (std::string item : items) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty())
      continue;
    ArgSpec a;
    if (item.rfind("tensordesc", 0) == 0) {
      std::vector<ArgSpec> one;
      std::string error;
      EXPECT_TRUE(parseSignature(item, one, error)) << item << ": " << error;
      if (one.size() == 1)
        a = one[0];
      out.push_back(a);
      continue;
    }
    std::string body = item, suffix;
    if (item.find(':') != std::string::npos) {
      body = item.substr(0, item.find(':'));
      suffix = item.substr(item.find(':') + 1);
    }
    if (body == "none") {
      a.kind = ArgSpec::Kind::None;
    } else if (body[0] == '*') {
      a.kind = ArgSpec::Kind::Pointer;
      a.type = body.substr(1);
    } else if (std::isalpha(body[0]) && body.find('.') == std::string::npos &&
               body != "True" && body != "False" && body[0] != '"' &&
               body != "None") {
      a.kind = ArgSpec::Kind::Scalar;
      a.type = body;
    } else {
      a.kind = ArgSpec::Kind::Constexpr;
      a.constValue = item;
      suffix.clear();
    }
    if (suffix == "16")
      a.divisibility = 16;
    if (suffix == "1")
      a.equalsOne = true;
    out.push_back(a);
  }
  return out;
}

struct Result {
  bool ok = false;
  std::string ir;
  std::string diag;
};

Result build(const std::string &src, const std::string &kernel,
             const std::string &sig,
             std::map<std::string, std::string> globals = {},
             const std::string &fileName = "k.py",
             const CompileOptions &base = CompileOptions()) {
  Result r;
  SourceFile file(fileName, src);
  std::unique_ptr<Module> ast = parseModule(file, r.diag);
  if (!ast)
    return r;
  mlir::MLIRContext ctx;
  CompileOptions opts = base;
  opts.kernelName = kernel;
  opts.signature = parseSig(sig);
  opts.globals = std::move(globals);
  mlir::OwningOpRef<mlir::ModuleOp> m =
      buildKernelIR(ctx, *ast, file, opts, r.diag);
  if (!m)
    return r;
  r.ok = mlir::succeeded(mlir::verify(*m));
  llvm::raw_string_ostream os(r.ir);
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(true, /*prettyForm=*/false);
  m->print(os, flags);
  return r;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t count(const std::string &s, const std::string &needle) {
  size_t n = 0;
  for (size_t p = s.find(needle); p != std::string::npos;
       p = s.find(needle, p + 1))
    ++n;
  return n;
}

#define EXPECT_HAS(ir, needle)                                                 \
  EXPECT_NE((ir).find(needle), std::string::npos)                              \
      << "missing: " << (needle) << "\n--- IR ---\n"                           \
      << (ir)
#define EXPECT_LACKS(ir, needle)                                               \
  EXPECT_EQ((ir).find(needle), std::string::npos)                              \
      << "unexpected: " << (needle) << "\n--- IR ---\n"                        \
      << (ir)
#define ASSERT_BUILDS(r) ASSERT_TRUE((r).ok) << (r).diag << (r).ir

const char *kHeader = "import triton\nimport triton.language as tl\n\n";

std::string kernelSrc(const std::string &params, const std::string &body) {
  return std::string(kHeader) + "@triton.jit\ndef k(" + params + "):\n" + body;
}

std::string examplesDir() { return TXL_EXAMPLES_DIR; }

//===----------------------------------------------------------------------===//
// Example kernels
//===----------------------------------------------------------------------===//

TEST(IRGenExamples, VectorAdd) {
  Result r = build(readFile(examplesDir() + "/vector_add.py"), "add_kernel",
                   "*fp32:16, *fp32:16, *fp32:16, i32, 1024",
                   {}, "vector_add.py");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "txl.kernel");
  EXPECT_HAS(r.ir, "txl.divisibility = 16 : i32");
  EXPECT_HAS(r.ir, "txl.make_range {end = 1024 : i32, start = 0 : i32}");
  EXPECT_EQ(count(r.ir, "txl.load"), 2u);
  EXPECT_EQ(count(r.ir, "txl.store"), 1u);
  EXPECT_HAS(r.ir, "arith.addf");
  EXPECT_HAS(r.ir, "arith.cmpi slt");
  EXPECT_HAS(r.ir, "txl.source_file = \"vector_add.py\"");
  EXPECT_HAS(r.ir, "loc(\"vector_add.py\":");
  // The constexpr BLOCK_SIZE is not an argument.
  EXPECT_HAS(r.ir, "func.func @add_kernel(%arg0: !txl.ptr<f32>");
  EXPECT_LACKS(r.ir, "%arg4");
}

TEST(IRGenExamples, FusedSoftmax) {
  Result r = build(readFile(examplesDir() + "/fused_softmax.py"),
                   "softmax_kernel",
                   "*fp32:16, *fp32:16, i32, i32, i32, i32, 1024, 4");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "scf.for");
  EXPECT_HAS(r.ir, "txl.num_stages = 4 : i32");
  EXPECT_EQ(count(r.ir, "txl.reduce("), 2u) << r.ir;
  EXPECT_HAS(r.ir, "arith.maxnumf");
  EXPECT_HAS(r.ir, "math.exp");
  EXPECT_HAS(r.ir, "arith.divf");
  EXPECT_HAS(r.ir, "0xFF800000"); // -inf as `other`
}

TEST(IRGenExamples, LayerNorm) {
  Result r = build(readFile(examplesDir() + "/layer_norm.py"),
                   "_layer_norm_fwd",
                   "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, "
                   "*fp32:16, i32, i32, fp32, 512");
  ASSERT_BUILDS(r);
  EXPECT_EQ(count(r.ir, "scf.for"), 3u);
  // The accumulators are loop-carried tensors.
  EXPECT_HAS(r.ir, "iter_args(");
  EXPECT_HAS(r.ir, "math.sqrt");
  EXPECT_HAS(r.ir, "arith.extf");   // fp16 loads widened to fp32
  EXPECT_HAS(r.ir, "arith.truncf"); // stored back as fp16
  EXPECT_HAS(r.ir, "arith.select");
}

TEST(IRGenExamples, CopyAndTranspose) {
  std::string src = readFile(examplesDir() + "/transpose_2d.py");
  Result c = build(src, "copy_2d_kernel",
                   "*fp16:16, *fp16:16, i32, i32, i32:16, i32:16, 32, 64");
  ASSERT_BUILDS(c);
  EXPECT_HAS(c.ir, "tensor<32x64x!txl.ptr<f16>>");
  EXPECT_HAS(c.ir, "txl.expand_dims");
  EXPECT_HAS(c.ir, "txl.broadcast");
  EXPECT_HAS(c.ir, "arith.andi");
  Result t = build(src, "transpose_kernel",
                   "*fp32:16, *fp32:16, i32, i32, i32, i32, 64, 32");
  ASSERT_BUILDS(t);
  EXPECT_HAS(t.ir, "txl.trans");
  EXPECT_HAS(t.ir, "order = array<i32: 1, 0>");
}

TEST(IRGenExamples, Argmax) {
  Result r = build(readFile(examplesDir() + "/argmax_rows.py"),
                   "row_argmax_kernel", "*fp16:16, *i32:16, *fp16, i32, i32, 256");
  ASSERT_BUILDS(r);
  // argmax reduces value and index together; the value is widened to fp32
  // only for tl.max (Triton rule), argmax keeps fp16.
  EXPECT_HAS(r.ir, "(tensor<256xf16>, tensor<256xi32>) -> (f16, i32)");
  EXPECT_HAS(r.ir, "arith.cmpf ogt, %arg5, %arg7 : f16");
  EXPECT_HAS(r.ir, "arith.cmpi slt, %arg6, %arg8 : i32"); // tie -> lower index
  EXPECT_HAS(r.ir, "txl.reduce.return %22, %23 : f16, i32");
  EXPECT_HAS(r.ir, "(tensor<256xf32>) -> f32");
}

//===----------------------------------------------------------------------===//
// Promotion and broadcasting
//===----------------------------------------------------------------------===//

/// Builds `out = a OP b` for runtime scalars of the given types and returns
/// the stored element type from the IR.
std::string promote(const std::string &ta, const std::string &tb,
                    const std::string &op) {
  std::string src = kernelSrc("a, b, out", "    tl.store(out, (a " + op +
                                               " b).to(tl.float64))\n"
                                               "    tl.static_print((a " +
                                               op + " b).dtype)\n");
  Result r = build(src, "k", ta + ", " + tb + ", *fp64");
  if (!r.ok)
    return "error: " + r.diag;
  return r.ir;
}

std::string resultDType(const std::string &params, const std::string &sig,
                        const std::string &expr) {
  std::string src =
      kernelSrc(params, "    x = " + expr + "\n    tl.static_assert(False, x.dtype)\n");
  Result r = build(src, "k", sig);
  size_t p = r.diag.find("static_assert failed: ");
  if (p == std::string::npos)
    return "no result: " + r.diag;
  size_t e = r.diag.find('\n', p);
  return r.diag.substr(p + 22, e - p - 22);
}

TEST(IRGenPromotion, Table) {
  struct Case {
    const char *sig, *expr, *expected;
  } cases[] = {
      {"i32, i32", "a + b", "int32"},
      {"i32, i64", "a + b", "int64"},
      {"i8, i16", "a * b", "int16"},
      {"u32, i32", "a + b", "uint32"},
      {"u8, i32", "a + b", "int32"},
      {"u32, i64", "a - b", "int64"},
      {"fp16, fp32", "a + b", "fp32"},
      {"fp16, fp16", "a + b", "fp16"},
      {"fp16, fp16", "a / b", "fp32"},
      {"bf16, bf16", "a * b", "bf16"},
      {"bf16, fp16", "a + b", "fp16"},
      {"bf16, i32", "a + b", "fp32"},
      {"fp64, fp32", "a + b", "fp64"},
      {"i32, i32", "a / b", "fp32"},
      {"i32, i32", "a // b", "int32"},
      {"i32, fp16", "a + b", "fp16"},
      {"i1, i1", "a & b", "int1"},
      {"i1, i32", "a + b", "int32"},
      {"fp8e4nv, fp8e5", "a + b", "fp16"},
      {"fp8e5, fp8e5", "a + b", "fp8e5"},
      // Python numbers do not widen tensors of the same or higher kind.
      {"i8, i8", "a + 1", "int8"},
      {"fp16, fp16", "a * 2.0", "fp16"},
      {"fp16, fp16", "a / 2.0", "fp32"},
      {"i16, i16", "a + 1.5", "fp32"},
      {"i64, i64", "a * 3", "int64"},
      {"i32, i32", "a + 2**40", "int32"}, // folded first, then range-checked
      {"i1, i1", "a + 1", "int32"},
      {"u8, u8", "a + 255", "uint8"},
      {"i32, i32", "a < b", "int1"},
      {"fp32, fp32", "a != b", "int1"},
  };
  for (const Case &c : cases) {
    std::string got = resultDType("a, b", c.sig, c.expr);
    if (std::string(c.expr) == "a + 2**40") {
      EXPECT_NE(got.find("out of range"), std::string::npos) << got;
      continue;
    }
    EXPECT_EQ(got, c.expected) << c.sig << "  " << c.expr;
  }
}

TEST(IRGenPromotion, Errors) {
  EXPECT_NE(resultDType("a, b", "u32, i32", "a // b")
                .find("different signedness"),
            std::string::npos);
  EXPECT_NE(resultDType("a, b", "u8, u8", "a + -1").find("negative scalar"),
            std::string::npos);
  EXPECT_NE(resultDType("a, b", "fp32, fp32", "a & b")
                .find("invalid operands of type fp32 and fp32"),
            std::string::npos);
}

TEST(IRGenPromotion, FloatCompareOrderedExceptNotEqual) {
  Result r = build(kernelSrc("a, b, o", "    tl.store(o, (a < b) | (a == b) | "
                                        "(a != b))\n"),
                   "k", "fp32, fp32, *i1");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "arith.cmpf olt");
  EXPECT_HAS(r.ir, "arith.cmpf oeq");
  EXPECT_HAS(r.ir, "arith.cmpf une");
  // Bool pointers are stored as i8.
  EXPECT_HAS(r.ir, "!txl.ptr<i8>");
}

TEST(IRGenPromotion, UnsignedOps) {
  Result r = build(kernelSrc("a, b, o", "    tl.store(o, (a // b) + (a % b) + "
                                        "(a >> 1) + (a < b))\n"),
                   "k", "u32, u32, *u32");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "arith.divui");
  EXPECT_HAS(r.ir, "arith.remui");
  EXPECT_HAS(r.ir, "arith.shrui");
  EXPECT_HAS(r.ir, "arith.cmpi ult");
  EXPECT_HAS(r.ir, "arith.extui");
}

TEST(IRGenBroadcast, ShapesAndScalars) {
  Result r = build(
      kernelSrc("p, n", "    r = tl.arange(0, 16)\n"
                        "    c = tl.arange(0, 32)\n"
                        "    offs = r[:, None] * 32 + c[None, :]\n"
                        "    m = offs < n\n"
                        "    v = tl.load(p + offs, mask=m, other=0)\n"
                        "    s = v + tl.arange(0, 32)\n"
                        "    tl.store(p + offs, s)\n"),
      "k", "*fp32:16, i32");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "tensor<16x1xi32>");
  EXPECT_HAS(r.ir, "tensor<1x32xi32>");
  EXPECT_HAS(r.ir, "-> tensor<16x32xi32>");
  EXPECT_HAS(r.ir, "txl.splat %arg1 : i32 -> tensor<16x32xi32>");
  // The rank-1 operand is left-padded then broadcast.
  EXPECT_HAS(r.ir, "tensor<32xf32> -> tensor<1x32xf32>");
  EXPECT_HAS(r.ir, "arith.sitofp");
}

TEST(IRGenBroadcast, Mismatch) {
  Result r = build(kernelSrc("p", "    x = tl.arange(0, 128) + "
                                  "tl.arange(0, 64)\n"),
                   "k", "*fp32");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diag.find("incompatible shapes [128] and [64]"),
            std::string::npos)
      << r.diag;
}

//===----------------------------------------------------------------------===//
// Compile-time evaluation, control flow, helpers
//===----------------------------------------------------------------------===//

TEST(IRGenStatic, StaticIfBuildsOnlyTakenBranch) {
  std::string body = "    if MODE == 'relu':\n"
                     "        y = tl.maximum(tl.load(p), 0.0)\n"
                     "    elif MODE == 'bad':\n"
                     "        y = undefined_name + 1\n"
                     "    else:\n"
                     "        y = tl.load(p) * 2\n"
                     "    tl.store(p, y)\n";
  Result relu = build(kernelSrc("p, MODE: tl.constexpr", body), "k",
                      "*fp32, 'relu'");
  ASSERT_BUILDS(relu);
  EXPECT_HAS(relu.ir, "arith.maxnumf");
  EXPECT_LACKS(relu.ir, "arith.mulf");
  EXPECT_LACKS(relu.ir, "scf.if");
  Result other = build(kernelSrc("p, MODE: tl.constexpr", body), "k",
                       "*fp32, 'x'");
  ASSERT_BUILDS(other);
  EXPECT_HAS(other.ir, "arith.mulf");
  Result bad = build(kernelSrc("p, MODE: tl.constexpr", body), "k",
                     "*fp32, 'bad'");
  EXPECT_NE(bad.diag.find("name 'undefined_name' is not defined"),
            std::string::npos)
      << bad.diag;
}

TEST(IRGenStatic, ConstexprFoldingAndGlobals) {
  std::string src = std::string(kHeader) +
                    "import math\nBLOCK = 64\nDT = tl.float16\n"
                    "HALF: tl.constexpr = BLOCK // 2\n"
                    "@triton.jit\n"
                    "def k(p):\n"
                    "    n = triton.cdiv(1000, BLOCK) * 2 ** 3 - (-7 // 2)\n"
                    "    tl.static_assert(n == 16 * 8 + 4)\n"
                    "    tl.static_assert(HALF == 32 and not (HALF > 40))\n"
                    "    tl.static_assert(EXTRA == 3)\n"
                    "    tl.static_assert(math.pi > 3.14 and -7 % 3 == 2)\n"
                    "    tl.static_assert(float('inf') > 1e308)\n"
                    "    x = tl.zeros((HALF,), DT) + n\n"
                    "    tl.store(p + tl.arange(0, HALF), x)\n";
  Result r = build(src, "k", "*fp16", {{"EXTRA", "1 + 2"}});
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "tensor<32xf16>");
  EXPECT_HAS(r.ir, "1.320000e+02"); // n = 132 folded into an fp16 constant
}

TEST(IRGenStatic, StaticRangeUnrolls) {
  Result r = build(kernelSrc("p", "    acc = tl.load(p)\n"
                                  "    for i in tl.static_range(4):\n"
                                  "        acc = acc * (i + 1)\n"
                                  "    tl.store(p, acc)\n"),
                   "k", "*fp32");
  ASSERT_BUILDS(r);
  EXPECT_EQ(count(r.ir, "arith.mulf"), 4u) << r.ir;
  EXPECT_LACKS(r.ir, "scf.for");
}

TEST(IRGenControlFlow, RuntimeIfYieldsAssignedNames) {
  Result r = build(kernelSrc("p, n", "    x = tl.load(p)\n"
                                     "    y = 0.0\n"
                                     "    if n > 0:\n"
                                     "        x = x + 1.0\n"
                                     "        t = 5\n"
                                     "    else:\n"
                                     "        y = x * 2.0\n"
                                     "    tl.store(p, x + y)\n"),
                   "k", "*fp32, i32");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "scf.if");
  EXPECT_HAS(r.ir, "-> (f32, f32)");
  EXPECT_EQ(count(r.ir, "scf.yield"), 2u);
}

TEST(IRGenControlFlow, RuntimeIfTypeMismatch) {
  Result r = build(kernelSrc("p, n", "    x = tl.load(p)\n"
                                     "    if n > 0:\n"
                                     "        x = tl.zeros([16], tl.float32)\n"
                                     "    tl.store(p, x)\n"),
                   "k", "*fp32, i32");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diag.find("k.py:7:5: error: Mismatched type for x between then "
                        "block (<[16], fp32>) and else block (fp32)"),
            std::string::npos)
      << r.diag;
}

TEST(IRGenControlFlow, LoopCarriedValues) {
  Result r = build(kernelSrc("p, n", "    acc = tl.zeros([64], tl.float32)\n"
                                     "    count = 0\n"
                                     "    offs = tl.arange(0, 64)\n"
                                     "    for i in range(0, n, 2):\n"
                                     "        acc += tl.load(p + i + offs)\n"
                                     "        count += 1\n"
                                     "        tmp = acc\n"
                                     "    tl.store(p + offs, acc / count)\n"),
                   "k", "*fp32, i32");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "scf.for");
  EXPECT_HAS(r.ir, "-> (tensor<64xf32>, i32)");
  EXPECT_LACKS(r.ir, "-> (tensor<64xf32>, i32, tensor<64xf32>)");
}

TEST(IRGenControlFlow, LoopBoundsI64AndNegativeStep) {
  Result r = build(kernelSrc("p, n", "    acc = 0.0\n"
                                     "    for i in range(n, 0, -1):\n"
                                     "        acc += tl.load(p + i)\n"
                                     "    tl.store(p, acc)\n"),
                   "k", "*fp32, i64");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "scf.for");
  EXPECT_HAS(r.ir, ": i64");
  EXPECT_HAS(r.ir, "arith.divsi");
}

TEST(IRGenControlFlow, WhileLoop) {
  Result r = build(kernelSrc("p, n", "    i = 0\n"
                                     "    s = 0.0\n"
                                     "    while i < n:\n"
                                     "        s += tl.load(p + i)\n"
                                     "        i += 1\n"
                                     "    tl.store(p, s)\n"),
                   "k", "*fp32, i32");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "scf.while");
  EXPECT_HAS(r.ir, "scf.condition");
}

TEST(IRGenHelpers, InliningWithConstexprAndTuples) {
  std::string src = std::string(kHeader) +
                    "@triton.jit\n"
                    "def offsets(pid, B: tl.constexpr, SCALE: tl.constexpr = 2):\n"
                    "    base = pid * B\n"
                    "    return base + tl.arange(0, B) * SCALE, B * SCALE\n"
                    "@triton.jit\n"
                    "def act(x, KIND: tl.constexpr):\n"
                    "    if KIND == 1:\n"
                    "        return tl.maximum(x, 0.0)\n"
                    "    return x\n"
                    "@triton.jit\n"
                    "def k(p, n, B: tl.constexpr):\n"
                    "    offs, width = offsets(tl.program_id(0), B)\n"
                    "    tl.static_assert(width == 2 * B)\n"
                    "    pair = (offs, offs < n)\n"
                    "    x = tl.load(p + pair[0], mask=pair[1])\n"
                    "    tl.store(p + offs, act(x, KIND=1), mask=pair[-1])\n";
  Result r = build(src, "k", "*fp32, i32, 128");
  ASSERT_BUILDS(r);
  EXPECT_EQ(count(r.ir, "func.func"), 1u);
  EXPECT_HAS(r.ir, "arith.maxnumf");
  EXPECT_LACKS(r.ir, "func.call");
}

TEST(IRGenReduce, UserCombineAndKeepDims) {
  std::string src = std::string(kHeader) +
                    "@triton.jit\n"
                    "def mul(a, b):\n"
                    "    return a * b\n"
                    "@triton.jit\n"
                    "def k(p):\n"
                    "    r = tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :]\n"
                    "    x = tl.load(p + r)\n"
                    "    prod = tl.reduce(x, 1, mul, keep_dims=True)\n"
                    "    s = x.sum(axis=0)\n"
                    "    total = tl.sum(x)\n"
                    "    m, idx = tl.max(x, 1, return_indices=True)\n"
                    "    tl.store(p + tl.arange(0, 8)[:, None], prod + total)\n"
                    "    tl.store(p + tl.arange(0, 16), s)\n"
                    "    tl.store(p + tl.arange(0, 8), m + idx)\n";
  Result r = build(src, "k", "*fp32");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "arith.mulf");
  EXPECT_HAS(r.ir, "(tensor<8x16xf32>) -> tensor<8xf32>");
  EXPECT_HAS(r.ir, "tensor<8xf32> -> tensor<8x1xf32>");
  EXPECT_HAS(r.ir, "(tensor<8x16xf32>) -> tensor<16xf32>");
  EXPECT_HAS(r.ir, "allow_reorder");
  EXPECT_HAS(r.ir, "(tensor<128xf32>) -> f32");
  EXPECT_HAS(r.ir, "-> (tensor<8xf32>, tensor<8xi32>)");
}

TEST(IRGenReduce, SumDtypes) {
  EXPECT_EQ(resultDType("p", "*i8", "tl.sum(tl.load(p + tl.arange(0, 16)))"),
            "int32");
  EXPECT_EQ(resultDType("p", "*u16", "tl.sum(tl.load(p + tl.arange(0, 16)))"),
            "uint32");
  EXPECT_EQ(resultDType("p", "*fp16", "tl.sum(tl.load(p + tl.arange(0, 16)))"),
            "fp16");
  EXPECT_EQ(resultDType("p", "*fp16", "tl.max(tl.load(p + tl.arange(0, 16)))"),
            "fp32");
  EXPECT_EQ(resultDType("p", "*i8", "tl.min(tl.load(p + tl.arange(0, 16)), 0)"),
            "int32");
  EXPECT_EQ(resultDType("p", "*bf16",
                        "tl.argmax(tl.load(p + tl.arange(0, 16)), 0)"),
            "int32");
}

TEST(IRGenMisc, WhereMasksCastsHints) {
  Result r = build(
      kernelSrc("p, q, n",
                "    offs = tl.multiple_of(tl.program_id(0) * 128, 128) + "
                "tl.arange(0, 128)\n"
                "    offs = tl.max_contiguous(offs, 128)\n"
                "    x = tl.load(p + offs, mask=offs < n, other=1.5, "
                "cache_modifier='.cg', eviction_policy='evict_last')\n"
                "    y = tl.where(x > 0, x, 0)\n"
                "    z = y.to(tl.float16).to(tl.int16, bitcast=True)\n"
                "    b = tl.cast(x, tl.int1)\n"
                "    tl.store(q + offs, z + b, mask=offs < n)\n"
                "    tl.device_print('x', x)\n"),
      "k", "*fp32:16, *i16:16, i32:16");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "txl.hint");
  EXPECT_HAS(r.ir, "divisibility = array<i64: 128>");
  EXPECT_HAS(r.ir, "contiguity = array<i64: 128>");
  EXPECT_HAS(r.ir, "{cache = 2 : i32, evict = 2 : i32}"); // .cg, evict_last
  EXPECT_HAS(r.ir, "arith.select");
  EXPECT_HAS(r.ir, "txl.bitcast");
  EXPECT_HAS(r.ir, "arith.cmpf une");
  EXPECT_HAS(r.ir, "txl.print");
  EXPECT_HAS(r.ir, "%arg2: i32 {txl.divisibility = 16 : i32}");
}

TEST(IRGenMisc, EqualsOneAndNoneParams) {
  Result r = build(kernelSrc("p, stride, bias, n",
                             "    if bias is None:\n"
                             "        v = tl.load(p + stride * 3)\n"
                             "    else:\n"
                             "        v = tl.load(bias)\n"
                             "    tl.store(p, v)\n"),
                   "k", "*fp32, i32:1, none, i32");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "txl.equal_to_1");
  EXPECT_HAS(r.ir, "%arg2: i32"); // n keeps its place after the None
  EXPECT_LACKS(r.ir, "%arg3");
  EXPECT_LACKS(r.ir, "scf.if");
}

TEST(IRGenTMA, DescriptorParamsAndCopies) {
  // Descriptors are func arguments of their block type, in parameter order
  // (the scalar after them keeps its place); copies take them directly with
  // one i32 coordinate per dimension, outermost first.
  Result r = build("import triton.language as tl\nimport txl\n@txl.jit\n"
                   "def k(a, c, n, BM: tl.constexpr, BN: tl.constexpr):\n"
                   "    buf = txl.get_buffer(txl.smem_alloc([BM, BN], "
                   "dtype=tl.float16), 0)\n"
                   "    bar = txl.get_buffer(txl.mbar_alloc(1), 0)\n"
                   "    txl.mbar_expect(bar, BM * BN * 2)\n"
                   "    txl.tma_load(buf, a, [n, 7], bar)\n"
                   "    txl.mbar_wait(bar, 0)\n"
                   "    txl.tma_store(buf, c, [3, n])\n"
                   "    txl.tma_store_wait(2)\n",
                   "k", "tensordesc<fp16[64, 128]>, tensordesc<fp16[64,128]>, "
                   "i32, 64, 128");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "func.func @k(%arg0: !txlgpu.tensordesc<64x128xf16> loc(");
  EXPECT_HAS(r.ir, "%arg1: !txlgpu.tensordesc<64x128xf16> loc(");
  EXPECT_HAS(r.ir, "%arg2: i32 loc(");
  EXPECT_LACKS(r.ir, "%arg3");
  EXPECT_HAS(r.ir, "txlgpu.tma_load %arg0[%arg2, %c7_i32] -> ");
  EXPECT_HAS(r.ir, " -> %arg1[%c3_i32, %arg2] : <64x128xf16> -> <64x128xf16>");
  EXPECT_HAS(r.ir, "txlgpu.tma_store_wait {pendings = 2 : i32}");
  EXPECT_EQ(count(r.ir, "txlgpu.tma_load "), 1u);
  EXPECT_EQ(count(r.ir, "txlgpu.tma_store "), 1u);
}

TEST(IRGenMisc, LocationsPointAtExpressions) {
  Result r = build(kernelSrc("p", "    x = tl.load(p)\n"
                                  "    tl.store(p, x +  x)\n"),
                   "k", "*fp32");
  ASSERT_BUILDS(r);
  // `+` is at line 7, column 19; the load's location is the call.
  EXPECT_HAS(r.ir, "arith.addf %0, %0 : f32 loc(#loc3)");
  EXPECT_HAS(r.ir, "#loc3 = loc(\"k.py\":7:19)");
  EXPECT_HAS(r.ir, "#loc2 = loc(\"k.py\":6:9)");
}

TEST(IRGenMisc, TxlImportsDecoratorsAndHostCode) {
  std::string src =
      "import torch\nimport txl\nimport txl.language as tl\n"
      "from triton.language.extra import libdevice\n"
      "DEVICE = torch.device('cuda')\n"
      "SCALE = 0.5\n"
      "@txl.autotune(configs=[], key=['n'])\n"
      "@txl.jit(num_warps=4)\n"
      "def kernel(p, n, BLOCK: tl.constexpr):\n"
      "    \"\"\"Docstring.\"\"\"\n"
      "    offs = tl.arange(0, BLOCK)\n"
      "    x = tl.load(p + offs, mask=offs < n, other=0.0)\n"
      "    tl.store(p + offs, libdevice.exp(x) * SCALE, mask=offs < n)\n"
      "def host():\n"
      "    return DEVICE\n";
  Result r = build(src, "kernel", "*fp32:16, i32, 64");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "math.exp");
  // Reading the host-only global from a kernel is a located error.
  std::string bad = src;
  bad.replace(bad.find("* SCALE"), 7, "* DEVICE");
  Result e = build(bad, "kernel", "*fp32:16, i32, 64");
  EXPECT_FALSE(e.ok);
  EXPECT_NE(e.diag.find("global 'DEVICE' cannot be evaluated"),
            std::string::npos)
      << e.diag;
}

TEST(IRGenControlFlow, ConstantReassignedInLoop) {
  Result r = build(kernelSrc("p, n", "    dt = tl.float32\n"
                                     "    for i in range(n):\n"
                                     "        dt = tl.float16\n"
                                     "    tl.store(p, 1.0)\n"),
                   "k", "*fp32, i32");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diag.find("k.py:7:5: error: cannot reassign the compile-time "
                        "value 'dt'"),
            std::string::npos)
      << r.diag;
}

/// Random expression trees over runtime and constexpr operands must either
/// build verified IR or fail with a located diagnostic — never crash.
TEST(IRGenFuzz, RandomExpressions) {
  std::mt19937 rng(1234);
  const char *leaves[] = {"x", "y", "i", "u", "h", "1", "2.5", "-3", "True",
                          "B", "tl.arange(0, B)", "(x > y)"};
  const char *ops[] = {"+", "-", "*", "/", "//", "%", "&", "|", "^", "<<",
                       ">>", "<", "==", "!="};
  int ok = 0, errors = 0;
  for (int iter = 0; iter < 150; ++iter) {
    std::function<std::string(int)> gen = [&](int depth) -> std::string {
      if (depth == 0 || rng() % 3 == 0)
        return leaves[rng() % (sizeof(leaves) / sizeof(*leaves))];
      std::string op = ops[rng() % (sizeof(ops) / sizeof(*ops))];
      return "(" + gen(depth - 1) + " " + op + " " + gen(depth - 1) + ")";
    };
    std::string expr = gen(4);
    std::string src = kernelSrc(
        "p, x, y, i, u, h, B: tl.constexpr",
        "    r = " + expr + "\n    tl.store(p + tl.arange(0, B), r)\n");
    Result r = build(src, "k", "*fp32, fp32, fp32, i32, u8, fp16, 16");
    if (r.ok) {
      ++ok;
    } else {
      ++errors;
      EXPECT_NE(r.diag.find("k.py:"), std::string::npos) << expr << r.diag;
      EXPECT_EQ(r.diag.find("internal error"), std::string::npos)
          << expr << "\n" << r.diag;
    }
  }
  EXPECT_GT(ok, 10);
  EXPECT_GT(errors, 0);
}

//===----------------------------------------------------------------------===//
// Bad-input corpus: test/bad/semantic/*.py
//===----------------------------------------------------------------------===//

std::string headerValue(const std::string &src, const std::string &key) {
  std::string tag = "# " + key + ":";
  size_t p = src.find(tag);
  if (p == std::string::npos)
    return "";
  size_t e = src.find('\n', p);
  std::string v = src.substr(p + tag.size(), e - p - tag.size());
  v.erase(0, v.find_first_not_of(' '));
  return v;
}

TEST(IRGenBadInputs, Corpus) {
  std::vector<std::string> files;
  if (DIR *d = opendir(TXL_BAD_SEMANTIC_DIR)) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 3 && n.substr(n.size() - 3) == ".py")
        files.push_back(n);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  EXPECT_GE(files.size(), 15u);
  for (const std::string &name : files) {
    std::string src = readFile(std::string(TXL_BAD_SEMANTIC_DIR) + "/" + name);
    // Errors a GPU pass reports (the mbarrier-protocol check) are checked
    // through txlc by test/lit/e2e/bad-pass-errors.mlir.
    if (headerValue(src, "stage") == "gpu")
      continue;
    std::string expect = headerValue(src, "expect");
    std::string kernel = headerValue(src, "kernel");
    std::string sig = headerValue(src, "signature");
    ASSERT_FALSE(expect.empty()) << name << " has no '# expect:' line";
    // "<line>:<col>: error: <substring>": the location must match exactly
    // and the message must contain the substring.
    size_t sep = expect.find(": error: ");
    ASSERT_NE(sep, std::string::npos) << name;
    std::string where = name + ":" + expect.substr(0, sep) + ": error: ";
    std::string what = expect.substr(sep + 9);
    // Optional headers: "# target: sm_80", "# num-warps: 64",
    // "# num-warpgroups: 3", "# num-ctas: 2".
    CompileOptions options;
    if (std::string target = headerValue(src, "target"); !target.empty())
      options.target = target;
    if (std::string w = headerValue(src, "num-warps"); !w.empty())
      options.numWarps = std::stoi(w);
    if (std::string g = headerValue(src, "num-warpgroups"); !g.empty())
      options.numWarpgroups = std::stoi(g);
    if (std::string c = headerValue(src, "num-ctas"); !c.empty())
      options.numCtas = std::stoi(c);
    Result r =
        build(src, kernel.empty() ? "kernel" : kernel, sig, {}, name, options);
    EXPECT_FALSE(r.ok) << name;
    size_t at = r.diag.find(where);
    EXPECT_NE(at, std::string::npos) << name << ": expected " << where
                                     << what << "\ngot:\n" << r.diag;
    if (at != std::string::npos) {
      std::string line = r.diag.substr(at, r.diag.find('\n', at) - at);
      EXPECT_NE(line.find(what), std::string::npos)
          << name << ": expected '" << what << "' in\n" << line;
    }
    EXPECT_EQ(r.diag.find("internal error"), std::string::npos) << name;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Host code around kernels
//===----------------------------------------------------------------------===//

// A kernel file full of host-only Python: every construct parses, none of
// it is evaluated except what the kernel reads (the constant BLOCK).
TEST(IRGenHostCode, KernelAmongHostCode) {
  const char *src = R"PY(
import triton
import triton.language as tl
try:
    import torch
except ImportError as e:
    raise RuntimeError("no torch") from e
finally:
    pass
BLOCK = 128
scale = lambda x, *a, k=1, **kw: x * k
configs = {(m, n): {"BLOCK": m} for m in (64, 128) for n in {1, 2}}
class Runner[T](object, metaclass=type):
    def __init__(self, *args, key: str | None = None, **kwargs) -> None:
        self.args = [*args, *kwargs]
    async def go(self):
        async with self.lock as l:
            await l
        return [x async for x in self.stream() if (y := x)]
    def gen(self):
        yield from range(3)
type Grid = tuple[int, int]

@triton.jit
def kernel(p, n):
    offs = tl.arange(0, BLOCK)
    tl.static_assert(BLOCK >= 16, f"{BLOCK=} too small")
    tl.store(p + offs, 1.0, mask=offs < n)

def launch(x):
    match x.shape:
        case (m, n) if m > 0:
            kernel[(1,)](x, n)
        case _:
            del x

if __name__ == "__main__":
    launch(torch.empty(16, device="cuda"))
)PY";
  Result r = build(src, "kernel", "*fp32:16, i32");
  ASSERT_BUILDS(r);
  EXPECT_HAS(r.ir, "txl.make_range {end = 128 : i32, start = 0 : i32}");
}

TEST(IRGenHostCode, FStringOfConstants) {
  Result r = build(R"PY(
import triton
import triton.language as tl
@triton.jit
def kernel(p, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK == 64, f"{BLOCK!r}: {'s'!r} {'s'} {BLOCK=}")
    tl.static_assert(BLOCK == 32, f"BLOCK is {BLOCK}, {tl.float16}")
)PY",
                   "kernel", "*fp32:16, 64");
  EXPECT_NE(r.diag.find("static_assert failed: BLOCK is 64, fp16"),
            std::string::npos)
      << r.diag;
}
