"""The drop-in switch (txl.enable_triton_compat / TXL_AS_TRITON=1): Triton
code compiles through txl. Each check runs in a fresh interpreter, since the
switch patches sys.modules. Compile-only: the real libtxl (build*/lib/
libtxl.so) compiles for sm_90a; no GPU is needed."""

import glob
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import REPO

HERE = os.path.dirname(os.path.abspath(__file__))
# build/ first: build-wheel/ (the wheel's tree) may be older.
REAL_LIB = next(iter(sorted(
    glob.glob(os.path.join(REPO, "build*/lib/libtxl.so")),
    key=lambda p: ("/build/lib/" not in p, p))), None)
needs_real_lib = pytest.mark.skipif(REAL_LIB is None,
                                    reason="needs build*/lib/libtxl.so")


def run_python(code, tmp_path, **env):
    environ = dict(os.environ)
    # compat_site's sitecustomize enables the switch at start-up when
    # TXL_AS_TRITON=1 (and does nothing otherwise).
    path = [os.path.join(REPO, "python"),
            os.path.join(REPO, "python", "txl", "compat_site"), HERE]
    environ.update(PYTHONPATH=os.pathsep.join(path),
                   TXL_CACHE_DIR=str(tmp_path / "cache"))
    environ.pop("TXL_TARGET", None)  # the GPU's, else sm_90a: with a cubin
    environ.pop("TXL_AS_TRITON", None)
    environ.update(env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, env=environ,
                          cwd=tmp_path, timeout=600)


def check(result):
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


# A stand-in tensor (data_ptr and dtype are all txl reads), indented like
# the code blocks it prefixes.
FAKE_TENSOR = """
        class T:
            def __init__(self, p, dtype="torch.float32"):
                self.p, self.dtype = p, dtype
            def data_ptr(self):
                return self.p
        x, y = T(1 << 20), T(2 << 20)
"""


def test_env_variable_enables_the_switch(tmp_path):
    out = check(run_python("""
        import txl, triton
        import triton.language as tl
        from txl.triton_compat import TritonJITFunction, Heuristics
        assert txl.triton_compat.is_enabled()
        @triton.jit
        def k(x, B: tl.constexpr):
            pass
        assert isinstance(k, TritonJITFunction) and k.arg_names == ["x", "B"]
        h = triton.heuristics({"B": lambda a: a["x"] * 2})(k)
        assert isinstance(h, Heuristics)
        assert h._with_heuristics((3,), {}) == {"B": 6}
        c = triton.Config({"B": 1}, num_warps=8, num_buffers_warp_spec=3)
        assert c.num_warps == 8 and c.all_kwargs()["B"] == 1
        assert triton.cdiv(10, 4) == 3 and triton.next_power_of_2(33) == 64
        import teraxlang
        assert teraxlang is txl
        import triton.profiler.language as pl
        with pl.scope("x"):
            pl.enter_scope("y"); pl.exit_scope("y")
        print("ok")
    """, tmp_path, TXL_AS_TRITON="1"))
    assert "ok" in out


def test_switch_is_off_by_default(tmp_path):
    out = check(run_python("""
        import txl
        print(txl.triton_compat.is_enabled())
    """, tmp_path))
    assert out.strip() == "False"


def test_unknown_config_field_is_an_error(tmp_path):
    result = run_python("""
        import txl; txl.enable_triton_compat()
        import triton
        triton.Config({}, num_wraps=4)
    """, tmp_path)
    assert result.returncode != 0
    assert "unknown fields ['num_wraps']" in result.stderr


def test_skip_bench_makes_perf_report_a_no_op(tmp_path):
    out = check(run_python("""
        import txl; txl.enable_triton_compat()
        import triton
        @triton.testing.perf_report(triton.testing.Benchmark(x_names=["n"]))
        def bench(n):
            raise AssertionError("benchmark ran")
        bench.run(print_data=True)
        print("skipped")
    """, tmp_path, TXL_COMPAT_SKIP_BENCH="1"))
    assert "skipped" in out


@needs_real_lib
def test_triton_kernels_compile_through_txl(tmp_path):
    """heuristics + module constexpr/tuple globals + a jit helper; autotune
    with Triton-only Config fields and prune_configs_by; warmup's compiled
    kernel and its .asm."""
    out = check(run_python(FAKE_TENSOR + """
        import triton_style_kernels as k
        w = k.scale_kernel.warmup(x, y, 1000, BLOCK=256, grid=(4,))
        assert ".entry scale_kernel" in w.asm["ptx"]
        assert isinstance(w.metadata.shared, int)
        assert 0 < w.n_regs <= 255 and w.n_spills == 0
        # As Triton's: one compiled kernel per config left after pruning.
        (w,) = k.copy_kernel.warmup(x, y, 1000, grid=(4,))
        assert ".entry copy_kernel" in w.asm["ptx"]
        print("ok")
    """, tmp_path, TXL_AS_TRITON="1", TXL_LIBRARY=REAL_LIB))
    assert "ok" in out


