//===- RuntimeCppWrapperTest.cpp - txl.hpp over the C API -----------------===//
#include "RuntimeTestUtil.h"

#include "txl/txl.hpp"

#include <gtest/gtest.h>

using txl::test::ScopedEnv;
using txl::test::TempDir;

namespace {
const char *source = "def add(x, y, out, n):\n    pass\n";
}

TEST(RuntimeCppWrapper, CompileQueryAndMove) {
  TempDir cache;
  ScopedEnv env("TXL_CACHE_DIR", cache.str());
  txl::Kernel kernel = txl::Kernel::compile(
      source, "a.py", "add", "*fp32:16,*fp32:16,*fp32:16,i32",
      R"({"num_warps": 8})");
  EXPECT_EQ(kernel.numParams(), 4);
  EXPECT_NE(kernel.artifact("ptx").find(".entry add"), std::string::npos);
  EXPECT_TRUE(kernel.hasArtifact("llir"));
  EXPECT_FALSE(kernel.hasArtifact("cubin"));
  EXPECT_NE(kernel.metadata().find("\"num_warps\":8"), std::string::npos);
  txl::Kernel moved = std::move(kernel);
  EXPECT_EQ(kernel.get(), nullptr);
  EXPECT_EQ(moved.numParams(), 4);
  EXPECT_EQ(txl::cacheDir(), cache.str());
}

TEST(RuntimeCppWrapper, ErrorsThrowWithStatusAndMessage) {
  TempDir cache;
  ScopedEnv env("TXL_CACHE_DIR", cache.str());
  try {
    txl::Kernel::compile(source, "a.py", "nope", "i32");
    FAIL() << "expected txl::Error";
  } catch (const txl::Error &e) {
    EXPECT_EQ(e.status(), TXL_ERROR_COMPILE);
    EXPECT_NE(std::string(e.what()).find("a.py:1:1: error"), std::string::npos);
  }
  EXPECT_THROW(txl::Kernel::compile(source, "a.py", "add", "*what"), txl::Error);
  EXPECT_THROW(txl::makeTensorMap(nullptr, {1, 2}, {}, {1, 2}, "fp16", 0),
               txl::Error);
  txl::Kernel kernel =
      txl::Kernel::compile(source, "a.py", "add", "*fp32,*fp32,*fp32,i32");
  float *p = nullptr;
  int n = 0;
  // Three values for four parameters: rejected before the driver is used.
  try {
    kernel.launch({1, 1, 1}, nullptr, p, p, n);
    FAIL() << "expected txl::Error";
  } catch (const txl::Error &e) {
    EXPECT_EQ(e.status(), TXL_ERROR_INVALID_ARGUMENT);
  }
}
