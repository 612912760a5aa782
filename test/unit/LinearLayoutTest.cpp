//===- LinearLayoutTest.cpp - Property tests for linear layouts -----------===//
//
// Random layouts come from a fixed-seed generator so failures reproduce; each
// property runs over hundreds of cases and, where the index space is small,
// over every input exhaustively.
//
//===----------------------------------------------------------------------===//

#include "txl/Layout/LinearLayout.h"
#include "txl/Layout/LayoutConstructors.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

namespace txl {
// gtest prints layouts in failure messages through this.
std::ostream &operator<<(std::ostream &os, const LinearLayout &ll) {
  return os << ll.toString();
}
} // namespace txl

using namespace txl;
using Basis = LinearLayout::Basis;
using Shape = std::vector<int64_t>;

namespace {

std::mt19937 &rng() {
  static std::mt19937 gen(0x7a1);
  return gen;
}

int randInt(int lo, int hi) { // inclusive
  return std::uniform_int_distribution<int>(lo, hi)(rng());
}

// Split `bits` into `parts` random non-negative counts.
std::vector<int> randomSplit(int bits, int parts) {
  std::vector<int> counts(parts, 0);
  for (int i = 0; i < bits; ++i)
    counts[randInt(0, parts - 1)]++;
  return counts;
}

std::vector<std::string> names(const std::string &prefix, int n) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i)
    v.push_back(prefix + std::to_string(i));
  return v;
}

// A random layout with the given in/out names and bit counts; every basis
// component is random in range (so generally not surjective/injective).
LinearLayout randomLayout(const std::vector<std::string> &ins,
                          const std::vector<int> &inBits,
                          const std::vector<std::string> &outs,
                          const std::vector<int> &outBits,
                          double zeroProb = 0.0) {
  LinearLayout::BasesT bases;
  for (size_t d = 0; d < ins.size(); ++d) {
    std::vector<Basis> dimBases;
    for (int i = 0; i < inBits[d]; ++i) {
      Basis b;
      bool zero = std::uniform_real_distribution<>(0, 1)(rng()) < zeroProb;
      for (size_t k = 0; k < outs.size(); ++k)
        b.push_back(zero ? 0 : randInt(0, (1 << outBits[k]) - 1));
      dimBases.push_back(b);
    }
    bases.emplace_back(ins[d], dimBases);
  }
  LinearLayout::OutDimsT outDims;
  for (size_t k = 0; k < outs.size(); ++k)
    outDims.emplace_back(outs[k], 1 << outBits[k]);
  return LinearLayout(bases, outDims, false);
}

// A random bijective layout with `bits` bits split over the named dims.
LinearLayout randomInvertible(const std::vector<std::string> &ins,
                              const std::vector<std::string> &outs, int bits) {
  std::vector<int> inBits = randomSplit(bits, ins.size());
  std::vector<int> outBits = randomSplit(bits, outs.size());
  while (true) {
    LinearLayout ll = randomLayout(ins, inBits, outs, outBits);
    if (ll.isInvertible())
      return ll;
  }
}

// Every input of `ll` as one value per input dim (in input-dim order).
std::vector<std::vector<int32_t>> allInputs(const LinearLayout &ll) {
  std::vector<std::vector<int32_t>> result(1);
  for (auto name : ll.getInDimNames()) {
    std::vector<std::vector<int32_t>> next;
    for (const auto &prefix : result)
      for (int32_t v = 0; v < ll.getInDimSize(name); ++v) {
        next.push_back(prefix);
        next.back().push_back(v);
      }
    result = std::move(next);
  }
  return result;
}

std::vector<int32_t> toVec(const llvm::SmallVector<int32_t> &v) {
  return std::vector<int32_t>(v.begin(), v.end());
}

std::vector<int32_t>
values(const llvm::SmallVector<LinearLayout::NamedIndex> &v) {
  std::vector<int32_t> out;
  for (const auto &e : v)
    out.push_back(e.second);
  return out;
}

// Random power-of-two shape of the given rank with at most maxBits bits.
Shape randomShape(int rank, int maxBits) {
  Shape s(rank, 1);
  std::vector<int> split = randomSplit(randInt(0, maxBits), rank);
  for (int d = 0; d < rank; ++d)
    s[d] = int64_t(1) << split[d];
  return s;
}

llvm::SmallVector<unsigned> randomPow2Vector(int rank, int bits) {
  llvm::SmallVector<unsigned> v;
  for (int b : randomSplit(bits, rank))
    v.push_back(1u << b);
  return v;
}

llvm::SmallVector<unsigned> randomOrder(int rank) {
  llvm::SmallVector<unsigned> order;
  for (int i = 0; i < rank; ++i)
    order.push_back(i);
  std::shuffle(order.begin(), order.end(), rng());
  return order;
}

BlockedParams randomBlocked(int rank) {
  return BlockedParams{
      randomPow2Vector(rank, randInt(0, 3)), randomPow2Vector(rank, 5),
      randomPow2Vector(rank, randInt(0, 3)), randomOrder(rank)};
}

// Independent reference for Triton's blocked encoding: coordinates of
// (register, lane, warp) computed with delinearization and mod.
std::vector<int32_t> blockedReference(const Shape &shape,
                                      const BlockedParams &p, int32_t reg,
                                      int32_t lane, int32_t warp) {
  size_t rank = shape.size();
  std::vector<int64_t> tile(rank), reps(rank), coord(rank);
  for (size_t d = 0; d < rank; ++d) {
    tile[d] =
        int64_t(p.sizePerThread[d]) * p.threadsPerWarp[d] * p.warpsPerCTA[d];
    reps[d] = std::max<int64_t>(1, shape[d] / tile[d]);
  }
  auto delin = [&](int64_t linear, auto sizeOf) {
    std::vector<int64_t> idx(rank);
    for (unsigned d : p.order) {
      idx[d] = linear % sizeOf(d);
      linear /= sizeOf(d);
    }
    return idx;
  };
  auto elem = delin(reg, [&](unsigned d) { return p.sizePerThread[d]; });
  int64_t regsPerTile = 1;
  for (unsigned s : p.sizePerThread)
    regsPerTile *= s;
  auto rep = delin(reg / regsPerTile, [&](unsigned d) { return reps[d]; });
  auto l = delin(lane, [&](unsigned d) { return p.threadsPerWarp[d]; });
  auto w = delin(warp, [&](unsigned d) { return p.warpsPerCTA[d]; });
  std::vector<int32_t> out;
  for (size_t d = 0; d < rank; ++d) {
    int64_t c = rep[d] * tile[d] +
                (w[d] * p.threadsPerWarp[d] + l[d]) * p.sizePerThread[d] +
                elem[d];
    out.push_back(int32_t(c % shape[d]));
  }
  return out;
}

// Number of preimages of every output; checks they are all equal.
void expectUniformCover(const LinearLayout &ll) {
  std::map<std::vector<int32_t>, int64_t> counts;
  for (const auto &in : allInputs(ll))
    counts[toVec(ll.applyValues(in))]++;
  ASSERT_EQ(int64_t(counts.size()), ll.getTotalOutDimSize()) << ll;
  int64_t expected = ll.getTotalInDimSize() / ll.getTotalOutDimSize();
  for (const auto &[out, n] : counts)
    ASSERT_EQ(n, expected) << ll;
}

} // namespace

//===----------------------------------------------------------------------===//
// Basic construction and algebra
//===----------------------------------------------------------------------===//

