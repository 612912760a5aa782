# expect: 2:5: error: cannot use assignment expressions with expression
if (self.n := 3):
    pass
