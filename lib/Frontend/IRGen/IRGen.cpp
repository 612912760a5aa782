//===- IRGen.cpp - Entry point: module names, kernel signature ------------===//
#include "txl/Frontend/IRGen.h"

#include "Gen.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "txl/Dialect/TXL/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"
#include "txl/Dialect/TXLGPU/IR/MaxNReg.h"
#include "txl/Frontend/Parser.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/raw_ostream.h"

#include <pthread.h>

using llvm::dyn_cast;
using namespace mlir;

namespace txl::irgen {

Gen::Gen(MLIRContext &ctx, const Module &ast, const SourceFile &file,
         const CompileOptions &opts)
    : ctx(ctx), ast(ast), file(file), opts(opts), diag(file), b(&ctx),
      cur(UnknownLoc::get(&ctx)) {
  fileAttr = StringAttr::get(&ctx, file.getName());
  curFile = &file;
  curFileAttr = fileAttr;
}

void Gen::fail(SourceLoc loc, const std::string &msg) const {
  // Code of an imported module reports errors in its own file.
  if (curFile != &file)
    DiagnosticEngine(*curFile).fail(loc, msg);
  diag.fail(loc, msg);
}

void Gen::failNotInKernel(SourceLoc loc, const std::string &construct) const {
  diag.fail(loc, "'" + construct + "' is not supported in a kernel");
}

void Gen::checkKernelSignature(const FunctionDefStmt &fn) const {
  if (fn.isAsync)
    failNotInKernel(fn.loc, "async function definition");
  if (!fn.typeParams.empty())
    failNotInKernel(fn.typeParams.front().loc, "type parameter");
  if (fn.vararg)
    failNotInKernel(fn.vararg->loc, "*args parameter");
  if (!fn.kwOnlyArgs.empty())
    failNotInKernel(fn.kwOnlyArgs.front().loc, "keyword-only parameter");
  if (fn.kwarg)
    failNotInKernel(fn.kwarg->loc, "**kwargs parameter");
}

Location Gen::locOf(SourceLoc loc) {
  if (!loc.isValid())
    return cur;
  return FileLineColLoc::get(curFileAttr, unsigned(loc.line),
                             unsigned(loc.col));
}

bool Gen::isConstexprAnnotation(const Expr *annotation) {
  if (!annotation)
    return false;
  if (auto *n = dyn_cast<NameExpr>(annotation))
    return n->id == "constexpr";
  if (auto *a = dyn_cast<AttributeExpr>(annotation))
    return a->attr == "constexpr";
  if (auto *c = dyn_cast<ConstantExpr>(annotation))
    return c->isString() && llvm::StringRef(c->stringValue).ends_with("constexpr");
  return false;
}

bool Gen::isConstAnnotation(const Expr *annotation) {
  if (auto *a = dyn_cast_or_null<AttributeExpr>(annotation))
    return a->attr == "const";
  if (auto *c = dyn_cast_or_null<ConstantExpr>(annotation))
    return c->isString() && (llvm::StringRef(c->stringValue) == "tl.const" ||
                             llvm::StringRef(c->stringValue) == "const");
  return false;
}

bool Gen::isJitFunction(const FunctionDefStmt &fn) {
  for (const ExprPtr &d : fn.decorators) {
    const Expr *e = d.get();
    if (auto *c = dyn_cast<CallExpr>(e))
      e = c->func.get();
    if (auto *n = dyn_cast<NameExpr>(e))
      if (n->id == "jit")
        return true;
    if (auto *a = dyn_cast<AttributeExpr>(e))
      if (a->attr == "jit")
        return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Module-level names
//===----------------------------------------------------------------------===//

/// The module a top-level package name means to the compiler: the TXL
/// project's kernels import txl under its package name, `teraxlang`.
static std::string canonicalRoot(const std::string &root) {
  return root == "teraxlang" ? "txl" : root;
}

/// Resolves a dotted import path to a module value: a Python module found
/// as a file (Modules.cpp) or one of txl's own.
static Val importPath(Gen &g, const std::string &path, SourceLoc loc) {
  if (Gen::ImportedModule *m = g.findModule(path))
    return Val::module(kUserModulePrefix + m->name);
  size_t dot = path.find('.');
  std::string root = path.substr(0, dot);
  Val v = Val::module(canonicalRoot(root));
  while (dot != std::string::npos) {
    size_t next = path.find('.', dot + 1);
    std::string part = path.substr(dot + 1, next == std::string::npos
                                                ? std::string::npos
                                                : next - dot - 1);
    v = v.kind == Val::Kind::Module ? g.moduleAttr(v.s, part, loc)
                                    : g.getAttr(v, part, loc);
    dot = next;
  }
  return v;
}

/// The dotted name a (possibly relative) `from ... import` refers to:
/// relative to the package of `importer` ("" is the kernel's own file,
/// whose directory is the top of the search path).
static std::string absoluteModuleName(const ImportFromStmt &im,
                                      const std::string &importer) {
  if (im.level == 0)
    return im.module;
  std::string base = importer;
  for (int up = 0; up < im.level && !base.empty(); ++up) {
    size_t dot = base.rfind('.');
    base = dot == std::string::npos ? "" : base.substr(0, dot);
  }
  if (base.empty())
    return im.module;
  return im.module.empty() ? base : base + "." + im.module;
}

/// Marks `name` as unusable with the reason, for host-only module code.
static void poison(Scope &scope, const std::string &name, std::string why) {
  Val p;
  p.kind = Val::Kind::Poison;
  p.s = std::move(why);
  scope[name] = p;
}

static void bindTargets(Gen &g, const Expr &target, const Val &v,
                        const std::string &why) {
  if (auto *n = dyn_cast<NameExpr>(&target)) {
    if (why.empty())
      g.globals[n->id] = v;
    else
      poison(g.globals, n->id, why);
    return;
  }
  if (auto *t = dyn_cast<TupleExpr>(&target)) {
    for (size_t k = 0; k < t->elts.size(); ++k) {
      bool ok = why.empty() && v.isTuple() && v.elts.size() == t->elts.size();
      bindTargets(g, *t->elts[k], ok ? v.elts[k] : Val(),
                  ok ? "" : (why.empty() ? "cannot unpack" : why));
    }
  }
}

/// Evaluates a module-level value; host-only code (torch calls and the
/// like) becomes a poisoned name that fails only if a kernel reads it.
static void moduleAssign(Gen &g, const Expr &target, const Expr &value) {
  try {
    Val v = g.eval(value);
    if (!v.isConstant())
      bindTargets(g, target, v, "it is a runtime value");
    else
      bindTargets(g, target, v, "");
  } catch (CompileError &e) {
    bindTargets(g, target, Val(), e.getMessage());
  }
}

void Gen::collectModuleNames(const Module &module,
                             const std::string &moduleName) {
  Scope *savedLocals = locals;
  locals = nullptr;
  collectModuleNames(module.body, moduleName);
  locals = savedLocals;
}

void Gen::collectModuleNames(const StmtList &body,
                             const std::string &moduleName) {
  for (const StmtPtr &s : body) {
    switch (s->getKind()) {
    case Stmt::Kind::Try: {
      // `try: import teraxlang as txl / except ImportError: <fallback>`:
      // the names are those of the path where the imports work (the body,
      // else, finally); the handlers are host code's fallbacks.
      const auto &t = llvm::cast<TryStmt>(*s);
      collectModuleNames(t.body, moduleName);
      collectModuleNames(t.orelse, moduleName);
      collectModuleNames(t.finalbody, moduleName);
      break;
    }
    case Stmt::Kind::Import:
      for (const ImportAlias &a : llvm::cast<ImportStmt>(*s).names) {
        if (!a.asname.empty()) {
          try {
            globals[a.asname] = importPath(*this, a.name, a.loc);
          } catch (CompileError &e) {
            poison(globals, a.asname, e.getMessage());
          }
        } else {
          // `import a.b.c` binds `a`; a.b.c is reached through it.
          std::string root = a.name.substr(0, a.name.find('.'));
          if (ImportedModule *m = findModule(root))
            globals[root] = Val::module(kUserModulePrefix + m->name);
          else
            globals[root] = Val::module(canonicalRoot(root));
        }
      }
      break;
    case Stmt::Kind::ImportFrom: {
      const auto &im = llvm::cast<ImportFromStmt>(*s);
      for (const ImportAlias &a : im.names) {
        std::string bindName = a.asname.empty() ? a.name : a.asname;
        if (a.name == "*")
          continue;
        try {
          Val m = importPath(*this, absoluteModuleName(im, moduleName), a.loc);
          globals[bindName] = m.kind == Val::Kind::Module
                                  ? moduleAttr(m.s, a.name, a.loc)
                                  : getAttr(m, a.name, a.loc);
        } catch (CompileError &e) {
          poison(globals, bindName, e.getMessage());
        }
      }
      break;
    }
    case Stmt::Kind::FunctionDef: {
      const auto &fn = llvm::cast<FunctionDefStmt>(*s);
      globals[fn.name] = Val::function(&fn, moduleName);
      break;
    }
    case Stmt::Kind::Assign: {
      const auto &a = llvm::cast<AssignStmt>(*s);
      for (const ExprPtr &t : a.targets)
        moduleAssign(*this, *t, *a.value);
      break;
    }
    case Stmt::Kind::AnnAssign: {
      const auto &a = llvm::cast<AnnAssignStmt>(*s);
      if (a.value)
        moduleAssign(*this, *a.target, *a.value);
      break;
    }
    default:
      break; // host code (if __name__ == ..., classes) is not kernel code
    }
  }
}

Val Gen::evalText(const std::string &text, const std::string &what,
                  SourceLoc errLoc) {
  SourceFile snippet("<" + what + ">", "__txl_value__ = (" + text + ")\n");
  std::string parseDiag;
  std::unique_ptr<Module> m;
  try {
    m = parseModule(snippet, parseDiag);
  } catch (...) {
    m = nullptr;
  }
  const AssignStmt *assign =
      m && m->body.size() == 1 ? dyn_cast<AssignStmt>(m->body[0].get())
                               : nullptr;
  if (!assign)
    fail(errLoc, "cannot parse the value of " + what + ": '" + text + "'");
  // Spec texts may say tl.float16 without the file importing tl.
  Scope saved = globals;
  if (!globals.count("tl"))
    globals["tl"] = Val::module("tl");
  if (!globals.count("triton"))
    globals["triton"] = Val::module("triton");
  Scope *savedLocals = locals;
  locals = nullptr;
  Val v;
  try {
    v = eval(*assign->value);
  } catch (CompileError &e) {
    globals = saved;
    locals = savedLocals;
    fail(errLoc, "cannot evaluate the value of " + what + " ('" + text +
                     "'): " + e.getMessage());
  }
  globals = saved;
  locals = savedLocals;
  return v;
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

/// A descriptor's block becomes a shared tile (power-of-two dimensions)
/// that TMA moves as boxes (tmaBlockProblem).
void Gen::checkDescriptorBlock(const Arg &a, const ArgSpec &spec,
                               const DType &elem) {
  for (int64_t n : spec.block)
    if (n < 1 || (n & (n - 1)))
      fail(a.loc, "parameter '" + a.name + "': the descriptor block " +
                      shapeStr(spec.block) +
                      " must have power-of-two dimensions");
  // Rows too narrow for TMA are reported where the descriptor is used.
  bool narrow = !spec.block.empty() &&
                spec.block.back() * std::max(1, elem.bitWidth() / 8) < 16;
  std::string problem = tmaBlockProblem(
      spec.block, elem, "the descriptor block " + shapeStr(spec.block));
  if (!problem.empty() && !narrow)
    fail(a.loc, "parameter '" + a.name + "': " + problem);
}

/// A CTA has at most 1024 threads (num_warps x num_warpgroups x 32).
void Gen::checkThreadCount(SourceLoc loc) {
  int64_t warps = opts.numWarps, groups = opts.numWarpgroups;
  if (warps < 1 || groups < 1)
    fail(loc, "num_warps and num_warpgroups must be positive");
  int64_t threads = (warps * groups + extraWarps) * kThreadsPerWarp;
  if (threads > kMaxThreadsPerCTA)
    fail(loc, "num_warps = " + std::to_string(warps) +
                  " x num_warpgroups = " + std::to_string(groups) +
                  (extraWarps ? " + " + std::to_string(extraWarps) +
                                    " warp(s) of is_warp roles"
                              : std::string()) +
                  " makes " + std::to_string(threads) +
                  " threads per CTA, more than the " +
                  std::to_string(kMaxThreadsPerCTA) + " a CTA can have");
}

/// setmaxnreg moves registers between warpgroups; it cannot make more:
/// the warpgroups' final counts (the entry share, 65536 / threads rounded
/// down to 8, for those that never ask) must fit the CTA's 65536.
void Gen::checkRegisterRoles() {
  if (roleRegisters.empty())
    return;
  int64_t groupThreads = int64_t(opts.numWarps) * kThreadsPerWarp;
  int64_t threads = (tensorWarps() + extraWarps) * kThreadsPerWarp;
  int64_t entry = std::min<int64_t>(255, 65536 / threads / 8 * 8);
  int64_t total = 0;
  std::string parts;
  for (int64_t group = 0; group < opts.numWarpgroups; ++group) {
    auto it = roleRegisters.find(group);
    int64_t regs = it == roleRegisters.end() ? entry : it->second;
    total += regs * groupThreads;
    parts += (group ? " + " : "") + std::to_string(regs);
  }
  if (total > 65536)
    fail(lastReallocLoc,
         "the warpgroups' registers add up to " + std::to_string(total) +
             " per CTA ((" + parts + ") x " + std::to_string(groupThreads) +
             " threads), more than the 65536 a CTA has; lower the reg_alloc "
             "counts");
}

/// num_ctas > 1 makes each program a cluster of that many CTAs (along x):
/// program_id names the cluster and txl.cta_rank the CTA inside it.
void Gen::setClusterSize(ModuleOp module, SourceLoc loc) {
  if (opts.numCtas == 1)
    return;
  if (opts.numCtas < 1 || opts.numCtas > 8)
    fail(loc, "num_ctas must be between 1 and 8 (a portable cluster), got " +
                  std::to_string(opts.numCtas));
  requireHopper(loc, "num_ctas = " + std::to_string(opts.numCtas) +
                         " (thread-block clusters)");
  module->setAttr(::mlir::txlgpu::TXLGPUDialect::kNumCtasAttr,
                  b.getI32IntegerAttr(opts.numCtas));
}

/// The launch options the GPU passes need, recorded in the module so that
/// a dumped .txlir replays (txl-opt) without restating them; the GPU
/// passes prefer them to their own options.
void Gen::recordLaunchOptions(ModuleOp module) {
  using ::mlir::txlgpu::TXLGPUDialect;
  module->setAttr(TXLGPUDialect::kNumWarpsAttr,
                  b.getI32IntegerAttr(opts.numWarps));
  module->setAttr(TXLGPUDialect::kNumWarpgroupsAttr,
                  b.getI32IntegerAttr(opts.numWarpgroups));
  module->setAttr(TXLGPUDialect::kTargetAttr, b.getStringAttr(opts.target));
  if (opts.maxnreg)
    module->setAttr(::mlir::txlgpu::kMaxnregAttr,
                    b.getI32IntegerAttr(opts.maxnreg));
  if (extraWarps)
    module->setAttr(::mlir::txlgpu::kNumExtraWarpsAttr,
                    b.getI32IntegerAttr(int32_t(extraWarps)));
}

OwningOpRef<ModuleOp> Gen::run() {
  Location fileLoc = FileLineColLoc::get(fileAttr, 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  (*module)->setAttr("txl.source_file", fileAttr);
  recordLaunchOptions(*module);
  collectModuleNames(ast, "");
  for (auto &[name, text] : opts.globals)
    globals[name] = evalText(text, "global '" + name + "'", SourceLoc{1, 1});

  const FunctionDefStmt *kernel = ast.findFunction(opts.kernelName);
  if (!kernel)
    fail(SourceLoc{1, 1}, "kernel '" + opts.kernelName + "' not found in " +
                              file.getName());
  checkKernelSignature(*kernel);
  // Trailing parameters with default values may be left out, as in a
  // Python call: they take their defaults (as constexprs).
  std::vector<ArgSpec> sig = opts.signature;
  while (sig.size() < kernel->args.size() &&
         kernel->args[sig.size()].defaultValue) {
    ArgSpec fill;
    fill.kind = ArgSpec::Kind::Constexpr;
    sig.push_back(fill);
  }
  if (sig.size() != kernel->args.size())
    fail(kernel->loc, "kernel '" + kernel->name + "' has " +
                          std::to_string(kernel->args.size()) +
                          " parameters but the signature has " +
                          std::to_string(opts.signature.size()) + " entries");

  // Decide each parameter's value: an argument, a constant, or None.
  Scope scope;
  SmallVector<Type> argTypes;
  std::vector<DType> argDTypes;
  std::vector<size_t> argParam;
  for (size_t k = 0; k < sig.size(); ++k) {
    const Arg &a = kernel->args[k];
    const ArgSpec &spec = sig[k];
    bool annConst = isConstexprAnnotation(a.annotation.get());
    if (spec.kind == ArgSpec::Kind::Constexpr) {
      if (!spec.constValue.empty())
        scope[a.name] = evalText(spec.constValue, "parameter '" + a.name + "'",
                                 a.loc);
      else if (a.defaultValue)
        scope[a.name] = eval(*a.defaultValue);
      else
        fail(a.loc, "no value given for constexpr parameter '" + a.name + "'");
      continue;
    }
    if (spec.kind == ArgSpec::Kind::None) {
      scope[a.name] = Val::none();
      continue;
    }
    if (annConst)
      fail(a.loc, "parameter '" + a.name +
                      "' is tl.constexpr but the signature gives a runtime "
                      "value");
    std::optional<DType> d = DType::fromName(spec.type);
    if (!d)
      fail(a.loc, "unknown type '" + spec.type + "' for parameter '" + a.name +
                      "'");
    DType dt = spec.kind == ArgSpec::Kind::Pointer && !d->isPtr()
                   ? DType::pointerTo(*d)
                   : *d;
    if (dt.isPtr() && isConstAnnotation(a.annotation.get()))
      dt.isConstPtr = true;
    if (spec.kind == ArgSpec::Kind::TensorDesc)
      checkDescriptorBlock(a, spec, dt);
    if (spec.kind == ArgSpec::Kind::TensorDesc)
      argTypes.push_back(::mlir::txlgpu::TensorDescType::get(
          &ctx, spec.block, mlirType(dt)));
    else
      argTypes.push_back(mlirType(dt));
    argDTypes.push_back(dt);
    argParam.push_back(k);
  }

  b.setInsertionPointToEnd(module->getBody());
  auto fnType = b.getFunctionType(argTypes, {});
  auto func = func::FuncOp::create(b, locOf(kernel->loc), kernel->name, fnType);
  func->setAttr(::mlir::txl::kKernelAttr, b.getUnitAttr());
  checkThreadCount(kernel->loc);
  setClusterSize(*module, kernel->loc);
  Block *entry = func.addEntryBlock();
  for (size_t i = 0; i < argParam.size(); ++i) {
    const ArgSpec &spec = sig[argParam[i]];
    const Arg &a = kernel->args[argParam[i]];
    bool divisible = spec.divisibility > 0 && spec.divisibility % 16 == 0;
    if (divisible && (argDTypes[i].isPtr() || argDTypes[i].isInt()))
      func.setArgAttr(unsigned(i), ::mlir::txl::kDivisibilityAttr,
                      b.getI32IntegerAttr(16));
    Value arg = entry->getArgument(unsigned(i));
    b.setInsertionPointToEnd(entry);
    LocGuard lg(*this, a.loc);
    if (spec.kind == ArgSpec::Kind::TensorDesc) {
      TValue desc{arg, argDTypes[i], spec.block};
      desc.space = TValue::Space::Desc;
      scope[a.name] = Val::tensor(desc);
    } else if (spec.equalsOne && argDTypes[i].isInt()) {
      func.setArgAttr(unsigned(i), ::mlir::txl::kEqualsOneAttr, b.getUnitAttr());
      scope[a.name] = Val::tensor(constant(argDTypes[i], Val::integer(1)));
    } else {
      scope[a.name] = Val::tensor({arg, argDTypes[i], {}});
    }
  }

  b.setInsertionPointToEnd(entry);
  locals = &scope;
  callStack.push_back({kernel, kernel->loc});
  execBlock(kernel->body);
  checkRegisterRoles();
  callStack.pop_back();
  locals = nullptr;
  if (opts.numCtas > 1) {
    // No CTA may exit while a peer can still multicast into its shared
    // memory or arrive on its barriers.
    NVVM::ClusterArriveOp::create(b, locOf(kernel->loc), UnitAttr());
    NVVM::ClusterWaitOp::create(b, locOf(kernel->loc), UnitAttr());
  }
  func::ReturnOp::create(b, locOf(kernel->loc));
  checkAccumulatorReads(func);
  return module;
}

/// Verifies; a failure is a compiler bug reported as an internal error.
static bool verifyModule(ModuleOp module, const SourceFile &file,
                         std::string &diagnostics) {
  std::string messages;
  ScopedDiagnosticHandler handler(module.getContext(), [&](mlir::Diagnostic &d) {
    llvm::raw_string_ostream os(messages);
    os << d.getLocation() << ": " << d.str() << "\n";
    return success();
  });
  if (succeeded(verify(module)))
    return true;
  diagnostics += formatDiagnostic(
      file, ::txl::Diagnostic{Severity::Error, SourceLoc{},
                            "internal error: the built IR does not verify:\n" +
                                messages});
  return false;
}

} // namespace txl::irgen

namespace txl {

namespace {
struct Job {
  MLIRContext *ctx;
  const Module *ast;
  const SourceFile *file;
  const CompileOptions *options;
  std::string *diagnostics;
  OwningOpRef<ModuleOp> result;
};

/// Builds the kernel; when its is_warp roles name warps past the tensor
/// warps, builds it again launched with them (ExtraWarps.h), so that
/// everything that counts the CTA's warps (else-branches of roles, barrier
/// counts) sees the final number.
void runJob(Job &job) {
  try {
    OwningOpRef<ModuleOp> m;
    int64_t extra = 0;
    for (int attempt = 0; attempt < 2; ++attempt) {
      irgen::Gen gen(*job.ctx, *job.ast, *job.file, *job.options);
      gen.extraWarps = extra;
      m = gen.run();
      if (gen.neededExtraWarps <= extra)
        break;
      extra = gen.neededExtraWarps;
    }
    if (irgen::verifyModule(*m, *job.file, *job.diagnostics))
      job.result = std::move(m);
  } catch (CompileError &e) {
    *job.diagnostics += e.getFormatted();
  } catch (std::exception &e) {
    *job.diagnostics += formatDiagnostic(
        *job.file, ::txl::Diagnostic{Severity::Error, SourceLoc{},
                              std::string("internal error: ") + e.what()});
  }
}

void *threadMain(void *p) {
  runJob(*static_cast<Job *>(p));
  return nullptr;
}
} // namespace

OwningOpRef<ModuleOp> buildKernelIR(MLIRContext &ctx, const Module &ast,
                                    const SourceFile &file,
                                    const CompileOptions &options,
                                    std::string &diagnostics) {
  ctx.loadDialect<mlir::txl::TXLDialect, mlir::txlgpu::TXLGPUDialect,
                  NVVM::NVVMDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect, func::FuncDialect>();
  Job job{&ctx, &ast, &file, &options, &diagnostics, {}};
  // The builder recurses over expressions and inlined calls; run it on a
  // thread with a large stack so deep (but bounded) nesting cannot overflow.
  pthread_attr_t attr;
  pthread_t thread;
  bool threaded = pthread_attr_init(&attr) == 0 &&
                  pthread_attr_setstacksize(&attr, size_t(512) << 20) == 0 &&
                  pthread_create(&thread, &attr, threadMain, &job) == 0;
  pthread_attr_destroy(&attr);
  if (threaded)
    pthread_join(thread, nullptr);
  else
    runJob(job);
  return std::move(job.result);
}

} // namespace txl
