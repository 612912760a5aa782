# expect: 2:7: error: invalid syntax: unexpected number '2'
x = 1 2
