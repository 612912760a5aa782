//===- Signature.cpp - Triton-style kernel signatures ----------------------===//
//
// "*fp16:16, *fp32, i32:16, i32:1, 1024, none": a pointer (optionally
// 16-byte aligned), a scalar (optionally divisible by 16 or equal to 1), a
// constexpr (any other literal), None, or "tensordesc<fp16[128, 64]>" (a
// host TMA descriptor and its block shape).
//
//===----------------------------------------------------------------------===//
#include "txl/Pipeline/Pipeline.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

using namespace txl;

static bool isScalarTypeName(llvm::StringRef s) {
  static const llvm::StringSet<> names = {
      "i1",  "i8",  "i16", "i32",     "i64",   "u8",   "u16", "u32",
      "u64", "fp8e4nv", "fp8e5", "fp16", "bf16", "fp32", "fp64"};
  return names.contains(s);
}

/// Splits on top-level commas (constexpr strings and tuples may hold some).
static std::vector<std::string> splitTopLevel(const std::string &text) {
  std::vector<std::string> parts;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!llvm::StringRef(cur).trim().empty() || !parts.empty())
    parts.push_back(cur);
  return parts;
}

/// "tensordesc<fp16[128, 64]>": element type and block shape.
static bool parseTensorDesc(llvm::StringRef item, ArgSpec &spec,
                            std::string &error) {
  llvm::StringRef body = item;
  if (!body.consume_front("tensordesc<") || !body.consume_back(">")) {
    error = "expected tensordesc<TYPE[D0, D1, ...]>";
    return false;
  }
  auto [type, dims] = body.split('[');
  type = type.trim();
  if (!isScalarTypeName(type) || type == "i1") {
    error = "unknown tensor descriptor element type '" + type.str() + "'";
    return false;
  }
  dims = dims.trim();
  if (!dims.consume_back("]")) {
    error = "expected the block shape in brackets";
    return false;
  }
  spec.kind = ArgSpec::Kind::TensorDesc;
  spec.type = type.str();
  llvm::SmallVector<llvm::StringRef> parts;
  dims.split(parts, ',');
  for (llvm::StringRef part : parts) {
    int64_t d = 0;
    if (part.trim().getAsInteger(10, d) || d <= 0) {
      error = "bad block dimension '" + part.trim().str() + "'";
      return false;
    }
    spec.block.push_back(d);
  }
  if (spec.block.empty() || spec.block.size() > 5) {
    error = "a tensor descriptor has 1 to 5 dimensions";
    return false;
  }
  return true;
}

static bool parseOne(llvm::StringRef item, ArgSpec &spec, std::string &error) {
  if (item.trim().starts_with("tensordesc"))
    return parseTensorDesc(item.trim(), spec, error);
  auto [type, hint] = item.split(':');
  type = type.trim();
  hint = hint.trim();
  if (type.consume_front("*")) {
    if (!isScalarTypeName(type)) {
      error = "unknown pointer element type '" + type.str() + "'";
      return false;
    }
    spec.kind = ArgSpec::Kind::Pointer;
    spec.type = type.str();
    if (!hint.empty() && hint.getAsInteger(10, spec.divisibility)) {
      error = "bad alignment '" + hint.str() + "'";
      return false;
    }
    return true;
  }
  if (isScalarTypeName(type)) {
    spec.kind = ArgSpec::Kind::Scalar;
    spec.type = type.str();
    if (hint == "1")
      spec.equalsOne = true;
    else if (!hint.empty() && hint.getAsInteger(10, spec.divisibility)) {
      error = "bad divisibility '" + hint.str() + "'";
      return false;
    }
    return true;
  }
  if (item.trim() == "none" || item.trim() == "None") {
    spec.kind = ArgSpec::Kind::None;
    return true;
  }
  if (item.trim().empty()) {
    error = "empty signature entry";
    return false;
  }
  spec.kind = ArgSpec::Kind::Constexpr;
  spec.constValue = item.trim().str();
  return true;
}

bool txl::parseSignature(const std::string &text, std::vector<ArgSpec> &out,
                         std::string &error) {
  out.clear();
  for (const std::string &part : splitTopLevel(text)) {
    ArgSpec spec;
    if (!parseOne(part, spec, error)) {
      error = "signature entry " + std::to_string(out.size() + 1) + " ('" +
              llvm::StringRef(part).trim().str() + "'): " + error;
      return false;
    }
    out.push_back(spec);
  }
  return true;
}

std::string txl::formatSignature(const std::vector<ArgSpec> &signature) {
  std::string text;
  for (const ArgSpec &arg : signature) {
    if (!text.empty())
      text += ", ";
    switch (arg.kind) {
    case ArgSpec::Kind::Pointer:
      text += "*" + arg.type;
      if (arg.divisibility > 1)
        text += ":" + std::to_string(arg.divisibility);
      break;
    case ArgSpec::Kind::Scalar:
      text += arg.type;
      if (arg.equalsOne)
        text += ":1";
      else if (arg.divisibility > 1)
        text += ":" + std::to_string(arg.divisibility);
      break;
    case ArgSpec::Kind::Constexpr:
      text += arg.constValue;
      break;
    case ArgSpec::Kind::None:
      text += "none";
      break;
    case ArgSpec::Kind::TensorDesc: {
      text += "tensordesc<" + arg.type + "[";
      for (size_t i = 0; i < arg.block.size(); ++i)
        text += (i ? ", " : "") + std::to_string(arg.block[i]);
      text += "]>";
      break;
    }
    }
  }
  return text;
}
