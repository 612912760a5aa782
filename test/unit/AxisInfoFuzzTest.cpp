//===- AxisInfoFuzzTest.cpp - random programs: are the facts sound? -------===//
//
// Generates small random kernels (integer index arithmetic, masks, pointer
// tensors, scf.for with loop-carried values, scf.if), runs the analysis,
// then executes each kernel on random inputs with a tiny interpreter and
// checks every claimed fact on every dynamic value: each claimed run really
// is contiguous / constant, and each run's first element really is
// divisible.
//
// Runs that break the analysis' documented assumptions (i32 overflow,
// negative dividends of signed division) are skipped and counted.
//
//===----------------------------------------------------------------------===//
#include "AxisInfoTestUtil.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

using namespace mlir;
namespace txlir = mlir::txl;

namespace {

//===----------------------------------------------------------------------===//
// Program generator
//===----------------------------------------------------------------------===//

enum class Kind { Scalar, Tensor, Mask, Ptrs };

class Generator {
public:
  explicit Generator(uint32_t seed) : rng(seed) {
    if (pick(2)) {
      shape = {int64_t(8) << pick(3)};
    } else {
      shape = {int64_t(2) << pick(3), int64_t(2) << pick(3)};
    }
    static const char *elems[] = {"f32", "f16", "i8", "f64"};
    elem = elems[pick(4)];
  }

  std::string program() {
    std::ostringstream sig;
    sig << "func.func @fuzz(%p: !txl.ptr<" << elem << ">"
        << divAttr({0, 16, 16, 8}) << ", %a0: i32" << divAttr({0, 2, 16, 32})
        << ", %a1: i32" << divAttr({0, 4, 8, 1}) << ", %a2: i32"
        << (pick(4) == 0 ? " {txl.equal_to_1}" : divAttr({0, 16})) << ") {\n";
    for (const char *arg : {"%a0", "%a1", "%a2"})
      pool.push_back({arg, Kind::Scalar});
    int ops = 8 + pick(14);
    for (int i = 0; i < ops; ++i)
      step();
    body << "  return\n}\n";
    return sig.str() + body.str();
  }

private:
  std::mt19937 rng;
  SmallVector<int64_t> shape;
  std::string elem;
  std::ostringstream body;
  std::vector<std::pair<std::string, Kind>> pool;
  int counter = 0;
  int depth = 0;

  int pick(int n) { return int(rng() % unsigned(n)); }
  std::string fresh() { return "%v" + std::to_string(counter++); }
  std::string indent() { return std::string(2 * (depth + 1), ' '); }

  std::string divAttr(std::vector<int> choices) {
    int div = choices[pick(int(choices.size()))];
    return div ? " {txl.divisibility = " + std::to_string(div) + " : i32}" : "";
  }
  std::string shapeText() {
    std::string text;
    for (int64_t n : shape)
      text += std::to_string(n) + "x";
    return text;
  }
  std::string type(Kind kind) {
    switch (kind) {
    case Kind::Scalar:
      return "i32";
    case Kind::Tensor:
      return "tensor<" + shapeText() + "i32>";
    case Kind::Mask:
      return "tensor<" + shapeText() + "i1>";
    case Kind::Ptrs:
      return "tensor<" + shapeText() + "!txl.ptr<" + elem + ">>";
    }
    return "";
  }

  /// A value of `kind` from the pool, creating one when there is none.
  std::string get(Kind kind) {
    std::vector<std::string> found;
    for (auto &[name, k] : pool)
      if (k == kind)
        found.push_back(name);
    if (found.empty() || pick(5) == 0)
      return make(kind);
    return found[pick(int(found.size()))];
  }

  std::string def(Kind kind, const std::string &rhs) {
    std::string name = fresh();
    body << indent() << name << " = " << rhs << "\n";
    pool.push_back({name, kind});
    return name;
  }

  std::string splatConst(int64_t value) {
    return def(Kind::Tensor, "arith.constant dense<" + std::to_string(value) +
                                 "> : " + type(Kind::Tensor));
  }

  std::string make(Kind kind) {
    switch (kind) {
    case Kind::Scalar:
      return makeScalar();
    case Kind::Tensor:
      return makeTensor();
    case Kind::Mask:
      return makeMask();
    case Kind::Ptrs:
      return makePtrs();
    }
    return "";
  }

