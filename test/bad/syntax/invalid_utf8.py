# expect: 2:6: error: invalid UTF-8 byte 0xE9
# café
x = 1
