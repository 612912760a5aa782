"""GEMM ladder, step 4: the tiles travel by TMA, both ways.

    C[M, N] = A[M, K] @ B[K, N],  M, N, K >= 1 (row strides 16-byte aligned)

Same grid and K loop as step 3 (one CTA per BLOCK_M x BLOCK_N tile of C,
num_warps=4: one warpgroup), but no thread copies a tile any more. The
Tensor Memory Accelerator (TMA) does, from a *tensor descriptor*: a
128-byte CUtensorMap the host builds once per tensor (global address,
shape, strides, and the box -- the block -- one copy moves) and passes to
the kernel by value.

    a_desc  = txl.TensorDescriptor.from_tensor(a,  [BLOCK_M, BLOCK_K])
    bt_desc = txl.TensorDescriptor.from_tensor(bt, [BLOCK_N, BLOCK_K])
    c_desc  = txl.TensorDescriptor.from_tensor(c,  [BLOCK_M, BLOCK_N])

New in this step:

Loads. `txl.tma_load(buf, desc, [row, col], bar)` asks the TMA engine to
copy the block whose top-left element is (row, col) into the shared buffer
`buf` (which must have the block's shape and type), writing it in the same
128-byte swizzle the wgmma reads. It is one instruction
(`cp.async.bulk.tensor`) issued by one thread -- thread 0 of the
warpgroup -- instead of every thread loading and storing its part, and the
copy runs asynchronously: the registers and the threads are free while it
is in flight.

Completion by bytes. The copy signals the mbarrier `bar` with the number
of bytes it has written (complete_tx). `txl.mbar_expect(bar, nbytes)`
(`mbarrier.arrive.expect_tx`, also thread 0) first tells the barrier how
many bytes this phase waits for, and is that phase's one arrival -- so the
barrier is allocated with `txl.mbar_alloc(1)`, not 128 as in step 3. The
phase completes when both the arrival and all the bytes are in; every
thread then passes `txl.mbar_wait(ready, phase)` and the phase flips as
in step 2. One expect covers both loads: (BLOCK_M + BLOCK_N) * BLOCK_K * 2
bytes. A count that is wrong hangs the wait (too few bytes arrive) or
completes it early; the compiler checks it when it is a constant.

Ragged edges for free. A box that sticks out of the tensor reads its
out-of-bounds rows and columns as zero, so the masks of step 3 disappear:
zero rows/columns of the K tail add nothing to the dot. The byte count is
still the whole box (the zeros are written too).

Epilogue through shared memory. The fp32 accumulator is rounded to fp16
and written by the threads into a third shared buffer, sC
(`txl.smem_store`: it fences the generic-proxy writes for the async proxy
and synchronizes the warpgroup, the hand-off a TMA store needs), and
thread 0 issues `txl.tma_store(sC, c_desc, [row, col])`. A store box that
sticks out of C writes only its in-bounds part, so the ragged edge needs
no mask either. Stores complete by *bulk groups*, not by a barrier: the
store is committed as a group and `txl.tma_store_wait(0)`
(`cp.async.bulk.wait_group.read 0`) waits until its source has been read.
The kernel must do that before it exits, or it would free shared memory
the TMA engine is still reading.

A wide block is several copies. A 128-byte swizzle spans 64 fp16 per row,
so the host encodes each map with a box at most 64 columns wide (the
compiler records it in the kernel metadata) and a wider block moves as
several boxes: the 128-column C tile is two store instructions in one bulk
group (a 128-column load would be two copies under one expect).

TMA needs the global row strides to be multiples of 16 bytes: K and N
multiples of 8 for fp16. B is still given transposed (`bt` is [N, K]) so
both operand tiles are K-major, as wgmma requires.
"""
import triton.language as tl
import txl


@txl.jit
def gemm_step04(a_desc, bt_desc, c_desc, K,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    # One arrival per phase: the expect of thread 0. The bytes do the rest.
    ready = txl.get_buffer(txl.mbar_alloc(1), 0)

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    phase = 0
    for k in range(0, K, BLOCK_K):
        # Both tiles of the slice complete the same phase.
        txl.mbar_expect(ready, (BLOCK_M + BLOCK_N) * BLOCK_K * 2)
        txl.tma_load(sA, a_desc, [off_m, k], ready)
        txl.tma_load(sB, bt_desc, [off_n, k], ready)
        txl.mbar_wait(ready, phase)
        phase ^= 1

        acc = tl.dot(sA, sB.T, acc)
        # The next iteration's TMA overwrites sA/sB: retire the reader first.
        txl.dot_wait(0)

    # registers -> shared (swizzled like the loads) -> global by TMA.
    txl.smem_store(sC, acc.to(tl.float16))
    txl.tma_store(sC, c_desc, [off_m, off_n])
    txl.tma_store_wait(0)
