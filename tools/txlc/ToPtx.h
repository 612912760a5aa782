//===- ToPtx.h - txl-opt --to-ptx ------------------------------*- C++ -*-===//
#ifndef TXL_OPT_TOPTX_H
#define TXL_OPT_TOPTX_H

namespace txl {

/// Whether the command line asks for --to-ptx (then runToPtx handles it
/// instead of mlir-opt's driver).
bool wantsToPtx(int argc, char **argv);
int runToPtx(int argc, char **argv);

} // namespace txl

#endif // TXL_OPT_TOPTX_H
