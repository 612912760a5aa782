//===- HardwareMemory.cpp - txl.* shared memory, mbarriers, TMA, wgmma ----===//
//
// Shared buffers and mbarriers are memdesc values (TValue spaces Smem,
// SmemArray, Mbar, MbarArray) built as txlgpu ops without an encoding; the
// layout passes pick the shared layout from how each buffer is used. Misuse
// the hardware would not report (a barrier op on a data buffer, a TMA into
// a buffer of another shape, a byte count that differs from the TMA boxes)
// is a located compile error here.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/IR/ExtraWarps.h"
#include "txl/Dialect/TXLGPU/IR/LayoutUtils.h"
#include "txl/Dialect/TXLGPU/IR/TCGen05.h"
#include "txl/Layout/LayoutConstructors.h"
#include "txl/Support/TargetFeatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
namespace tg = mlir::txlgpu;

namespace txl::irgen {

namespace {

using Space = TValue::Space;

bool isSpace(const std::optional<Val> &v, Space s) {
  return v && v->isTensor() && v->t.space == s;
}

std::string describeArg(const std::optional<Val> &v) {
  if (!v)
    return "nothing";
  if (v->isTensor())
    return "a " + v->t.typeStr();
  return v->kindName();
}

/// An optional keyword that must be a compile-time bool (`what` names it in
/// the error); `absent` when it is not given or None.
bool compileTimeBool(Gen &g, const std::optional<Val> &v, const char *what,
                     bool absent, const std::string &fname, SourceLoc loc) {
  if (!v || v->isNone())
    return absent;
  if (!v->isIntLike())
    g.fail(loc, fname + ": " + what + " must be a compile-time bool, got " +
                    (v->isTensor() ? "a runtime " + v->t.typeStr()
                                   : describeArg(v)));
  return v->asInt() != 0;
}

/// The argument as a value of space `s`, or a located error naming `what`.
const TValue &expectSpace(Gen &g, const std::optional<Val> &v, Space s,
                          const std::string &fname, const char *what,
                          SourceLoc loc) {
  if (isSpace(v, s))
    return v->t;
  static const char *names[] = {"a tensor",
                                "a shared buffer (txl.get_buffer of "
                                "txl.smem_alloc)",
                                "a shared buffer array (txl.smem_alloc)",
                                "an mbarrier (txl.get_buffer of "
                                "txl.mbar_alloc)",
                                "an mbarrier array (txl.mbar_alloc)",
                                "a tensor descriptor",
                                "a tensor-memory buffer (txl.get_buffer of "
                                "txl.tmem_alloc)",
                                "a tensor-memory buffer array "
                                "(txl.tmem_alloc)"};
  g.fail(loc, fname + ": " + what + " must be " + names[int(s)] + ", got " +
                  describeArg(v));
}

Value i32Value(Gen &g, const std::optional<Val> &v, const char *what,
               const std::string &fname, SourceLoc loc) {
  if (!v || v->isNone())
    g.fail(loc, fname + ": missing " + what);
  TValue t = g.toTensor(*v, loc);
  if (t.isTensor() || !t.dtype.isInt() || t.dtype.isBool())
    g.fail(loc, fname + ": " + what + " must be an integer scalar, got " +
                    t.typeStr());
  return g.cast(t, DType::I32, loc).value;
}

/// An optional predicate: None, a bool, or an i1 scalar.
Value predicate(Gen &g, const std::optional<Val> &v, const std::string &fname,
                SourceLoc loc) {
  if (!v || v->isNone())
    return {};
  TValue t = g.toTensor(*v, loc);
  if (t.isTensor())
    g.fail(loc, fname + ": pred must be a scalar, got " + t.typeStr());
  return g.toBool(t, loc).value;
}

int64_t elemBytes(const DType &d) { return std::max(1, d.bitWidth() / 8); }

int64_t numel(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Type memdesc(Gen &g, const std::vector<int64_t> &shape, const DType &d,
             Attribute enc = {}) {
  return tg::MemDescType::get(&g.ctx, shape, g.mlirType(d), enc);
}

/// Buffers in shared memory are allocated once for the whole kernel, so
/// they (and mbarriers, initialized at entry) must not be made in a loop
/// or a branch.
void requireTopLevel(Gen &g, const std::string &fname, SourceLoc loc) {
  if (g.dynamicDepth > 0)
    g.fail(loc, fname + " must be called at the kernel's top level, not "
                        "inside a runtime 'if' or loop: shared memory and "
                        "mbarriers are allocated once per CTA");
}

Val smemAlloc(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p =
      g.bind(args, {"shape", "dtype", "num_stages", "mutable", "shared_enc"}, 2,
             fname, loc);
  std::vector<int64_t> shape = g.constShape(*p[0], loc);
  g.validateShape(shape, loc);
  DType d = g.constDType(p[1], "dtype", loc);
  if (d.isPtr() || d.isBool())
    g.fail(loc, fname + ": dtype must be a number type, got " + d.str());
  int64_t stages = p[2] ? g.constInt(p[2], "num_stages", loc) : 1;
  if (stages < 1 || stages > 64)
    g.fail(loc, fname + ": num_stages must be in [1, 64], got " +
                    std::to_string(stages));
  if (p[4] && !p[4]->isNone())
    g.fail(loc, fname + ": shared_enc is not supported; the compiler chooses "
                        "the shared layout from the buffer's uses");
  requireTopLevel(g, fname, loc);
  bool immutable = p[3] && !p[3]->isNone() && !g.truthy(*p[3], loc);
  std::vector<int64_t> full = {stages};
  full.insert(full.end(), shape.begin(), shape.end());
  auto op = tg::SmemAllocOp::create(g.b, g.cur, memdesc(g, full, d), immutable);
  return Val::tensor({op.getResult(), d, full, Space::SmemArray});
}

Val mbarAlloc(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"arr_count", "num_stages"}, 1, fname, loc);
  int64_t count = g.constInt(p[0], "the arrive count", loc);
  if (count < 1 || count > (1 << 20) - 1)
    g.fail(loc, fname + ": the arrive count must be in [1, 2^20 - 1], got " +
                    std::to_string(count));
  int64_t stages = p[1] ? g.constInt(p[1], "num_stages", loc) : 1;
  if (stages < 1 || stages > 64)
    g.fail(loc, fname + ": num_stages must be in [1, 64], got " +
                    std::to_string(stages));
  requireTopLevel(g, fname, loc);
  Type t =
      memdesc(g, {stages}, DType::I64, tg::BarrierEncodingAttr::get(&g.ctx));
  auto op = tg::MBarAllocOp::create(g.b, g.cur, t, uint32_t(count));
  return Val::tensor({op.getResult(), DType::I64, {stages}, Space::MbarArray});
}

Type tmemDesc(Gen &g, const std::vector<int64_t> &shape, const DType &d) {
  return memdesc(g, shape, d, tg::TensorMemoryEncodingAttr::get(&g.ctx));
}

/// get_buffer(array, i): one stage. A compile-time index is range-checked.
Val getBuffer(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"bufs", "index"}, 2, fname, loc);
  if (!isSpace(p[0], Space::SmemArray) && !isSpace(p[0], Space::MbarArray) &&
      !isSpace(p[0], Space::TmemArray))
    g.fail(loc, fname +
                    ": expects a txl.smem_alloc, txl.mbar_alloc or "
                    "txl.tmem_alloc result, got " +
                    describeArg(p[0]));
  const TValue &arr = p[0]->t;
  if (p[1]->isIntLike() && (p[1]->asInt() < 0 || p[1]->asInt() >= arr.shape[0]))
    g.fail(loc, fname + ": index " + std::to_string(p[1]->asInt()) +
                    " is out of range for " + std::to_string(arr.shape[0]) +
                    " stage(s)");
  Value idx = i32Value(g, p[1], "the index", fname, loc);
  std::vector<int64_t> shape(arr.shape.begin() + 1, arr.shape.end());
  if (arr.space == Space::TmemArray) {
    auto op = tg::MemDescIndexOp::create(
        g.b, g.cur, tmemDesc(g, shape, arr.dtype), arr.value, idx);
    return Val::tensor({op.getResult(), arr.dtype, shape, Space::Tmem});
  }
  Type t =
      arr.space == Space::MbarArray
          ? memdesc(g, {1}, DType::I64, tg::BarrierEncodingAttr::get(&g.ctx))
          : memdesc(g, shape, arr.dtype);
  auto op = tg::MemDescIndexOp::create(g.b, g.cur, t, arr.value, idx);
  if (arr.space == Space::MbarArray)
    return Val::tensor({op.getResult(), DType::I64, {1}, Space::Mbar});
  return Val::tensor({op.getResult(), arr.dtype, shape, Space::Smem});
}

/// smem_index(buf, i): row i of a tile's leading dimension.
Val smemIndex(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"buf", "index"}, 2, fname, loc);
  const TValue &buf = expectSpace(g, p[0], Space::Smem, fname, "buf", loc);
  if (buf.shape.size() < 2)
    g.fail(loc, fname + ": needs a buffer of rank >= 2, got " + buf.typeStr());
  Value idx = i32Value(g, p[1], "the index", fname, loc);
  std::vector<int64_t> shape(buf.shape.begin() + 1, buf.shape.end());
  auto op = tg::MemDescIndexOp::create(g.b, g.cur, memdesc(g, shape, buf.dtype),
                                       buf.value, idx);
  return Val::tensor({op.getResult(), buf.dtype, shape, Space::Smem});
}

Val view(Gen &g, const TValue &buf, std::vector<int64_t> shape,
         llvm::ArrayRef<int32_t> perm, int64_t dim, int64_t start) {
  auto op = tg::MemDescViewOp::create(g.b, g.cur, memdesc(g, shape, buf.dtype),
                                      buf.value, g.b.getDenseI32ArrayAttr(perm),
                                      g.b.getI64IntegerAttr(dim),
                                      g.b.getI64IntegerAttr(start));
  return Val::tensor({op.getResult(), buf.dtype, shape, Space::Smem});
}

Val smemTrans(Gen &g, const TValue &buf, std::vector<int32_t> perm,
              const std::string &fname, SourceLoc loc) {
  size_t rank = buf.shape.size();
  if (perm.empty())
    for (size_t d = rank; d-- > 0;)
      perm.push_back(int32_t(d));
  std::vector<bool> seen(rank, false);
  if (perm.size() != rank)
    g.fail(loc, fname + ": the order must have " + std::to_string(rank) +
                    " entries");
  std::vector<int64_t> shape;
  for (int32_t d : perm) {
    if (d < 0 || size_t(d) >= rank || seen[d])
      g.fail(loc, fname + ": the order must be a permutation of 0.." +
                      std::to_string(rank - 1));
    seen[d] = true;
    shape.push_back(buf.shape[d]);
  }
  return view(g, buf, shape, perm, 0, 0);
}

