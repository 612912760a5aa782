"""Host tensor descriptors: validation, the signature entry, and the
encoding into the 128-byte CUtensorMap at launch (innermost-first arrays,
the per-descriptor cache, the kernelParams slot), with the driver call
(_capi.make_tensor_map) replaced by a recorder. No GPU, no library."""

import ctypes
import dataclasses
import struct

import pytest

import txl
import txl.language as tl
from txl import _capi, _specialize
from txl._launcher import Launcher
from txl.tensor_descriptor import TensorDescriptor
from test_jit import MockLibrary, read_args

ELEMENT = {"torch.float16": 2, "torch.bfloat16": 2, "torch.float32": 4,
           "torch.int8": 1, "torch.bool": 1}


class FakeTensor:
    """A strided tensor view: shape, stride() (elements), dtype (torch
    spelling), data_ptr(), element_size(), and column/row slicing enough
    for a view into a wider tensor."""

    def __init__(self, ptr, shape, dtype="torch.float16", strides=None):
        self.ptr = ptr
        self.shape = tuple(shape)
        self.dtype = dtype
        if strides is None:
            strides, step = [], 1
            for d in reversed(self.shape):
                strides.insert(0, step)
                step *= d
        self._strides = tuple(strides)

    def data_ptr(self):
        return self.ptr

    def stride(self):
        return self._strides

    def element_size(self):
        return ELEMENT[self.dtype]

    def columns(self, start, stop):
        """self[:, start:stop] of a 2-D tensor (same row stride)."""
        return FakeTensor(self.ptr + start * self.element_size(),
                          (self.shape[0], stop - start), self.dtype,
                          self._strides)


@dataclasses.dataclass
class TritonStyleDescriptor:
    """Shaped like triton.tools.tensor_descriptor.TensorDescriptor."""
    base: object
    shape: list
    strides: list
    block_shape: list
    padding: str = "zero"


class Recorder:
    """Stands in for _capi.make_tensor_map: records each call and returns
    a ctypes byte array (as the real one does) that says which call made
    it: the base address, then the call number repeated."""

    def __init__(self):
        self.calls = []

    def __call__(self, base, dims, strides_bytes, box, dtype, swizzle):
        self.calls.append(dict(base=base, dims=list(dims),
                               strides=list(strides_bytes), box=list(box),
                               dtype=dtype, swizzle=swizzle))
        blob = struct.pack("<Q", base) + bytes([len(self.calls)]) * 120
        return (ctypes.c_uint8 * 128).from_buffer_copy(blob)

    @staticmethod
    def blob(base, call_number):
        return struct.pack("<Q", base) + bytes([call_number]) * 120


@pytest.fixture
def encoder(monkeypatch):
    recorder = Recorder()
    monkeypatch.setattr(_capi, "make_tensor_map", recorder)
    monkeypatch.setattr(_capi, "fast_launch_function", lambda: None)
    monkeypatch.setattr(_capi, "kernel_free", lambda handle: None)
    return recorder


def desc_param(name="a_desc", dtype="fp16", block=(128, 64), box=None,
               swizzle=128):
    return {"name": name, "type": "tensordesc", "size": 128, "dtype": dtype,
            "block": list(block), "box": list(box or block),
            "swizzle": swizzle}


def launcher_for(*params):
    metadata = {"params": list(params)}
    launcher = Launcher(5, metadata, list(range(len(params))), len(params))
    launcher._call = lambda buffer: 0
    return launcher


def slot(launcher, i, fmt):
    args = struct.unpack_from("<Q", launcher._buffer, 32)[0]
    ptr = ctypes.c_uint64.from_address(args + 8 * i).value
    return struct.unpack(fmt, ctypes.string_at(ptr, struct.calcsize(fmt)))[0]


# -- construction and validation -------------------------------------------

def test_from_tensor_and_export():
    t = FakeTensor(1 << 20, (256, 512))
    d = txl.TensorDescriptor.from_tensor(t, [128, 64])
    assert txl.TensorDescriptor is TensorDescriptor
    assert d.base is t
    assert (d.shape, d.strides, d.block_shape) == \
        ([256, 512], [512, 1], [128, 64])
    assert d.padding == "zero"
    assert "block_shape=[128, 64]" in repr(d)


