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
