# expect: 2:5: error: integer literal
x = 123456789012345678901234567890
