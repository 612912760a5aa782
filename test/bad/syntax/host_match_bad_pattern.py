# expect: 3:14: error: imaginary number required in complex literal
match x:
    case 1 + 2:
        pass
