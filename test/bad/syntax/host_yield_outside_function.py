# expect: 2:1: error: 'yield' outside function
yield 1
