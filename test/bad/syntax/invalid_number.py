# expect: 2:5: error: invalid number literal '1.2.3'
x = 1.2.3