@pytest.mark.parametrize("make, message", [
    (lambda t: TensorDescriptor(t, [], [], []), "rank 0"),
    (lambda t: TensorDescriptor(t, [2] * 6, [1] * 6, [1] * 6), "rank 6"),
    (lambda t: TensorDescriptor(t, [64, 64], [64, 1], [64]), "same rank"),
    (lambda t: TensorDescriptor(t, [64, 64], [64], [64, 64]), "same rank"),
    (lambda t: TensorDescriptor(t, [64, 64], [1, 64], [64, 64]),
     "last stride is 64"),
    (lambda t: TensorDescriptor(FakeTensor(4104, (64, 64)), [64, 64],
                                [64, 1], [64, 64]), "not 16-byte aligned"),
    # 36 fp16 elements = 72 bytes: not a multiple of 16.
    (lambda t: TensorDescriptor(t, [64, 36], [36, 1], [64, 32]),
     r"strides\[0\] is 36 elements = 72 bytes"),
    (lambda t: TensorDescriptor(t, [4, 64, 64], [0, 64, 1], [1, 64, 64]),
     r"strides\[0\] is 0"),
    (lambda t: TensorDescriptor(t, [64, 64], [64, 1], [64, 48]),
     r"block_shape\[1\] is 48"),
    (lambda t: TensorDescriptor(t, [64, 1 << 17], [1 << 17, 1],
                                [64, 1 << 17]),
     r"block_shape\[1\] is 131072"),
    (lambda t: TensorDescriptor(t, [64, 64], [64, 1], [0, 64]),
     r"block_shape\[0\] is 0"),
    (lambda t: TensorDescriptor(t, [0, 64], [64, 1], [64, 64]),
     r"shape\[0\] is 0"),
    (lambda t: TensorDescriptor(t, [64, 64], [64, 1], [64, 64], "nan"),
     "padding='nan'"),
    (lambda t: TensorDescriptor.from_tensor(
        FakeTensor(4096, (64, 64), "torch.bool"), [64, 64]),
     "cannot move elements of type i1"),
])
def test_validation_errors(make, message):
    t = FakeTensor(4096, (64, 64))
    with pytest.raises(ValueError, match=message):
        make(t)


def test_valid_edge_cases():
    # Rank 1 and rank 5, block 1 and 256, an 8-bit row of 16 elements.
    TensorDescriptor(FakeTensor(4096, (1000,), "torch.float32"), [1000], [1],
                     [256])
    TensorDescriptor.from_tensor(FakeTensor(4096, (2, 2, 2, 2, 16),
                                            "torch.int8"), [1, 1, 1, 2, 16])
    with pytest.raises(TypeError, match="unsupported tensor dtype"):
        TensorDescriptor.from_tensor(FakeTensor(4096, (8, 8), "torch.quux"),
                                     [8, 8])


# -- signature entries -----------------------------------------------------

def test_signature_entry_and_value():
    d = TensorDescriptor.from_tensor(FakeTensor(4096, (256, 512)), [128, 64])
    assert _specialize.arg(d) == ("tensordesc<fp16[128, 64]>", d)
    assert _specialize.arg(d)[1] is d
    assert _specialize.arg_nospec(d) == ("tensordesc<fp16[128, 64]>", d)
    d3 = TensorDescriptor.from_tensor(
        FakeTensor(4096, (4, 64, 128), "torch.float32"), [2, 32, 64])
    assert _specialize.arg(d3)[0] == "tensordesc<fp32[2, 32, 64]>"
    bf = TensorDescriptor.from_tensor(
        FakeTensor(4096, (64, 64), "torch.bfloat16"), [16, 64])
    assert _specialize.arg(bf)[0] == "tensordesc<bf16[16, 64]>"
    # Tensors still take the pointer path.
    assert _specialize.arg(FakeTensor(4096, (8,)))[0] == "*fp16:16"


def test_triton_descriptors_by_duck_typing():
    t = FakeTensor(4096, (256, 512))
    d = TritonStyleDescriptor(t, list(t.shape), list(t.stride()), [64, 32])
    assert _specialize.arg(d) == ("tensordesc<fp16[64, 32]>", d)
    d.padding = "nan"
    d.block_shape = [64, 64]  # a new entry: validated again
    with pytest.raises(ValueError, match="padding"):
        _specialize.arg(d)
    # Something with only some of the attributes is not a descriptor.

    class NotADescriptor:
        base, shape, strides = t, (1,), (1,)
    with pytest.raises(TypeError, match="unsupported kernel argument"):
        _specialize.arg(NotADescriptor())


