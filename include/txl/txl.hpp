//===- txl.hpp - RAII C++ wrapper over the txl C API -----------*- C++ -*-===//
//
// Header-only; depends on txl.h alone. Errors become txl::Error exceptions
// carrying the C status and txl_last_error()'s message.
//
//   txl::Kernel k = txl::Kernel::compile(src, "add.py", "add",
//                                        "*fp32:16,*fp32:16,*fp32:16,i32,1024",
//                                        R"({"num_warps": 4})");
//   k.launch({blocks, 1, 1}, stream, x, y, out, n);  // values, not pointers
//
//===----------------------------------------------------------------------===//
#ifndef TXL_TXL_HPP
#define TXL_TXL_HPP

#include "txl/txl.h"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace txl {

class Error : public std::runtime_error {
public:
  Error(int status, const std::string &message)
      : std::runtime_error(message), statusCode(status) {}
  /// One of the TXL_ERROR_* codes.
  int status() const { return statusCode; }

private:
  int statusCode;
};

/// Throws txl::Error if `status` is not TXL_SUCCESS.
inline void check(int status) {
  if (status != TXL_SUCCESS)
    throw Error(status, txl_last_error());
}

struct Grid {
  unsigned x = 1, y = 1, z = 1;
};

class Kernel {
public:
  /// See txl_compile for the signature and options formats.
  static Kernel compile(const std::string &source, const std::string &fileName,
                        const std::string &kernelName,
                        const std::string &signature,
                        const std::string &optionsJson = "") {
    txl_kernel *handle = nullptr;
    check(txl_compile(source.c_str(), fileName.c_str(), kernelName.c_str(),
                      signature.c_str(),
                      optionsJson.empty() ? nullptr : optionsJson.c_str(),
                      &handle));
    return Kernel(handle);
  }

  Kernel(Kernel &&other) noexcept : handle(std::exchange(other.handle, nullptr)) {}
  Kernel &operator=(Kernel &&other) noexcept {
    if (this != &other) {
      txl_kernel_free(handle);
      handle = std::exchange(other.handle, nullptr);
    }
    return *this;
  }
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;
  ~Kernel() { txl_kernel_free(handle); }

  /// The metadata JSON (see txl_kernel_metadata).
  std::string metadata() const {
    const char *text = txl_kernel_metadata(handle);
    if (!text)
      throw Error(TXL_ERROR_INVALID_ARGUMENT, txl_last_error());
    return text;
  }

  /// An artifact's bytes: "txlir", "txlgir", "llir", "ptx", "cubin", "json".
  std::string artifact(const std::string &kind) const {
    const char *data = nullptr;
    size_t size = 0;
    check(txl_kernel_artifact(handle, kind.c_str(), &data, &size));
    return std::string(data, size);
  }

  bool hasArtifact(const std::string &kind) const {
    const char *data = nullptr;
    return txl_kernel_artifact(handle, kind.c_str(), &data, nullptr) ==
           TXL_SUCCESS;
  }

  int numParams() const {
    int count = txl_kernel_num_params(handle);
    if (count < 0)
      throw Error(-count, txl_last_error());
    return count;
  }

  /// Loads the module into the current CUDA context now.
  void load() { check(txl_kernel_load(handle)); }

  /// Launches with pointers to the parameter values (cuLaunchKernel style).
  void launchRaw(Grid grid, void *stream, void **args, int nargs) {
    check(txl_launch(handle, grid.x, grid.y, grid.z, stream, args, nargs));
  }

  /// Launches with the parameter values themselves, in launch order. Each
  /// value's type must match the kernel parameter's size (pointers, int32_t,
  /// int64_t, float, double, a 128-byte tensor map).
  template <typename... Args>
  void launch(Grid grid, void *stream, const Args &...values) {
    void *args[sizeof...(Args) + 1] = {const_cast<void *>(
        static_cast<const void *>(&values))...};
    launchRaw(grid, stream, args, int(sizeof...(Args)));
  }

  txl_kernel *get() const { return handle; }

private:
  explicit Kernel(txl_kernel *handle) : handle(handle) {}
  txl_kernel *handle;
};

/// A TMA descriptor (see txl_make_tensor_map); pass it to launch() by value.
struct alignas(64) TensorMap {
  unsigned char bytes[128];
};

inline TensorMap makeTensorMap(const void *base,
                               const std::vector<uint64_t> &dims,
                               const std::vector<uint64_t> &stridesBytes,
                               const std::vector<uint32_t> &box,
                               const std::string &dtype, int swizzleBytes) {
  if (dims.size() != box.size() || stridesBytes.size() + 1 != dims.size())
    throw Error(TXL_ERROR_INVALID_ARGUMENT,
                "makeTensorMap: need rank dims, rank boxes, rank-1 strides");
  TensorMap map;
  check(txl_make_tensor_map(map.bytes, base, unsigned(dims.size()),
                            dims.data(), stridesBytes.data(), box.data(),
                            dtype.c_str(), swizzleBytes));
  return map;
}

/// {major, minor} of the current device.
inline std::pair<int, int> deviceCapability() {
  int major = 0, minor = 0;
  check(txl_device_capability(&major, &minor));
  return {major, minor};
}

inline std::string version() { return txl_version(); }
inline std::string cacheDir() { return txl_cache_dir(); }

} // namespace txl

#endif // TXL_TXL_HPP
