# expect: 2:1: error: cannot assign to literal
1 = x