Val smemSlice(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"buf", "start", "length", "dim"}, 3, fname, loc);
  const TValue &buf = expectSpace(g, p[0], Space::Smem, fname, "buf", loc);
  int64_t start = g.constInt(p[1], "start", loc);
  int64_t length = g.constInt(p[2], "length", loc);
  int64_t dim = p[3] ? g.constInt(p[3], "dim", loc) : 0;
  if (dim < 0 || dim >= int64_t(buf.shape.size()))
    g.fail(loc, fname + ": dim " + std::to_string(dim) + " is out of range");
  if (length <= 0 || (length & (length - 1)) || start < 0 || start % length ||
      start + length > buf.shape[dim])
    g.fail(loc, fname + ": slice [" + std::to_string(start) + ", " +
                    std::to_string(start + length) + ") of dimension " +
                    std::to_string(dim) + " (size " +
                    std::to_string(buf.shape[dim]) +
                    ") must be a power-of-two length at a multiple of it");
  std::vector<int64_t> shape = buf.shape;
  shape[dim] = length;
  std::vector<int32_t> identity;
  for (size_t d = 0; d < buf.shape.size(); ++d)
    identity.push_back(int32_t(d));
  return view(g, buf, shape, identity, dim, start);
}

/// smem_reshape(buf, shape): the same elements, row-major, under another
/// shape. Also takes a whole buffer array ([S, M, K] seen as [S * M, K]).
/// Whether the shared layout allows it is decided with the layouts
/// (AssignSharedLayouts).
Val smemReshape(Gen &g, CallArgs &args, const std::string &fname,
                SourceLoc loc) {
  auto p = g.bind(args, {"buf", "shape"}, 2, fname, loc);
  if (!isSpace(p[0], Space::Smem) && !isSpace(p[0], Space::SmemArray))
    g.fail(loc, fname +
                    ": buf must be a shared buffer (txl.smem_alloc, "
                    "get_buffer or a view), got " +
                    describeArg(p[0]));
  const TValue &buf = p[0]->t;
  std::vector<int64_t> shape = g.constShape(*p[1], loc);
  if (shape.empty())
    g.fail(loc, fname + ": the shape must have at least one dimension");
  for (int64_t d : shape)
    if (d < 1 || (d & (d - 1)))
      g.fail(loc, fname + ": shape " + shapeStr(shape) +
                      " must have power-of-two dimensions (shared layouts "
                      "are linear maps of the coordinate bits)");
  if (numel(shape) != numel(buf.shape))
    g.fail(loc, fname + ": cannot view " + buf.typeStr() + " (" +
                    std::to_string(numel(buf.shape)) + " elements) as " +
                    shapeStr(shape) + " (" + std::to_string(numel(shape)) +
                    " elements)");
  auto op = tg::MemDescReshapeOp::create(
      g.b, g.cur, memdesc(g, shape, buf.dtype), buf.value);
  return Val::tensor({op.getResult(), buf.dtype, shape, Space::Smem});
}

/// `value` as a tile for `buf`: a scalar is splatted, the element type is
/// converted, a different shape is a located error.
TValue valueForBuffer(Gen &g, const Val &value, const TValue &buf,
                      const std::string &fname, SourceLoc loc) {
  TValue v = g.toTensor(value, loc);
  if (!v.isTensor())
    v = g.splat(v, buf.shape);
  if (v.shape != buf.shape)
    g.fail(loc, fname + ": value " + v.typeStr() + " does not match " +
                    buf.typeStr());
  if (v.dtype != buf.dtype)
    v = g.cast(v, buf.dtype, loc);
  return v;
}

Val smemLoad(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  // `layout` is accepted for source compatibility: the compiler picks the
  // register layout from the value's uses either way.
  auto p = g.bind(args, {"smem", "layout", "cta_id"}, 1, fname, loc);
  const TValue &buf = expectSpace(g, p[0], Space::Smem, fname, "smem", loc);
  if (p[2] && !p[2]->isNone() && !(p[2]->isIntLike() && p[2]->asInt() < 0))
    g.fail(loc, fname + ": cta_id (distributed shared memory) is not "
                        "supported yet");
  auto op = tg::SmemLoadOp::create(g.b, g.cur, g.mlirType(buf.dtype, buf.shape),
                                   buf.value);
  return Val::tensor({op.getResult(), buf.dtype, buf.shape});
}

/// sync=False: the kernel orders the write itself (no warpgroup barriers
/// or async-proxy fence around it; see SmemStoreOp).
Val smemStore(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"smem", "value", "cta_id", "sync"}, 2, fname, loc);
  const TValue &buf = expectSpace(g, p[0], Space::Smem, fname, "smem", loc);
  if (p[2] && !p[2]->isNone() && !(p[2]->isIntLike() && p[2]->asInt() < 0))
    g.fail(loc, fname + ": cta_id (distributed shared memory) is not "
                        "supported yet");
  bool sync = compileTimeBool(g, p[3], "sync", true, fname, loc);
  TValue v = valueForBuffer(g, *p[1], buf, fname, loc);
  auto store = tg::SmemStoreOp::create(g.b, g.cur, buf.value, v.value);
  if (!sync)
    store.setUnsynced(true);
  return Val::none();
}

/// cp.async: the pointers' elements go straight into the buffer; the
/// copies form one group (committed here) that async_load_wait counts.
Val asyncLoad(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"dst_buf", "ptrs", "mask", "other", "contiguity"}, 2,
                  fname, loc);
  const TValue &buf = expectSpace(g, p[0], Space::Smem, fname, "dst_buf", loc);
  TValue ptr = g.tensorArg(p[1], "ptrs", loc);
  if (!ptr.isTensor() || !ptr.dtype.isPtr())
    g.fail(loc,
           fname + ": ptrs must be a tensor of pointers, got " + ptr.typeStr());
  if (ptr.shape != buf.shape || *ptr.dtype.pointee != buf.dtype)
    g.fail(loc, fname + ": pointers " + ptr.typeStr() + " do not match " +
                    buf.typeStr());
  Value mask;
  if (p[2] && !p[2]->isNone()) {
    TValue m = g.tensorArg(p[2], "mask", loc);
    if (!m.dtype.isBool())
      g.fail(loc, fname + ": mask must be boolean, got " + m.typeStr());
    mask = g.broadcastTo(m, buf.shape, loc).value;
  }
  if (p[3] && !p[3]->isNone() && !(p[3]->isConstant() && p[3]->asDouble() == 0))
    g.fail(loc, fname + ": cp.async fills masked-off elements with zeros; "
                        "`other` must be None or 0");
  // contiguity=N (the TXL project's argument): the programmer promises runs
  // of N contiguous, aligned, equally masked elements; -1 (its default) or
  // None leaves the width to the axis analysis.
  IntegerAttr contiguity;
  if (p[4] && !p[4]->isNone()) {
    int64_t n = g.constInt(p[4], "contiguity", loc);
    if (n != -1 && (n < 1 || n > 16 || (n & (n - 1))))
      g.fail(loc, fname +
                      ": contiguity must be -1 (let the compiler prove "
                      "it) or a power of two from 1 to 16, got " +
                      std::to_string(n));
    if (n != -1)
      contiguity = g.b.getI32IntegerAttr(int32_t(n));
  }
  tg::AsyncCopyGlobalToLocalOp::create(g.b, g.cur, ptr.value, buf.value, mask,
                                       contiguity);
  tg::AsyncCommitGroupOp::create(g.b, g.cur);
  return Val::none();
}

Val mbarExpect(Gen &g, CallArgs &args, const std::string &fname,
               SourceLoc loc) {
  auto p = g.bind(args, {"mbar", "bytes", "pred"}, 2, fname, loc);
  const TValue &bar = expectSpace(g, p[0], Space::Mbar, fname, "mbar", loc);
  Value bytes = i32Value(g, p[1], "the byte count", fname, loc);
  if (p[1]->isIntLike()) {
    int64_t n = p[1]->asInt();
    if (n <= 0 || n >= (1 << 20))
      g.fail(loc, fname + ": the byte count must be in [1, 2^20 - 1], got " +
                      std::to_string(n));
    // In a cluster, peers' multicast copies count on this barrier too, so
    // the bytes the local loads deliver are not the whole total.
    if (g.opts.numCtas == 1)
      g.expects[bar.value.getAsOpaquePointer()] = {n, 0, loc,
                                                   g.b.getInsertionBlock()};
  } else {
    g.expects.erase(bar.value.getAsOpaquePointer());
  }
  auto expect = tg::MBarExpectOp::create(g.b, g.cur, bar.value, bytes,
                                         predicate(g, p[2], fname, loc));
  g.markIssuer(expect);
  return Val::none();
}

/// txl.prefetch_l2(ptr, nbytes, pred=None): one bulk L2 prefetch of a
/// contiguous global range per calling thread where `pred` holds.
Val prefetchL2(Gen &g, CallArgs &args, const std::string &fname,
               SourceLoc loc) {
  auto p = g.bind(args, {"ptr", "nbytes", "pred"}, 2, fname, loc);
  // One address, not a tensor of them: the prefetch names a range, and a
  // pointer tensor would be one prefetch per element from every thread.
  const Val &ptr = *p[0];
  if (!ptr.isTensor() || !ptr.t.isReg() || ptr.t.isTensor() ||
      !ptr.t.dtype.isPtr() || ptr.t.dtype.addrSpace != 1)
    g.fail(loc, fname +
                    ": ptr must be a scalar pointer into global memory, "
                    "got " +
                    (ptr.isTensor() ? ptr.t.typeStr() : ptr.kindName()));
  Value bytes = i32Value(g, p[1], "the byte count", fname, loc);
  int64_t n = p[1]->isIntLike() ? p[1]->asInt() : 16;
  if (n <= 0 || n % 16 || n > INT32_MAX)
    g.fail(loc, fname +
                    ": the byte count must be a positive multiple of 16 "
                    "below 2^31 (cp.async.bulk moves 16-byte units), "
                    "got " +
                    std::to_string(n));
  tg::PrefetchL2Op::create(g.b, g.cur, ptr.t.value, bytes,
                           predicate(g, p[2], fname, loc));
  return Val::none();
}

