//===- Gen.h - The AST-to-txl builder (internal) ---------------*- C++ -*-===//
//
// One `Gen` builds one kernel. Its methods are spread over several files:
//   IRGen.cpp     entry point, module-level names, kernel signature
//   Stmts.cpp     statements, control flow (scf.if/for/while), inlining
//   EarlyReturn.cpp  `return` inside a runtime `if`
//   IfExp.cpp     `x if cond else y` on a runtime scalar condition
//   Exprs.cpp     expressions, constant folding, names and attributes
//   Semantic.cpp  Triton's typing: to_tensor, cast, promotion, broadcast,
//                 binary/unary/compare ops on runtime values
//   Registry.cpp  the one table of builtin functions (Registry.h); the
//                 handlers it names live next to what they build:
//   Builtins.cpp  the tl.* surface (creation, memory, hints), Python
//                 builtins, and Gen::callBuiltin (the registry lookup)
//   MathShape.cpp element-wise math, libdevice, shape ops (join, flip...)
//   Reduce.cpp    reductions (sum/max/min/argmax/argmin/reduce)
//   Scan.cpp      scans (associative_scan/cumsum/cumprod), histogram
//   Sort.cpp      bitonic sort/topk/bitonic_merge
//   Atomics.cpp   tl.atomic_*
//   Random.cpp    tl.rand/randn/randint (Philox)
//   Profiler.cpp  proton-style profiling scopes (pl.scope, `with`)
//   Modules.cpp   imports of other Python modules (jit helpers, constants)
//   Uniformity.cpp  values equal across each warpgroup (for setmaxnreg)
// User errors are thrown as CompileError (via `fail`) and caught once at
// the entry point, so no MLIR frame is ever unwound through.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_LIB_FRONTEND_IRGEN_GEN_H
#define TXL_LIB_FRONTEND_IRGEN_GEN_H

#include "Value.h"

#include "txl/Dialect/TXL/IR/Dialect.h"
#include "txl/Frontend/AST.h"
#include "txl/Frontend/Diagnostics.h"
#include "txl/Pipeline/Pipeline.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace txl::irgen {

using Scope = std::map<std::string, Val>;

/// Evaluated call arguments.
struct CallArgs {
  std::vector<Val> pos;
  std::vector<SourceLoc> posLocs;
  std::vector<std::pair<std::string, Val>> kw;
  SourceLoc loc; ///< the callee expression
};

/// Maximum depth of nested helper calls.
constexpr int kMaxCallDepth = 64;
/// Most Python modules one kernel's imports may reach.
constexpr size_t kMaxImportedModules = 256;
/// Module values naming an imported user module (Modules.cpp) carry this
/// prefix, so that they never collide with txl's own ("tl", "triton").
constexpr const char *kUserModulePrefix = "py:";
constexpr int kThreadsPerWarp = 32;
constexpr int kWarpsPerWarpgroup = 4;
/// The most threads a CTA can have (every target).
constexpr int64_t kMaxThreadsPerCTA = 1024;
/// Triton's TRITON_MAX_TENSOR_NUMEL: the most elements a tensor may have.
constexpr int64_t kMaxNumel = 1 << 20;
/// Maximum number of statements one kernel may run while it is built,
/// unrolled loop bodies and inlined helper bodies included: nested
/// tl.static_range loops or a fan-out of helper calls grow the IR
/// exponentially, and this bounds it before time or memory run out.
constexpr int64_t kMaxStatements = 1 << 18;

class Gen {
public:
  Gen(mlir::MLIRContext &ctx, const Module &ast, const SourceFile &file,
      const CompileOptions &opts);

  /// Builds the module; throws CompileError on user errors.
  mlir::OwningOpRef<mlir::ModuleOp> run();

