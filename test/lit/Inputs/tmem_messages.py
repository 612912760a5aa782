# Kernels for test/lit/e2e/blackwell-tmem-messages.mlir: tensor memory
# read and written with each tcgen05.ld/st message shape, and an M = 64
# txl.dotx whose [64, N] accumulator is read with a 16-lane shape.
import triton.language as tl
import txl


@txl.jit
def tmem_16x64b(x_ptr, y_ptr, N: tl.constexpr):
    rows = tl.arange(0, 128)[:, None] * N + tl.arange(0, N)[None, :]
    buf = txl.get_buffer(txl.tmem_alloc([128, N], dtype=tl.float32), 0)
    txl.tmem_store(buf, tl.load(x_ptr + rows), layout="16x64b")
    tl.store(y_ptr + rows, txl.tmem_load(buf, layout="16x64b") * 2.0)


@txl.jit
def tmem_16x128b(x_ptr, y_ptr, N: tl.constexpr):
    rows = tl.arange(0, 128)[:, None] * N + tl.arange(0, N)[None, :]
    buf = txl.get_buffer(txl.tmem_alloc([128, N], dtype=tl.float32), 0)
    txl.tmem_store(buf, tl.load(x_ptr + rows), layout="16x128b")
    tl.store(y_ptr + rows, txl.tmem_load(buf, layout="16x128b") * 2.0)


@txl.jit
def tmem_16x256b(x_ptr, y_ptr, N: tl.constexpr):
    rows = tl.arange(0, 128)[:, None] * N + tl.arange(0, N)[None, :]
    buf = txl.get_buffer(txl.tmem_alloc([128, N], dtype=tl.float32), 0)
    txl.tmem_store(buf, tl.load(x_ptr + rows), layout="16x256b")
    tl.store(y_ptr + rows, txl.tmem_load(buf, layout="16x256b") * 2.0)


@txl.jit
def tmem_16x256b_fp16(x_ptr, y_ptr, N: tl.constexpr):
    rows = tl.arange(0, 128)[:, None] * N + tl.arange(0, N)[None, :]
    buf = txl.get_buffer(txl.tmem_alloc([128, N], dtype=tl.float16), 0)
    txl.tmem_store(buf, tl.load(x_ptr + rows), layout="16x256b")
    tl.store(y_ptr + rows, txl.tmem_load(buf, layout="16x256b"))


@txl.jit
def dotx_m64(a_ptr, bt_ptr, c_ptr, BLOCK_N: tl.constexpr,
             BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, 64)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sA = txl.get_buffer(txl.smem_alloc([64, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([64, BLOCK_N], dtype=tl.float32), 0)
    done = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.smem_store(sA, tl.load(a_ptr + offs_m[:, None] * BLOCK_K + offs_k[None, :]))
    txl.smem_store(sB, tl.load(bt_ptr + offs_n[:, None] * BLOCK_K + offs_k[None, :]))
    txl.dotx(sA, sB.T, acc, useD=False, mbars=[done])
    txl.mbar_wait(done, 0)
    c = txl.tmem_load(acc)
    tl.store(c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :], c.to(tl.float16))


@txl.jit
def tmem_copy_a(a_ptr, bt_ptr, c_ptr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    # A goes shared -> tensor memory with tcgen05.cp and the MMA reads it
    # from there (the tensor-core pipe runs the copy first).
    offs_m = tl.arange(0, 128)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sA = txl.get_buffer(txl.smem_alloc([128, BLOCK_K], dtype=tl.float16), 0)
    tA = txl.get_buffer(txl.tmem_alloc([128, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([128, BLOCK_N], dtype=tl.float32), 0)
    done = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.smem_store(sA, tl.load(a_ptr + offs_m[:, None] * BLOCK_K + offs_k[None, :]))
    txl.smem_store(sB, tl.load(bt_ptr + offs_n[:, None] * BLOCK_K + offs_k[None, :]))
    txl.tmem_copy(tA, sA)
    txl.dotx(tA, sB.T, acc, useD=False, mbars=[done])
    txl.mbar_wait(done, 0)
    c = txl.tmem_load(acc)
    tl.store(c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :], c.to(tl.float16))


@txl.jit
def tmem_copy_wait(x_ptr, y_ptr, K: tl.constexpr):
    # A copy read back by the threads: they wait for its commit.
    rows = tl.arange(0, 128)[:, None] * K + tl.arange(0, K)[None, :]
    s = txl.get_buffer(txl.smem_alloc([128, K], dtype=tl.float32), 0)
    t = txl.get_buffer(txl.tmem_alloc([128, K], dtype=tl.float32), 0)
    done = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.smem_store(s, tl.load(x_ptr + rows))
    txl.tmem_copy(t, s, mbars=[done])
    txl.mbar_wait(done, 0)
    tl.store(y_ptr + rows, txl.tmem_load(t))
