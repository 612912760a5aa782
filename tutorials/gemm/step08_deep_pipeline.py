"""GEMM ladder, step 8: a deeper pipeline -- four stages.

    C[M, N] = A[M, K] @ B[K, N],  M, N, K >= 1 (row strides 16-byte aligned)

The kernel is step 7's (producer, MMA and epilogue warpgroups; data-ready,
smem-free, acc-ready and acc-free barriers; persistent grouped tiles); what
changes is how many K slices can be in shared memory at once. NUM_STAGES is
now a kernel parameter, 4 in this step.

Why deeper hides latency. A TMA load is not fast: from the producer's
expect to the last byte landing is DRAM (or L2) latency plus the transfer,
several hundred nanoseconds to a microsecond, longer when every SM is
loading at once.
One 128x128x64 slice is 2 * 128 * 128 * 64 = 2.1 MFLOP of wgmma, about 0.3
us for one SM at the H100's ~990 dense fp16 TFLOP/s spread over 132 SMs.
So the data of a slice must be requested several slices before it is
needed, and every request in flight needs a stage of its own to land in.

How far ahead can the producer run? The MMA warpgroup holds two stages at
any time: the slice whose wgmma it just issued and the previous one, which
it frees only when `dot_wait(1)` retires it (steps 5 and 7). So the load of
slice k + NUM_STAGES - 1 can start when slice k - 1 retires -- right after
slice k is issued -- and is needed when slice k + NUM_STAGES - 1 is
issued: it has NUM_STAGES - 1 slice times to land. With 2 stages (step 7)
that is one slice time, about 0.3 us, well under a load's latency, and the
tensor cores wait for most of every slice; with 4 stages it is three (about
0.9 us), enough to cover a typical load. A deeper ring also absorbs jitter:
one slow load no longer stalls the MMA warpgroup when the next ones have
already landed.

Nothing else changes. The barrier protocol of step 7 is written for any
NUM_STAGES: slice `it` lives in stage it % NUM_STAGES, its round is
it // NUM_STAGES, the parity of a wait is the round's low bit (flipped for
the producer's smem-free wait). Stage indices are runtime values, so a
stage is picked by address arithmetic, not by unrolling.

The price is shared memory. A CTA may use at most 227 KB (232448 bytes) of
dynamic shared memory on the H100, and everything in this kernel lives
there for the CTA's whole life:

    operand stages   NUM_STAGES * (BLOCK_M + BLOCK_N) * BLOCK_K * 2
    fp32 accumulator BLOCK_M * BLOCK_N * 4     (the MMA -> epilogue hand-off)
    fp16 C tile      BLOCK_M * BLOCK_N * 2     (the TMA store's source)
    mbarriers        8 bytes each, in the first 1 KB (buffers that TMA or
                     wgmma swizzle start 1024-byte aligned)

For 128x128x64 tiles that is 4 * 32 + 64 + 32 KB + 1 KB = 225 KB (230400
bytes): four stages fit and five (257 KB) do not. A 64x256x64 tile
(40 KB a stage) fits only three. The kernel checks the sum with
`tl.static_assert`, so a configuration that does not fit fails at compile
time with a message instead of at launch. (Handing the accumulator over
in fp16 would save the 32 KB of a fifth stage; step 10 removes the hand-off
altogether.)

Registers are step 7's: 40 for the producer, 232 each for the MMA and
epilogue warpgroups (128 * 504 <= 65536); more stages cost no registers.
"""
import triton.language as tl
import txl