  //===--- diagnostics and locations (IRGen.cpp) ---------------------------//
  [[noreturn]] void fail(SourceLoc loc, const std::string &msg) const;
  /// "'<construct>' is not supported in a kernel" for valid Python that
  /// kernel code cannot hold (a try statement, a lambda, ...).
  [[noreturn]] void failNotInKernel(SourceLoc loc,
                                    const std::string &construct) const;
  /// Rejects what a kernel or @jit helper's `def` line cannot have:
  /// `async def`, type parameters, `*args`, keyword-only parameters,
  /// `**kwargs`.
  void checkKernelSignature(const FunctionDefStmt &fn) const;
  mlir::Location locOf(SourceLoc loc);
  /// Sets the location used for ops built until the guard dies.
  struct LocGuard {
    LocGuard(Gen &g, SourceLoc l) : g(g), saved(g.cur), savedSrc(g.curSrc) {
      if (l.isValid()) {
        g.cur = g.locOf(l);
        g.curSrc = l;
      }
    }
    ~LocGuard() {
      g.cur = saved;
      g.curSrc = savedSrc;
    }
    Gen &g;
    mlir::Location saved;
    SourceLoc savedSrc;
  };

  //===--- module level (IRGen.cpp) ----------------------------------------//
  /// Binds the top-level names of `m` into `globals`; its functions are
  /// tagged with `moduleName` ("" for the kernel's own file).
  void collectModuleNames(const Module &m, const std::string &moduleName);
  /// The names one block of module-level statements binds (a try body).
  void collectModuleNames(const StmtList &body, const std::string &moduleName);
  /// Parses `text` as one expression and evaluates it among the globals.
  Val evalText(const std::string &text, const std::string &what,
               SourceLoc errLoc);
  static bool isConstexprAnnotation(const Expr *annotation);
  /// `tl.const` (Triton's pointer-to-constant parameter annotation).
  static bool isConstAnnotation(const Expr *annotation);
  static bool isJitFunction(const FunctionDefStmt &fn);

  //===--- statements (Stmts.cpp) ------------------------------------------//
  void execBlock(const StmtList &stmts);
  void exec(const Stmt &s);
  void assign(const Expr &target, const Val &value, SourceLoc loc);
  void execIf(const IfStmt &s);
  /// Runs `stmts[start..]` as one block of the current function.
  void execBlockFrom(const StmtList &stmts, size_t start);
  void execFor(const ForStmt &s);
  void execWhile(const WhileStmt &s);
  Val callFunction(const Val &fn, const CallArgs &args, SourceLoc callLoc);
  /// Inlines `fn` with already-bound runtime/compile-time args (combine
  /// functions of reductions).
  Val callWithValues(const Val &fn, std::vector<Val> args, SourceLoc loc);

  //===--- expressions (Exprs.cpp) -----------------------------------------//
  Val eval(const Expr &e);
  Val evalName(const NameExpr &e);
  Val evalAttribute(const AttributeExpr &e);
  Val getAttr(const Val &obj, const std::string &attr, SourceLoc loc);
  Val moduleAttr(const std::string &module, const std::string &attr,
                 SourceLoc loc);
  Val evalSubscript(const SubscriptExpr &e);
  Val evalCall(const CallExpr &e);
  Val evalBoolOp(const BoolOpExpr &e);
  Val evalCompare(const CompareExpr &e);
  Val evalIfExp(const IfExpExpr &e);
  /// `x if cond else y` on a runtime scalar condition: an scf.if that runs
  /// one side.
  Val conditionalExpr(const TValue &cond, const IfExpExpr &e);
  Val evalJoinedStr(const JoinedStrExpr &e);
  Val call(const Val &callee, CallArgs &args, SourceLoc loc);
  std::optional<Val> foldBinary(BinOpKind op, const Val &a, const Val &b,
                                SourceLoc loc);
  std::optional<Val> foldCompare(CmpOpKind op, const Val &a, const Val &b,
                                 SourceLoc loc);
  bool truthy(const Val &v, SourceLoc loc);
  Val lookup(const std::string &name, SourceLoc loc);

