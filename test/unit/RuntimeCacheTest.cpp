//===- RuntimeCacheTest.cpp - Disk cache: keys, atomic writes, env --------===//
#include "FakePipeline.h"
#include "RuntimeTestUtil.h"

#include "txl/Runtime/Cache.h"
#include "txl/Runtime/Kernel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <random>
#include <thread>

using namespace txl;
using txl::test::ScopedEnv;
using txl::test::TempDir;
namespace fs = std::filesystem;

namespace {
const char *kernelSource = "import txl\n@txl.jit\ndef add(x, y, out, n):\n"
                           "    pass\n";

CompileOptions addOptions() {
  CompileOptions options;
  options.kernelName = "add";
  std::string error;
  EXPECT_TRUE(parseSignature("*fp32:16,*fp32:16,*fp32:16,i32", options.signature,
                             error));
  return options;
}

std::string randomBytes(std::mt19937 &rng, size_t size) {
  std::string bytes(size, '\0');
  for (char &c : bytes)
    c = char(rng());
  return bytes;
}
} // namespace

TEST(RuntimeCache, KeyIsSensitiveToEveryInput) {
  CompileOptions base = addOptions();
  std::string key = computeCacheKey("v1", kernelSource, "k.py", base);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key, computeCacheKey("v1", kernelSource, "k.py", base));
  EXPECT_NE(key, computeCacheKey("v2", kernelSource, "k.py", base));
  EXPECT_NE(key, computeCacheKey("v1", std::string(kernelSource) + " ",
                                 "k.py", base));
  EXPECT_NE(key, computeCacheKey("v1", kernelSource, "j.py", base));
  auto changed = [&](auto mutate) {
    CompileOptions options = base;
    mutate(options);
    return computeCacheKey("v1", kernelSource, "k.py", options);
  };
  EXPECT_NE(key, changed([](CompileOptions &o) { o.kernelName = "add2"; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.target = "sm_80"; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.numWarps = 8; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.numWarpgroups = 2; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.numStages = 4; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.numCtas = 2; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.maxnreg = 232; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.lineInfo = false; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.signature[3].divisibility = 16; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.signature[3].equalsOne = true; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.signature[0].type = "fp16"; }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.signature.pop_back(); }));
  EXPECT_NE(key, changed([](CompileOptions &o) { o.globals["B"] = "1"; }));
  // dumpIR only prints; it must not split the cache.
  EXPECT_EQ(key, changed([](CompileOptions &o) { o.dumpIR = true; }));
}

// tensordesc<fp16[64, 128]> and tensordesc<fp16[128, 64]> compile to
// different kernels (buffer shapes, boxes), so they must not share a cache
// entry; the block's rank counts too.
TEST(RuntimeCache, KeyIsSensitiveToTensorDescBlocks) {
  auto keyFor = [](std::vector<int64_t> block, const char *type = "fp16") {
    CompileOptions options;
    options.kernelName = "tma";
    ArgSpec desc;
    desc.kind = ArgSpec::Kind::TensorDesc;
    desc.type = type;
    desc.block = std::move(block);
    ArgSpec n;
    n.type = "i32";
    options.signature = {desc, n};
    return computeCacheKey("v1", kernelSource, "k.py", options);
  };
  std::string key = keyFor({64, 128});
  EXPECT_EQ(key, keyFor({64, 128}));
  EXPECT_NE(key, keyFor({128, 64}));
  EXPECT_NE(key, keyFor({64, 64}));
  EXPECT_NE(key, keyFor({64, 128, 1}));
  EXPECT_NE(key, keyFor({1, 64, 128}));
  EXPECT_NE(key, keyFor({64, 128}, "bf16"));
  // Digits do not run together across dimensions.
  EXPECT_NE(keyFor({6, 4128}), keyFor({64, 128}));
  EXPECT_NE(keyFor({641, 28}), keyFor({64, 128}));
}

// Field boundaries are length-prefixed: moving text between two fields
// changes the key.
TEST(RuntimeCache, KeyFieldsDoNotRunTogether) {
  CompileOptions options = addOptions();
  CompileOptions moved = options;
  options.globals["ab"] = "c";
  moved.globals["a"] = "bc";
  EXPECT_NE(computeCacheKey("v", "s", "f", options),
            computeCacheKey("v", "s", "f", moved));
  EXPECT_NE(computeCacheKey("v", "ab", "c", options),
            computeCacheKey("v", "a", "bc", options));
}

