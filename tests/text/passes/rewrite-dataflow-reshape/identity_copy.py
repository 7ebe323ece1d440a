# PASSES: rewrite-dataflow-reshape
# CHECKS: a plain copy of the same shape (without a root block, written by hand) is a reshape to its own shape; only the bindings inside the dataflow block are rewritten
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def copy(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(2)), "int32")
        y = T.match_buffer(var_y, (n, T.int64(2)), "int32")
        for i, j in T.grid(n, T.int64(2)):
            with T.block("copy"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = x[vi, vj]

    @R.function
    def main(x: R.Tensor(("n", 2), dtype="int32")) -> R.Tensor(("n", 2), dtype="int32"):
        n = T.int64()
        cls = Before
        with R.dataflow():
            a = R.call_tir(cls.copy, (x,), out_sinfo=R.Tensor((n, 2), dtype="int32"))
            R.output(a)
        b = R.call_tir(cls.copy, (a,), out_sinfo=R.Tensor((n, 2), dtype="int32"))
        with R.dataflow():
            c = R.call_tir(cls.copy, (b,), out_sinfo=R.Tensor((n, 2), dtype="int32"))
            R.output(c)
        return c

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def copy(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(2)), "int32")
        y = T.match_buffer(var_y, (n, T.int64(2)), "int32")
        for i, j in T.grid(n, T.int64(2)):
            with T.block("copy"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = x[vi, vj]

    @R.function
    def main(x: R.Tensor(("n", 2), dtype="int32")) -> R.Tensor(("n", 2), dtype="int32"):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            a = R.reshape(x, R.shape([n, 2]))
            R.output(a)
        b = R.call_tir(cls.copy, (a,), out_sinfo=R.Tensor((n, 2), dtype="int32"))
        with R.dataflow():
            c = R.reshape(b, R.shape([n, 2]))
            R.output(c)
        return c