/// A wait consumes the TMA bytes counted since the barrier's expect: a
/// statically known total that differs from the expected count would hang
/// (too few bytes) or corrupt the next phase (too many).
void checkExpected(Gen &g, const TValue &bar, SourceLoc waitLoc) {
  auto it = g.expects.find(bar.value.getAsOpaquePointer());
  if (it == g.expects.end() || it->second.loaded == 0)
    return;
  Gen::ExpectRecord r = it->second;
  g.expects.erase(it);
  if (r.loaded != r.expected)
    g.fail(r.loc, "txl.mbar_expect: expects " + std::to_string(r.expected) +
                      " bytes but the TMA loads signalling this barrier "
                      "before the wait at line " +
                      std::to_string(waitLoc.line) + " deliver " +
                      std::to_string(r.loaded) + " bytes");
}

Val mbarWait(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"mbar", "phase"}, 2, fname, loc);
  const TValue &bar = expectSpace(g, p[0], Space::Mbar, fname, "mbar", loc);
  Value phase = i32Value(g, p[1], "the phase", fname, loc);
  checkExpected(g, bar, loc);
  tg::MBarWaitOp::create(g.b, g.cur, bar.value, phase);
  return Val::none();
}

/// num_ctas, failing with "`fname`: `what`, but ..." without a cluster.
int clusterSize(Gen &g, const std::string &what, const std::string &fname,
                SourceLoc loc) {
  if (g.opts.numCtas < 2)
    g.fail(loc, fname + ": " + what +
                    ", but the kernel is launched with num_ctas = " +
                    std::to_string(g.opts.numCtas));
  return g.opts.numCtas;
}

/// The rank of a peer CTA in the cluster (None or a negative constant: the
/// calling CTA itself).
Value clusterRank(Gen &g, const std::optional<Val> &v, const std::string &fname,
                  SourceLoc loc) {
  if (!v || v->isNone() || (v->isIntLike() && v->asInt() < 0))
    return Value();
  int ctas = clusterSize(g, "cta_id names a CTA of the cluster", fname, loc);
  if (v->isIntLike() && v->asInt() >= ctas)
    g.fail(loc,
           fname + ": cta_id " + std::to_string(v->asInt()) +
               " is outside the cluster of num_ctas = " + std::to_string(ctas));
  return i32Value(g, v, "cta_id", fname, loc);
}

/// A `two_ctas=` flag (a compile-time bool): true pairs CTAs 2i and 2i + 1
/// of the cluster for tcgen05 cta_group::2 (sm_100a), which needs clusters
/// of an even number of CTAs.
bool twoCtas(Gen &g, const std::optional<Val> &v, const std::string &fname,
             SourceLoc loc) {
  if (!compileTimeBool(g, v, "two_ctas", false, fname, loc))
    return false;
  g.requireBlackwell(loc, fname + "(two_ctas=True)");
  int ctas = clusterSize(g,
                         "two_ctas=True (cta_group::2) pairs the CTAs of a "
                         "cluster",
                         fname, loc);
  if (ctas % 2)
    g.fail(loc, fname +
                    ": two_ctas=True (cta_group::2) pairs CTAs 2i and 2i + 1 "
                    "of a cluster, so num_ctas must be even, got " +
                    std::to_string(ctas));
  return true;
}

/// A TMA multicast mask: one bit per destination CTA rank.
Value multicastMask(Gen &g, const std::optional<Val> &v,
                    const std::string &fname, SourceLoc loc) {
  if (!v || v->isNone())
    return Value();
  int ctas = clusterSize(g, "multicast needs a cluster", fname, loc);
  if (v->isIntLike() && (v->asInt() <= 0 || v->asInt() >= (1 << ctas)))
    g.fail(loc, fname + ": multicast mask " + std::to_string(v->asInt()) +
                    " must name CTAs of the cluster (bits 0.." +
                    std::to_string(ctas - 1) + ", at least one)");
  Value mask = i32Value(g, v, "the multicast mask", fname, loc);
  return arith::TruncIOp::create(g.b, g.cur, g.b.getI16Type(), mask);
}

Val mbarArrive(Gen &g, CallArgs &args, const std::string &fname,
               SourceLoc loc) {
  auto p =
      g.bind(args, {"mbar", "pred", "cta_id", "track_async_op"}, 1, fname, loc);
  const TValue &bar = expectSpace(g, p[0], Space::Mbar, fname, "mbar", loc);
  bool trackAsync =
      compileTimeBool(g, p[3], "track_async_op", false, fname, loc);
  // cp.async.mbarrier.arrive only reaches the calling CTA's barriers.
  if (trackAsync && p[2] && !p[2]->isNone())
    g.fail(loc, fname + ": track_async_op=True arrives on a barrier of the "
                        "calling CTA, so it cannot take cta_id");
  tg::MBarArriveOp::create(g.b, g.cur, bar.value,
                           predicate(g, p[1], fname, loc),
                           clusterRank(g, p[2], fname, loc), trackAsync);
  return Val::none();
}

/// The coordinates of a TMA copy: one i32 per descriptor dimension.
SmallVector<Value> coords(Gen &g, const std::optional<Val> &v, size_t rank,
                          const std::string &fname, SourceLoc loc) {
  if (!v || !v->isTuple())
    g.fail(loc, fname + ": the offsets must be a list of " +
                    std::to_string(rank) + " integers");
  if (v->elts.size() != rank)
    g.fail(loc, fname + ": the descriptor has rank " + std::to_string(rank) +
                    " but " + std::to_string(v->elts.size()) +
                    " offsets were given");
  SmallVector<Value> out;
  for (const Val &e : v->elts)
    out.push_back(i32Value(g, e, "an offset", fname, loc));
  return out;
}

/// Whether `buf` is, or is a stage or slice of, a transposed view (.T,
/// txl.smem_trans) of a buffer.
bool isTransposedView(Value buf) {
  // Which source dimension each dimension of `buf` is, composed up the
  // chain of views (two transposes cancel).
  auto rank = [](Value v) {
    return cast<tg::MemDescType>(v.getType()).getShape().size();
  };
  auto identity = [](size_t n) {
    std::vector<int32_t> perm(n);
    for (size_t d = 0; d < n; ++d)
      perm[d] = int32_t(d);
    return perm;
  };
  std::vector<int32_t> dims = identity(rank(buf));
  while (Operation *def = buf.getDefiningOp()) {
    if (auto view = dyn_cast<tg::MemDescViewOp>(def)) {
      ArrayRef<int32_t> perm = view.getPermutation();
      if (perm.size() == dims.size())
        for (int32_t &d : dims)
          d = perm[d];
    } else if (isa<tg::MemDescIndexOp, tg::MemDescReshapeOp>(def)) {
      if (dims != identity(dims.size()))
        return true;
      dims = identity(rank(def->getOperand(0)));
    } else {
      break;
    }
    buf = def->getOperand(0);
  }
  return dims != identity(dims.size());
}

/// TMA moves rows in the descriptor's basis (innermost dimension last, as
/// the tensor is stored): into a transposed view the copy would write the
/// buffer's columns as rows, i.e. permuted data (REFERENCE §3).
void checkBasis(Gen &g, const TValue &buf, const std::string &fname,
                SourceLoc loc) {
  if (isTransposedView(buf.value))
    g.fail(loc, fname + ": the buffer " + buf.typeStr() +
                    " is a transposed view; TMA copies rows in the "
                    "descriptor's basis, so copy into (or out of) the buffer "
                    "itself and transpose where it is read (.T or "
                    "txl.smem_trans on the reader's side)");
}

/// Reports through `fail` what tmaBlockProblem finds.
void checkDescBlock(Gen &g, const std::vector<int64_t> &block,
                    const DType &dtype, const std::string &what,
                    const std::string &fname, SourceLoc loc) {
  std::string problem = tmaBlockProblem(block, dtype, what);
  if (!problem.empty())
    g.fail(loc, fname + ": " + problem);
}

void checkDescRank(Gen &g, const TValue &desc, const std::string &fname,
                   SourceLoc loc) {
  checkDescBlock(g, desc.shape, desc.dtype, desc.typeStr(), fname, loc);
}

/// The buffer of a TMA copy must be exactly one box of the descriptor.
void checkBox(Gen &g, const TValue &buf, const TValue &desc,
              const std::string &fname, SourceLoc loc) {
  checkBasis(g, buf, fname, loc);
  checkDescRank(g, desc, fname, loc);
  if (buf.shape != desc.shape || buf.dtype != desc.dtype)
    g.fail(loc, fname + ": the buffer " + buf.typeStr() +
                    " does not match the descriptor's block " + desc.typeStr() +
                    "; TMA copies exactly one block of the descriptor's type");
}

/// The source of a TMA store may also cover part of the descriptor's block:
/// all its rows and a run of whole boxes of columns (e.g. half of a
/// [64, 512] block). The block's box is [rows, swizzle span] once a row is
/// wider than the span (AssignSharedLayouts), and a buffer whose rows are a
/// span or wider gets the same swizzle, so its column chunks are whole
/// boxes of the descriptor: the store is one copy per chunk.
void checkStoreBox(Gen &g, const TValue &buf, const TValue &desc,
                   const std::string &fname, SourceLoc loc) {
  checkBasis(g, buf, fname, loc);
  if (desc.shape.size() != 2 || buf.shape.size() != 2 ||
      buf.dtype != desc.dtype || buf.shape[0] != desc.shape[0] ||
      buf.shape[1] >= desc.shape[1])
    return checkBox(g, buf, desc, fname, loc);
  constexpr int64_t kSpanBytes = 128; // the widest swizzle
  int64_t rowBytes = buf.shape[1] * elemBytes(buf.dtype);
  if (rowBytes % kSpanBytes != 0 || desc.shape[1] % buf.shape[1] != 0)
    g.fail(loc, fname + ": the buffer " + buf.typeStr() +
                    " covers part of the descriptor's block " + desc.typeStr() +
                    "; a partial store needs all of the block's rows and a "
                    "width that divides the block's and is a multiple of "
                    "128 bytes (whole TMA boxes), got rows of " +
                    std::to_string(rowBytes) + " bytes");
}

