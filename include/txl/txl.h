/*===- txl.h - The txl C API ----------------------------------------------===*
 *
 * The stable interface of libtxl.so: compile a kernel (with a disk cache),
 * inspect its artifacts and metadata, launch it, build TMA tensor maps.
 *
 * Conventions:
 *  - Every function returns an int status (TXL_SUCCESS == 0) or a pointer
 *    (NULL on failure). On failure a message is stored in a thread-local
 *    buffer that txl_last_error() returns; it stays valid until the next
 *    failing txl call on the same thread.
 *  - Strings are NUL-terminated UTF-8. Pointers returned by the library are
 *    owned by it (by the kernel for txl_kernel_* queries).
 *  - Compiling needs no GPU and no driver; libcuda.so.1 is opened with
 *    dlopen the first time a device function is used.
 *  - All functions are thread-safe.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TXL_TXL_H
#define TXL_TXL_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define TXL_API __attribute__((visibility("default")))
#else
#define TXL_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
#define TXL_SUCCESS 0
#define TXL_ERROR_INVALID_ARGUMENT 1 /* null pointer, bad JSON, bad value  */
#define TXL_ERROR_COMPILE 2          /* diagnostics in txl_last_error()    */
#define TXL_ERROR_NO_DRIVER 3        /* libcuda.so.1 missing or unusable   */
#define TXL_ERROR_CUDA 4             /* a driver call failed               */
#define TXL_ERROR_IO 5               /* cache or dump directory trouble    */
#define TXL_ERROR_NOT_FOUND 6        /* e.g. an artifact that was not made */
#define TXL_ERROR_INTERNAL 7

/* A compiled kernel: artifacts, metadata and its per-context modules. */
typedef struct txl_kernel txl_kernel;

/* Compiles `kernel_name` defined in `source` (the whole module text; the
 * file name is used in diagnostics and line info).
 *
 * `signature` is Triton-style, one entry per parameter in order, separated
 * by commas: "*fp16:16" (pointer, 16-byte aligned), "i32", "i32:16"
 * (divisible by 16), "i32:1" (equal to 1), "fp32", "none", or a constexpr
 * value as source text ("1024", "True", "tl.float16").
 *
 * `options_json` may be NULL or a JSON object with any of: num_warps,
 * num_warpgroups, num_stages, num_ctas, maxnreg (integers),
 * enable_fp_fusion, enable_reflect_ftz (bools; docs/user-guide.md's launch
 * options say what each does), target ("auto"
 * = the current device if a driver is present, else "sm_90a"; or "sm_80",
 * "sm_90a", "sm_100a", "sm_120a", ...), globals ({name: source text}),
 * line_info (bool), skip_cubin (bool), libdevice (path of the
 * libdevice.10.bc to link; default: $TXL_LIBDEVICE, $CUDA_HOME,
 * /usr/local/cuda).
 *
 * Results are cached on disk (see txl_cache_dir). Environment:
 * TXL_CACHE_DIR, TXL_ALWAYS_COMPILE=1 (never read the cache),
 * TXL_DUMP_DIR=dir (copy every artifact there), TXL_DUMP_IR=1 (print the IR
 * around every pass to stderr). On success *out must be released with
 * txl_kernel_free. */
TXL_API int txl_compile(const char *source, const char *filename,
                        const char *kernel_name, const char *signature,
                        const char *options_json, txl_kernel **out);

/* A kernel compiled earlier, from its artifacts: `metadata_json` (the
 * compiler's NAME.json) and the cubin (`cubin`, `cubin_size`) and/or the
 * PTX (NUL-terminated; the driver JITs it when there is no cubin). No
 * compiler runs: this is how AOT launchers (txlc --aot) and the
 * runtime-only library libtxlrt load kernels. Release with
 * txl_kernel_free. */
TXL_API int txl_kernel_from_artifacts(const char *metadata_json,
                                      const void *cubin, size_t cubin_size,
                                      const char *ptx, txl_kernel **out);

/* Releases a kernel (and unloads its modules). NULL is accepted. */
TXL_API void txl_kernel_free(txl_kernel *kernel);

