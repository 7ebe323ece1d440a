# PASSES: rewrite-dataflow-reshape
# CHECKS: PrimFuncs that are not a row-major copy stay call_tir: a computed value (exp), a copy in reversed order, a copy that writes only part of its output, a function with a third buffer
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def exp(x: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("exp"):
                vi = T.axis.spatial(T.int64(4), i)
                y[vi] = T.exp(x[vi])

    @T.prim_func(private=True)
    def reverse(x: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("reverse"):
                vi = T.axis.spatial(T.int64(4), i)
                y[vi] = x[T.int64(3) - vi]

    @T.prim_func(private=True)
    def partial(x: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(2)):
            with T.block("partial"):
                vi = T.axis.spatial(T.int64(2), i)
                y[vi] = x[vi]

    @T.prim_func(private=True)
    def first_of_two(x: T.Buffer((T.int64(4),), "float32"), z: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("copy"):
                vi = T.axis.spatial(T.int64(4), i)
                y[vi] = x[vi]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        cls = Before
        with R.dataflow():
            a = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            b = R.call_tir(cls.reverse, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            c = R.call_tir(cls.partial, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            d = R.call_tir(cls.first_of_two, (x, x), out_sinfo=R.Tensor((4,), dtype="float32"))
            R.output(a, b, c, d)
        return (a, b, c, d)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def exp(x: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("exp"):
                vi = T.axis.spatial(T.int64(4), i)
                y[vi] = T.exp(x[vi])

    @T.prim_func(private=True)
    def reverse(x: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("reverse"):
                vi = T.axis.spatial(T.int64(4), i)
                y[vi] = x[T.int64(3) - vi]

    @T.prim_func(private=True)
    def partial(x: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(2)):
            with T.block("partial"):
                vi = T.axis.spatial(T.int64(2), i)
                y[vi] = x[vi]

    @T.prim_func(private=True)
    def first_of_two(x: T.Buffer((T.int64(4),), "float32"), z: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("copy"):
                vi = T.axis.spatial(T.int64(4), i)
                y[vi] = x[vi]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        cls = Expected
        with R.dataflow():
            a = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            b = R.call_tir(cls.reverse, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            c = R.call_tir(cls.partial, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            d = R.call_tir(cls.first_of_two, (x, x), out_sinfo=R.Tensor((4,), dtype="float32"))
            R.output(a, b, c, d)
        return (a, b, c, d)