TEST(RuntimeCache, StoreThenLoadRoundTripsRandomBytes) {
  TempDir dir;
  KernelCache cache(dir.str());
  std::mt19937 rng(7);
  ArtifactMap artifacts;
  for (const std::string &kind : artifactKinds())
    artifacts[kind] = randomBytes(rng, 1 + rng() % 5000);
  std::string error;
  ASSERT_TRUE(cache.store("k1", "add", artifacts, false, error)) << error;
  ArtifactMap loaded;
  ASSERT_TRUE(cache.load("k1", "add", loaded));
  EXPECT_EQ(loaded, artifacts);
  EXPECT_TRUE(fs::exists(dir.path / "k1" / "add.cubin"));
  EXPECT_FALSE(cache.load("k2", "add", loaded));
  EXPECT_FALSE(cache.load("k1", "other", loaded));
  // No temporary directories are left behind.
  for (const auto &entry : fs::directory_iterator(dir.path))
    EXPECT_EQ(entry.path().filename(), "k1");
}

/// Overwrites `path` with bytes of the same length, one flipped bit each.
void corruptSameSize(const fs::path &path, size_t at) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(std::streamoff(at));
  char c = 0;
  f.get(c);
  f.seekp(std::streamoff(at));
  f.put(char(c ^ 0x10));
}

// A same-size corruption of any artifact (a flipped bit in the cubin or
// the PTX) is a miss, not a hit with the wrong code; the caller then
// recompiles and replaces the entry.
TEST(RuntimeCache, CorruptedArtifactOfTheSameSizeIsAMiss) {
  for (const char *kind : {"ptx", "cubin", "json"}) {
    TempDir dir;
    KernelCache cache(dir.str());
    std::mt19937 rng(11);
    ArtifactMap artifacts;
    for (const std::string &k : artifactKinds())
      artifacts[k] = randomBytes(rng, 100 + rng() % 5000);
    std::string error;
    ASSERT_TRUE(cache.store("key", "kern", artifacts, false, error)) << error;
    fs::path file = dir.path / "key" / (std::string("kern.") + kind);
    uintmax_t size = fs::file_size(file);
    corruptSameSize(file, size_t(rng() % size));
    ASSERT_EQ(fs::file_size(file), size);
    ArtifactMap loaded;
    EXPECT_FALSE(cache.load("key", "kern", loaded)) << kind;
    EXPECT_TRUE(loaded.empty());
    ASSERT_TRUE(cache.store("key", "kern", artifacts, true, error)) << error;
    ASSERT_TRUE(cache.load("key", "kern", loaded)) << kind;
    EXPECT_EQ(loaded, artifacts);
  }
}

// An entry written before manifests carried hashes ("kind size" lines)
// is not trusted.
TEST(RuntimeCache, ManifestWithoutHashesIsAMiss) {
  TempDir dir;
  KernelCache cache(dir.str());
  std::string error;
  ASSERT_TRUE(cache.store("key", "kern", {{"json", "{}"}, {"ptx", "abc"}},
                          false, error));
  {
    std::ofstream manifest(dir.path / "key" / "MANIFEST", std::ios::trunc);
    manifest << "json 2\nptx 3\n";
  }
  ArtifactMap loaded;
  EXPECT_FALSE(cache.load("key", "kern", loaded));
}

TEST(RuntimeCache, ExistingEntryWinsUnlessReplaced) {
  TempDir dir;
  KernelCache cache(dir.str());
  std::string error;
  ASSERT_TRUE(cache.store("k", "f", {{"json", "first"}}, false, error));
  ASSERT_TRUE(cache.store("k", "f", {{"json", "second"}}, false, error));
  ArtifactMap loaded;
  ASSERT_TRUE(cache.load("k", "f", loaded));
  EXPECT_EQ(loaded["json"], "first");
  ASSERT_TRUE(cache.store("k", "f", {{"json", "third"}}, true, error));
  ASSERT_TRUE(cache.load("k", "f", loaded));
  EXPECT_EQ(loaded["json"], "third");
}

