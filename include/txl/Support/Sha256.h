//===- Sha256.h - SHA-256 digests as hex (LLVM's SHA256) ---------*- C++ -*-===//
//
// Cache keys, artifact manifests and source hashes are SHA-256 in lowercase
// hex. The hashing is LLVM's (llvm/Support/SHA256.h); this adds the
// incremental-object-to-hex convenience the callers share.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_SUPPORT_SHA256_H
#define TXL_SUPPORT_SHA256_H

#include "llvm/Support/SHA256.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace txl {

class Sha256 {
public:
  void update(const void *data, size_t size);
  void update(const std::string &text) { update(text.data(), text.size()); }
  /// Finishes the hash; the object must not be updated afterwards.
  std::array<uint8_t, 32> digest() { return hasher.final(); }
  /// Finishes the hash and returns it as 64 lowercase hex digits.
  std::string hexDigest();

private:
  llvm::SHA256 hasher;
};

/// SHA-256 of `text` as lowercase hex.
std::string sha256Hex(const std::string &text);

} // namespace txl

#endif // TXL_SUPPORT_SHA256_H