  //===--- Triton semantics on runtime values (Semantic.cpp) ---------------//
  mlir::Type mlirType(const DType &d);
  mlir::Type mlirType(const DType &d, const std::vector<int64_t> &shape);
  /// The dtype a Python number gets (to_tensor): int32/uint32/int64/...,
  /// fp32 (fp64 when out of fp32 range), int1.
  DType numberDType(const Val &v);
  /// A constant of dtype `d` (splatted to `shape`) holding number `v`.
  TValue constant(const DType &d, const Val &v,
                  const std::vector<int64_t> &shape = {});
  TValue toTensor(const Val &v, SourceLoc loc);
  TValue cast(const TValue &v, const DType &to, SourceLoc loc,
              bool bitcast = false);
  TValue splat(const TValue &v, const std::vector<int64_t> &shape);
  TValue broadcastTo(const TValue &v, const std::vector<int64_t> &shape,
                     SourceLoc loc);
  TValue reshape(const TValue &v, const std::vector<int64_t> &shape,
                 bool allowReorder, SourceLoc loc);
  TValue expandDims(const TValue &v, int axis, SourceLoc loc);
  /// The element of a one-element tensor as a scalar (x.item()).
  TValue scalarOf(const TValue &x, SourceLoc loc);
  std::pair<TValue, TValue> broadcastPair(TValue a, TValue b, SourceLoc loc);
  /// Triton's binary_op_type_checking_impl: promotes then broadcasts.
  std::pair<TValue, TValue> checkBinary(const Val &a, const Val &b,
                                        SourceLoc loc, bool allowLhsPtr,
                                        bool allowRhsPtr, bool arithmetic,
                                        bool divOrMod, const char *opName);
  DType computationType(const DType &a, bool aScalar, const DType &b,
                        bool bScalar, bool divOrMod, SourceLoc loc,
                        const char *opName);
  Val binary(BinOpKind op, const Val &a, const Val &b, SourceLoc loc);
  Val compare(CmpOpKind op, const Val &a, const Val &b, SourceLoc loc);
  Val unary(UnaryOpKind op, const Val &a, SourceLoc loc);
  TValue toBool(const TValue &v, SourceLoc loc);
  Val logical(bool isAnd, const Val &a, const Val &b, SourceLoc loc);
  Val where(const Val &c, const Val &x, const Val &y, SourceLoc loc);
  Val chooseBuffer(const Val &cond, const Val &x, const Val &y, SourceLoc loc);
  Val minMax(bool isMax, const Val &a, const Val &b, SourceLoc loc,
             bool propagateNan = false);

