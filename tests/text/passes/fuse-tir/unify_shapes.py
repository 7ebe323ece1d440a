# PASSES: fuse-tir
# CHECKS: symbolic variables unified by matching buffer shapes: a callee buffer (n, m, n * m) bound to (16, 16, 256) (n * m proven to be 256 and folded) and to (a, b, a * b) (proven by the analyzer); a callee with three independent dims (p, q, r) gets r := a * b
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def scale(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        n = T.int64()
        m = T.int64()
        x = T.match_buffer(var_x, (n, m, n * m))
        y = T.match_buffer(var_y, (n, m, n * m))
        for i, j, k in T.grid(n, m, n * m):
            with T.block("y"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                y[vi, vj, vk] = x[vi, vj, vk] * T.float32(2)

    @T.prim_func(private=True)
    def shift(var_x: T.handle, var_y: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": T.bool(True)})
        p = T.int64()
        q = T.int64()
        r = T.int64()
        x = T.match_buffer(var_x, (p, q, r))
        y = T.match_buffer(var_y, (p, q, r))
        for i, j, k in T.grid(p, q, r):
            with T.block("y"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                y[vi, vj, vk] = x[vi, vj, vk] + T.float32(1)

    @R.function(private=True)
    def fused_scale_shift(x: R.Tensor((16, 16, 256), dtype="float32")) -> R.Tensor((16, 16, 256), dtype="float32"):
        R.func_attr({"Primitive": 1})
        cls = Before
        with R.dataflow():
            lv = R.call_tir(cls.scale, (x,), out_sinfo=R.Tensor((16, 16, 256), dtype="float32"))
            gv = R.call_tir(cls.shift, (lv,), out_sinfo=R.Tensor((16, 16, 256), dtype="float32"))
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_scale_shift1(x: R.Tensor(("a", "b", "a * b"), dtype="float32")) -> R.Tensor(("a", "b", "a * b"), dtype="float32"):
        a = T.int64()
        b = T.int64()
        R.func_attr({"Primitive": 1})
        cls = Before
        with R.dataflow():
            lv = R.call_tir(cls.shift, (x,), out_sinfo=R.Tensor((a, b, a * b), dtype="float32"))
            gv = R.call_tir(cls.scale, (lv,), out_sinfo=R.Tensor((a, b, a * b), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def main(x: R.Tensor((16, 16, 256), dtype="float32"), y: R.Tensor(("c", "d", "c * d"), dtype="float32")) -> R.Tuple(R.Tensor((16, 16, 256), dtype="float32"), R.Tensor(("c", "d", "c * d"), dtype="float32")):
        c = T.int64()
        d = T.int64()
        cls = Before
        with R.dataflow():
            gv0 = cls.fused_scale_shift(x)
            gv1 = cls.fused_scale_shift1(y)
            R.output(gv0, gv1)
        return (gv0, gv1)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def fused_scale_shift(x: T.Buffer((T.int64(16), T.int64(16), T.int64(256)), "float32"), y_1: T.Buffer((T.int64(16), T.int64(16), T.int64(256)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        y = T.alloc_buffer((T.int64(16), T.int64(16), T.int64(256)))
        for i, j, k in T.grid(T.int64(16), T.int64(16), T.int64(256)):
            with T.block("y"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                T.reads(x[vi, vj, vk])
                T.writes(y[vi, vj, vk])
                y[vi, vj, vk] = x[vi, vj, vk] * T.float32(2.0)
        for i, j, k in T.grid(T.int64(16), T.int64(16), T.int64(256)):
            with T.block("y_1"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                T.reads(y[vi, vj, vk])
                T.writes(y_1[vi, vj, vk])
                y_1[vi, vj, vk] = y[vi, vj, vk] + T.float32(1.0)

    @T.prim_func(private=True)
    def fused_scale_shift1(p_x: T.handle, p_y_1: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        a, b = T.int64(), T.int64()
        x = T.match_buffer(p_x, (a, b, a * b))
        y_1 = T.match_buffer(p_y_1, (a, b, a * b))
        # with T.block("root"):
        y = T.alloc_buffer((a, b, a * b))
        for i, j, k in T.grid(a, b, a * b):
            with T.block("y"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                T.reads(x[vi, vj, vk])
                T.writes(y[vi, vj, vk])
                y[vi, vj, vk] = x[vi, vj, vk] + T.float32(1.0)
        for i, j, k in T.grid(a, b, a * b):
            with T.block("y_1"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                T.reads(y[vi, vj, vk])
                T.writes(y_1[vi, vj, vk])
                y_1[vi, vj, vk] = y[vi, vj, vk] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor((16, 16, 256), dtype="float32"), y: R.Tensor(("c", "d", "c * d"), dtype="float32")) -> R.Tuple(R.Tensor((16, 16, 256), dtype="float32"), R.Tensor(("c", "d", "c * d"), dtype="float32")):
        c = T.int64()
        d = T.int64()
        cls = Expected
        with R.dataflow():
            gv0 = R.call_tir(cls.fused_scale_shift, (x,), out_sinfo=R.Tensor((16, 16, 256), dtype="float32"))
            gv1 = R.call_tir(cls.fused_scale_shift1, (y,), out_sinfo=R.Tensor((c, d, c * d), dtype="float32"))
            R.output(gv0, gv1)
        return (gv0, gv1)
