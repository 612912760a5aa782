# expect: 10:5: error: desc.store: stores through tensor descriptors of rank 3 are not supported yet (rank 1 and 2 are; loads of rank 3 to 5 are)
# kernel: k
# signature: tensordesc<fp32[2, 8, 64]>, tensordesc<fp32[2, 8, 64]>
import triton.language as tl
import txl


@txl.jit
def k(x_desc, y_desc):
    y_desc.store([0, 0, 0], x_desc.load([0, 0, 0]))