  std::string makeScalar() {
    static const int64_t constants[] = {0,  1,  2,  3, 4,  8,
                                        16, 32, 64, 5, 12, 48};
    switch (pick(4)) {
    case 0:
      return def(Kind::Scalar, "arith.constant " +
                                   std::to_string(constants[pick(12)]) +
                                   " : i32");
    case 1:
      return def(Kind::Scalar,
                 "txl.program_id " + std::to_string(pick(3)) + " : i32");
    default: {
      static const char *ops[] = {"addi", "muli", "subi"};
      std::string a = get(Kind::Scalar), b = get(Kind::Scalar);
      return def(Kind::Scalar, std::string("arith.") + ops[pick(3)] + " " + a +
                                   ", " + b + " : i32");
    }
    }
  }

  std::string makeRange() {
    static const int starts[] = {0, 0, 0, 1, 4, 8, 16, 3, 32};
    unsigned d = unsigned(pick(int(shape.size())));
    int64_t start = starts[pick(9)], n = shape[d];
    std::string range = fresh();
    body << indent() << range << " = txl.make_range {start = " << start
         << " : i32, end = " << start + n << " : i32} : tensor<" << n
         << "xi32>\n";
    if (shape.size() == 1) {
      pool.push_back({range, Kind::Tensor});
      return range;
    }
    std::string expanded = fresh();
    std::string small =
        d == 0 ? std::to_string(n) + "x1" : "1x" + std::to_string(n);
    body << indent() << expanded << " = txl.expand_dims " << range
         << " {axis = " << (1 - d) << " : i32} : tensor<" << n
         << "xi32> -> tensor<" << small << "xi32>\n";
    return def(Kind::Tensor, "txl.broadcast " + expanded + " : tensor<" +
                                 small + "xi32> -> " + type(Kind::Tensor));
  }

  std::string makeDense() {
    int64_t count = 1;
    for (int64_t n : shape)
      count *= n;
    int64_t stride = pick(3), base = pick(4) * 4,
            period = int64_t(1) << pick(5);
    std::string values;
    for (int64_t i = 0; i < count; ++i)
      values += (i ? ", " : "") + std::to_string(base + (i % period) * stride +
                                                 (i / period) * 16);
    std::string dense = "[" + values + "]";
    if (shape.size() == 2) { // nested rows
      dense = "[";
      for (int64_t r = 0; r < shape[0]; ++r) {
        dense += r ? ", [" : "[";
        for (int64_t c = 0; c < shape[1]; ++c) {
          int64_t i = r * shape[1] + c;
          dense +=
              (c ? ", " : "") +
              std::to_string(base + (i % period) * stride + (i / period) * 16);
        }
        dense += "]";
      }
      dense += "]";
    }
    return def(Kind::Tensor,
               "arith.constant dense<" + dense + "> : " + type(Kind::Tensor));
  }

  std::string makeTensor() {
    std::string t = type(Kind::Tensor);
    switch (pick(12)) {
    case 0:
    case 1:
      return makeRange();
    case 2:
      return def(Kind::Tensor,
                 "txl.splat " + get(Kind::Scalar) + " : i32 -> " + t);
    case 3:
      return splatConst(pick(9) * 4);
    case 4:
    case 5: {
      static const char *ops[] = {"addi",  "subi", "muli", "maxsi",
                                  "minsi", "ori",  "xori", "andi"};
      std::string a = get(Kind::Tensor), b = get(Kind::Tensor);
      return def(Kind::Tensor, std::string("arith.") + ops[pick(8)] + " " + a +
                                   ", " + b + " : " + t);
    }
    case 6:
    case 7: {
      static const char *ops[] = {"divsi", "divui", "remsi", "remui", "shrsi",
                                  "shrui", "shli",  "andi",  "muli",  "addi"};
      static const int64_t amounts[] = {1, 2, 3, 4, 8, 16, 32, 7, 15, 31};
      std::string op = ops[pick(10)];
      int64_t amount = amounts[pick(10)];
      if (op.rfind("sh", 0) == 0)
        amount = pick(6);
      std::string a = get(Kind::Tensor), c = splatConst(amount);
      return def(Kind::Tensor, "arith." + op + " " + a + ", " + c + " : " + t);
    }
    case 8: {
      std::string m = get(Kind::Mask), a = get(Kind::Tensor),
                  b = get(Kind::Tensor);
      return def(Kind::Tensor, "arith.select " + m + ", " + a + ", " + b +
                                   " : " + type(Kind::Mask) + ", " + t);
    }
    case 9:
      if (shape.size() == 2 && shape[0] == shape[1])
        return def(Kind::Tensor, "txl.trans " + get(Kind::Tensor) +
                                     " {order = array<i32: 1, 0>} : " + t +
                                     " -> " + t);
      return makeDense();
    case 10: {
      std::string wide = "tensor<" + shapeText() + "i64>";
      std::string src = get(Kind::Tensor), ext = fresh();
      body << indent() << ext << " = arith.extsi " << src << " : " << t
           << " to " << wide << "\n";
      return def(Kind::Tensor,
                 "arith.trunci " + ext + " : " + wide + " to " + t);
    }
    default:
      return makeDense();
    }
  }

