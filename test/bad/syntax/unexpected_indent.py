# expect: 3:5: error: unexpected indent
x = 1
    y = 2