  //===--- tl.* (Builtins.cpp, Reduce.cpp) ---------------------------------//
  /// Calls the builtin `name` (canonical or alias) through the registry
  /// (Registry.h), after checking its minimum target.
  Val callBuiltin(const std::string &name, CallArgs &args, SourceLoc loc);
  /// tl.dot (Dot.cpp); `dot` also serves `a @ b`.
  Val callDot(CallArgs &args, SourceLoc loc);
  /// a @ b (+ acc) with tl.dot's result type for `out` (out_dtype).
  TValue dot(const TValue &a, const TValue &b, const std::optional<Val> &acc,
             mlir::txl::InputPrecision precision, SourceLoc loc,
             DType out = DType(DType::F32));
  /// tl.dot_scaled (DotScaled.cpp): operands upcast and scaled, then `dot`.
  Val callDotScaled(CallArgs &args, SourceLoc loc);
  /// Binds `args` to parameter names; missing optional ones are nullopt.
  std::vector<std::optional<Val>> bind(const CallArgs &args,
                                       const std::vector<const char *> &params,
                                       size_t numRequired,
                                       const std::string &fname,
                                       SourceLoc loc);
  int64_t constInt(const std::optional<Val> &v, const char *what,
                   SourceLoc loc);
  std::vector<int64_t> constShape(const Val &v, SourceLoc loc);
  DType constDType(const std::optional<Val> &v, const char *what,
                   SourceLoc loc);
  TValue tensorArg(const std::optional<Val> &v, const char *what,
                   SourceLoc loc);
  void validateShape(const std::vector<int64_t> &shape, SourceLoc loc);
  TValue makeRange(int64_t start, int64_t end, SourceLoc loc);
  /// The txl.reduce most recently built by reduce() (txl.warp_max and
  /// txl.warp_sum mark it as one that must stay inside each warp).
  mlir::Operation *lastReduce = nullptr;
  /// Builds a combine region from the scalars it receives (accumulators,
  /// then new elements) to the values it yields.
  using CombineFn = std::function<std::vector<Val>(const std::vector<Val> &)>;
  std::vector<TValue> reduce(const std::vector<TValue> &srcs, int axis,
                             SourceLoc loc, const CombineFn &combine);
  /// Fills `region` with one block of 2*N scalars of the element types of
  /// `srcs` and the values `combine` makes of them (checked: N scalars of
  /// those types), handed to `terminate`.
  void buildCombineRegion(
      mlir::Region &region, const std::vector<TValue> &srcs, SourceLoc loc,
      const CombineFn &combine,
      const std::function<void(llvm::ArrayRef<mlir::Value>)> &terminate);
  /// Inclusive scans of `srcs` (one shape) along `axis` (Scan.cpp).
  std::vector<TValue> scan(const std::vector<TValue> &srcs, int axis,
                           bool reverse, SourceLoc loc,
                           const CombineFn &combine);
  /// Triton's _pick_sum_dtype: sub-32-bit integers (bool included) widen
  /// to (u)int32 unless `dtype` is given.
  DType pickSumDType(DType in, const std::optional<Val> &dtype, SourceLoc loc);

  //===--- imports of other modules (Modules.cpp) ---------------------------//
  struct ImportedModule {
    std::string name; ///< dotted
    std::unique_ptr<SourceFile> file;
    std::unique_ptr<Module> ast;
    Scope globals;
    mlir::StringAttr fileAttr;
    std::string error; ///< why it cannot be used (does not parse)
  };
  /// The module `dotted` from the handed-over sources or the search path;
  /// nullptr if it is not found (a host-only module) or is txl's own.
  ImportedModule *findModule(const std::string &dotted);
  Val userModuleAttr(ImportedModule &m, const std::string &attr, SourceLoc loc);
  /// The module a function value was defined in (nullptr: the main file).
  ImportedModule *moduleOfFunction(const Val &fn);
  void enterModule(ImportedModule *m);
  struct ModuleScope {
    ModuleScope(Gen &g, ImportedModule *m);
    ~ModuleScope();
    Gen &g;
    ImportedModule *saved;
  };
  std::map<std::string, std::unique_ptr<ImportedModule>> imported;
  ImportedModule *currentModule = nullptr;
  /// The main file's globals while another module is current.
  Scope mainGlobals;
  /// The file whose code is being built (errors and locations name it).
  const SourceFile *curFile = nullptr;
  mlir::StringAttr curFileAttr;

  //===--- proton-style profiling scopes (Profiler.cpp) ---------------------//
  /// pl.scope / pl.enter_scope / pl.exit_scope (no-ops: profiling is off).
  Val callProfiler(const std::string &name, CallArgs &args, SourceLoc loc);
  static bool isProfilerScope(const Val &v);
  void execWith(const WithStmt &s);

  //===--- block pointers (BlockPointer.cpp) --------------------------------//
  Val makeBlockPointer(CallArgs &args, SourceLoc loc);
  Val advanceBlockPointer(CallArgs &args, SourceLoc loc);
  /// The pointer tensor a load/store through block pointer `bp` accesses;
  /// `*mask` gets the in-bounds mask of the `check` dimensions (if any).
  TValue blockPointerTensor(const Val &bp, const std::vector<int64_t> &check,
                            TValue *mask, SourceLoc loc);

