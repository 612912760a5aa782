# expect: 4:1: error: expected 'except' or 'finally' block, got name 'x'
try:
    import torch
x = 1
