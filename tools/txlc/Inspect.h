//===- Inspect.h - txlc --sass and --html ----------------------*- C++ -*-===//
#ifndef TXLC_INSPECT_H
#define TXLC_INSPECT_H

#include "txl/Pipeline/Pipeline.h"

#include <string>

namespace txl {

/// Writes `sassPath` (when not empty: the SASS, nvdisasm required) and
/// `htmlPath` (when not empty: the viewer page; without nvdisasm its SASS
/// tab says why). False with `error` set when a file cannot be made.
bool writeInspection(const CompiledKernel &kernel, const std::string &source,
                     const std::string &sassPath, const std::string &htmlPath,
                     std::string &error);

} // namespace txl

#endif // TXLC_INSPECT_H
