//===- Cubin.h - PTX to cubin: nvJitLink, ptxas or driver JIT --*- C++ -*-===//
//
// Compiling needs no GPU: libnvJitLink is dlopen'ed when present, else the
// ptxas binary is run, else the runtime JITs the PTX through the driver.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_TARGET_CUBIN_H
#define TXL_TARGET_CUBIN_H

#include <string>
#include <vector>

namespace txl {

/// Assembles `ptx` for `target` ("sm_90a", ...) with -O3 and line info.
/// Tries nvJitLink, then ptxas. On success `producer` is "nvjitlink" or
/// "ptxas" and `log` holds the assembler's verbose report (registers, spills,
/// warnings; see PtxasReport.h).
/// When neither is available returns false with producer == "driver": the
/// runtime must JIT the PTX. On an assembler error returns false, producer
/// names the assembler that failed and `log` holds its messages.
bool assembleCubin(const std::string &ptx, const std::string &target,
                   std::vector<char> &cubin, std::string &producer,
                   std::string &log);

/// Assembles with libnvJitLink only. False with `log` explaining why when
/// the library is missing or rejects the PTX.
bool assembleWithNvJitLink(const std::string &ptx, const std::string &target,
                           std::vector<char> &cubin, std::string &log);

/// Assembles with the ptxas binary only (see findPtxas).
bool assembleWithPtxas(const std::string &ptx, const std::string &target,
                       std::vector<char> &cubin, std::string &log);

/// Runs the real ptxas on `ptx` and discards the cubin; for tests and tools.
/// Returns ptxas's verdict, its diagnostics in `log`.
bool verifyPTXWithPtxas(const std::string &ptx, const std::string &target,
                        std::string &log);

/// True when libnvJitLink can be loaded.
bool nvJitLinkAvailable();

/// Path of ptxas: $TXL_PTXAS, $CUDA_HOME/bin, /usr/local/cuda/bin, PATH;
/// "" when none exists.
std::string findPtxas();

} // namespace txl

#endif // TXL_TARGET_CUBIN_H
