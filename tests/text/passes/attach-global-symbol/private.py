# PASSES: attach-global-symbol
# CHECKS: private functions get global_symbol = their name and become public (in TVM, private means no symbol)
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def helper(x: T.Buffer((T.int64(2),), "float32")):
        for i in range(T.int64(2)):
            with T.block("zero"):
                vi = T.axis.spatial(T.int64(2), i)
                x[vi] = T.float32(0)

    @R.function(private=True)
    def inner(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x

    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        cls = Before
        y = cls.inner(x)
        return y

@I.ir_module
class Expected:
    @T.prim_func
    def helper(x: T.Buffer((T.int64(2),), "float32")):
        # with T.block("root"):
        for i in range(T.int64(2)):
            with T.block("zero"):
                vi = T.axis.spatial(T.int64(2), i)
                T.reads()
                T.writes(x[vi])
                x[vi] = T.float32(0.0)

    @R.function
    def inner(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x

    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        cls = Expected
        y: R.Tensor((2,), dtype="float32") = cls.inner(x)
        return y
