# Every construct of the Python 3.12 grammar, for the front end's parse
# tests (FrontendTest GoodCorpus) and as a fuzzing seed. Host code only;
# nothing here is a kernel.
from __future__ import annotations

import os, sys as system
from os.path import (join,
                     dirname as dn,)
from . import sibling
from ..pkg.mod import *

try:
    import torch
except ImportError:
    torch = None
finally:
    pass

try:
    pass
except* (ValueError, TypeError) as group:
    pass
except* OSError:
    pass

try:
    pass
except (A, B) as e:
    raise RuntimeError("x") from e
except Exception:
    raise
else:
    x = 1

type Alias = list[int] | None
type Pair[T, *Ts, **P] = tuple[T, T]


@decorator
@functools.lru_cache(maxsize=None)
@(lambda f: f)
@buttons[0].clicked.connect
class Config[T: int](Base, metaclass=Meta, **extra):
    """A class."""
    field: int = 3
    other: "Optional[int]"

    def __init__(self, a, b=2, /, c=3, *args, d, e=5, **kwargs) -> None:
        super().__init__()
        self.a = a

    async def run(self, *, key: str | None = None) -> list[str]:
        async with lock as l, other():
            pass
        async for item in aiter():
            yield item
        await asyncio.sleep(0)
        return [x async for x in stream() if await ok(x)]

    @property
    def value[U](self) -> U: ...


def gen(n):
    yield
    x = yield n
    y = yield from range(n)
    z = (yield)
    global G
    del x, y[0], z.attr
    def inner():
        nonlocal n
        n += 1
    return lambda *a, k=1, **kw: (a, k, kw)


with open("a") as f, open("b") as g:
    pass
with (open("a") as f,
      open("b") as g,):
    pass
with (a, b) as c:
    pass
with (yield_value := compute()):
    pass

numbers = [0x_ff, 0o17, 0b1010, 1_000_000, 1.5e-3, .5, 5., 3j, 1.5J, 0j, 007j]
strings = ['a' "b" '''c''' """d""", r'\d', b'bytes' rb'raw', u'unicode']
fstrings = [
    f"{x!r:>10}", f"{x=}", f"{x = !s:^{width}}", f'{"nested"}',
    f"{f"{f"{1}"}"}", f"{d["key"]}", f"""{
        x  # a comment inside a multi-line replacement field
    }""", f"{{literal}} {x:{'>'}{10}}", rf"\d{x}", F"{3.14:.2f}",
    f"{a!a}", f"{lambda_value:{fill}{align}{width}.{precision}}",
]
sets = {1, 2, *rest}
empty = {}
dicts = {**base, "k": 1, **{"n": 2}}
comps = ([x for x in y if x for z in x], {x for x in y}, {k: v for k, v in d},
         (x for x in y), [y := f(x), y ** 2], [*a, *b])
first, *middle, last = range(10)
(a, b), [c, d] = pairs
x = a if b else c
x = not a or b and c
x = a < b <= c != d is not e not in f in g is h
x = -a ** -b, ~a, +a, a @ b, a // b, a % b, a << b >> c, a & b | c ^ d
x = ...
x: int
x: list[str] | None = None
x[1:2, ::3, ...] = y[*idx]
print(*args, sep="", **kwargs)
f(x for x in y)
if (n := len(a)) > 10: print(n)
while chunk := read(): pass
for i, (a, b) in enumerate(pairs): pass
else: pass
x = 1; y = 2;
z = 1 + \
    2
assert x, "message"
i = 1if x else 2

match command.split():
    case [action]:
        pass
    case [action, obj]:
        pass
    case Point(x=0, y=0) | Point(0, 0):
        pass
    case {"x": x, "y": y, **rest}:
        pass
    case [1, 2, *others] if others:
        pass
    case (1 | 2 | 3) as number:
        pass
    case -1 | 1.5 | 2 + 3j | -2 - 1j | "s" "t" | b"" if True:
        pass
    case None | True | False:
        pass
    case Color.RED | mod.Color.GREEN:
        pass
    case str() | bytes():
        pass
    case (a, b,):
        pass
    case []:
        pass
    case _:
        pass

match = 1
match(x)
match[x] = 2
case = type = _ = 3
type(x)

if __name__ == "__main__":
    main()
