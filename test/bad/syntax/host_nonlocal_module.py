# expect: 2:1: error: nonlocal declaration not allowed at module level
nonlocal x
