# PASSES: attach-global-symbol
# CHECKS: a private PrimFunc with attributes keeps them and gains the symbol
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def fill(x: T.Buffer((T.int64(3),), "int32")):
        T.func_attr({"tir.noalias": True})
        for i in range(T.int64(3)):
            with T.block("fill"):
                vi = T.axis.spatial(T.int64(3), i)
                x[vi] = 7

@I.ir_module
class Expected:
    @T.prim_func
    def fill(x: T.Buffer((T.int64(3),), "int32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for i in range(T.int64(3)):
            with T.block("fill"):
                vi = T.axis.spatial(T.int64(3), i)
                T.reads()
                T.writes(x[vi])
                x[vi] = 7
