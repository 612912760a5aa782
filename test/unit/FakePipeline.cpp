//===- FakePipeline.cpp - A stand-in compiler for runtime tests -----------===//
#include "FakePipeline.h"

#include "txl/Pipeline/Pipeline.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <sstream>

using namespace txl;

int txl::fake::compileCount = 0;

namespace {
const char *scalarTypes[] = {"i1",  "i8",  "i16",     "i32",   "i64",
                             "u8",  "u16", "u32",     "u64",   "fp8e4nv",
                             "fp8e5", "fp16", "bf16", "fp32",  "fp64"};

bool isScalarType(const std::string &type) {
  for (const char *known : scalarTypes)
    if (type == known)
      return true;
  return false;
}

std::string trim(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t");
  size_t end = text.find_last_not_of(" \t");
  return begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
}

bool parseEntry(const std::string &entry, ArgSpec &arg, std::string &error) {
  if (entry.empty()) {
    error = "empty signature entry";
    return false;
  }
  if (entry == "none") {
    arg.kind = ArgSpec::Kind::None;
    return true;
  }
  std::string body = entry;
  bool pointer = body[0] == '*';
  if (pointer)
    body = body.substr(1);
  std::string type = body.substr(0, body.find(':'));
  std::string suffix =
      body.find(':') == std::string::npos ? "" : body.substr(body.find(':') + 1);
  if (!isScalarType(type)) {
    if (pointer) {
      error = "unknown pointee type '" + type + "'";
      return false;
    }
    arg.kind = ArgSpec::Kind::Constexpr;
    arg.constValue = entry;
    return true;
  }
  arg.kind = pointer ? ArgSpec::Kind::Pointer : ArgSpec::Kind::Scalar;
  arg.type = type;
  if (suffix == "16")
    arg.divisibility = 16;
  else if (suffix == "1" && !pointer)
    arg.equalsOne = true;
  else if (!suffix.empty()) {
    error = "bad specialization ':" + suffix + "' in '" + entry + "'";
    return false;
  }
  return true;
}

int globalInt(const CompileOptions &options, const char *name) {
  auto it = options.globals.find(name);
  return it == options.globals.end() ? 0 : std::atoi(it->second.c_str());
}

/// out[i] = x[i] + y[i] for i < n; staged through dynamic shared memory
/// (at its far end, so the whole allocation must be granted) if any. With
/// `nFolded` (signature "i32:1") n is the constant 1, not a parameter.
std::string vectorAddPtx(const std::string &name, int sharedBytes,
                         bool nFolded) {
  std::ostringstream ptx;
  ptx << ".version 8.0\n.target sm_80\n.address_size 64\n"
      << ".extern .shared .align 16 .b8 smem[];\n"
      << ".visible .entry " << name
      << "(.param .u64 p0, .param .u64 p1, .param .u64 p2"
      << (nFolded ? ")\n" : ", .param .u32 p3)\n")
      << "{\n .reg .pred %p<2>;\n .reg .b32 %r<12>;\n .reg .f32 %f<4>;\n"
      << " .reg .b64 %rd<12>;\n"
      << " ld.param.u64 %rd1, [p0];\n ld.param.u64 %rd2, [p1];\n"
      << " ld.param.u64 %rd3, [p2];\n"
      << (nFolded ? " mov.u32 %r1, 1;\n" : " ld.param.u32 %r1, [p3];\n")
      << " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
      << " mov.u32 %r4, %tid.x;\n mad.lo.s32 %r5, %r2, %r3, %r4;\n"
      << " setp.ge.s32 %p1, %r5, %r1;\n @%p1 bra DONE;\n"
      << " cvta.to.global.u64 %rd4, %rd1;\n cvta.to.global.u64 %rd5, %rd2;\n"
      << " cvta.to.global.u64 %rd6, %rd3;\n mul.wide.s32 %rd7, %r5, 4;\n"
      << " add.s64 %rd8, %rd4, %rd7;\n add.s64 %rd9, %rd5, %rd7;\n"
      << " add.s64 %rd10, %rd6, %rd7;\n ld.global.f32 %f1, [%rd8];\n"
      << " ld.global.f32 %f2, [%rd9];\n add.f32 %f3, %f1, %f2;\n";
  if (sharedBytes > 0)
    ptx << " mov.u32 %r6, smem;\n add.u32 %r6, %r6, " << sharedBytes << ";\n"
        << " shl.b32 %r7, %r3, 2;\n sub.u32 %r6, %r6, %r7;\n"
        << " shl.b32 %r8, %r4, 2;\n add.u32 %r6, %r6, %r8;\n"
        << " st.shared.f32 [%r6], %f3;\n ld.shared.f32 %f3, [%r6];\n";
  ptx << " st.global.f32 [%rd10], %f3;\nDONE:\n ret;\n}\n";
  return ptx.str();
}
} // namespace

