# expect: 2:12: error: positional argument follows keyword argument
y = f(a=1, b)
