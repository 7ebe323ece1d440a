# PASSES: attach-global-symbol
# CHECKS: public functions, which the parser gave global_symbol = their name, are unchanged
@I.ir_module
class Before:
    @T.prim_func
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
    @T.prim_func
    def tir_zeros(x: T.Buffer((T.int64(2),), "float32")):
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
