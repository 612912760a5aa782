"""Kernels for the tl operations added with the builtin registry (plain
Triton source): Philox random numbers, join/interleave, debug_barrier.
Every kernel handles a ragged tail with a mask."""
import triton.language as tl
import txl


@txl.jit
def randint_kernel(out_ptr, seed, n, BLOCK: tl.constexpr):
    """out[i] = randint(seed, i) as uint32 (stored into an int32 buffer)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r = tl.randint(seed, offs)
    tl.store(out_ptr + offs, r.to(tl.int32, bitcast=True), mask=offs < n)


@txl.jit
def randint4x_kernel(o0, o1, o2, o3, seed, n, N_ROUNDS: tl.constexpr,
                     BLOCK: tl.constexpr):
    """The four Philox words of (seed, i), `N_ROUNDS` rounds."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a, b, c, d = tl.randint4x(seed, offs, N_ROUNDS)
    m = offs < n
    tl.store(o0 + offs, a.to(tl.int32, bitcast=True), mask=m)
    tl.store(o1 + offs, b.to(tl.int32, bitcast=True), mask=m)
    tl.store(o2 + offs, c.to(tl.int32, bitcast=True), mask=m)
    tl.store(o3 + offs, d.to(tl.int32, bitcast=True), mask=m)


@txl.jit
def randint64_kernel(out_ptr, seed, n, BLOCK: tl.constexpr):
    """64-bit offsets take Philox 4x64: out[i] = randint(seed, i:int64)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r = tl.randint(seed, offs.to(tl.int64))
    tl.store(out_ptr + offs, r.to(tl.int64, bitcast=True), mask=offs < n)


@txl.jit
def rand_kernel(u_ptr, z_ptr, seed, n, BLOCK: tl.constexpr):
    """u = rand(seed, i), z = randn(seed, i)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(u_ptr + offs, tl.rand(seed, offs), mask=m)
    tl.store(z_ptr + offs, tl.randn(seed, offs), mask=m)


@txl.jit
def rand_2d_kernel(u_ptr, seed, M, N, stride, BM: tl.constexpr,
                   BN: tl.constexpr):
    """A 2-D offset block (rows * stride + cols), the dropout idiom."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * stride + rn[None, :]
    m = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(u_ptr + offs, tl.rand(seed, offs), mask=m)


@txl.jit
def join_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out[i, 0] = a[i], out[i, 1] = b[i] (out is [n, 2])."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m)
    b = tl.load(b_ptr + offs, mask=m)
    c = tl.join(a, b)
    r2 = tl.arange(0, 2)
    tl.store(out_ptr + offs[:, None] * 2 + r2[None, :], c, mask=m[:, None])


@txl.jit
def interleave_kernel(a_ptr, b_ptr, out_ptr, M, N: tl.constexpr,
                      BM: tl.constexpr):
    """out[r, 2j] = a[r, j], out[r, 2j + 1] = b[r, j] (a, b [M, N])."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, N)
    m = rm[:, None] < M
    a = tl.load(a_ptr + rm[:, None] * N + rn[None, :], mask=m)
    b = tl.load(b_ptr + rm[:, None] * N + rn[None, :], mask=m)
    c = tl.interleave(a, b)
    r2 = tl.arange(0, 2 * N)
    tl.store(out_ptr + rm[:, None] * (2 * N) + r2[None, :], c, mask=m)


@txl.jit
def debug_barrier_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    """Reverses a block through global scratch: every thread writes, the
    barrier orders the writes before the reads of other threads."""
    offs = tl.arange(0, BLOCK)
    base = tl.program_id(0) * BLOCK
    x = tl.load(x_ptr + base + offs)
    tl.store(out_ptr + base + offs, x * 2)
    tl.debug_barrier()
    y = tl.load(out_ptr + base + (BLOCK - 1 - offs), volatile=True)
    tl.debug_barrier()
    tl.store(out_ptr + base + offs, y + 1)


@txl.jit
def atomic_rmw_kernel(ptr, val_ptr, old_ptr, idx_ptr, n, OP: tl.constexpr,
                      SEM: tl.constexpr, BLOCK: tl.constexpr):
    """old[i] = atomic_OP(ptr + idx[i], val[i]) for i < n (idx may repeat:
    several programs and elements hit one address)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    idx = tl.load(idx_ptr + offs, mask=m, other=0)
    v = tl.load(val_ptr + offs, mask=m, other=0)
    p = ptr + idx
    if OP == "add":
        old = tl.atomic_add(p, v, mask=m, sem=SEM)
    elif OP == "max":
        old = tl.atomic_max(p, v, mask=m, sem=SEM)
    elif OP == "min":
        old = tl.atomic_min(p, v, mask=m, sem=SEM)
    elif OP == "and":
        old = tl.atomic_and(p, v, mask=m, sem=SEM)
    elif OP == "or":
        old = tl.atomic_or(p, v, mask=m, sem=SEM)
    elif OP == "xor":
        old = tl.atomic_xor(p, v, mask=m, sem=SEM)
    else:
        old = tl.atomic_xchg(p, v, mask=m, sem=SEM)
    tl.store(old_ptr + offs, old, mask=m)


@txl.jit
def atomic_add_noret_kernel(ptr, val_ptr, n, BLOCK: tl.constexpr):
    """The split-K idiom: the old values are never read."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.atomic_add(ptr + offs, tl.load(val_ptr + offs, mask=m), mask=m,
                  scope="gpu")


