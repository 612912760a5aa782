# expect: 2:12: error: keyword argument repeated: a
y = f(a=1, a=2)
