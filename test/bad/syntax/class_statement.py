# expect: 2:1: error: 'class' is not supported
class A:
    pass
