# The two-layer MLP of mlp.py with its layers written as tensor programs
# (call_tir), so that it compiles without operator legalization: a symbolic
# batch size `n` flows from the graph function into the PrimFuncs.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def dense_bias_relu(var_x: T.handle, w: T.Buffer((T.int64(784), T.int64(128)), "float32"), b: T.Buffer((T.int64(128),), "float32"), var_y: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(784)))
        y = T.match_buffer(var_y, (n, T.int64(128)))
        acc = T.alloc_buffer((n, T.int64(128)))
        for i, j, k in T.grid(n, T.int64(128), T.int64(784)):
            with T.block("dense"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    acc[vi, vj] = T.float32(0.0)
                acc[vi, vj] = acc[vi, vj] + x[vi, vk] * w[vk, vj]
        for i, j in T.grid(n, T.int64(128)):
            with T.block("bias_relu"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = T.max(acc[vi, vj] + b[vj], T.float32(0.0))

    @T.prim_func(private=True)
    def dense(var_x: T.handle, w: T.Buffer((T.int64(128), T.int64(10)), "float32"), var_y: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(128)))
        y = T.match_buffer(var_y, (n, T.int64(10)))
        for i, j, k in T.grid(n, T.int64(10), T.int64(128)):
            with T.block("dense"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    y[vi, vj] = T.float32(0.0)
                y[vi, vj] = y[vi, vj] + x[vi, vk] * w[vk, vj]

    @R.function
    def main(x: R.Tensor(("n", 784), dtype="float32"), w1: R.Tensor((784, 128), dtype="float32"), b1: R.Tensor((128,), dtype="float32"), w2: R.Tensor((128, 10), dtype="float32")) -> R.Tensor(("n", 10), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            h = R.call_tir(cls.dense_bias_relu, (x, w1, b1), out_sinfo=R.Tensor((n, 128), dtype="float32"))
            out = R.call_tir(cls.dense, (h, w2), out_sinfo=R.Tensor((n, 10), dtype="float32"))
            R.output(out)
        return out
