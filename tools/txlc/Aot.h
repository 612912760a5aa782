//===- Aot.h - C launchers for ahead-of-time compiled kernels --*- C++ -*-===//
//
// `txlc --aot` writes NAME.h and NAME.c: the kernel's cubin (or PTX) and
// metadata embedded as arrays, and a typed C launcher over the C API of
// libtxlrt (the runtime without the compiler), so an application ships
// kernels without shipping txl's compiler:
//
//   int NAME_load(void);      // load the embedded module (optional)
//   void NAME_unload(void);
//   int NAME(void *stream, unsigned gx, unsigned gy, unsigned gz, <args>);
//
// Pointers are device addresses (void *), integer and float scalars their
// C types, fp16/bf16 scalars their 16 bits (uint16_t), and each TMA
// descriptor parameter a `const txl_aot_tensor *` (base, shape, strides):
// the launcher encodes the tensor map with the box and swizzle the compiler
// chose. Results are txl status codes (0 = success; txl_last_error()).
//
//===----------------------------------------------------------------------===//
#ifndef TXL_TOOLS_TXLC_AOT_H
#define TXL_TOOLS_TXLC_AOT_H

#include "txl/Pipeline/Pipeline.h"

#include <string>

namespace txl {

/// The header and source of `kernel`'s launcher (compiled from
/// `sourceFile` with `signature`).
struct AotFiles {
  std::string header, source;
};
AotFiles generateAot(const CompiledKernel &kernel,
                     const std::string &metadataJson,
                     const std::string &signature);

} // namespace txl

#endif // TXL_TOOLS_TXLC_AOT_H
