# expect: 194:12: error: call chain too deep
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def f0(x):
    return f1(x + 1)
@triton.jit
def f1(x):
    return f2(x + 1)
@triton.jit
def f2(x):
    return f3(x + 1)
@triton.jit
def f3(x):
    return f4(x + 1)
@triton.jit
def f4(x):
    return f5(x + 1)
@triton.jit
def f5(x):
    return f6(x + 1)
@triton.jit
def f6(x):
    return f7(x + 1)
@triton.jit
def f7(x):
    return f8(x + 1)
@triton.jit
def f8(x):
    return f9(x + 1)
@triton.jit
def f9(x):
    return f10(x + 1)
@triton.jit
def f10(x):
    return f11(x + 1)
@triton.jit
def f11(x):
    return f12(x + 1)
@triton.jit
def f12(x):
    return f13(x + 1)
@triton.jit
def f13(x):
    return f14(x + 1)
@triton.jit
def f14(x):
    return f15(x + 1)
@triton.jit
def f15(x):
    return f16(x + 1)
@triton.jit
def f16(x):
    return f17(x + 1)
@triton.jit
def f17(x):
    return f18(x + 1)
@triton.jit
def f18(x):
    return f19(x + 1)
@triton.jit
def f19(x):
    return f20(x + 1)
@triton.jit
def f20(x):
    return f21(x + 1)
@triton.jit
def f21(x):
    return f22(x + 1)
@triton.jit
def f22(x):
    return f23(x + 1)
@triton.jit
def f23(x):
    return f24(x + 1)
@triton.jit
def f24(x):
    return f25(x + 1)
@triton.jit
def f25(x):
    return f26(x + 1)
@triton.jit
def f26(x):
    return f27(x + 1)
@triton.jit
def f27(x):
    return f28(x + 1)
@triton.jit
def f28(x):
    return f29(x + 1)
@triton.jit
def f29(x):
    return f30(x + 1)
@triton.jit
def f30(x):
    return f31(x + 1)
@triton.jit
def f31(x):
    return f32(x + 1)
@triton.jit
def f32(x):
    return f33(x + 1)
@triton.jit
def f33(x):
    return f34(x + 1)
@triton.jit
def f34(x):
    return f35(x + 1)
@triton.jit
def f35(x):
    return f36(x + 1)
@triton.jit
def f36(x):
    return f37(x + 1)
@triton.jit
def f37(x):
    return f38(x + 1)
@triton.jit
def f38(x):
    return f39(x + 1)
@triton.jit
def f39(x):
    return f40(x + 1)
@triton.jit
def f40(x):
    return f41(x + 1)
@triton.jit
def f41(x):
    return f42(x + 1)
@triton.jit
def f42(x):
    return f43(x + 1)
@triton.jit
def f43(x):
    return f44(x + 1)
@triton.jit
def f44(x):
    return f45(x + 1)
@triton.jit
def f45(x):
    return f46(x + 1)
@triton.jit
def f46(x):
    return f47(x + 1)
@triton.jit
def f47(x):
    return f48(x + 1)
@triton.jit
def f48(x):
    return f49(x + 1)
@triton.jit
def f49(x):
    return f50(x + 1)
@triton.jit
def f50(x):
    return f51(x + 1)
@triton.jit
def f51(x):
    return f52(x + 1)
@triton.jit
def f52(x):
    return f53(x + 1)
@triton.jit
def f53(x):
    return f54(x + 1)
@triton.jit
def f54(x):
    return f55(x + 1)
@triton.jit
def f55(x):
    return f56(x + 1)
@triton.jit
def f56(x):
    return f57(x + 1)
@triton.jit
def f57(x):
    return f58(x + 1)
@triton.jit
def f58(x):
    return f59(x + 1)
@triton.jit
def f59(x):
    return f60(x + 1)
@triton.jit
def f60(x):
    return f61(x + 1)
@triton.jit
def f61(x):
    return f62(x + 1)
@triton.jit
def f62(x):
    return f63(x + 1)
@triton.jit
def f63(x):
    return f64(x + 1)
@triton.jit
def f64(x):
    return f65(x + 1)
@triton.jit
def f65(x):
    return f66(x + 1)
@triton.jit
def f66(x):
    return f67(x + 1)
@triton.jit
def f67(x):
    return f68(x + 1)
@triton.jit
def f68(x):
    return f69(x + 1)
@triton.jit
def f69(x):
    return x
@triton.jit
def kernel(p):
    tl.store(p, f0(tl.load(p)))