  //===--- txl.* (Hardware.cpp, HardwareMemory.cpp) -------------------------//
  Val callTxl(const std::string &name, CallArgs &args, SourceLoc loc);
  Val callTxlMemory(const std::string &name, CallArgs &args, SourceLoc loc);
  Val callTxlLayout(const std::string &name, CallArgs &args, SourceLoc loc);
  /// The txlgpu encoding a txl layout value (Layouts.cpp) names, and the
  /// rank it describes (a located error when it is malformed).
  mlir::Attribute layoutAttr(const Val &layout, SourceLoc loc);
  unsigned checkLayout(const Val &layout, SourceLoc loc);
  TValue relayout(TValue x, const std::vector<int64_t> &shape,
                  const std::optional<Val> &layout, const std::string &fname,
                  SourceLoc loc);
  TValue select(const Val &pred, const TValue &a, const Val &other,
                SourceLoc loc);
  Val fragmentIO(bool load, CallArgs &args, const std::string &fname,
                 SourceLoc loc);
  TValue squeezeBroadcast(const TValue &v, const Val &spec, const TValue &buf,
                          const std::string &fname, SourceLoc loc);
  /// tl.dot on shared buffers: an async wgmma group (HardwareMemory.cpp).
  Val asyncDot(const TValue &a, const TValue &b, const std::optional<Val> &acc,
               SourceLoc loc);
  /// tl.dot on shared buffers with a tensor-memory accumulator (sm_100a):
  /// a synchronous tcgen05 MMA (HardwareMemory.cpp).
  Val tensorMemoryDot(const TValue &a, const TValue &b, const TValue &acc,
                      SourceLoc loc);
  /// txl.smem_trans / `.T` / smem_slice / smem_reshape views.
  Val bufferAttr(const Val &buf, const std::string &attr, SourceLoc loc);

  //===--- state ------------------------------------------------------------//
  mlir::MLIRContext &ctx;
  const Module &ast;
  const SourceFile &file;
  void checkDescriptorBlock(const Arg &a, const ArgSpec &spec,
                            const DType &elem);
  /// Whether `v` may still be written by an in-flight wgmma (a tl.dot on
  /// shared buffers not yet retired by txl.dot_wait).
  static bool mayBeInFlight(mlir::Value v, int depth = 0);
  /// Fails at the first read of an accumulator an asynchronous dot may
  /// still be writing (anything but the next dot, a wait, or carrying it
  /// through control flow): a dot's result is readable once a dot_wait(n)
  /// follows at least n younger groups on every path (AsyncDotReads.cpp).
  /// A `for` loop carrying a result still in flight out of it gets the
  /// TXL project's implicit dot_wait(0) after it.
  void checkAccumulatorReads(mlir::func::FuncOp func);
  /// The target's SM number (80 for "sm_80", 90 for "sm_90a").
  int smVersion() const;
  /// Fails at `loc` unless the target has `what` (sm_90 or later; with
  /// `wgmma`, exactly sm_90a: Blackwell has tcgen05 instead).
  void requireHopper(SourceLoc loc, const std::string &what,
                     bool wgmma = false);
  /// Fails at `loc` unless the target has tcgen05 and tensor memory
  /// (sm_100a, sm_101a, sm_103a).
  void requireBlackwell(SourceLoc loc, const std::string &what);
  /// Records num_ctas on the module (checked: 1..8, Hopper).
  void recordLaunchOptions(mlir::ModuleOp module);
  std::optional<Val> accumulatingDot(const Val &acc, const Expr &value,
                                     SourceLoc opLoc);
  void setClusterSize(mlir::ModuleOp module, SourceLoc loc);
  void checkThreadCount(SourceLoc loc);
  const CompileOptions &opts;
  DiagnosticEngine diag;
  mlir::OpBuilder b;
  mlir::Location cur;
  SourceLoc curSrc;
  mlir::StringAttr fileAttr;

