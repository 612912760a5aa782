# expect: 2:15: error: f-string: invalid conversion character 'z'
print(f"{name!z}")