@needs_real_lib
def test_nested_kernel_with_closure_and_patched_source(tmp_path):
    """Kernels defined inside functions (as Triton's own tests write them)
    read their closure's values and call nested jit helpers; Triton's
    _unsafe_update_src rewrites a kernel's text before compiling."""
    out = check(run_python(FAKE_TENSOR + """
        import triton
        import triton_style_kernels as k
        w = k.make_nested(64).warmup(x, y, grid=(1,))
        assert ".entry kernel" in w.asm["ptx"]
        t = triton.JITFunction(k.template_kernel().fn)
        t._unsafe_update_src(t.src.replace("GENERATE_TEST_HERE",
                                           "tl.load(x_ptr + offs) * 3"))
        w = t.warmup(x, y, BLOCK=32, grid=(1,))
        assert "mul" in w.asm["ptx"]
        print("ok")
    """, tmp_path, TXL_AS_TRITON="1", TXL_LIBRARY=REAL_LIB))
    assert "ok" in out


@needs_real_lib
def test_unpatched_template_fails_with_a_located_error(tmp_path):
    result = run_python(FAKE_TENSOR + """
        import triton_style_kernels as k
        k.template_kernel().warmup(x, y, BLOCK=32, grid=(1,))
    """, tmp_path, TXL_AS_TRITON="1", TXL_LIBRARY=REAL_LIB)
    assert result.returncode != 0
    assert "name 'GENERATE_TEST_HERE' is not defined" in result.stderr
    assert "triton_style_kernels.py:" in result.stderr


@needs_real_lib
def test_register_count_from_the_cubin(tmp_path):
    """n_regs is what ptxas reports for the kernel (ptxas -v)."""
    import re
    import shutil
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not os.path.exists(ptxas):
        pytest.skip("no ptxas")
    out = check(run_python(FAKE_TENSOR + """
        import triton_style_kernels as k
        w = k.scale_kernel.warmup(x, y, 1000, BLOCK=256, grid=(4,))
        open("k.ptx", "w").write(w.asm["ptx"])
        print(w.n_regs)
    """, tmp_path, TXL_AS_TRITON="1", TXL_LIBRARY=REAL_LIB))
    verbose = subprocess.run([ptxas, "-v", "-arch=sm_90a", "k.ptx", "-o",
                              "k.cubin"], capture_output=True, text=True,
                             cwd=tmp_path)
    used = re.search(r"Used (\d+) registers", verbose.stderr)
    assert used, verbose.stderr
    assert int(out.strip().splitlines()[-1]) == int(used.group(1))


def test_compilation_error_carries_its_cause():
    """Triton's tests read a compile error's text from __cause__ (the
    semantic error it was raised from): txl's error has the diagnostic
    there, also after a pickle round trip (pytest-xdist)."""
    import pickle
    import types
    sys.path.insert(0, os.path.join(REPO, "python"))
    from txl import triton_compat
    fake = types.SimpleNamespace(
        CompilationError=type("CompilationError", (Exception,), {}))
    error = triton_compat._compilation_error_for(fake)
    message = "k.py:3:5: error: tl.program_id axis must be 0, 1, or 2 but got 20"
    with pytest.raises(fake.CompilationError) as info:
        raise error(1, message)
    assert str(info.value.__cause__) == message
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again.__cause__) == message


FRONT_END_KERNELS = '''
import triton
import triton.language as tl


@triton.jit
def nothing(dst):
    pass


@triton.jit
def nothing_on_host(dst):
    pass


@triton.jit
def add_fn_return(x, pid):
    if pid == 0:
        return x + 1
    else:
        return x + 2


@pytest_param_like("call_type", ["jit", "jit_if"])
def host_test(call_type):
    @triton.jit
    def kernel(Out, call_type: tl.constexpr):
        pid = tl.program_id(0)
        o = tl.load(Out)
        if call_type == "jit_if":
            if pid == 0:
                a = o
                a = add_fn_return(a, pid)
                o = a
        tl.store(Out, o)
    return kernel
'''


@needs_real_lib
def test_front_end_behaves_as_triton(tmp_path):
    """Triton's test_core shapes: an invalid launch option is an
    AssertionError; a tensor in unpinned host memory a ValueError; a kernel nested in a host function whose decorator
    mentions "jit" compiles (its lines stay put); an early return in a
    runtime `if` of a helper compiles."""
    (tmp_path / "front_kernels.py").write_text(
        "def pytest_param_like(*a):\n    return lambda f: f\n" +
        FRONT_END_KERNELS)
    out = check(run_python(FAKE_TENSOR + """
        import sys; sys.path.insert(0, ".")
        import front_kernels as k
        try:
            k.nothing.warmup(x, grid=(1,), num_warps=3)
        except AssertionError as e:
            assert "must be a power of 2" in str(e), e
        else:
            raise SystemExit("num_warps=3 was accepted")
        k.nothing.warmup(x, grid=(1,), num_warps=2)
        import types
        class HostT(T):
            device = types.SimpleNamespace(type="cpu")
            def __init__(self, p, pinned):
                super().__init__(p)
                self.pinned = pinned
            def is_pinned(self):
                return self.pinned
        try:
            k.nothing_on_host.warmup(HostT(3 << 20, False), grid=(1,))
        except ValueError as e:
            assert "cpu tensor" in str(e), e
        else:
            raise SystemExit("a host tensor was accepted")
        k.nothing_on_host.warmup(HostT(4 << 20, True), grid=(1,))
        w = k.host_test("jit_if").warmup(x, "jit_if", grid=(1,))
        assert ".entry kernel" in w.asm["ptx"]
        print("ok")
    """, tmp_path, TXL_AS_TRITON="1", TXL_LIBRARY=REAL_LIB))
    assert "ok" in out
