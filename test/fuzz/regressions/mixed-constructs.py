x = (a.b.c)()[0] + f"{x!r:>{w}}" \
    if y else lambda *a, **k: {*a, *k}# commenty = 2