// Writers race on one key while readers poll it: a reader sees no entry or
// a complete one, never a mix.
TEST(RuntimeCache, ConcurrentWritersNeverExposeHalfEntries) {
  TempDir dir;
  KernelCache cache(dir.str());
  std::mt19937 rng(99);
  std::string big = randomBytes(rng, 200000);
  std::atomic<bool> done{false};
  std::atomic<int> torn{0};
  std::thread reader([&] {
    while (!done) {
      ArtifactMap loaded;
      if (cache.load("key", "k", loaded) &&
          (loaded["ptx"] != big || loaded["json"] != "{}"))
        ++torn;
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w)
    writers.emplace_back([&, w] {
      for (int i = 0; i < 10; ++i) {
        std::string error;
        EXPECT_TRUE(cache.store("key", "k", {{"ptx", big}, {"json", "{}"}},
                                (i + w) % 2 == 0, error))
            << error;
      }
    });
  for (std::thread &writer : writers)
    writer.join();
  done = true;
  reader.join();
  EXPECT_EQ(torn.load(), 0);
}

TEST(RuntimeCache, DumpWritesEveryArtifact) {
  TempDir dir;
  std::string error;
  ASSERT_TRUE(dumpArtifacts((dir.path / "d" / "e").string(), "k",
                            {{"ptx", "P"}, {"llir", "L"}}, error));
  std::ifstream ptx(dir.path / "d" / "e" / "k.ptx");
  std::string text;
  ptx >> text;
  EXPECT_EQ(text, "P");
  EXPECT_TRUE(fs::exists(dir.path / "d" / "e" / "k.llir"));
}

// RuntimeKernel::compile against the fake pipeline: miss, hit, bypass.
TEST(RuntimeCache, CompileHitsMissesAndAlwaysCompile) {
  TempDir dir;
  ScopedEnv cacheDir("TXL_CACHE_DIR", dir.str());
  CompileOptions options = addOptions();
  options.target = "sm_90a";
  Status status;
  std::string error;
  int before = fake::compileCount;
  auto first = RuntimeKernel::compile(kernelSource, "k.py", options, status, error);
  ASSERT_TRUE(first) << error;
  EXPECT_FALSE(first->cacheHit());
  EXPECT_EQ(fake::compileCount, before + 1);

  auto second = RuntimeKernel::compile(kernelSource, "k.py", options, status, error);
  ASSERT_TRUE(second) << error;
  EXPECT_TRUE(second->cacheHit());
  EXPECT_EQ(fake::compileCount, before + 1);
  EXPECT_EQ(*second->artifact("ptx"), *first->artifact("ptx"));
  EXPECT_EQ(second->info().params.size(), 4u);
  EXPECT_EQ(second->info().cubinProducer, "driver");

  options.numWarps = 8; // a different key
  auto third = RuntimeKernel::compile(kernelSource, "k.py", options, status, error);
  ASSERT_TRUE(third) << error;
  EXPECT_FALSE(third->cacheHit());
  EXPECT_EQ(fake::compileCount, before + 2);

  ScopedEnv always("TXL_ALWAYS_COMPILE", "1");
  auto fourth = RuntimeKernel::compile(kernelSource, "k.py", options, status, error);
  ASSERT_TRUE(fourth) << error;
  EXPECT_FALSE(fourth->cacheHit());
  EXPECT_EQ(fake::compileCount, before + 3);
}

TEST(RuntimeCache, CorruptEntryIsRecompiledAndReplaced) {
  TempDir dir;
  ScopedEnv cacheDir("TXL_CACHE_DIR", dir.str());
  CompileOptions options = addOptions();
  options.target = "sm_90a";
  Status status;
  std::string error;
  auto first = RuntimeKernel::compile(kernelSource, "k.py", options, status, error);
  ASSERT_TRUE(first);
  std::string key = computeCacheKey(compilerVersion(), kernelSource, "k.py", options);
  std::ofstream(dir.path / key / "add.json") << "{ not json";
  int before = fake::compileCount;
  auto second = RuntimeKernel::compile(kernelSource, "k.py", options, status, error);
  ASSERT_TRUE(second) << error;
  EXPECT_FALSE(second->cacheHit());
  EXPECT_EQ(fake::compileCount, before + 1);
  auto third = RuntimeKernel::compile(kernelSource, "k.py", options, status, error);
  ASSERT_TRUE(third);
  EXPECT_TRUE(third->cacheHit());
}

TEST(RuntimeCache, DumpDirReceivesArtifactsOnHitsToo) {
  TempDir dir;
  ScopedEnv cacheDir("TXL_CACHE_DIR", (dir.path / "cache").string());
  ScopedEnv dumpDir("TXL_DUMP_DIR", (dir.path / "dump").string());
  CompileOptions options = addOptions();
  options.target = "sm_90a";
  Status status;
  std::string error;
  for (int round = 0; round < 2; ++round) {
    fs::remove_all(dir.path / "dump");
    ASSERT_TRUE(RuntimeKernel::compile(kernelSource, "k.py", options, status, error));
    for (const char *kind : {"txlir", "txlgir", "llir", "ptx", "json"})
      EXPECT_TRUE(fs::exists(dir.path / "dump" / (std::string("add.") + kind)))
          << kind << " round " << round;
  }
}