TEST(LinearLayout, Identity1DAndZeros) {
  auto id = LinearLayout::identity1D(8, "register", "dim0");
  EXPECT_EQ(id.getOutDimSize("dim0"), 8);
  EXPECT_EQ(id.getInDimSize("register"), 8);
  for (int32_t i = 0; i < 8; ++i)
    EXPECT_EQ(values(id.apply({{"register", i}})), std::vector<int32_t>{i});
  auto zeros = LinearLayout::zeros1D(4, "lane", "dim0");
  EXPECT_EQ(zeros.getOutDimSize("dim0"), 1);
  EXPECT_EQ(zeros.getFreeVariableMask("lane"), 3);
  EXPECT_TRUE(zeros.isSurjective());
  EXPECT_FALSE(zeros.isInjective());
  auto strided = LinearLayout::strided1D(4, 8, "lane", "dim0");
  EXPECT_EQ(values(strided.apply({{"lane", 3}})), std::vector<int32_t>{24});
  EXPECT_EQ(strided.getOutDimSize("dim0"), 32);
}

TEST(LinearLayout, ProductSharedAndNewDims) {
  auto ll = LinearLayout::identity1D(4, "register", "dim1") *
            LinearLayout::identity1D(8, "lane", "dim1") *
            LinearLayout::identity1D(2, "register", "dim0");
  EXPECT_EQ(ll.getOutDimSize("dim1"), 32);
  EXPECT_EQ(ll.getOutDimSize("dim0"), 2);
  EXPECT_EQ(ll.getInDimSize("register"), 8);
  EXPECT_EQ(ll.getBasis("lane", 0), (Basis{4, 0}));
  EXPECT_EQ(ll.getBasis("register", 2), (Basis{0, 1}));
  EXPECT_EQ(values(ll.apply({{"register", 5}, {"lane", 3}})),
            (std::vector<int32_t>{1 + 12, 1}));
  EXPECT_EQ(LinearLayout::empty() * ll, ll);
  EXPECT_EQ(ll * LinearLayout::empty(), ll);
}

TEST(LinearLayout, InferredOutSizes) {
  LinearLayout ll({{"in", {{1, 0}, {4, 0}, {0, 0}}}}, {"a", "b"});
  EXPECT_EQ(ll.getOutDimSize("a"), 8);
  EXPECT_EQ(ll.getOutDimSize("b"), 1);
}

TEST(LinearLayout, ApplyIsLinear) {
  for (int iter = 0; iter < 200; ++iter) {
    auto ll = randomLayout(names("i", 3), randomSplit(randInt(0, 12), 3),
                           names("o", 2), randomSplit(randInt(0, 12), 2));
    for (int s = 0; s < 20; ++s) {
      std::vector<int32_t> a, b, x;
      for (auto n : ll.getInDimNames()) {
        a.push_back(randInt(0, ll.getInDimSize(n) - 1));
        b.push_back(randInt(0, ll.getInDimSize(n) - 1));
        x.push_back(a.back() ^ b.back());
      }
      auto la = ll.applyValues(a), lb = ll.applyValues(b);
      auto lx = ll.applyValues(x);
      for (size_t k = 0; k < lx.size(); ++k)
        ASSERT_EQ(lx[k], la[k] ^ lb[k]);
    }
  }
}

//===----------------------------------------------------------------------===//
// Inversion and composition
//===----------------------------------------------------------------------===//

TEST(LinearLayout, InvertRoundTripsRandomBijections) {
  for (int iter = 0; iter < 300; ++iter) {
    int bits = randInt(0, 10);
    auto ll = randomInvertible(names("in", randInt(1, 3)),
                               names("out", randInt(1, 3)), bits);
    auto inv = ll.invert();
    EXPECT_EQ(inv.invert(), ll);
    for (const auto &x : allInputs(ll)) {
      auto y = toVec(ll.applyValues(x));
      ASSERT_EQ(toVec(inv.applyValues(y)), x) << ll;
    }
    // this.invertAndCompose(this) is the identity.
    auto self = ll.invertAndCompose(ll);
    for (const auto &x : allInputs(ll))
      ASSERT_EQ(toVec(self.applyValues(x)), x);
  }
}

TEST(LinearLayout, TryInvertRejectsNonBijective) {
  auto ll = LinearLayout::identity1D(4, "register", "dim0") *
            LinearLayout::zeros1D(2, "lane", "dim0");
  EXPECT_FALSE(ll.tryInvert().has_value());
  EXPECT_TRUE(ll.tryPseudoinvert().has_value());
  auto notOnto = LinearLayout::strided1D(4, 2, "register", "dim0");
  EXPECT_FALSE(notOnto.tryPseudoinvert().has_value());
  EXPECT_FALSE(notOnto.isSurjective());
  EXPECT_TRUE(notOnto.isInjective());
}

TEST(LinearLayout, PseudoinverseIsRightInverse) {
  for (int iter = 0; iter < 300; ++iter) {
    auto outs = names("o", randInt(1, 2));
    std::vector<int> outBits = randomSplit(randInt(0, 6), outs.size());
    int totalOut = 0;
    for (int b : outBits)
      totalOut += b;
    auto ins = names("i", randInt(1, 3));
    auto ll =
        randomLayout(ins, randomSplit(totalOut + randInt(0, 4), ins.size()),
                     outs, outBits, 0.2);
    auto p = ll.tryPseudoinvert();
    ASSERT_EQ(p.has_value(), ll.isSurjective());
    if (!p)
      continue;
    auto masks = ll.getFreeVariableMasks();
    for (const auto &y : allInputs(*p)) {
      auto x = toVec(p->applyValues(y));
      ASSERT_EQ(toVec(ll.applyValues(x)), y) << ll;
      for (size_t d = 0; d < x.size(); ++d)
        ASSERT_EQ(x[d] & masks[d].second, 0) << "preimage uses a free bit";
    }
  }
}

TEST(LinearLayout, ComposeMatchesSequentialApplyAndIsAssociative) {
  for (int iter = 0; iter < 300; ++iter) {
    auto a = randomLayout(names("a", 2), randomSplit(randInt(0, 8), 2),
                          names("b", 2), randomSplit(randInt(0, 8), 2));
    // b's dims as inputs of the next layout, each possibly larger.
    std::vector<int> bBits;
    for (auto n : a.getOutDimNames())
      bBits.push_back(a.getOutDimSizeLog2(n) + randInt(0, 1));
    auto b = randomLayout(names("b", 2), bBits, names("c", 2),
                          randomSplit(randInt(0, 8), 2));
    std::vector<int> cBits;
    for (auto n : b.getOutDimNames())
      cBits.push_back(b.getOutDimSizeLog2(n));
    auto c = randomLayout(names("c", 2), cBits, names("d", 3),
                          randomSplit(randInt(0, 8), 3));
    auto ab = a.compose(b);
    EXPECT_EQ(ab.compose(c), a.compose(b.compose(c)));
    for (const auto &x : allInputs(a)) {
      auto y = a.apply({{"a0", x[0]}, {"a1", x[1]}});
      ASSERT_EQ(values(b.apply(y)), toVec(ab.applyValues(x)));
    }
  }
}

TEST(LinearLayout, InvertAndComposeFindsHolder) {
  // Random pairs of blocked layouts over the same shape: R maps each source
  // (register, lane, warp) to a destination one holding the same element.
  for (int iter = 0; iter < 200; ++iter) {
    int rank = randInt(1, 3);
    Shape shape = randomShape(rank, 9);
    auto src = blockedToLinearLayout(shape, randomBlocked(rank));
    auto dst = blockedToLinearLayout(shape, randomBlocked(rank));
    auto r = src.invertAndCompose(dst);
    auto masks = dst.getFreeVariableMasks();
    for (const auto &x : allInputs(src)) {
      auto y = toVec(r.applyValues(x));
      ASSERT_EQ(toVec(dst.applyValues(y)), toVec(src.applyValues(x)));
      for (size_t d = 0; d < y.size(); ++d)
        ASSERT_EQ(y[d] & masks[d].second, 0);
    }
    // Same layout: R is idempotent and fixes canonical (free-bit-zero) inputs.
    auto self = src.invertAndCompose(src);
    EXPECT_EQ(self.compose(self), self);
    auto srcMasks = src.getFreeVariableMasks();
    for (const auto &x : allInputs(src)) {
      bool canonical = true;
      for (size_t d = 0; d < x.size(); ++d)
        canonical &= (x[d] & srcMasks[d].second) == 0;
      if (canonical)
        ASSERT_EQ(toVec(self.applyValues(x)), x);
    }
  }
}

