# ERROR: 6:25: T.tvm_struct_get needs its result dtype, e.g. dtype="int32"
@I.ir_module
class Module:
    @T.prim_func
    def f(args: T.handle):
        ndim: T.int32 = T.tvm_struct_get(args, 0, 4)
        T.evaluate(ndim)
