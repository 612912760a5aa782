//===- CApi.cpp - The exported C API (txl.h) ------------------------------===//
//
// Thin: argument checks, error strings, exception walls. The work is in
// RuntimeKernel, TensorMap and CudaDriver.
//
//===----------------------------------------------------------------------===//
#include "txl/Version.h"
#include "txl/txl.h"

#include "txl/Runtime/Kernel.h"
#include "txl/Runtime/TensorMap.h"

#include <cstring>
#include <exception>
#include <new>

using namespace txl;

struct txl_kernel {
  std::unique_ptr<RuntimeKernel> impl;
};

namespace {
thread_local std::string lastError;

int fail(Status status, const std::string &message) {
  lastError = message;
  return int(status);
}

int fail(int status, const std::string &message) {
  lastError = message;
  return status;
}

/// Runs `body`, turning escaping C++ exceptions into TXL_ERROR_INTERNAL:
/// nothing may unwind through the C boundary.
template <typename Body> int guarded(const char *function, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return fail(TXL_ERROR_INTERNAL, std::string(function) + ": out of memory");
  } catch (const std::exception &e) {
    return fail(TXL_ERROR_INTERNAL, std::string(function) + ": " + e.what());
  } catch (...) {
    return fail(TXL_ERROR_INTERNAL, std::string(function) + ": unknown error");
  }
}

int compileImpl(const char *source, const char *filename,
                const char *kernelName, const char *signature,
                const char *optionsJson, txl_kernel **out) {
  if (!out)
    return fail(TXL_ERROR_INVALID_ARGUMENT, "txl_compile: out is null");
  *out = nullptr;
  if (!source || !kernelName || !signature)
    return fail(TXL_ERROR_INVALID_ARGUMENT,
                "txl_compile: source, kernel_name and signature are required");
  // strnlen: a buffer that is not a source text may have no NUL nearby.
  if (strnlen(source, kMaxSourceBytes + 1) > kMaxSourceBytes)
    return fail(TXL_ERROR_INVALID_ARGUMENT,
                "txl_compile: the source is larger than " +
                    std::to_string(kMaxSourceBytes) + " bytes");
  CompileOptions options;
  options.kernelName = kernelName;
  std::string error;
  if (!parseSignature(signature, options.signature, error))
    return fail(TXL_ERROR_INVALID_ARGUMENT,
                std::string("bad signature '") + signature + "': " + error);
  if (!parseCompileOptions(optionsJson ? optionsJson : "", options, error))
    return fail(TXL_ERROR_INVALID_ARGUMENT, error);
  Status status = Status::Success;
  std::unique_ptr<RuntimeKernel> kernel = RuntimeKernel::compile(
      source, filename ? filename : "<string>", options, status, error);
  if (!kernel)
    return fail(status, error);
  *out = new txl_kernel{std::move(kernel)};
  return TXL_SUCCESS;
}
} // namespace