  Scope globals;
  Scope *locals = nullptr;

  struct Frame {
    const FunctionDefStmt *fn;
    SourceLoc callLoc;
  };
  std::vector<Frame> callStack;
  /// Statements run so far (see kMaxStatements), and the unrolled loops
  /// and inlined calls enclosing the current one, outermost first: an
  /// error for a kernel that grows too large names the outermost.
  int64_t statementsRun = 0;
  struct Expansion {
    SourceLoc loc;
    const char *what;
  };
  std::vector<Expansion> expansions;
  struct ExpansionGuard {
    Gen &g;
    ExpansionGuard(Gen &g, SourceLoc loc, const char *what) : g(g) {
      g.expansions.push_back({loc, what});
    }
    ~ExpansionGuard() { g.expansions.pop_back(); }
  };
  /// Counts one statement; fails once the kernel has run too many.
  void countStatement(SourceLoc loc);
  /// Runtime ifs/loops enclosing the current statement in this function.
  int dynamicDepth = 0;
  /// Runtime loops among them (a `return` cannot leave one).
  int loopDepth = 0;
  bool returned = false;
  Val returnValue;
  /// Whether a `return` statement ran (else the function fell off its end:
  /// its result is undefined on that path, like Triton's poison).
  bool explicitReturn = false;

  //===--- `return` inside a runtime `if` (EarlyReturn.cpp) -----------------//
  /// Each block of the current function being run, outermost first, with
  /// the index of its next statement: a runtime `if` holding a `return`
  /// runs the rest of the function (these statements) in each branch that
  /// does not return. A null block marks an unrolled loop or a `with` body,
  /// whose rest cannot be run that way.
  struct BlockCursor {
    const StmtList *stmts;
    size_t next;
  };
  std::vector<BlockCursor> cursors;
  struct OpaqueBlockGuard {
    Gen &g;
    explicit OpaqueBlockGuard(Gen &g) : g(g) {
      g.cursors.push_back({nullptr, 0});
    }
    ~OpaqueBlockGuard() { g.cursors.pop_back(); }
  };
  /// Whether `s` (either branch, nested blocks included) holds a `return`.
  static bool containsReturn(const IfStmt &s);
  /// Builds a runtime `if` holding a `return` (as Triton accepts it): the
  /// function's result becomes the scf.if's result.
  void execIfWithReturn(const IfStmt &s, const TValue &cond);
  /// Runs `branch`, then the rest of the function (`rest`) unless the
  /// branch returned, from the names `before`; returns the function's
  /// result on that path (none if it fell off the end: `explicitReturn`).
  Val runBranchToReturn(const StmtList &branch,
                        const std::vector<BlockCursor> &rest,
                        const Scope &before);

  //===--- tl.map_elementwise (MapElementwise.cpp) --------------------------//
  /// Inside tl.map_elementwise's function, which txl calls on whole tensors
  /// (Triton: once per element): an `if` on an element's value runs both
  /// branches and selects element-wise.
  int elementwiseDepth = 0;
  void execElementwiseIf(const IfStmt &s, const TValue &cond);
  int nesting = 0;

