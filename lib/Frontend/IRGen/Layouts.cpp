//===- Layouts.cpp - txl layout classes, relayout, print_layout -----------===//
//
// txl.BlockedLayout, SliceLayout, NVMMADistributedLayout and
// DotOperandLayout are compile-time values: tagged tuples (s = "layout")
// holding the kind and its parameters, turned into the txlgpu encoding
// attribute they name where they are used.
//
//  * relayout(x, shape, layout): x reshaped to `shape` and converted to
//    `layout`: a txlgpu.convert_layout in the tile IR carrying the layout
//    as an attribute, which AssignLayouts gives its result; values are
//    unchanged, so later passes may still move or drop the conversion.
//  * frag_smem_load(buf, shape, layout, other, pred) / frag_smem_store(buf,
//    value, layout, pred, predStr): shared-memory I/O of a tensor in an
//    explicit layout. A predicate (scalar or per element) selects `other`
//    (default 0) where it is false on a load. On a store a per-element
//    predicate keeps the buffer's old elements where it is false (read,
//    select, write: the buffer's other writers must be synchronized as for
//    smem_store); a scalar one, which may differ between threads (TXL's
//    `tid % 8 == 0`), says which threads write. predStr="slice:D" stores a
//    value broadcast along D into a buffer without that dimension.
//  * print_layout(shape, dtype, layout): prints, while compiling, which
//    thread and register hold each element of a tensor of that shape in
//    that layout (one line per row of a 2-D tensor, `T<thread>:<reg>` per
//    element, `|` between copies).
//
//===----------------------------------------------------------------------===//
#include "Gen.h"
#include "Registry.h"

#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/IR/LayoutUtils.h"

#include <iostream>
#include <map>
#include <sstream>

using namespace mlir;
namespace tg = mlir::txlgpu;

