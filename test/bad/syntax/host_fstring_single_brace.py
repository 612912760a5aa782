# expect: 2:13: error: f-string: single '}' is not allowed
print(f"done}")
