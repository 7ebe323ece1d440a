# ERROR: 1:1: expected an @I.ir_module class or @R.function / @T.prim_func definitions, found none