  /// is_warpgroup/is_warp results (opaque mlir::Value pointers): an `if` on
  /// one is a role region, where setmaxnreg is legal.
  /// Each role predicate -> the warpgroups it selects (empty for a warp
  /// role), and the warpgroups the role branch being built runs on.
  std::map<const void *, std::vector<int64_t>> rolePredicates;
  std::vector<int64_t> roleGroups;
  /// Each role predicate -> the warps it selects, and the warps the role
  /// branch being built runs on (empty: the whole CTA). The first of them
  /// issues single-thread tcgen05 work (txl.dotx).
  std::map<const void *, std::vector<int64_t>> roleWarpIds;
  std::vector<int64_t> roleWarps;
  /// Warps launched beyond num_warps x num_warpgroups (ExtraWarps.h): the
  /// builder runs again with them when an is_warp role names a warp past
  /// the tensor warps (neededExtraWarps, set by is_warp).
  int64_t extraWarps = 0;
  int64_t neededExtraWarps = 0;
  /// Inside an is_warp role (either branch): its first warp, which issues
  /// the role's single-thread TMA and expect_tx work (kIssuerWarpAttr);
  /// -1 elsewhere.
  int64_t warpRoleIssuer = -1;
  /// Marks `op` as issued by warpRoleIssuer's lane 0, in a warp role.
  void markIssuer(mlir::Operation *op);
  /// Marks a scalar store or atomic made in a role as performed by lane 0
  /// of the role's first warp (tg::scalarPerformerThread).
  void markScalarPerformer(mlir::Operation *op);
  /// Warps per warpgroup x warpgroups: the warps tensors are laid out on.
  int64_t tensorWarps() const {
    return int64_t(opts.numWarps) * opts.numWarpgroups;
  }
  /// setmaxnreg count each warpgroup asked for last, and where: the sum
  /// over the CTA must fit its 65536 registers (checkRegisterRoles).
  std::map<int64_t, int64_t> roleRegisters;
  SourceLoc lastReallocLoc;
  void checkRegisterRoles();
  /// Enclosing `if`s whose condition is the same across each warpgroup
  /// (role predicates, txl.warpgroup_id() == k, ...), and those whose
  /// condition is not: setmaxnreg needs the first and none of the second.
  int roleDepth = 0;
  int divergentDepth = 0;
  /// Whether every thread of a warpgroup computes the same `v`
  /// (Uniformity.cpp).
  bool isWarpgroupUniform(mlir::Value v, int depth = 0) const;
  bool usesRegisterRealloc = false;
  /// Per mbarrier value: the constant byte count of its last mbar_expect and
  /// the TMA box bytes loaded onto it since, to catch mismatches statically.
  struct ExpectRecord {
    int64_t expected = -1;
    int64_t loaded = 0;
    SourceLoc loc;
    /// Where the expect was emitted: loads in another block (a loop body
    /// or branch) run an unknown number of times, so they end the check.
    mlir::Block *block = nullptr;
  };
  std::map<const void *, ExpectRecord> expects;
};

/// Counts expression/statement nesting across inlined calls and fails past a
/// limit, so no user input can exhaust the stack.
struct NestingGuard {
  NestingGuard(Gen &g, SourceLoc loc);
  ~NestingGuard() { --g.nesting; }
  Gen &g;
};

//===--- runtime leaves of values (Stmts.cpp) -----------------------------//
/// The runtime values inside `v` (tuples searched), in order.
void collectLeaves(const Val &v, std::vector<TValue> &out);
/// `templ` with its runtime leaves replaced by `values[idx...]`.
Val rebuild(const Val &templ, mlir::ValueRange values, size_t &idx);
/// `v` with compile-time numbers (also inside tuples) made runtime scalars,
/// so that control flow can carry or yield them.
Val promoteNumbers(Gen &g, const Val &v, SourceLoc loc);
/// A value's type for messages: "<[128], fp32>", "(int32, int32)".
std::string describe(const Val &v);

/// Whether `v` is a tl.make_block_ptr value (BlockPointer.cpp).
bool isBlockPointer(const Val &v);

/// Why TMA cannot move a descriptor block of `block` elements of `dtype`
/// ("" if it can): rank 1 to 5, rows (the innermost dimension) of at least
/// 16 bytes, power-of-two dimensions, and few enough boxes to unroll (a
/// block is cut into boxes of at most 256 per dimension, rows one swizzle
/// span wide; txlgpu::getTMABoxes). `what` names the block.
std::string tmaBlockProblem(const std::vector<int64_t> &block,
                            const DType &dtype, const std::string &what);

} // namespace txl::irgen

#endif // TXL_LIB_FRONTEND_IRGEN_GEN_H