TEST(LinearLayout, InvertAndComposeReportsUncovered) {
  auto wide = LinearLayout::identity1D(8, "register", "dim0");
  auto narrow = LinearLayout::identity1D(4, "register", "dim0");
  EXPECT_FALSE(wide.tryInvertAndCompose(narrow).has_value());
  EXPECT_TRUE(narrow.tryInvertAndCompose(wide).has_value());
  auto other = LinearLayout::identity1D(4, "register", "dim1");
  EXPECT_FALSE(other.tryInvertAndCompose(narrow).has_value());
}

TEST(LinearLayout, FreeVariableMasksVisitEachElementOnce) {
  for (int iter = 0; iter < 200; ++iter) {
    auto ll = randomLayout(names("i", 3), randomSplit(randInt(0, 10), 3),
                           names("o", 2), randomSplit(randInt(0, 6), 2), 0.3);
    auto masks = ll.getFreeVariableMasks();
    std::set<std::vector<int32_t>> seen, image;
    for (const auto &x : allInputs(ll)) {
      auto y = toVec(ll.applyValues(x));
      image.insert(y);
      bool canonical = true;
      for (size_t d = 0; d < x.size(); ++d)
        canonical &= (x[d] & masks[d].second) == 0;
      if (canonical)
        ASSERT_TRUE(seen.insert(y).second) << "element visited twice\n" << ll;
    }
    EXPECT_EQ(seen, image);
    EXPECT_EQ(int64_t(image.size()), int64_t(1) << ll.getRank());
  }
}

//===----------------------------------------------------------------------===//
// Restructuring
//===----------------------------------------------------------------------===//

TEST(LinearLayout, FlattenOutsIsRowMajor) {
  for (int iter = 0; iter < 200; ++iter) {
    auto ll = randomLayout(names("i", 2), randomSplit(randInt(0, 8), 2),
                           names("o", 3), randomSplit(randInt(0, 10), 3));
    auto flat = ll.flattenOuts();
    EXPECT_EQ(flat.getOutDimNames()[0], "o0");
    for (const auto &x : allInputs(ll)) {
      auto y = toVec(ll.applyValues(x));
      int64_t rowMajor = 0;
      for (size_t k = 0; k < y.size(); ++k)
        rowMajor = rowMajor * ll.getOutDims()[k].second + y[k];
      ASSERT_EQ(flat.applyValues(x)[0], rowMajor);
    }
  }
}

TEST(LinearLayout, ReshapeRoundTripsAndFlattenIns) {
  for (int iter = 0; iter < 200; ++iter) {
    auto ll = randomLayout(names("i", 3), randomSplit(randInt(0, 9), 3),
                           names("o", 2), randomSplit(randInt(0, 9), 2));
    int outBits = ll.getTotalOutDimSizeLog2();
    std::vector<int> split = randomSplit(outBits, 3);
    std::vector<std::pair<std::string, int32_t>> newOuts;
    for (int k = 0; k < 3; ++k)
      newOuts.emplace_back("n" + std::to_string(k), 1 << split[k]);
    auto reshaped = ll.reshapeOuts(newOuts);
    EXPECT_EQ(reshaped.flattenOuts("f"), ll.flattenOuts("f"));
    std::vector<std::pair<std::string, int32_t>> oldOuts(ll.getOutDims());
    EXPECT_EQ(reshaped.reshapeOuts(oldOuts), ll);

    std::vector<std::pair<std::string, int32_t>> oldIns;
    for (auto n : ll.getInDimNames())
      oldIns.emplace_back(n.str(), ll.getInDimSize(n));
    auto flatIns = ll.flattenIns("x");
    EXPECT_EQ(flatIns.reshapeIns(oldIns), ll);
    // Row-major on inputs: the last input dim is the fastest.
    for (const auto &x : allInputs(ll)) {
      int32_t flatIn = 0;
      for (size_t d = 0; d < x.size(); ++d)
        flatIn = flatIn * oldIns[d].second + x[d];
      ASSERT_EQ(toVec(flatIns.applyValues({flatIn})), toVec(ll.applyValues(x)));
    }
  }
}

TEST(LinearLayout, TransposeAndSublayout) {
  auto ll = randomLayout({"register", "lane", "warp"}, {2, 3, 1},
                         {"dim0", "dim1"}, {3, 3});
  auto t = ll.transposeOuts({"dim1", "dim0"});
  auto ti = ll.transposeIns({"warp", "register", "lane"});
  for (const auto &x : allInputs(ll)) {
    auto y = toVec(ll.applyValues(x));
    EXPECT_EQ(toVec(t.applyValues(x)), (std::vector<int32_t>{y[1], y[0]}));
    EXPECT_EQ(toVec(ti.applyValues({x[2], x[0], x[1]})), y);
  }
  auto sub = ll.sublayout({"lane"}, {"dim1"});
  EXPECT_EQ(sub.getNumInDims(), 1u);
  for (int32_t i = 0; i < 3; ++i)
    EXPECT_EQ(sub.getBasis("lane", i)[0], ll.getBasis("lane", i, "dim1"));
  auto zeroLanes = LinearLayout::identity1D(4, "register", "dim0") *
                   LinearLayout::zeros1D(8, "lane", "dim0") *
                   LinearLayout::identity1D(2, "warp", "dim1");
  EXPECT_TRUE(zeroLanes.sublayoutIsZero({"lane"}, {"dim0", "dim1"}));
  EXPECT_TRUE(zeroLanes.sublayoutIsZero({"warp"}, {"dim0"}));
  EXPECT_FALSE(zeroLanes.sublayoutIsZero({"warp"}, {"dim1"}));
  EXPECT_EQ(zeroLanes.removeZeroBasesAlongDim("lane").getInDimSize("lane"), 1);
}

TEST(LinearLayout, EqualityAndPrinting) {
  auto a = LinearLayout::identity1D(4, "register", "dim0");
  auto b = LinearLayout::identity1D(4, "register", "dim0");
  EXPECT_EQ(a, b);
  EXPECT_NE(a, LinearLayout::identity1D(4, "lane", "dim0"));
  EXPECT_NE(a, LinearLayout::identity1D(8, "register", "dim0"));
  std::string s = (a * LinearLayout::identity1D(2, "lane", "dim1")).toString();
  EXPECT_NE(s.find("register=2 -> (2, 0)"), std::string::npos) << s;
  EXPECT_NE(s.find("dim1 (size 2)"), std::string::npos) << s;
}

TEST(LinearLayoutDeathTest, InvalidBasisIsReported) {
  EXPECT_DEATH(LinearLayout({{"in", {{5}}}}, {{"out", 4}}, false),
               "out of range");
  EXPECT_DEATH(LinearLayout::identity1D(4, "r", "d")
                   .invertAndCompose(LinearLayout::identity1D(2, "r", "d")),
               "invertAndCompose");
}

//===----------------------------------------------------------------------===//
// Blocked and slice layouts
//===----------------------------------------------------------------------===//

TEST(Blocked, MatchesReferenceAndCoversUniformly) {
  for (int iter = 0; iter < 400; ++iter) {
    int rank = randInt(1, 3);
    Shape shape = randomShape(rank, 10);
    BlockedParams p = randomBlocked(rank);
    auto ll = blockedToLinearLayout(shape, p);
    ASSERT_EQ(ll.getInDimNames(),
              (llvm::SmallVector<llvm::StringRef>{"register", "lane", "warp"}));
    ASSERT_EQ(ll.getInDimSize("lane"), 32);
    for (int d = 0; d < rank; ++d)
      ASSERT_EQ(ll.getOutDimSize(standardOutDimName(d)), shape[d]);
    ASSERT_TRUE(ll.isSurjective());
    expectUniformCover(ll);
    for (const auto &x : allInputs(ll))
      ASSERT_EQ(toVec(ll.applyValues(x)),
                blockedReference(shape, p, x[0], x[1], x[2]))
          << ll;
  }
}