namespace txl::irgen {

namespace {

bool isLayout(const std::optional<Val> &v) {
  return v && v->isTuple() && v->s == "layout" && !v->elts.empty();
}

Val layoutVal(const std::string &kind, std::vector<Val> params) {
  params.insert(params.begin(), Val::str(kind));
  Val v = Val::tuple(std::move(params));
  v.s = "layout";
  return v;
}

SmallVector<unsigned> unsignedList(Gen &g, const std::optional<Val> &v,
                                   const std::string &what,
                                   const std::string &fname, SourceLoc loc) {
  if (!v)
    g.fail(loc, fname + ": missing " + what);
  SmallVector<unsigned> out;
  for (int64_t d : g.constShape(*v, loc)) {
    if (d < 0)
      g.fail(loc, fname + ": " + what + " must not be negative");
    out.push_back(unsigned(d));
  }
  return out;
}

} // namespace

namespace {

bool allPowersOfTwo(ArrayRef<unsigned> v) {
  return llvm::all_of(v, [](unsigned x) { return llvm::isPowerOf2_32(x); });
}

unsigned product(ArrayRef<unsigned> v) {
  unsigned n = 1;
  for (unsigned x : v)
    n *= x;
  return n;
}

bool isPermutation(ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned d : order) {
    if (d >= order.size() || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

} // namespace

/// The rank a layout value describes; a located error where its parameters
/// are inconsistent (the layout constructors behind the compiler assume
/// well-formed layouts, so user layouts are checked here first).
unsigned Gen::checkLayout(const Val &layout, SourceLoc loc) {
  const std::string kind = layout.elts[0].s;
  const std::vector<Val> &p = layout.elts;
  std::string what = "txl layout (" + kind + "): ";
  if (kind == "blocked") {
    auto spt = unsignedList(*this, p[1], "size_per_thread", kind, loc);
    auto tpw = unsignedList(*this, p[2], "threads_per_warp", kind, loc);
    auto wpc = unsignedList(*this, p[3], "warps_per_cta", kind, loc);
    auto order = unsignedList(*this, p[4], "order", kind, loc);
    if (spt.empty() || tpw.size() != spt.size() || wpc.size() != spt.size() ||
        order.size() != spt.size())
      fail(loc, what + "size_per_thread, threads_per_warp, warps_per_cta and "
                       "order must have one entry per dimension");
    if (!allPowersOfTwo(spt) || !allPowersOfTwo(tpw) || !allPowersOfTwo(wpc))
      fail(loc, what + "sizes must be powers of two");
    if (product(tpw) != 32)
      fail(loc, what + "threads_per_warp must multiply to 32, got " +
                    std::to_string(product(tpw)) +
                    (product(tpw) < 32
                         ? " (layouts that replicate elements across the "
                           "lanes of a warp are not supported yet)"
                         : ""));
    if (!isPermutation(order))
      fail(loc, what + "order must be a permutation of the dimensions");
    return spt.size();
  }
  if (kind == "slice") {
    unsigned parentRank = checkLayout(p[2], loc);
    if (p[1].asInt() < 0 || p[1].asInt() >= int64_t(parentRank) ||
        parentRank < 2)
      fail(loc, what + "dim " + std::to_string(p[1].asInt()) +
                    " is not a dimension of a rank-" +
                    std::to_string(parentRank) + " parent of rank >= 2");
    return parentRank - 1;
  }
  if (kind == "nvmma") {
    auto wpc = unsignedList(*this, p[2], "warps_per_cta", kind, loc);
    auto instr = unsignedList(*this, p[3], "instr_shape", kind, loc);
    size_t instrRank = p[1].asInt() == 2 ? 2 : 3;
    if (wpc.size() != 2 || instr.size() != instrRank || !allPowersOfTwo(wpc) ||
        !allPowersOfTwo(instr))
      fail(loc, what +
                    "needs warps_per_cta of 2 powers of two and an "
                    "instr_shape of " +
                    std::to_string(instrRank) + " (version " +
                    std::to_string(p[1].asInt()) + ")");
    return 2;
  }
  // dot_op
  if (!isLayout(p[2]) || p[2].elts[0].s != "nvmma")
    fail(loc, what + "the parent must be an NVMMADistributedLayout");
  checkLayout(p[2], loc);
  if (p[3].asInt() < 1 || !llvm::isPowerOf2_64(uint64_t(p[3].asInt())))
    fail(loc, what + "k_width must be a power of two");
  return 2;
}

/// The encoding `layout` names (checked by checkLayout first).
Attribute Gen::layoutAttr(const Val &layout, SourceLoc loc) {
  const std::string kind = layout.elts[0].s;
  const std::vector<Val> &p = layout.elts;
  if (kind == "blocked")
    return tg::BlockedEncodingAttr::get(
        &ctx, unsignedList(*this, p[1], "size_per_thread", kind, loc),
        unsignedList(*this, p[2], "threads_per_warp", kind, loc),
        unsignedList(*this, p[3], "warps_per_cta", kind, loc),
        unsignedList(*this, p[4], "order", kind, loc));
  if (kind == "slice")
    return tg::SliceEncodingAttr::get(&ctx, unsigned(p[1].asInt()),
                                      layoutAttr(p[2], loc));
  if (kind == "nvmma")
    return tg::NvidiaMmaEncodingAttr::get(
        &ctx, unsigned(p[1].asInt()),
        unsignedList(*this, p[2], "warps_per_cta", kind, loc),
        unsignedList(*this, p[3], "instr_shape", kind, loc));
  return tg::DotOperandEncodingAttr::get(&ctx, unsigned(p[1].asInt()),
                                         layoutAttr(p[2], loc),
                                         unsigned(p[3].asInt()));
}

namespace {

/// A tensor type of `shape` and `dtype` in `enc`, with its register /
/// lane / warp map; a located error when the layout cannot hold it.
tg::LayoutMap layoutMapOf(Gen &g, const std::vector<int64_t> &shape,
                          DType dtype, const Val &layout,
                          const std::string &fname, SourceLoc loc) {
  if (g.checkLayout(layout, loc) != shape.size())
    g.fail(loc, fname + ": the layout does not describe a tensor of " +
                    TValue{Value(), dtype, shape}.typeStr());
  Attribute enc = g.layoutAttr(layout, loc);
  auto type = RankedTensorType::get(shape, g.mlirType(dtype), enc);
  std::optional<tg::LayoutMap> map = tg::getLayoutMap(type);
  if (!map)
    g.fail(loc, fname + ": the layout does not describe a tensor of " +
                    TValue{Value(), dtype, shape}.typeStr());
  int warps = int(g.opts.numWarps); // tensors live in one warpgroup
  if ((int64_t(1) << map->warpBases.size()) != warps)
    g.fail(loc, fname + ": the layout spreads over " +
                    std::to_string(int64_t(1) << map->warpBases.size()) +
                    " warps but the kernel runs " + std::to_string(warps));
  return *map;
}

std::string holders(const tg::LayoutMap &map, const tg::Coord &at,
                    const std::map<std::vector<int64_t>,
                                   std::vector<std::string>> &where) {
  auto it = where.find(std::vector<int64_t>(at.begin(), at.end()));
  if (it == where.end())
    return "-";
  std::string cell;
  for (const std::string &h : it->second)
    cell += (cell.empty() ? "" : "|") + h;
  return cell;
}

/// One line per row (a 1-D tensor is one row; higher ranks print each
/// leading index in turn).
std::string renderLayout(const tg::LayoutMap &map) {
  std::map<std::vector<int64_t>, std::vector<std::string>> where;
  int threads = 32;
  for (int w = 0; w < (1 << map.warpBases.size()); ++w)
    for (int l = 0; l < (1 << map.laneBases.size()); ++l)
      for (int r = 0; r < map.numRegs(); ++r) {
        tg::Coord c = map.regCoord(r), lc = map.laneCoord(l),
                  wc = map.warpCoord(w);
        std::vector<int64_t> key;
        for (int d = 0; d < map.rank(); ++d)
          key.push_back(c[d] ^ lc[d] ^ wc[d]);
        where[key].push_back("T" + std::to_string(w * threads + l) + ":" +
                             std::to_string(r));
      }
  std::ostringstream os;
  int64_t cols = map.shape.back();
  int64_t rows = 1;
  for (int d = 0; d + 1 < map.rank(); ++d)
    rows *= map.shape[d];
  for (int64_t row = 0; row < rows; ++row) {
    tg::Coord at(map.rank(), 0);
    int64_t rest = row;
    for (int d = map.rank() - 2; d >= 0; --d) {
      at[d] = rest % map.shape[d];
      rest /= map.shape[d];
    }
    for (int64_t col = 0; col < cols; ++col) {
      at[map.rank() - 1] = col;
      os << (col ? " " : "") << holders(map, at, where);
    }
    os << "\n";
  }
  return os.str();
}

} // namespace

/// Triton's CGA parameters (ctas_per_cga, cta_split_num, cta_order; bound
/// at indices 4-6) are accepted when the layout stays in one CTA (every
/// split 1: each CTA of a cluster holds the whole tensor); splitting a
/// tensor across the CTAs of a cluster is not supported yet.
static void checkOneCtaLayout(Gen &g, std::vector<std::optional<Val>> &p,
                              const std::string &name, SourceLoc loc) {
  for (size_t k : {size_t(4), size_t(5)}) {
    if (!p[k])
      continue;
    std::vector<int64_t> dims = g.constShape(*p[k], loc);
    for (int64_t d : dims)
      if (d != 1)
        g.fail(loc, name + ": " + (k == 4 ? "ctas_per_cga" : "cta_split_num") +
                        "=" + shapeStr(dims) +
                        " splits the tensor across the CTAs of a cluster, "
                        "which txl layouts do not support yet (each CTA "
                        "holds the whole tensor: use 1s)");
  }
  if (p[6])
    g.constShape(*p[6], loc); // an order of the CTAs: nothing to check
}

Val Gen::callTxlLayout(const std::string &name, CallArgs &args,
                       SourceLoc loc) {
  std::string op = name.substr(4);
  if (op == "BlockedLayout") {
    auto p = bind(args,
                  {"size_per_thread", "threads_per_warp", "warps_per_cta",
                   "order", "ctas_per_cga", "cta_split_num", "cta_order"},
                  4, name, loc);
    checkOneCtaLayout(*this, p, name, loc);
    return layoutVal("blocked", {*p[0], *p[1], *p[2], *p[3]});
  }
  if (op == "SliceLayout") {
    auto p = bind(args, {"dim", "parent"}, 2, name, loc);
    if (!isLayout(p[1]))
      fail(loc, name + ": parent must be a txl layout");
    return layoutVal("slice",
                     {Val::integer(constInt(p[0], "dim", loc)), *p[1]});
  }
  if (op == "NVMMADistributedLayout") {
    auto p = bind(args, {"version", "warps_per_cta", "instr_shape"}, 3, name,
                  loc);
    // Triton spells the version [major, minor].
    int64_t version = p[0]->isTuple() ? constShape(*p[0], loc).at(0)
                                      : constInt(p[0], "version", loc);
    if (version != 2 && version != 3)
      fail(loc, name + ": version must be 2 (mma.sync) or 3 (wgmma), got " +
                    std::to_string(version));
    return layoutVal("nvmma", {Val::integer(version), *p[1], *p[2]});
  }
  if (op == "DotOperandLayout") {
    auto p = bind(args, {"operand_index", "parent", "k_width"}, 3, name, loc);
    int64_t idx = constInt(p[0], "operand_index", loc);
    if ((idx != 0 && idx != 1) || !isLayout(p[1]))
      fail(loc, name + ": needs operand_index 0 or 1 and a parent layout");
    return layoutVal("dot_op", {Val::integer(idx), *p[1],
                                Val::integer(constInt(p[2], "k_width", loc))});
  }
  if (op == "print_layout") {
    auto p = bind(args, {"shape", "dtype", "layout"}, 3, name, loc);
    if (!isLayout(p[2]))
      fail(loc, name + ": layout must be a txl layout");
    std::vector<int64_t> shape = constShape(*p[0], loc);
    validateShape(shape, loc);
    DType dtype = constDType(p[1], "dtype", loc);
    tg::LayoutMap map = layoutMapOf(*this, shape, dtype, *p[2], name, loc);
    std::cerr << renderLayout(map);
    return Val::none();
  }
  if (op == "frag_smem_load" || op == "frag_smem_store")
    return fragmentIO(op == "frag_smem_load", args, name, loc);
  auto p = bind(args, {"x", "shape", "layout"}, 3, name, loc);
  TValue x = tensorArg(p[0], "x", loc);
  return Val::tensor(relayout(x, constShape(*p[1], loc), p[2], name, loc));
}

/// `x` reshaped to `shape` in the layout `layout` names.
TValue Gen::relayout(TValue x, const std::vector<int64_t> &shape,
                     const std::optional<Val> &layout, const std::string &fname,
                     SourceLoc loc) {
  if (!isLayout(layout))
    fail(loc, fname + ": layout must be a txl layout");
  if (shape != x.shape)
    x = reshape(x, shape, /*canReorder=*/false, loc);
  layoutMapOf(*this, shape, x.dtype, *layout, fname, loc);
  Attribute enc = layoutAttr(*layout, loc);
  // The tile IR carries no encodings: the chosen one rides on the op until
  // AssignLayouts gives it to the result.
  auto cvt = tg::ConvertLayoutOp::create(b, cur, x.value.getType(), x.value);
  cvt->setAttr(tg::TXLGPUDialect::kPinnedLayoutAttr, enc);
  return TValue{cvt.getResult(), x.dtype, shape};
}

/// where(pred, a, b) through tl.where (broadcasting, casts).
TValue Gen::select(const Val &pred, const TValue &a, const Val &other,
                   SourceLoc loc) {
  CallArgs where;
  where.pos = {pred, Val::tensor(a), other};
  where.posLocs = {loc, loc, loc};
  where.loc = loc;
  return callBuiltin("tl.where", where, loc).t;
}

Val Gen::fragmentIO(bool load, CallArgs &args, const std::string &fname,
                    SourceLoc loc) {
  auto p = load ? bind(args, {"buf", "shape", "layout", "other", "pred"}, 3,
                       fname, loc)
                : bind(args, {"buf", "value", "layout", "pred", "predStr"}, 3,
                       fname, loc);
  if (!p[0] || !p[0]->isTensor() || p[0]->t.space != TValue::Space::Smem)
    fail(loc, fname + ": buf must be one shared buffer (txl.get_buffer)");
  const TValue buf = p[0]->t;
  if (!isLayout(p[2]))
    fail(loc, fname + ": layout must be a txl layout");
  layoutMapOf(*this, buf.shape, buf.dtype, *p[2], fname, loc);
  Attribute enc = layoutAttr(*p[2], loc);
  // The access itself happens in the layout (AssignLayouts reads the
  // attribute), whatever the clean-ups do with the values afterwards.
  auto readBuffer = [&](Attribute pinned) {
    auto read = tg::SmemLoadOp::create(b, cur, mlirType(buf.dtype, buf.shape),
                                       buf.value);
    if (pinned)
      read->setAttr(tg::TXLGPUDialect::kPinnedLayoutAttr, pinned);
    return TValue{read.getResult(), buf.dtype, buf.shape};
  };
  const std::optional<Val> &pred = load ? p[4] : p[3];
  bool predicated = pred && !pred->isNone();
  if (load) {
    std::vector<int64_t> shape = constShape(*p[1], loc);
    TValue x = readBuffer(enc);
    if (shape != buf.shape)
      x = relayout(x, shape, p[2], fname, loc);
    if (predicated)
      x = select(*pred, x, p[3] ? *p[3] : Val::integer(0), loc);
    return Val::tensor(x);
  }
  TValue v = tensorArg(p[1], "value", loc);
  if (!v.isTensor())
    v = splat(v, buf.shape);
  if (p[4] && !p[4]->isNone())
    v = squeezeBroadcast(v, *p[4], buf, fname, loc);
  if (v.numel() != buf.numel())
    fail(loc,
         fname + ": value " + v.typeStr() + " does not fit " + buf.typeStr());
  if (v.dtype != buf.dtype)
    v = cast(v, buf.dtype, loc);
  if (v.shape != buf.shape)
    v = reshape(v, buf.shape, /*canReorder=*/false, loc);
  // A scalar predicate says which threads write (TXL's lane selection:
  // with a layout that gives an element to several threads, the one whose
  // predicate holds writes it); a tensor predicate keeps the buffer's old
  // elements where it is false.
  Value guard;
  if (predicated) {
    TValue pt = toTensor(*pred, loc);
    if (pt.isTensor())
      v = select(*pred, v, Val::tensor(readBuffer(Attribute())), loc);
    else
      guard = toBool(pt, loc).value;
  }
  auto store = tg::SmemStoreOp::create(b, cur, buf.value, v.value, guard);
  store->setAttr(tg::TXLGPUDialect::kPinnedLayoutAttr, enc);
  return Val::none();
}

/// TXL's predStr="slice:D": `value` has one dimension more than the
/// buffer and is a broadcast along D (every element along D the same); its
/// slice is stored. txl takes the maximum along D, which is that element.
TValue Gen::squeezeBroadcast(const TValue &v, const Val &spec,
                             const TValue &buf, const std::string &fname,
                             SourceLoc loc) {
  const std::string prefix = "slice:";
  std::string digits = spec.kind == Val::Kind::Str &&
                               spec.s.compare(0, prefix.size(), prefix) == 0
                           ? spec.s.substr(prefix.size())
                           : std::string();
  if (digits.empty() || digits.size() > 2 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    fail(loc, fname + ": predStr must be \"slice:D\" (D: the dimension of "
                      "value the buffer drops)");
  size_t dim = std::stoul(digits);
  if (v.shape.size() != buf.shape.size() + 1 || dim >= v.shape.size())
    fail(loc, fname + ": predStr=\"" + spec.s + "\" needs a value of rank " +
                  std::to_string(buf.shape.size() + 1) + " with a dimension " +
                  std::to_string(dim) + " to drop, got " + v.typeStr());
  CallArgs ma;
  ma.pos = {Val::tensor(v), Val::integer(int64_t(dim))};
  ma.posLocs = {loc, loc};
  ma.loc = loc;
  return callBuiltin("tl.max", ma, loc).t;
}

Val handlers::txlLayout(Gen &g, const std::string &name, CallArgs &args,
                        SourceLoc loc) {
  return g.callTxlLayout(name, args, loc);
}

} // namespace txl::irgen
