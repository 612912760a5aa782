//===- AxisInfoTest.cpp - directed tests of the axis analysis -------------===//
#include "AxisInfoTestUtil.h"

#include <gtest/gtest.h>

using axisinfo_test::Analyzed;
using Facts = std::vector<int64_t>;

static Facts vec(llvm::ArrayRef<int64_t> list) {
  return Facts(list.begin(), list.end());
}

static void expectFacts(const txl::AxisInfo *info, const Facts &contig,
                        const Facts &div, const Facts &constancy) {
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(vec(info->contiguity), contig) << info->toString();
  EXPECT_EQ(vec(info->divisibility), div) << info->toString();
  EXPECT_EQ(vec(info->constancy), constancy) << info->toString();
}
// Facts as {contiguity}, {divisibility}, {constancy}.
#define EXPECT_FACTS(info, ...)                                                \
  do {                                                                         \
    SCOPED_TRACE(#info);                                                       \
    expectFacts(info, __VA_ARGS__);                                            \
  } while (0)

// x[pid*128 + arange(0, 128)] with x 16-byte aligned, masked by offs < n.
static std::string vectorAdd(const std::string &nAttr) {
  return R"(
func.func @add(%x: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %n: i32 )" +
         nAttr + R"() attributes {txl.kernel} {
  %pid = txl.program_id 0 {tag = "pid"} : i32
  %c128 = arith.constant {tag = "c128"} 128 : i32
  %start = arith.muli %pid, %c128 {tag = "start"} : i32
  %r = txl.make_range {start = 0 : i32, end = 128 : i32, tag = "range"} : tensor<128xi32>
  %ss = txl.splat %start {tag = "starts"} : i32 -> tensor<128xi32>
  %offs = arith.addi %ss, %r {tag = "offs"} : tensor<128xi32>
  %xs = txl.splat %x {tag = "xs"} : !txl.ptr<f32> -> tensor<128x!txl.ptr<f32>>
  %p = txl.addptr %xs, %offs {tag = "ptrs"} : tensor<128x!txl.ptr<f32>>, tensor<128xi32>
  %ns = txl.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %offs, %ns {tag = "mask"} : tensor<128xi32>
  %v = txl.load %p, %m {tag = "load"} : tensor<128x!txl.ptr<f32>>, tensor<128xi1> -> tensor<128xf32>
  txl.store %p, %v, %m : tensor<128x!txl.ptr<f32>>, tensor<128xf32>, tensor<128xi1>
  return
})";
}

TEST(AxisInfo, VectorAddOffsetsAndPointers) {
  Analyzed a(vectorAdd("{txl.divisibility = 16 : i32}"));
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("pid"), {1}, {1}, {1});
  EXPECT_FACTS(a.info("start"), {1}, {128}, {1});
  EXPECT_FACTS(a.info("range"), {128}, {1 << 30}, {1});
  EXPECT_FACTS(a.info("starts"), {1}, {128}, {128});
  EXPECT_FACTS(a.info("offs"), {128}, {128}, {1});
  EXPECT_FACTS(a.info("xs"), {1}, {16}, {128});
  EXPECT_FACTS(a.info("ptrs"), {128}, {16}, {1});
  EXPECT_FACTS(a.info("load"), {1}, {1}, {1});
  mlir::Value ptrs = a.tagged("ptrs");
  EXPECT_EQ(a.analysis->getPtrContiguity(ptrs, 0), 4u); // 16 B of fp32
  EXPECT_EQ(a.analysis->getPtrAlignment(ptrs, 0), 4u);
  EXPECT_EQ(a.analysis->getOrder(ptrs), llvm::SmallVector<unsigned>({0}));
}