/// A TMA load or gather filling `dst` signals `bar`: its bytes count
/// against a constant mbar_expect of the same block (checked at the wait).
void countLoadedBytes(Gen &g, const TValue &bar, const TValue &dst,
                      SourceLoc loc) {
  auto it = g.expects.find(bar.value.getAsOpaquePointer());
  if (it != g.expects.end() && it->second.block != g.b.getInsertionBlock()) {
    g.expects.erase(it);
    it = g.expects.end();
  }
  if (it != g.expects.end()) {
    it->second.loaded += numel(dst.shape) * elemBytes(dst.dtype);
    if (it->second.loaded > it->second.expected)
      g.fail(it->second.loc,
             "txl.mbar_expect: expects " + std::to_string(it->second.expected) +
                 " bytes but the TMA loads signalling this barrier deliver " +
                 std::to_string(it->second.loaded) + " (see line " +
                 std::to_string(loc.line) + ")");
  }
}

Val tmaLoad(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args,
                  {"value", "desc", "offsets", "mbar", "contiguity",
                   "multicast", "two_ctas"},
                  4, fname, loc);
  const TValue &dst = expectSpace(g, p[0], Space::Smem, fname,
                                  "the "
                                  "destination",
                                  loc);
  const TValue &desc = expectSpace(g, p[1], Space::Desc, fname, "desc", loc);
  const TValue &bar = expectSpace(g, p[3], Space::Mbar, fname, "mbar", loc);
  checkBox(g, dst, desc, fname, loc);
  SmallVector<Value> c = coords(g, p[2], desc.shape.size(), fname, loc);
  Value mask = multicastMask(g, p[5], fname, loc);
  bool pair = twoCtas(g, p[6], fname, loc);
  if (pair && mask)
    g.fail(loc, fname + ": two_ctas=True counts the bytes on the pair's "
                        "first CTA's barrier; it cannot be combined with "
                        "multicast");
  countLoadedBytes(g, bar, dst, loc);
  auto op = tg::TMALoadOp::create(g.b, g.cur, dst.value, desc.value, c,
                                  bar.value, Value(), mask);
  op.setTwoCtas(pair);
  g.markIssuer(op);
  return Val::none();
}

/// tma_store's `reduce`: null for a plain store, else the reduction PTX's
/// cp.reduce.async.bulk.tensor applies (a located error otherwise).
StringAttr tmaReduceKind(Gen &g, const std::optional<Val> &v,
                         const std::string &fname, SourceLoc loc) {
  if (!v || v->isNone())
    return {};
  static const char *const kinds[] = {"add", "min", "max", "inc",
                                      "dec", "and", "or",  "xor"};
  if (v->kind == Val::Kind::Str)
    for (const char *k : kinds)
      if (v->s == k)
        return g.b.getStringAttr(k);
  g.fail(loc, fname +
                  ": reduce must be None or one of 'add', 'min', 'max', "
                  "'inc', 'dec', 'and', 'or', 'xor', got " +
                  v->repr());
}

Val tmaStore(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"value", "desc", "offsets", "reduce"}, 3, fname, loc);
  const TValue &src =
      expectSpace(g, p[0], Space::Smem, fname, "the source", loc);
  const TValue &desc = expectSpace(g, p[1], Space::Desc, fname, "desc", loc);
  checkStoreBox(g, src, desc, fname, loc);
  SmallVector<Value> c = coords(g, p[2], desc.shape.size(), fname, loc);
  StringAttr reduce = tmaReduceKind(g, p[3], fname, loc);
  g.markIssuer(
      tg::TMAStoreOp::create(g.b, g.cur, src.value, desc.value, c, reduce));
  return Val::none();
}

/// tma_gather(dst_buf, desc, bar, row_offsets, col): dst row i <- columns
/// [col, col + W) of global row row_offsets[i], through a descriptor whose
/// block is one row [1, W]. Completes on bar by bytes, like tma_load.
Val tmaGather(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"dst_buf", "desc", "bar", "row_offsets", "col"}, 5,
                  fname, loc);
  const TValue &dst =
      expectSpace(g, p[0], Space::Smem, fname, "the destination", loc);
  const TValue &desc = expectSpace(g, p[1], Space::Desc, fname, "desc", loc);
  const TValue &bar = expectSpace(g, p[2], Space::Mbar, fname, "bar", loc);
  if (dst.shape.size() != 2)
    g.fail(loc, fname +
                    ": the destination must be a 2-D buffer [rows, W], "
                    "got " +
                    dst.typeStr());
  if (desc.shape != std::vector<int64_t>{1, dst.shape[1]} ||
      desc.dtype != dst.dtype)
    g.fail(loc, fname +
                    ": the descriptor's block must be one row of the "
                    "destination, " +
                    dst.dtype.str() + "[1, " + std::to_string(dst.shape[1]) +
                    "], got " + desc.typeStr());
  TValue rows = g.tensorArg(p[3], "row_offsets", loc);
  if (!rows.isTensor() || rows.shape.size() != 1 ||
      rows.dtype.kind != DType::I32 || rows.shape[0] != dst.shape[0])
    g.fail(loc, fname +
                    ": row_offsets must be a 1-D int32 tensor of the "
                    "destination's " +
                    std::to_string(dst.shape[0]) + " rows, got " +
                    rows.typeStr());
  // On sm_90 (and sm_120a, which has no tile::gather4) each row is its own
  // TMA copy, and a TMA copy's shared destination must be 128-byte
  // aligned: rows (of each swizzle-wide chunk) must be 128 bytes, i.e. the
  // tile takes the 128-byte swizzle.
  int64_t rowBytes = dst.shape[1] * elemBytes(dst.dtype);
  if ((g.smVersion() < 100 || g.smVersion() >= 120) && rowBytes < 128)
    g.fail(loc, fname + ": on " + g.opts.target +
                    " every row is one TMA copy, whose shared destination "
                    "must be 128-byte aligned, so rows must be at least 128 "
                    "bytes; " +
                    dst.typeStr() + " has rows of " + std::to_string(rowBytes) +
                    " bytes");
  Value col = i32Value(g, p[4], "col", fname, loc);
  countLoadedBytes(g, bar, dst, loc);
  tg::TMAGatherOp::create(g.b, g.cur, dst.value, desc.value, rows.value, col,
                          bar.value);
  return Val::none();
}

/// An integer argument of make_tensor_descriptor (a shape entry or a
/// stride) as a scalar of type `to`.
Value descInt(Gen &g, const Val &v, const DType &to, const char *what,
              const std::string &fname, SourceLoc loc) {
  if (!(v.isIntLike() || (v.isTensor() && !v.t.isTensor() && v.t.isReg() &&
                          v.t.dtype.isInt() && !v.t.dtype.isBool())))
    g.fail(loc,
           fname + ": " + what + " must be integers, got " + describeArg(v));
  return g.cast(g.toTensor(v, loc), to, loc).value;
}

/// The value of `v` when it is a compile-time integer (a literal, a
/// constexpr or a parameter specialized to 1).
std::optional<int64_t> knownInt(const Val &v) {
  if (v.isIntLike())
    return v.asInt();
  if (v.isTensor() && !v.t.isTensor() && v.t.value)
    if (auto c = v.t.value.getDefiningOp<arith::ConstantIntOp>())
      return c.value();
  return std::nullopt;
}

/// tl.make_tensor_descriptor(base, shape, strides, block_shape): a TMA
/// descriptor the kernel builds itself (txlgpu.make_tensor_desc), used
/// like a host descriptor parameter by desc.load / desc.store and
/// txl.tma_load / tma_store. Shapes and strides (in elements) may be
/// runtime values; the block shape is a compile-time constant.
Val makeTensorDescriptor(Gen &g, CallArgs &args, const std::string &fname,
                         SourceLoc loc) {
  auto p = g.bind(args,
                  {"base", "shape", "strides", "block_shape", "padding_option"},
                  4, fname, loc);
  if (!p[0] || !p[0]->isTensor() || p[0]->t.isTensor() || !p[0]->t.isReg() ||
      !p[0]->t.dtype.isPtr() || p[0]->t.dtype.addrSpace != 1 ||
      !p[0]->t.dtype.pointee)
    g.fail(loc, fname +
                    ": base must be a scalar pointer to global memory, "
                    "got " +
                    describeArg(p[0]));
  DType elem = *p[0]->t.dtype.pointee;
  if (elem.isPtr() || elem.isBool())
    g.fail(loc, fname + ": the element type must be a number type, got " +
                    elem.str());
  for (int k : {1, 2, 3})
    if (!p[k]->isTuple())
      g.fail(loc, fname + ": " +
                      std::string(k == 1   ? "shape"
                                  : k == 2 ? "strides"
                                           : "block_shape") +
                      " must be a list, got " + describeArg(p[k]));
  std::vector<int64_t> block;
  for (const Val &d : p[3]->elts) {
    if (!d.isIntLike())
      g.fail(loc, fname +
                      ": block_shape must be compile-time integers "
                      "(tl.constexpr), got " +
                      describeArg(d));
    block.push_back(d.asInt());
  }
  const std::vector<Val> &shape = p[1]->elts, &strides = p[2]->elts;
  if (shape.size() != block.size() || strides.size() != block.size())
    g.fail(loc, fname +
                    ": shape, strides and block_shape must have the same "
                    "length, got " +
                    std::to_string(shape.size()) + ", " +
                    std::to_string(strides.size()) + " and " +
                    std::to_string(block.size()));
  for (int64_t n : block)
    if (n < 1 || (n & (n - 1)))
      g.fail(loc, fname + ": block_shape " + shapeStr(block) +
                      " must have power-of-two dimensions");
  checkDescBlock(g, block, elem, "block_shape " + shapeStr(block), fname, loc);
  if (std::optional<int64_t> last = knownInt(strides.back());
      last && *last != 1)
    g.fail(loc, fname +
                    ": the last stride must be 1 (TMA reads rows of "
                    "contiguous elements), got " +
                    std::to_string(*last));
  // TMA steps between rows in multiples of 16 bytes.
  for (size_t d = 0; d + 1 < strides.size(); ++d)
    if (std::optional<int64_t> stride = knownInt(strides[d]);
        stride && (*stride * elemBytes(elem)) % 16 != 0)
      g.fail(loc, fname + ": strides[" + std::to_string(d) + "] is " +
                      std::to_string(*stride) + " elements = " +
                      std::to_string(*stride * elemBytes(elem)) +
                      " bytes; TMA needs every stride but the last to be a "
                      "multiple of 16 bytes");
  if (p[4] && !p[4]->isNone() &&
      !(p[4]->kind == Val::Kind::Str && p[4]->s == "zero"))
    g.fail(loc, fname + ": only padding_option=\"zero\" is supported "
                        "(out-of-bounds elements read as zero)");
  SmallVector<Value> dims, steps;
  for (const Val &v : shape)
    dims.push_back(descInt(g, v, DType::I32, "shape entries", fname, loc));
  for (const Val &v : strides)
    steps.push_back(descInt(g, v, DType::I64, "strides", fname, loc));
  auto type = tg::TensorDescType::get(&g.ctx, block, g.mlirType(elem));
  auto op = tg::MakeTensorDescOp::create(g.b, g.cur, type, p[0]->t.value, dims,
                                         steps, /*scratch=*/Value());
  TValue desc{op.getResult(), elem, block};
  desc.space = Space::Desc;
  return Val::tensor(desc);
}

