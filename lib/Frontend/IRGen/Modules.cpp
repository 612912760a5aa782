//===- Modules.cpp - Kernels' imports of other Python modules
//--------------===//
//
// A kernel file may import jit helpers and constants from other modules:
// `from pkg.ops.utils import helper`, `import helpers as h; h.f(x)`. Such a
// module is found among the sources the Python package hands over (the
// kernel's source closure, CompileOptions::modules), else as a file under
// the importing file's directory or an include directory (txlc -I), the way
// Python's sys.path finds it (`a/b.py`, `a/b/__init__.py`). Its top-level
// names are collected like the main file's, into globals of its own; a
// function called from it runs with its module's globals, and its errors
// are reported in its own file. A module that is not found is a host-only
// module (torch, numpy, ...) as before: its names are opaque values.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"

#include "txl/Frontend/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace txl::irgen {

/// Modules txl itself provides: never looked up as files.
static bool isBuiltinRoot(const std::string &root) {
  return root == "triton" || root == "txl" || root == "tl" || root == "math" ||
         root == "pl" || root == "libdevice";
}

/// The text of `path`, or nullopt if it is not a readable regular file
/// (directories and FIFOs are not modules).
static std::optional<std::string> readModuleFile(const std::string &path) {
  if (!llvm::sys::fs::is_regular_file(path))
    return std::nullopt;
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().str();
}

/// Where Python would find module `dotted` under `dir`.
static std::optional<std::pair<std::string, std::string>>
findUnder(const std::string &dir, const std::string &dotted) {
  llvm::SmallString<256> base(dir);
  llvm::StringRef rest(dotted);
  while (!rest.empty()) {
    auto [part, tail] = rest.split('.');
    llvm::sys::path::append(base, part);
    rest = tail;
  }
  for (const char *suffix : {".py", "/__init__.py"}) {
    std::string path = (base + suffix).str();
    if (auto text = readModuleFile(path))
      return std::make_pair(path, *text);
  }
  // A directory without __init__.py is a namespace package: a module with
  // no names of its own, whose submodules are its files. Python finds those
  // after every regular package, so a top-level name is never one (a
  // directory `torch` next to the kernel must not hide the real torch).
  if (dotted.find('.') != std::string::npos &&
      llvm::sys::fs::is_directory(base))
    return std::make_pair(base.str().str(), std::string());
  return std::nullopt;
}

Gen::ImportedModule *Gen::findModule(const std::string &dotted) {
  auto it = imported.find(dotted);
  if (it != imported.end())
    return it->second.get();
  std::string root = dotted.substr(0, dotted.find('.'));
  if (isBuiltinRoot(root))
    return nullptr;
  std::string path, text;
  const std::map<std::string, std::string> *handedGlobals = nullptr;
  auto given = opts.modules.find(dotted);
  if (given != opts.modules.end()) {
    path = given->second.path;
    text = given->second.text;
    handedGlobals = &given->second.globals;
  } else {
    std::vector<std::string> dirs;
    dirs.push_back(llvm::sys::path::parent_path(file.getName()).str());
    if (dirs.back().empty())
      dirs.back() = ".";
    dirs.insert(dirs.end(), opts.includeDirs.begin(), opts.includeDirs.end());
    for (const std::string &dir : dirs)
      if (auto found = findUnder(dir, dotted)) {
        std::tie(path, text) = *found;
        break;
      }
    if (path.empty())
      return nullptr; // a host-only module (torch, numpy, ...)
  }
  if (imported.size() >= kMaxImportedModules)
    fail(curSrc, "more than " + std::to_string(kMaxImportedModules) +
                     " imported modules");
  auto m = std::make_unique<ImportedModule>();
  m->name = dotted;
  m->file = std::make_unique<SourceFile>(path, std::move(text));
  m->fileAttr = mlir::StringAttr::get(&ctx, path);
  ImportedModule *raw = m.get();
  imported[dotted] = std::move(m);
  try {
    raw->ast = parseModuleOrThrow(*raw->file);
  } catch (CompileError &e) {
    raw->error = "module '" + dotted + "' (" + path +
                 ") does not parse: " + e.getMessage();
    return raw;
  }
  // Its names, collected in its own context (a cycle back to a module
  // being collected sees the names it has so far, as in Python).
  ModuleScope scope(*this, raw);
  collectModuleNames(*raw->ast, raw->name);
  if (handedGlobals)
    for (auto &[name, value] : *handedGlobals)
      globals[name] =
          evalText(value, "global '" + name + "' of module '" + dotted + "'",
                   SourceLoc{1, 1});
  return raw;
}

Val Gen::userModuleAttr(ImportedModule &m, const std::string &attr,
                        SourceLoc loc) {
  if (!m.error.empty())
    fail(loc, m.error);
  // The current module's names are in `globals` (see enterModule).
  Scope &names = &m == currentModule ? globals : m.globals;
  auto it = names.find(attr);
  if (it != names.end()) {
    if (it->second.kind == Val::Kind::Poison)
      fail(loc, "'" + m.name + "." + attr +
                    "' cannot be evaluated at compile time: " + it->second.s);
    return it->second;
  }
  // A submodule (`import pkg` then `pkg.ops.f`).
  if (ImportedModule *sub = findModule(m.name + "." + attr))
    return Val::module(kUserModulePrefix + sub->name);
  fail(loc, "module '" + m.name + "' has no attribute '" + attr + "'");
}

/// Switches the names, file and locations the builder uses to module `m`
/// (nullptr: the kernel's own file) until destroyed.
Gen::ModuleScope::ModuleScope(Gen &g, ImportedModule *m)
    : g(g), saved(g.currentModule) {
  g.enterModule(m);
}

Gen::ModuleScope::~ModuleScope() { g.enterModule(saved); }

void Gen::enterModule(ImportedModule *m) {
  if (m == currentModule)
    return;
  // Each module's globals live in its ImportedModule while another module
  // is current; the main file's live in mainGlobals.
  Scope &from = currentModule ? currentModule->globals : mainGlobals;
  std::swap(from, globals);
  Scope &to = m ? m->globals : mainGlobals;
  std::swap(to, globals);
  currentModule = m;
  curFile = m ? m->file.get() : &file;
  curFileAttr = m ? m->fileAttr : fileAttr;
}

Gen::ImportedModule *Gen::moduleOfFunction(const Val &fn) {
  if (fn.s.empty())
    return nullptr;
  auto it = imported.find(fn.s);
  return it == imported.end() ? nullptr : it->second.get();
}

} // namespace txl::irgen