@txl.jit
def atomic_counter_kernel(counter_ptr, ticket_ptr):
    """A scalar atomic per program; its old value (a ticket) is used."""
    t = tl.atomic_add(counter_ptr, 1)
    tl.store(ticket_ptr + tl.program_id(0), t)


@txl.jit
def atomic_small_kernel(ptr, old_ptr, BLOCK: tl.constexpr):
    """A block smaller than the CTA (replicated lanes/warps): each element
    is added once, and every replica sees the same old value."""
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_add(ptr + offs, offs + 1)
    tl.store(old_ptr + tl.program_id(0) * BLOCK + offs, old)


@txl.jit
def atomic_cas_lock_kernel(lock_ptr, count_ptr, N_ITER: tl.constexpr):
    """A spin lock from atomic_cas/atomic_xchg guarding a non-atomic
    read-modify-write: the count is exact only if the lock excludes."""
    for _ in range(N_ITER):
        while tl.atomic_cas(lock_ptr, 0, 1) == 1:
            pass
        c = tl.load(count_ptr, volatile=True)
        tl.store(count_ptr, c + 1)
        tl.atomic_xchg(lock_ptr, 0)


@txl.jit
def atomic_cas_tensor_kernel(ptr, cmp_ptr, val_ptr, old_ptr, n,
                             BLOCK: tl.constexpr):
    """Element-wise CAS on distinct addresses (atomic_cas has no mask: the
    tail's lanes CAS a spare slot, ptr[n])."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    c = tl.load(cmp_ptr + offs, mask=m, other=0)
    v = tl.load(val_ptr + offs, mask=m, other=0)
    safe = tl.where(m, offs, n)
    old = tl.atomic_cas(ptr + safe, c, v)
    tl.store(old_ptr + offs, old, mask=m)


@txl.jit
def flip_kernel(x_ptr, out_ptr, M, N: tl.constexpr, BM: tl.constexpr,
                DIM: tl.constexpr):
    """out = flip(x, DIM) of each [BM, N] block (rows past M masked)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, N)
    offs = rm[:, None] * N + rn[None, :]
    m = rm[:, None] < M
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.store(out_ptr + offs, tl.flip(x, DIM), mask=m)


@txl.jit
def flip_1d_kernel(x_ptr, out_ptr, N: tl.constexpr):
    """out = x reversed (one block of N)."""
    r = tl.arange(0, N)
    tl.store(out_ptr + r, tl.flip(tl.load(x_ptr + r)))


@txl.jit
def libdevice_kernel(x_ptr, y_ptr, out_ptr, n, FN: tl.constexpr,
                     BLOCK: tl.constexpr):
    """out = libdevice.FN(x) (atan2: of x and y), masked tail."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.5)
    y = tl.load(y_ptr + offs, mask=m, other=0.5)
    if FN == "asin":
        r = tl.extra.cuda.libdevice.asin(x)
    elif FN == "acos":
        r = tl.extra.cuda.libdevice.acos(x)
    elif FN == "atan":
        r = tl.extra.cuda.libdevice.atan(x)
    elif FN == "sinh":
        r = tl.extra.cuda.libdevice.sinh(x)
    elif FN == "cosh":
        r = tl.extra.cuda.libdevice.cosh(x)
    elif FN == "tan":
        r = tl.extra.cuda.libdevice.tan(x)
    elif FN == "asinh":
        r = tl.extra.cuda.libdevice.asinh(x)
    elif FN == "acosh":
        r = tl.extra.cuda.libdevice.acosh(x)
    elif FN == "atanh":
        r = tl.extra.cuda.libdevice.atanh(x)
    elif FN == "erfc":
        r = tl.extra.cuda.libdevice.erfc(x)
    elif FN == "expm1":
        r = tl.extra.cuda.libdevice.expm1(x)
    elif FN == "log1p":
        r = tl.extra.cuda.libdevice.log1p(x)
    elif FN == "log10":
        r = tl.extra.cuda.libdevice.log10(x)
    elif FN == "cbrt":
        r = tl.extra.cuda.libdevice.cbrt(x)
    elif FN == "trunc":
        r = tl.extra.cuda.libdevice.trunc(x)
    elif FN == "round":
        r = tl.extra.cuda.libdevice.round(x)
    elif FN == "rint":
        r = tl.extra.cuda.libdevice.rint(x)
    else:
        r = tl.extra.cuda.libdevice.atan2(x, y)
    tl.store(out_ptr + offs, r, mask=m)
