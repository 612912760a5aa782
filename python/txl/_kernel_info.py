"""What the compiler and the assembler report about one compiled kernel,
shared by ``txl.compile(...)`` results and the launchers ``warmup`` and
``kernel[grid]`` use: the artifacts (``asm``) and ptxas's resource report."""

from . import _capi

TEXT_ARTIFACTS = ("txlir", "txlgir", "llir", "ptx", "json")
ALL_ARTIFACTS = TEXT_ARTIFACTS + ("cubin",)


class Asm(dict):
    """Artifacts by kind, read from the kernel handle once; text artifacts
    are str, the cubin bytes. Absent kinds are not keys."""

    def __init__(self, handle):
        super().__init__()
        for kind in ALL_ARTIFACTS:
            data = _capi.kernel_artifact(handle, kind)
            if data is not None:
                self[kind] = data if kind == "cubin" else data.decode("utf-8")


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
