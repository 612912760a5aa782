"""Host tensor descriptors: a tensor plus the block shape a kernel moves
with TMA.

A descriptor is passed to a kernel like a tensor. It specializes the
kernel on its element type and block shape (signature entry
"tensordesc<fp16[128, 64]>") and is encoded into the 128-byte CUtensorMap
at launch (_launcher.py), with the box and swizzle the compiler chose.

Everything here also accepts Triton's host descriptors
(triton.tools.tensor_descriptor.TensorDescriptor) by their attributes
(base, shape, strides, block_shape, padding), so host code written for
Triton passes its descriptors unchanged.
"""

from . import _specialize

# Bytes per element of each signature type TMA can move: the types libtxl's
# encoder knows (lib/Runtime/TensorMap.cpp). Strides are turned into bytes
# with these sizes, so they must be the TMA element's, not the framework's.
ELEMENT_BYTES = {
    "i8": 1, "u8": 1, "fp8e4nv": 1, "fp8e5": 1,
    "i16": 2, "u16": 2, "fp16": 2, "bf16": 2,
    "i32": 4, "u32": 4, "fp32": 4,
    "i64": 8, "u64": 8, "fp64": 8,
}

MAX_RANK = 5
# A block may be larger than the TMA box (256 a dimension): the compiler
# copies it as several boxes and records the box it chose, and that box is
# what the launcher encodes (and lib/Runtime/TensorMap.cpp checks).
MAX_BLOCK = 1 << 16


def innermost_first(shape, strides, element_bytes, box):
    """(dims, strides in bytes, box) in the driver's order, innermost
    dimension first, from shape/strides (in elements) and a box given in
    the tensor's own order (outermost first). The innermost stride is
    implicit (the elements are contiguous), so it is dropped."""
    dims = [int(d) for d in reversed(shape)]
    strides_bytes = [int(s) * element_bytes for s in reversed(strides)][1:]
    return dims, strides_bytes, [int(b) for b in reversed(box)]


def is_descriptor(value):
    """A txl descriptor, or anything shaped like one (Triton's)."""
    return isinstance(value, TensorDescriptor) or (
        hasattr(value, "base") and hasattr(value, "block_shape")
        and hasattr(value, "shape") and hasattr(value, "strides"))


def check(desc):
    """Validates a descriptor against what TMA and the compiler accept;
    returns (signature element type, element bytes). Raises ValueError
    (TypeError for a dtype txl does not know) naming the problem."""
    base = desc.base
    shape, strides = list(desc.shape), list(desc.strides)
    block = list(desc.block_shape)
    rank = len(shape)
    if not 1 <= rank <= MAX_RANK:
        raise ValueError(f"TensorDescriptor: rank {rank} is not supported; "
                         f"TMA handles 1 to {MAX_RANK} dimensions")
    if len(strides) != rank or len(block) != rank:
        raise ValueError(
            f"TensorDescriptor: shape, strides and block_shape must have "
            f"the same rank (got {rank}, {len(strides)} and {len(block)})")
    sig = _specialize.dtype_sig(base.dtype)
    element = ELEMENT_BYTES.get(sig)
    if element is None:
        raise ValueError(f"TensorDescriptor: TMA cannot move elements of "
                         f"type {sig}")
    for i, d in enumerate(shape):
        if int(d) < 1:
            raise ValueError(f"TensorDescriptor: shape[{i}] is {d}; every "
                             "dimension must be at least 1")
    if int(strides[-1]) != 1:
        raise ValueError(
            f"TensorDescriptor: the last stride is {strides[-1]}; the "
            "innermost dimension must be contiguous (stride 1)")
    ptr = base.data_ptr()
    if ptr % 16:
        raise ValueError(f"TensorDescriptor: the base address {ptr:#x} is "
                         "not 16-byte aligned")
    for i, s in enumerate(strides[:-1]):
        nbytes = int(s) * element
        if nbytes <= 0 or nbytes % 16:
            raise ValueError(
                f"TensorDescriptor: strides[{i}] is {s} elements = {nbytes} "
                "bytes; every stride but the last must be a positive "
                "multiple of 16 bytes")
    for i, b in enumerate(block):
        b = int(b)
        if not 1 <= b <= MAX_BLOCK or b & (b - 1):
            raise ValueError(
                f"TensorDescriptor: block_shape[{i}] is {b}; block "
                f"dimensions must be powers of two from 1 to {MAX_BLOCK}")
    padding = getattr(desc, "padding", "zero")
    if padding != "zero":
        # libtxl encodes with zero fill only; a kernel that relies on NaN
        # fill would read zeros and be silently wrong.
        raise ValueError(f"TensorDescriptor: padding={padding!r} is not "
                         "supported (only 'zero')")
    return sig, element


def signature_entry(desc):
    """The signature entry of a descriptor: "tensordesc<DT[B0, B1]>".

    The entry is cached on the descriptor keyed by what it is made of
    (the base's dtype and the block shape): descriptors are mutable, and a
    changed base or block must give a new entry. The full validation runs
    when the entry is first made and again whenever the launcher encodes
    the descriptor, which covers mutations of base, shape and strides."""
    key = (desc.base.dtype, tuple(desc.block_shape))
    cached = getattr(desc, "_txl_entry", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    sig, _ = check(desc)
    entry = f"tensordesc<{sig}[{', '.join(str(int(b)) for b in key[1])}]>"
    try:
        desc._txl_entry = (key, entry)
    except AttributeError:  # a frozen or slotted foreign object: no cache
        pass
    return entry


class TensorDescriptor:
    """A tensor (`base`: data_ptr(), dtype) seen as a grid of blocks of
    `block_shape` elements, for TMA loads and stores in a kernel. shape
    and strides are in elements, in the tensor's own order (outermost
    first); the last stride must be 1. Same constructor as Triton's
    triton.tools.tensor_descriptor.TensorDescriptor.

    The attributes may be changed after construction (for example `base`,
    to reuse one descriptor object over several buffers); the next launch
    validates and re-encodes."""

    def __init__(self, base, shape, strides, block_shape, padding="zero"):
        self.base = base
        self.shape = [int(d) for d in shape]
        self.strides = [int(s) for s in strides]
        self.block_shape = [int(b) for b in block_shape]
        self.padding = padding
        check(self)

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        """A descriptor over the whole of `tensor` (shape and stride())."""
        return TensorDescriptor(tensor, tensor.shape, tensor.stride(),
                                block_shape, padding)

    def __repr__(self):
        return (f"TensorDescriptor(base=<{self.base.dtype} at "
                f"{self.base.data_ptr():#x}>, shape={self.shape}, "
                f"strides={self.strides}, block_shape={self.block_shape})")
