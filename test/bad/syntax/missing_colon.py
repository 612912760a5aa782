# expect: 3:13: error: expected ':'
def f(x):
    if x > 0
        return x
