//===- Cache.h - On-disk kernel cache ---------------------------*- C++ -*-===//
//
// Each entry is a directory <cache>/<key>/ holding NAME.<kind> for every
// artifact kind (txlir, txlgir, llir, ptx, cubin, json) and a MANIFEST of
// kinds, sizes and SHA-256 hashes (checked on load: a corrupted artifact
// is a miss). An entry is written
// under a temporary name and renamed into place, so a concurrent reader
// sees either nothing or the whole entry.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_RUNTIME_CACHE_H
#define TXL_RUNTIME_CACHE_H

#include "txl/Pipeline/Pipeline.h"

#include <map>
#include <string>

namespace txl {

/// Artifact kind ("ptx", "cubin", ...) -> bytes.
using ArtifactMap = std::map<std::string, std::string>;

/// The artifact kinds, in pipeline order.
const std::vector<std::string> &artifactKinds();

/// The artifacts of a compiled kernel; `metadataJson` becomes "json".
ArtifactMap artifactsOf(const CompiledKernel &kernel,
                        const std::string &metadataJson);

/// Everything that determines a compile's output, hashed with SHA-256.
std::string computeCacheKey(const std::string &compilerVersion,
                            const std::string &source,
                            const std::string &fileName,
                            const CompileOptions &options);

class KernelCache {
public:
  explicit KernelCache(std::string directory);

  /// $TXL_CACHE_DIR, else $HOME/.cache/txl, else /tmp/txl-cache.
  static std::string defaultDirectory();

  const std::string &directory() const { return root; }
  std::string entryPath(const std::string &key) const;

  /// Reads entry `key` of kernel `name`. False if it does not exist, lacks
  /// NAME.json, or does not match its MANIFEST (e.g. it is being replaced,
  /// or an artifact's bytes changed on disk).
  bool load(const std::string &key, const std::string &name,
            ArtifactMap &out) const;

  /// Writes entry `key` atomically. If the entry exists it is kept (another
  /// process won the race) unless `replace`. False with `error` on I/O
  /// failure.
  bool store(const std::string &key, const std::string &name,
             const ArtifactMap &artifacts, bool replace,
             std::string &error) const;

private:
  std::string root;
};

/// Writes NAME.<kind> for every artifact into `directory` (TXL_DUMP_DIR).
bool dumpArtifacts(const std::string &directory, const std::string &name,
                   const ArtifactMap &artifacts, std::string &error);

/// True if the environment variable is set to something other than "", "0".
bool envFlag(const char *name);

} // namespace txl

#endif // TXL_RUNTIME_CACHE_H