  std::string makeMask() {
    if (pick(4) == 0) {
      static const char *ops[] = {"andi", "ori", "xori"};
      std::string a = get(Kind::Mask), b = get(Kind::Mask);
      return def(Kind::Mask, std::string("arith.") + ops[pick(3)] + " " + a +
                                 ", " + b + " : " + type(Kind::Mask));
    }
    static const char *preds[] = {"slt", "sle", "sgt", "sge", "ult",
                                  "ule", "ugt", "uge", "eq",  "ne"};
    std::string a = get(Kind::Tensor), b = get(Kind::Tensor);
    return def(Kind::Mask, std::string("arith.cmpi ") + preds[pick(10)] + ", " +
                               a + ", " + b + " : " + type(Kind::Tensor));
  }

  std::string makePtrs() {
    if (pick(3) == 0)
      return def(Kind::Ptrs, "txl.splat %p : !txl.ptr<" + elem + "> -> " +
                                 type(Kind::Ptrs));
    std::string p = get(Kind::Ptrs), off = get(Kind::Tensor);
    return def(Kind::Ptrs, "txl.addptr " + p + ", " + off + " : " +
                               type(Kind::Ptrs) + ", " + type(Kind::Tensor));
  }

  void step() {
    int choice = pick(20);
    if (choice == 0 && depth < 2)
      return loop();
    if (choice == 1 && depth < 2)
      return branch();
    static const Kind kinds[] = {Kind::Scalar, Kind::Tensor, Kind::Tensor,
                                 Kind::Tensor, Kind::Mask,   Kind::Ptrs,
                                 Kind::Ptrs};
    make(kinds[pick(7)]);
  }

  void loop() {
    int64_t lb = pick(3) * 2, st = int64_t(1) << pick(3),
            ub = lb + st * pick(4);
    std::string lbName = fresh(), ubName = fresh(), stName = fresh();
    body << indent() << lbName << " = arith.constant " << lb << " : i32\n"
         << indent() << ubName << " = arith.constant " << ub << " : i32\n"
         << indent() << stName << " = arith.constant " << st << " : i32\n";
    if (pick(2))
      stName = get(Kind::Scalar); // a runtime step (positive at run time?)
    std::string t0 = get(Kind::Tensor), p0 = get(Kind::Ptrs);
    std::string iv = fresh(), t = fresh(), p = fresh(), res = fresh();
    body << indent() << res << ":2 = scf.for " << iv << " = " << lbName
         << " to " << ubName << " step " << stName << " iter_args(" << t
         << " = " << t0 << ", " << p << " = " << p0 << ") -> ("
         << type(Kind::Tensor) << ", " << type(Kind::Ptrs) << ") : i32 {\n";
    size_t saved = pool.size();
    pool.push_back({iv, Kind::Scalar});
    pool.push_back({t, Kind::Tensor});
    pool.push_back({p, Kind::Ptrs});
    ++depth;
    for (int i = 0, n = 2 + pick(4); i < n; ++i)
      step();
    std::string yt = get(Kind::Tensor), yp = get(Kind::Ptrs);
    body << indent() << "scf.yield " << yt << ", " << yp << " : "
         << type(Kind::Tensor) << ", " << type(Kind::Ptrs) << "\n";
    --depth;
    body << indent() << "}\n";
    pool.resize(saved);
    pool.push_back({res + "#0", Kind::Tensor});
    pool.push_back({res + "#1", Kind::Ptrs});
  }

