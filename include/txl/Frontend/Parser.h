//===- Parser.h - Python-subset source to AST ------------------*- C++ -*-===//
//
// Recursive descent with Python's precedence. Errors are reported as
// "file:line:col: error: ..." with the source line and a caret at the
// offending token; the parser never crashes on any input (binary garbage,
// NUL bytes, invalid UTF-8, 100k-deep nesting) and stops at the first error.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_FRONTEND_PARSER_H
#define TXL_FRONTEND_PARSER_H

#include "txl/Frontend/AST.h"
#include "txl/Frontend/Diagnostics.h"

#include <memory>
#include <string>

namespace txl {

/// Deepest nesting of brackets/expressions/blocks the parser accepts; deeper
/// input is the error "nesting too deep" (never a stack overflow).
constexpr int kMaxNestingDepth = 200;

/// Deepest syntax tree the parser builds. Chains the parser reads in a loop
/// (`a + b + ...`, `a.b.c`, `f()()`, `elif` ladders) still make trees as
/// deep as they are long, and everything that walks the tree (the IR
/// builder, the dump, the destructors) recurses; past this depth the chain
/// is the error "nesting too deep" too. CPython gives up on such chains as
/// well (RecursionError during compilation).
constexpr int kMaxTreeDepth = 2500;

/// Parses a whole file. On success returns the module (an empty file is a
/// valid empty module) and leaves `diagnostics` untouched; on error returns
/// null and appends the formatted error to `diagnostics`.
std::unique_ptr<Module> parseModule(const SourceFile &file,
                                    std::string &diagnostics);

/// Same, for callers that want the exception (the error's location and bare
/// message): throws CompileError on a syntax error.
std::unique_ptr<Module> parseModuleOrThrow(const SourceFile &file);

} // namespace txl

#endif // TXL_FRONTEND_PARSER_H