TEST(Blocked, KnownExample) {
  // 2 x 32 fp32 tile, order [1, 0]: 4 per thread along dim1, 8 lanes along
  // dim1, 4 along dim0, 2 warps along dim0; tensor 16 x 64 repeats.
  auto ll = blockedToLinearLayout({16, 64}, {1, 4}, {4, 8}, {2, 1}, {1, 0});
  EXPECT_EQ(ll.getInDimSize("register"), 4 * 2 * 2);
  EXPECT_EQ(ll.getBasis("register", 2), (Basis{0, 32})); // dim1 repeat first
  EXPECT_EQ(ll.getBasis("register", 3), (Basis{8, 0}));
  EXPECT_EQ(ll.getBasis("lane", 3), (Basis{1, 0}));
  EXPECT_EQ(ll.getBasis("warp", 0), (Basis{4, 0}));
  EXPECT_EQ(values(ll.apply({{"register", 5}, {"lane", 9}, {"warp", 1}})),
            (std::vector<int32_t>{1 + 4, 1 + 32 + 4}));
  EXPECT_TRUE(ll.isInvertible());
}

TEST(Blocked, SmallTensorBroadcasts) {
  // Tile of 4*32*4 = 512 elements over a tensor of 8: lanes 2.. and all
  // warps broadcast; registers 2 and 3 duplicate 0 and 1 (no: 4 regs, 8
  // elements, lane bit 0 covers 4).
  auto ll = blockedToLinearLayout({8}, {4}, {32}, {4}, {0});
  EXPECT_EQ(ll.getFreeVariableMask("register"), 0);
  EXPECT_EQ(ll.getFreeVariableMask("lane"), 0b11110);
  EXPECT_EQ(ll.getFreeVariableMask("warp"), 0b11);
  auto tiny = blockedToLinearLayout({2}, {4}, {32}, {1}, {0});
  EXPECT_EQ(tiny.getBasis("register", 1), (Basis{0}));
  EXPECT_EQ(tiny.getFreeVariableMask("register"), 0b10);
  expectUniformCover(tiny);
}

TEST(Slice, MatchesProjectionOfParent) {
  for (int iter = 0; iter < 300; ++iter) {
    int rank = randInt(2, 3);
    Shape full = randomShape(rank, 10);
    unsigned dim = randInt(0, rank - 1);
    Shape reduced = full;
    reduced.erase(reduced.begin() + dim);
    BlockedParams p = randomBlocked(rank);
    auto slice = sliceToLinearLayout(reduced, dim, p);
    auto parent = blockedToLinearLayout(full, p);
    ASSERT_EQ(sliceLinearLayout(parent, dim), slice);
    ASSERT_EQ(slice.getNumOutDims(), unsigned(rank - 1));
    for (int d = 0; d < rank - 1; ++d)
      ASSERT_EQ(slice.getOutDimSize(standardOutDimName(d)), reduced[d]);
    ASSERT_TRUE(slice.isSurjective());
    expectUniformCover(slice);
    // Per thread: the slice holds exactly the parent's elements projected,
    // each once.
    for (int32_t warp = 0; warp < slice.getInDimSize("warp"); ++warp)
      for (int32_t lane = 0; lane < 32; ++lane) {
        std::set<std::vector<int32_t>> fromParent, fromSlice;
        for (int32_t r = 0; r < parent.getInDimSize("register"); ++r) {
          auto y = toVec(parent.applyValues({r, lane, warp}));
          y.erase(y.begin() + dim);
          fromParent.insert(y);
        }
        for (int32_t r = 0; r < slice.getInDimSize("register"); ++r)
          fromSlice.insert(toVec(slice.applyValues({r, lane, warp})));
        ASSERT_EQ(fromParent, fromSlice);
        ASSERT_EQ(int64_t(fromSlice.size()), slice.getInDimSize("register"));
      }
  }
}

TEST(Slice, EmptyParentPassesThrough) {
  auto r = sliceToLinearLayout(
      {16}, 0, [](llvm::ArrayRef<int64_t>) { return LinearLayout::empty(); });
  EXPECT_EQ(r, LinearLayout::empty());
}

