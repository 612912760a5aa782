//===- Uniformity.cpp - Values equal across each warpgroup ----------------===//
//
// setmaxnreg (txl.reg_alloc / reg_dealloc) must be executed by every thread
// of a warpgroup or by none, so it may only sit under conditions that are
// the same for all 128 threads of a warpgroup. Besides txl.is_warpgroup's
// role predicates, such conditions are built from the warpgroup id
// (tid.x >> 7 or tid.x / 128k), program and cluster ids, kernel scalar
// arguments and constants, with scalar arithmetic and comparisons:
// `wg = txl.warpgroup_id(); if wg == 0:`. This is a conservative syntactic
// check of how the condition was computed; anything else is not uniform.
//
//===----------------------------------------------------------------------===//
#include "Gen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "txl/Dialect/TXL/IR/Dialect.h"

using namespace mlir;

namespace txl::irgen {

static bool isThreadIdX(Value v) {
  return v.getDefiningOp<NVVM::ThreadIdXOp>() != nullptr;
}

/// The constant integer `v` holds, if any.
static std::optional<int64_t> constantInt(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantIntOp>())
    return c.value();
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return i.getInt();
  return std::nullopt;
}

/// Whether every thread of a warpgroup (128 consecutive tid.x, with
/// 1-D thread blocks as txl launches them) sees the same `v`.
bool Gen::isWarpgroupUniform(Value v, int depth) const {
  if (!v || depth > 32)
    return false;
  if (rolePredicates.count(v.getAsOpaquePointer()))
    return true;
  if (isa<ShapedType>(v.getType()))
    return false; // a tensor's elements differ across threads
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<func::FuncOp>(owner))
      return true; // a kernel scalar argument
    if (auto loop = dyn_cast<scf::ForOp>(owner))
      return arg == loop.getInductionVar() &&
             isWarpgroupUniform(loop.getLowerBound(), depth + 1) &&
             isWarpgroupUniform(loop.getUpperBound(), depth + 1) &&
             isWarpgroupUniform(loop.getStep(), depth + 1);
    return false;
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (isa<arith::ConstantOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp,
          NVVM::BlockIdZOp, NVVM::GridDimXOp, NVVM::GridDimYOp,
          NVVM::GridDimZOp, NVVM::BlockDimXOp, NVVM::ClusterId,
          ::mlir::txl::ProgramIdOp, ::mlir::txl::NumProgramsOp>(op))
    return true;
  // tid.x >> s (s >= 7) and tid.x / d (d a multiple of 128): warpgroup ids.
  if (isa<arith::ShRUIOp, arith::ShRSIOp>(op) && isThreadIdX(op->getOperand(0)))
    return constantInt(op->getOperand(1)).value_or(0) >= 7;
  if (isa<arith::DivUIOp, arith::DivSIOp>(op) &&
      isThreadIdX(op->getOperand(0))) {
    int64_t d = constantInt(op->getOperand(1)).value_or(0);
    return d > 0 && d % 128 == 0;
  }
  if (isThreadIdX(v) || op->getNumRegions() != 0 ||
      op->getDialect()->getNamespace() != "arith")
    return false;
  for (Value operand : op->getOperands())
    if (!isWarpgroupUniform(operand, depth + 1))
      return false;
  return true;
}

} // namespace txl::irgen
