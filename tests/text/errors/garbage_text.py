# ERROR: 2:13: expected an expression, found '@'
this is not @ valid python $$$