/// A shared tile of the descriptor's block (and with `withBarrier` an
/// mbarrier) private to one desc.load / desc.store call site. They are
/// allocated at the kernel's entry: shared memory and barriers live for the
/// whole kernel, and the call may sit in a loop or a warpgroup branch.
std::pair<Value, Value> siteBuffers(Gen &g, const TValue &desc,
                                    bool withBarrier) {
  OpBuilder::InsertionGuard guard(g.b);
  Operation *at = g.b.getInsertionBlock()->getParentOp();
  auto func = isa<func::FuncOp>(at) ? cast<func::FuncOp>(at)
                                    : at->getParentOfType<func::FuncOp>();
  g.b.setInsertionPointToStart(&func.front());
  Value zero = arith::ConstantIntOp::create(g.b, g.cur, 0, 32);
  std::vector<int64_t> stages = {1};
  stages.insert(stages.end(), desc.shape.begin(), desc.shape.end());
  auto alloc = tg::SmemAllocOp::create(
      g.b, g.cur, memdesc(g, stages, desc.dtype), /*immutable=*/false);
  Value tile = tg::MemDescIndexOp::create(
      g.b, g.cur, memdesc(g, desc.shape, desc.dtype), alloc, zero);
  Value bar;
  if (withBarrier) {
    Attribute enc = tg::BarrierEncodingAttr::get(&g.ctx);
    auto bars = tg::MBarAllocOp::create(
        g.b, g.cur, memdesc(g, {1}, DType::I64, enc), /*arriveCount=*/1);
    bar = tg::MemDescIndexOp::create(
        g.b, g.cur, memdesc(g, {1}, DType::I64, enc), bars, zero);
  }
  return {tile, bar};
}

/// desc.load(offsets): the block at `offsets` as a register tensor, by one
/// TMA copy into the site's tile, complete on return (the copy and the
/// wait are the leader's; the threads sharing the tensor synchronize
/// around it). Out-of-bounds elements read as zero.
/// The descriptor and coordinates of a desc.load / desc.store.
std::pair<TValue, SmallVector<Value>>
descAndCoords(Gen &g, const std::vector<std::optional<Val>> &p,
              const std::string &fname, SourceLoc loc) {
  const TValue &desc = expectSpace(g, p[0], Space::Desc, fname, "desc", loc);
  SmallVector<Value> c = coords(g, p[1], desc.shape.size(), fname, loc);
  checkDescRank(g, desc, fname, loc);
  return {desc, c};
}

Val descLoad(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"desc", "offsets"}, 2, fname, loc);
  auto [desc, c] = descAndCoords(g, p, fname, loc);
  auto [tile, bar] = siteBuffers(g, desc, /*withBarrier=*/true);
  auto copy = tg::TMALoadOp::create(g.b, g.cur, tile, desc.value, c, bar,
                                    Value(), Value());
  copy.setSync(true);
  auto load = tg::SmemLoadOp::create(g.b, g.cur,
                                     g.mlirType(desc.dtype, desc.shape), tile);
  return Val::tensor({load.getResult(), desc.dtype, desc.shape});
}

/// desc.store(offsets, value): the tensor into the block at `offsets` (the
/// part inside the tensor's bounds), by one TMA store from the site's tile;
/// the tile is read by the time the call returns.
Val descStore(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"desc", "offsets", "value"}, 3, fname, loc);
  auto [desc, c] = descAndCoords(g, p, fname, loc);
  TValue v = g.tensorArg(p[2], "value", loc);
  if (!v.isTensor())
    v = g.splat(v, desc.shape);
  if (v.shape != desc.shape)
    g.fail(loc, fname + ": value " + v.typeStr() +
                    " does not match the descriptor's block " + desc.typeStr());
  if (v.dtype != desc.dtype)
    v = g.cast(v, desc.dtype, loc);
  auto [tile, bar] = siteBuffers(g, desc, /*withBarrier=*/false);
  tg::SmemStoreOp::create(g.b, g.cur, tile, v.value);
  tg::TMAStoreOp::create(g.b, g.cur, tile, desc.value, c, StringAttr());
  tg::TMAStoreWaitOp::create(g.b, g.cur, 0);
  // Only the leader waited: nobody rewrites the tile before it is read.
  tg::BarrierOp::create(g.b, g.cur);
  return Val::none();
}

//===----------------------------------------------------------------------===//
// Tensor memory and tcgen05 (Blackwell)
//===----------------------------------------------------------------------===//

/// The 32-bit TMEM columns of one [128, N] buffer row of `d`.
int64_t tmemColumns(int64_t n, const DType &d) { return n * d.bitWidth() / 32; }

/// tmem_alloc(shape, dtype, num_stages=1): [128, N] buffers in tensor
/// memory, one row per TMEM lane ([64, N]: an M = 64 accumulator, in lanes
/// 0-15 of each warp's quarter); fp32 for accumulators, fp16/bf16 for an
/// A operand kept in tensor memory (two elements per 32-bit column).
Val tmemAlloc(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"shape", "dtype", "num_stages"}, 2, fname, loc);
  std::vector<int64_t> shape = g.constShape(*p[0], loc);
  DType d = g.constDType(p[1], "dtype", loc);
  if (!(d.kind == DType::F32 || d.kind == DType::F16 || d.kind == DType::BF16))
    g.fail(loc, fname +
                    ": dtype must be fp32 (an accumulator) or fp16/bf16 "
                    "(an A operand), got " +
                    d.str());
  if (shape.size() != 2 || (shape[0] != 128 && shape[0] != 64) ||
      shape[1] < 1 || (shape[1] & (shape[1] - 1)) ||
      tmemColumns(shape[1], d) < 1)
    g.fail(loc, fname + ": shape " + shapeStr(shape) +
                    " must be [128, N] or [64, N] with N a power of two "
                    "(one row per tensor-memory lane, " +
                    (d.bitWidth() == 16 ? "N >= 2" : "N >= 1") + ")");
  int64_t stages = p[2] ? g.constInt(p[2], "num_stages", loc) : 1;
  if (stages < 1 || stages > 64)
    g.fail(loc, fname + ": num_stages must be in [1, 64], got " +
                    std::to_string(stages));
  int64_t columns = stages * tmemColumns(shape[1], d);
  if (columns > 512)
    g.fail(loc, fname + ": " + std::to_string(stages) + " stage(s) of " +
                    shapeStr(shape) + " " + d.str() + " need " +
                    std::to_string(columns) +
                    " tensor-memory columns, more than the 512 an SM has");
  requireTopLevel(g, fname, loc);
  std::vector<int64_t> full = {stages, shape[0], shape[1]};
  auto op = tg::TMemAllocOp::create(g.b, g.cur, tmemDesc(g, full, d),
                                    IntegerAttr(), IntegerAttr());
  return Val::tensor({op.getResult(), d, full, Space::TmemArray});
}

/// tmem_load/tmem_store's `layout`: a tcgen05.ld/st message shape
/// ("32x32b", "16x64b", "16x128b", "16x256b") the registers are moved in,
/// or None (the compiler's choice). Another value (a layout object of the
/// TXL project's API) is accepted as before and leaves the choice to the
/// compiler: the result is converted where its uses need another layout.
StringAttr tmemMessage(Gen &g, const std::optional<Val> &layout,
                       const TValue &buf, const std::string &fname,
                       SourceLoc loc) {
  if (!layout || layout->kind != Val::Kind::Str)
    return {};
  std::optional<::txl::TMemMessage> msg = ::txl::parseTMemMessage(layout->s);
  if (!msg)
    g.fail(loc, fname + ": layout '" + layout->s +
                    "' is not a tcgen05.ld/st message shape (32x32b, "
                    "16x64b, 16x128b or 16x256b)");
  // (Other warp counts are the layout pass's located error.)
  unsigned warps = g.tensorWarps() == 8 ? 8 : 4;
  std::string error = ::txl::tmemMessageLayoutError(
      *msg, buf.shape, warps, unsigned(buf.dtype.bitWidth()));
  if (!error.empty())
    g.fail(loc, fname + ": layout '" + layout->s + "' cannot move " +
                    buf.typeStr() + ": " + error);
  return g.b.getStringAttr(layout->s);
}

Val tmemLoad(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"buf", "layout"}, 1, fname, loc);
  const TValue &buf = expectSpace(g, p[0], Space::Tmem, fname, "buf", loc);
  auto op = tg::TMemLoadOp::create(g.b, g.cur, g.mlirType(buf.dtype, buf.shape),
                                   buf.value);
  if (StringAttr message = tmemMessage(g, p[1], buf, fname, loc))
    op.setMessageAttr(message);
  return Val::tensor({op.getResult(), buf.dtype, buf.shape});
}

Val tmemStore(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"buf", "value", "layout"}, 2, fname, loc);
  const TValue &buf = expectSpace(g, p[0], Space::Tmem, fname, "buf", loc);
  TValue v = valueForBuffer(g, *p[1], buf, fname, loc);
  auto op = tg::TMemStoreOp::create(g.b, g.cur, buf.value, v.value);
  if (StringAttr message = tmemMessage(g, p[2], buf, fname, loc))
    op.setMessageAttr(message);
  return Val::none();
}

