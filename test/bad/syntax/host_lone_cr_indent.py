# expect: 3:3: error: unexpected indent
x = 1  # a lone CR ends this comment, as in CPython  y = 2
