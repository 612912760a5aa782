"""GEMM ladder, step 5: a two-stage software pipeline -- the TMA of slice
k+1 runs while the wgmma of slice k does.

    C[M, N] = A[M, K] @ B[K, N],  M, N, K >= 1 (row strides 16-byte aligned)

In step 4 every K slice is strictly load, wait, multiply, wait: the tensor
cores idle while TMA fetches, and TMA idles while they multiply. With two
copies of each operand buffer (two *stages*) one can be filled while the
other is read.

New in this step:

Staged buffers. `txl.smem_alloc(shape, dtype, num_stages=2)` is an array
of two buffers and `txl.get_buffer(bufs, s)` picks one; `s` may be a
runtime value (here k % 2), which costs an address computation. Each stage
has its own "slice ready" barrier: `txl.mbar_alloc(1, num_stages=2)`.
Slice k lives in stage k % 2.

The loop. A prologue loads slice 0 into stage 0. Then iteration k:
  1. waits until slice k has landed in stage s = k % 2;
  2. issues the wgmma group of slice k on stage s (asynchronous);
  3. `txl.dot_wait(1)`: waits until at most ONE wgmma group is pending --
     the one just issued may keep running, the one of slice k-1 has
     retired;
  4. loads slice k+1 (if there is one) into the other stage, 1 - s.
So while the tensor cores work on slice k, TMA fills the other stage with
slice k+1.

When may a stage be refilled? Only after the wgmma that read it has
retired. Stage 1 - s was last read by the wgmma of slice k-1; wgmma reads
its shared operands asynchronously, for as long as the group is in flight,
so a TMA started into stage 1 - s before that group completes would
overwrite operands it has not read yet (silently wrong sums, not a hang).
That is why 3 comes before 4: `dot_wait(1)` is exactly the wait
that retires slice k-1 and no more. `dot_wait(0)` there would also be
correct but would drain the tensor-core queue every iteration (the step-4
behaviour); refilling before the wait, or waiting with a count of 2, would
be a race. After the loop `dot_wait(0)` retires the last group before the
accumulator is read.

(wgmma groups on one accumulator run in order, so issuing slice k while
slice k-1 may still be running is fine; the dependency is on the buffers,
not on the accumulator.)

Per-stage phases. Each stage's barrier completes one phase per use, and
stage s is used by every other slice, so a single phase flipping every
iteration would be wrong. `phases` holds one parity bit per stage: bit s is
the parity the next wait on stage s must ask for; it flips after that
wait. (Equivalently, the parity of slice k is (k // 2) % 2.)

The epilogue is step 4's: acc -> fp16 -> sC -> TMA store -> wait.
"""
import triton.language as tl
import txl

NUM_STAGES = 2


@txl.jit
def gemm_step05(a_desc, bt_desc, c_desc, K,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sB = txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    ready = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    SLICE_BYTES: tl.constexpr = (BLOCK_M + BLOCK_N) * BLOCK_K * 2

    num_k = tl.cdiv(K, BLOCK_K)

    # Prologue: slice 0 -> stage 0.
    bar0 = txl.get_buffer(ready, 0)
    txl.mbar_expect(bar0, SLICE_BYTES)
    txl.tma_load(txl.get_buffer(sA, 0), a_desc, [off_m, 0], bar0)
    txl.tma_load(txl.get_buffer(sB, 0), bt_desc, [off_n, 0], bar0)

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    phases = 0  # bit s: the parity of the next wait on stage s
    for k in range(0, num_k):
        s = k % NUM_STAGES
        txl.mbar_wait(txl.get_buffer(ready, s), (phases >> s) & 1)
        phases ^= 1 << s

        acc = tl.dot(txl.get_buffer(sA, s), txl.get_buffer(sB, s).T, acc)
        # Retire slice k-1's group (it read the other stage); slice k's
        # keeps running underneath the next load.
        txl.dot_wait(1)

        if k + 1 < num_k:
            ns = 1 - s
            bar = txl.get_buffer(ready, ns)
            txl.mbar_expect(bar, SLICE_BYTES)
            txl.tma_load(txl.get_buffer(sA, ns), a_desc,
                         [off_m, (k + 1) * BLOCK_K], bar)
            txl.tma_load(txl.get_buffer(sB, ns), bt_desc,
                         [off_n, (k + 1) * BLOCK_K], bar)

    txl.dot_wait(0)

    txl.smem_store(sC, acc.to(tl.float16))
    txl.tma_store(sC, c_desc, [off_m, off_n])
    txl.tma_store_wait(0)
