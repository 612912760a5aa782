//===- Kernel.cpp - Compile through the disk cache ------------------------===//
#include "txl/Runtime/Kernel.h"
#include "txl/Runtime/Metadata.h"
#include "txl/Viewer/Disassembler.h"
#include "txl/Viewer/KernelViewer.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cctype>
#include <cstdlib>

using namespace txl;

namespace {
/// Fills `kernel` and `artifacts` from a cache entry; false if the entry is
/// unusable (then it is recompiled and replaced).
bool readCacheEntry(const KernelCache &cache, const std::string &key,
                    const std::string &name, CompiledKernel &kernel,
                    ArtifactMap &artifacts) {
  if (!cache.load(key, name, artifacts) || !artifacts.count("ptx"))
    return false;
  std::string error;
  return parseKernelMetadata(artifacts["json"], kernel, error) &&
         kernel.name == name;
}

/// Only launch fields stay in the kernel; the bytes move to `artifacts`.
void moveArtifactsOut(CompiledKernel &kernel) {
  kernel.txlir.clear();
  kernel.txlgir.clear();
  kernel.llir.clear();
  kernel.ptx.clear();
  kernel.cubin.clear();
}

bool isIdentifier(const std::string &name) {
  if (name.empty() || std::isdigit((unsigned char)name[0]))
    return false;
  for (char c : name)
    if (!std::isalnum((unsigned char)c) && c != '_')
      return false;
  return true;
}
} // namespace

std::unique_ptr<RuntimeKernel>
RuntimeKernel::compile(const std::string &source, const std::string &fileName,
                       const CompileOptions &options, Status &status,
                       std::string &error) {
  // The name becomes a file name in the cache: keep it an identifier.
  if (!isIdentifier(options.kernelName)) {
    status = Status::InvalidArgument;
    error = "kernel name '" + options.kernelName + "' is not an identifier";
    return nullptr;
  }
  std::unique_ptr<RuntimeKernel> kernel(new RuntimeKernel());
  const std::string &name = options.kernelName;
  KernelCache cache(KernelCache::defaultDirectory());
  std::string key = computeCacheKey(compilerVersion(), source, fileName, options);
  // Pass dumps exist only if the passes run, and a PTX override is read
  // afresh each time (the cache key does not cover its contents).
  bool alwaysCompile = envFlag("TXL_ALWAYS_COMPILE") ||
                       !options.printAfterAllDir.empty() ||
                       !options.ptxOverrideFile.empty();
  kernel->fromCache = !alwaysCompile &&
                      readCacheEntry(cache, key, name, kernel->launchInfo,
                                     kernel->artifacts);
  std::string producerJson;
  if (kernel->fromCache) {
    producerJson = kernel->artifacts["json"];
  } else {
    CompiledKernel compiled;
    std::string diagnostics;
    if (!compileKernel(source, fileName, options, compiled, diagnostics)) {
      status = Status::Compile;
      error = diagnostics.empty() ? "compilation failed" : diagnostics;
      return nullptr;
    }
    producerJson = compiled.metadataJson();
    kernel->artifacts = artifactsOf(compiled, producerJson);
    moveArtifactsOut(compiled);
    kernel->launchInfo = compiled;
    // Only cache what a later hit would read back identically; a metadata
    // schema drift must cost a recompile, never a wrong launch.
    CompiledKernel reread;
    std::string cacheError;
    if (parseKernelMetadata(producerJson, reread, cacheError) &&
        sameLaunchFields(reread, compiled))
      cache.store(key, name, kernel->artifacts, /*replace=*/true, cacheError);
  }
  if (const char *dumpDir = std::getenv("TXL_DUMP_DIR"); dumpDir && *dumpDir) {
    std::string dumpError;
    if (!dumpArtifacts(dumpDir, name, kernel->artifacts, dumpError)) {
      status = Status::IO;
      error = dumpError;
      return nullptr;
    }
  }
  kernel->metadataText = canonicalMetadataJson(producerJson, kernel->launchInfo,
                                               key, kernel->fromCache);
  status = Status::Success;
  return kernel;
}

std::unique_ptr<RuntimeKernel>
RuntimeKernel::fromArtifacts(ArtifactMap artifacts, Status &status,
                             std::string &error) {
  status = Status::InvalidArgument;
  if (!artifacts.count("json") ||
      !(artifacts.count("cubin") || artifacts.count("ptx"))) {
    error = "a kernel needs its metadata (json) and a cubin or PTX";
    return nullptr;
  }
  std::unique_ptr<RuntimeKernel> kernel(new RuntimeKernel());
  if (!parseKernelMetadata(artifacts["json"], kernel->launchInfo, error))
    return nullptr;
  kernel->metadataText = canonicalMetadataJson(
      artifacts["json"], kernel->launchInfo, "", /*cacheHit=*/false);
  kernel->artifacts = std::move(artifacts);
  status = Status::Success;
  return kernel;
}

const std::string *RuntimeKernel::artifact(const std::string &kind) const {
  auto it = artifacts.find(kind);
  return it == artifacts.end() ? nullptr : &it->second;
}

const std::string *RuntimeKernel::derivedArtifact(const std::string &kind,
                                                  std::string &error) const {
  std::lock_guard<std::mutex> lock(derivedMutex);
  if (auto it = derived.find(kind); it != derived.end())
    return &it->second;
  const std::string *cubin = artifact("cubin");
  std::string sass, sassError = "no cubin (the driver JITs this kernel's PTX)";
  if (kind == "sass" || kind == "html")
    if (cubin && disassembleCubin(*cubin, sass, sassError))
      sassError.clear();
  if (kind == "sass") {
    if (!sassError.empty()) {
      error = sassError;
      return nullptr;
    }
    return &derived.emplace(kind, std::move(sass)).first->second;
  }
  if (kind != "html") {
    error = "no '" + kind + "' artifact";
    return nullptr;
  }
  auto source = llvm::MemoryBuffer::getFile(launchInfo.sourceFile);
  if (!source) {
    error = "cannot read the kernel's source file '" + launchInfo.sourceFile +
            "' for the viewer";
    return nullptr;
  }
  ViewerInput input;
  input.source = (*source)->getBuffer().str();
  input.sourceFile = launchInfo.sourceFile;
  auto text = [&](const char *name) {
    const std::string *bytes = artifact(name);
    return bytes ? *bytes : std::string();
  };
  input.txlir = text("txlir");
  input.txlgir = text("txlgir");
  input.llir = text("llir");
  input.ptx = text("ptx");
  input.sass = std::move(sass);
  input.sassMissing = sassError;
  input.metadataJson = metadataText;
  return &derived.emplace(kind, renderKernelViewer(input)).first->second;
}
