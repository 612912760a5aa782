# expect: 2:5: error: lambda expressions are not supported
f = lambda x: x + 1
