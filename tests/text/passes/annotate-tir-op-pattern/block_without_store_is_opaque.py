# PASSES: annotate-tir-op-pattern
# CHECKS: a block that stores nothing (here an extern call) makes the function opaque (8); graph functions are not touched
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def side_effect(A: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("call"):
                vi = T.axis.spatial(T.int64(4), i)
                T.evaluate(T.call_extern("int32", "consume", A[vi]))

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return x

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def side_effect(A: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"op_pattern": 8})
        for i in range(T.int64(4)):
            with T.block("call"):
                vi = T.axis.spatial(T.int64(4), i)
                T.evaluate(T.call_extern("int32", "consume", A[vi]))

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return x
