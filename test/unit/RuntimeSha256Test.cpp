//===- RuntimeSha256Test.cpp - SHA-256 against FIPS/NIST vectors ----------===//
#include "txl/Support/Sha256.h"

#include <gtest/gtest.h>

#include <random>

using namespace txl;

TEST(RuntimeSha256, NistVectors) {
  EXPECT_EQ(sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the 56/64-byte padding boundaries (expected values from
// Python's hashlib).
TEST(RuntimeSha256, PaddingBoundaries) {
  const std::pair<int, const char *> cases[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
      {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"}};
  for (const auto &c : cases)
    EXPECT_EQ(sha256Hex(std::string(c.first, 'a')), c.second) << c.first;
}

TEST(RuntimeSha256, AllByteValues) {
  std::string bytes;
  for (int repeat = 0; repeat < 5; ++repeat)
    for (int i = 0; i < 256; ++i)
      bytes += char(i);
  EXPECT_EQ(sha256Hex(bytes),
            "d414b085826eb06778483ba35564dc849e643359f69ed9747878ba6e54985bed");
}

// Feeding the same bytes in random chunks must not change the digest.
TEST(RuntimeSha256, RandomChunking) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 50; ++trial) {
    std::string data(rng() % 1000, '\0');
    for (char &c : data)
      c = char(rng());
    Sha256 chunked;
    size_t pos = 0;
    while (pos < data.size()) {
      size_t take = std::min<size_t>(rng() % 130, data.size() - pos);
      chunked.update(data.data() + pos, take);
      pos += take;
    }
    EXPECT_EQ(chunked.hexDigest(), sha256Hex(data)) << "size " << data.size();
  }
}
