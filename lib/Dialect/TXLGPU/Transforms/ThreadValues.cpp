//===- ThreadValues.cpp - scalar values as each thread sees them ----------===//
#include "txl/Dialect/TXLGPU/Transforms/ThreadValues.h"
#include "txl/Dialect/TXL/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::txlgpu;

namespace {

unsigned widthOf(Type t) {
  if (t.isIndex())
    return 64;
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth();
  return 0;
}

/// `v` as a value of `width` bits: i1 as 0/1, others sign-extended.
int64_t normalize(int64_t v, unsigned width) {
  if (width == 1)
    return v & 1;
  if (width >= 64 || width == 0)
    return v;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (u >> (width - 1))
    u |= ~mask;
  return int64_t(u);
}

uint64_t unsignedView(int64_t v, unsigned width) {
  if (width >= 64)
    return uint64_t(v);
  return uint64_t(v) & ((uint64_t(1) << width) - 1);
}

std::optional<int64_t> foldCmp(arith::CmpIPredicate p, int64_t a, int64_t b,
                               unsigned w) {
  uint64_t ua = unsignedView(a, w), ub = unsignedView(b, w);
  switch (p) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return a < b;
  case arith::CmpIPredicate::sle:
    return a <= b;
  case arith::CmpIPredicate::sgt:
    return a > b;
  case arith::CmpIPredicate::sge:
    return a >= b;
  case arith::CmpIPredicate::ult:
    return ua < ub;
  case arith::CmpIPredicate::ule:
    return ua <= ub;
  case arith::CmpIPredicate::ugt:
    return ua > ub;
  case arith::CmpIPredicate::uge:
    return ua >= ub;
  }
  return std::nullopt;
}

/// a `op` b for two known operands of `width` bits; nullopt where the
/// result is not a plain integer (division by zero, wide shifts).
std::optional<int64_t> foldBinary(Operation *op, int64_t a, int64_t b,
                                  unsigned w) {
  uint64_t ua = unsignedView(a, w), ub = unsignedView(b, w);
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return foldCmp(cmp.getPredicate(), a, b, w);
  if (isa<arith::AddIOp>(op))
    return a + b;
  if (isa<arith::SubIOp>(op))
    return a - b;
  if (isa<arith::MulIOp>(op))
    return a * b;
  if (isa<arith::AndIOp>(op))
    return a & b;
  if (isa<arith::OrIOp>(op))
    return a | b;
  if (isa<arith::XOrIOp>(op))
    return a ^ b;
  if (isa<arith::MaxSIOp>(op))
    return std::max(a, b);
  if (isa<arith::MinSIOp>(op))
    return std::min(a, b);
  if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op)) {
    if (b < 0 || uint64_t(b) >= w)
      return std::nullopt;
    if (isa<arith::ShLIOp>(op))
      return int64_t(ua << b);
    if (isa<arith::ShRUIOp>(op))
      return int64_t(ua >> b);
    return a >> b;
  }
  if (b == 0)
    return std::nullopt;
  if (isa<arith::DivSIOp>(op))
    return a / b;
  if (isa<arith::RemSIOp>(op))
    return a % b;
  if (isa<arith::DivUIOp>(op))
    return int64_t(ua / ub);
  if (isa<arith::RemUIOp>(op))
    return int64_t(ua % ub);
  return std::nullopt;
}

bool isBinaryIntOp(Operation *op) {
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AndIOp,
             arith::OrIOp, arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp,
             arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp, arith::DivSIOp,
             arith::RemSIOp, arith::DivUIOp, arith::RemUIOp, arith::CmpIOp>(op);
}

/// A known operand that decides the result alone (x & 0, x | true, x * 0).
std::optional<int64_t> absorbing(Operation *op, ThreadValue a, ThreadValue b,
                                 unsigned w) {
  for (ThreadValue x : {a, b}) {
    if (x.kind != ThreadValue::Known)
      continue;
    if (isa<arith::AndIOp, arith::MulIOp>(op) && x.value == 0)
      return 0;
    if (isa<arith::OrIOp>(op) && w == 1 && x.value == 1)
      return 1;
  }
  return std::nullopt;
}

/// Uniform unless one of `lanes` is Varying.
ThreadValue join(ThreadValue a, ThreadValue b) {
  if (a.kind == ThreadValue::Varying || b.kind == ThreadValue::Varying)
    return ThreadValue::varying();
  return ThreadValue::uniform();
}

/// Special registers that are the same for every thread of the CTA.
bool isCtaUniformRegister(Operation *op) {
  return isa<NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp,
             NVVM::GridDimXOp, NVVM::GridDimYOp, NVVM::GridDimZOp,
             NVVM::BlockDimXOp, NVVM::BlockDimYOp, NVVM::BlockDimZOp,
             NVVM::ClusterId, txl::ProgramIdOp, txl::NumProgramsOp>(op);
}

} // namespace

