"""Triton's fused-attention tutorial (tutorial 06) compiled twice in one
process: by Triton, and by txl from the same source (issue 14, point 5).

The source is the `_attn_fwd` kernel of test/compat/txl/02-flash-attention.py,
an unchanged file of the TXL project that carries Triton's current
tutorial-06 forward (the file's own host code calls only the TXL kernels,
so the launch below is the tutorial's: host tensor descriptors with a dummy
block that the configs' pre_hook sets). Both compilers autotune over the
same configs, fewer than the tutorial's 24 to keep compile time short:
BLOCK_M 64 or 128, BLOCK_N 64 or 128 (at most the head dim, the kernel's
static_assert), 2-4 stages, 4 or 8 warps."""

import contextlib
import importlib.util
import io
import os
import sys
import types

import torch
import triton

import txl

TUTORIAL = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "test", "compat", "txl",
    "02-flash-attention.py")
# (BLOCK_M, BLOCK_N, num_stages, num_warps); the 64-row ones are the only
# ones whose tiles fit shared memory at head dim 256.
CONFIGS = [(128, 64, 3, 4), (128, 64, 4, 4), (128, 128, 2, 8),
           (128, 128, 3, 8), (64, 64, 2, 4), (64, 64, 3, 4)]
KEY = ["N_CTX", "HEAD_DIM", "FP8_OUTPUT", "warp_specialize"]


def _load():
    """The tutorial file as a module. Its top level imports the TXL
    project's package `teraxlang` twice: once under try (it then falls back
    to stand-ins), once for its test helper (no fallback). Empty stand-in
    modules satisfy the second; the first still takes its fallback, since
    the stand-in has no `teraxlang.language`."""
    stubs = {}
    for name in ("teraxlang", "teraxlang.tutorials",
                 "teraxlang.tutorials.utils",
                 "teraxlang.tutorials.utils.test_util"):
        if name not in sys.modules:
            stubs[name] = types.ModuleType(name)
            stubs[name].__path__ = []
    stubs.get("teraxlang.tutorials.utils.test_util",
              types.ModuleType("_")).attention_ref = None
    sys.modules.update(stubs)
    spec = importlib.util.spec_from_file_location("triton_fa_tutorial",
                                                  TUTORIAL)
    module = importlib.util.module_from_spec(spec)
    try:
        # The file prints why `import teraxlang` failed; that is expected.
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
    finally:
        for name in stubs:
            sys.modules.pop(name, None)
    return module


def kernels():
    """(Triton's kernel, txl's kernel): one source, two compilers, the same
    autotuning configs."""
    module = _load()
    source_fn = module._attn_fwd.fn  # under the autotuner: Triton's JIT
    hook = module._host_descriptor_pre_hook

    def configs(config_cls):
        return [config_cls(dict(BLOCK_M=bm, BLOCK_N=bn), num_stages=s,
                           num_warps=w, pre_hook=hook)
                for bm, bn, s, w in CONFIGS]
    prune = {"early_config_prune": _prune}
    triton_kernel = triton.autotune(configs(triton.Config), key=KEY,
                                    prune_configs_by=prune)(source_fn)
    txl_kernel = txl.autotune(configs(txl.Config), key=KEY,
                              prune_configs_by=prune)(txl.jit(source_fn.fn))
    return triton_kernel, txl_kernel


def _prune(configs, named_args, **kwargs):
    head_dim = kwargs["HEAD_DIM"]
    return [c for c in configs if c.kwargs["BLOCK_N"] <= head_dim
            and c.kwargs["BLOCK_M"] <= kwargs["N_CTX"]]


def runner(kernel, q, k, v, causal):
    """A no-argument function that runs `kernel` on q, k, v [batch, seqlen,
    heads, D] (fp16) the way the tutorial's host code does, on [batch,
    heads, seqlen, D] copies made here, and returns the output in q's
    layout."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    Z, N, H, D = q.shape
    qt, kt, vt = (t.transpose(1, 2).contiguous() for t in (q, k, v))
    o = torch.empty_like(qt)
    m = torch.empty((Z, H, N), device=q.device, dtype=torch.float32)
    descs = [TensorDescriptor(t, shape=[Z * H * N, D], strides=[D, 1],
                              block_shape=[1, 1]) for t in (qt, kt, vt, o)]

    def grid(meta):
        return (triton.cdiv(N, meta["BLOCK_M"]), Z * H, 1)

    def run():
        kernel[grid](D ** -0.5, m, Z, H, *descs, N_CTX=N, HEAD_DIM=D,
                     FP8_OUTPUT=False, STAGE=3 if causal else 1,
                     warp_specialize=False)
        return o.transpose(1, 2)
    return run
