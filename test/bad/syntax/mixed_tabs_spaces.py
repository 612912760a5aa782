# expect: 4:9: error: inconsistent use of tabs and spaces
def f():
	if x:
        pass
