# expect: 2:10: error: closing ']' does not match opening '('
x = (1, 2]
