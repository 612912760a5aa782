# expect: 2:10: error: expected an indented block
def f(x):