/// tmem_slice(buf, start, length): columns [start, start + length) of a
/// [128, N] tensor-memory buffer, e.g. to read a wide accumulator back in
/// chunks that fit the registers.
Val tmemSlice(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"buf", "start", "length"}, 3, fname, loc);
  const TValue &buf = expectSpace(g, p[0], Space::Tmem, fname, "buf", loc);
  int64_t start = g.constInt(p[1], "start", loc);
  int64_t length = g.constInt(p[2], "length", loc);
  int64_t n = buf.shape[1];
  if (length <= 0 || (length & (length - 1)) || start < 0 || start % length ||
      start + length > n || tmemColumns(length, buf.dtype) < 1)
    g.fail(loc, fname + ": columns [" + std::to_string(start) + ", " +
                    std::to_string(start + length) + ") of " + buf.typeStr() +
                    " must be a power-of-two length at a multiple of it, of "
                    "at least one 32-bit column");
  std::vector<int64_t> shape = {buf.shape[0], length};
  auto op = tg::MemDescViewOp::create(
      g.b, g.cur, tmemDesc(g, shape, buf.dtype), buf.value,
      g.b.getDenseI32ArrayAttr({0, 1}), g.b.getI64IntegerAttr(1),
      g.b.getI64IntegerAttr(start));
  return Val::tensor({op.getResult(), buf.dtype, shape, Space::Tmem});
}

/// The mbarriers a dotx commits to: None, one mbarrier or a list of them.
SmallVector<Value> commitBarriers(Gen &g, const std::optional<Val> &v,
                                  const std::string &fname, SourceLoc loc) {
  SmallVector<Value> bars;
  if (!v || v->isNone())
    return bars;
  if (v->isTuple()) {
    for (const Val &e : v->elts)
      bars.push_back(
          expectSpace(g, e, Space::Mbar, fname, "each of mbars", loc).value);
    return bars;
  }
  bars.push_back(expectSpace(g, v, Space::Mbar, fname, "mbars", loc).value);
  return bars;
}

/// mbarPreds: None (every commit happens), or one predicate per barrier of
/// `mbars` (a bool or an i1 scalar), the commit to that barrier happening
/// only where it is true.
SmallVector<Value> commitPredicates(Gen &g, const std::optional<Val> &v,
                                    size_t numBarriers,
                                    const std::string &fname, SourceLoc loc) {
  SmallVector<Value> preds;
  if (!v || v->isNone())
    return preds;
  std::vector<Val> elts = v->isTuple() ? v->elts : std::vector<Val>{*v};
  if (elts.size() != numBarriers)
    g.fail(loc, fname + ": mbarPreds has " + std::to_string(elts.size()) +
                    " predicate(s) for " + std::to_string(numBarriers) +
                    " mbarrier(s) in mbars");
  for (const Val &e : elts)
    preds.push_back(predicate(g, e, fname, loc));
  return preds;
}

/// tmem_copy(dst, src, mbars=None, pred=None): src, a shared [128, K]
/// tile, into dst, a tensor-memory buffer of its shape and dtype
/// (tcgen05.cp: one elected thread of the calling role issues it, e.g. to
/// keep an A operand in tensor memory). The copy is asynchronous: an MMA
/// the same role issues later reads the copied data (the tensor-core pipe
/// runs in order); other readers wait on `mbars`, each of which gets one
/// arrival when it is done.
Val tmemCopy(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = g.bind(args, {"dst", "src", "mbars", "pred"}, 2, fname, loc);
  const TValue &dst = expectSpace(g, p[0], Space::Tmem, fname, "dst", loc);
  const TValue &src = expectSpace(g, p[1], Space::Smem, fname, "src", loc);
  if (src.shape != dst.shape || src.dtype != dst.dtype || dst.shape[0] != 128)
    g.fail(loc, fname + ": src " + src.typeStr() + " and dst " + dst.typeStr() +
                    " must be one [128, K] shape and dtype (a row per "
                    "tensor-memory lane)");
  if (dst.shape[1] * dst.dtype.bitWidth() % 256)
    g.fail(loc, fname + ": rows of " + src.typeStr() +
                    " are not whole 32-byte copies (tcgen05.cp 128x256b)");
  Value pred = predicate(g, p[3], fname, loc);
  SmallVector<Value> bars = commitBarriers(g, p[2], fname, loc);
  int64_t leader = g.roleWarps.empty() ? 0 : g.roleWarps.front();
  tg::TMemCopyOp::create(g.b, g.cur, dst.value, src.value, pred, bars,
                         g.b.getI32IntegerAttr(int32_t(leader)));
  return Val::none();
}

/// The operand checks of a tcgen05 MMA, acc (+)= a @ b: acc a [128, N]
/// fp32 tensor-memory buffer, b a shared buffer, a a shared or
/// tensor-memory buffer of b's dtype, and shapes that split into MMAs.
void checkTCGen05Operands(Gen &g, const TValue &a, const TValue &bm,
                          const TValue &acc, bool pair,
                          const std::string &fname, SourceLoc loc) {
  // With two_ctas, b is this CTA's half of B's columns (the peer holds the
  // other half at the same offset) and acc gets all of them.
  int64_t bColumns = bm.shape.size() == 2 ? bm.shape[1] * (pair ? 2 : 1) : 0;
  if (a.shape.size() != 2 || bm.shape.size() != 2 ||
      a.shape[1] != bm.shape[0] || a.shape[0] != acc.shape[0] ||
      bColumns != acc.shape[1])
    g.fail(loc, fname + ": " + a.typeStr() + " @ " + bm.typeStr() +
                    " does not accumulate into " + acc.typeStr() +
                    (pair ? " (with two_ctas=True, b is this CTA's half "
                            "of B: [K, N / 2] for an acc of [128, N])"
                          : ""));
  if (pair && a.space == Space::Tmem)
    g.fail(loc, fname + ": with two_ctas=True, a must be a shared buffer "
                        "(this CTA's 128 rows of A)");
  if (acc.dtype.kind != DType::F32)
    g.fail(loc, fname + ": the accumulator must be fp32, got " + acc.typeStr());
  if (a.dtype != bm.dtype ||
      !(a.dtype.kind == DType::F16 || a.dtype.kind == DType::BF16 ||
        a.dtype.kind == DType::F32 || a.dtype.isFP8()))
    g.fail(loc, fname +
                    " needs two fp16, bf16, fp32 (tf32) or fp8 "
                    "operands of one type, got " +
                    a.typeStr() + " and " + bm.typeStr());
  if (a.space == Space::Tmem && a.dtype.isFP8())
    g.fail(loc, fname +
                    ": an A operand in tensor memory must be fp16, bf16 "
                    "or fp32, got " +
                    a.typeStr());
  int64_t kInstr = 256 / a.dtype.bitWidth();
  int64_t n = acc.shape[1];
  if (pair && n % 32)
    g.fail(loc, fname +
                    ": with two_ctas=True the MMA is M = 256 x N with N "
                    "a multiple of 32 (each CTA holds N / 2 columns of "
                    "B), got N = " +
                    std::to_string(n));
  // M = 64 (a [64, N] accumulator) takes N in steps of 8, M = 128 of 16.
  int64_t m = acc.shape[0], nStep = m == 64 ? 8 : 16;
  if (m == 64 && (pair || a.space == Space::Tmem))
    g.fail(loc, fname + ": an M = 64 MMA (acc " + acc.typeStr() +
                    ") takes a from shared memory and no two_ctas");
  if (n % nStep || (n > 256 && n % 256) || a.shape[1] % kInstr)
    g.fail(loc,
           fname + ": " + a.typeStr() + " @ " + bm.typeStr() +
               " does not split into tcgen05 MMAs of M = " + std::to_string(m) +
               ", N a multiple of " + std::to_string(nStep) +
               " (up to 256, or whole 256-column chunks) and K = " +
               std::to_string(kInstr));
}

/// The arguments of dotx by name. The TXL project's first dotx took one
/// completion barrier before useD, dotx(a, b, acc, mbar=None, useD=None,
/// pred=None), and its kernels written then pass it positionally: an
/// mbarrier in useD's place is that form (the barrier joins `mbars`).
std::vector<std::optional<Val>>
bindDotx(Gen &g, CallArgs args, const std::string &fname, SourceLoc loc) {
  std::optional<Val> legacyBar;
  if (args.pos.size() > 3 && args.pos[3].isTensor() &&
      args.pos[3].t.space == Space::Mbar) {
    legacyBar = args.pos[3];
    args.pos.erase(args.pos.begin() + 3);
    args.posLocs.erase(args.posLocs.begin() + 3);
  }
  for (auto it = args.kw.begin(); it != args.kw.end(); ++it)
    if (it->first == "mbar") {
      if (legacyBar)
        g.fail(loc, fname + ": the mbarrier is passed twice (positionally "
                            "and as mbar=)");
      legacyBar = it->second;
      args.kw.erase(it);
      break;
    }
  auto p = g.bind(
      args, {"a", "b", "acc", "useD", "pred", "mbars", "mbarPreds", "two_ctas"},
      3, fname, loc);
  if (legacyBar) {
    if (p[5] && !p[5]->isNone())
      g.fail(loc, fname + ": pass the completion mbarriers either as mbar "
                          "(the 4th argument) or as mbars, not both");
    expectSpace(g, legacyBar, Space::Mbar, fname, "mbar", loc);
    p[5] = legacyBar;
  }
  return p;
}

/// dotx(a, b, acc, useD=True, pred=None, mbars=None, mbarPreds=None): acc
/// (+)= a @ b by tcgen05.mma, issued by one thread of the calling role and
/// committed to `mbars` (each gets one arrival when the MMAs are done;
/// mbarPreds[i] false skips the commit to mbars[i]).
Val dotx(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  auto p = bindDotx(g, args, fname, loc);
  bool pair = twoCtas(g, p[7], fname, loc);
  if (!isSpace(p[0], Space::Smem) && !isSpace(p[0], Space::Tmem))
    g.fail(loc, fname + ": a must be a shared or tensor-memory buffer, got " +
                    describeArg(p[0]));
  const TValue &a = p[0]->t;
  const TValue &bm = expectSpace(g, p[1], Space::Smem, fname, "b", loc);
  const TValue &acc = expectSpace(g, p[2], Space::Tmem, fname, "acc", loc);
  checkTCGen05Operands(g, a, bm, acc, pair, fname, loc);
  Value useD;
  if (!p[3] || p[3]->isNone())
    useD = arith::ConstantIntOp::create(g.b, g.cur, 1, 1);
  else
    useD = g.toBool(g.toTensor(*p[3], loc), loc).value;
  Value pred = predicate(g, p[4], fname, loc);
  SmallVector<Value> bars = commitBarriers(g, p[5], fname, loc);
  SmallVector<Value> barPreds =
      commitPredicates(g, p[6], bars.size(), fname, loc);
  int64_t leader = g.roleWarps.empty() ? 0 : g.roleWarps.front();
  auto op = tg::TCGen05MMAOp::create(g.b, g.cur, a.value, bm.value, acc.value,
                                     useD, pred, bars, barPreds,
                                     g.b.getI32IntegerAttr(int32_t(leader)));
  op.setTwoCtas(pair);
  return Val::tensor(acc);
}

