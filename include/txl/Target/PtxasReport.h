//===- PtxasReport.h - What ptxas says about a kernel's resources -*- C++
//-*-===//
//
// The assembler (ptxas, or nvJitLink running it in-process) is the only one
// who knows how many registers a kernel really uses, whether it spilled,
// and whether it had to serialize wgmma or ignore setmaxnreg. Those are the
// first things a kernel author looks at when a kernel is slow, so the
// compiler runs the assembler verbosely and keeps its report instead of
// throwing the log away.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_TARGET_PTXASREPORT_H
#define TXL_TARGET_PTXASREPORT_H

#include <string>
#include <vector>

namespace txl {

/// One assembler warning. `code` is ptxas's message id ("C7510") when it
/// gives one; `ptxLine` the PTX line it points at (0: none) and
/// `sourceLine` the kernel source line that PTX line came from (through the
/// `.loc` directives; 0: unknown).
struct PtxasWarning {
  std::string code;
  std::string message;
  int ptxLine = 0;
  int sourceLine = 0;
};

/// The resource report of one kernel entry. -1: the log did not say.
struct PtxasReport {
  int registers = -1;
  int stackBytes = -1;
  int spillStoreBytes = -1;
  int spillLoadBytes = -1;
  std::vector<PtxasWarning> warnings;

  bool known() const { return registers >= 0; }
  /// Bytes per thread spilled to local memory (0 when unknown): the
  /// metadata's `n_spills`.
  int spillBytes() const { return spillStoreBytes > 0 ? spillStoreBytes : 0; }
};

/// Reads the verbose (-v) assembler log `log` for entry `kernelName`;
/// `ptx` is the assembled PTX, used to map warnings to source lines.
PtxasReport parsePtxasReport(const std::string &log,
                             const std::string &kernelName,
                             const std::string &ptx);

/// The kernel source line that PTX line `ptxLine` (1-based) belongs to: the
/// line of the last `.loc` directive at or before it; 0 when there is none.
int sourceLineOfPtxLine(const std::string &ptx, int ptxLine);

} // namespace txl

#endif // TXL_TARGET_PTXASREPORT_H