def test_signature_entry_cache_follows_mutation(monkeypatch):
    t = FakeTensor(4096, (256, 512))
    d = TensorDescriptor.from_tensor(t, [128, 64])
    assert _specialize.arg(d)[0] == "tensordesc<fp16[128, 64]>"
    assert d._txl_entry[1] == "tensordesc<fp16[128, 64]>"
    # A cache hit does not validate again (the cheap path) ...
    checks = []
    from txl import tensor_descriptor as td
    real_check = td.check
    monkeypatch.setattr(td, "check",
                        lambda desc: checks.append(desc) or real_check(desc))
    assert _specialize.arg(d)[0] == "tensordesc<fp16[128, 64]>"
    assert checks == []
    # ... but a changed block shape or base dtype gives a new entry.
    d.block_shape = [64, 64]
    assert _specialize.arg(d)[0] == "tensordesc<fp16[64, 64]>"
    d.block_shape[0] = 32  # in place, too
    assert _specialize.arg(d)[0] == "tensordesc<fp16[32, 64]>"
    d.base = FakeTensor(4096, (256, 512), "torch.float32")
    assert _specialize.arg(d)[0] == "tensordesc<fp32[32, 64]>"
    assert len(checks) == 3


# -- encoding at launch ----------------------------------------------------

def test_fp16_encoding_and_slot(encoder):
    t = FakeTensor(0x10000, (256, 512))
    d = TensorDescriptor.from_tensor(t, [128, 64])
    launcher = launcher_for({"name": "x", "type": "ptr", "size": 8},
                            desc_param(),
                            {"name": "n", "type": "i32", "size": 4})
    launcher.launch(1, 1, 1, None, (0xABCDE0, d, 77))
    assert encoder.calls == [dict(base=0x10000, dims=[512, 256],
                                  strides=[1024], box=[64, 128],
                                  dtype="fp16", swizzle=128)]
    assert slot(launcher, 0, "<Q") == 0xABCDE0
    assert slot(launcher, 1, "128s") == Recorder.blob(0x10000, 1)
    assert slot(launcher, 2, "<i") == 77


def test_fp32_box_narrower_than_block(encoder):
    # A 64-wide fp32 block is 256 bytes a row: the compiler fetches it as
    # two 32-wide boxes (128 bytes, the swizzle span); the host encodes
    # the box, not the block.
    t = FakeTensor(0x20000, (100, 96), "torch.float32")
    d = TensorDescriptor.from_tensor(t, [64, 64])
    launcher = launcher_for(desc_param("b", "fp32", (64, 64), (64, 32), 128))
    launcher.launch(1, 1, 1, None, (d,))
    assert encoder.calls == [dict(base=0x20000, dims=[96, 100],
                                  strides=[384], box=[32, 64],
                                  dtype="fp32", swizzle=128)]
    assert slot(launcher, 0, "128s") == Recorder.blob(0x20000, 1)


def test_column_slice_keeps_the_row_stride(encoder):
    # wide[:, 256:512] of a 128 x 1024 fp16 tensor: the base moves by 256
    # elements, the row stride stays 1024 elements (2048 bytes).
    wide = FakeTensor(0x40000, (128, 1024))
    view = wide.columns(256, 512)
    d = TensorDescriptor.from_tensor(view, [64, 64])
    assert d.strides == [1024, 1]
    launcher = launcher_for(desc_param(block=(64, 64), swizzle=128))
    launcher.launch(1, 1, 1, None, (d,))
    assert encoder.calls == [dict(base=0x40000 + 512, dims=[256, 128],
                                  strides=[2048], box=[64, 64],
                                  dtype="fp16", swizzle=128)]


def test_rank3_and_swizzle_from_metadata(encoder):
    t = FakeTensor(0x80000, (4, 64, 128), "torch.bfloat16")
    d = TensorDescriptor.from_tensor(t, [1, 32, 32])
    launcher = launcher_for(desc_param("c", "bf16", (1, 32, 32),
                                       swizzle=64))
    launcher.launch(1, 1, 1, None, (d,))
    assert encoder.calls == [dict(base=0x80000, dims=[128, 64, 4],
                                  strides=[256, 16384], box=[32, 32, 1],
                                  dtype="bf16", swizzle=64)]