extern "C" {

int txl_compile(const char *source, const char *filename,
                const char *kernel_name, const char *signature,
                const char *options_json, txl_kernel **out) {
  return guarded("txl_compile", [&] {
    return compileImpl(source, filename, kernel_name, signature, options_json,
                       out);
  });
}

int txl_kernel_from_artifacts(const char *metadata_json, const void *cubin,
                              size_t cubin_size, const char *ptx,
                              txl_kernel **out) {
  return guarded("txl_kernel_from_artifacts", [&] {
    if (!out || !metadata_json || !(cubin || ptx))
      return fail(TXL_ERROR_INVALID_ARGUMENT,
                  "txl_kernel_from_artifacts: metadata, a cubin or PTX, and "
                  "out are required");
    *out = nullptr;
    ArtifactMap artifacts{{"json", metadata_json}};
    if (cubin && cubin_size)
      artifacts["cubin"].assign(static_cast<const char *>(cubin), cubin_size);
    if (ptx)
      artifacts["ptx"] = ptx;
    Status status = Status::Success;
    std::string error;
    auto kernel = RuntimeKernel::fromArtifacts(std::move(artifacts), status,
                                               error);
    if (!kernel)
      return fail(status, "txl_kernel_from_artifacts: " + error);
    *out = new txl_kernel{std::move(kernel)};
    return TXL_SUCCESS;
  });
}

void txl_kernel_free(txl_kernel *kernel) { delete kernel; }

const char *txl_kernel_metadata(const txl_kernel *kernel) {
  if (!kernel) {
    fail(TXL_ERROR_INVALID_ARGUMENT, "txl_kernel_metadata: kernel is null");
    return nullptr;
  }
  return kernel->impl->metadata().c_str();
}

int txl_kernel_artifact(const txl_kernel *kernel, const char *kind,
                        const char **data, size_t *size) {
  if (!kernel || !kind || !data)
    return fail(TXL_ERROR_INVALID_ARGUMENT,
                "txl_kernel_artifact: kernel, kind and data are required");
  const std::string *bytes = kernel->impl->artifact(kind);
  std::string why;
  if (!bytes && (!std::strcmp(kind, "sass") || !std::strcmp(kind, "html")))
    bytes = kernel->impl->derivedArtifact(kind, why);
  if (!bytes)
    return fail(TXL_ERROR_NOT_FOUND,
                std::string("kernel '") + kernel->impl->info().name +
                    "' has no '" + kind + "' artifact" +
                    (why.empty() ? "" : ": " + why));
  *data = bytes->c_str();
  if (size)
    *size = bytes->size();
  return TXL_SUCCESS;
}

int txl_kernel_num_params(const txl_kernel *kernel) {
  if (!kernel)
    return -fail(TXL_ERROR_INVALID_ARGUMENT,
                 "txl_kernel_num_params: kernel is null");
  return int(kernel->impl->info().params.size());
}

int txl_kernel_load(txl_kernel *kernel) {
  if (!kernel)
    return fail(TXL_ERROR_INVALID_ARGUMENT, "txl_kernel_load: kernel is null");
  return guarded("txl_kernel_load", [&] {
    cuda::CUfunction function = nullptr;
    std::string error;
    Status status = kernel->impl->load(function, error);
    return status == Status::Success ? TXL_SUCCESS : fail(status, error);
  });
}

int txl_launch(txl_kernel *kernel, unsigned gx, unsigned gy, unsigned gz,
               void *stream, void **args, int nargs) {
  if (!kernel)
    return fail(TXL_ERROR_INVALID_ARGUMENT, "txl_launch: kernel is null");
  return guarded("txl_launch", [&] {
    std::string error;
    Status status =
        kernel->impl->launch(gx, gy, gz, stream, args, nargs, error);
    return status == Status::Success ? TXL_SUCCESS : fail(status, error);
  });
}

int txl_launch_packed(const txl_launch_packet *packet) {
  if (!packet)
    return fail(TXL_ERROR_INVALID_ARGUMENT, "txl_launch_packed: packet is null");
  return txl_launch(packet->kernel, packet->grid[0], packet->grid[1],
                    packet->grid[2], packet->stream, packet->args,
                    packet->nargs);
}

int txl_make_tensor_map(void *out, const void *base, unsigned rank,
                        const uint64_t *dims, const uint64_t *strides_bytes,
                        const uint32_t *box, const char *dtype,
                        int swizzle_bytes) {
  return guarded("txl_make_tensor_map", [&] {
    TensorMapSpec spec;
    spec.base = base;
    spec.rank = rank;
    spec.dims = dims;
    spec.stridesBytes = strides_bytes;
    spec.box = box;
    spec.dtype = dtype ? dtype : "";
    spec.swizzleBytes = swizzle_bytes;
    std::string error;
    Status status = encodeTensorMap(spec, out, error);
    return status == Status::Success ? TXL_SUCCESS : fail(status, error);
  });
}

int txl_device_capability(int *major, int *minor) {
  if (!major || !minor)
    return fail(TXL_ERROR_INVALID_ARGUMENT,
                "txl_device_capability: major and minor are required");
  return guarded("txl_device_capability", [&] {
    std::string error;
    if (cuda::deviceCapability(*major, *minor, error))
      return TXL_SUCCESS;
    return fail(cuda::getDriver(error) ? TXL_ERROR_CUDA : TXL_ERROR_NO_DRIVER,
                error);
  });
}

const char *txl_last_error(void) { return lastError.c_str(); }

const char *txl_version(void) {
  static const std::string version =
      std::string("txl " TXL_VERSION " (compiler ") + compilerVersion() + ")";
  return version.c_str();
}

const char *txl_cache_dir(void) {
  thread_local std::string directory;
  directory = KernelCache::defaultDirectory();
  return directory.c_str();
}

} // extern "C"