const ThreadLanes &ThreadValues::get(Value v) {
  auto it = memo.find(v);
  if (it != memo.end())
    return *it->second;
  // A loop-carried value reaches itself through the loop's yield: while it
  // is being computed it reads as Uniform (its other inputs decide).
  memo[v] = std::make_unique<ThreadLanes>(fill(ThreadValue::uniform()));
  ThreadLanes lanes = compute(v);
  auto &slot = memo[v];
  *slot = std::move(lanes);
  return *slot;
}

ThreadLanes ThreadValues::compute(Value v) {
  unsigned w = widthOf(v.getType());
  if (!w)
    return fill(ThreadValue::varying());
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<func::FuncOp>(owner))
      return fill(ThreadValue::uniform());
    auto loop = dyn_cast<scf::ForOp>(owner);
    if (!loop)
      return fill(ThreadValue::varying());
    ThreadLanes out = fill(ThreadValue::uniform());
    SmallVector<Value> inputs;
    if (arg == loop.getInductionVar()) {
      inputs = {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
    } else {
      unsigned i = arg.getArgNumber() - 1;
      inputs = {loop.getInitArgs()[i],
                loop.getBody()->getTerminator()->getOperand(i)};
    }
    for (Value in : inputs) {
      const ThreadLanes &l = get(in);
      for (int64_t t = 0; t < threads; ++t)
        out[t] = join(out[t], l[t]);
    }
    return out;
  }
  Operation *op = v.getDefiningOp();
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return fill(ThreadValue::known(normalize(constant.getSExtValue(), w)));
  if (isa<NVVM::ThreadIdXOp>(op)) {
    ThreadLanes out(threads);
    for (int64_t t = 0; t < threads; ++t)
      out[t] = ThreadValue::known(t);
    return out;
  }
  if (isa<NVVM::LaneIdOp>(op)) {
    ThreadLanes out(threads);
    for (int64_t t = 0; t < threads; ++t)
      out[t] = ThreadValue::known(t % 32);
    return out;
  }
  if (isCtaUniformRegister(op))
    return fill(ThreadValue::uniform());
  if (isBinaryIntOp(op)) {
    const ThreadLanes a = get(op->getOperand(0));
    const ThreadLanes &b = get(op->getOperand(1));
    unsigned ow = widthOf(op->getOperand(0).getType());
    ThreadLanes out(threads);
    for (int64_t t = 0; t < threads; ++t) {
      if (auto x = absorbing(op, a[t], b[t], ow)) {
        out[t] = ThreadValue::known(*x);
      } else if (a[t].kind == ThreadValue::Known &&
                 b[t].kind == ThreadValue::Known) {
        std::optional<int64_t> r = foldBinary(op, a[t].value, b[t].value, ow);
        out[t] =
            r ? ThreadValue::known(normalize(*r, w)) : ThreadValue::varying();
      } else {
        out[t] = join(a[t], b[t]);
      }
    }
    return out;
  }
  if (auto sel = dyn_cast<arith::SelectOp>(op)) {
    const ThreadLanes c = get(sel.getCondition());
    const ThreadLanes x = get(sel.getTrueValue());
    const ThreadLanes &y = get(sel.getFalseValue());
    ThreadLanes out(threads);
    for (int64_t t = 0; t < threads; ++t)
      out[t] = c[t].kind == ThreadValue::Known     ? (c[t].value ? x[t] : y[t])
               : c[t].kind == ThreadValue::Uniform ? join(x[t], y[t])
                                                   : ThreadValue::varying();
    return out;
  }
  if (isa<arith::ExtUIOp, arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp,
          arith::IndexCastUIOp>(op)) {
    ThreadLanes out = get(op->getOperand(0));
    unsigned from = widthOf(op->getOperand(0).getType());
    for (ThreadValue &x : out)
      if (x.kind == ThreadValue::Known)
        x.value = normalize(isa<arith::ExtUIOp, arith::IndexCastUIOp>(op)
                                ? int64_t(unsignedView(x.value, from))
                                : x.value,
                            w);
    return out;
  }
  // Other pure arithmetic of uniform values is uniform.
  if (op->getNumRegions() == 0 && isPure(op) &&
      isa<arith::ArithDialect>(op->getDialect())) {
    ThreadLanes out = fill(ThreadValue::uniform());
    for (Value in : op->getOperands()) {
      const ThreadLanes &l = get(in);
      for (int64_t t = 0; t < threads; ++t)
        out[t] = join(out[t], l[t]);
    }
    return out;
  }
  return fill(ThreadValue::varying());
}

llvm::BitVector mlir::txlgpu::threadsThatMayRun(Operation *op,
                                                ThreadValues &values) {
  llvm::BitVector threads(values.numThreads(), true);
  Operation *child = op;
  for (Operation *parent = op->getParentOp(); parent;
       child = parent, parent = parent->getParentOp()) {
    auto ifOp = dyn_cast<scf::IfOp>(parent);
    if (!ifOp)
      continue;
    bool thenBranch = &ifOp.getThenRegion() == child->getParentRegion();
    const ThreadLanes &cond = values.get(ifOp.getCondition());
    for (int64_t t = 0; t < values.numThreads(); ++t)
      if (cond[t].kind == ThreadValue::Known &&
          bool(cond[t].value) != thenBranch)
        threads.reset(t);
  }
  return threads;
}