/// The threads that run a synchronous tensor-memory tl.dot where it is
/// called, all of which arrive on its barrier: one barrier group of the
/// CTA (the whole CTA of one warpgroup, a warpgroup's role, or the extra
/// warps of is_warp roles; Utility.cpp's barrier). The operands' stores
/// are published to the issuing thread by the barrier that group shares,
/// so other callers (a part of a group, a branch some threads skip) are
/// errors.
int64_t tensorMemoryDotThreads(Gen &g, const std::string &fname,
                               SourceLoc loc) {
  if (g.divergentDepth > 0)
    g.fail(loc, fname + " with a tensor-memory accumulator is synchronous "
                        "(every thread waits for the MMA): it cannot be "
                        "under an 'if' whose condition may differ between "
                        "threads; use txl.dotx with mbarriers there");
  int64_t groupWarps = g.opts.numWarps;
  std::vector<int64_t> warps = g.roleWarps;
  if (warps.empty())
    for (int64_t w = 0; w < g.tensorWarps() + g.extraWarps; ++w)
      warps.push_back(w);
  auto isRun = [&](int64_t first, int64_t count) {
    if (int64_t(warps.size()) != count)
      return false;
    for (int64_t i = 0; i < count; ++i)
      if (warps[i] != first + i)
        return false;
    return true;
  };
  for (int64_t group = 0; group < g.opts.numWarpgroups; ++group)
    if (isRun(group * groupWarps, groupWarps))
      return groupWarps * kThreadsPerWarp;
  if (g.extraWarps && isRun(g.tensorWarps(), g.extraWarps))
    return g.extraWarps * kThreadsPerWarp;
  g.fail(
      loc, fname +
               " with a tensor-memory accumulator is synchronous: "
               "all threads of one barrier group must call it (the "
               "CTA, one warpgroup's role, or the extra warps of "
               "is_warp roles), got warps " +
               [&] {
                 std::string s;
                 for (int64_t w : warps)
                   s += (s.empty() ? "" : ", ") + std::to_string(w);
                 return s;
               }() +
               "; elsewhere use txl.dotx with mbarriers");
}

/// The kernel's entry block, where per-site barriers are allocated and
/// initialized once.
OpBuilder entryBuilder(Gen &g) {
  Operation *op = g.b.getInsertionBlock()->getParentOp();
  auto func = isa<func::FuncOp>(op) ? cast<func::FuncOp>(op)
                                    : op->getParentOfType<func::FuncOp>();
  return OpBuilder::atBlockBegin(&func.front());
}

} // namespace

/// tl.dot(a, b, acc) on shared buffers with a tensor-memory accumulator
/// (sm_100a), as the TXL project's Blackwell kernels write it: acc += a @
/// b, synchronously. The calling threads' earlier writes (the accumulator's
/// tcgen05.st, shared stores) are published by a barrier, one elected
/// thread issues the MMAs and commits them to a barrier of this call site
/// (initialized at entry to the calling threads + 1), and every thread
/// arrives and waits on its own arrival's phase, which only the commit
/// completes (kSyncCommitAttr) - so when it returns the accumulator holds
/// the product and the operand buffers may be overwritten. The result is
/// acc itself.
void Gen::markIssuer(Operation *op) {
  if (warpRoleIssuer >= 0)
    op->setAttr(tg::kIssuerWarpAttr,
                b.getI32IntegerAttr(int32_t(warpRoleIssuer)));
}

void Gen::markScalarPerformer(Operation *op) {
  // Outside roles (or in one that warp 0 runs) thread 0 performs it.
  if (!roleWarps.empty() && roleWarps.front() > 0)
    op->setAttr(tg::kIssuerWarpAttr,
                b.getI32IntegerAttr(int32_t(roleWarps.front())));
}

Val Gen::tensorMemoryDot(const TValue &a, const TValue &bm, const TValue &acc,
                         SourceLoc loc) {
  const std::string fname = "tl.dot";
  checkTCGen05Operands(*this, a, bm, acc, /*pair=*/false, fname, loc);
  int64_t threads = tensorMemoryDotThreads(*this, fname, loc);
  OpBuilder entry = entryBuilder(*this);
  Type bars =
      memdesc(*this, {1}, DType::I64, tg::BarrierEncodingAttr::get(&ctx));
  auto alloc = tg::MBarAllocOp::create(entry, cur, bars, uint32_t(threads + 1));
  Value zero = arith::ConstantIntOp::create(entry, cur, 0, 32);
  Value bar = tg::MemDescIndexOp::create(entry, cur, bars, alloc, zero);
  auto publish = tg::BarrierOp::create(b, cur);
  publish->setAttr(tg::TXLGPUDialect::kFenceAsyncProxyAttr, b.getUnitAttr());
  Value useD = arith::ConstantIntOp::create(b, cur, 1, 1);
  int64_t leader = roleWarps.empty() ? 0 : roleWarps.front();
  auto mma = tg::TCGen05MMAOp::create(
      b, cur, a.value, bm.value, acc.value, useD, Value(), ValueRange{bar},
      ValueRange{}, b.getI32IntegerAttr(int32_t(leader)));
  mma->setAttr(tg::kSyncCommitAttr, b.getUnitAttr());
  return Val::tensor(acc);
}

namespace {

/// The 16-byte shared buffer a cluster-launch-control response lands in.
const TValue &clcResponse(Gen &g, const std::optional<Val> &v,
                          const std::string &fname, SourceLoc loc) {
  const TValue &buf =
      expectSpace(g, v, Space::Smem, fname, "the response", loc);
  if (numel(buf.shape) * elemBytes(buf.dtype) != 16 || buf.dtype.bitWidth() < 8)
    g.fail(loc, fname +
                    ": the response buffer must be 16 bytes (e.g. "
                    "txl.smem_alloc([4], dtype=tl.int32)), got " +
                    buf.typeStr());
  return buf;
}

void requireClusterLaunchControl(Gen &g, const std::string &fname,
                                 SourceLoc loc) {
  if (g.smVersion() < 100)
    g.fail(loc, fname +
                    " needs cluster launch control (sm_100 or later), "
                    "but the target is " +
                    g.opts.target);
}

/// clc_try_cancel(response, mbar): one thread asks to take over a program
/// not yet launched; the response and 16 transaction bytes land on every
/// CTA of the cluster (each expects them on its own `mbar`).
Val clcTryCancel(Gen &g, CallArgs &args, const std::string &fname,
                 SourceLoc loc) {
  requireClusterLaunchControl(g, fname, loc);
  auto p = g.bind(args, {"response", "mbar"}, 2, fname, loc);
  const TValue &buf = clcResponse(g, p[0], fname, loc);
  const TValue &bar = expectSpace(g, p[1], Space::Mbar, fname, "mbar", loc);
  int64_t leader = g.roleWarps.empty() ? 0 : g.roleWarps.front();
  tg::ClcTryCancelOp::create(g.b, g.cur, buf.value, bar.value,
                             g.b.getI32IntegerAttr(int32_t(leader)));
  return Val::none();
}

/// clc_query(response): the program id (along axis 0) a successful
/// try_cancel handed over, or -1.
Val clcQuery(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  requireClusterLaunchControl(g, fname, loc);
  auto p = g.bind(args, {"response"}, 1, fname, loc);
  const TValue &buf = clcResponse(g, p[0], fname, loc);
  auto op = tg::ClcQueryOp::create(g.b, g.cur, g.b.getI32Type(), buf.value);
  return Val::tensor({op.getResult(), DType::I32, {}});
}

int64_t pendingCount(Gen &g, CallArgs &args, const std::string &fname,
                     SourceLoc loc) {
  auto p = g.bind(args, {"pendings"}, 1, fname, loc);
  int64_t n = g.constInt(p[0], "the pending count", loc);
  if (n < 0 || n > 7)
    g.fail(loc, fname + ": the pending count must be in [0, 7], got " +
                    std::to_string(n));
  return n;
}

void collectInFlight(const Val &v, std::vector<Value> &out) {
  if (v.isTensor()) {
    if (v.t.isReg() && v.t.isTensor() && Gen::mayBeInFlight(v.t.value) &&
        llvm::find(out, v.t.value) == out.end())
      out.push_back(v.t.value);
    return;
  }
  for (const Val &e : v.elts)
    collectInFlight(e, out);
}

void rebind(Val &v, const llvm::DenseMap<Value, Value> &map) {
  if (v.isTensor()) {
    if (auto it = map.find(v.t.value); it != map.end())
      v.t.value = it->second;
    return;
  }
  for (Val &e : v.elts)
    rebind(e, map);
}

/// dot_wait(n): every accumulator a pending wgmma may still write is passed
/// through the wait, and the variables holding it now hold the wait's
/// result, so no read of it can be scheduled before the wait.
Val dotWait(Gen &g, CallArgs &args, const std::string &fname, SourceLoc loc) {
  int64_t n = pendingCount(g, args, fname, loc);
  std::vector<Value> inFlight;
  for (auto &[name, v] : *g.locals)
    collectInFlight(v, inFlight);
  auto wait = tg::WarpGroupDotWaitOp::create(
      g.b, g.cur, ValueRange(inFlight).getTypes(), inFlight,
      g.b.getI32IntegerAttr(int32_t(n)));
  llvm::DenseMap<Value, Value> map;
  for (auto [from, to] : llvm::zip(inFlight, wait.getResults()))
    map[from] = to;
  for (auto &[name, v] : *g.locals)
    rebind(v, map);
  return Val::none();
}

} // namespace

/// Whether `v` may still be written by an in-flight wgmma: a dot result, or
/// a loop/if result that carries one out.
bool Gen::mayBeInFlight(Value v, int depth) {
  if (depth > 16)
    return false;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<tg::WarpGroupDotOp>(def))
    return true;
  if (auto wait = dyn_cast<tg::WarpGroupDotWaitOp>(def))
    return wait.getPendings() > 0;
  unsigned idx = llvm::cast<OpResult>(v).getResultNumber();
  for (Region &region : def->getRegions())
    for (Block &block : region)
      if (Operation *term = block.getTerminator())
        if (isa<scf::YieldOp>(term) && idx < term->getNumOperands() &&
            mayBeInFlight(term->getOperand(idx), depth + 1))
          return true;
  return false;
}

