// docs/compatibility.md and python/txl/_builtins.py are what the builtin
// registry generates (update both: python3 scripts/gen_builtins.py).
// RUN: python3 %txl_src/scripts/gen_builtins.py --check
// RUN: txlc --list-builtins | FileCheck %s
// CHECK: tl.load{{[[:space:]]+}}supported{{[[:space:]]+}}0{{[[:space:]]+}}(pointer, mask=None
// CHECK: tl.atomic_add{{[[:space:]]+}}supported
// CHECK: tl.exp{{[[:space:]]+}}tl.math.exp,libdevice.exp{{[[:space:]]+}}supported
// CHECK: tl.cumsum{{[[:space:]]+}}supported
// CHECK: txl.tma_load{{[[:space:]]+}}supported{{[[:space:]]+}}90
// CHECK: str{{[[:space:]]+}}not yet
