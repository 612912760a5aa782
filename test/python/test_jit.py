"""The @txl.jit path up to the launch, with the C library mocked out."""

import os
import json
import struct

import pytest

import txl
import txl.language as tl
from txl import _capi, jit as jit_module
from txl import _launcher
from conftest import REPO, FakeTensor

import kernels_for_tests as K


class MockLibrary:
    """Stands in for libtxl: records compiles and decodes launch packets."""

    def __init__(self, params_for=None):
        self.compiles = []
        self.launches = []
        self.params_for = params_for
        self.next_handle = 1000

    def compile(self, source, filename, name, signature, options_json):
        self.compiles.append(dict(source=source, filename=filename, name=name,
                                  signature=signature,
                                  options=json.loads(options_json)))
        self.next_handle += 1
        return self.next_handle

    def metadata(self, handle):
        signature = self.compiles[-1]["signature"]
        params = self.params_for(signature) if self.params_for else \
            _default_params(signature)
        return json.dumps({"name": self.compiles[-1]["name"], "num_warps": 4,
                           "params": params})

    def launch_function(self):
        def call(buffer):
            kernel, stream, gx, gy, gz, nargs, args = struct.unpack_from(
                "<QQIIIiQ", buffer, 0)
            self.launches.append(dict(kernel=kernel, stream=stream,
                                      grid=(gx, gy, gz), nargs=nargs,
                                      args=args, raw=bytes(buffer)))
            return 0
        return call


def _default_params(signature):
    """Mirror of what a compiler keeps: pointers and scalars in order,
    named like the Python parameters is not possible here -> positional."""
    params = []
    for i, entry in enumerate(signature.split(",")):
        if entry.startswith("*"):
            params.append({"name": f"p{i}", "type": "ptr", "size": 8})
        elif entry.split(":")[0] in ("i32", "i64", "u64", "fp32", "i1") \
                and not entry.endswith(":1"):
            ty = entry.split(":")[0]
            size = {"i32": 4, "i64": 8, "u64": 8, "fp32": 4, "i1": 1}[ty]
            params.append({"name": f"p{i}", "type": ty, "size": size})
    return params


@pytest.fixture
def mock_lib(monkeypatch):
    lib = MockLibrary()
    monkeypatch.setattr(_capi, "compile", lib.compile)
    monkeypatch.setattr(_capi, "kernel_metadata", lib.metadata)
    monkeypatch.setattr(_capi, "kernel_free", lambda handle: None)
    monkeypatch.setattr(_capi, "fast_launch_function", lib.launch_function)
    for kernel in (K.add, K.scaled, K.string_annotated):
        kernel.cache.clear()
    return lib


def read_args(launch, formats):
    """Decodes the kernelParams array of a recorded launch."""
    import ctypes
    values = []
    for i, fmt in enumerate(formats):
        ptr = ctypes.c_uint64.from_address(launch["args"] + 8 * i).value
        size = struct.calcsize(fmt)
        values.append(struct.unpack(fmt, ctypes.string_at(ptr, size))[0])
    return values


def test_parameters_and_constexprs():
    assert K.add.arg_names == ["x", "y", "out", "n", "BLOCK"]
    assert [p.is_constexpr for p in K.add.params] == [False] * 4 + [True]
    assert [p.name for p in K.string_annotated.params if p.is_constexpr] == \
        ["BLOCK"]
    assert K.scaled.options["num_warps"] == 8
    assert [p.name for p in K.scaled.params if p.do_not_specialize] == ["n"]


