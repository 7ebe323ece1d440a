# PASSES: legalize-ops
# CHECKS: exclusive cumsum of the flattened symbolic tensor into int64: a
# linear scan starting from 0, reading x at the unravelled index k, guarded
# by `if n * 3 > 0` since the length may be 0
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="int32")):
        gv = R.cumsum(x, dtype="int64", exclusive=True)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="int32")) -> R.Tensor(("n * 3",), dtype="int64"):
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.cumsum, (x,), out_sinfo=R.Tensor((n * 3,), dtype="int64"))
        return gv

    @T.prim_func(private=True)
    def cumsum(var_x: T.handle, var_cumsum: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3)), "int32")
        cumsum = T.match_buffer(var_cumsum, (n * T.int64(3),), "int64")
        with T.block("root"):
            T.reads()
            T.writes()
            with T.block("cumsum"):
                T.reads(x[T.int64(0):n, T.int64(0):T.int64(3)])
                T.writes(cumsum[T.int64(0):n * T.int64(3)])
                if n * T.int64(3) > T.int64(0):
                    cumsum[T.int64(0)] = T.int64(0)
                    for k in range(n * T.int64(3) - T.int64(1)):
                        cumsum[k + T.int64(1)] = cumsum[k] + T.Cast("int64", x[k // T.int64(3), k % T.int64(3)])
