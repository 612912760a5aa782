# expect: 22:21: error: too many statically nested blocks
for x in y:
 for x in y:
  for x in y:
   for x in y:
    for x in y:
     for x in y:
      for x in y:
       for x in y:
        for x in y:
         for x in y:
          for x in y:
           for x in y:
            for x in y:
             for x in y:
              for x in y:
               for x in y:
                for x in y:
                 for x in y:
                  for x in y:
                   for x in y:
                    for x in y:
                     pass
