# expect: 2:5: error: unterminated string literal
s = "abc
