# expect: 2:7: error: '*', '**' and '/' parameters are not supported
def f(*args):
    pass
