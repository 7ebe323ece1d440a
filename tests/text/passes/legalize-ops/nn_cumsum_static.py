# PASSES: legalize-ops
# CHECKS: cumsum along axis 1 as a linear scan: the first element copied, then a
# serial loop carrying the running sum; the length 5 is positive, so no guard
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 5), dtype="float32")):
        gv = R.cumsum(x, axis=1)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 5), dtype="float32")) -> R.Tensor((2, 5), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.cumsum, (x,), out_sinfo=R.Tensor((2, 5), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def cumsum(x: T.Buffer((T.int64(2), T.int64(5)), "float32"), cumsum: T.Buffer((T.int64(2), T.int64(5)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        with T.block("root"):
            T.reads()
            T.writes()
            with T.block("cumsum"):
                T.reads(x[T.int64(0):T.int64(2), T.int64(0):T.int64(5)])
                T.writes(cumsum[T.int64(0):T.int64(2), T.int64(0):T.int64(5)])
                for ax0 in range(T.int64(2)):
                    cumsum[ax0, T.int64(0)] = x[ax0, T.int64(0)]
                    for k in range(T.int64(4)):
                        cumsum[ax0, k + T.int64(1)] = cumsum[ax0, k] + x[ax0, k + T.int64(1)]
