//===- Hardware.cpp - The txl.* explicit-hardware surface -----------------===//
//
// Thread identity, warpgroup roles, register reallocation, named barriers
// and fences. These are scalar operations on the executing thread, so they
// are built directly as NVVM ops in the tile IR (layout assignment leaves
// scalars alone and the LLVM lowering passes NVVM through). Shared memory,
// mbarriers and TMA live in HardwareMemory.cpp.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"
#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Support/TargetFeatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace txl::irgen {

namespace {

Value i32(Gen &g, int64_t v) {
  return arith::ConstantIntOp::create(g.b, g.cur, g.b.getI32Type(), v);
}

Val scalar(Value v, DType d) { return Val::tensor({v, d, {}}); }

/// tid/bid/tdim/bdim along `axis`.
Value specialRegister(Gen &g, const std::string &which, int64_t axis) {
  Type t = g.b.getI32Type();
  Location l = g.cur;
  auto pick = [&](auto x, auto y, auto z) -> Value {
    using X = decltype(x);
    using Y = decltype(y);
    using Z = decltype(z);
    if (axis == 0)
      return X::create(g.b, l, t);
    if (axis == 1)
      return Y::create(g.b, l, t);
    return Z::create(g.b, l, t);
  };
  if (which == "tid")
    return pick(NVVM::ThreadIdXOp(), NVVM::ThreadIdYOp(), NVVM::ThreadIdZOp());
  if (which == "bid")
    return pick(NVVM::BlockIdXOp(), NVVM::BlockIdYOp(), NVVM::BlockIdZOp());
  if (which == "tdim")
    return pick(NVVM::BlockDimXOp(), NVVM::BlockDimYOp(), NVVM::BlockDimZOp());
  return pick(NVVM::GridDimXOp(), NVVM::GridDimYOp(), NVVM::GridDimZOp());
}

Value threadIdX(Gen &g) { return specialRegister(g, "tid", 0); }

Value eq(Gen &g, Value a, Value b) {
  return arith::CmpIOp::create(g.b, g.cur, arith::CmpIPredicate::eq, a, b);
}

/// True in block (0, 0, 0) only.
Value inFirstBlock(Gen &g) {
  Value all;
  for (int axis = 0; axis < 3; ++axis) {
    Value is0 = eq(g, specialRegister(g, "bid", axis), i32(g, 0));
    all = all ? arith::AndIOp::create(g.b, g.cur, all, is0).getResult() : is0;
  }
  return all;
}

/// The ids of is_warpgroup/is_warp: an int or a list of ints, each below
/// `limit` (the launch's warpgroup or warp count).
std::vector<int64_t> roleIds(Gen &g, const Val &v, int64_t limit,
                             const std::string &what, SourceLoc loc) {
  std::vector<int64_t> ids;
  if (v.isIntLike())
    ids.push_back(v.asInt());
  else if (v.isTuple())
    for (const Val &e : v.elts) {
      if (!e.isIntLike())
        g.fail(loc, what + " ids must be compile-time integers, got " +
                        e.kindName());
      ids.push_back(e.asInt());
    }
  else
    g.fail(loc, what + " takes a compile-time integer or a list of them, got " +
                    v.kindName());
  if (ids.empty())
    g.fail(loc, what + " needs at least one id");
  for (int64_t id : ids)
    if (id < 0 || id >= limit)
      g.fail(loc,
             what + " id " + std::to_string(id) +
                 " is out of range: the kernel is launched with " +
                 (what == "is_warpgroup"
                      ? std::to_string(limit) + " warpgroup(s) (num_warpgroups)"
                  : what == "is_warp"
                      ? std::to_string(g.tensorWarps()) +
                            " warp(s), and roles may add at most " +
                            std::to_string(g.opts.numWarps) +
                            " more (ids below " + std::to_string(limit) + ")"
                      : std::to_string(limit) + " warp(s)"));
  return ids;
}

/// (tid.x >> shift) is one of `ids`. The result is recorded as a role
/// predicate so that `if` regions it guards may reallocate registers.
Val isRole(Gen &g, const std::vector<int64_t> &ids, int shift) {
  Value unit = arith::ShRUIOp::create(g.b, g.cur, threadIdX(g), i32(g, shift));
  Value any;
  for (int64_t id : ids) {
    Value hit = eq(g, unit, i32(g, id));
    any = any ? arith::OrIOp::create(g.b, g.cur, any, hit).getResult() : hit;
  }
  g.rolePredicates[any.getAsOpaquePointer()] =
      shift == 7 ? ids : std::vector<int64_t>();
  std::vector<int64_t> warps;
  for (int64_t id : ids)
    for (int64_t w = 0; w < (shift == 7 ? 4 : 1); ++w)
      warps.push_back(shift == 7 ? 4 * id + w : id);
  g.roleWarpIds[any.getAsOpaquePointer()] = warps;
  return scalar(any, DType::I1);
}

/// setmaxnreg: the count must be a multiple of 8 in [24, 256] and the call
/// must sit in a warpgroup-role branch (every thread of the warpgroup runs
/// it, and no other warpgroup does).
Val regRealloc(Gen &g, bool increase, const std::optional<Val> &count,
               const std::string &name, SourceLoc loc) {
  int64_t n = g.constInt(count, "the register count", loc);
  if (n < 24 || n > 256 || n % 8)
    g.fail(loc, name + "(" + std::to_string(n) +
                    "): the register count must be a multiple of 8 in "
                    "[24, 256]");
  if (g.roleDepth == 0)
    g.fail(loc, name + " must be called inside an 'if txl.is_warpgroup(...)' "
                       "branch (or another condition that is the same for "
                       "all threads of a warpgroup, such as "
                       "txl.warpgroup_id() == 0): setmaxnreg applies to a "
                       "whole warpgroup");
  if (g.divergentDepth > 0)
    g.fail(loc, name + " is under an 'if' whose condition may differ "
                       "between the threads of a warpgroup: setmaxnreg "
                       "must be executed by all threads of a warpgroup or "
                       "by none");
  NVVM::SetMaxRegisterOp::create(g.b, g.cur, uint32_t(n),
                                 increase
                                     ? NVVM::SetMaxRegisterAction::increase
                                     : NVVM::SetMaxRegisterAction::decrease);
  g.usesRegisterRealloc = true;
  for (int64_t group : g.roleGroups)
    g.roleRegisters[group] = n;
  g.lastReallocLoc = loc;
  return Val::none();
}

/// Named barrier `id` (1..15; 0 is the CTA-wide barrier the compiler uses)
/// for `nthreads` threads, a multiple of the warp size.
std::pair<Value, Value> namedBarrier(Gen &g, const std::optional<Val> &id,
                                     const std::optional<Val> &nthreads,
                                     const std::string &name, SourceLoc loc) {
  TValue idv = g.toTensor(*id, loc);
  if (id->isIntLike() && (id->asInt() < 0 || id->asInt() > 15))
    g.fail(loc, name + ": barrier id " + std::to_string(id->asInt()) +
                    " is out of range [0, 15]");
  int64_t n = g.constInt(nthreads, "the thread count", loc);
  if (n <= 0 || n % kThreadsPerWarp)
    g.fail(loc, name + ": the thread count must be a positive multiple of " +
                    std::to_string(kThreadsPerWarp) + ", got " +
                    std::to_string(n));
  if (idv.isTensor() || !idv.dtype.isInt())
    g.fail(loc, name + ": the barrier id must be an integer scalar");
  return {g.cast(idv, DType::I32, loc).value, i32(g, n)};
}

} // namespace

