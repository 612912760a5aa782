# expect: 3:5: error: unterminated triple-quoted string literal
def f():
    """doc
    x = 1
