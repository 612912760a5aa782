# expect: 2:5: error: leading zeros in decimal integer literals
x = 0017
