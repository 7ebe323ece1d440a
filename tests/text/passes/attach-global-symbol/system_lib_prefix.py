# PASSES: attach-global-symbol
# CHECKS: with the module attribute system_lib_prefix, PrimFunc symbols are prefixed, graph function symbols are not
@I.ir_module
class Before:
    I.module_attrs({"system_lib_prefix": "hello_"})

    @T.prim_func(private=True)
    def tir_zeros(x: T.Buffer((T.int64(2),), "float32")):
        for i in range(T.int64(2)):
            with T.block("zero"):
                vi = T.axis.spatial(T.int64(2), i)
                x[vi] = T.float32(0)

    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x

@I.ir_module
class Expected:
    I.module_attrs({"system_lib_prefix": "hello_"})
    @T.prim_func
    def tir_zeros(x: T.Buffer((T.int64(2),), "float32")):
        T.func_attr({"global_symbol": "hello_tir_zeros"})
        # with T.block("root"):
        for i in range(T.int64(2)):
            with T.block("zero"):
                vi = T.axis.spatial(T.int64(2), i)
                T.reads()
                T.writes(x[vi])
                x[vi] = T.float32(0.0)

    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x
