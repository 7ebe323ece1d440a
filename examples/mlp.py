# A two-layer MLP with a symbolic batch size `n`: one module holding a
# graph-level function, a loop-level tensor program and a library call.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def relu(var_x: T.handle, var_y: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(128)))
        y = T.match_buffer(var_y, (n, T.int64(128)))
        for i, j in T.grid(n, T.int64(128)):
            with T.block("relu"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.max(x[vi, vj], T.float32(0.0))

    @R.function
    def main(x: R.Tensor(("n", 784), dtype="float32"), w1: R.Tensor((784, 128), dtype="float32"), b1: R.Tensor((128,), dtype="float32"), w2: R.Tensor((128, 10), dtype="float32")) -> R.Tensor(("n", 10), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            h = R.matmul(x, w1)
            hb = R.add(h, b1)
            unused = R.multiply(hb, hb)
            a = R.call_tir(cls.relu, (hb,), out_sinfo=R.Tensor((n, 128), dtype="float32"))
            alias = a
            out = R.matmul(alias, w2)
            R.output(out)
        return out
