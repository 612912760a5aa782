//===- Sha256.cpp - SHA-256 digests as hex (LLVM's SHA256) ----------------===//
#include "txl/Support/Sha256.h"

#include "llvm/ADT/StringExtras.h"

namespace txl {

void Sha256::update(const void *data, size_t size) {
  hasher.update(llvm::ArrayRef<uint8_t>(static_cast<const uint8_t *>(data),
                                        size));
}

std::string Sha256::hexDigest() {
  return llvm::toHex(digest(), /*LowerCase=*/true);
}

std::string sha256Hex(const std::string &text) {
  Sha256 hasher;
  hasher.update(text);
  return hasher.hexDigest();
}

} // namespace txl
