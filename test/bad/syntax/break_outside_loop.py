# expect: 3:5: error: 'break' outside loop
def f():
    break
