"""GEMM ladder, step 7: warp specialization -- a producer, an MMA
warpgroup and an epilogue warpgroup, talking through four kinds of
mbarrier.

    C[M, N] = A[M, K] @ B[K, N],  M, N, K >= 1 (row strides 16-byte aligned)

In steps 4-6 one warpgroup does everything in program order: issue TMA,
wait, issue wgmma, wait, convert, store. Whatever it is waiting for, the
other units idle. Here the CTA has three warpgroups (num_warps=4,
num_warpgroups=3: 384 threads), each running its own loop over the same
persistent tile sequence as step 6 (grid = (min(NUM_SMS, num_tiles),)):

- warpgroup 0, the PRODUCER, only issues TMA: for every K slice it waits
  until a stage is free, announces the slice's bytes and loads the A and
  B^T tiles into it;
- warpgroup 1, the MMA warpgroup, only multiplies: it waits for a stage to
  be full, runs wgmma on it, and gives the stage back once that wgmma has
  retired. At the end of a tile it hands the fp32 accumulator over through
  shared memory and starts the next tile at once;
- warpgroup 2, the EPILOGUE, takes the accumulator from shared memory,
  rounds it to fp16 (where a bias or an activation would go) and
  TMA-stores it, while the MMA warpgroup already computes the next tile.

New in this step:

Roles. `if txl.is_warpgroup([i]):` is true for the 128 threads of
warpgroup i; each branch is one role's whole program. The roles never meet
in a CTA-wide barrier after the set-up (a bar.sync 0 in one branch would
wait for threads that are in another loop), so the compiler synchronizes a
warpgroup with a named barrier of its own (bar.sync 15 - wg, 128) where an
operation needs it (smem_store). Every role walks the same tiles, and the
producer and the MMA warpgroup the same K slices, so their counters stay in
step.

Four barrier kinds. Each is a txl.mbar_alloc; what differs is who
arrives, how many arrivals complete a phase, and who waits.

    full[s]    data-ready  producer -> MMA     count 1: the producer's expect,
                                                plus the TMA bytes
    empty[s]   smem-free   MMA -> producer     count 128: every MMA thread,
                                                after its dot_wait
    acc_ready  acc-ready   MMA -> epilogue     count 128: every MMA thread,
                                                after its stores
    acc_free   acc-free    epilogue -> MMA     count 128: every epilogue
                                                thread, after its loads

`txl.mbar_arrive(bar)` is executed by every thread that reaches it, so a
barrier released by a whole warpgroup is allocated with 128 arrivals; with
`pred=` only the threads where it holds arrive. The count must match
exactly: one arrival short and the phase never completes (a hang), one too
many and it completes a phase early.

- empty: wgmma reads shared memory asynchronously and each thread learns
  that its warpgroup's group retired from its own `dot_wait`; all 128
  arrive after theirs, so the phase completes only when every warp has seen
  the retirement.
- acc_ready: every MMA thread arrives after its own `txl.smem_store`
  writes. One thread arriving after the warpgroup barrier that ends
  smem_store would also be correct under PTX's memory model (bar.sync
  orders the other threads' writes before that thread's release-arrive,
  and ordering is transitive), but compute-sanitizer's racecheck does not
  follow that chain and reports every epilogue read as a hazard; 128
  arrivals cost 127 more arrive instructions per tile and keep the
  tutorial racecheck-clean (scripts/device-sanitize.sh).
- acc_free: `txl.smem_load` does not synchronize; each epilogue thread
  arrives after its own reads, so the buffer is free when all 128 are in.
  They arrive right after loading -- before converting and storing -- so
  the MMA warpgroup may overwrite the buffer as early as possible.

Parities. A barrier completes one phase per use; the waiter asks for the
parity of the round it needs. Slice `it` (a running count over all the
CTA's tiles) uses stage it % NUM_STAGES in round it // NUM_STAGES: the MMA
warpgroup waits full[s] with parity round & 1; the producer waits empty[s]
with the flipped parity, (round & 1) ^ 1, so its first pass over the
stages does not block (a fresh barrier "has completed" the phase of parity
1). The accumulator buffer has one slot: tile t (counted per CTA) waits
acc_ready with parity t & 1 and acc_free with (t & 1) ^ 1.

Registers. An SM has 65536 registers; one CTA of 384 threads per SM
starts with 65536 / 384 = 170 -> 168 per thread (setmaxnreg counts in
multiples of 8), and the kernel is compiled under that cap.
`txl.reg_dealloc(n)` / `txl.reg_alloc(n)` (setmaxnreg.dec / .inc, one per
role branch, for the whole warpgroup) move registers between roles. The
producer needs a handful and gives the rest back (40). The MMA warpgroup
holds a 128x128 fp32 accumulator, 128 registers per thread, and the
epilogue holds the same tile after loading it, plus its fp16 copy and the
shared addresses: both take 232. (At 168, or even 176, the epilogue
spills; `ptxas -v` reports it.) Sum: 128 * (40 + 232 + 232) = 64512 <=
65536 registers, so the increases can always be granted (setmaxnreg.inc
waits until the pool has the registers; a sum above 65536 would hang the
warpgroup that asks last).

Shared memory (BLOCK 128x128x64, 2 stages): operand stages 2 * (16 + 16)
KB, the fp32 accumulator 64 KB, the fp16 C tile 32 KB, 1 KB for the
barriers: 161 KB of the 227 KB a CTA may have.
"""
import triton.language as tl
import txl

NUM_STAGES = 2


@txl.jit
def gemm_step07(a_desc, bt_desc, c_desc, M, N, K, NUM_SMS,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
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
                # smem-free: the MMA warpgroup is done with this stage.
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
