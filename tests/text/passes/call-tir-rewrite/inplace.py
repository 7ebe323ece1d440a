# PASSES: call-tir-rewrite
# CHECKS: call_tir_inplace writes into the input its inplace_indices name: nothing is allocated for it
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def relu_inplace(x: T.Buffer((T.int64(8),), "float32")):
        for i in range(T.int64(8)):
            with T.block("relu"):
                vi = T.axis.spatial(T.int64(8), i)
                x[vi] = T.max(x[vi], T.float32(0))

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        y = R.add(x, x)
        z = R.call_tir_inplace(cls.relu_inplace, (y,), out_sinfo=R.Tensor((8,), dtype="float32"), inplace_indices=[0])
        return z

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def relu_inplace(x: T.Buffer((T.int64(8),), "float32")):
        # with T.block("root"):
        for i in range(T.int64(8)):
            with T.block("relu"):
                vi = T.axis.spatial(T.int64(8), i)
                T.reads()
                T.writes(x[vi])
                x[vi] = T.max(x[vi], T.float32(0.0))

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        y: R.Tensor((8,), dtype="float32") = R.add(x, x)
        _: R.Object = cls.relu_inplace(y)
        z: R.Tensor((8,), dtype="float32") = y
        return z
