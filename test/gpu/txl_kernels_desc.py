"""Kernels for test_desc.py: desc.load / desc.store on host tensor
descriptors (Triton's tensor-descriptor surface)."""
import triton.language as tl
import txl


@txl.jit
def desc_axpb(x_desc, y_desc, M, N, alpha, beta,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Every block of the grid row by row, through one load site and one
    # store site used many times (a loop): y = alpha * x + beta.
    pid = tl.program_id(0)
    num_n = tl.cdiv(N, BLOCK_N)
    for j in range(num_n):
        x = x_desc.load([pid * BLOCK_M, j * BLOCK_N])
        y = x.to(tl.float32) * alpha + beta
        y_desc.store([pid * BLOCK_M, j * BLOCK_N], y.to(y_desc.dtype))


@txl.jit
def desc_matmul(a_desc, b_desc, c_desc, M, N, K,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    # The Triton tutorial shape of a descriptor matmul: register operands
    # loaded by desc.load, tl.dot, desc.store of the result.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))