  void branch() {
    static const char *preds[] = {"slt", "eq", "sge"};
    std::string a = get(Kind::Scalar), b = get(Kind::Scalar);
    std::string cond = fresh(), res = fresh();
    body << indent() << cond << " = arith.cmpi " << preds[pick(3)] << ", " << a
         << ", " << b << " : i32\n";
    body << indent() << res << " = scf.if " << cond << " -> ("
         << type(Kind::Tensor) << ") {\n";
    for (int side = 0; side < 2; ++side) {
      size_t saved = pool.size();
      ++depth;
      for (int i = 0, n = pick(3); i < n; ++i)
        step();
      std::string y = get(Kind::Tensor);
      body << indent() << "scf.yield " << y << " : " << type(Kind::Tensor)
           << "\n";
      --depth;
      pool.resize(saved);
      body << indent() << (side == 0 ? "} else {\n" : "}\n");
    }
    pool.push_back({res, Kind::Tensor});
  }
};

//===----------------------------------------------------------------------===//
// Interpreter and soundness checks
//===----------------------------------------------------------------------===//

/// Thrown when a run leaves the analysis' documented assumptions.
struct Skip {};

using Data = std::vector<int64_t>;

static SmallVector<int64_t> shapeOf(Value v) {
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return SmallVector<int64_t>(t.getShape());
  return {};
}

static int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// Describes the first claimed fact the concrete value breaks, or "".
static std::string findUnsound(const ::txl::AxisInfo &info,
                               ArrayRef<int64_t> shape, const Data &v,
                               int64_t unit) {
  std::ostringstream why;
  if (info.constantValue)
    for (int64_t x : v)
      if (x != *info.constantValue)
        return "constant value";
  if (shape.empty()) {
    if (v[0] % info.divisibility[0] != 0)
      return "scalar divisibility";
    return "";
  }
  int64_t stride = 1;
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    int64_t n = shape[d];
    int64_t c = info.contiguity[d], k = info.constancy[d],
            div = info.divisibility[d];
    for (int64_t idx = 0; idx < int64_t(v.size()); ++idx) {
      int64_t i = (idx / stride) % n;
      if (i % c != 0 && v[idx] - v[idx - stride] != unit)
        why << "contiguity[" << d << "] at " << idx;
      else if (i % c == 0 && v[idx] % div != 0)
        why << "divisibility[" << d << "] at " << idx;
      else if (i % k != 0 && v[idx] != v[idx - stride])
        why << "constancy[" << d << "] at " << idx;
      if (!why.str().empty())
        return why.str();
    }
    stride *= n;
  }
  return "";
}

class Interpreter {
public:
  Interpreter(const ::txl::AxisInfoAnalysis &analysis, std::mt19937 &rng)
      : analysis(analysis), rng(rng) {}

  int64_t checkedValues = 0;
  std::vector<std::string> failures;

  void run(func::FuncOp func) {
    Block &entry = func.front();
    for (BlockArgument arg : entry.getArguments())
      bind(arg, {argValue(func, arg)});
    for (int axis = 0; axis < 3; ++axis)
      programId[axis] = int64_t(rng() % 10);
    execute(entry);
  }

private:
  const ::txl::AxisInfoAnalysis &analysis;
  std::mt19937 &rng;
  DenseMap<Value, Data> env;
  int64_t programId[3] = {0, 0, 0};

  int64_t argValue(func::FuncOp func, BlockArgument arg) {
    unsigned i = arg.getArgNumber();
    if (func.getArgAttr(i, txlir::kEqualsOneAttr))
      return 1;
    int64_t div = 1;
    if (auto attr =
            func.getArgAttrOfType<IntegerAttr>(i, txlir::kDivisibilityAttr))
      div = attr.getInt();
    if (auto ptr = dyn_cast<txlir::PointerType>(arg.getType())) {
      int64_t elemBytes = std::max<int64_t>(
          1, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
      div = std::max(div, elemBytes); // real pointers are element aligned
      return div * int64_t(1 + rng() % 4096);
    }
    return div * int64_t(rng() % 40);
  }

  static int64_t unitOf(Value v) {
    auto ptr = dyn_cast<txlir::PointerType>(getElementTypeOrSelf(v.getType()));
    if (!ptr)
      return 1;
    return std::max<int64_t>(1,
                             ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
  }

  void bind(Value v, Data data) {
    Type elem = getElementTypeOrSelf(v.getType());
    if (elem.isInteger(32))
      for (int64_t x : data)
        if (x < INT32_MIN || x > INT32_MAX)
          throw Skip(); // overflow: outside the assumptions
    const ::txl::AxisInfo *info = analysis.getAxisInfo(v);
    if (info) {
      ++checkedValues;
      std::string why = findUnsound(*info, shapeOf(v), data, unitOf(v));
      if (!why.empty()) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << why << ": claimed " << info->toString() << " for ";
        v.print(os);
        os << " = [";
        for (int64_t x : data)
          os << x << " ";
        os << "]";
        failures.push_back(text);
      }
    }
    env[v] = std::move(data);
  }

  const Data &get(Value v) { return env.find(v)->second; }

  void execute(Block &block) {
    for (Operation &op : block)
      if (!isa<scf::YieldOp, func::ReturnOp>(op))
        execute(&op);
  }

  Data yielded(Block &block, unsigned i) {
    return get(block.getTerminator()->getOperand(i));
  }

  void execute(Operation *op) {
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return executeFor(forOp);
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      Block &block = get(ifOp.getCondition())[0] ? ifOp.getThenRegion().front()
                                                 : ifOp.getElseRegion().front();
      execute(block);
      for (unsigned i = 0; i < op->getNumResults(); ++i)
        bind(op->getResult(i), yielded(block, i));
      return;
    }
    bind(op->getResult(0), evaluate(op));
  }