Val Gen::callTxl(const std::string &name, CallArgs &args, SourceLoc loc) {
  std::string op = name.substr(4); // drop "txl."
  if (op == "buffer_to") {
    // buf.to(dtype) on a shared buffer: the TXL project's kernels write
    // `tl.dot(p_smem.to(dtype), ...)` with dtype the buffer's own; a real
    // conversion needs the values in registers.
    auto p = bind(args, {"self", "dtype", "fp_downcast_rounding", "bitcast"}, 2,
                  "to", loc);
    DType to = constDType(p[1], "dtype", loc);
    if (to != p[0]->t.dtype)
      fail(loc, "a " + p[0]->t.typeStr() + " cannot be converted to " +
                    to.str() +
                    " in shared memory: txl.smem_load it, "
                    "convert, and txl.smem_store the result");
    return *p[0];
  }
  if (op == "print") {
    // The TXL project's txl.print(x, ...) is tl.device_print with an empty
    // prefix unless it starts with a string.
    CallArgs printArgs = args;
    if (printArgs.pos.empty() || printArgs.pos[0].kind != Val::Kind::Str) {
      printArgs.pos.insert(printArgs.pos.begin(), Val::str(""));
      printArgs.posLocs.insert(printArgs.posLocs.begin(), loc);
    }
    return callBuiltin("tl.device_print", printArgs, loc);
  }
  if (op == "tid" || op == "bid" || op == "tdim" || op == "bdim") {
    auto p = bind(args, {"axis"}, 1, name, loc);
    int64_t axis = constInt(p[0], "axis", loc);
    if (axis < 0 || axis > 2)
      fail(loc, name + " axis must be 0, 1 or 2, got " + std::to_string(axis));
    return scalar(specialRegister(*this, op, axis), DType::I32);
  }
  if (op == "lane_id" || op == "warp_id" || op == "warpgroup_id" ||
      op == "cta_rank" || op == "thread0") {
    bind(args, {}, 0, name, loc);
    if (op == "lane_id")
      return scalar(NVVM::LaneIdOp::create(b, cur, b.getI32Type()), DType::I32);
    if (op == "cta_rank")
      return scalar(NVVM::ClusterId::create(b, cur, b.getI32Type()),
                    DType::I32);
    if (op == "thread0")
      return scalar(
          arith::AndIOp::create(b, cur, inFirstBlock(*this),
                                eq(*this, threadIdX(*this), i32(*this, 0))),
          DType::I1);
    int shift = op == "warp_id" ? 5 : 7;
    return scalar(
        arith::ShRUIOp::create(b, cur, threadIdX(*this), i32(*this, shift)),
        DType::I32);
  }
  if (op == "cluster_arrive" || op == "cluster_wait" || op == "cluster_sync") {
    bind(args, {}, 0, name, loc);
    // Not .aligned: the calls may sit in warp-divergent code.
    if (op != "cluster_wait")
      NVVM::ClusterArriveOp::create(b, cur, UnitAttr());
    if (op != "cluster_arrive")
      NVVM::ClusterWaitOp::create(b, cur, UnitAttr());
    return Val::none();
  }
  if (op == "wg_thread0") {
    auto p = bind(args, {"wgid"}, 1, name, loc);
    int64_t wg = constInt(p[0], "the warpgroup id", loc);
    roleIds(*this, Val::integer(wg), opts.numWarpgroups, "wg_thread0", loc);
    Value first = eq(*this, threadIdX(*this),
                     i32(*this, wg * kWarpsPerWarpgroup * kThreadsPerWarp));
    return scalar(arith::AndIOp::create(b, cur, inFirstBlock(*this), first),
                  DType::I1);
  }
  if (op == "is_warpgroup") {
    auto p = bind(args, {"ids"}, 1, name, loc);
    return isRole(*this, roleIds(*this, *p[0], opts.numWarpgroups, op, loc), 7);
  }
  if (op == "is_warp") {
    // Ids past the tensor warps add warps to the launch, as in the TXL
    // project (a TMA warp and an MMA warp beside the epilogue warps), at
    // most one warpgroup's worth: they form one more barrier group.
    auto p = bind(args, {"ids"}, 1, name, loc);
    int64_t limit = tensorWarps() + opts.numWarps;
    std::vector<int64_t> ids = roleIds(*this, *p[0], limit, op, loc);
    for (int64_t id : ids)
      neededExtraWarps = std::max(neededExtraWarps, id + 1 - tensorWarps());
    return isRole(*this, ids, 5);
  }
  if (op == "reg_alloc" || op == "reg_dealloc") {
    auto p = bind(args, {"count"}, 1, name, loc);
    return regRealloc(*this, op == "reg_alloc", p[0], name, loc);
  }
  if (op == "bar_arrive" || op == "bar_wait") {
    auto p = bind(args, {"id", "nthreads"}, 2, name, loc);
    auto [id, n] = namedBarrier(*this, p[0], p[1], name, loc);
    // The non-aligned forms (barrier.sync / barrier.arrive, not bar.sync /
    // bar.arrive): a named barrier joins roles that reach it from different
    // code (two consumer warpgroups specialized by a constexpr, a producer
    // arriving where the consumers sync), and .aligned promises that every
    // participating thread executes the same instruction, convergently --
    // undefined behaviour otherwise, which compute-sanitizer's synccheck
    // reports ("divergent thread(s) in block").
    StringRef intrinsic = op == "bar_arrive"
                              ? "llvm.nvvm.barrier.cta.arrive.count"
                              : "llvm.nvvm.barrier.cta.sync.count";
    LLVM::CallIntrinsicOp::create(b, cur, b.getStringAttr(intrinsic),
                                  ValueRange{id, n});
    return Val::none();
  }
  if (op == "warp_max" || op == "warp_sum") {
    // tl.max / tl.sum whose reduced axis must lie within each warp (lanes
    // and registers): no shared memory, no CTA barrier, so it may run in a
    // warpgroup role. AllocateSharedMemory rejects a layout that splits the
    // axis across warps.
    lastReduce = nullptr;
    Val out = op == "warp_max"
                  ? handlers::maxMinArg(*this, "tl.max", args, loc)
                  : handlers::sumXorSum(*this, "tl.sum", args, loc);
    if (lastReduce)
      lastReduce->setAttr("txl.within_warp", b.getStringAttr(name));
    return out;
  }
  if (op == "acc_to_dot_a") {
    // x's columns reordered within each A fragment's k extent so that the
    // registers a wgmma accumulator layout gives each thread are already
    // its A fragment (txlgpu.acc_to_dot_a; the identity for 16 bits).
    auto p = bind(args, {"x"}, 1, name, loc);
    TValue x = tensorArg(p[0], "x", loc);
    bool wide = x.dtype.kind == DType::F16 || x.dtype.kind == DType::BF16;
    if (!wide && !x.dtype.isFP8())
      fail(loc, name +
                    ": x must be fp16, bf16 or fp8 (a wgmma register A "
                    "type), got " +
                    x.typeStr());
    int64_t group = wide ? 16 : 32;
    if (x.shape.size() != 2 || x.shape[1] % group)
      fail(loc, name + ": x must be 2-D with a multiple of " +
                    std::to_string(group) + " columns, got " + x.typeStr());
    auto view =
        mlir::txlgpu::AccToDotAOp::create(b, cur, x.value.getType(), x.value);
    return Val::tensor(TValue{view.getResult(), x.dtype, x.shape});
  }
  if (op == "fence_proxy_async") {
    bind(args, {}, 0, name, loc);
    NVVM::FenceProxyOp::create(
        b, cur, NVVM::ProxyKindAttr::get(&ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(&ctx, NVVM::SharedSpace::shared_cta));
    return Val::none();
  }
  fail(loc, "'" + name + "' is not supported");
}

Val handlers::txlHardware(Gen &g, const std::string &name, CallArgs &args,
                          SourceLoc loc) {
  return g.callTxl(name, args, loc);
}

/// tl.extra.cuda.num_threads / smid / globaltimer.
Val handlers::cudaExtra(Gen &g, const std::string &name, CallArgs &args,
                        SourceLoc loc) {
  g.bind(args, {}, 0, name, loc);
  if (name == "tl.extra.cuda.num_threads") // a compile-time constant
    return Val::integer(int64_t(g.opts.numWarps) * g.opts.numWarpgroups * 32);
  if (name == "tl.extra.cuda.smid")
    return scalar(NVVM::SmIdOp::create(g.b, g.cur, g.b.getI32Type()),
                  DType::I32);
  return scalar(NVVM::GlobalTimerOp::create(g.b, g.cur, g.b.getI64Type()),
                DType::I64);
}

int Gen::smVersion() const { return ::txl::targetSmVersion(opts.target); }

void Gen::requireBlackwell(SourceLoc loc, const std::string &what) {
  if (!::txl::targetHasTcgen05(opts.target))
    fail(loc, what +
                  " needs tensor memory and tcgen05 (sm_100a), but the "
                  "target is " +
                  opts.target +
                  (smVersion() >= 120 ? " (GeForce Blackwell: no tensor "
                                        "memory, no tcgen05)"
                                      : ""));
}

void Gen::requireHopper(SourceLoc loc, const std::string &what, bool wgmma) {
  int sm = smVersion();
  // sm_120a has TMA and mbarriers but no wgmma: its dots are mma.sync on
  // register operands.
  if (wgmma && opts.target != "sm_90a")
    fail(loc, what + " needs sm_90a (wgmma), but the target is " + opts.target +
                  (sm >= 120   ? " (GeForce Blackwell: no wgmma or tcgen05; "
                                 "load the operands into registers with "
                                 "txl.smem_load for an mma.sync dot)"
                   : sm >= 100 ? " (Blackwell: tcgen05 MMAs into tensor "
                                 "memory, txl.dotx or tl.dot with a "
                                 "tensor-memory acc)"
                               : ""));
  if (sm < 90)
    fail(loc, what + " needs sm_90 or later, but the target is " +
                  opts.target);
}

} // namespace txl::irgen
