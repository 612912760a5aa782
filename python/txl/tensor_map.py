"""Host-side TMA descriptors (cuTensorMapEncodeTiled through libtxl)."""

from . import _capi, _specialize


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
    element = tensor.element_size()
    dims = shape[::-1]
    strides_bytes = [s * element for s in strides[::-1][1:]]
    box = list(block_shape)[::-1]
    return _capi.make_tensor_map(tensor.data_ptr(), dims, strides_bytes, box,
                                 _specialize.dtype_sig(tensor.dtype),
                                 swizzle_bytes)
