//===- Metadata.cpp - Parse and canonicalize kernel metadata --------------===//
#include "txl/Runtime/Metadata.h"
#include "txl/Pipeline/LaunchParamJson.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <initializer_list>

using namespace txl;
namespace json = llvm::json;

namespace {
/// The first key of `keys` present in `object`.
const json::Value *findAny(const json::Object &object,
                           std::initializer_list<const char *> keys) {
  for (const char *key : keys)
    if (const json::Value *value = object.get(key))
      return value;
  return nullptr;
}

bool readInt(const json::Object &object, std::initializer_list<const char *> keys,
             int &out) {
  const json::Value *value = findAny(object, keys);
  if (!value)
    return false;
  if (auto number = value->getAsInteger()) {
    out = int(*number);
    return true;
  }
  return false;
}

void readString(const json::Object &object,
                std::initializer_list<const char *> keys, std::string &out) {
  if (const json::Value *value = findAny(object, keys))
    if (auto text = value->getAsString())
      out = text->str();
}

bool readParams(const json::Array &array, std::vector<LaunchParam> &params,
                std::string &error) {
  params.clear();
  for (const json::Value &entry : array) {
    const json::Object *object = entry.getAsObject();
    if (!object) {
      error = "metadata: a params entry is not an object";
      return false;
    }
    LaunchParam param;
    readString(*object, {"name"}, param.name);
    readString(*object, {"type"}, param.type);
    if (!readInt(*object, {"size", "size_bytes", "sizeBytes"}, param.sizeBytes))
      param.sizeBytes = param.type == "ptr" ? 8 : 0;
    if (param.type.empty() || param.sizeBytes <= 0) {
      error = "metadata: param '" + param.name + "' lacks a type or size";
      return false;
    }
    if (!launchParamDescFromJson(*object, param)) {
      error = "metadata: tensor descriptor param '" + param.name +
              "' lacks dtype, block, box or swizzle";
      return false;
    }
    params.push_back(param);
  }
  return true;
}

void readClusterDims(const json::Object &object, int dims[3]) {
  const json::Value *value = findAny(object, {"cluster_dims", "clusterDims"});
  const json::Array *array = value ? value->getAsArray() : nullptr;
  if (!array)
    return;
  for (size_t i = 0; i < 3 && i < array->size(); ++i)
    if (auto number = (*array)[i].getAsInteger())
      dims[i] = int(*number);
}
} // namespace

bool txl::parseKernelMetadata(const std::string &text, CompiledKernel &kernel,
                              std::string &error) {
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    error = "metadata: " + llvm::toString(parsed.takeError());
    return false;
  }
  const json::Object *object = parsed->getAsObject();
  if (!object) {
    error = "metadata: not a JSON object";
    return false;
  }
  readString(*object, {"name", "kernel_name", "kernelName"}, kernel.name);
  readString(*object, {"target"}, kernel.target);
  readString(*object, {"cubin_producer", "cubinProducer"}, kernel.cubinProducer);
  readString(*object, {"source_hash", "sourceHash"}, kernel.sourceHash);
  readString(*object, {"source_file", "sourceFile"}, kernel.sourceFile);
  if (!readInt(*object, {"num_warpgroups", "numWarpgroups"}, kernel.numWarpgroups))
    kernel.numWarpgroups = 1;
  if (!readInt(*object, {"num_extra_warps", "numExtraWarps"},
               kernel.numExtraWarps))
    kernel.numExtraWarps = 0;
  if (!readInt(*object, {"shared_bytes", "sharedBytes", "shared"}, kernel.sharedBytes))
    kernel.sharedBytes = 0;
  if (!readInt(*object, {"global_scratch_bytes", "globalScratchBytes"},
               kernel.globalScratchBytes))
    kernel.globalScratchBytes = 0;
  if (kernel.globalScratchBytes < 0) {
    error = "metadata: negative 'global_scratch_bytes'";
    return false;
  }
  readClusterDims(*object, kernel.clusterDims);
  if (const json::Value *sync = object->get("debug_sync"))
    kernel.debugSync = sync->getAsBoolean().value_or(false);
  if (kernel.name.empty() ||
      !readInt(*object, {"num_warps", "numWarps"}, kernel.numWarps)) {
    error = "metadata: missing 'name' or 'num_warps'";
    return false;
  }
  const json::Value *params = findAny(*object, {"params", "launch_params"});
  const json::Array *array = params ? params->getAsArray() : nullptr;
  if (!array) {
    error = "metadata: missing 'params' array";
    return false;
  }
  return readParams(*array, kernel.params, error);
}

bool txl::sameLaunchFields(const CompiledKernel &a, const CompiledKernel &b) {
  if (a.name != b.name || a.numWarps != b.numWarps ||
      a.numWarpgroups != b.numWarpgroups ||
      a.numExtraWarps != b.numExtraWarps || a.sharedBytes != b.sharedBytes ||
      a.globalScratchBytes != b.globalScratchBytes ||
      a.cubinProducer != b.cubinProducer || a.debugSync != b.debugSync ||
      a.params.size() != b.params.size())
    return false;
  for (int i = 0; i < 3; ++i)
    if (a.clusterDims[i] != b.clusterDims[i])
      return false;
  for (size_t i = 0; i < a.params.size(); ++i)
    if (a.params[i].name != b.params[i].name ||
        a.params[i].type != b.params[i].type ||
        a.params[i].sizeBytes != b.params[i].sizeBytes ||
        a.params[i].elementType != b.params[i].elementType ||
        a.params[i].block != b.params[i].block ||
        a.params[i].box != b.params[i].box ||
        a.params[i].swizzleBytes != b.params[i].swizzleBytes)
      return false;
  return true;
}

std::string txl::canonicalMetadataJson(const std::string &producerJson,
                                       const CompiledKernel &kernel,
                                       const std::string &cacheKey,
                                       bool cacheHit) {
  json::Object object;
  if (!producerJson.empty()) {
    llvm::Expected<json::Value> parsed = json::parse(producerJson);
    if (parsed && parsed->getAsObject())
      object = std::move(*parsed->getAsObject());
    else if (!parsed)
      llvm::consumeError(parsed.takeError());
  }
  object["name"] = kernel.name;
  object["target"] = kernel.target;
  object["num_warps"] = kernel.numWarps;
  object["num_warpgroups"] = kernel.numWarpgroups;
  object["num_extra_warps"] = kernel.numExtraWarps;
  object["shared_bytes"] = kernel.sharedBytes;
  object["global_scratch_bytes"] = kernel.globalScratchBytes;
  object["cluster_dims"] = json::Array{kernel.clusterDims[0],
                                       kernel.clusterDims[1],
                                       kernel.clusterDims[2]};
  json::Array params;
  for (const LaunchParam &param : kernel.params)
    params.push_back(launchParamToJson(param));
  object["params"] = std::move(params);
  object["cubin_producer"] = kernel.cubinProducer;
  object["debug_sync"] = kernel.debugSync;
  object["source_hash"] = kernel.sourceHash;
  object["source_file"] = kernel.sourceFile;
  object["cache_key"] = cacheKey;
  object["cache_hit"] = cacheHit;
  std::string out;
  llvm::raw_string_ostream stream(out);
  stream << json::Value(std::move(object));
  stream.flush();
  return out;
}
