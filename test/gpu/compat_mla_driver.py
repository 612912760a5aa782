"""Runs the TXL project's MLA kernels from their unchanged files
(test/compat/txl/) through txl's Triton switch, with each file's own host
launcher, and compares the results with float32 references written here.

    TXL_AS_TRITON=1 PYTHONPATH=python:python/txl/compat_site \
        python3 test/gpu/compat_mla_driver.py mla_txl Z H N_Q KV_SEQ_LEN
    ... compat_mla_driver.py txl_mla0 S_Q H_Q S_KV TOPK

The launchers allocate their outputs with torch.empty / torch.empty_like;
the file's `torch` is replaced by a proxy whose empty / empty_like return
NaN-filled tensors, so an element the kernel never writes cannot pass.
Prints one line `OK ...` and exits 0, or raises (non-zero exit).
test_compat_mla.py runs it in a subprocess (the switch must be on before
the file imports triton, and stays on for the process).
"""

import importlib.util
import math
import os
import sys

import torch

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(REPO, "test", "compat", "txl")


class PoisoningTorch:
    """`torch` for the launcher: new outputs start as NaN."""

    def __getattr__(self, name):
        return getattr(torch, name)

    @staticmethod
    def empty(*args, **kwargs):
        return _poison(torch.empty(*args, **kwargs))

    @staticmethod
    def empty_like(*args, **kwargs):
        return _poison(torch.empty_like(*args, **kwargs))


def _poison(t):
    return t.fill_(float("nan")) if t.is_floating_point() else t.fill_(-123)


