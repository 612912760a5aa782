//===- RuntimeTestUtil.h - Temp dirs and env for runtime tests -*- C++ -*-===//
#ifndef TXL_TEST_UNIT_RUNTIMETESTUTIL_H
#define TXL_TEST_UNIT_RUNTIMETESTUTIL_H

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <unistd.h>

namespace txl {
namespace test {

/// A fresh directory removed at scope exit.
class TempDir {
public:
  TempDir() {
    std::random_device device;
    path = std::filesystem::temp_directory_path() /
           ("txl-runtime-test-" + std::to_string(::getpid()) + "-" +
            std::to_string(device()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string str() const { return path.string(); }
  std::filesystem::path path;
};

/// Sets an environment variable for the scope, restoring it afterwards.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const std::string &value) : name(name) {
    if (const char *old = std::getenv(name)) {
      hadOld = true;
      oldValue = old;
    }
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (hadOld)
      ::setenv(name, oldValue.c_str(), 1);
    else
      ::unsetenv(name);
  }

private:
  const char *name;
  bool hadOld = false;
  std::string oldValue;
};

} // namespace test
} // namespace txl

#endif
