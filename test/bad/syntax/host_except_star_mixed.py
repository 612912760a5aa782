# expect: 6:1: error: cannot have both 'except' and 'except*' on the same 'try'
try:
    pass
except ValueError:
    pass
except* TypeError:
    pass
