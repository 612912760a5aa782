"""GEMM ladder, step 2: one tile, a loop over K, and an mbarrier whose phase
flips every iteration.

    C[BLOCK_M, BLOCK_N] = A[BLOCK_M, K] @ B[K, BLOCK_N],  K a multiple of BLOCK_K

Still one CTA (grid (1,), num_warps=4: one warpgroup of 128 threads), but K
no longer fits in one shared buffer, so the CTA walks it in BLOCK_K slices
through the same two buffers. New in this step:

Accumulating. wgmma adds its product to the accumulator it is given (its
"scale-d" / accumulate flag says whether to add to it or to ignore it). The
first slice must not add to anything, the later ones must add to the running
sum. Here that is said with data: `acc` starts as `tl.zeros`, and every
`tl.dot(sA, sB.T, acc)` accumulates into the previous result, so slice 0
adds to zero, which is the same as accumulate-off. (Today the lowering always
issues wgmma with the accumulate flag on and zero-filled registers for the
first slice; the result is the same, it costs a register fill.)

Reusing the buffers. Slice j+1 overwrites sA/sB, so slice j's wgmma must
have finished reading them first: `txl.dot_wait(0)` at the end of each
iteration retires it (step 5 overlaps these with two buffers).

An mbarrier that says "this K slice is in shared memory". A barrier of
`txl.mbar_alloc(N)` completes a phase once N arrivals have come in, then
starts the next phase. Every thread of the CTA stores its part of the slice
and arrives (N = 128 = num_warps * 32 threads), and every thread waits
before the MMA reads the buffers. The wait is on a phase *parity*:
`txl.mbar_wait(bar, p)` (`mbarrier.try_wait.parity`) returns once the phase
with parity p has completed. The barrier starts in phase 0, so the first
slice waits for parity 0; once it completes the barrier is in phase 1, and
waiting on parity 0 again would return at once while the next slice is still
being written. Hence `phase ^= 1` after every wait: the k-th wait must ask
for parity k % 2, and the loop keeps that invariant without counting. A
waiter can never fall a whole phase behind here, because the next phase
cannot complete without its own arrival.

Today `txl.smem_store` already fences the async proxy and synchronizes the
CTA, so this barrier adds no safety yet; it makes the hand-off explicit in
the shape it keeps for the rest of the ladder. From step 4 on, the TMA
engine arrives on it (with a byte count) instead of the threads, and this
same wait-and-flip loop is what consumes it.

As in step 1, B is given transposed (`bt` is [BLOCK_N, K], row-major) so
both buffers are K-major, as the wgmma lowering requires.
"""
import triton.language as tl
import txl

# Threads that arrive on the "slice ready" barrier: the whole CTA. The kernel
# is launched with num_warps=4 (one warpgroup, as the wgmma needs).
NUM_THREADS = 4 * 32


@txl.jit
def gemm_step02(a_ptr, bt_ptr, c_ptr, K,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    # Like shared buffers, mbarriers live for the whole kernel: allocated
    # (and initialized by one thread) at top level, never inside the loop.
    ready = txl.get_buffer(txl.mbar_alloc(NUM_THREADS), 0)

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    phase = 0
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * K + ks[None, :])
        b = tl.load(bt_ptr + offs_n[:, None] * K + ks[None, :])
        txl.smem_store(sA, a)
        txl.smem_store(sB, b)
        txl.mbar_arrive(ready)       # my part of slice k is written
        txl.mbar_wait(ready, phase)  # everyone's part is written
        phase ^= 1                   # the next slice completes the next phase

        acc = tl.dot(sA, sB.T, acc)  # acc += A_k @ B_k, asynchronously
        txl.dot_wait(0)              # done reading sA/sB: free to refill

    c_ptrs = c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16))
