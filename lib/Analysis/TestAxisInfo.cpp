//===- TestAxisInfo.cpp - print axis facts as attributes for lit tests ----===//
#include "txl/Analysis/AxisInfo.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
/// Annotates every op with `axis_info` (a string for one result, an array
/// for several) and ops with regions with `axis_info.args` (their entry
/// blocks' arguments, region by region).
struct TestAxisInfoPass
    : public PassWrapper<TestAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAxisInfoPass)

  StringRef getArgument() const final { return "txl-test-axis-info"; }
  StringRef getDescription() const final {
    return "Annotate every value with its axis facts (contiguity, "
           "divisibility, constancy)";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ::txl::AxisInfoAnalysis analysis(module);
    Builder builder(module.getContext());
    auto describe = [&](Value value) -> Attribute {
      const ::txl::AxisInfo *info = analysis.getAxisInfo(value);
      return builder.getStringAttr(info ? info->toString() : "unknown");
    };
    module.walk([&](Operation *op) {
      if (op->getNumResults() == 1)
        op->setAttr("axis_info", describe(op->getResult(0)));
      else if (op->getNumResults() > 1)
        op->setAttr(
            "axis_info",
            describeAll(SmallVector<Value>(op->getResults()), describe));
      SmallVector<Value> args;
      for (Region &region : op->getRegions())
        if (!region.empty())
          llvm::append_range(args, region.front().getArguments());
      if (!args.empty())
        op->setAttr("axis_info.args", describeAll(args, describe));
    });
  }

  template <typename Describe>
  static Attribute describeAll(ArrayRef<Value> values, Describe describe) {
    SmallVector<Attribute> list;
    for (Value value : values)
      list.push_back(describe(value));
    return ArrayAttr::get(values.front().getContext(), list);
  }
};
} // namespace

void ::txl::registerTestAxisInfoPass() { PassRegistration<TestAxisInfoPass>(); }