  void executeFor(scf::ForOp forOp) {
    int64_t lb = get(forOp.getLowerBound())[0],
            ub = get(forOp.getUpperBound())[0], step = get(forOp.getStep())[0];
    if (step <= 0)
      throw Skip(); // a non-positive step never terminates
    Block &body = *forOp.getBody();
    std::vector<Data> carried;
    for (Value init : forOp.getInitArgs())
      carried.push_back(get(init));
    for (int64_t iv = lb; iv < ub; iv += step) {
      bind(forOp.getInductionVar(), {iv});
      for (unsigned i = 0; i < carried.size(); ++i)
        bind(forOp.getRegionIterArgs()[i], carried[i]);
      execute(body);
      for (unsigned i = 0; i < carried.size(); ++i)
        carried[i] = yielded(body, i);
    }
    for (unsigned i = 0; i < carried.size(); ++i)
      bind(forOp.getResult(i), carried[i]);
  }

  static Data elementwise(const Data &a, const Data &b,
                          llvm::function_ref<int64_t(int64_t, int64_t)> f) {
    Data r(a.size());
    for (size_t i = 0; i < a.size(); ++i)
      r[i] = f(a[i], b[i]);
    return r;
  }

  static int64_t wrap32(int64_t x) { return int64_t(int32_t(uint32_t(x))); }

  Data evaluate(Operation *op) {
    auto operand = [&](unsigned i) -> const Data & {
      return get(op->getOperand(i));
    };
    auto binary = [&](auto f) {
      return elementwise(operand(0), operand(1), f);
    };
    auto nonNegative = [](int64_t a, int64_t b) {
      if (a < 0 || b <= 0)
        throw Skip(); // negative dividends / division by zero
    };
    return llvm::TypeSwitch<Operation *, Data>(op)
        .Case([&](arith::ConstantOp c) {
          Data r;
          if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
            return Data{i.getInt()};
          for (const APInt &v :
               cast<DenseElementsAttr>(c.getValue()).getValues<APInt>())
            r.push_back(v.getSExtValue());
          return r;
        })
        .Case(
            [&](txlir::ProgramIdOp p) { return Data{programId[p.getAxis()]}; })
        .Case([&](txlir::MakeRangeOp r) {
          Data d;
          for (int64_t i = r.getStart(); i < r.getEnd(); ++i)
            d.push_back(i);
          return d;
        })
        .Case([&](txlir::SplatOp) {
          return Data(size_t(numElements(shapeOf(op->getResult(0)))),
                      operand(0)[0]);
        })
        .Case([&](txlir::ExpandDimsOp) { return operand(0); })
        .Case([&](txlir::BroadcastOp b) { return broadcast(b); })
        .Case([&](txlir::TransOp) {
          SmallVector<int64_t> s = shapeOf(op->getResult(0));
          Data r(operand(0).size());
          for (int64_t i = 0; i < s[0]; ++i)
            for (int64_t j = 0; j < s[1]; ++j)
              r[i * s[1] + j] = operand(0)[j * s[0] + i];
          return r;
        })
        .Case([&](txlir::AddPtrOp) {
          int64_t unit = unitOf(op->getResult(0));
          return binary([&](int64_t p, int64_t o) { return p + o * unit; });
        })
        .Case([&](arith::AddIOp) { return binary(std::plus<int64_t>()); })
        .Case([&](arith::SubIOp) { return binary(std::minus<int64_t>()); })
        .Case([&](arith::MulIOp) { return binary(std::multiplies<int64_t>()); })
        .Case([&](arith::MaxSIOp) {
          return binary([](int64_t a, int64_t b) { return std::max(a, b); });
        })
        .Case([&](arith::MinSIOp) {
          return binary([](int64_t a, int64_t b) { return std::min(a, b); });
        })
        .Case([&](arith::AndIOp) { return binary(std::bit_and<int64_t>()); })
        .Case([&](arith::OrIOp) { return binary(std::bit_or<int64_t>()); })
        .Case([&](arith::XOrIOp) { return binary(std::bit_xor<int64_t>()); })
        .Case<arith::DivSIOp, arith::DivUIOp>([&](Operation *) {
          return binary([&](int64_t a, int64_t b) {
            nonNegative(a, b);
            return a / b;
          });
        })
        .Case<arith::RemSIOp, arith::RemUIOp>([&](Operation *) {
          return binary([&](int64_t a, int64_t b) {
            nonNegative(a, b);
            return a % b;
          });
        })
        .Case([&](arith::ShLIOp) {
          return binary(
              [](int64_t a, int64_t b) { return a * (int64_t(1) << b); });
        })
        .Case([&](arith::ShRSIOp) {
          return binary([](int64_t a, int64_t b) { return a >> b; });
        })
        .Case([&](arith::ShRUIOp) {
          return binary([](int64_t a, int64_t b) {
            return b == 0 ? a : int64_t(uint32_t(a) >> b);
          });
        })
        .Case([&](arith::CmpIOp c) {
          auto pred = c.getPredicate();
          return binary([pred](int64_t a, int64_t b) -> int64_t {
            APInt x(32, uint64_t(a), true), y(32, uint64_t(b), true);
            return arith::applyCmpPredicate(pred, x, y);
          });
        })
        .Case([&](arith::SelectOp) {
          Data r(operand(1).size());
          for (size_t i = 0; i < r.size(); ++i)
            r[i] = operand(0)[i] ? operand(1)[i] : operand(2)[i];
          return r;
        })
        .Case([&](arith::ExtSIOp) { return operand(0); })
        .Case([&](arith::TruncIOp) {
          Data r = operand(0);
          for (int64_t &x : r)
            x = wrap32(x);
          return r;
        })
        .Default([&](Operation *) -> Data {
          ADD_FAILURE() << "interpreter lacks "
                        << op->getName().getStringRef().str();
          throw Skip();
        });
  }

