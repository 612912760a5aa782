# expect: 3:1: error: expected an indented block
def f(x):
x = 1
