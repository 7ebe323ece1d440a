# PASSES: legalize-ops,annotate-tir-op-pattern
# CHECKS: the legalized cumsum, a linear scan in one block without iteration
# variables (two stores at different indices, a load of its own output), is
# opaque (8), as TVM's extern cumsum
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float16")):
        gv = R.cumsum(x, axis=0, dtype="float32")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float16")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Expected
        gv = R.call_tir(cls.cumsum, (x,), out_sinfo=R.Tensor((n, m), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def cumsum(var_x: T.handle, var_cumsum: T.handle):
        T.func_attr({"tir.noalias": T.bool(True), "op_pattern": 8})
        n, m = T.int64(), T.int64()
        x = T.match_buffer(var_x, (n, m), "float16")
        cumsum = T.match_buffer(var_cumsum, (n, m))
        with T.block("root"):
            T.reads()
            T.writes()
            with T.block("cumsum"):
                T.reads(x[T.int64(0):n, T.int64(0):m])
                T.writes(cumsum[T.int64(0):n, T.int64(0):m])
                if n > T.int64(0):
                    for ax1 in range(m):
                        cumsum[T.int64(0), ax1] = T.Cast("float32", x[T.int64(0), ax1])
                        for k in range(n - T.int64(1)):
                            cumsum[k + T.int64(1), ax1] = cumsum[k, ax1] + T.Cast("float32", x[k + T.int64(1), ax1])
