//===- Sha256.h - Small SHA-256 for cache keys -----------------*- C++ -*-===//
//
// FIPS 180-4 SHA-256, enough to key the kernel cache without OpenSSL.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_RUNTIME_SHA256_H
#define TXL_RUNTIME_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace txl {

class Sha256 {
public:
  Sha256();
  void update(const void *data, size_t size);
  void update(const std::string &text) { update(text.data(), text.size()); }
  /// Finishes the hash; the object must not be updated afterwards.
  std::array<uint8_t, 32> digest();
  /// Finishes the hash and returns it as 64 lowercase hex digits.
  std::string hexDigest();

private:
  void compressBlock(const uint8_t *block);

  uint32_t state[8];
  uint8_t buffer[64];
  size_t bufferSize = 0;
  uint64_t totalBytes = 0;
};

/// SHA-256 of `text` as lowercase hex.
std::string sha256Hex(const std::string &text);

} // namespace txl

#endif // TXL_RUNTIME_SHA256_H