def test_encoding_cache(encoder):
    t = FakeTensor(0x10000, (256, 512))
    d = TensorDescriptor.from_tensor(t, [128, 64])
    launcher = launcher_for(desc_param())
    for _ in range(3):
        launcher.launch(1, 1, 1, None, (d,))
    assert len(encoder.calls) == 1
    assert slot(launcher, 0, "128s") == Recorder.blob(0x10000, 1)

    d.base = FakeTensor(0x30000, (256, 512))  # a new base address
    launcher.launch(1, 1, 1, None, (d,))
    assert len(encoder.calls) == 2 and encoder.calls[-1]["base"] == 0x30000
    assert slot(launcher, 0, "128s") == Recorder.blob(0x30000, 2)
    launcher.launch(1, 1, 1, None, (d,))
    assert len(encoder.calls) == 2

    d.shape = [128, 512]  # a new shape
    launcher.launch(1, 1, 1, None, (d,))
    assert len(encoder.calls) == 3 and encoder.calls[-1]["dims"] == [512, 128]
    d.shape[0] = 64  # mutated in place
    launcher.launch(1, 1, 1, None, (d,))
    assert len(encoder.calls) == 4 and encoder.calls[-1]["dims"] == [512, 64]

    d.strides = [1024, 1]  # a new row stride
    launcher.launch(1, 1, 1, None, (d,))
    assert len(encoder.calls) == 5 and \
        encoder.calls[-1]["strides"] == [2048]
    assert slot(launcher, 0, "128s") == Recorder.blob(0x30000, 5)

    # The same descriptor for a kernel with another swizzle: encoded once
    # for that kernel; both encodings stay cached.
    other = launcher_for(desc_param(swizzle=0))
    other.launch(1, 1, 1, None, (d,))
    assert encoder.calls[-1]["swizzle"] == 0 and len(encoder.calls) == 6
    launcher.launch(1, 1, 1, None, (d,))
    other.launch(1, 1, 1, None, (d,))
    assert len(encoder.calls) == 6
    assert slot(launcher, 0, "128s") == Recorder.blob(0x30000, 5)
    assert slot(other, 0, "128s") == Recorder.blob(0x30000, 6)

    # A second descriptor object has its own cache.
    d2 = TensorDescriptor.from_tensor(t, [128, 64])
    launcher.launch(1, 1, 1, None, (d2,))
    assert len(encoder.calls) == 7


def test_triton_style_descriptor_at_launch(encoder):
    t = FakeTensor(0x10000, (256, 512))
    d = TritonStyleDescriptor(t, t.shape, t.stride(), [128, 64])
    launcher = launcher_for(desc_param())
    launcher.launch(1, 1, 1, None, (d,))
    launcher.launch(1, 1, 1, None, (d,))
    assert len(encoder.calls) == 1
    assert encoder.calls[0]["dims"] == [512, 256]
    assert slot(launcher, 0, "128s") == Recorder.blob(0x10000, 1)


def test_frozen_descriptor_is_encoded_uncached(encoder):
    @dataclasses.dataclass(frozen=True)
    class Frozen:
        base: object
        shape: tuple
        strides: tuple
        block_shape: tuple

    t = FakeTensor(0x10000, (256, 512))
    d = Frozen(t, t.shape, t.stride(), (128, 64))
    assert _specialize.arg(d)[0] == "tensordesc<fp16[128, 64]>"
    launcher = launcher_for(desc_param())
    launcher.launch(1, 1, 1, None, (d,))
    launcher.launch(1, 1, 1, None, (d,))
    assert len(encoder.calls) == 2
    assert slot(launcher, 0, "128s") == Recorder.blob(0x10000, 2)


