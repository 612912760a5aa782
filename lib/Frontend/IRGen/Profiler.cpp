//===- Profiler.cpp - proton-style profiling scopes
//------------------------===//
//
// `import triton.profiler.language as pl` (the module `pl` here):
// `with pl.scope("name"):`, `pl.enter_scope("name")` / `pl.exit_scope(...)`
// mark regions of a kernel for Triton's proton profiler. Profiling is off in
// txl, where scopes cost nothing: they are checked (a compile-time string
// name) and compile to no operation; the body of a `with` scope runs as
// plain statements. enter/exit pairs are not matched: proton records each
// as a timestamp, so scopes may overlap (enter A, enter B, exit A) and
// open in one branch and close in another.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"

namespace txl::irgen {

namespace {
/// The value `pl.scope("name")` makes: only `with` accepts it.
constexpr const char *kScopeObject = "pl.scope_object";
} // namespace

static std::string scopeName(Gen &g, const std::string &fname, CallArgs &args,
                             SourceLoc loc) {
  auto p = g.bind(args, {"name", "triton_op", "metric"}, 1, fname, loc);
  if (p[0]->kind != Val::Kind::Str)
    g.fail(loc, fname +
                    ": the scope name must be a compile-time string, "
                    "got " +
                    p[0]->kindName());
  return p[0]->s;
}

Val Gen::callProfiler(const std::string &name, CallArgs &args, SourceLoc loc) {
  if (name == "pl.scope")
    return Val::method(kScopeObject,
                       Val::str(scopeName(*this, name, args, loc)));
  if (name == "pl.enter_scope" || name == "pl.exit_scope") {
    scopeName(*this, name, args, loc);
    return Val::none();
  }
  if (name == kScopeObject)
    fail(loc, "a pl.scope object is not callable (use it in a `with`)");
  fail(loc, "'" + name +
                "' is not supported in kernels (pl.scope, "
                "pl.enter_scope and pl.exit_scope are)");
}

bool Gen::isProfilerScope(const Val &v) {
  return v.kind == Val::Kind::Method && v.s == kScopeObject;
}

/// `with pl.scope("a"), pl.scope("b"):` runs the body in place.
void Gen::execWith(const WithStmt &s) {
  for (const WithItem &item : s.items) {
    Val ctx = eval(*item.contextExpr);
    if (!isProfilerScope(ctx))
      fail(item.contextExpr->loc,
           "'with' in a kernel takes profiler scopes only "
           "(`with pl.scope(\"name\"):`), got " +
               ctx.kindName());
    if (item.optionalVars)
      fail(item.optionalVars->loc,
           "'with pl.scope(...) as NAME' binds nothing in a kernel");
  }
  OpaqueBlockGuard opaque(*this);
  execBlock(s.body);
}

} // namespace txl::irgen
