"""Per-specialization launcher: packs argument values with one
struct.pack_into into a buffer whose field addresses form the kernelParams
array handed to txl_launch."""

import ctypes
import json
import struct
import sys

from . import _capi
from . import tensor_descriptor as _tensor_descriptor
from ._kernel_info import Asm, KernelInfo

# (metadata type, size) -> struct format code.
_FORMATS = {
    ("ptr", 8): "Q", ("i1", 1): "?", ("i1", 4): "i", ("i8", 1): "b",
    ("i16", 2): "h", ("i32", 4): "i", ("i64", 8): "q", ("u8", 1): "B",
    ("u16", 2): "H", ("u32", 4): "I", ("u64", 8): "Q", ("fp16", 2): "e",
    ("fp32", 4): "f", ("fp64", 8): "d", ("i1", 8): "q",
}


def _bf16_bits(value):
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even


# txl_launch_packet (txl.h): kernel@0, then from offset 8: stream, grid[3],
# nargs, args -- packed on every launch together with the values.
_PACKET_HEAD = "<QIIIiQ"
_PACKET_SIZE = 40


class Launcher(KernelInfo):
    """Launches one compiled kernel. `picks[i]` is the index, in the tuple
    of runtime values, of launch parameter i. One buffer holds the launch
    packet, the parameter values and the kernelParams pointer array; a
    launch is one struct.pack_into and one foreign call."""

    def __init__(self, handle, metadata, picks, num_values=None):
        self.handle = handle
        self.metadata = metadata
        params = metadata["params"]
        self.num_params = n = len(params)
        if len(picks) != n:
            raise _capi.TxlError(7, "txl: launcher/parameter count mismatch")
        fmt, offsets, self._converters = _PACKET_HEAD, [], []
        offset = _PACKET_SIZE
        for i, p in enumerate(params):
            code, size = self._format_of(p, i)
            pad = -offset % min(size, 8)
            fmt += "x" * pad
            offset += pad
            offsets.append(offset)
            fmt += code
            offset += size
        offset += -offset % 8
        pointer_array = offset
        self._buffer = ctypes.create_string_buffer(offset + 8 * max(n, 1))
        base = ctypes.addressof(self._buffer)
        struct.pack_into("<Q", self._buffer, 0, handle)
        struct.pack_into(f"<{n}Q", self._buffer, pointer_array,
                         *[base + o for o in offsets])
        self._args_address = base + pointer_array
        self._pack = struct.Struct(fmt).pack_into
        self._view = memoryview(self._buffer).cast("B")
        self._picks = list(picks)
        self._num_values = num_values
        self._call_fn = None
        self._call = _capi.fast_launch_function()  # builds self._fast

    @property
    def asm(self):
        """The kernel's artifacts by kind: 'txlir', 'txlgir', 'llir',
        'ptx', 'json' (str) and 'cubin' (bytes), read once; 'sass' and
        'html' made on first access."""
        if getattr(self, "_asm", None) is None:
            self._asm = Asm(self.handle, owner=self)
        return self._asm

    @property
    def _call(self):
        """The foreign function that takes the packet (txl_launch_packed).
        Tests and benchmarks swap it; setting it rebuilds `_fast`, which
        holds it in a closure."""
        return self._call_fn

    @_call.setter
    def _call(self, fn):
        self._call_fn = fn
        self._fast = self._make_fast(fn)

    def _make_fast(self, call):
        """A function `fast(gx, gy, gz, stream, v0, ..., v{k-1})` taking
        every runtime value of the call (k = num_values) and launching with
        one pack_into and one foreign call. Generated per launcher so that
        the picking of parameters (None and folded arguments dropped,
        compiler order) and the bf16 conversions are straight-line code:
        no itemgetter, no *-unpacking, no branches on the hot path."""
        picks = self._picks
        count = self._num_values
        if count is None:  # CompiledKernel: values in launch order
            count = max(picks) + 1 if picks else 0
        names = [f"v{i}" for i in range(count)]
        # pack_into a memoryview of the buffer (a little cheaper than the
        # ctypes object's own buffer export); the foreign call gets the
        # ctypes buffer itself.
        env = {"pack": self._pack, "view": self._view, "buf": self._buffer,
               "call": call, "nparams": self.num_params,
               "addr": self._args_address, "capi": _capi}
        packed = []
        for i, pick in enumerate(picks):
            converter = self._converters[i]
            if converter is None:
                packed.append(names[pick])
            else:
                env[f"conv{i}"] = converter
                packed.append(f"conv{i}({names[pick]})")
        # Launcher.launch may pass more values than the kernel reads when
        # the count is not fixed (the old itemgetter path allowed that).
        rest = ["*_rest"] if self._num_values is None else []
        params = ", ".join(["gx", "gy", "gz", "stream"] + names + rest)
        body = ", ".join(["view", "8", "stream or 0", "gx", "gy", "gz",
                          "nparams", "addr"] + packed)
        lines = [f"def _make({', '.join(env)}):",
                 f"    def fast({params}):",
                 f"        pack({body})",
                 "        status = call(buf)",
                 "        if status:",
                 "            capi.check(status)",
                 "    return fast"]
        namespace = {}
        exec(compile("\n".join(lines), "<txl launcher>", "exec"), namespace)
        return namespace["_make"](**env)

    def _format_of(self, param, index):
        ty, size = param["type"], int(param["size"])
        if ty == "bf16" and size == 2:
            self._converters.append(_bf16_bits)
            return "H", 2
        if ty == "tensordesc":
            self._converters.append(_descriptor_converter(param, index))
            return "128s", 128
        self._converters.append(None)
        code = _FORMATS.get((ty, size))
        if code is None:
            if size in (64, 128) or ty == "tensormap":
                # By-value blobs (TMA descriptors): the argument is a
                # bytes-like object of exactly `size` bytes.
                return f"{size}s", size
            raise _capi.TxlError(
                7, f"txl: cannot pass parameter {param.get('name', index)} "
                   f"of type {ty} ({size} bytes)")
        return code, size

    def launch(self, gx, gy, gz, stream, values):
        """Launches with `values`, the call's runtime values (see picks)."""
        self._fast(gx, gy, gz, stream, *values)

    def __del__(self):
        if not sys.is_finalizing():
            _capi.kernel_free(self.handle)