  Data broadcast(txlir::BroadcastOp op) {
    SmallVector<int64_t> from = shapeOf(op.getSrc()), to = shapeOf(op);
    Data r(size_t(numElements(to)));
    for (int64_t i = 0; i < int64_t(r.size()); ++i) {
      int64_t rem = i, srcIdx = 0, srcStride = 1;
      for (int d = int(to.size()) - 1; d >= 0; --d) {
        int64_t coord = rem % to[d];
        rem /= to[d];
        srcIdx += (from[d] == 1 ? 0 : coord) * srcStride;
        srcStride *= from[d];
      }
      r[i] = get(op.getSrc())[srcIdx];
    }
    return r;
  }
};

TEST(AxisInfoFuzz, RandomProgramsHaveSoundFacts) {
  const int kPrograms = 600, kRunsPerProgram = 6;
  int64_t checkedValues = 0, completedRuns = 0, skippedRuns = 0;
  int reported = 0;
  for (int seed = 0; seed < kPrograms; ++seed) {
    std::string source = Generator(uint32_t(seed) * 7919u + 1).program();
    axisinfo_test::Analyzed a(source);
    ASSERT_TRUE(a.ok()) << "generated program does not parse:\n" << source;
    auto func = cast<func::FuncOp>(a.module->getBody()->front());
    std::mt19937 rng{uint32_t(seed)};
    for (int run = 0; run < kRunsPerProgram; ++run) {
      Interpreter interpreter(*a.analysis, rng);
      try {
        interpreter.run(func);
        ++completedRuns;
      } catch (Skip) {
        ++skippedRuns;
      }
      checkedValues += interpreter.checkedValues;
      for (const std::string &failure : interpreter.failures)
        if (reported++ < 5)
          ADD_FAILURE() << failure << "\nin program (seed " << seed << "):\n"
                        << source;
    }
  }
  EXPECT_EQ(reported, 0);
  EXPECT_GT(completedRuns, skippedRuns) << "too many runs skipped";
  EXPECT_GT(checkedValues, 20000);
  std::printf("fuzz: %lld values checked, %lld runs completed, %lld skipped\n",
              (long long)checkedValues, (long long)completedRuns,
              (long long)skippedRuns);
}

} // namespace
