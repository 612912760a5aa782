"""Host-side TMA descriptors (cuTensorMapEncodeTiled through libtxl)."""

from . import _capi, _specialize
from .tensor_descriptor import innermost_first


def make_tensor_map(tensor, block_shape, swizzle_bytes=128):
    """A 128-byte TMA descriptor for a row-major `tensor` (torch-style:
    shape, stride() in elements, element_size()), with the box
    `block_shape` given in the tensor's own order (outermost first). The
    descriptor is built innermost-first, as the driver wants. Returns a
    ctypes byte array (bytes(map) for a bytes object)."""
    shape = list(tensor.shape)
    strides = list(tensor.stride())
    if len(block_shape) != len(shape):
        raise ValueError("make_tensor_map: block_shape rank differs from the "
                         "tensor's")
    if strides[-1] != 1:
        raise ValueError("make_tensor_map: the innermost dimension must be "
                         "contiguous")
    dims, strides_bytes, box = innermost_first(
        shape, strides, tensor.element_size(), block_shape)
    return _capi.make_tensor_map(tensor.data_ptr(), dims, strides_bytes, box,
                                 _specialize.dtype_sig(tensor.dtype),
                                 swizzle_bytes)
