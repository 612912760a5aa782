# expect: 2:1: error: cannot assign to function call
f(x) = 1
