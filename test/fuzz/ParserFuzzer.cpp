//===- ParserFuzzer.cpp - Fuzz target for the lexer and parser ------------===//
//
// One input = one Python source file. The front end must end every input
// with either a module or a located diagnostic: a crash, an assertion, a
// sanitizer report or a hang is a bug. Built two ways:
//   * with libFuzzer (clang, `-fsanitize=fuzzer`; see build-libfuzzer.sh),
//   * as a plain program (TXL_FUZZ_STANDALONE, the CMake target
//     txl-parser-fuzz) that runs each file named on its command line and
//     prints "ok" or the first line of its diagnostic, which the mutation
//     script (mutate.py) and the regression test drive.
//
//===----------------------------------------------------------------------===//

#include "txl/Frontend/AST.h"
#include "txl/Frontend/Parser.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

namespace {

// Parses `text`; on success also dumps the AST (exercises every node's
// printer) into `dump` if given. Returns "ok" or the diagnostic's first
// line.
std::string parseOne(const std::string &name, const std::string &text,
                     std::string *dump = nullptr) {
  txl::SourceFile file(name, text);
  std::string diags;
  std::unique_ptr<txl::Module> m = txl::parseModule(file, diags);
  if (m) {
    std::ostringstream os;
    m->dump(os);
    if (dump)
      *dump = os.str();
    return "ok";
  }
  // Every failure must be a located diagnostic: "name:line:col: error: ".
  if (diags.rfind(name + ":", 0) != 0)
    __builtin_trap();
  return diags.substr(0, diags.find('\n'));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  parseOne("fuzz.py", std::string(reinterpret_cast<const char *>(data), size));
  return 0;
}

#ifdef TXL_FUZZ_STANDALONE
#include <fstream>
#include <iostream>

// txl-parser-fuzz [--dump] FILE...: "FILE: ok" or "FILE: <diagnostic>" per
// file; with --dump, the AST of each file that parses follows its line
// (compare_with_cpython.py compares it with CPython's).
int main(int argc, char **argv) {
  bool dump = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--dump") {
      dump = true;
      continue;
    }
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string ast;
    std::cout << argv[i] << ": " << parseOne(argv[i], ss.str(), &ast) << "\n";
    if (dump)
      std::cout << ast;
  }
  return 0;
}
#endif
