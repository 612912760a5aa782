"""Blackwell GEMM ladder, step 5: a two-stage ring of shared buffers.

    C[M, N] = A[M, K] @ B[K, N],  one BLOCK_M x BLOCK_N tile per CTA

Step 4 leaves the tensor core idle while TMA fetches the next slice and the
TMA engine idle while the MMA runs. Here A and B have NUM_STAGES = 2
shared stages and two barriers per stage:

* full[s] - data ready: completes when stage s's two boxes have landed
  (one `mbar_expect` arrival plus the boxes' bytes);
* empty[s] - stage free: the MMA that read stage s is committed to it
  (`mbars=[empty[s]]`), so it completes when that MMA has read the stage.

Iteration ki first refills the other stage with slice ki + 1 - after
waiting until MMA ki - 1, the last reader of that stage, is done - and
only then waits for its own slice and issues its MMA. So the copy of slice
ki + 1 runs while MMA ki computes. Parities: stage s completes a phase per
use, and slice ki is stage ki % 2's (ki // 2)-th use, so both barriers of
slice ki are waited for with parity (ki // 2) & 1.

After the loop one more wait - on the barrier the last MMA committed to -
says every MMA is done (a commit tracks all of the issuing thread's earlier
tcgen05 work), and the epilogue reads the accumulator as in step 4.
"""
import triton.language as tl
import txl

NUM_STAGES = 2


@txl.jit
def gemm_bw_step05(a_desc, bt_desc, c_desc, K,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sB = txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32), 0)
    full = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    empty = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    SLICE_BYTES: tl.constexpr = (BLOCK_M + BLOCK_N) * BLOCK_K * 2
    num_k = tl.cdiv(K, BLOCK_K)

    # Prologue: slice 0 into stage 0.
    bar = txl.get_buffer(full, 0)
    txl.mbar_expect(bar, SLICE_BYTES)
    txl.tma_load(txl.get_buffer(sA, 0), a_desc, [off_m, 0], bar)
    txl.tma_load(txl.get_buffer(sB, 0), bt_desc, [off_n, 0], bar)

    for ki in range(0, num_k):
        s = ki % NUM_STAGES
        if ki + 1 < num_k:
            ns = (ki + 1) % NUM_STAGES
            if ki >= 1:
                # MMA ki - 1 read stage ns: wait until it is done with it.
                txl.mbar_wait(txl.get_buffer(empty, ns),
                              ((ki - 1) // NUM_STAGES) & 1)
            nbar = txl.get_buffer(full, ns)
            txl.mbar_expect(nbar, SLICE_BYTES)
            txl.tma_load(txl.get_buffer(sA, ns), a_desc,
                         [off_m, (ki + 1) * BLOCK_K], nbar)
            txl.tma_load(txl.get_buffer(sB, ns), bt_desc,
                         [off_n, (ki + 1) * BLOCK_K], nbar)
        txl.mbar_wait(txl.get_buffer(full, s), (ki // NUM_STAGES) & 1)
        txl.dotx(txl.get_buffer(sA, s), txl.get_buffer(sB, s).T, acc,
                 useD=ki > 0, mbars=[txl.get_buffer(empty, s)])

    # The last MMA's commit completes once every MMA is done.
    last = num_k - 1
    txl.mbar_wait(txl.get_buffer(empty, last % NUM_STAGES),
                  (last // NUM_STAGES) & 1)
    c = txl.tmem_load(acc)
    txl.smem_store(sC, c.to(tl.float16))
    txl.tma_store(sC, c_desc, [off_m, off_n])
    txl.tma_store_wait(0)
