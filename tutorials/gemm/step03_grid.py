"""GEMM ladder, step 3: a 2-D grid of CTAs, one output tile each, with ragged
edges.

    C[M, N] = A[M, K] @ B[K, N],  any M, N, K >= 1

New in this step: the problem is bigger than one tile, so it is cut into
BLOCK_M x BLOCK_N tiles and the kernel is launched on a 2-D grid

    grid = (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N))

CTA (pid_m, pid_n) owns rows pid_m * BLOCK_M ... and columns
pid_n * BLOCK_N ... of C and runs step 2's K loop for that tile alone; the
CTAs share nothing and need no synchronization with each other.

Ragged edges. M, N and K need not be multiples of the block sizes, so the
last tile row/column and the last K slice stick out of the matrices. Every
access is masked:
- loads of A and B^T mask rows past M (resp. N) and columns past K and fill
  them with 0.0. The shared tiles are always full (wgmma has no masks), and
  the zero padding contributes nothing to the dot: a zero column of A (or
  row of B) in the K tail adds 0, and the padded rows/columns of the tile
  only produce accumulator entries that are never stored.
- the store of C masks rows past M and columns past N, so a CTA on the edge
  writes only the part of its tile that exists.
The trip count of the K loop is cdiv(K, BLOCK_K) for every CTA, so every
thread arrives on and waits for the same sequence of barrier phases.

The rest is step 2: shared buffers and an mbarrier allocated once per CTA,
`acc` from `tl.zeros`, per slice store -> arrive -> wait(phase) -> flip ->
async `tl.dot` -> `txl.dot_wait(0)`. B is given transposed (`bt` is [N, K],
row-major) so both buffers are K-major, as the wgmma lowering requires.
Launch with num_warps=4.
"""
import triton.language as tl
import txl

# Threads that arrive on the "slice ready" barrier: the whole CTA
# (num_warps=4, one warpgroup).
NUM_THREADS = 4 * 32


@txl.jit
def gemm_step03(a_ptr, bt_ptr, c_ptr, M, N, K,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    ready = txl.get_buffer(txl.mbar_alloc(NUM_THREADS), 0)

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    phase = 0
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        # Out-of-range elements load as 0.0: they add nothing to the dot.
        a = tl.load(a_ptr + offs_m[:, None] * K + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(bt_ptr + offs_n[:, None] * K + ks[None, :],
                    mask=(offs_n[:, None] < N) & (ks[None, :] < K), other=0.0)
        txl.smem_store(sA, a)
        txl.smem_store(sB, b)
        txl.mbar_arrive(ready)
        txl.mbar_wait(ready, phase)
        phase ^= 1

        acc = tl.dot(sA, sB.T, acc)
        txl.dot_wait(0)

    # Only the part of the tile inside C is written.
    c_ptrs = c_ptr + offs_m[:, None] * N + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
