//===- RuntimeCApiTest.cpp - The C API's contract (fake pipeline) ---------===//
#include "RuntimeTestUtil.h"

#include "txl/Runtime/CudaDriver.h"
#include "txl/txl.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

using txl::test::ScopedEnv;
using txl::test::TempDir;

namespace {
const char *source = "@txl.jit\ndef add(x, y, out, n, BLOCK: tl.constexpr):\n"
                     "    pass\n";
const char *signature = "*fp32:16, *fp32:16, *fp32:16, i32, 1024";

std::string lastError() { return txl_last_error(); }

bool haveDriver() {
  std::string error;
  return txl::cuda::getDriver(error) != nullptr;
}

/// Compiles `add` into a private cache directory.
class RuntimeCApi : public ::testing::Test {
protected:
  TempDir cache;
  ScopedEnv cacheEnv{"TXL_CACHE_DIR", cache.str()};
};
} // namespace

TEST_F(RuntimeCApi, NullArgumentsAreErrorsNotCrashes) {
  txl_kernel *k = nullptr;
  EXPECT_EQ(txl_compile(nullptr, "f.py", "add", signature, nullptr, &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("required"), std::string::npos);
  EXPECT_EQ(txl_compile(source, "f.py", nullptr, signature, nullptr, &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(txl_compile(source, "f.py", "add", nullptr, nullptr, &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(txl_compile(source, "f.py", "add", signature, nullptr, nullptr),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(txl_kernel_metadata(nullptr), nullptr);
  const char *data = nullptr;
  EXPECT_EQ(txl_kernel_artifact(nullptr, "ptx", &data, nullptr),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_LT(txl_kernel_num_params(nullptr), 0);
  EXPECT_EQ(txl_launch(nullptr, 1, 1, 1, nullptr, nullptr, 0),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(txl_kernel_load(nullptr), TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(txl_device_capability(nullptr, nullptr), TXL_ERROR_INVALID_ARGUMENT);
  txl_kernel_free(nullptr);
}

TEST_F(RuntimeCApi, BadSignatureReportsTheText) {
  txl_kernel *k = nullptr;
  EXPECT_EQ(txl_compile(source, "f.py", "add", "*fp32:16,*bogus,i32", nullptr, &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(k, nullptr);
  EXPECT_NE(lastError().find("bad signature '*fp32:16,*bogus,i32'"),
            std::string::npos)
      << lastError();
  EXPECT_NE(lastError().find("bogus"), std::string::npos);
}

TEST_F(RuntimeCApi, BadOptionsAndKernelNames) {
  txl_kernel *k = nullptr;
  EXPECT_EQ(txl_compile(source, "f.py", "add", signature, "{\"num_warp\": 4}", &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("num_warp"), std::string::npos);
  EXPECT_EQ(txl_compile(source, "f.py", "add", signature, "not json", &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(txl_compile(source, "f.py", "../../etc/passwd", signature, nullptr, &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("identifier"), std::string::npos);
}

TEST_F(RuntimeCApi, CompileErrorCarriesDiagnostics) {
  txl_kernel *k = nullptr;
  EXPECT_EQ(txl_compile(source, "f.py", "missing", signature, nullptr, &k),
            TXL_ERROR_COMPILE);
  EXPECT_EQ(k, nullptr);
  EXPECT_NE(lastError().find("f.py:1:1: error:"), std::string::npos);
}

TEST_F(RuntimeCApi, CompileThenQuery) {
  txl_kernel *k = nullptr;
  ASSERT_EQ(txl_compile(source, "f.py", "add", signature,
                        "{\"num_warps\": 2, \"target\": \"sm_80\"}", &k),
            TXL_SUCCESS)
      << lastError();
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(txl_kernel_num_params(k), 4); // the constexpr is not a parameter
  auto metadata = llvm::json::parse(txl_kernel_metadata(k));
  ASSERT_TRUE(bool(metadata));
  const llvm::json::Object *object = metadata->getAsObject();
  EXPECT_EQ(object->getString("name"), "add");
  EXPECT_EQ(object->getString("target"), "sm_80");
  EXPECT_EQ(object->getInteger("num_warps"), 2);
  EXPECT_EQ(object->getBoolean("cache_hit"), false);
  EXPECT_EQ(object->getArray("params")->size(), 4u);
  const char *data = nullptr;
  size_t size = 0;
  ASSERT_EQ(txl_kernel_artifact(k, "ptx", &data, &size), TXL_SUCCESS);
  EXPECT_EQ(std::string(data).size(), size);
  EXPECT_NE(std::string(data).find(".entry add"), std::string::npos);
  EXPECT_EQ(txl_kernel_artifact(k, "cubin", &data, &size), TXL_ERROR_NOT_FOUND);
  EXPECT_EQ(txl_kernel_artifact(k, "exe", &data, &size), TXL_ERROR_NOT_FOUND);
  // Wrong argument count is caught before touching the driver.
  EXPECT_EQ(txl_launch(k, 1, 1, 1, nullptr, nullptr, 3),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("takes 4"), std::string::npos);
  txl_launch_packet packet = {k, nullptr, {1, 1, 1}, 2, nullptr};
  EXPECT_EQ(txl_launch_packed(&packet), TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("takes 4"), std::string::npos);
  EXPECT_EQ(txl_launch_packed(nullptr), TXL_ERROR_INVALID_ARGUMENT);
  txl_kernel_free(k);

  ASSERT_EQ(txl_compile(source, "f.py", "add", signature,
                        "{\"num_warps\": 2, \"target\": \"sm_80\"}", &k),
            TXL_SUCCESS);
  EXPECT_NE(std::string(txl_kernel_metadata(k)).find("\"cache_hit\":true"),
            std::string::npos);
  txl_kernel_free(k);
}

TEST_F(RuntimeCApi, LaunchWithoutDriverFailsCleanly) {
  if (haveDriver())
    GTEST_SKIP() << "a CUDA driver is present";
  txl_kernel *k = nullptr;
  ASSERT_EQ(txl_compile(source, "f.py", "add", signature, nullptr, &k),
            TXL_SUCCESS);
  float x = 0;
  int n = 1;
  void *px = &x;
  void *args[] = {&px, &px, &px, &n};
  EXPECT_EQ(txl_launch(k, 1, 1, 1, nullptr, args, 4), TXL_ERROR_NO_DRIVER);
  EXPECT_NE(lastError().find("CUDA driver"), std::string::npos);
  EXPECT_EQ(txl_kernel_load(k), TXL_ERROR_NO_DRIVER);
  int major = 0, minor = 0;
  EXPECT_EQ(txl_device_capability(&major, &minor), TXL_ERROR_NO_DRIVER);
  txl_kernel_free(k);
}

TEST_F(RuntimeCApi, TensorMapArgumentsAreValidated) {
  alignas(64) unsigned char map[128];
  alignas(16) static unsigned char buffer[1 << 16];
  uint64_t dims[2] = {64, 64};
  uint64_t strides[1] = {128};
  uint32_t box[2] = {64, 64};
  EXPECT_EQ(txl_make_tensor_map(map, buffer, 2, dims, strides, box, "fp4", 128),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("dtype"), std::string::npos);
  EXPECT_EQ(txl_make_tensor_map(map, buffer, 2, dims, strides, box, "fp16", 48),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(txl_make_tensor_map(map, buffer, 0, dims, strides, box, "fp16", 0),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(txl_make_tensor_map(map, buffer + 1, 2, dims, strides, box, "fp16", 0),
            TXL_ERROR_INVALID_ARGUMENT);
  uint64_t oddStride[1] = {100};
  EXPECT_EQ(txl_make_tensor_map(map, buffer, 2, dims, oddStride, box, "fp16", 0),
            TXL_ERROR_INVALID_ARGUMENT);
  uint32_t bigBox[2] = {512, 64};
  EXPECT_EQ(txl_make_tensor_map(map, buffer, 2, dims, strides, bigBox, "fp16", 0),
            TXL_ERROR_INVALID_ARGUMENT);
  // 64 fp16 = 128 bytes fits a 128-byte swizzle but not a 64-byte one.
  EXPECT_EQ(txl_make_tensor_map(map, buffer, 2, dims, strides, box, "fp16", 64),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("swizzle"), std::string::npos);
  int status = txl_make_tensor_map(map, buffer, 2, dims, strides, box, "fp16", 128);
  EXPECT_EQ(status, haveDriver() ? TXL_ERROR_CUDA : TXL_ERROR_NO_DRIVER)
      << "host memory is not a valid TMA global address";
}

TEST_F(RuntimeCApi, LastErrorIsPerThread) {
  txl_kernel *k = nullptr;
  txl_compile(nullptr, nullptr, nullptr, nullptr, nullptr, &k);
  std::string mine = lastError();
  EXPECT_FALSE(mine.empty());
  std::string theirs = "unset";
  std::thread([&] { theirs = txl_last_error(); }).join();
  EXPECT_EQ(theirs, "");
  EXPECT_EQ(lastError(), mine);
}

TEST_F(RuntimeCApi, VersionAndCacheDir) {
  EXPECT_NE(std::string(txl_version()).find("fake-0"), std::string::npos);
  EXPECT_EQ(std::string(txl_cache_dir()), cache.str());
}

// A kernel rebuilt from its artifacts (what AOT launchers and libtxlrt do)
// has the compiled kernel's metadata and parameters, and no compiler runs.
TEST_F(RuntimeCApi, KernelFromArtifactsMatchesTheCompiledOne) {
  txl_kernel *compiled = nullptr;
  ASSERT_EQ(txl_compile(source, "f.py", "add", signature, nullptr, &compiled),
            TXL_SUCCESS)
      << lastError();
  const char *json = nullptr, *ptx = nullptr;
  ASSERT_EQ(txl_kernel_artifact(compiled, "json", &json, nullptr), TXL_SUCCESS);
  ASSERT_EQ(txl_kernel_artifact(compiled, "ptx", &ptx, nullptr), TXL_SUCCESS);
  txl_kernel *loaded = nullptr;
  ASSERT_EQ(txl_kernel_from_artifacts(json, nullptr, 0, ptx, &loaded),
            TXL_SUCCESS)
      << lastError();
  EXPECT_EQ(txl_kernel_num_params(loaded), txl_kernel_num_params(compiled));
  const char *again = nullptr;
  ASSERT_EQ(txl_kernel_artifact(loaded, "ptx", &again, nullptr), TXL_SUCCESS);
  EXPECT_STREQ(again, ptx);
  auto metadata = llvm::json::parse(txl_kernel_metadata(loaded));
  ASSERT_TRUE(bool(metadata));
  EXPECT_EQ(metadata->getAsObject()->getString("name"), "add");
  txl_kernel_free(loaded);
  txl_kernel_free(compiled);
}

TEST_F(RuntimeCApi, KernelFromArtifactsRejectsBadInput) {
  txl_kernel *k = nullptr;
  EXPECT_EQ(txl_kernel_from_artifacts(nullptr, nullptr, 0, "ptx", &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(txl_kernel_from_artifacts("{}", nullptr, 0, nullptr, &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(txl_kernel_from_artifacts("not json", nullptr, 0, "ptx", &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("metadata"), std::string::npos) << lastError();
  EXPECT_EQ(txl_kernel_from_artifacts("{\"name\": \"k\"}", nullptr, 0, "ptx",
                                      &k),
            TXL_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(k, nullptr);
}
