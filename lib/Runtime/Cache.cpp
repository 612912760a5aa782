//===- Cache.cpp - On-disk kernel cache -----------------------------------===//
#include "txl/Runtime/Cache.h"
#include "txl/Support/Sha256.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <fcntl.h>
#include <unistd.h>

using namespace txl;
namespace fs = std::filesystem;

namespace {
const char *const manifestName = "MANIFEST";

/// Reads `name` relative to an open directory; pinning the directory by fd
/// keeps every read of one load() inside one version of the entry even if a
/// writer renames a new version into place meanwhile.
bool readFileAt(int directoryFd, const std::string &name, std::string &out) {
  int fd = ::openat(directoryFd, name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  out.clear();
  char buffer[65536];
  ssize_t got;
  while ((got = ::read(fd, buffer, sizeof(buffer))) > 0)
    out.append(buffer, size_t(got));
  ::close(fd);
  return got == 0;
}

bool writeFile(const fs::path &path, const std::string &bytes,
               std::string &error) {
  std::ofstream outFile(path, std::ios::binary | std::ios::trunc);
  outFile.write(bytes.data(), std::streamsize(bytes.size()));
  outFile.close();
  if (!outFile) {
    error = "cannot write " + path.string();
    return false;
  }
  return true;
}

/// Appends a length-prefixed field so that no two inputs hash the same
/// text ("ab"+"c" vs "a"+"bc").
void addField(Sha256 &hasher, const std::string &field) {
  std::string prefix = std::to_string(field.size()) + ":";
  hasher.update(prefix);
  hasher.update(field);
}

/// Unique across threads (counter) and processes (pid + random seed), so
/// concurrent writers never share a temporary directory.
std::string uniqueSuffix() {
  static std::atomic<unsigned> counter{0};
  static const unsigned seed = std::random_device()();
  return std::to_string(::getpid()) + "-" + std::to_string(seed) + "-" +
         std::to_string(counter++);
}
} // namespace

const std::vector<std::string> &txl::artifactKinds() {
  static const std::vector<std::string> kinds = {"txlir", "txlgir", "llir",
                                                 "ptx",   "cubin",  "json"};
  return kinds;
}

ArtifactMap txl::artifactsOf(const CompiledKernel &kernel,
                             const std::string &metadataJson) {
  ArtifactMap artifacts;
  auto add = [&](const char *kind, const std::string &bytes) {
    if (!bytes.empty())
      artifacts[kind] = bytes;
  };
  add("txlir", kernel.txlir);
  add("txlgir", kernel.txlgir);
  add("llir", kernel.llir);
  add("ptx", kernel.ptx);
  add("cubin", std::string(kernel.cubin.begin(), kernel.cubin.end()));
  add("json", metadataJson);
  return artifacts;
}

std::string txl::computeCacheKey(const std::string &compilerVersion,
                                 const std::string &source,
                                 const std::string &fileName,
                                 const CompileOptions &options) {
  Sha256 hasher;
  addField(hasher, "txl-cache-v2"); // v2: hashes in the MANIFEST
  addField(hasher, compilerVersion);
  addField(hasher, source);
  addField(hasher, fileName);
  addField(hasher, options.kernelName);
  addField(hasher, options.target);
  addField(hasher, options.libdevicePath);
  for (int value : {options.numWarps, options.numWarpgroups, options.numStages,
                    options.numCtas, options.maxnreg, int(options.lineInfo),
                    int(options.skipCubin), int(options.debugSync),
                    int(options.dumpLocations), int(options.enableFpFusion),
                    int(options.enableReflectFtz),
                    options.debugSync ? options.debugSyncTimeoutMs : 0})
    addField(hasher, std::to_string(value));
  addField(hasher, std::to_string(options.signature.size()));
  for (const ArgSpec &arg : options.signature) {
    addField(hasher, std::to_string(int(arg.kind)));
    addField(hasher, arg.type);
    addField(hasher, arg.constValue);
    addField(hasher, std::to_string(arg.divisibility));
    addField(hasher, arg.equalsOne ? "1" : "0");
    addField(hasher, std::to_string(arg.block.size()));
    for (int64_t d : arg.block)
      addField(hasher, std::to_string(d));
  }
  addField(hasher, std::to_string(options.globals.size()));
  for (const auto &global : options.globals) {
    addField(hasher, global.first);
    addField(hasher, global.second);
  }
  addField(hasher, std::to_string(options.modules.size()));
  for (const auto &[name, module] : options.modules) {
    addField(hasher, name);
    addField(hasher, module.path);
    addField(hasher, module.text);
    addField(hasher, std::to_string(module.globals.size()));
    for (const auto &global : module.globals) {
      addField(hasher, global.first);
      addField(hasher, global.second);
    }
  }
  return hasher.hexDigest();
}

KernelCache::KernelCache(std::string directory) : root(std::move(directory)) {}

std::string KernelCache::defaultDirectory() {
  if (const char *dir = std::getenv("TXL_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".cache" / "txl").string();
  return "/tmp/txl-cache";
}

std::string KernelCache::entryPath(const std::string &key) const {
  return (fs::path(root) / key).string();
}

bool KernelCache::load(const std::string &key, const std::string &name,
                       ArtifactMap &out) const {
  out.clear();
  int directoryFd =
      ::open(entryPath(key).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directoryFd < 0)
    return false;
  // The manifest lists every artifact, its size and its SHA-256; an entry
  // that is being deleted under us, or whose bytes changed on disk (even
  // at the same size), fails the check and reads as a miss, which the
  // caller recompiles and replaces. A manifest without hashes (an older
  // txl) is a miss too.
  std::string manifest;
  bool complete = readFileAt(directoryFd, manifestName, manifest);
  std::istringstream lines(manifest);
  std::string kind, hash;
  size_t size = 0;
  while (complete && lines >> kind >> size >> hash) {
    std::string bytes;
    complete = readFileAt(directoryFd, name + "." + kind, bytes) &&
               bytes.size() == size && sha256Hex(bytes) == hash;
    out[kind] = std::move(bytes);
  }
  complete = complete && lines.eof();
  ::close(directoryFd);
  if (!complete || !out.count("json")) {
    out.clear();
    return false;
  }
  return true;
}

bool KernelCache::store(const std::string &key, const std::string &name,
                        const ArtifactMap &artifacts, bool replace,
                        std::string &error) const {
  std::error_code ec;
  fs::create_directories(root, ec);
  fs::path temp = fs::path(root) / (".tmp-" + key + "-" + uniqueSuffix());
  if (!fs::create_directory(temp, ec)) {
    error = "cannot create cache directory " + temp.string() + ": " +
            ec.message();
    return false;
  }
  std::string manifest;
  for (const auto &artifact : artifacts) {
    manifest += artifact.first + " " + std::to_string(artifact.second.size()) +
                " " + sha256Hex(artifact.second) + "\n";
    if (!writeFile(temp / (name + "." + artifact.first), artifact.second,
                   error)) {
      fs::remove_all(temp, ec);
      return false;
    }
  }
  if (!writeFile(temp / manifestName, manifest, error)) {
    fs::remove_all(temp, ec);
    return false;
  }
  fs::path entry = entryPath(key);
  std::string reason;
  // Retried because concurrent writers of the same key can move the entry
  // between our checks; each attempt is one atomic rename.
  for (int attempt = 0; attempt < 16; ++attempt) {
    fs::path trash;
    if (replace && fs::exists(entry, ec)) {
      // Move the old entry aside first: rename() onto a non-empty directory
      // fails, and readers must never see a half-deleted entry. It is
      // deleted only after ours is in place, to keep the gap short.
      trash = fs::path(root) / (".old-" + key + "-" + uniqueSuffix());
      fs::rename(entry, trash, ec);
    }
    fs::rename(temp, entry, ec);
    bool stored = !ec;
    reason = ec.message();
    if (!trash.empty())
      fs::remove_all(trash, ec);
    if (stored)
      return true;
    // Another process stored the same key meanwhile; its entry is as good.
    if (fs::exists(entry / manifestName, ec)) {
      fs::remove_all(temp, ec);
      return true;
    }
  }
  fs::remove_all(temp, ec);
  error = "cannot rename cache entry into " + entry.string() + ": " + reason;
  return false;
}

bool txl::dumpArtifacts(const std::string &directory, const std::string &name,
                        const ArtifactMap &artifacts, std::string &error) {
  std::error_code ec;
  fs::create_directories(directory, ec);
  for (const auto &artifact : artifacts)
    if (!writeFile(fs::path(directory) / (name + "." + artifact.first),
                   artifact.second, error))
      return false;
  return true;
}

bool txl::envFlag(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && std::string(value) != "0";
}
