//===- Value.h - Compile-time and runtime values of the builder -*- C++ -*-===//
//
// The builder is an interpreter of the kernel's Python: every expression
// evaluates to a `Val`, which is either a compile-time Python object (int,
// float, bool, None, str, tuple, dtype, function, module, builtin) or a
// runtime value (`TValue`: an mlir::Value plus its Triton type, i.e. a dtype
// with signedness and a shape). MLIR types are signless, so the Triton dtype
// travels beside the value.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_LIB_FRONTEND_IRGEN_VALUE_H
#define TXL_LIB_FRONTEND_IRGEN_VALUE_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace txl {
class FunctionDefStmt;
} // namespace txl

namespace txl::irgen {

/// A Triton element type: signed/unsigned ints, floats, pointers.
struct DType {
  enum Kind : uint8_t {
    Invalid,
    I1,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F8E4NV,
    F8E5,
    F16,
    BF16,
    F32,
    F64,
    Ptr,
  };
  Kind kind = Invalid;
  std::shared_ptr<const DType> pointee; ///< for Ptr
  int addrSpace = 1;
  /// A pointer to constant data (a kernel parameter annotated tl.const):
  /// stores through it are refused, and it is another type than the plain
  /// pointer (as in Triton), with the same MLIR type.
  bool isConstPtr = false;

  DType() = default;
  DType(Kind kind) : kind(kind) {}
  static DType pointerTo(const DType &elem, int addrSpace = 1);
  /// Triton names ("int32", "float16", "fp16", "bfloat16") and signature
  /// names ("i32", "u8", "fp8e4nv", "*fp16"). Empty when unknown.
  static std::optional<DType> fromName(llvm::StringRef name);

  bool isValid() const { return kind != Invalid; }
  bool isBool() const { return kind == I1; }
  /// Any integer including bool (Triton's is_int).
  bool isInt() const { return kind >= I1 && kind <= U64; }
  bool isSigned() const { return kind >= I8 && kind <= I64; }
  bool isUnsigned() const { return kind >= U8 && kind <= U64; }
  bool isFloat() const { return kind >= F8E4NV && kind <= F64; }
  bool isFP8() const { return kind == F8E4NV || kind == F8E5; }
  bool isPtr() const { return kind == Ptr; }
  int bitWidth() const;
  /// The Triton spelling: "int32", "uint8", "fp16", "pointer<fp32>".
  std::string str() const;

  bool operator==(const DType &o) const;
  bool operator!=(const DType &o) const { return !(*this == o); }
};

/// A runtime value: scalar when `shape` is empty. Besides register values,
/// runtime handles of the txl.* layer travel as TValues so that control flow
/// carries them like any other value: shared-memory buffers and mbarriers
/// (memdescs; `shape` is the memdesc's, a stage array's leading dimension
/// is the stage count) and TMA descriptors (`shape` is the box).
struct TValue {
  enum class Space : uint8_t {
    Reg,        ///< a scalar or tensor in registers
    Smem,       ///< one shared-memory tile
    SmemArray,  ///< smem_alloc's stages
    Mbar,       ///< one mbarrier
    MbarArray,  ///< mbar_alloc's stages
    Desc,       ///< a TMA descriptor
    Tmem,       ///< one tensor-memory buffer (Blackwell)
    TmemArray,  ///< tmem_alloc's stages
  };
  mlir::Value value;
  DType dtype;
  std::vector<int64_t> shape;
  Space space = Space::Reg;

  bool isTensor() const { return !shape.empty() && space == Space::Reg; }
  bool isReg() const { return space == Space::Reg; }
  int64_t numel() const;
  /// "int32" or "<[128, 64], fp32>" (Triton's block type spelling).
  std::string typeStr() const;
  bool sameType(const TValue &o) const {
    return dtype == o.dtype && shape == o.shape && space == o.space;
  }
};

std::string shapeStr(const std::vector<int64_t> &shape);

struct Val {
  enum class Kind {
    None,
    Bool,
    Int,
    Float,
    Str,
    Tuple,
    DType,
    Function, ///< a user `def`
    Builtin,  ///< a built-in function, by canonical name ("tl.load")
    Module,   ///< a module object ("tl", "triton", "math", "torch")
    Method,   ///< `self.name` bound: s = builtin name, elts[0] = self
    Slice,    ///< elts = lower, upper, step
    Tensor,
    Ellipsis,
    Poison, ///< a module-level name that could not be evaluated (s = why)
  };
  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double f = 0.0;
  std::string s;
  std::vector<Val> elts;
  DType dtype;
  const FunctionDefStmt *fn = nullptr;
  TValue t;

  static Val none() { return Val(); }
  static Val boolean(bool v);
  static Val integer(int64_t v);
  static Val floating(double v);
  static Val str(std::string v);
  static Val tuple(std::vector<Val> elts);
  static Val dtypeVal(DType d);
  static Val builtin(std::string name);
  static Val module(std::string name);
  static Val method(std::string name, Val self);
  static Val tensor(TValue t);
  /// A user `def`; `module` names the imported module that defines it
  /// ("" for the kernel's own file).
  static Val function(const FunctionDefStmt *fn, std::string module = "");

  bool isNone() const { return kind == Kind::None; }
  bool isTensor() const { return kind == Kind::Tensor; }
  bool isInt() const { return kind == Kind::Int; }
  bool isNumber() const {
    return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool;
  }
  bool isIntLike() const { return kind == Kind::Int || kind == Kind::Bool; }
  bool isTuple() const { return kind == Kind::Tuple; }
  /// True when no runtime value hides inside (tuples are searched).
  bool isConstant() const;
  double asDouble() const { return kind == Kind::Float ? f : double(asInt()); }
  int64_t asInt() const { return kind == Kind::Bool ? int64_t(b) : i; }
  /// Python repr-ish text for messages and static_print.
  std::string repr() const;
  /// Short description of the kind for messages ("tensor", "int", "tuple").
  std::string kindName() const;
};

/// Structural equality of compile-time parts; runtime leaves compare by
/// mlir::Value identity when `sameValues`, by type otherwise.
bool sameStructure(const Val &a, const Val &b, bool sameValues);

} // namespace txl::irgen

#endif // TXL_LIB_FRONTEND_IRGEN_VALUE_H
