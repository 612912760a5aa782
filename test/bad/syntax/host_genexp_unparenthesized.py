# expect: 2:5: error: generator expression must be parenthesized
sum(x for x in y, 0)