TEST(AxisInfo, MaskConstantOverBlocksOnlyWhenBoundIsDivisible) {
  Analyzed divisible(vectorAdd("{txl.divisibility = 16 : i32}"));
  ASSERT_TRUE(divisible.ok());
  EXPECT_FACTS(divisible.info("mask"), {1}, {1}, {16});
  EXPECT_EQ(divisible.analysis->getMaskAlignment(divisible.tagged("mask"), 0),
            16u);
  Analyzed unknown(vectorAdd(""));
  ASSERT_TRUE(unknown.ok());
  EXPECT_FACTS(unknown.info("mask"), {1}, {1}, {1});
  EXPECT_EQ(unknown.analysis->getMaskAlignment(unknown.tagged("mask"), 0), 1u);
  EXPECT_EQ(unknown.analysis->getMaskAlignment(mlir::Value(), 0),
            unsigned(txl::AxisInfo::kMaxDivisibility));
}

TEST(AxisInfo, UnalignedPointerDoesNotVectorize) {
  Analyzed a(R"(
func.func @k(%x: !txl.ptr<f16>, %y: !txl.ptr<f16> {txl.divisibility = 16 : i32}) {
  %r = txl.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = txl.splat %x : !txl.ptr<f16> -> tensor<64x!txl.ptr<f16>>
  %px = txl.addptr %xs, %r {tag = "px"} : tensor<64x!txl.ptr<f16>>, tensor<64xi32>
  %ys = txl.splat %y : !txl.ptr<f16> -> tensor<64x!txl.ptr<f16>>
  %py = txl.addptr %ys, %r {tag = "py"} : tensor<64x!txl.ptr<f16>>, tensor<64xi32>
  return
})");
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("px"), {64}, {1}, {1});
  EXPECT_EQ(a.analysis->getPtrContiguity(a.tagged("px"), 0), 1u);
  EXPECT_EQ(a.analysis->getPtrContiguity(a.tagged("py"), 0), 8u); // 16 B
}

// rows[:, None] * stride + cols[None, :]
static std::string tile2d(const std::string &strideAttr) {
  return R"(
func.func @tile(%base: !txl.ptr<f16> {txl.divisibility = 16 : i32}, %stride: i32 )" +
         strideAttr + R"() {
  %rows = txl.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %cols = txl.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %r2 = txl.expand_dims %rows {axis = 1 : i32, tag = "r2"} : tensor<32xi32> -> tensor<32x1xi32>
  %rb = txl.broadcast %r2 {tag = "rb"} : tensor<32x1xi32> -> tensor<32x64xi32>
  %ss = txl.splat %stride : i32 -> tensor<32x64xi32>
  %rs = arith.muli %rb, %ss {tag = "rs"} : tensor<32x64xi32>
  %c2 = txl.expand_dims %cols {axis = 0 : i32, tag = "c2"} : tensor<64xi32> -> tensor<1x64xi32>
  %cb = txl.broadcast %c2 {tag = "cb"} : tensor<1x64xi32> -> tensor<32x64xi32>
  %offs = arith.addi %rs, %cb {tag = "offs"} : tensor<32x64xi32>
  %bs = txl.splat %base : !txl.ptr<f16> -> tensor<32x64x!txl.ptr<f16>>
  %p = txl.addptr %bs, %offs {tag = "ptrs"} : tensor<32x64x!txl.ptr<f16>>, tensor<32x64xi32>
  %t = txl.trans %p {order = array<i32: 1, 0>, tag = "trans"} : tensor<32x64x!txl.ptr<f16>> -> tensor<64x32x!txl.ptr<f16>>
  return
})";
}