@txl.jit
def gemm_step08(a_desc, bt_desc, c_desc, M, N, K, NUM_SMS,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                NUM_STAGES: tl.constexpr):
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sB = txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sAcc = txl.get_buffer(
        txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32), 0)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    full = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    empty = txl.mbar_alloc(128, num_stages=NUM_STAGES)
    acc_ready = txl.get_buffer(txl.mbar_alloc(128), 0)
    acc_free = txl.get_buffer(txl.mbar_alloc(128), 0)
    SLICE_BYTES: tl.constexpr = (BLOCK_M + BLOCK_N) * BLOCK_K * 2
    # Stages, accumulator hand-off, C tile, and the first 1 KB (barriers).
    SMEM_BYTES: tl.constexpr = (NUM_STAGES * SLICE_BYTES
                                + BLOCK_M * BLOCK_N * (4 + 2) + 1024)
    tl.static_assert(SMEM_BYTES <= 232448,
                     "NUM_STAGES stages of these blocks exceed the 227 KB "
                     "of shared memory a CTA may have")

    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    num_k = tl.cdiv(K, BLOCK_K)
    group_tiles = GROUP_M * num_pid_n

    if txl.is_warpgroup([0]):
        # PRODUCER: TMA only.
        txl.reg_dealloc(40)
        it = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
            group = tile // group_tiles
            first_m = group * GROUP_M
            rows = tl.minimum(num_pid_m - first_m, GROUP_M)
            inner = tile - group * group_tiles
            off_m = (first_m + inner % rows) * BLOCK_M
            off_n = (inner // rows) * BLOCK_N
            for k in range(0, num_k):
                s = it % NUM_STAGES
                # smem-free: the MMA warpgroup is done with this stage. With
                # 4 stages this passes for slice `it` while the MMA
                # warpgroup still computes slice it - 3: the load has three
                # slice times to land.
                txl.mbar_wait(txl.get_buffer(empty, s),
                              ((it // NUM_STAGES) & 1) ^ 1)
                bar = txl.get_buffer(full, s)
                txl.mbar_expect(bar, SLICE_BYTES)
                txl.tma_load(txl.get_buffer(sA, s), a_desc,
                             [off_m, k * BLOCK_K], bar)
                txl.tma_load(txl.get_buffer(sB, s), bt_desc,
                             [off_n, k * BLOCK_K], bar)
                it += 1

    if txl.is_warpgroup([1]):
        # MMA: wgmma only, then hand the accumulator over.
        txl.reg_alloc(232)
        it = 0
        t = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
            acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
            for k in range(0, num_k):
                s = it % NUM_STAGES
                # data-ready: the slice has landed.
                txl.mbar_wait(txl.get_buffer(full, s), (it // NUM_STAGES) & 1)
                acc = tl.dot(txl.get_buffer(sA, s), txl.get_buffer(sB, s).T,
                             acc)
                txl.dot_wait(1)
                if k > 0:
                    # The previous slice's wgmma has retired: free its stage.
                    txl.mbar_arrive(txl.get_buffer(
                        empty, (it + NUM_STAGES - 1) % NUM_STAGES))
                it += 1
            txl.dot_wait(0)
            txl.mbar_arrive(txl.get_buffer(
                empty, (it + NUM_STAGES - 1) % NUM_STAGES))
            # acc-free: the epilogue has read the previous tile.
            txl.mbar_wait(acc_free, (t & 1) ^ 1)
            txl.smem_store(sAcc, acc)
            # acc-ready: every thread arrives after its own stores.
            txl.mbar_arrive(acc_ready)
            t += 1

    if txl.is_warpgroup([2]):
        # EPILOGUE: shared fp32 -> fp16 -> TMA store.
        txl.reg_alloc(232)
        t = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
            group = tile // group_tiles
            first_m = group * GROUP_M
            rows = tl.minimum(num_pid_m - first_m, GROUP_M)
            inner = tile - group * group_tiles
            off_m = (first_m + inner % rows) * BLOCK_M
            off_n = (inner // rows) * BLOCK_N
            txl.mbar_wait(acc_ready, t & 1)
            acc = txl.smem_load(sAcc)
            # Every thread has its values in registers: give the buffer back.
            txl.mbar_arrive(acc_free)
            # The previous tile's store must have read sC (step 6).
            txl.tma_store_wait(0)
            txl.smem_store(sC, acc.to(tl.float16))
            txl.tma_store(sC, c_desc, [off_m, off_n])
            t += 1
        txl.tma_store_wait(0)
