//===- RuntimeMetadataTest.cpp - Metadata parsing and options JSON --------===//
#include "RuntimeTestUtil.h"

#include "txl/Runtime/Kernel.h"
#include "txl/Runtime/Metadata.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace txl;

TEST(RuntimeMetadata, ParsesSnakeCase) {
  CompiledKernel k;
  std::string error;
  ASSERT_TRUE(parseKernelMetadata(
      R"({"name":"mm","target":"sm_90a","num_warps":4,"num_warpgroups":3,
          "shared_bytes":132096,"cluster_dims":[2,1,1],
          "cubin_producer":"nvjitlink",
          "params":[{"name":"a","type":"ptr","size":8},
                    {"name":"desc","type":"tensormap","size":128},
                    {"name":"n","type":"i32","size":4}]})",
      k, error))
      << error;
  EXPECT_EQ(k.name, "mm");
  EXPECT_EQ(k.numWarpgroups, 3);
  EXPECT_EQ(k.sharedBytes, 132096);
  EXPECT_EQ(k.clusterDims[0], 2);
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[1].sizeBytes, 128);
  EXPECT_EQ(k.cubinProducer, "nvjitlink");
}

TEST(RuntimeMetadata, ParsesCamelCaseAndDefaults) {
  CompiledKernel k;
  std::string error;
  ASSERT_TRUE(parseKernelMetadata(
      R"({"name":"f","numWarps":8,"sharedBytes":100,"clusterDims":[1,2,1],
          "params":[{"name":"p","type":"ptr"},{"name":"x","type":"fp32","sizeBytes":4}]})",
      k, error))
      << error;
  EXPECT_EQ(k.numWarps, 8);
  EXPECT_EQ(k.numWarpgroups, 1);
  EXPECT_EQ(k.sharedBytes, 100);
  EXPECT_EQ(k.clusterDims[1], 2);
  EXPECT_EQ(k.params[0].sizeBytes, 8);
  EXPECT_EQ(k.params[1].sizeBytes, 4);
}