TEST(AxisInfo, TwoDimensionalTile) {
  Analyzed a(tile2d("{txl.divisibility = 16 : i32}"));
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("r2"), Facts({32, 1}), Facts({1 << 30, 1}),
               Facts({1, 1}));
  EXPECT_FACTS(a.info("rb"), Facts({32, 1}), Facts({1 << 30, 1}),
               Facts({1, 64}));
  EXPECT_FACTS(a.info("rs"), Facts({1, 1}), Facts({16, 16}), Facts({1, 64}));
  EXPECT_FACTS(a.info("cb"), Facts({1, 64}), Facts({1, 1 << 30}),
               Facts({32, 1}));
  EXPECT_FACTS(a.info("offs"), Facts({1, 64}), Facts({1, 16}), Facts({1, 1}));
  EXPECT_FACTS(a.info("ptrs"), Facts({1, 64}), Facts({2, 16}), Facts({1, 1}));
  mlir::Value ptrs = a.tagged("ptrs");
  EXPECT_EQ(a.analysis->getOrder(ptrs), llvm::SmallVector<unsigned>({1, 0}));
  EXPECT_EQ(a.analysis->getPtrContiguity(ptrs, 1), 8u);
  EXPECT_EQ(a.analysis->getPtrAlignment(ptrs, 1), 8u);
  EXPECT_EQ(a.analysis->getPtrContiguity(ptrs, 0), 1u);
  mlir::Value trans = a.tagged("trans");
  EXPECT_EQ(a.analysis->getOrder(trans), llvm::SmallVector<unsigned>({0, 1}));

  Analyzed odd(tile2d(""));
  ASSERT_TRUE(odd.ok());
  // Rows start anywhere: each row is contiguous but only 2-byte aligned.
  EXPECT_FACTS(odd.info("ptrs"), Facts({1, 64}), Facts({2, 2}), Facts({1, 1}));
  EXPECT_EQ(odd.analysis->getPtrContiguity(odd.tagged("ptrs"), 1), 1u);
  EXPECT_EQ(odd.analysis->getOrder(odd.tagged("ptrs")),
            llvm::SmallVector<unsigned>({1, 0}));
}

TEST(AxisInfo, OrderTiesPreferLastDim) {
  Analyzed a(R"(
func.func @k(%v: i32) {
  %s = txl.splat %v {tag = "s"} : i32 -> tensor<4x8x2xi32>
  return
})");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.analysis->getOrder(a.tagged("s")),
            llvm::SmallVector<unsigned>({2, 1, 0}));
}

// A pointer advanced in a loop by `step` elements per iteration.
static std::string loopKernel(const std::string &stepAttr) {
  return R"(
func.func @loop(%x: !txl.ptr<f32> {txl.divisibility = 16 : i32}, %step: i32 )" +
         stepAttr + R"(, %lb: i32 {txl.divisibility = 8 : i32}) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c12 = arith.constant 12 : i32
  %r = txl.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xs = txl.splat %x : !txl.ptr<f32> -> tensor<128x!txl.ptr<f32>>
  %p0 = txl.addptr %xs, %r {tag = "p0"} : tensor<128x!txl.ptr<f32>>, tensor<128xi32>
  %ss = txl.splat %step : i32 -> tensor<128xi32>
  %res = scf.for %iv = %lb to %c12 step %c4 iter_args(%p = %p0) -> (tensor<128x!txl.ptr<f32>>) : i32 {
    %ivs = txl.splat %iv {tag = "ivs"} : i32 -> tensor<128xi32>
    %inside = txl.addptr %p, %ivs {tag = "inside"} : tensor<128x!txl.ptr<f32>>, tensor<128xi32>
    %next = txl.addptr %p, %ss {tag = "next"} : tensor<128x!txl.ptr<f32>>, tensor<128xi32>
    scf.yield %next : tensor<128x!txl.ptr<f32>>
  } {tag = "loop"}
  return
})";
}

TEST(AxisInfo, LoopCarriedPointerWithUnknownStepIsPessimistic) {
  Analyzed a(loopKernel(""));
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("p0"), {128}, {16}, {1});
  // The step is only 4-byte aligned, which the back edge feeds into %p.
  EXPECT_FACTS(a.info("next"), {128}, {4}, {1});
  EXPECT_FACTS(a.info("loop"), {128}, {4}, {1});
  EXPECT_EQ(a.analysis->getPtrContiguity(a.tagged("loop"), 0), 1u);
  // iv = lb + i * 4 with lb % 8 == 0: a multiple of 4 elements = 16 bytes,
  // but %p is only 4-byte aligned.
  EXPECT_FACTS(a.info("ivs"), {1}, {4}, {128});
  EXPECT_FACTS(a.info("inside"), {128}, {4}, {1});
}

