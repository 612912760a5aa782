//===- SignatureTest.cpp - Triton-style signature strings -----------------===//
//
// txl::parseSignature (lib/Pipeline/Signature.cpp), the parser txlc and the
// runtime use; built into irgen-tests because it needs nothing but LLVM
// Support. Focus: tensordesc<TYPE[D0, ...]> entries, whose brackets hold
// commas that must not split the signature.
//
//===----------------------------------------------------------------------===//
#include "txl/Pipeline/Pipeline.h"

#include <gtest/gtest.h>

using namespace txl;

namespace {

std::vector<ArgSpec> parseOk(const std::string &text) {
  std::vector<ArgSpec> out;
  std::string error;
  EXPECT_TRUE(parseSignature(text, out, error)) << text << ": " << error;
  EXPECT_TRUE(error.empty()) << text << ": " << error;
  return out;
}

std::string parseError(const std::string &text) {
  std::vector<ArgSpec> out;
  std::string error;
  EXPECT_FALSE(parseSignature(text, out, error)) << text;
  EXPECT_FALSE(error.empty()) << text;
  return error;
}

TEST(Signature, TensorDescRanksOneToFive) {
  std::vector<ArgSpec> s = parseOk(
      "tensordesc<fp32[256]>, tensordesc<bf16[16, 128]>, "
      "tensordesc<u8[2, 4, 64]>, tensordesc<fp8e4nv[1, 2, 8, 256]>, "
      "tensordesc<i64[1, 1, 1, 1, 8]>");
  ASSERT_EQ(s.size(), 5u);
  const std::vector<std::vector<int64_t>> blocks = {
      {256}, {16, 128}, {2, 4, 64}, {1, 2, 8, 256}, {1, 1, 1, 1, 8}};
  const char *types[] = {"fp32", "bf16", "u8", "fp8e4nv", "i64"};
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(s[i].kind, ArgSpec::Kind::TensorDesc) << i;
    EXPECT_EQ(s[i].type, types[i]) << i;
    EXPECT_EQ(s[i].block, blocks[i]) << i;
  }
}

TEST(Signature, TensorDescSpacingAndNeighbours) {
  // Spaces anywhere inside the entry; no spaces at all; the entries around
  // a descriptor keep their own meaning and order.
  std::vector<ArgSpec> s = parseOk(
      "*fp16:16,  tensordesc< fp16 [ 128 , 64 ] > ,tensordesc<fp32[64,32]>,"
      " i32:16, 1024, none");
  ASSERT_EQ(s.size(), 6u);
  EXPECT_EQ(s[0].kind, ArgSpec::Kind::Pointer);
  EXPECT_EQ(s[0].divisibility, 16);
  EXPECT_TRUE(s[0].block.empty());
  EXPECT_EQ(s[1].kind, ArgSpec::Kind::TensorDesc);
  EXPECT_EQ(s[1].type, "fp16");
  EXPECT_EQ(s[1].block, (std::vector<int64_t>{128, 64}));
  EXPECT_EQ(s[2].kind, ArgSpec::Kind::TensorDesc);
  EXPECT_EQ(s[2].type, "fp32");
  EXPECT_EQ(s[2].block, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(s[3].kind, ArgSpec::Kind::Scalar);
  EXPECT_EQ(s[3].divisibility, 16);
  EXPECT_EQ(s[4].kind, ArgSpec::Kind::Constexpr);
  EXPECT_EQ(s[4].constValue, "1024");
  EXPECT_EQ(s[5].kind, ArgSpec::Kind::None);
}

TEST(Signature, TensorDescEveryElementTypeButI1) {
  for (const char *type : {"i8", "i16", "i32", "i64", "u8", "u16", "u32",
                           "u64", "fp8e4nv", "fp8e5", "fp16", "bf16", "fp32",
                           "fp64"}) {
    std::vector<ArgSpec> s =
        parseOk(std::string("tensordesc<") + type + "[8, 64]>");
    ASSERT_EQ(s.size(), 1u) << type;
    EXPECT_EQ(s[0].kind, ArgSpec::Kind::TensorDesc) << type;
    EXPECT_EQ(s[0].type, type);
  }
}

TEST(Signature, BadTensorDescEntries) {
  struct Case {
    const char *text, *message;
  } cases[] = {
      // Brackets and angle brackets.
      {"tensordesc<fp16[64, 128]", "expected tensordesc<TYPE[D0, D1, ...]>"},
      {"tensordesc fp16[64, 128]>", "expected tensordesc<TYPE[D0, D1, ...]>"},
      {"tensordesc", "expected tensordesc<TYPE[D0, D1, ...]>"},
      {"tensordesc<fp16[64]>:16", "expected tensordesc<TYPE[D0, D1, ...]>"},
      {"tensordesc<fp16 64, 128>", "expected tensordesc<TYPE[D0, D1, ...]>"},
      {"tensordesc<fp16[64, 128>", "expected the block shape in brackets"},
      // An unclosed '[' keeps the rest of the signature inside this entry.
      {"tensordesc<fp16[64, 128>, i32",
       "('tensordesc<fp16[64, 128>, i32'): expected tensordesc<TYPE[D0, D1, "
       "...]>"},
      {"tensordesc<fp16[64, 128>>", "expected the block shape in brackets"},
      // Dimensions.
      {"tensordesc<fp16[64, x]>", "bad block dimension 'x'"},
      {"tensordesc<fp16[64, 0]>", "bad block dimension '0'"},
      {"tensordesc<fp16[-64, 8]>", "bad block dimension '-64'"},
      {"tensordesc<fp16[64,,8]>", "bad block dimension ''"},
      {"tensordesc<fp16[]>", "bad block dimension ''"},
      {"tensordesc<fp16[64.0]>", "bad block dimension '64.0'"},
      {"tensordesc<fp16[1, 2, 3, 4, 5, 6]>",
       "a tensor descriptor has 1 to 5 dimensions"},
      // Element types.
      {"tensordesc<i1[64]>", "unknown tensor descriptor element type 'i1'"},
      {"tensordesc<f16[64]>", "unknown tensor descriptor element type 'f16'"},
      {"tensordesc<*fp16[64]>",
       "unknown tensor descriptor element type '*fp16'"},
      {"tensordesc<[64]>", "unknown tensor descriptor element type ''"},
  };
  for (const Case &c : cases) {
    std::string error = parseError(c.text);
    EXPECT_NE(error.find(c.message), std::string::npos)
        << c.text << " -> " << error;
    // The message names the entry, so a long signature stays debuggable.
    EXPECT_NE(error.find("signature entry 1"), std::string::npos) << error;
  }
}

TEST(Signature, BadTensorDescIsNamedByPosition) {
  std::string error = parseError("*fp32, tensordesc<fp16[64, 128]>, "
                                 "tensordesc<fp16[64, 0]>, i32");
  EXPECT_NE(error.find("signature entry 3 ('tensordesc<fp16[64, 0]>')"),
            std::string::npos)
      << error;
}

} // namespace