TEST(RuntimeMetadata, RejectsBrokenMetadata) {
  CompiledKernel k;
  std::string error;
  EXPECT_FALSE(parseKernelMetadata("{", k, error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(parseKernelMetadata("[1]", k, error));
  EXPECT_FALSE(parseKernelMetadata(R"({"name":"f","params":[]})", k, error));
  EXPECT_FALSE(parseKernelMetadata(R"({"name":"f","num_warps":4})", k, error));
  EXPECT_FALSE(parseKernelMetadata(
      R"({"name":"f","num_warps":4,"params":[{"name":"x","type":"i32"}]})", k,
      error));
}

TEST(RuntimeMetadata, CanonicalJsonKeepsProducerKeysAndRoundTrips) {
  CompiledKernel k;
  k.name = "f";
  k.target = "sm_90a";
  k.numWarps = 4;
  k.numWarpgroups = 2;
  k.sharedBytes = 70000;
  k.clusterDims[2] = 2;
  k.params = {{"a", "ptr", 8}, {"n", "i64", 8}};
  k.cubinProducer = "ptxas";
  std::string text = canonicalMetadataJson(
      R"({"numWarps":4,"extra":{"tma":[1]},"name":"stale"})", k, "abc", true);
  auto parsed = llvm::json::parse(text);
  ASSERT_TRUE(bool(parsed));
  const llvm::json::Object *object = parsed->getAsObject();
  ASSERT_TRUE(object);
  EXPECT_TRUE(object->get("extra"));
  EXPECT_EQ(object->getString("name"), "f");
  EXPECT_EQ(object->getString("cache_key"), "abc");
  EXPECT_EQ(object->getBoolean("cache_hit"), true);
  CompiledKernel reread;
  std::string error;
  ASSERT_TRUE(parseKernelMetadata(text, reread, error)) << error;
  EXPECT_TRUE(sameLaunchFields(k, reread));
  reread.params[1].type = "i32";
  EXPECT_FALSE(sameLaunchFields(k, reread));
}

namespace {
/// A kernel with a pointer, a TMA descriptor (fp16 64x128 block copied as
/// two 64-column boxes with the 128-byte swizzle) and a scalar.
CompiledKernel descriptorKernel() {
  CompiledKernel k;
  k.name = "tma";
  k.target = "sm_90a";
  k.numWarps = 4;
  LaunchParam desc;
  desc.name = "a_desc";
  desc.type = "tensordesc";
  desc.sizeBytes = 128;
  desc.elementType = "fp16";
  desc.block = {64, 128};
  desc.box = {64, 64};
  desc.swizzleBytes = 128;
  k.params = {{"p", "ptr", 8}, desc, {"n", "i32", 4}};
  return k;
}
} // namespace

TEST(RuntimeMetadata, TensorDescParamRoundTrips) {
  CompiledKernel k = descriptorKernel();
  std::string text = canonicalMetadataJson("", k, "key", false);
  // The canonical JSON spells the descriptor fields out...
  auto parsed = llvm::json::parse(text);
  ASSERT_TRUE(bool(parsed)) << text;
  const llvm::json::Array *params = parsed->getAsObject()->getArray("params");
  ASSERT_TRUE(params && params->size() == 3) << text;
  const llvm::json::Object *d = (*params)[1].getAsObject();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->getString("type"), "tensordesc");
  EXPECT_EQ(d->getInteger("size"), 128);
  EXPECT_EQ(d->getString("dtype"), "fp16");
  EXPECT_EQ(d->getInteger("swizzle"), 128);
  ASSERT_TRUE(d->getArray("block") && d->getArray("box"));
  auto ints = [](const llvm::json::Array &array) {
    std::vector<int64_t> out;
    for (const llvm::json::Value &v : array)
      out.push_back(v.getAsInteger().value_or(-1));
    return out;
  };
  EXPECT_EQ(ints(*d->getArray("block")), (std::vector<int64_t>{64, 128}));
  EXPECT_EQ(ints(*d->getArray("box")), (std::vector<int64_t>{64, 64}));
  // ...and only for descriptors.
  const llvm::json::Object *n = (*params)[2].getAsObject();
  EXPECT_FALSE(n->get("box"));
  EXPECT_FALSE(n->get("dtype"));
  // ...and reading it back gives the same launch parameters.
  CompiledKernel reread;
  std::string error;
  ASSERT_TRUE(parseKernelMetadata(text, reread, error)) << error;
  ASSERT_EQ(reread.params.size(), 3u);
  const LaunchParam &r = reread.params[1];
  EXPECT_EQ(r.type, "tensordesc");
  EXPECT_EQ(r.sizeBytes, 128);
  EXPECT_EQ(r.elementType, "fp16");
  EXPECT_EQ(r.block, (std::vector<int64_t>{64, 128}));
  EXPECT_EQ(r.box, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(r.swizzleBytes, 128);
  EXPECT_TRUE(reread.params[2].box.empty());
  EXPECT_TRUE(sameLaunchFields(k, reread));
  // A second round trip is a fixed point.
  EXPECT_EQ(canonicalMetadataJson("", reread, "key", false), text);
}

TEST(RuntimeMetadata, TensorDescFieldsTakePartInSameLaunchFields) {
  CompiledKernel k = descriptorKernel();
  auto differs = [&](auto mutate) {
    CompiledKernel other = descriptorKernel();
    mutate(other.params[1]);
    return !sameLaunchFields(k, other);
  };
  EXPECT_TRUE(differs([](LaunchParam &p) { p.box = {64, 128}; }));
  EXPECT_TRUE(differs([](LaunchParam &p) { p.swizzleBytes = 64; }));
  EXPECT_TRUE(differs([](LaunchParam &p) { p.elementType = "bf16"; }));
  EXPECT_FALSE(differs([](LaunchParam &) {}));
}

// In-kernel TMA descriptors: the per-program global scratch survives the
// producer JSON, the canonical JSON and the cache comparison; absent, it
// is 0 (no hidden parameter); negative, the metadata is rejected.
TEST(RuntimeMetadata, GlobalScratchBytesRoundTrips) {
  CompiledKernel k;
  k.name = "make_desc";
  k.numWarps = 4;
  k.globalScratchBytes = 384;
  k.params.push_back(LaunchParam{"x", "ptr", 8});
  CompiledKernel back;
  std::string error;
  ASSERT_TRUE(parseKernelMetadata(k.metadataJson(), back, error)) << error;
  EXPECT_EQ(back.globalScratchBytes, 384);
  EXPECT_TRUE(sameLaunchFields(k, back));
  CompiledKernel canonical;
  ASSERT_TRUE(parseKernelMetadata(
      canonicalMetadataJson(k.metadataJson(), back, "key", false), canonical,
      error))
      << error;
  EXPECT_EQ(canonical.globalScratchBytes, 384);
  back.globalScratchBytes = 0;
  EXPECT_FALSE(sameLaunchFields(k, back));

  CompiledKernel none;
  ASSERT_TRUE(parseKernelMetadata(
      R"({"name":"f","num_warps":4,"params":[]})", none, error))
      << error;
  EXPECT_EQ(none.globalScratchBytes, 0);
  EXPECT_FALSE(parseKernelMetadata(
      R"({"name":"f","num_warps":4,"global_scratch_bytes":-1,"params":[]})",
      none, error));
}

TEST(RuntimeMetadata, TensorDescEntryNeedsAllItsFields) {
  // Each variant drops or breaks one descriptor field; the host could not
  // encode the CUtensorMap from it, so the metadata is rejected.
  const char *full = R"("dtype":"fp16","block":[64,128],"box":[64,64],"swizzle":128)";
  const char *broken[] = {
      R"("block":[64,128],"box":[64,64],"swizzle":128)",
      R"("dtype":"fp16","box":[64,64],"swizzle":128)",
      R"("dtype":"fp16","block":[64,128],"swizzle":128)",
      R"("dtype":"fp16","block":[64,128],"box":[64,64])",
      R"("dtype":"fp16","block":[64,128],"box":[64,"64"],"swizzle":128)",
      R"("dtype":"fp16","block":[64,128],"box":64,"swizzle":128)",
      R"("dtype":16,"block":[64,128],"box":[64,64],"swizzle":128)",
  };
  auto metadata = [](const std::string &fields) {
    return R"({"name":"tma","num_warps":4,"params":[{"name":"p","type":"ptr","size":8},)"
           R"({"name":"a_desc","type":"tensordesc","size":128,)" +
           fields + "}]}";
  };
  CompiledKernel k;
  std::string error;
  ASSERT_TRUE(parseKernelMetadata(metadata(full), k, error)) << error;
  EXPECT_EQ(k.params[1].box, (std::vector<int64_t>{64, 64}));
  for (const char *fields : broken) {
    CompiledKernel bad;
    std::string message;
    EXPECT_FALSE(parseKernelMetadata(metadata(fields), bad, message)) << fields;
    EXPECT_NE(message.find("tensor descriptor param 'a_desc'"),
              std::string::npos)
        << fields << ": " << message;
  }
}

TEST(RuntimeOptions, ParsesEveryOption) {
  CompileOptions options;
  std::string error;
  ASSERT_TRUE(parseCompileOptions(
      R"({"num_warps":8,"num_warpgroups":3,"num_stages":4,"num_ctas":2,
          "maxnreg":232,"target":"sm_100a","line_info":false,
          "globals":{"BLOCK":"128","DT":"tl.float16","F":1.5,"B":true,"I":7}})",
      options, error))
      << error;
  EXPECT_EQ(options.numWarps, 8);
  EXPECT_EQ(options.numWarpgroups, 3);
  EXPECT_EQ(options.numStages, 4);
  EXPECT_EQ(options.numCtas, 2);
  EXPECT_EQ(options.maxnreg, 232);
  EXPECT_EQ(options.target, "sm_100a");
  EXPECT_FALSE(options.lineInfo);
  EXPECT_EQ(options.globals["BLOCK"], "128");
  EXPECT_EQ(options.globals["DT"], "tl.float16");
  EXPECT_EQ(options.globals["F"], "1.5");
  EXPECT_EQ(options.globals["B"], "True");
  EXPECT_EQ(options.globals["I"], "7");
}

TEST(RuntimeOptions, AutoTargetIsTheDeviceOrSm90a) {
  std::string driverError;
  bool haveDriver = cuda::getDriver(driverError) != nullptr;
  for (const char *text : {"", R"({"target":"auto"})"}) {
    CompileOptions options;
    std::string error;
    ASSERT_TRUE(parseCompileOptions(text, options, error)) << error;
    if (haveDriver)
      EXPECT_EQ(options.target, cuda::currentDeviceTarget());
    else
      EXPECT_EQ(options.target, "sm_90a");
  }
}

TEST(RuntimeOptions, RejectsBadOptions) {
  const char *bad[] = {"[1]",
                       "{",
                       R"({"num_warp":4})",
                       R"({"num_warps":0})",
                       R"({"num_warps":3})",
                       R"({"num_warps":"4"})",
                       R"({"target":"hopper"})",
                       R"({"globals":[1]})",
                       R"({"globals":{"A":[1]}})",
                       R"({"line_info":1})"};
  for (const char *text : bad) {
    CompileOptions options;
    std::string error;
    EXPECT_FALSE(parseCompileOptions(text, options, error)) << text;
    EXPECT_FALSE(error.empty()) << text;
  }
}