def test_signature_and_options(mock_lib):
    x, y, o = FakeTensor(4096), FakeTensor(8192), FakeTensor(12288 + 4)
    sig, options, entries = K.add.specialization((x, y, o, 1000), {"BLOCK": 128})
    assert sig == "*fp32:16,*fp32:16,*fp32,i32,128"
    assert entries == ["*fp32:16", "*fp32:16", "*fp32", "i32"]
    assert options == {"num_warps": 4, "num_warpgroups": 1, "num_stages": 3,
                       "num_ctas": 1, "maxnreg": 0, "enable_fp_fusion": True,
                       "enable_reflect_ftz": True}
    sig, options, _ = K.scaled.specialization(
        (FakeTensor(0, "torch.float16"), FakeTensor(16, "torch.bfloat16"),
         1, 2.0, True, None), {"num_warpgroups": 3})
    # n is do_not_specialize: "i32", not "i32:1"; defaults fill constexprs.
    assert sig == "*fp16:16,*bf16:16,i32,fp32,i1,none,256,'relu'"
    assert options["num_warps"] == 8 and options["num_warpgroups"] == 3


def test_compile_flags_reach_the_compiler_as_booleans(mock_lib):
    x, y, o = FakeTensor(4096), FakeTensor(8192), FakeTensor(12288 + 4)
    _, options, _ = K.add.specialization(
        (x, y, o, 1000), {"BLOCK": 128, "enable_fp_fusion": False,
                          "enable_reflect_ftz": False, "maxnreg": 40})
    assert options["enable_fp_fusion"] is False
    assert options["maxnreg"] == 40
    payload = json.loads(K.add.options_json(options))
    assert payload["enable_fp_fusion"] is False
    assert payload["enable_reflect_ftz"] is False
    assert payload["maxnreg"] == 40


