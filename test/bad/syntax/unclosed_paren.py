# expect: 2:6: error: '(' was never closed
x = f(1,
      2
