"""Facts read from a cubin (an ELF file): the register count ptxas chose
for a kernel, as Triton's CompiledKernel.n_regs reports it (tutorials use
it to size persistent grids)."""

import struct

_EIFMT_SVAL = 4          # .nv.info entry with a 16-bit size and a payload
_EIATTR_REGCOUNT = 0x2F  # payload: (symbol index u32, registers u32)


def _sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    names_at = headers[shstrndx][4]

    def name(h):
        start = names_at + h[0]
        return data[start:data.index(b"\0", start)].decode()
    return {name(h): h for h in headers}, headers


def _symbol_names(data, sections, headers):
    symtab = sections.get(".symtab")
    if symtab is None:
        return {}
    strtab = headers[symtab[6]]  # sh_link: the symbol names
    names = {}
    for i in range(symtab[5] // 24):
        st_name, = struct.unpack_from("<I", data, symtab[4] + 24 * i)
        start = strtab[4] + st_name
        names[i] = data[start:data.index(b"\0", start)].decode()
    return names


def register_count(cubin, kernel_name):
    """Registers per thread of `kernel_name` in `cubin`, or None when the
    cubin does not say (not an ELF file, no EIATTR_REGCOUNT)."""
    try:
        if cubin[:4] != b"\x7fELF":
            return None
        sections, headers = _sections(cubin)
        info = sections.get(".nv.info")
        if info is None:
            return None
        symbols = _symbol_names(cubin, sections, headers)
        pos, end = info[4], info[4] + info[5]
        counts = {}
        while pos + 4 <= end:
            fmt, attr, size = cubin[pos], cubin[pos + 1], 0
            if fmt == _EIFMT_SVAL:
                size, = struct.unpack_from("<H", cubin, pos + 2)
                if attr == _EIATTR_REGCOUNT and size >= 8:
                    sym, regs = struct.unpack_from("<II", cubin, pos + 4)
                    counts[symbols.get(sym, sym)] = regs
            pos += 4 + size if fmt == _EIFMT_SVAL else 4
        if kernel_name in counts:
            return counts[kernel_name]
        return next(iter(counts.values())) if len(counts) == 1 else None
    except (struct.error, ValueError, IndexError):
        return None
