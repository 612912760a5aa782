/* A C program that runs two txl kernels compiled ahead of time (axpy.h,
 * tma_scale.h from `txlc --aot`) with only libtxlrt, the runtime without the
 * compiler. Memory comes from the CUDA driver API. Exit 0: both kernels gave
 * the right answer; 77: no GPU here (CI); 1: a wrong answer or an error. */
#include "axpy.h"
#include "tma_scale.h"

#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK_CU(call)                                                       \
  do {                                                                       \
    CUresult r_ = (call);                                                    \
    if (r_ != CUDA_SUCCESS) {                                                \
      fprintf(stderr, "%s failed: %d\n", #call, (int)r_);                    \
      return 1;                                                              \
    }                                                                        \
  } while (0)
#define CHECK_TXL(call)                                                      \
  do {                                                                       \
    int r_ = (call);                                                         \
    if (r_ != 0) {                                                           \
      fprintf(stderr, "%s failed: %s\n", #call, txl_last_error());           \
      return 1;                                                              \
    }                                                                        \
  } while (0)

static float frand(unsigned *state) {
  *state = *state * 1664525u + 1013904223u;
  return (float)((*state >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static int run_axpy(unsigned *seed) {
  const int n = 100003; /* not a multiple of the block: the mask matters */
  size_t bytes = n * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
  for (int i = 0; i < n; ++i) {
    x[i] = frand(seed);
    y[i] = frand(seed);
  }
  CUdeviceptr dx, dy;
  CHECK_CU(cuMemAlloc(&dx, bytes));
  CHECK_CU(cuMemAlloc(&dy, bytes + 4096));
  CHECK_CU(cuMemsetD8(dy + bytes, 0x7f, 4096)); /* past the end: untouched */
  CHECK_CU(cuMemcpyHtoD(dx, x, bytes));
  CHECK_CU(cuMemcpyHtoD(dy, y, bytes));
  const float a = 1.75f;
  unsigned programs = (n + 1023) / 1024;
  CHECK_TXL(axpy(NULL, programs, 1, 1, (void *)dx, (void *)dy, a, n));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(out, dy, bytes));
  unsigned char tail[4096];
  CHECK_CU(cuMemcpyDtoH(tail, dy + bytes, sizeof(tail)));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += fabsf(out[i] - (a * x[i] + y[i])) > 1e-5f * (1 + fabsf(out[i]));
  for (size_t i = 0; i < sizeof(tail); ++i)
    bad += tail[i] != 0x7f;
  printf("axpy n=%d: %s\n", n, bad ? "WRONG" : "ok");
  cuMemFree(dx);
  cuMemFree(dy);
  free(x);
  free(y);
  free(out);
  return bad != 0;
}

static int run_tma_scale(unsigned *seed) {
  /* 300 x 200 floats: tiles of 64 x 32 hang over both edges; TMA reads
   * zeros past the tensor and does not write there. */
  const unsigned rows = 300, cols = 200, bm = 64, bn = 32;
  size_t bytes = (size_t)rows * cols * sizeof(float);
  float *in = malloc(bytes), *out = malloc(bytes);
  for (size_t i = 0; i < (size_t)rows * cols; ++i)
    in[i] = frand(seed);
  CUdeviceptr din, dout;
  CHECK_CU(cuMemAlloc(&din, bytes));
  CHECK_CU(cuMemAlloc(&dout, bytes));
  CHECK_CU(cuMemcpyHtoD(din, in, bytes));
  CHECK_CU(cuMemsetD32(dout, 0x7fc00000u, rows * cols)); /* NaN: poisoned */
  txl_aot_tensor tin = {(const void *)din, 2, {rows, cols}, {cols, 1}};
  txl_aot_tensor tout = {(const void *)dout, 2, {rows, cols}, {cols, 1}};
  const float scale = -3.5f;
  CHECK_TXL(tma_scale(NULL, (rows + bm - 1) / bm, (cols + bn - 1) / bn, 1,
                      &tin, &tout, scale));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(out, dout, bytes));
  int bad = 0;
  for (size_t i = 0; i < (size_t)rows * cols; ++i)
    bad += !(fabsf(out[i] - scale * in[i]) <= 1e-6f * (1 + fabsf(out[i])));
  printf("tma_scale %ux%u: %s\n", rows, cols, bad ? "WRONG" : "ok");
  cuMemFree(din);
  cuMemFree(dout);
  free(in);
  free(out);
  return bad != 0;
}

int main(void) {
  int devices = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&devices) != CUDA_SUCCESS ||
      devices == 0) {
    printf("no GPU: skipped (the launchers compiled and linked)\n");
    return 77;
  }
  CUdevice device;
  CUcontext context;
  CHECK_CU(cuDeviceGet(&device, 0));
  CHECK_CU(cuDevicePrimaryCtxRetain(&context, device));
  CHECK_CU(cuCtxSetCurrent(context));
  unsigned seed = (unsigned)time(NULL); /* fresh inputs every run */
  printf("seed %u\n", seed);
  int failures = run_axpy(&seed) + run_tma_scale(&seed);
  axpy_unload();
  tma_scale_unload();
  return failures ? 1 : 0;
}
