# expect: 2:6: error: unmatched ')'
x = 1)
