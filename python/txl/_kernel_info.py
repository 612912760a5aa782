"""What the compiler and the assembler report about one compiled kernel,
shared by ``txl.compile(...)`` results and the launchers ``warmup`` and
``kernel[grid]`` use: the artifacts (``asm``) and ptxas's resource report."""

import glob
import importlib.util
import os

from . import _capi

TEXT_ARTIFACTS = ("txlir", "txlgir", "llir", "ptx", "json")
ALL_ARTIFACTS = TEXT_ARTIFACTS + ("cubin",)
# Made by the library on first request: SASS through nvdisasm, and the
# one-page viewer (txlc --html's page).
DERIVED_ARTIFACTS = ("sass", "html")


def find_nvdisasm():
    """nvdisasm for SASS: $TXL_NVDISASM, else the nvidia-cuda-nvdisasm
    wheel or the copy Triton ships; None when the library must look on its
    own ($CUDA_HOME/bin, /usr/local/cuda/bin, PATH)."""
    if os.environ.get("TXL_NVDISASM"):
        return os.environ["TXL_NVDISASM"]
    candidates = []
    try:
        import nvidia
        for root in nvidia.__path__:
            candidates += sorted(glob.glob(os.path.join(root, "cu*", "bin",
                                                        "nvdisasm")))
            candidates.append(os.path.join(root, "cuda_nvdisasm", "bin",
                                           "nvdisasm"))
    except ImportError:
        pass
    spec = importlib.util.find_spec("triton")
    if spec and spec.origin:
        candidates.append(os.path.join(os.path.dirname(spec.origin),
                                       "backends", "nvidia", "bin",
                                       "nvdisasm"))
    for path in candidates:
        if os.access(path, os.X_OK):
            os.environ["TXL_NVDISASM"] = path  # the library reads it
            return path
    return None


class Asm(dict):
    """Artifacts by kind, read from the kernel handle once; text artifacts
    are str, the cubin bytes. Absent kinds are not keys. "sass" and "html"
    are made on first access (asm["sass"] raises TxlError saying why when
    it cannot be made: no nvdisasm, no cubin). `owner` keeps the handle
    alive while this object is."""

    def __init__(self, handle, owner=None):
        super().__init__()
        self._handle = handle
        self._owner = owner
        for kind in ALL_ARTIFACTS:
            data = _capi.kernel_artifact(handle, kind)
            if data is not None:
                self[kind] = data if kind == "cubin" else data.decode("utf-8")

    def __missing__(self, kind):
        if kind not in DERIVED_ARTIFACTS:
            raise KeyError(kind)
        find_nvdisasm()
        text = _capi.kernel_artifact(self._handle, kind, missing_ok=False)
        self[kind] = text.decode("utf-8")
        return self[kind]

    def get(self, kind, default=None):
        try:
            return self[kind]
        except (KeyError, _capi.TxlError):
            return default


class KernelInfo:
    """Mixin over ``self.metadata`` (the kernel's metadata dict). The
    assembler's numbers are None when the driver JITs the PTX (no ptxas or
    nvJitLink where the kernel was compiled)."""

    @property
    def n_regs(self):
        """Registers per thread, as ptxas allocated them."""
        return self.metadata.get("n_regs")

    @property
    def n_spills(self):
        """Bytes per thread spilled to local memory (0: no spills)."""
        return self.metadata.get("n_spills")

    def html(self, path=None):
        """The one-page viewer (source line by line with the IR, PTX and
        SASS it became; see docs/debugging.md) as a string, also written to
        `path` when given. The IR rows find their lines when the kernel was
        compiled with locations (@txl.jit(dump_locations=True)); PTX and
        SASS rows always do."""
        page = self.asm["html"]
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(page)
        return page

    @property
    def ptxas_warnings(self):
        """ptxas's warnings: dicts with code ("C7510"), message, ptx_line
        and source_line (0 when unknown)."""
        return self.metadata.get("ptxas_warnings", [])


def warning_lines(metadata):
    """ptxas's warnings as "file:line: kernel 'k': ptxas C7510: ..."."""
    where = metadata.get("source_file", "")
    lines = []
    for w in metadata.get("ptxas_warnings", []):
        at = f"{where}:{w['source_line']}" if w.get("source_line") else where
        code = f" {w['code']}" if w.get("code") else ""
        lines.append(f"{at}: kernel '{metadata.get('name')}': "
                     f"ptxas{code}: {w.get('message', '')}")
    return lines
