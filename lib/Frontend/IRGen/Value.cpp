//===- Value.cpp - DType / Val helpers (no IR building) -------------------===//
#include "Value.h"

#include "txl/Frontend/AST.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <sstream>

namespace txl::irgen {

DType DType::pointerTo(const DType &elem, int addrSpace) {
  DType d(Ptr);
  d.pointee = std::make_shared<const DType>(elem);
  d.addrSpace = addrSpace;
  return d;
}

std::optional<DType> DType::fromName(llvm::StringRef name) {
  name = name.trim();
  if (name.consume_front("*")) {
    std::optional<DType> elem = fromName(name);
    if (!elem)
      return std::nullopt;
    return pointerTo(*elem);
  }
  Kind k = llvm::StringSwitch<Kind>(name)
               .Cases({"i1", "int1", "bool"}, I1)
               .Cases({"i8", "int8"}, I8)
               .Cases({"i16", "int16"}, I16)
               .Cases({"i32", "int32"}, I32)
               .Cases({"i64", "int64"}, I64)
               .Cases({"u1"}, I1)
               .Cases({"u8", "uint8"}, U8)
               .Cases({"u16", "uint16"}, U16)
               .Cases({"u32", "uint32"}, U32)
               .Cases({"u64", "uint64"}, U64)
               .Cases({"fp8e4nv", "float8e4nv", "float8_e4m3fn"}, F8E4NV)
               .Cases({"fp8e5", "float8e5", "float8_e5m2"}, F8E5)
               .Cases({"fp16", "float16", "f16", "half"}, F16)
               .Cases({"bf16", "bfloat16"}, BF16)
               .Cases({"fp32", "float32", "f32", "float"}, F32)
               .Cases({"fp64", "float64", "f64", "double"}, F64)
               .Default(Invalid);
  if (k == Invalid)
    return std::nullopt;
  return DType(k);
}

int DType::bitWidth() const {
  switch (kind) {
  case I1:
    return 1;
  case I8:
  case U8:
  case F8E4NV:
  case F8E5:
    return 8;
  case I16:
  case U16:
  case F16:
  case BF16:
    return 16;
  case I32:
  case U32:
  case F32:
    return 32;
  case I64:
  case U64:
  case F64:
  case Ptr:
    return 64;
  case Invalid:
    return 0;
  }
  return 0;
}

std::string DType::str() const {
  switch (kind) {
  case Invalid:
    return "<invalid>";
  case I1:
    return "int1";
  case I8:
    return "int8";
  case I16:
    return "int16";
  case I32:
    return "int32";
  case I64:
    return "int64";
  case U8:
    return "uint8";
  case U16:
    return "uint16";
  case U32:
    return "uint32";
  case U64:
    return "uint64";
  case F8E4NV:
    return "fp8e4nv";
  case F8E5:
    return "fp8e5";
  case F16:
    return "fp16";
  case BF16:
    return "bf16";
  case F32:
    return "fp32";
  case F64:
    return "fp64";
  case Ptr:
    return std::string(isConstPtr ? "const_pointer<" : "pointer<") +
           (pointee ? pointee->str() : std::string("?")) + ">";
  }
  return "?";
}

bool DType::operator==(const DType &o) const {
  if (kind != o.kind)
    return false;
  if (kind != Ptr)
    return true;
  if (isConstPtr != o.isConstPtr)
    return false;
  if (addrSpace != o.addrSpace || !pointee || !o.pointee)
    return addrSpace == o.addrSpace && pointee == o.pointee;
  return *pointee == *o.pointee;
}

int64_t TValue::numel() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string shapeStr(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string TValue::typeStr() const {
  switch (space) {
  case Space::Reg:
    break;
  case Space::Smem:
    return "shared buffer <" + shapeStr(shape) + ", " + dtype.str() + ">";
  case Space::SmemArray:
    return "shared buffer array <" + shapeStr(shape) + ", " + dtype.str() + ">";
  case Space::Mbar:
    return "mbarrier";
  case Space::MbarArray:
    return "mbarrier array [" + std::to_string(shape.empty() ? 0 : shape[0]) +
           "]";
  case Space::Tmem:
    return "tensor-memory buffer <" + shapeStr(shape) + ", " + dtype.str() +
           ">";
  case Space::TmemArray:
    return "tensor-memory buffer array <" + shapeStr(shape) + ", " +
           dtype.str() + ">";
  case Space::Desc:
    return "tensor descriptor <" + shapeStr(shape) + ", " + dtype.str() + ">";
  }
  if (shape.empty())
    return dtype.str();
  return "<" + shapeStr(shape) + ", " + dtype.str() + ">";
}

Val Val::boolean(bool v) {
  Val r;
  r.kind = Kind::Bool;
  r.b = v;
  return r;
}
Val Val::integer(int64_t v) {
  Val r;
  r.kind = Kind::Int;
  r.i = v;
  return r;
}
Val Val::floating(double v) {
  Val r;
  r.kind = Kind::Float;
  r.f = v;
  return r;
}
Val Val::str(std::string v) {
  Val r;
  r.kind = Kind::Str;
  r.s = std::move(v);
  return r;
}
Val Val::tuple(std::vector<Val> elts) {
  Val r;
  r.kind = Kind::Tuple;
  r.elts = std::move(elts);
  return r;
}
Val Val::dtypeVal(DType d) {
  Val r;
  r.kind = Kind::DType;
  r.dtype = std::move(d);
  return r;
}
Val Val::builtin(std::string name) {
  Val r;
  r.kind = Kind::Builtin;
  r.s = std::move(name);
  return r;
}
Val Val::module(std::string name) {
  Val r;
  r.kind = Kind::Module;
  r.s = std::move(name);
  return r;
}
Val Val::method(std::string name, Val self) {
  Val r;
  r.kind = Kind::Method;
  r.s = std::move(name);
  r.elts.push_back(std::move(self));
  return r;
}
Val Val::tensor(TValue t) {
  Val r;
  r.kind = Kind::Tensor;
  r.t = std::move(t);
  return r;
}
Val Val::function(const FunctionDefStmt *fn, std::string module) {
  Val r;
  r.kind = Kind::Function;
  r.fn = fn;
  r.s = std::move(module);
  return r;
}

bool Val::isConstant() const {
  if (kind == Kind::Tensor)
    return false;
  for (const Val &e : elts)
    if (!e.isConstant())
      return false;
  return true;
}

static std::string formatFloat(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  std::ostringstream os;
  os.precision(17);
  os << v;
  std::string s = os.str();
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

std::string Val::repr() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
    return b ? "True" : "False";
  case Kind::Int:
    return std::to_string(i);
  case Kind::Float:
    return formatFloat(f);
  case Kind::Str:
    return s;
  case Kind::Tuple: {
    std::string r = "(";
    for (size_t k = 0; k < elts.size(); ++k)
      r += (k ? ", " : "") + elts[k].repr();
    if (elts.size() == 1)
      r += ",";
    return r + ")";
  }
  case Kind::DType:
    return dtype.str();
  case Kind::Function:
    return std::string("<function ") + (fn ? fn->name : "?") + ">";
  case Kind::Builtin:
    return "<built-in " + s + ">";
  case Kind::Module:
    return "<module " + s + ">";
  case Kind::Method:
    return "<method " + s + ">";
  case Kind::Slice:
    return "slice";
  case Kind::Tensor:
    return "tensor " + t.typeStr();
  case Kind::Ellipsis:
    return "Ellipsis";
  case Kind::Poison:
    return "<unevaluable>";
  }
  return "?";
}

std::string Val::kindName() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
    return "bool";
  case Kind::Int:
    return "int";
  case Kind::Float:
    return "float";
  case Kind::Str:
    return "str";
  case Kind::Tuple:
    return "tuple";
  case Kind::DType:
    return "dtype";
  case Kind::Function:
    return "function";
  case Kind::Builtin:
  case Kind::Method:
    return "builtin function";
  case Kind::Module:
    return "module";
  case Kind::Slice:
    return "slice";
  case Kind::Tensor:
    return "tensor";
  case Kind::Ellipsis:
    return "ellipsis";
  case Kind::Poison:
    return "unevaluable value";
  }
  return "?";
}

bool sameStructure(const Val &a, const Val &b, bool sameValues) {
  if (a.kind != b.kind || a.elts.size() != b.elts.size())
    return false;
  switch (a.kind) {
  case Val::Kind::Tensor:
    return a.t.sameType(b.t) && (!sameValues || a.t.value == b.t.value);
  case Val::Kind::Bool:
    return a.b == b.b;
  case Val::Kind::Int:
    return a.i == b.i;
  case Val::Kind::Float:
    return a.f == b.f || (std::isnan(a.f) && std::isnan(b.f));
  case Val::Kind::Str:
  case Val::Kind::Builtin:
  case Val::Kind::Module:
  case Val::Kind::Poison:
    if (a.s != b.s)
      return false;
    break;
  case Val::Kind::DType:
    return a.dtype == b.dtype;
  case Val::Kind::Function:
    return a.fn == b.fn;
  case Val::Kind::Method:
    if (a.s != b.s)
      return false;
    break;
  default:
    break;
  }
  for (size_t k = 0; k < a.elts.size(); ++k)
    if (!sameStructure(a.elts[k], b.elts[k], sameValues))
      return false;
  return true;
}

} // namespace txl::irgen
