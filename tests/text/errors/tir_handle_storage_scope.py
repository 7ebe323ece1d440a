# ERROR: 5:32: T.handle: pointers into a storage scope other than "global" are not supported
@I.ir_module
class Module:
    @T.prim_func
    def f(x: T.handle("int32", "shared")):
        T.evaluate(x)