/* The kernel's metadata as a JSON object. Always present keys: name,
 * target, num_warps, num_warpgroups, shared_bytes, cluster_dims [x,y,z],
 * params [{name, type, size}] (launch order, constexprs excluded),
 * cubin_producer, cache_key, cache_hit. */
TXL_API const char *txl_kernel_metadata(const txl_kernel *kernel);

/* One artifact by kind: "txlir", "txlgir", "llir", "ptx", "cubin", "json",
 * and two made on first request: "sass" (the cubin through nvdisasm, with
 * source lines) and "html" (the one-page viewer of txlc --html, reading
 * the source file the metadata names).
 * *data points into the kernel (text artifacts are NUL-terminated); *size
 * is its size in bytes without the terminator. TXL_ERROR_NOT_FOUND if the
 * artifact was not produced (e.g. no cubin when the driver JITs the PTX). */
TXL_API int txl_kernel_artifact(const txl_kernel *kernel, const char *kind,
                                const char **data, size_t *size);

/* Number of launch parameters txl_launch expects (negative on error). */
TXL_API int txl_kernel_num_params(const txl_kernel *kernel);

/* Loads the kernel's module into the current CUDA context (the primary
 * context of device 0 is made current if none is). txl_launch does this
 * lazily; calling it first separates load errors from launch errors. */
TXL_API int txl_kernel_load(txl_kernel *kernel);

/* Launches on `stream` (a CUstream; NULL = the legacy default stream) with
 * grid (gx, gy, gz) and blockDim.x = 32 * num_warps * num_warpgroups.
 * `args[i]` points to the value of launch parameter i, exactly as
 * cuLaunchKernel's kernelParams; `nargs` must equal
 * txl_kernel_num_params. Dynamic shared memory and cluster dimensions come
 * from the metadata; like Triton, the grid counts programs and a program is
 * one cluster, so the CTA grid is (gx*cx, gy*cy, gz*cz). An empty grid
 * launches nothing and succeeds. */
TXL_API int txl_launch(txl_kernel *kernel, unsigned gx, unsigned gy,
                       unsigned gz, void *stream, void **args, int nargs);

/* The same launch with everything in one struct: one foreign call for
 * language bindings whose per-argument call overhead dominates (ctypes).
 * Layout is fixed (offsets 0, 8, 16, 28, 32 on LP64). */
typedef struct txl_launch_packet {
  txl_kernel *kernel;
  void *stream;
  unsigned grid[3];
  int nargs;
  void **args;
} txl_launch_packet;

TXL_API int txl_launch_packed(const txl_launch_packet *packet);

/* Encodes a tiled TMA descriptor (cuTensorMapEncodeTiled) into the 128
 * bytes at `out` (any alignment: it is copied; pass a pointer to it in
 * txl_launch's args like any other parameter value).
 * All arrays are in the driver's order, innermost dimension first:
 *   dims[rank]           extents in elements
 *   strides_bytes[rank-1] byte strides of dimensions 1..rank-1
 *   box[rank]            box extents in elements
 * `dtype` is a signature element type ("fp16", "bf16", "fp32", "i8", ...);
 * `swizzle_bytes` is 0, 32, 64 or 128. Out-of-bounds elements read as 0. */
TXL_API int txl_make_tensor_map(void *out, const void *base, unsigned rank,
                                const uint64_t *dims,
                                const uint64_t *strides_bytes,
                                const uint32_t *box, const char *dtype,
                                int swizzle_bytes);

/* Compute capability of the current context's device (device 0 if none). */
TXL_API int txl_device_capability(int *major, int *minor);

/* The message of the last failure on this thread ("" if none). */
TXL_API const char *txl_last_error(void);

/* Library and compiler version, e.g. "txl 0.1.0 (compiler ...)". */
TXL_API const char *txl_version(void);

/* The cache directory in use: $TXL_CACHE_DIR, else ~/.cache/txl. */
TXL_API const char *txl_cache_dir(void);

#ifdef __cplusplus
}
#endif

#endif /* TXL_TXL_H */
