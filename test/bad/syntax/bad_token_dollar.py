# expect: 2:5: error: invalid character '$'
x = $y
