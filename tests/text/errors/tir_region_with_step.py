# ERROR: 7:23: a buffer region cannot have a step
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((16,), "float32")):
        with T.block("b"):
            T.reads(A[0:16:2])
            T.evaluate(0)