Val Gen::asyncDot(const TValue &a, const TValue &bm,
                  const std::optional<Val> &acc, SourceLoc loc) {
  if (!a.isReg() && a.space != Space::Smem)
    fail(loc, "tl.dot: input must be a tensor or a shared buffer, got a " +
                  a.typeStr());
  if (bm.space != Space::Smem)
    fail(loc, "tl.dot: with a shared-memory operand, other must be a shared "
              "buffer (wgmma reads B from shared memory), got " +
                  bm.typeStr());
  if (::txl::targetHasTcgen05(opts.target)) {
    if (!acc || !acc->isTensor() || acc->t.space != Space::Tmem)
      fail(loc, "tl.dot on shared buffers on " + opts.target +
                    " is a tcgen05 MMA: acc must be a tensor-memory buffer "
                    "(txl.get_buffer of txl.tmem_alloc), got " +
                    describeArg(acc) +
                    " (wgmma's form, accumulating in registers, needs "
                    "sm_90a)");
    if (a.isReg())
      fail(loc, "tl.dot on shared buffers on " + opts.target +
                    " is a tcgen05 MMA: input must be a shared buffer (A in "
                    "registers is wgmma's form), got a " +
                    a.typeStr());
    return tensorMemoryDot(a, bm, acc->t, loc);
  }
  requireHopper(loc, "tl.dot on shared buffers", /*wgmma=*/true);
  if (a.isReg() && !a.isTensor())
    fail(loc,
         "tl.dot: A must be a tensor or a shared buffer, got " + a.typeStr());
  // wgmma's register-A forms: 16-bit (k16) and fp8 (k32, B K-major).
  bool regAType = a.dtype.kind == DType::F16 || a.dtype.kind == DType::BF16 ||
                  a.dtype.isFP8();
  if (a.isReg() && a.dtype != bm.dtype && regAType)
    fail(loc, "tl.dot: A in registers has type " + a.typeStr() + " but B is " +
                  bm.typeStr() + "; cast A with .to(" + bm.typeStr() +
                  "'s dtype)");
  if (a.isReg() && !regAType)
    fail(loc, "tl.dot: an A operand in registers must be fp16, bf16 or fp8 "
              "(wgmma), got " +
                  a.typeStr() +
                  "; txl.smem_store it into a buffer for other types");
  if (a.shape.size() != 2 || bm.shape.size() != 2 || a.shape[1] != bm.shape[0])
    fail(loc, "tl.dot: " + a.typeStr() + " @ " + bm.typeStr() +
                  " is not a matrix product");
  if (a.dtype != bm.dtype ||
      !(a.dtype.kind == DType::F16 || a.dtype.kind == DType::BF16 ||
        a.dtype.kind == DType::F32 || a.dtype.isFP8()))
    fail(loc, "tl.dot on shared buffers needs two fp16, bf16, fp32 (tf32) or "
              "fp8 operands of one type, got " +
                  a.typeStr() + " and " + bm.typeStr());
  if (a.shape[0] % 64 || bm.shape[1] % 8 || bm.shape[1] > 256)
    fail(loc, "tl.dot on shared buffers is one warpgroup's wgmma: M must be "
              "a multiple of 64 and N a multiple of 8 up to 256, got " +
                  a.typeStr() + " @ " + bm.typeStr());
  std::vector<int64_t> shape = {a.shape[0], bm.shape[1]};
  TValue c;
  if (!acc || acc->isNone()) {
    c = constant(DType::F32, Val::floating(0.0), shape);
  } else {
    if (!acc->isTensor() || !acc->t.isReg() || acc->t.shape != shape ||
        acc->t.dtype.kind != DType::F32)
      fail(loc, "tl.dot: acc must be an fp32 [" + std::to_string(shape[0]) +
                    ", " + std::to_string(shape[1]) + "] tensor, got " +
                    describeArg(acc));
    c = acc->t;
  }
  auto op = tg::WarpGroupDotOp::create(b, cur, c.value.getType(), a.value,
                                       bm.value, c.value);
  return Val::tensor({op.getResult(), DType::F32, shape});
}

Val Gen::bufferAttr(const Val &obj, const std::string &attr, SourceLoc loc) {
  // dtype and shape are answered by getAttr for every runtime value.
  const TValue &t = obj.t;
  if (attr == "T" && t.space == Space::Smem)
    return smemTrans(*this, t, {}, "txl.smem_trans", loc);
  if ((attr == "load" || attr == "store") && t.space == Space::Desc)
    return Val::method("txl.desc_" + attr, obj);
  if (attr == "block_shape" && t.space == Space::Desc) {
    std::vector<Val> dims;
    for (int64_t d : t.shape)
      dims.push_back(Val::integer(d));
    return Val::tuple(std::move(dims));
  }
  if (attr == "to" && t.space == Space::Smem)
    return Val::method("txl.buffer_to", obj);
  fail(loc, "a " + t.typeStr() + " has no attribute '" + attr + "'");
}

Val Gen::callTxlMemory(const std::string &name, CallArgs &args, SourceLoc loc) {
  // mbarrier transactions and parity waits, TMA and the async proxy are
  // Hopper features (the registry checks the target); plain shared buffers
  // work everywhere.
  std::string op = name.substr(name.find('.') + 1);
  if (op == "dot_wait")
    requireHopper(loc, name, /*wgmma=*/true);
  if (op == "smem_alloc")
    return smemAlloc(*this, args, name, loc);
  if (op == "tmem_alloc" || op == "tmem_load" || op == "tmem_store" ||
      op == "tmem_slice" || op == "tmem_copy" || op == "dotx" ||
      op == "tcgen05_fence_before" ||
      op == "tcgen05_fence_after") { // the registry checked the target
    if (op == "tmem_copy")
      return tmemCopy(*this, args, name, loc);
    if (op == "tmem_alloc")
      return tmemAlloc(*this, args, name, loc);
    if (op == "tmem_load")
      return tmemLoad(*this, args, name, loc);
    if (op == "tmem_store")
      return tmemStore(*this, args, name, loc);
    if (op == "tmem_slice")
      return tmemSlice(*this, args, name, loc);
    if (op == "dotx")
      return dotx(*this, args, name, loc);
    bind(args, {}, 0, name, loc);
    auto fence = tg::TCGen05FenceOp::create(b, cur);
    fence.setAfter(op == "tcgen05_fence_after");
    return Val::none();
  }
  if (op == "mbar_alloc")
    return mbarAlloc(*this, args, name, loc);
  if (op == "clc_try_cancel")
    return clcTryCancel(*this, args, name, loc);
  if (op == "clc_query")
    return clcQuery(*this, args, name, loc);
  if (op == "get_buffer")
    return getBuffer(*this, args, name, loc);
  if (op == "smem_index")
    return smemIndex(*this, args, name, loc);
  if (op == "smem_slice")
    return smemSlice(*this, args, name, loc);
  if (op == "smem_reshape")
    return smemReshape(*this, args, name, loc);
  if (op == "tma_gather")
    return tmaGather(*this, args, name, loc);
  if (op == "smem_trans") {
    auto p = bind(args, {"buf", "order"}, 1, name, loc);
    const TValue &buf = expectSpace(*this, p[0], Space::Smem, name, "buf", loc);
    std::vector<int32_t> perm;
    if (p[1] && !p[1]->isNone())
      for (int64_t d : constShape(*p[1], loc))
        perm.push_back(int32_t(d));
    return smemTrans(*this, buf, perm, name, loc);
  }
  if (op == "smem_load")
    return smemLoad(*this, args, name, loc);
  if (op == "smem_store")
    return smemStore(*this, args, name, loc);
  if (op == "mbar_expect")
    return mbarExpect(*this, args, name, loc);
  if (op == "mbar_wait")
    return mbarWait(*this, args, name, loc);
  if (op == "prefetch_l2")
    return prefetchL2(*this, args, name, loc);
  if (op == "mbar_arrive")
    return mbarArrive(*this, args, name, loc);
  if (op == "tma_load")
    return tmaLoad(*this, args, name, loc);
  if (op == "tma_store")
    return tmaStore(*this, args, name, loc);
  if (op == "make_tensor_descriptor")
    return makeTensorDescriptor(*this, args, "tl.make_tensor_descriptor", loc);
  if (op == "desc_load" || op == "desc_store") {
    // Users write desc.load(...) / desc.store(...): name them so.
    return op == "desc_load" ? descLoad(*this, args, "desc.load", loc)
                             : descStore(*this, args, "desc.store", loc);
  }
  if (op == "tma_store_wait") {
    int64_t n = pendingCount(*this, args, name, loc);
    tg::TMAStoreWaitOp::create(b, cur, int32_t(n));
    return Val::none();
  }
  if (op == "dot_wait")
    return dotWait(*this, args, name, loc);
  if (op == "async_load")
    return asyncLoad(*this, args, name, loc);
  if (op == "async_load_wait") {
    int64_t n = pendingCount(*this, args, name, loc);
    tg::AsyncWaitOp::create(b, cur, int32_t(n));
    return Val::none();
  }
  fail(loc, "'" + name + "' is not supported");
}

Val handlers::txlMemory(Gen &g, const std::string &name, CallArgs &args,
                        SourceLoc loc) {
  return g.callTxlMemory(name, args, loc);
}

std::string tmaBlockProblem(const std::vector<int64_t> &block,
                            const DType &dtype, const std::string &what) {
  if (block.empty() || block.size() > 5)
    return "tensor descriptors have rank 1 to 5 (TMA's limit), got " + what;
  int64_t elem = std::max(1, dtype.bitWidth() / 8);
  int64_t rowBytes = block.back() * elem;
  // Triton's wording leads (its tests match it); then what is wrong here.
  if (rowBytes < 16)
    return "Descriptor block shape must have at least 16 bytes in the last "
           "dimension: the innermost dimension of " +
           what + " spans " + std::to_string(rowBytes) +
           " bytes (a TMA box row spans a multiple of 16 bytes)";
  unsigned bits = unsigned(elem * 8);
  std::optional<tg::TMABoxes> boxes =
      tg::getTMABoxes(block, bits, tg::getTMASwizzleBytes(block, bits));
  if (!boxes)
    return "TMA cannot move " + what +
           ": block dimensions must be powers of two";
  if (boxes->copies.empty())
    return what + " would be " + std::to_string(boxes->numCopies) +
           " TMA boxes (at most 256 elements per dimension, rows one "
           "swizzle span wide); at most " +
           std::to_string(tg::TMABoxes::kMaxCopies) +
           " are supported, use a smaller block";
  return "";
}

} // namespace txl::irgen
