# PASSES: call-tir-rewrite
# CHECKS: a call with two outputs allocates both and returns them as a tuple
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def split(x: T.Buffer((T.int64(4),), "float32"), a: T.Buffer((T.int64(2),), "float32"), b: T.Buffer((T.int64(2),), "float32")):
        for i in range(T.int64(2)):
            with T.block("split"):
                vi = T.axis.spatial(T.int64(2), i)
                a[vi] = x[vi]
                b[vi] = x[vi + T.int64(2)]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Before
        t = R.call_tir(cls.split, (x,), out_sinfo=[R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32")])
        a = t[0]
        return a

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def split(x: T.Buffer((T.int64(4),), "float32"), a: T.Buffer((T.int64(2),), "float32"), b: T.Buffer((T.int64(2),), "float32")):
        # with T.block("root"):
        for i in range(T.int64(2)):
            with T.block("split"):
                vi = T.axis.spatial(T.int64(2), i)
                T.reads(x[T.int64(0):T.int64(4)])
                T.writes(a[vi], b[vi])
                a[vi] = x[vi]
                b[vi] = x[vi + T.int64(2)]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        alloc: R.Tensor((2,), dtype="float32") = R.builtin.alloc_tensor(R.shape([2]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        alloc_1: R.Tensor((2,), dtype="float32") = R.builtin.alloc_tensor(R.shape([2]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Object = cls.split(x, alloc, alloc_1)
        t: R.Tuple(R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32")) = (alloc, alloc_1)
        a: R.Tensor((2,), dtype="float32") = t[0]
        return a