bool txl::parseSignature(const std::string &text, std::vector<ArgSpec> &out,
                         std::string &error) {
  out.clear();
  if (trim(text).empty())
    return true;
  std::stringstream stream(text);
  std::string entry;
  while (std::getline(stream, entry, ',')) {
    ArgSpec arg;
    if (!parseEntry(trim(entry), arg, error))
      return false;
    out.push_back(arg);
  }
  if (!text.empty() && text.back() == ',') {
    error = "trailing comma";
    return false;
  }
  return true;
}

std::string CompiledKernel::metadataJson() const {
  std::ostringstream json;
  json << "{\"name\": \"" << name << "\", \"target\": \"" << target
       << "\", \"num_warps\": " << numWarps
       << ", \"num_warpgroups\": " << numWarpgroups
       << ", \"shared_bytes\": " << sharedBytes
       << ", \"global_scratch_bytes\": " << globalScratchBytes
       << ", \"cluster_dims\": ["
       << clusterDims[0] << ", " << clusterDims[1] << ", " << clusterDims[2]
       << "], \"cubin_producer\": \"" << cubinProducer
       << "\", \"source_hash\": \"" << sourceHash << "\", \"params\": [";
  for (size_t i = 0; i < params.size(); ++i)
    json << (i ? ", " : "") << "{\"name\": \"" << params[i].name
         << "\", \"type\": \"" << params[i].type
         << "\", \"size\": " << params[i].sizeBytes << "}";
  json << "]}";
  return json.str();
}

bool txl::compileKernel(const std::string &source, const std::string &fileName,
                        const CompileOptions &options, CompiledKernel &out,
                        std::string &diagnostics) {
  ++fake::compileCount;
  if (source.find("def " + options.kernelName + "(") == std::string::npos) {
    diagnostics = fileName + ":1:1: error: no kernel named '" +
                  options.kernelName + "'";
    return false;
  }
  out = CompiledKernel();
  out.name = options.kernelName;
  out.target = options.target;
  out.numWarps = options.numWarps;
  out.numWarpgroups = options.numWarpgroups;
  out.sharedBytes = globalInt(options, "SMEM_BYTES");
  out.clusterDims[0] = std::max(1, globalInt(options, "CLUSTER_X"));
  for (size_t i = 0; i < options.signature.size(); ++i) {
    const ArgSpec &arg = options.signature[i];
    if (arg.kind == ArgSpec::Kind::Pointer)
      out.params.push_back({"arg" + std::to_string(i), "ptr", 8});
    else if (arg.kind == ArgSpec::Kind::Scalar && !arg.equalsOne)
      out.params.push_back({"arg" + std::to_string(i), arg.type,
                            arg.type == "i64" || arg.type == "fp64" ? 8 : 4});
  }
  out.txlir = "// txlir of " + out.name + "\n";
  out.txlgir = "// txlgir of " + out.name + "\n";
  out.llir = "; llir of " + out.name + "\n";
  bool nFolded = options.signature.size() > 3 &&
                 options.signature[3].kind == ArgSpec::Kind::Scalar &&
                 options.signature[3].equalsOne;
  out.ptx = vectorAddPtx(out.name, out.sharedBytes, nFolded);
  out.cubinProducer = "driver";
  out.sourceHash = std::to_string(std::hash<std::string>()(source));
  return true;
}

const char *txl::compilerVersion() {
  const char *version = std::getenv("TXL_FAKE_COMPILER_VERSION");
  return version ? version : "fake-0";
}
