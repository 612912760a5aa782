//===- Options.cpp - The C API's options JSON -----------------------------===//
#include "txl/Runtime/Kernel.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace txl;
namespace json = llvm::json;

namespace {
bool readPositiveInt(const json::Value &value, const std::string &key,
                     int minimum, int &out, std::string &error) {
  std::optional<int64_t> number = value.getAsInteger();
  if (!number || *number < minimum || *number > (1 << 20)) {
    error = "option '" + key + "' must be an integer >= " +
            std::to_string(minimum);
    return false;
  }
  out = int(*number);
  return true;
}

/// A warp count: the layouts split tiles over warps by powers of two
/// (Triton asserts the same; its message is kept for code that matches it).
bool readWarpCount(const json::Value &value, const std::string &key,
                   int &out, std::string &error) {
  if (!readPositiveInt(value, key, 1, out, error))
    return false;
  if (!llvm::isPowerOf2_32(unsigned(out))) {
    error = "option '" + key + "' must be a power of 2, got " +
            std::to_string(out);
    return false;
  }
  return true;
}

bool readBool(const json::Value &value, const std::string &key, bool &out,
              std::string &error) {
  std::optional<bool> flag = value.getAsBoolean();
  if (!flag) {
    error = "option '" + key + "' must be true or false";
    return false;
  }
  out = *flag;
  return true;
}

/// Globals are name -> source text; plain JSON numbers and booleans are
/// accepted too and written the way Python spells them.
bool readGlobals(const json::Value &value,
                 std::map<std::string, std::string> &globals,
                 std::string &error) {
  const json::Object *object = value.getAsObject();
  if (!object) {
    error = "option 'globals' must be an object {name: source text}";
    return false;
  }
  for (const auto &entry : *object) {
    std::string name = entry.first.str();
    const json::Value &text = entry.second;
    if (auto s = text.getAsString())
      globals[name] = s->str();
    else if (auto b = text.getAsBoolean())
      globals[name] = *b ? "True" : "False";
    else if (auto i = text.getAsInteger())
      globals[name] = std::to_string(*i);
    else if (auto d = text.getAsNumber()) {
      std::string out;
      llvm::raw_string_ostream(out) << json::Value(*d);
      globals[name] = out;
    } else {
      error = "global '" + name + "' must be source text";
      return false;
    }
  }
  return true;
}

/// Modules are name -> {"path": file name, "source": text, "globals":
/// {name: source text}} (the kernel's source closure).
bool readModules(const json::Value &value,
                 std::map<std::string, CompileOptions::ModuleSource> &modules,
                 std::string &error) {
  const json::Object *object = value.getAsObject();
  if (!object) {
    error = "option 'modules' must be an object {module name: {path, "
            "source, globals}}";
    return false;
  }
  for (const auto &entry : *object) {
    std::string name = entry.first.str();
    const json::Object *fields = entry.second.getAsObject();
    auto path = fields ? fields->getString("path") : std::nullopt;
    auto source = fields ? fields->getString("source") : std::nullopt;
    if (!path || !source) {
      error = "module '" + name + "' needs string fields 'path' and 'source'";
      return false;
    }
    CompileOptions::ModuleSource &m = modules[name];
    m.path = path->str();
    m.text = source->str();
    if (const json::Value *globals = fields->get("globals"))
      if (!readGlobals(*globals, m.globals, error))
        return false;
  }
  return true;
}

bool readTarget(const json::Value &value, std::string &target,
                std::string &error) {
  auto text = value.getAsString();
  if (!text || text->empty()) {
    error = "option 'target' must be a string like \"sm_90a\" or \"auto\"";
    return false;
  }
  target = text->str();
  if (target != "auto" && target.rfind("sm_", 0) != 0) {
    error = "option 'target' must be \"auto\" or \"sm_XX\", got '" + target +
            "'";
    return false;
  }
  return true;
}

bool readPath(const json::Value &value, const std::string &key,
              std::string &path, std::string &error) {
  std::optional<llvm::StringRef> text = value.getAsString();
  if (!text || text->empty()) {
    error = "option '" + key + "' must be a path";
    return false;
  }
  path = text->str();
  return true;
}

bool readOption(const std::string &key, const json::Value &value,
                CompileOptions &options, std::string &target,
                std::string &error) {
  if (key == "num_warps")
    return readWarpCount(value, key, options.numWarps, error);
  if (key == "num_warpgroups")
    return readPositiveInt(value, key, 1, options.numWarpgroups, error);
  if (key == "num_stages")
    return readPositiveInt(value, key, 0, options.numStages, error);
  if (key == "num_ctas")
    return readPositiveInt(value, key, 1, options.numCtas, error);
  if (key == "maxnreg")
    return readPositiveInt(value, key, 0, options.maxnreg, error);
  if (key == "enable_fp_fusion")
    return readBool(value, key, options.enableFpFusion, error);
  if (key == "enable_reflect_ftz")
    return readBool(value, key, options.enableReflectFtz, error);
  if (key == "line_info")
    return readBool(value, key, options.lineInfo, error);
  if (key == "skip_cubin")
    return readBool(value, key, options.skipCubin, error);
  if (key == "debug_sync")
    return readBool(value, key, options.debugSync, error);
  if (key == "debug_sync_timeout_ms")
    return readPositiveInt(value, key, 1, options.debugSyncTimeoutMs, error);
  if (key == "print_after_all")
    return readPath(value, key, options.printAfterAllDir, error);
  if (key == "dump_locations")
    return readBool(value, key, options.dumpLocations, error);
  if (key == "libdevice")
    return readPath(value, key, options.libdevicePath, error);
  if (key == "ptx_override")
    return readPath(value, key, options.ptxOverrideFile, error);
  if (key == "target")
    return readTarget(value, target, error);
  if (key == "globals")
    return readGlobals(value, options.globals, error);
  if (key == "modules")
    return readModules(value, options.modules, error);
  error = "unknown option '" + key + "'";
  return false;
}
} // namespace

bool txl::parseCompileOptions(const std::string &text, CompileOptions &options,
                              std::string &error) {
  std::string target = "auto";
  if (!text.empty()) {
    llvm::Expected<json::Value> parsed = json::parse(text);
    if (!parsed) {
      error = "options are not valid JSON: " + llvm::toString(parsed.takeError());
      return false;
    }
    const json::Object *object = parsed->getAsObject();
    if (!object) {
      error = "options must be a JSON object";
      return false;
    }
    for (const auto &entry : *object)
      if (!readOption(entry.first.str(), entry.second, options, target, error))
        return false;
  }
  if (target == "auto") {
    target = cuda::currentDeviceTarget();
    if (target.empty())
      target = "sm_90a";
  }
  options.target = target;
  options.dumpIR = options.dumpIR || envFlag("TXL_DUMP_IR");
  options.debugSync = options.debugSync || envFlag("TXL_DEBUG_SYNC");
  if (const char *ms = std::getenv("TXL_DEBUG_SYNC_TIMEOUT_MS"))
    if (int value = std::atoi(ms); value > 0)
      options.debugSyncTimeoutMs = value;
  return true;
}