TEST(AxisInfo, LoopCarriedPointerWithAlignedStepKeepsVectors) {
  Analyzed a(loopKernel("{txl.divisibility = 16 : i32}"));
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("next"), {128}, {16}, {1});
  EXPECT_FACTS(a.info("loop"), {128}, {16}, {1});
  EXPECT_FACTS(a.info("inside"), {128}, {16}, {1});
  EXPECT_EQ(a.analysis->getPtrContiguity(a.tagged("loop"), 0), 4u);
}

TEST(AxisInfo, LoopCarriedCounterLosesConstantness) {
  Analyzed a(R"(
func.func @k(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %res = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %c16) -> (i32) : i32 {
    %next = arith.addi %acc, %c16 {tag = "next"} : i32
    scf.yield %next : i32
  } {tag = "loop"}
  %w:2 = scf.while (%a = %c16, %b = %c0) : (i32, i32) -> (i32, i32) {
    %cond = arith.cmpi slt, %a, %n : i32
    scf.condition(%cond) %a, %b : i32, i32
  } do {
  ^bb0(%a: i32, %b: i32):
    %a2 = arith.addi %a, %c1 : i32
    %b2 = arith.addi %b, %c16 : i32
    scf.yield %a2, %b2 : i32, i32
  } attributes {tag = "while"}
  return
})");
  ASSERT_TRUE(a.ok());
  const txl::AxisInfo *loop = a.info("loop");
  ASSERT_NE(loop, nullptr);
  EXPECT_FALSE(loop->constantValue.has_value());
  EXPECT_EQ(loop->divisibility[0], 16);
  EXPECT_FALSE(a.info("next")->constantValue.has_value());
  mlir::Operation *whileOp = a.tagged("while").getDefiningOp();
  const txl::AxisInfo *w0 = a.analysis->getAxisInfo(whileOp->getResult(0));
  const txl::AxisInfo *w1 = a.analysis->getAxisInfo(whileOp->getResult(1));
  ASSERT_NE(w0, nullptr);
  ASSERT_NE(w1, nullptr);
  EXPECT_EQ(w0->divisibility[0], 1);  // 16, 17, 18, ...
  EXPECT_EQ(w1->divisibility[0], 16); // 0, 16, 32, ...
  EXPECT_FALSE(w1->constantValue.has_value());
}

TEST(AxisInfo, IfJoinsBothBranches) {
  Analyzed a(R"(
func.func @k(%c: i1, %v: i32 {txl.divisibility = 32 : i32}) {
  %r = txl.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %c8 = arith.constant dense<8> : tensor<64xi32>
  %s = txl.splat %v : i32 -> tensor<64xi32>
  %a = arith.addi %r, %s : tensor<64xi32>
  %b = arith.addi %r, %c8 : tensor<64xi32>
  %x = scf.if %c -> (tensor<64xi32>) {
    scf.yield %a : tensor<64xi32>
  } else {
    scf.yield %b : tensor<64xi32>
  } {tag = "if"}
  %y = scf.if %c -> (tensor<64xi32>) {
    scf.yield %a : tensor<64xi32>
  } else {
    scf.yield %s : tensor<64xi32>
  } {tag = "if2"}
  return
})");
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("if"), {64}, {8}, {1});
  // Contiguous in one branch and constant in the other: neither survives,
  // and the divisibility of 32 only held for the first element of each run.
  EXPECT_FACTS(a.info("if2"), {1}, {1}, {1});
}

TEST(AxisInfo, HintsOverride) {
  Analyzed a(R"(
func.func @k(%v: i32, %t: tensor<128xi32>) {
  %h = txl.hint %v {divisibility = array<i64: 16>, tag = "h"} : i32
  %ht = txl.hint %t {divisibility = array<i64: 24>, contiguity = array<i64: 64>, tag = "ht"} : tensor<128xi32>
  %bad = txl.hint %t {divisibility = array<i64: 16, 16>, tag = "bad"} : tensor<128xi32>
  return
})");
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("h"), {1}, {16}, {1});
  EXPECT_FACTS(a.info("ht"), {64}, {8}, {1}); // 24 only promises 8
  EXPECT_FACTS(a.info("bad"), {1}, {1}, {1}); // wrong rank: ignored
}