def _descriptor_converter(param, index):
    """The launch-time conversion of a "tensordesc" parameter: a host
    descriptor (txl's or Triton's) -> the 128-byte CUtensorMap, encoded
    with the box, swizzle and element type the compiler recorded.

    Encoding calls the driver, so the bytes are cached on the descriptor,
    per (box, swizzle, dtype) of the parameter (one descriptor may feed
    kernels compiled with different boxes), and reused while the base
    address, base dtype, shape, strides and block shape are those they
    were encoded from: a descriptor whose attributes were changed is
    re-encoded on its next launch."""
    name = param.get("name", index)
    try:
        size = int(param["size"])
        dtype = str(param["dtype"])
        block = tuple(int(b) for b in param["block"])
        box = tuple(int(b) for b in param["box"])
        swizzle = int(param["swizzle"])
    except (KeyError, TypeError, ValueError):
        raise _capi.TxlError(
            7, f"txl: tensordesc parameter {name}: the kernel metadata "
               "lacks size, dtype, block, box or swizzle") from None
    if size != 128 or len(box) != len(block):
        raise _capi.TxlError(
            7, f"txl: tensordesc parameter {name}: bad metadata "
               f"(size {size}, block {list(block)}, box {list(box)})")
    slot = (box, swizzle, dtype)

    def encode(desc):
        if not _tensor_descriptor.is_descriptor(desc):
            raise _capi.TxlError(
                1, f"txl: parameter {name} takes a TensorDescriptor, not "
                   f"{type(desc).__name__}")
        sig, element = _tensor_descriptor.check(desc)
        given = tuple(int(b) for b in desc.block_shape)
        if sig != dtype or given != block:
            raise _capi.TxlError(
                1, f"txl: parameter {name} was compiled for a "
                   f"{dtype}{list(block)} descriptor, got a "
                   f"{sig}{list(given)} one")
        base = desc.base
        state = (base.data_ptr(), base.dtype, tuple(desc.shape),
                 tuple(desc.strides), tuple(desc.block_shape))
        dims, strides_bytes, inner_box = _tensor_descriptor.innermost_first(
            desc.shape, desc.strides, element, box)
        blob = bytes(_capi.make_tensor_map(state[0], dims, strides_bytes,
                                           inner_box, dtype, swizzle))
        if len(blob) != 128:
            raise _capi.TxlError(
                7, f"txl: the tensor map for {name} is {len(blob)} bytes, "
                   "not 128")
        maps = getattr(desc, "_txl_maps", None)
        if maps is None:
            try:
                desc._txl_maps = maps = {}
            except AttributeError:  # a frozen or slotted object: no cache
                return blob
        maps[slot] = (state, blob)
        return blob

    def convert(desc):
        # The launch path: attribute reads and one tuple comparison while
        # the descriptor is unchanged; anything else goes to encode().
        try:
            base = desc.base
            state, blob = desc._txl_maps[slot]
            if state == (base.data_ptr(), base.dtype, tuple(desc.shape),
                         tuple(desc.strides), tuple(desc.block_shape)):
                return blob
        except (AttributeError, KeyError):
            pass
        return encode(desc)

    return convert


def match_params(metadata, runtime_names, entries):
    """Maps each launch parameter in `metadata` to the index of the runtime
    argument that feeds it. By name when the compiler kept the Python names;
    otherwise positionally over the arguments that can be parameters (not
    None, and not ==1 ints if the compiler folded those)."""
    params = metadata["params"]
    index_of = {name: i for i, name in enumerate(runtime_names)}
    names = [p.get("name") for p in params]
    if names and all(n in index_of for n in names):
        return [index_of[n] for n in names]
    live = [i for i, e in enumerate(entries) if e != "none"]
    if len(live) == len(params):
        return live
    unfolded = [i for i in live if not entries[i].endswith(":1")]
    if len(unfolded) == len(params):
        return unfolded
    raise _capi.TxlError(
        7, f"txl: the compiled kernel takes {len(params)} parameters "
           f"({', '.join(map(str, names))}) but {len(live)} runtime "
           "arguments were given")


def parse_metadata(text):
    return json.loads(text)
