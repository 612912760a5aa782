//===- Dialect.cpp - txl dialect registration and types -------------------===//
#include "txl/Dialect/TXL/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::txl;

#include "txl/Dialect/TXL/IR/Dialect.cpp.inc"
#include "txl/Dialect/TXL/IR/OpsEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "txl/Dialect/TXL/IR/Types.cpp.inc"

namespace {
/// Every txl op may be inlined: helper @jit functions are always inlined
/// into the kernel, like Triton does.
struct TXLInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void TXLDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "txl/Dialect/TXL/IR/Types.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "txl/Dialect/TXL/IR/Ops.cpp.inc"
      >();
  addInterfaces<TXLInlinerInterface>();
}

// `!txl.ptr<f32>` or `!txl.ptr<f32, 3>`.
Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = 1;
  if (parser.parseLess() || parser.parseType(pointee))
    return Type();
  if (succeeded(parser.parseOptionalComma()) &&
      parser.parseInteger(addressSpace))
    return Type();
  if (parser.parseGreater())
    return Type();
  return PointerType::get(pointee, addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != 1)
    printer << ", " << getAddressSpace();
  printer << ">";
}

Type mlir::txl::getTypeWithShapeOf(Type like, Type elem) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tensor.getShape(), elem, tensor.getEncoding());
  return elem;
}