def load(name):
    import txl
    txl.enable_triton_compat()
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(CORPUS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.torch = PoisoningTorch()
    return module


def close(what, got, want, atol, rtol):
    torch.testing.assert_close(got, want, atol=atol, rtol=rtol,
                               msg=lambda m: f"{what}: {m}\n" +
                               mismatch_pattern(got, want, atol, rtol))
    return (got - want).abs().max().item()


def mismatch_pattern(got, want, atol, rtol):
    """Where the mismatches are: the first indices, and how many fall in
    each index of every dimension (the last in blocks of 64), so that a
    race on one tile or one row block shows its shape."""
    bad = ~torch.isclose(got, want, atol=atol, rtol=rtol, equal_nan=False)
    where = bad.nonzero()
    lines = [f"first mismatches (index, got, want): " + ", ".join(
        f"{tuple(i)} {got[tuple(i)].item():.4g} {want[tuple(i)].item():.4g}"
        for i in where[:8].tolist())]
    for dim in range(bad.dim()):
        keys = where[:, dim]
        if dim == bad.dim() - 1:
            keys = keys // 64
        counts = torch.bincount(keys).tolist()
        lines.append(f"dim {dim}{' (/64)' if dim == bad.dim() - 1 else ''}:"
                     f" {dict((k, c) for k, c in enumerate(counts) if c)}")
    return "\n".join(lines)


# -- mla_txl (txl_mla_interface.py): dense MLA decode ----------------------

def mla_reference(q, kv, qpe, kpe, scale):
    """softmax(scale * (q kv^T + qpe kpe^T)) kv per (batch, head), fp32."""
    heads_per_kv = q.shape[1] // kv.shape[1]
    kv_ = kv.float().repeat_interleave(heads_per_kv, dim=1)
    kpe_ = kpe.float().repeat_interleave(heads_per_kv, dim=1)
    s = (q.float() @ kv_.transpose(-1, -2) +
         qpe.float() @ kpe_.transpose(-1, -2)) * scale
    return torch.softmax(s, dim=-1) @ kv_


def run_mla_txl(Z, H, N_Q, KV_SEQ_LEN):
    mod = load("txl_mla_interface")
    sms = torch.cuda.get_device_properties("cuda").multi_processor_count
    # The kernel gives each of NUM_SMS programs B // NUM_SMS batches: a
    # batch count that is not a multiple of the SM count loses the rest.
    assert Z % sms == 0, f"Z={Z} must be a multiple of the {sms} SMs"
    gen = torch.Generator(device="cuda").manual_seed(Z + H + N_Q + KV_SEQ_LEN)
    R0, PE = 512, 64

    def rand(*shape):
        return torch.randn(shape, device="cuda", generator=gen,
                           dtype=torch.float32).half()
    q, qpe = rand(Z, H, N_Q, R0), rand(Z, H, N_Q, PE)
    kv, kpe = rand(Z, 1, KV_SEQ_LEN, R0), rand(Z, 1, KV_SEQ_LEN, PE)
    scale = 1 / math.sqrt(R0)
    out = mod.mla_test(q, kv, qpe, kpe, scale)
    torch.cuda.synchronize()
    want = mla_reference(q, kv, qpe, kpe, scale)
    err = close("mla_txl out", out.float(), want, atol=2e-2, rtol=2e-2)
    print(f"OK mla_txl Z{Z} H{H} N_Q{N_Q} KV{KV_SEQ_LEN} max err {err:.4g}")


# -- txl_mla0 (txl_nsa_interface.py): sparse MLA prefill -------------------

def sparse_reference(q_nope, q_pe, kv_nope, kv_pe, idx, scale,
                     as_written=False):
    """out, max_logits, lse (log2 units, scale * log2(e) applied), fp32;
    indices < 0 or >= S_KV are skipped.

    as_written: what txl_nsa_interface.py's kernel computes as written.
    Its loop body starts with `rP = tl.zeros(...)`, and warpgroup 0 scores
    its block (2i) itself only when i = 0: the Q K^T of block 2i + 2 that
    it issues at the end of iteration i lands in an rP the next iteration
    replaces with zeros (rP is not carried). So the logits of blocks 2, 4,
    6, ... are 0 (where valid) instead of q.k; with one iteration (top-k
    128) both references agree."""
    S_KV = kv_nope.shape[0]
    i = idx[:, 0, :].long()
    bad = (i < 0) | (i >= S_KV)
    safe = i.masked_fill(bad, 0)
    k = torch.cat([kv_nope[:, 0].float(), kv_pe[:, 0].float()], dim=-1)[safe]
    q = torch.cat([q_nope.float(), q_pe.float()], dim=-1)
    s = torch.einsum("shd,skd->shk", q, k) * (scale * math.log2(math.e))
    if as_written:
        for b in range(2, s.shape[-1] // 64, 2):
            s[..., b * 64:(b + 1) * 64] = 0.0
    s = s.masked_fill(bad[:, None, :], float("-inf"))
    ml = s.max(dim=-1).values
    lse = torch.logsumexp(s * math.log(2), dim=-1) / math.log(2)
    p = torch.exp2(s - lse[..., None])
    out = torch.einsum("shk,skd->shd", p, k[..., :512])
    return out, ml, lse


def run_txl_mla0(S_Q, H_Q, S_KV, TOPK):
    mod = load("txl_nsa_interface")
    gen = torch.Generator(device="cuda").manual_seed(S_Q + H_Q + S_KV + TOPK)

    def rand(sigma, *shape):
        return (torch.randn(shape, device="cuda", generator=gen) *
                sigma).bfloat16()
    # Logits (log2 units) with a standard deviation of about 2: a few keys
    # dominate each row, so a wrong score or a wrong key's row shows in
    # the output (with flat weights the output is ~0.5 / sqrt(top-k), no
    # larger than the tolerance).
    q_nope, q_pe = rand(1.5, S_Q, H_Q, 512), rand(1.5, S_Q, H_Q, 64)
    kv_nope, kv_pe = rand(1.0, S_KV, 1, 512), rand(1.0, S_KV, 1, 64)
    idx = torch.randint(0, S_KV, (S_Q, 1, TOPK), device="cuda",
                        generator=gen, dtype=torch.int32)
    # About 10% invalid entries (-1 and past the end), a few repeats; the
    # kernel assumes each of its 64-entry blocks has a valid entry (an
    # all-invalid first block gives -inf - -inf), which 10% keeps true.
    r = torch.rand((S_Q, 1, TOPK), device="cuda", generator=gen)
    idx = torch.where(r < 0.05, torch.full_like(idx, -1), idx)
    idx = torch.where((r >= 0.05) & (r < 0.1), torch.full_like(idx, S_KV + 3),
                      idx)
    idx = torch.where((r >= 0.1) & (r < 0.15), idx[..., :1].expand_as(idx),
                      idx)
    scale = 576 ** -0.5
    out, ml, lse = mod.nsa_test(q_nope, q_pe, kv_nope, kv_pe, idx, scale)
    torch.cuda.synchronize()
    want, want_ml, want_lse = sparse_reference(q_nope, q_pe, kv_nope, kv_pe,
                                               idx, scale, as_written=True)
    true, _, true_lse = sparse_reference(q_nope, q_pe, kv_nope, kv_pe, idx,
                                         scale)
    print(f"txl_mla0 TOPK{TOPK}: the file's result differs from the true "
          f"sparse attention by up to {(want - true).abs().max().item():.3g} "
          f"(out) and {(want_lse - true_lse).abs().max().item():.3g} (lse); "
          f"the kernel's output from the true one by "
          f"{(out.float() - true).abs().max().item():.3g}")
    # The statistics first: they depend on Q K^T alone, the output on P V
    # too, so which check fails first says which half went wrong.
    e2 = close("txl_mla0 max_logits", ml, want_ml, atol=1e-3, rtol=1e-4)
    e3 = close("txl_mla0 lse", lse, want_lse, atol=2e-3, rtol=1e-3)
    e1 = close("txl_mla0 out", out.float(), want, atol=2e-2, rtol=2e-2)
    print(f"OK txl_mla0 S_Q{S_Q} H_Q{H_Q} S_KV{S_KV} TOPK{TOPK} max err "
          f"out {e1:.4g} max_logits {e2:.4g} lse {e3:.4g}")


if __name__ == "__main__":
    kernel, *sizes = sys.argv[1:]
    run = {"mla_txl": run_mla_txl, "txl_mla0": run_txl_mla0}[kernel]
    run(*map(int, sizes))
