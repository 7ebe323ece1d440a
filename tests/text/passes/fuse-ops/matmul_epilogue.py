# PASSES: fuse-ops
# CHECKS: an out-elementwise-fusable op (matmul) takes its broadcast/elementwise epilogue (bias add, relu) but not its elementwise producer (TVM test_conv2d_fuse); symbolic batch
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def scale(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(8)))
        y = T.match_buffer(var_y, (n, T.int64(8)))
        for i, j in T.grid(n, T.int64(8)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = x[vi, vj] * T.float32(2)

    @T.prim_func(private=True)
    def matmul(var_x: T.handle, w: T.Buffer((T.int64(8), T.int64(4)), "float32"), var_y: T.handle):
        T.func_attr({"op_pattern": 4, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(8)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        for i, j, k in T.grid(n, T.int64(4), T.int64(8)):
            with T.block("y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    y[vi, vj] = T.float32(0)
                y[vi, vj] = y[vi, vj] + x[vi, vk] * w[vk, vj]

    @T.prim_func(private=True)
    def add_bias(var_x: T.handle, b: T.Buffer((T.int64(4),), "float32"), var_y: T.handle):
        T.func_attr({"op_pattern": 1, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = x[vi, vj] + b[vj]

    @T.prim_func(private=True)
    def relu(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = T.max(x[vi, vj], T.float32(0))

    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), w: R.Tensor((8, 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Before
        with R.dataflow():
            lv0 = R.call_tir(cls.scale, (x,), out_sinfo=R.Tensor((n, 8), dtype="float32"))
            lv1 = R.call_tir(cls.matmul, (lv0, w), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            lv2 = R.call_tir(cls.add_bias, (lv1, b), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            gv = R.call_tir(cls.relu, (lv2,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(gv)
        return gv

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def scale(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(8)))
        y = T.match_buffer(var_y, (n, T.int64(8)))
        # with T.block("root"):
        for i, j in T.grid(n, T.int64(8)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = x[vi, vj] * T.float32(2.0)

    @T.prim_func(private=True)
    def matmul(var_x: T.handle, w: T.Buffer((T.int64(8), T.int64(4)), "float32"), var_y: T.handle):
        T.func_attr({"op_pattern": 4, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(8)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        # with T.block("root"):
        for i, j, k in T.grid(n, T.int64(4), T.int64(8)):
            with T.block("y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(x[vi, vk], w[vk, vj])
                T.writes(y[vi, vj])
                with T.init():
                    y[vi, vj] = T.float32(0.0)
                y[vi, vj] = y[vi, vj] + x[vi, vk] * w[vk, vj]

    @T.prim_func(private=True)
    def add_bias(var_x: T.handle, b: T.Buffer((T.int64(4),), "float32"), var_y: T.handle):
        T.func_attr({"op_pattern": 1, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        # with T.block("root"):
        for i, j in T.grid(n, T.int64(4)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj], b[vj])
                T.writes(y[vi, vj])
                y[vi, vj] = x[vi, vj] + b[vj]

    @T.prim_func(private=True)
    def relu(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        # with T.block("root"):
        for i, j in T.grid(n, T.int64(4)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.max(x[vi, vj], T.float32(0.0))

    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), w: R.Tensor((8, 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Expected
        with R.dataflow():
            lv0 = R.call_tir(cls.scale, (x,), out_sinfo=R.Tensor((n, 8), dtype="float32"))
            gv: R.Tensor((n, 4), dtype="float32") = cls.fused_matmul_add_bias_relu(lv0, w, b)
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_matmul_add_bias_relu(lv0: R.Tensor(("n", 8), dtype="float32"), w: R.Tensor((8, 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Expected
        with R.dataflow():
            lv1 = R.call_tir(cls.matmul, (lv0, w), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            lv2 = R.call_tir(cls.add_bias, (lv1, b), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            gv = R.call_tir(cls.relu, (lv2,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(gv)
        return gv
