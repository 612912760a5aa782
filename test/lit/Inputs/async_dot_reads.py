"""Reads of asynchronous dot results (lit e2e/async-dot-reads): the
pipelines a dot_wait(n) makes safe compile, and a read that no wait has
made safe is a located error. `dot_wait(n)` retires every group with at
least n younger groups after it."""
import triton.language as tl
import txl


@txl.jit
def overlap(q_ptr, k_ptr, o_ptr, L):
    """FA3's intra-warpgroup overlap: S_{j+1} is issued before block j's
    softmax reads S_j; dot_wait(1) retires S_{j+1} while P_j V_j runs."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    sk = txl.smem_alloc([64, 64], dtype=tl.float16, num_stages=2)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    txl.smem_store(txl.get_buffer(sk, 0),
                   tl.load(k_ptr + r[:, None] * 64 + r[None, :]))
    txl.smem_store(txl.get_buffer(sk, 1),
                   tl.load(k_ptr + 4096 + r[:, None] * 64 + r[None, :]))
    s = tl.dot(sq, txl.get_buffer(sk, 0).T)
    txl.dot_wait(0)
    o = tl.zeros([64, 64], dtype=tl.float32)
    p = tl.exp2(s).to(tl.float16)
    for j in range(1, L):
        s = tl.dot(sq, txl.get_buffer(sk, j % 2).T)
        o = tl.dot(p, txl.get_buffer(sk, (j - 1) % 2), o)
        txl.dot_wait(1)   # s retired; o in flight
        p = tl.exp2(s).to(tl.float16)
        txl.dot_wait(0)
        o = o * 0.5       # retired by the wait(0)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], o)


@txl.jit
def overlap_in_if(q_ptr, o_ptr, L):
    """A dot issued on one path only; dot_wait(0) after the branch
    retires both results on every path."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    a = tl.dot(sq, sq.T)
    b = tl.zeros([64, 64], dtype=tl.float32)
    if L > 1:
        b = tl.dot(sq, sq.T, b)
    txl.dot_wait(0)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], a + b)


@txl.jit
def read_younger(q_ptr, o_ptr):
    """dot_wait(1) retires the older group, not the younger one."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    a = tl.dot(sq, sq.T)
    b = tl.dot(sq, sq.T)
    txl.dot_wait(1)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], a)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], b)


@txl.jit
def read_maybe_young(q_ptr, o_ptr, L):
    """A dot issued on one path only: after the branch, dot_wait(1) does
    not retire the older result on the path that skipped it."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    a = tl.dot(sq, sq.T)
    b = tl.zeros([64, 64], dtype=tl.float32)
    if L > 1:
        b = tl.dot(sq, sq.T, b)
    txl.dot_wait(1)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], a)


@txl.jit
def read_carried(q_ptr, o_ptr, L):
    """The result of the previous iteration's dot, still in flight (the
    wait(1) in the loop leaves the youngest group running)."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for j in range(L):
        acc = tl.dot(sq, sq.T, acc)
        txl.dot_wait(1)
        acc = acc * 0.5
    txl.dot_wait(0)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], acc)


@txl.jit
def exit_wait(q_ptr, o_ptr, L):
    """A K loop that ends on dot_wait(1): the accumulator leaves the loop
    in flight, and the implicit dot_wait(0) after the loop (the TXL
    project's rule) makes the epilogue's read safe."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for j in range(L):
        acc = tl.dot(sq, sq.T, acc)
        txl.dot_wait(1)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], acc)


@txl.jit
def overlap_exit(q_ptr, k_ptr, o_ptr, L):
    """FA3's overlap with O still in flight when the loop ends (the loop's
    last wait is dot_wait(1)); the read after the loop is safe through the
    implicit wait, the read of S inside it through dot_wait(1)."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    sk = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    txl.smem_store(sk, tl.load(k_ptr + r[:, None] * 64 + r[None, :]))
    s = tl.dot(sq, sk.T)
    txl.dot_wait(0)
    o = tl.zeros([64, 64], dtype=tl.float32)
    p = (s * 0.01).to(tl.float16)
    for j in range(1, L):
        s = tl.dot(sq, sk.T)
        o = tl.dot(p, sk, o)
        txl.dot_wait(1)   # s retired; o in flight
        p = (s * 0.01).to(tl.float16)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], o)


@txl.jit
def read_after_while(q_ptr, o_ptr, L):
    """Only a `for` loop gets the implicit wait at its exit: the result a
    `while` loop carries out in flight is still an early read."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    acc = tl.zeros([64, 64], dtype=tl.float32)
    j = 0
    while j < L:
        acc = tl.dot(sq, sq.T, acc)
        txl.dot_wait(1)
        j += 1
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], acc)


@txl.jit
def read_in_next_iteration(q_ptr, o_ptr, L):
    """FA3's overlap read wrongly: O (in flight after dot_wait(1)) is
    scaled at the top of the next iteration before any wait retires it."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    o = tl.zeros([64, 64], dtype=tl.float32)
    p = tl.zeros([64, 64], dtype=tl.float16)
    for j in range(L):
        o = o * 0.5
        s = tl.dot(sq, sq.T)
        o = tl.dot(p, sq, o)
        txl.dot_wait(1)
        p = s.to(tl.float16)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], o)


@txl.jit
def roles_dot_then_wait(q_ptr, o_ptr, L):
    """The TXL project's split: warpgroup 0 issues the dot in one
    `if is_warpgroup([0])` and retires it in a later one; warpgroup 1 never
    has a dot in flight. Fine for both (the check follows each
    warpgroup's branches)."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    o = tl.zeros([64, 64], dtype=tl.float32)
    for j in range(L):
        o = o * 0.5
        if txl.is_warpgroup([0]):
            o = tl.dot(sq, sq.T, o)
        if txl.is_warpgroup([0]):
            txl.dot_wait(0)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :] + 4096 * txl.warpgroup_id(), o)


@txl.jit
def roles_wait_in_other_role(q_ptr, o_ptr, L):
    """Warpgroup 0 issues the dot, but only warpgroup 1 waits: warpgroup
    0 reads its accumulator in flight at the top of the next iteration."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    o = tl.zeros([64, 64], dtype=tl.float32)
    for j in range(L):
        o = o * 0.5
        if txl.is_warpgroup([0]):
            o = tl.dot(sq, sq.T, o)
        if txl.is_warpgroup([1]):
            txl.dot_wait(0)
    tl.store(o_ptr + r[:, None] * 64 + r[None, :] + 4096 * txl.warpgroup_id(), o)