TEST(AxisInfo, DivisionAndRemainderByPowersOfTwo) {
  Analyzed a(R"(
func.func @k() {
  %r = txl.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %c4 = arith.constant dense<4> : tensor<128xi32>
  %c32 = arith.constant dense<32> : tensor<128xi32>
  %c3 = arith.constant dense<3> : tensor<128xi32>
  %c2 = arith.constant dense<2> : tensor<128xi32>
  %c31 = arith.constant dense<31> : tensor<128xi32>
  %c8 = arith.constant dense<8> : tensor<128xi32>
  %d = arith.divsi %r, %c4 {tag = "div4"} : tensor<128xi32>
  %m = arith.remsi %r, %c32 {tag = "rem32"} : tensor<128xi32>
  %d3 = arith.divsi %r, %c3 {tag = "div3"} : tensor<128xi32>
  %sh = arith.shrsi %r, %c2 {tag = "shr2"} : tensor<128xi32>
  %an = arith.andi %r, %c31 {tag = "and31"} : tensor<128xi32>
  %x8 = arith.muli %r, %c8 {tag = "mul8"} : tensor<128xi32>
  %q = arith.divui %x8, %c4 {tag = "mul8div4"} : tensor<128xi32>
  %z = arith.remui %x8, %c4 {tag = "mul8rem4"} : tensor<128xi32>
  %l = arith.shli %r, %c2 {tag = "shl2"} : tensor<128xi32>
  return
})");
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("div4"), {1}, {1}, {4});
  EXPECT_FACTS(a.info("rem32"), {32}, {1 << 30}, {1});
  EXPECT_FACTS(a.info("div3"), {1}, {1}, {1});
  EXPECT_FACTS(a.info("shr2"), {1}, {1}, {4});
  EXPECT_FACTS(a.info("and31"), {32}, {1 << 30}, {1});
  EXPECT_FACTS(a.info("mul8"), {1}, {8}, {1});
  EXPECT_FACTS(a.info("mul8div4"), {1}, {2}, {1});
  EXPECT_FACTS(a.info("mul8rem4"), {1}, {1 << 30}, {128});
  EXPECT_EQ(a.info("mul8rem4")->constantValue, 0);
  EXPECT_FACTS(a.info("shl2"), {1}, {4}, {1});
}

TEST(AxisInfo, ConstantsAndFolding) {
  Analyzed a(R"(
func.func @k(%one: i32 {txl.equal_to_1}) {
  %c0 = arith.constant {tag = "zero"} 0 : i32
  %c48 = arith.constant {tag = "c48"} 48 : i32
  %cm = arith.constant {tag = "neg"} -64 : i32
  %sum = arith.addi %c48, %cm {tag = "sum"} : i32
  %dense = arith.constant {tag = "dense"} dense<[0, 1, 2, 3, 8, 9, 10, 11]> : tensor<8xi32>
  %sc = arith.muli %c48, %one {tag = "times1"} : i32
  %f = arith.constant {tag = "fsplat"} dense<1.0> : tensor<16xf32>
  return
})");
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("zero"), {1}, {1 << 30}, {1});
  EXPECT_FACTS(a.info("c48"), {1}, {16}, {1});
  EXPECT_FACTS(a.info("neg"), {1}, {64}, {1});
  EXPECT_EQ(a.info("sum")->constantValue, -16);
  EXPECT_FACTS(a.info("sum"), {1}, {16}, {1});
  EXPECT_FACTS(a.info("dense"), {4}, {8}, {1});
  EXPECT_EQ(a.info("times1")->constantValue, 48);
  EXPECT_FACTS(a.info("fsplat"), {1}, {1}, {16});
}

