# expect: 2:15: error: named arguments must follow bare *
def launch(x, *):
    pass