def test_launch_errors(encoder):
    t = FakeTensor(0x10000, (256, 512))
    launcher = launcher_for(desc_param())
    with pytest.raises(_capi.TxlError, match=r"compiled for a fp16\[128, 64\] "
                       r"descriptor, got a fp16\[64, 64\]"):
        launcher.launch(1, 1, 1, None,
                        (TensorDescriptor.from_tensor(t, [64, 64]),))
    f32 = FakeTensor(0x10000, (256, 512), "torch.float32")
    with pytest.raises(_capi.TxlError, match=r"got a fp32\[128, 64\]"):
        launcher.launch(1, 1, 1, None,
                        (TensorDescriptor.from_tensor(f32, [128, 64]),))
    with pytest.raises(_capi.TxlError, match="takes a TensorDescriptor"):
        launcher.launch(1, 1, 1, None, (bytes(128),))
    # A descriptor made invalid after construction is caught at launch.
    d = TensorDescriptor.from_tensor(t, [128, 64])
    d.base = FakeTensor(0x10008, (256, 512))
    with pytest.raises(ValueError, match="16-byte aligned"):
        launcher.launch(1, 1, 1, None, (d,))
    assert encoder.calls == []
    with pytest.raises(_capi.TxlError, match="lacks size, dtype"):
        launcher_for({"name": "d", "type": "tensordesc", "size": 128})
    with pytest.raises(_capi.TxlError, match="bad metadata"):
        launcher_for(desc_param(block=(64, 64), box=(64,)))


def test_make_tensor_map_keeps_its_behaviour(encoder):
    wide = FakeTensor(0x40000, (128, 1024))
    out = txl.make_tensor_map(wide.columns(256, 512), [64, 32],
                              swizzle_bytes=64)
    assert bytes(out) == Recorder.blob(0x40200, 1)
    assert encoder.calls == [dict(base=0x40200, dims=[256, 128],
                                  strides=[2048], box=[32, 64],
                                  dtype="fp16", swizzle=64)]
    with pytest.raises(ValueError, match="rank differs"):
        txl.make_tensor_map(wide, [64])


# -- through @txl.jit ------------------------------------------------------

@txl.jit
def tma_copy(a_desc, out, n, BLOCK: tl.constexpr):
    pass


def _params_for(signature):
    """The metadata a compiler would give tma_copy: the descriptor's box
    halves a block wider than 64 elements."""
    entry = signature.split(">")[0] + ">"
    dtype = entry[len("tensordesc<"):entry.index("[")]
    block = [int(b) for b in entry[entry.index("[") + 1:-2].split(", ")]
    box = block[:-1] + [min(block[-1], 64)]
    return [{"name": "a_desc", "type": "tensordesc", "size": 128,
             "dtype": dtype, "block": block, "box": box, "swizzle": 128},
            {"name": "out", "type": "ptr", "size": 8},
            {"name": "n", "type": "i32", "size": 4}]


@pytest.fixture
def jit_lib(monkeypatch, encoder):
    lib = MockLibrary(params_for=_params_for)
    monkeypatch.setattr(_capi, "compile", lib.compile)
    monkeypatch.setattr(_capi, "kernel_metadata", lib.metadata)
    monkeypatch.setattr(_capi, "fast_launch_function", lib.launch_function)
    tma_copy.cache.clear()
    return lib


def test_jit_launch_with_a_descriptor(jit_lib, encoder):
    t = FakeTensor(0x10000, (256, 512))
    out = FakeTensor(0x90000, (256, 512))
    d = TensorDescriptor.from_tensor(t, [128, 128])
    for n in (1001, 2001, 3001):
        tma_copy[(2, 4)](d, out, n, BLOCK=128)
    assert [c["signature"] for c in jit_lib.compiles] == \
        ["tensordesc<fp16[128, 128]>,*fp16:16,i32,128"]
    assert len(encoder.calls) == 1
    assert encoder.calls[0]["box"] == [64, 128]  # the metadata's box
    assert read_args(jit_lib.launches[-1], ["128s", "<Q", "<i"]) == \
        [Recorder.blob(0x10000, 1), 0x90000, 3001]
    # Another block shape is another specialization; a Triton-style
    # descriptor with the first block shape reuses the first kernel.
    tma_copy[(1,)](TensorDescriptor.from_tensor(t, [64, 64]), out, 8,
                   BLOCK=128)
    tma_copy[(1,)](TritonStyleDescriptor(t, [256, 512], [512, 1],
                                         [128, 128]), out, 8, BLOCK=128)
    assert [c["signature"] for c in jit_lib.compiles] == \
        ["tensordesc<fp16[128, 128]>,*fp16:16,i32,128",
         "tensordesc<fp16[64, 64]>,*fp16:16,i32,128"]
    assert [c["box"] for c in encoder.calls[1:]] == [[64, 64], [64, 128]]