TEST(AxisInfo, ReshapeKeepsRunsWithinRows) {
  Analyzed a(R"(
func.func @k() {
  %r = txl.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %a = txl.reshape %r {tag = "unit"} : tensor<128xi32> -> tensor<1x128xi32>
  %b = txl.reshape %r {tag = "split"} : tensor<128xi32> -> tensor<4x32xi32>
  %c = txl.reshape %r {allow_reorder, tag = "reorder"} : tensor<128xi32> -> tensor<4x32xi32>
  return
})");
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("unit"), Facts({1, 128}), Facts({1, 1 << 30}),
               Facts({1, 1}));
  EXPECT_FACTS(a.info("split"), Facts({1, 32}), Facts({1, 32}), Facts({1, 1}));
  EXPECT_FACTS(a.info("reorder"), Facts({1, 1}), Facts({1, 1}), Facts({1, 1}));
}

TEST(AxisInfo, EncodedTensorsAndFuncRoot) {
  Analyzed a(R"(
func.func @k(%x: !txl.ptr<f32> {txl.divisibility = 16 : i32}) {
  %r = txl.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, "blocked">
  %xs = txl.splat %x : !txl.ptr<f32> -> tensor<128x!txl.ptr<f32>, "blocked">
  %p = txl.addptr %xs, %r {tag = "p"} : tensor<128x!txl.ptr<f32>, "blocked">, tensor<128xi32, "blocked">
  %q = "txlgpu.convert_layout"(%p) {tag = "cvt"} : (tensor<128x!txl.ptr<f32>, "blocked">) -> tensor<128x!txl.ptr<f32>, "other">
  return
})");
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("p"), {128}, {16}, {1});
  EXPECT_FACTS(a.info("cvt"), {128}, {16}, {1});
  // The same facts when the root is the function rather than the module.
  mlir::Operation *func = &a.module->getBody()->front();
  txl::AxisInfoAnalysis onFunc(func);
  const txl::AxisInfo *p = onFunc.getAxisInfo(a.tagged("p"));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, *a.info("p"));
}

TEST(AxisInfo, UnknownOpsArePessimistic) {
  Analyzed a(R"(
func.func @k(%x: tensor<64xi32>) {
  %r = txl.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %u = "some.op"(%r) {tag = "u"} : (tensor<64xi32>) -> tensor<64xi32>
  %s = "txl.reduce"(%r) ({
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b {tag = "combine"} : i32
    txl.reduce.return %c : i32
  }) {axis = 0 : i32, tag = "reduce"} : (tensor<64xi32>) -> i32
  return
})");
  ASSERT_TRUE(a.ok());
  EXPECT_FACTS(a.info("u"), {1}, {1}, {1});
  EXPECT_FACTS(a.info("reduce"), {1}, {1}, {1});
  EXPECT_FACTS(a.info("combine"), {1}, {1}, {1});
}

TEST(AxisInfo, RankZeroTensorsDoNotCrash) {
  Analyzed a(R"(
func.func @k(%v: i32) {
  %s = txl.splat %v {tag = "s"} : i32 -> tensor<i32>
  %b = txl.broadcast %s {tag = "b"} : tensor<i32> -> tensor<i32>
  %e = txl.expand_dims %s {axis = 0 : i32, tag = "e"} : tensor<i32> -> tensor<1xi32>
  %r = txl.reshape %s {tag = "r"} : tensor<i32> -> tensor<1x1xi32>
  %q = txl.reshape %r {tag = "q"} : tensor<1x1xi32> -> tensor<i32>
  return
})");
  ASSERT_TRUE(a.ok());
  for (const char *tag : {"s", "b", "e", "r", "q"})
    EXPECT_NE(a.info(tag), nullptr) << tag;
  EXPECT_EQ(a.analysis->getOrder(a.tagged("s")), llvm::SmallVector<unsigned>());
  EXPECT_EQ(a.analysis->getPtrContiguity(a.tagged("e"), 3), 1u);
}
