# expect: 2:5: error: expected an expression, got end of line
x = 