def test_launch_compiles_once_per_key_and_packs_arguments(mock_lib):
    x, y, o = FakeTensor(4096), FakeTensor(8192), FakeTensor(1 << 20)
    K.add[(7,)](x, y, o, 1000, BLOCK=128)
    K.add[(7, 2)](x, y, o, 1000, BLOCK=128)
    K.add[lambda meta: (meta["n"] // meta["BLOCK"] + 1, 1, 3)](
        x, y, o, 1000, 128)  # positional constexpr: the same key
    assert len(mock_lib.compiles) == 1
    compiled = mock_lib.compiles[0]
    assert compiled["name"] == "add"
    assert compiled["filename"] == K.__file__
    assert "def add(x, y, out, n, BLOCK: tl.constexpr):" in compiled["source"]
    assert "def helper(x):" in compiled["source"]  # the whole module
    assert compiled["options"]["num_warps"] == 4
    grids = [launch["grid"] for launch in mock_lib.launches]
    assert grids == [(7, 1, 1), (7, 2, 1), (8, 1, 3)]
    for launch in mock_lib.launches:
        assert launch["nargs"] == 4 and launch["stream"] == 0
        assert read_args(launch, ["<Q", "<Q", "<Q", "<i"]) == \
            [4096, 8192, 1 << 20, 1000]


def test_new_key_for_each_specialization_change(mock_lib):
    x, y, o = FakeTensor(4096), FakeTensor(8192), FakeTensor(16384)
    K.add[(1,)](x, y, o, 1024, BLOCK=128)
    K.add[(1,)](x, y, o, 1000, BLOCK=128)            # 16-divisibility lost
    K.add[(1,)](x, y, o, 1, BLOCK=128)               # ==1
    K.add[(1,)](x, y, o, 1024, BLOCK=256)            # constexpr
    K.add[(1,)](x, y, o, 1024, BLOCK=128, num_warps=8)  # option
    K.add[(1,)](FakeTensor(4100), y, o, 1024, BLOCK=128)  # alignment
    K.add[(1,)](x, y, FakeTensor(0, "torch.float16"), 1024, BLOCK=128)
    K.add[(1,)](x, y, o, 2**40, BLOCK=128)           # i64
    K.add[(1,)](x, y, o, 1024, BLOCK=True)           # True is not 1
    keys = [(c["signature"], c["options"]["num_warps"])
            for c in mock_lib.compiles]
    assert len(keys) == len(set(keys)) == 9
    sigs = [sig for sig, _ in keys]
    assert "*fp32:16,*fp32:16,*fp32:16,i32:16,128" in sigs
    assert "*fp32:16,*fp32:16,*fp32:16,i32,128" in sigs
    assert "*fp32:16,*fp32:16,*fp32:16,i32:1,128" in sigs
    assert "*fp32:16,*fp32:16,*fp32:16,i64:16,128" in sigs
    assert "*fp32:16,*fp32:16,*fp32:16,i32:16,True" in sigs
    assert keys[4] == ("*fp32:16,*fp32:16,*fp32:16,i32:16,128", 8)
    # Repeats hit the cache.
    K.add[(1,)](x, y, o, 1024, BLOCK=128)
    K.add[(1,)](x, y, o, 2048, BLOCK=128)  # still "i32:16"
    K.add[(1,)](x, y, o, 1003, BLOCK=128)  # still "i32"
    assert len(mock_lib.compiles) == 9


def test_folded_and_none_arguments_are_not_passed(mock_lib):
    x, o = FakeTensor(64), FakeTensor(128)
    K.scaled[(2,)](x, o, 1, 0.25, True, None, BLOCK=64)
    launch = mock_lib.launches[-1]
    # n (do_not_specialize -> kept), alpha, flag; opt=None is dropped.
    assert launch["nargs"] == 5
    assert read_args(launch, ["<Q", "<Q", "<i", "<f", "<?"]) == \
        [64, 128, 1, 0.25, True]
    x1 = FakeTensor(64)
    K.add[(1,)](x1, x1, x1, 1, BLOCK=16)  # n == 1 folded by _default_params
    launch = mock_lib.launches[-1]
    assert launch["nargs"] == 3


def test_params_matched_by_name_when_the_compiler_keeps_names(monkeypatch,
                                                              mock_lib):
    # A compiler that reorders nothing but names parameters after Python's.
    mock_lib.params_for = lambda sig: [
        {"name": "n", "type": "i32", "size": 4},
        {"name": "out", "type": "ptr", "size": 8},
        {"name": "x", "type": "ptr", "size": 8}]
    x, y, o = FakeTensor(16), FakeTensor(32), FakeTensor(48)
    K.add[(1,)](x, y, o, 77, BLOCK=16)
    assert read_args(mock_lib.launches[-1], ["<i", "<Q", "<Q"]) == [77, 48, 16]


def test_globals_handed_to_the_compiler(mock_lib):
    x, o = FakeTensor(64), FakeTensor(128)
    K.scaled[(1,)](x, o, 5, 1.0, False, None)
    g = mock_lib.compiles[-1]["options"]["globals"]
    assert g["USE_FAST"] == "True"
    assert g["DT"] == "tl.float16"
    assert g["WRAPPED"] == "64"
    assert g["LAYOUT"] == "txl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])"
    assert "UNUSED_BY_KERNELS" not in g and "not_a_value" not in g
    K.add[(1,)](x, x, o, 5, BLOCK=16)
    g = mock_lib.compiles[-1]["options"]["globals"]
    assert g["SCALE"] == "3"
    assert g["HALF"] == "0.5"  # read by the helper the kernel calls


def test_call_errors(mock_lib):
    x = FakeTensor(64)
    with pytest.raises(TypeError, match="add\\[grid\\]"):
        K.add[(1,)](x, x, x)  # missing n and BLOCK
    with pytest.raises(TypeError):
        K.add[(1,)](x, x, x, 4, BLOCK=4, num_wraps=4)
    with pytest.raises(RuntimeError, match="launch it with"):
        K.add(x, x, x, 4, 4)
    with pytest.raises(TypeError, match="unsupported kernel argument"):
        K.add[(1,)](x, "y", x, 4, BLOCK=4)
    assert not mock_lib.launches


def test_jit_forms_and_triton_wrapped_functions():
    def kernel(a, B: tl.constexpr):
        pass

    assert isinstance(txl.jit(kernel), txl.JITFunction)
    assert txl.jit(num_warps=2)(kernel).options["num_warps"] == 2

    class TritonJITLike:
        def __init__(self, fn):
            self.fn = fn

    assert txl.jit(TritonJITLike(kernel)).fn is kernel
    with pytest.raises(TypeError):
        txl.jit(num_wrap=2)(kernel)


def test_unhashable_constexpr_values_still_work(mock_lib):
    @txl.jit
    def k(x, SHAPE: tl.constexpr):
        pass

    k[(1,)](FakeTensor(0), SHAPE=[2, 3])
    k[(1,)](FakeTensor(0), SHAPE=[2, 3])
    assert [c["signature"] for c in mock_lib.compiles] == ["*fp32:16,(2, 3)"]


def test_launch_overhead_is_small(mock_lib):
    import time
    x, y, o = FakeTensor(4096), FakeTensor(8192), FakeTensor(16384)
    K.add[(4,)](x, y, o, 1000, BLOCK=128)
    mock_lib.launches.clear()
    launcher = next(iter(K.add.cache.values()))
    launcher._call = lambda buffer: 0
    n = 20000
    start = time.perf_counter()
    for _ in range(n):
        K.add[(4,)](x, y, o, 1000, BLOCK=128)
    per_launch_us = (time.perf_counter() - start) / n * 1e6
    # The target is <= 5 us on a modern host with the real C call; this
    # machine-independent bound only catches regressions to slow paths.
    assert per_launch_us < 25, per_launch_us


HOST_CODE_MODULE = '''import triton
import triton.language as tl
SCALE = 2

@triton.jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, x * SCALE, mask=offs < n)

grid = lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)

class Runner:
    def run(self):
        return {k: v for k, v in zip("ab", (1, 2))}

if __name__ == "__main__":
    print(f"{grid({'BLOCK': 4})}")
'''


def test_kernel_source_blanks_host_code_and_keeps_lines():
    from txl.jit import kernel_source
    out = kernel_source(HOST_CODE_MODULE)
    assert out.count("\n") == HOST_CODE_MODULE.count("\n")
    for gone in ("lambda", "class Runner", "__main__", "print("):
        assert gone not in out
    assert "SCALE = 2" in out and "def scale_kernel" in out
    # Kept lines are untouched, so diagnostics keep their line:col.
    for a, b in zip(out.splitlines(), HOST_CODE_MODULE.splitlines()):
        assert a == "" or a == b


def test_kernel_source_counts_lines_as_python_does():
    # A form feed is no line break for Python (str.splitlines says it is).
    from txl.jit import kernel_source
    text = "x = {1: 2}  # host\x0c code\nimport triton\r\nY = 3\n"
    out = kernel_source(text)
    assert out.split("\n") == ["", "import triton", "Y = 3", ""]


def test_kernel_source_of_host_code_module_compiles(tmp_path):
    import subprocess
    from txl.jit import kernel_source
    txlc = os.path.join(REPO, "build", "bin", "txlc")
    if not os.path.exists(txlc):
        pytest.skip("build/bin/txlc not built")
    path = tmp_path / "module.py"
    path.write_text(kernel_source(HOST_CODE_MODULE))
    result = subprocess.run(
        [txlc, str(path), "--kernel-name", "scale_kernel", "--signature",
         "*fp32:16, i32, 128", "--out-dir", str(tmp_path)],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "scale_kernel.ptx").exists()


DECORATED_HOST_TEST = '''import pytest
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"B": 4})],
    key=[])
@triton.jit
def tuned(p, B: tl.constexpr):
    tl.store(p, 1)


@pytest.mark.parametrize("mode", ["jit", "jit_if", "autotune"])
def test_host(mode):
    @triton.jit
    def kernel(p):
        tl.store(p, 2)
    return kernel
'''


def test_kernel_source_keeps_lines_under_multiline_decorators():
    # A host function whose decorator merely mentions "jit" (pytest's
    # parametrize over strings) is host code; a kept kernel's other
    # decorators are blanked in place (no line is added).
    from txl.jit import kernel_source
    out = kernel_source(DECORATED_HOST_TEST)
    assert out.count("\n") == DECORATED_HOST_TEST.count("\n")
    for a, b in zip(out.split("\n"), DECORATED_HOST_TEST.split("\n")):
        assert a == "" or a == b
    assert "def tuned" in out and "@triton.jit" in out
    assert "parametrize" not in out and "def test_host" not in out
    assert "configs=" not in out
