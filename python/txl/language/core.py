"""dtype and constexpr stand-ins shared by txl.language and txl."""


class constexpr:
    """Marks a compile-time parameter (``BLOCK: tl.constexpr``) or wraps a
    module-level constant (``BLOCK = tl.constexpr(128)``)."""

    def __init__(self, value=None):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return f"constexpr({self.value!r})"

    def __eq__(self, other):
        other = other.value if isinstance(other, constexpr) else other
        return self.value == other

    def __hash__(self):
        return hash(self.value)

    def __index__(self):
        return self.value.__index__()

    def __bool__(self):
        return bool(self.value)


class dtype:
    """A scalar element type. `name` is the Triton spelling ("fp16",
    "int32"); `sig` the signature spelling ("fp16", "i32"); `attr` the
    attribute under `tl` ("float16")."""

    def __init__(self, name, sig, attr):
        self.name = name
        self.sig = sig
        self.attr = attr

    def __repr__(self):
        return "tl." + self.attr

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(("txl.dtype", self.name))

    @property
    def primitive_bitwidth(self):
        return _BITS[self.sig]

    def is_floating(self):
        return self.sig.startswith(("fp", "bf"))

    def is_int(self):
        return self.sig[0] in "iu"


class pointer_type:
    """Pointer to `element_ty`; exists for annotations only."""

    def __init__(self, element_ty, address_space=1):
        self.element_ty = element_ty
        self.address_space = address_space

    def __repr__(self):
        return f"pointer<{self.element_ty!r}>"


_BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "u8": 8,
         "u16": 16, "u32": 32, "u64": 64, "fp8e4nv": 8, "fp8e5": 8,
         "fp16": 16, "bf16": 16, "fp32": 32, "fp64": 64}

int1 = dtype("int1", "i1", "int1")
int8 = dtype("int8", "i8", "int8")
int16 = dtype("int16", "i16", "int16")
int32 = dtype("int32", "i32", "int32")
int64 = dtype("int64", "i64", "int64")
uint8 = dtype("uint8", "u8", "uint8")
uint16 = dtype("uint16", "u16", "uint16")
uint32 = dtype("uint32", "u32", "uint32")
uint64 = dtype("uint64", "u64", "uint64")
float8e4nv = dtype("fp8e4nv", "fp8e4nv", "float8e4nv")
float8e5 = dtype("fp8e5", "fp8e5", "float8e5")
float16 = dtype("fp16", "fp16", "float16")
bfloat16 = dtype("bf16", "bf16", "bfloat16")
float32 = dtype("fp32", "fp32", "float32")
float64 = dtype("fp64", "fp64", "float64")

ALL_DTYPES = (int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
              float8e4nv, float8e5, float16, bfloat16, float32, float64)


class _Placeholder:
    """A name in a default value of a registry signature (float32,
    PropagateNan.NONE): shown as written."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Placeholder(f"{self._name}.{attr}")

    def __repr__(self):
        return self._name


class _Names(dict):
    def __missing__(self, key):
        return _Placeholder(key)


def _device_stub(qualname, params="(*args, **kwargs)", doc=None):
    """A Python function with the builtin's signature and doc (so `help()`
    is useful) that refuses to run: kernel bodies are compiled, never
    executed by Python."""
    name = qualname.rsplit(".", 1)[-1]
    message = (f"{qualname}() can only be used inside a @txl.jit kernel; "
               "kernel bodies are compiled by txl, never executed by Python")

    def refuse():
        return RuntimeError(message)

    names = _Names(_refuse=refuse)
    exec(f"def {name}{params}:\n    raise _refuse()\n", {"_refuse": refuse},
         names)
    stub = names[name]
    stub.__qualname__ = qualname
    stub.__doc__ = doc
    stub._txl_device_stub = True
    return stub


def _registry_rows():
    from .._builtins import BUILTINS
    return BUILTINS


def _export(namespace, prefix):
    """Defines a device stub in `namespace` (a module's globals) for every
    function the compiler accepts under `prefix` ("tl.", "tl.math.",
    "libdevice.", "txl."), by canonical name or alias; names the module
    already defines (classes such as tl.constexpr, txl.BlockedLayout) are
    kept. Returns {name: canonical} of the Triton functions txl does not
    support yet under `prefix`, for a clear AttributeError."""
    missing = {}
    for name, aliases, support, _sm, params, doc, note in _registry_rows():
        for spelled in (name,) + tuple(aliases):
            if not spelled.startswith(prefix):
                continue
            short = spelled[len(prefix):]
            if "." in short:
                continue
            if support == "not yet":
                missing[short] = name
                continue
            if short in namespace:
                continue
            text = doc + (f"\n\nPartial: {note}." if note else "")
            if _sm:
                text += f"\n\nNeeds sm_{_sm} or later."
            if name != spelled:
                text += f"\n\nThe same function as {name}."
            namespace[short] = _device_stub(spelled, params, text)
    return missing


def _unsupported(module, name, missing):
    if name in missing:
        return AttributeError(
            f"{module}.{name} is not supported by txl yet (see "
            "docs/compatibility.md)")
    return AttributeError(f"module '{module}' has no attribute '{name}'")
