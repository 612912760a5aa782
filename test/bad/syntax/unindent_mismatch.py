# expect: 5:7: error: unindent does not match any outer indentation level
def f():
    if x:
        y = 1
      z = 2