TEST(Slice, RowReductionBroadcastsLanes) {
  // [64, 32] with 8 lanes along dim1: reducing dim1 leaves those lane bits 0.
  BlockedParams p{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
  auto slice = sliceToLinearLayout({64}, 1, p);
  EXPECT_EQ(slice.getFreeVariableMask("lane"), 0b111);
  EXPECT_EQ(slice.getInDimSize("register"), 4);
  EXPECT_EQ(slice.getBasis("lane", 3), (Basis{1}));
}

//===----------------------------------------------------------------------===//
// Vector width
//===----------------------------------------------------------------------===//

TEST(LinearLayout, NumConsecutiveInOut) {
  auto fp32x4 = blockedToLinearLayout({1024}, {4}, {32}, {4}, {0});
  EXPECT_EQ(fp32x4.getNumConsecutiveInOut(), 4);
  EXPECT_EQ(
      blockedToLinearLayout({4}, {8}, {32}, {4}, {0}).getNumConsecutiveInOut(),
      4);
  EXPECT_EQ(blockedToLinearLayout({128, 64}, {1, 8}, {4, 8}, {4, 1}, {1, 0})
                .getNumConsecutiveInOut(),
            8);
  // Contiguous along dim0 only: not contiguous in the last dim.
  auto colMajor =
      blockedToLinearLayout({128, 64}, {4, 1}, {8, 4}, {4, 1}, {0, 1});
  EXPECT_EQ(colMajor.getNumConsecutiveInOut(), 1);
  EXPECT_EQ(colMajor.transposeOuts({"dim1", "dim0"}).getNumConsecutiveInOut(),
            4);
  // Row of 2 per thread, 2 rows per thread: contiguous in the flat buffer.
  auto twoRows = blockedToLinearLayout({2, 2}, {2, 2}, {1, 32}, {1, 1}, {1, 0});
  EXPECT_EQ(twoRows.getNumConsecutiveInOut(), 2);
  EXPECT_EQ(twoRows.flattenOuts().getNumConsecutiveInOut(), 4);
  // Lane bit that XORs into the vector breaks alignment.
  LinearLayout odd({{"register", {{1}, {2}}}, {"lane", {{1}, {4}}}},
                   {{"dim0", 8}}, false);
  EXPECT_EQ(odd.getNumConsecutiveInOut(), 1);
  EXPECT_EQ(nvmmaAccumulatorLayout({64, 64}, {4, 1}, {16, 64, 16})
                .getNumConsecutiveInOut(),
            2);
}

//===----------------------------------------------------------------------===//
// Tensor-core accumulators, against the PTX ISA fragment formulas
//===----------------------------------------------------------------------===//

namespace {
// wgmma D / mma.sync C fragment: per warp 16 x n; see PTX ISA figures
// "WGMMA .m64nNk16 register fragment layout for accumulator matrix D" and
// "MMA .m16n8k16 fragment layout for accumulator matrix C/D".
std::vector<int32_t> accumulatorReference(const Shape &shape,
                                          std::vector<unsigned> wpc, int n,
                                          bool warpsAlongMFirst, int32_t reg,
                                          int32_t lane, int32_t warp) {
  int64_t tileM = 16 * wpc[0], tileN = int64_t(n) * wpc[1];
  int64_t repsN = std::max<int64_t>(1, shape[1] / tileN);
  int32_t inner = reg % (n / 2), rep = reg / (n / 2);
  int64_t repN = rep % repsN, repM = rep / repsN;
  int64_t warpM = warp % wpc[0], warpN = warp / wpc[0];
  if (!warpsAlongMFirst) {
    warpN = warp % wpc[1];
    warpM = warp / wpc[1];
  }
  int64_t row = repM * tileM + 16 * warpM + lane / 4 + 8 * ((inner / 2) % 2);
  int64_t col =
      repN * tileN + n * warpN + 8 * (inner / 4) + 2 * (lane % 4) + inner % 2;
  return {int32_t(row % shape[0]), int32_t(col % shape[1])};
}
} // namespace

TEST(Accumulator, WgmmaFragmentFormula) {
  struct Case {
    Shape shape;
    std::vector<unsigned> wpc;
    unsigned n;
  };
  std::vector<Case> cases = {
      {{64, 8}, {4, 1}, 8},      {{64, 64}, {4, 1}, 64},
      {{64, 256}, {4, 1}, 256},  {{128, 128}, {4, 1}, 128},
      {{128, 256}, {8, 1}, 128}, {{128, 256}, {4, 2}, 128},
      {{256, 128}, {4, 1}, 64},  {{64, 32}, {4, 1}, 64},
      {{32, 64}, {4, 1}, 64},    {{128, 64}, {8, 1}, 64}};
  for (const auto &c : cases) {
    auto ll = nvmmaAccumulatorLayout(c.shape, c.wpc, {16, c.n, 16});
    SCOPED_TRACE(ll.toString());
    EXPECT_EQ(ll.getInDimSize("warp"), int32_t(c.wpc[0] * c.wpc[1]));
    EXPECT_TRUE(ll.isSurjective());
    expectUniformCover(ll);
    for (const auto &x : allInputs(ll))
      ASSERT_EQ(
          toVec(ll.applyValues(x)),
          accumulatorReference(c.shape, c.wpc, c.n, true, x[0], x[1], x[2]));
  }
  // m64n64: 32 accumulator registers per thread, injective.
  auto ll = nvmmaAccumulatorLayout({64, 64}, {4, 1}, {16, 64, 16});
  EXPECT_EQ(ll.getInDimSize("register"), 32);
  EXPECT_TRUE(ll.isInvertible());
  // Thread 37 (warp 1, lane 5), d[6]: row 16 + 1 + 8, col 8 + 2 + 0.
  EXPECT_EQ(values(ll.apply({{"register", 6}, {"lane", 5}, {"warp", 1}})),
            (std::vector<int32_t>{25, 10}));
}

TEST(Accumulator, MmaV2FragmentFormula) {
  std::vector<std::pair<Shape, std::vector<unsigned>>> cases = {
      {{16, 8}, {1, 1}},  {{64, 64}, {2, 2}}, {{128, 128}, {4, 2}},
      {{32, 16}, {4, 1}}, {{16, 64}, {1, 4}}, {{256, 32}, {8, 1}}};
  for (const auto &[shape, wpc] : cases) {
    auto ll = mmaV2AccumulatorLayout(shape, wpc);
    SCOPED_TRACE(ll.toString());
    expectUniformCover(ll);
    for (const auto &x : allInputs(ll))
      ASSERT_EQ(toVec(ll.applyValues(x)),
                accumulatorReference(shape, wpc, 8, false, x[0], x[1], x[2]));
  }
  // Lane 13, c3: row 13/4 + 8 = 11, col 2*(13%4) + 1 = 3.
  auto one = mmaV2AccumulatorLayout({16, 8}, {1, 1});
  EXPECT_EQ(values(one.apply({{"register", 3}, {"lane", 13}})),
            (std::vector<int32_t>{11, 3}));
}

TEST(Accumulator, KnownBases) {
  // wgmma 128 x 16 with one warpgroup: the second 64 rows are a register rep.
  auto a = nvmmaAccumulatorLayout({128, 16}, {4, 1}, {16, 16, 16});
  EXPECT_EQ(a.getBases()[0].second,
            (std::vector<Basis>{{0, 1}, {8, 0}, {0, 8}, {64, 0}}));
  EXPECT_EQ(a.getBases()[1].second,
            (std::vector<Basis>{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}));
  EXPECT_EQ(a.getBases()[2].second, (std::vector<Basis>{{16, 0}, {32, 0}}));
  // Two warpgroups side by side along N.
  auto b = nvmmaAccumulatorLayout({64, 64}, {4, 2}, {16, 32, 16});
  EXPECT_EQ(b.getBases()[2].second,
            (std::vector<Basis>{{16, 0}, {32, 0}, {0, 32}}));
  // mma.sync warps go along N first; slices of it (row/col reductions).
  auto fromMma = [](llvm::ArrayRef<int64_t> s) {
    return mmaV2AccumulatorLayout(s, {2, 2});
  };
  auto rowSlice = sliceToLinearLayout({128}, 0, fromMma);
  EXPECT_EQ(rowSlice.getBases()[0].second,
            (std::vector<Basis>{{1}, {16}, {32}, {64}}));
  EXPECT_EQ(rowSlice.getBases()[1].second,
            (std::vector<Basis>{{2}, {4}, {0}, {0}, {0}}));
  EXPECT_EQ(rowSlice.getBases()[2].second, (std::vector<Basis>{{8}, {0}}));
  auto colSlice = sliceToLinearLayout({128}, 1, fromMma);
  EXPECT_EQ(colSlice.getBases()[0].second,
            (std::vector<Basis>{{8}, {32}, {64}}));
  EXPECT_EQ(colSlice.getBases()[1].second,
            (std::vector<Basis>{{0}, {0}, {1}, {2}, {4}}));
  EXPECT_EQ(colSlice.getBases()[2].second, (std::vector<Basis>{{0}, {16}}));
}

namespace {
// mma.sync A/B register fragments (PTX ISA figures for m16n8k8 (tf32),
// m16n8k16 (16-bit) and m16n8k32 (8-bit)), element i of a thread, with
// warps and repetitions laid out as documented in LayoutConstructors.h.
std::vector<int32_t> operandReference(const Shape &shape, unsigned opIdx,
                                      std::vector<unsigned> wpc,
                                      unsigned elemBits, bool warpsMFirst,
                                      int32_t reg, int32_t lane, int32_t warp) {
  int64_t kw = 32 / elemBits;
  int64_t regsPerTile = opIdx == 0 ? 4 * kw : 2 * kw;
  int64_t i = reg % regsPerTile, rep = reg / regsPerTile;
  int64_t warpM = warp % wpc[0], warpN = warp / wpc[0];
  if (!warpsMFirst) {
    warpN = warp % wpc[1];
    warpM = warp / wpc[1];
  }
  if (opIdx == 0) {
    int64_t tileM = 16 * wpc[0], tileK = 8 * kw;
    int64_t repsK = std::max<int64_t>(1, shape[1] / tileK);
    int64_t row =
        (rep / repsK) * tileM + 16 * warpM + lane / 4 + 8 * ((i / kw) % 2);
    int64_t col = (rep % repsK) * tileK + kw * (lane % 4) + i % kw +
                  4 * kw * (i / (2 * kw));
    return {int32_t(row % shape[0]), int32_t(col % shape[1])};
  }
  int64_t tileK = 8 * kw, tileN = 8 * wpc[1];
  int64_t repsK = std::max<int64_t>(1, shape[0] / tileK);
  int64_t k =
      (rep % repsK) * tileK + kw * (lane % 4) + i % kw + 4 * kw * (i / kw);
  int64_t n = (rep / repsK) * tileN + 8 * warpN + lane / 4;
  return {int32_t(k % shape[0]), int32_t(n % shape[1])};
}
} // namespace

TEST(Operand, MmaV2FragmentFormulas) {
  std::vector<std::pair<Shape, std::vector<unsigned>>> cases = {
      {{16, 16}, {1, 1}},  {{64, 64}, {2, 2}}, {{128, 32}, {4, 2}},
      {{32, 128}, {1, 4}}, {{16, 8}, {2, 2}},  {{256, 64}, {8, 1}}};
  for (unsigned bits : {8u, 16u, 32u})
    for (unsigned opIdx : {0u, 1u})
      for (const auto &[shape, wpc] : cases) {
        auto ll = mmaV2OperandLayout(shape, opIdx, wpc, bits);
        SCOPED_TRACE(ll.toString());
        ASSERT_TRUE(ll.isSurjective());
        expectUniformCover(ll);
        for (const auto &x : allInputs(ll))
          ASSERT_EQ(toVec(ll.applyValues(x)),
                    operandReference(shape, opIdx, wpc, bits, false, x[0], x[1],
                                     x[2]));
      }
  // m16n8k16 A: lane 6, a5 -> row 1, col 8 + 4 + 1; B: lane 6, b3 -> k 13.
  auto a = mmaV2OperandLayout({16, 16}, 0, {1, 1}, 16);
  EXPECT_EQ(values(a.apply({{"register", 5}, {"lane", 6}})),
            (std::vector<int32_t>{1, 13}));
  auto b = mmaV2OperandLayout({16, 8}, 1, {1, 1}, 16);
  EXPECT_EQ(values(b.apply({{"register", 3}, {"lane", 6}})),
            (std::vector<int32_t>{13, 1}));
}

namespace {
// A batched (rank-3) mma.sync layout, checked against the 2-D one of the
// same [M, N] (or operand) shape: warps enumerate [wb, wm, wn] with the
// batch slowest, registers repeat the 2-D registers per batch held.
void expectBatchedMatches2D(const LinearLayout &ll3, const LinearLayout &ll2,
                            int64_t batch, std::vector<unsigned> wpc) {
  SCOPED_TRACE(ll3.toString());
  ASSERT_TRUE(ll3.isSurjective());
  expectUniformCover(ll3);
  int32_t regs2 = ll2.getInDimSize("register");
  int32_t warps2 = int32_t(wpc[1] * wpc[2]);
  for (const auto &x : allInputs(ll3)) {
    int32_t reg = x[0], lane = x[1], warp = x[2];
    std::vector<int32_t> want = {
        int32_t(((reg / regs2) * wpc[0] + warp / warps2) % batch)};
    for (int32_t v : ll2.applyValues({reg % regs2, lane, warp % warps2}))
      want.push_back(v);
    ASSERT_EQ(toVec(ll3.applyValues(x)), want);
  }
}
} // namespace

TEST(Batched, MmaV2AccumulatorAndOperands) {
  // (B, M, N, K), warps [wb, wm, wn]: a batch per warp, batches repeated
  // in registers, more warps than tiles, one warp.
  struct Case {
    int64_t b, m, n, k;
    std::vector<unsigned> wpc;
  };
  std::vector<Case> cases = {
      {2, 32, 32, 32, {2, 1, 2}}, {8, 32, 32, 64, {2, 1, 2}},
      {8, 32, 32, 32, {8, 2, 1}}, {4, 64, 64, 64, {4, 2, 2}},
      {1, 16, 16, 16, {1, 1, 1}}, {4, 16, 8, 32, {1, 2, 2}}};
  for (const auto &c : cases) {
    std::vector<unsigned> wpc2 = {c.wpc[1], c.wpc[2]};
    expectBatchedMatches2D(mmaV2AccumulatorLayout({c.b, c.m, c.n}, c.wpc),
                           mmaV2AccumulatorLayout({c.m, c.n}, wpc2), c.b,
                           c.wpc);
    for (unsigned bits : {8u, 16u, 32u}) {
      if (c.k < 256 / bits)
        continue;
      expectBatchedMatches2D(
          mmaV2OperandLayout({c.b, c.m, c.k}, 0, c.wpc, bits),
          mmaV2OperandLayout({c.m, c.k}, 0, wpc2, bits), c.b, c.wpc);
      expectBatchedMatches2D(
          mmaV2OperandLayout({c.b, c.k, c.n}, 1, c.wpc, bits),
          mmaV2OperandLayout({c.k, c.n}, 1, wpc2, bits), c.b, c.wpc);
    }
  }
}

TEST(Operand, WgmmaRegisterA) {
  std::vector<std::pair<Shape, std::vector<unsigned>>> cases = {
      {{64, 16}, {4, 1}},
      {{64, 64}, {4, 1}},
      {{128, 64}, {8, 1}},
      {{64, 128}, {4, 2}},
      {{128, 32}, {4, 1}}};
  for (unsigned bits : {8u, 16u, 32u})
    for (const auto &[shape, wpc] : cases) {
      auto ll = wgmmaOperandALayout(shape, wpc, bits);
      SCOPED_TRACE(ll.toString());
      expectUniformCover(ll);
      for (const auto &x : allInputs(ll))
        ASSERT_EQ(
            toVec(ll.applyValues(x)),
            operandReference(shape, 0, wpc, bits, true, x[0], x[1], x[2]));
    }
  // FlashAttention-3 register reuse: S = Q K^T (fp32 acc, [64, 64]) feeds
  // P @ V as a 16-bit register A operand without moving data.
  for (unsigned n : {16u, 64u, 128u}) {
    auto acc = nvmmaAccumulatorLayout({64, n}, {4, 1}, {16, n, 16});
    auto opA = wgmmaOperandALayout({64, n}, {4, 1}, 16);
    EXPECT_EQ(acc, opA);
    auto cvt = acc.invertAndCompose(opA);
    EXPECT_TRUE(cvt.sublayoutIsZero({"register"}, {"lane", "warp"}));
  }
}

// The column order under which an accumulator's registers are already an
// A operand (txl.acc_to_dot_a): the identity for 16 bits; for 8 bits the
// PTX fragments' formulas (accumulator col 8(i/2) + 2q + i%2, A col 4q + i
// for a thread's i-th element of a row in a 16-column half).
TEST(Operand, AccToOperandAColumns) {
  std::vector<int32_t> identity(16);
  for (int32_t c = 0; c < 16; ++c)
    identity[c] = c;
  EXPECT_EQ(wgmmaAccToOperandAColumns(16), identity);
  std::vector<int32_t> expected(32);
  for (int32_t h = 0; h < 2; ++h)
    for (int32_t q = 0; q < 4; ++q)
      for (int32_t i = 0; i < 4; ++i)
        expected[16 * h + 4 * q + i] = 16 * h + 8 * (i / 2) + 2 * q + i % 2;
  EXPECT_EQ(wgmmaAccToOperandAColumns(8), expected);
  // In place: the accumulator layout, its columns renamed so, is the A
  // layout (every thread keeps its values).
  auto acc = nvmmaAccumulatorLayout({64, 32}, {4, 1}, {16, 32});
  auto opA = wgmmaOperandALayout({64, 32}, {4, 1}, 8);
  std::vector<int32_t> inverse(32);
  for (int32_t c = 0; c < 32; ++c)
    inverse[expected[c]] = c;
  for (const auto &x : allInputs(acc)) {
    auto rc = toVec(acc.applyValues(x));
    std::vector<int32_t> renamed = {rc[0], inverse[rc[1]]};
    bool found = false;
    for (int32_t r = 0; r < opA.getInDimSize("register") && !found; ++r)
      found = toVec(opA.applyValues({r, x[1], x[2]})) == renamed;
    EXPECT_TRUE(found) << "reg " << x[0] << " lane " << x[1];
  }
}

TEST(Tmem, Load32x32b) {
  for (unsigned warps : {4u, 8u})
    for (int64_t n : {2, 16, 128, 256}) {
      auto ll = tmemLoad32x32bLayout({128, n}, warps);
      SCOPED_TRACE(ll.toString());
      ASSERT_TRUE(ll.isInvertible());
      int64_t perThread = n / (warps / 4);
      for (const auto &x : allInputs(ll)) {
        int32_t reg = x[0], lane = x[1], warp = x[2];
        ASSERT_EQ(
            toVec(ll.applyValues(x)),
            (std::vector<int32_t>{32 * (warp % 4) + lane,
                                  int32_t(perThread * (warp / 4) + reg)}));
      }
    }
}

// AssignLayouts gives tmem_load/tmem_store results the blocked layout
// sizePerThread [1, N/g], threadsPerWarp [32, 1], warpsPerCTA [4, g],
// order [0, 1] (g warpgroups): it must be the 32x32b message layout.
TEST(Tmem, BlockedFormIs32x32b) {
  for (unsigned warps : {4u, 8u})
    for (int64_t n : {16, 64, 128, 256}) {
      unsigned groups = warps / 4;
      auto blocked = blockedToLinearLayout({128, n}, {1, unsigned(n / groups)},
                                           {32, 1}, {4, groups}, {0, 1});
      EXPECT_EQ(blocked, tmemLoad32x32bLayout({128, n}, warps))
          << "warps " << warps << ", N " << n;
    }
}

// The tcgen05.ld/st fragments written from the PTX ISA's tables (thread l
// of a warp, register a of one repetition -> TMEM lane within the 16 or 32
// the warp's message covers, 32-bit column), then placed the way
// tmemMessageLayout promises: repetitions along the columns, the second 16
// lanes of a 128-row buffer, the warp's lane quarter, and for a 64-row
// buffer (M = 64, lanes 0-15 of each quarter) row = 16 * quarter + lane.
TEST(Tmem, MessageLayouts) {
  for (TMemMessage msg : {TMemMessage::M32x32b, TMemMessage::M16x64b,
                          TMemMessage::M16x128b, TMemMessage::M16x256b})
    for (int64_t rows : {64, 128})
      for (unsigned warps : {4u, 8u})
        for (int64_t n : {16, 64, 256}) {
          TMemMessageShape m = tmemMessageShape(msg);
          if (!tmemMessageLayoutError(msg, {rows, n}, warps, 32).empty()) {
            EXPECT_TRUE(rows == 64 && m.lanes == 32) << m.name << " " << n;
            continue;
          }
          auto ll = tmemMessageLayout(msg, {rows, n}, warps, 32);
          SCOPED_TRACE(std::string(m.name) + " " + ll.toString());
          ASSERT_TRUE(ll.isInvertible());
          int32_t groupCols = int32_t(n / (warps / 4));
          int32_t reps = groupCols / m.columns;
          for (const auto &x : allInputs(ll)) {
            int32_t r = x[0], l = x[1], w = x[2];
            int32_t a = r % m.regsPerRep, rep = r / m.regsPerRep % reps;
            int32_t slab = r / (m.regsPerRep * reps);
            int32_t lane = 0, col = 0;
            switch (msg) {
            case TMemMessage::M32x32b:
              lane = l;
              break;
            case TMemMessage::M16x64b:
              lane = l / 4 + 8 * (l % 2), col = l / 2 % 2;
              break;
            case TMemMessage::M16x128b:
              lane = l / 4 + 8 * (a % 2), col = l % 4 + 4 * (a / 2);
              break;
            case TMemMessage::M16x256b:
              lane = l / 4 + 8 * (a / 2 % 2), col = a % 2 + 2 * (l % 4);
              break;
            }
            int32_t tmemLane = 32 * (w % 4) + 16 * slab + lane;
            col += rep * m.columns + groupCols * (w / 4);
            int32_t row =
                rows == 128 ? tmemLane : 16 * (tmemLane / 32) + tmemLane % 32;
            ASSERT_LT(tmemLane % 32, rows == 128 ? 32 : 16);
            ASSERT_EQ(toVec(ll.applyValues(x)),
                      (std::vector<int32_t>{row, col}))
                << "reg " << r << " lane " << l << " warp " << w;
          }
        }
  // The 32x32b message of a 128-row buffer is the layout AssignLayouts
  // has always given it; 16-bit elements pair up along a row.
  for (unsigned warps : {4u, 8u})
    for (int64_t n : {16, 128})
      EXPECT_EQ(tmemMessageLayout(TMemMessage::M32x32b, {128, n}, warps, 32),
                tmemLoad32x32bLayout({128, n}, warps));
  auto half = tmemMessageLayout(TMemMessage::M16x256b, {64, 32}, 4, 16);
  EXPECT_EQ(toVec(half.applyValues({1, 0, 0})), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(toVec(half.applyValues({2, 0, 0})), (std::vector<int32_t>{0, 2}));
  EXPECT_EQ(toVec(half.applyValues({4, 0, 0})), (std::vector<int32_t>{8, 0}));
  EXPECT_FALSE(
      tmemMessageLayoutError(TMemMessage::M16x256b, {128, 4}, 4, 32).empty());
}

//===----------------------------------------------------------------------===//
// Shared memory swizzle
//===----------------------------------------------------------------------===//

namespace {
// Physical element offset of (row, col) in an NVMMA swizzled [rows, cols]
// row-major buffer, written the classic way: 16-byte chunk index XOR the
// row phase, with perPhase = 128 / swizzle rows sharing a phase and
// maxPhase = swizzle / 16 phases. Valid when a block of rows spans whole
// 1024-byte swizzle periods (rows % 8 == 0).
int64_t swizzledOffset(int64_t row, int64_t col, int64_t rows,
                       unsigned elemBits, unsigned swizzle) {
  int64_t elemBytes = elemBits / 8;
  int64_t rowElems = std::max(swizzle, 16u) / elemBytes;
  int64_t chunkElems = 16 / elemBytes;
  int64_t block = col / rowElems, inRow = col % rowElems;
  int64_t chunk = inRow / chunkElems;
  if (swizzle) {
    int64_t perPhase = 128 / swizzle, maxPhase = swizzle / 16;
    chunk ^= (row / perPhase) % maxPhase;
  }
  return block * rows * rowElems + row * rowElems + chunk * chunkElems +
         inRow % chunkElems;
}

// The same from the hardware's point of view: swizzle the byte address of
// the unswizzled layout (CUTLASS Swizzle<B,4,3>). Valid for any row count.
int64_t addressSwizzledOffset(int64_t row, int64_t col, int64_t rows,
                              unsigned elemBits, unsigned swizzle) {
  int64_t elemBytes = elemBits / 8;
  int64_t rowElems = std::max(swizzle, 16u) / elemBytes;
  int64_t logical =
      (col / rowElems) * rows * rowElems + row * rowElems + col % rowElems;
  int64_t addr = logical * elemBytes;
  int64_t mask = swizzle ? (int64_t(swizzle) / 16 - 1) << 4 : 0;
  return (addr ^ ((addr >> 3) & mask)) / elemBytes;
}
} // namespace

TEST(Shared, SwizzleMatchesChunkXorFormula) {
  for (unsigned swizzle : {0u, 32u, 64u, 128u})
    for (unsigned elemBits : {8u, 16u, 32u, 64u})
      for (Shape shape : {Shape{64, 64}, Shape{8, 128}, Shape{128, 32},
                          Shape{16, 256}, Shape{4, 64}, Shape{256, 16}}) {
        int64_t rowBytes = shape[1] * elemBits / 8;
        if (rowBytes < std::max(swizzle, 16u))
          continue;
        auto ll = sharedSwizzledLayout(shape, elemBits, swizzle, {1, 0});
        SCOPED_TRACE(ll.toString());
        ASSERT_TRUE(ll.isInvertible());
        auto inv = ll.invert();
        for (int32_t r = 0; r < shape[0]; ++r)
          for (int32_t c = 0; c < shape[1]; ++c) {
            int64_t off =
                addressSwizzledOffset(r, c, shape[0], elemBits, swizzle);
            if (shape[0] % 8 == 0)
              ASSERT_EQ(off, swizzledOffset(r, c, shape[0], elemBits, swizzle));
            ASSERT_EQ(values(ll.apply({{"offset", int32_t(off)}})),
                      (std::vector<int32_t>{r, c}));
            ASSERT_EQ(values(inv.apply({{"dim0", r}, {"dim1", c}}))[0], off);
          }
      }
}

TEST(Shared, TransposedOrderAndHigherRank) {
  // order [0, 1]: dim0 is contiguous; it is the transpose of the [1, 0] case.
  auto a = sharedSwizzledLayout({64, 32}, 16, 128, {0, 1});
  auto b = sharedSwizzledLayout({32, 64}, 16, 128, {1, 0});
  for (int32_t off = 0; off < 2048; ++off) {
    auto ya = values(a.apply({{"offset", off}}));
    auto yb = values(b.apply({{"offset", off}}));
    ASSERT_EQ(ya, (std::vector<int32_t>{yb[1], yb[0]}));
  }
  // Rank 3: the extra dim is the slowest, one full 2-D buffer per index.
  auto c = sharedSwizzledLayout({2, 16, 64}, 16, 128, {2, 1, 0});
  auto d = sharedSwizzledLayout({16, 64}, 16, 128, {1, 0});
  for (int32_t off = 0; off < 2048; ++off) {
    auto y = values(c.apply({{"offset", off}}));
    auto z = values(d.apply({{"offset", off % 1024}}));
    ASSERT_EQ(y, (std::vector<int32_t>{off / 1024, z[0], z[1]}));
  }
  EXPECT_EQ(largestSwizzleBytes({64, 64}, 16, {1, 0}), 128u);
  EXPECT_EQ(largestSwizzleBytes({64, 16}, 16, {1, 0}), 32u);
  EXPECT_EQ(largestSwizzleBytes({64, 4}, 16, {1, 0}), 0u);
  EXPECT_EQ(largestSwizzleBytes({64, 4}, 16, {0, 1}), 128u);
  // Unswizzled: a row-major buffer whose rows are 16 bytes wide.
  auto plain = sharedSwizzledLayout({4, 8}, 32, 0, {1, 0});
  EXPECT_EQ(values(plain.apply({{"offset", 5}})), (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(values(plain.apply({{"offset", 16}})),
            (std::vector<int32_t>{0, 4}));
}

TEST(Shared, RegistersToSwizzledOffsets) {
  // How the lowering stores a distributed tensor to swizzled smem: compose
  // the register layout with the inverse of the shared layout, then read
  // the vector width off the offset map.
  for (int iter = 0; iter < 100; ++iter) {
    Shape shape = {int64_t(8) << randInt(0, 4), int64_t(64) << randInt(0, 2)};
    unsigned bits = 8u << randInt(0, 2);
    unsigned swizzle = largestSwizzleBytes(shape, bits, {1, 0});
    auto shared = sharedSwizzledLayout(shape, bits, swizzle, {1, 0});
    auto regs =
        blockedToLinearLayout(shape, defaultBlockedParams(shape, 4, bits, 16));
    auto toOffset = regs.invertAndCompose(shared);
    ASSERT_EQ(toOffset.getOutDimNames()[0], "offset");
    for (const auto &x : allInputs(regs)) {
      int32_t off = toOffset.applyValues(x)[0];
      ASSERT_EQ(values(shared.apply({{"offset", off}})),
                toVec(regs.applyValues(x)));
    }
    // 16-byte chunks stay contiguous under the swizzle.
    EXPECT_EQ(toOffset.getNumConsecutiveInOut(), regs.getNumConsecutiveInOut());
  }
}

//===----------------------------------------------------------------------===//
// Default blocked parameters
//===----------------------------------------------------------------------===//

namespace {
int64_t product(llvm::ArrayRef<unsigned> v) {
  int64_t p = 1;
  for (unsigned x : v)
    p *= x;
  return p;
}
int64_t product(const Shape &v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

void checkDefaultParams(const Shape &shape, unsigned numWarps,
                        unsigned elemBits, unsigned contiguity) {
  SCOPED_TRACE("shape rank " + std::to_string(shape.size()) + " total " +
               std::to_string(product(shape)) + " warps " +
               std::to_string(numWarps) + " bits " + std::to_string(elemBits) +
               " contig " + std::to_string(contiguity));
  BlockedParams p = defaultBlockedParams(shape, numWarps, elemBits, contiguity);
  ASSERT_EQ(verifyBlockedParams(p, shape.size()), "");
  ASSERT_EQ(product(p.threadsPerWarp), 32);
  ASSERT_EQ(product(p.warpsPerCTA), int64_t(numWarps));
  unsigned fast = p.order[0];
  ASSERT_EQ(fast, shape.size() - 1);
  unsigned vec = p.sizePerThread[fast];
  ASSERT_LE(vec * elemBits, 128u);
  ASSERT_LE(vec, std::max(1u, contiguity));
  ASSERT_EQ(product(p.sizePerThread), int64_t(vec));
  auto ll = blockedToLinearLayout(shape, p);
  ASSERT_TRUE(ll.isSurjective());
  expectUniformCover(ll);
  // Big enough tensors use every thread with no duplicates.
  if (product(shape) >= int64_t(numWarps) * 32 * vec)
    ASSERT_TRUE(ll.isInjective()) << ll;
  // Coalescing: lanes go along the fastest dim as far as it reaches.
  int64_t lanesFast =
      std::min<int64_t>(32, std::max<int64_t>(1, shape[fast] / vec));
  ASSERT_GE(int64_t(p.threadsPerWarp[fast]), lanesFast);
  ASSERT_EQ(ll.getNumConsecutiveInOut(),
            int32_t(std::min<int64_t>(vec, shape[fast])));
}
} // namespace

TEST(DefaultBlocked, TableOfShapes) {
  std::vector<Shape> shapes = {{1},       {2},       {16},       {1, 4},
                               {4096},    {16384},   {128, 128}, {64, 16},
                               {1, 1024}, {1024, 1}, {2, 2, 2},  {8, 4, 64},
                               {32},      {128},     {1, 1},     {16, 1}};
  for (const auto &shape : shapes)
    for (unsigned warps : {1u, 2u, 4u, 8u})
      for (unsigned bits : {8u, 16u, 32u, 64u})
        for (unsigned contig : {1u, 4u, 16u})
          checkDefaultParams(shape, warps, bits, contig);
}

TEST(DefaultBlocked, KnownChoices) {
  auto a = defaultBlockedParams({16384}, 4, 32, 16);
  EXPECT_EQ(a, (BlockedParams{{4}, {32}, {4}, {0}}));
  auto b = defaultBlockedParams({128, 128}, 4, 16, 8);
  EXPECT_EQ(b, (BlockedParams{{1, 8}, {2, 16}, {4, 1}, {1, 0}}));
  auto c = defaultBlockedParams({1}, 4, 32, 1);
  EXPECT_EQ(c, (BlockedParams{{1}, {32}, {4}, {0}}));
  auto d = defaultBlockedParams({1, 4}, 4, 32, 4);
  EXPECT_EQ(d, (BlockedParams{{1, 1}, {1, 32}, {1, 4}, {1, 0}}));
  // 128 elements over 128 threads: one each, no vectors.
  auto e = defaultBlockedParams({128}, 4, 16, 8);
  EXPECT_EQ(e, (BlockedParams{{1}, {32}, {4}, {0}}));
}

TEST(DefaultBlocked, RandomShapes) {
  for (int iter = 0; iter < 300; ++iter) {
    int rank = randInt(1, 3);
    Shape shape = randomShape(rank, 12);
    checkDefaultParams(shape, 1u << randInt(0, 4), 8u << randInt(0, 3),
                       1u << randInt(0, 4));
  }
}
