# PASSES: rewrite-dataflow-reshape
# CHECKS: symbolic reshapes whose element counts are provably equal ((n, 3, 4) -> (n * 3, 4), flatten (n, m) -> (n * m,)) become R.reshape; (k, 4) -> (j, 2), not provably the same size, stays a call_tir
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def reshape(var_x: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3), T.int64(4)))
        T_reshape = T.match_buffer(var_T_reshape, (n * T.int64(3), T.int64(4)))
        for ax0, ax1 in T.grid(n * T.int64(3), T.int64(4)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[(v_ax0 * T.int64(4) + v_ax1) // T.int64(12), (v_ax0 + v_ax1 // T.int64(4)) % T.int64(3), v_ax1 % T.int64(4)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = x[(v_ax0 * T.int64(4) + v_ax1) // T.int64(12), (v_ax0 + v_ax1 // T.int64(4)) % T.int64(3), v_ax1 % T.int64(4)]

    @T.prim_func(private=True)
    def flatten(var_lv1: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        lv1 = T.match_buffer(var_lv1, (n, m), "float16")
        T_reshape = T.match_buffer(var_T_reshape, (m * n,), "float16")
        for ax0 in range(m * n):
            with T.block("T_reshape"):
                v_ax0 = T.axis.spatial(m * n, ax0)
                T.reads(lv1[v_ax0 // m, v_ax0 % m])
                T.writes(T_reshape[v_ax0])
                T_reshape[v_ax0] = lv1[v_ax0 // m, v_ax0 % m]

    @T.prim_func(private=True)
    def reshape_to_shape(var_x: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        m = T.int64()
        T_reshape = T.match_buffer(var_T_reshape, (m, T.int64(2)))
        for ax0, ax1 in T.grid(m, T.int64(2)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[(v_ax0 * T.int64(2) + v_ax1) // T.int64(4), (v_ax0 * T.int64(2) + v_ax1) % T.int64(4)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = x[(v_ax0 * T.int64(2) + v_ax1) // T.int64(4), (v_ax0 * T.int64(2) + v_ax1) % T.int64(4)]

    @R.function
    def main(x: R.Tensor(("n", 3, 4), dtype="float32"), y: R.Tensor(("n", "m"), dtype="float16"), z: R.Tensor(("k", 4), dtype="float32"), s: R.Shape(["j", 2])) -> R.Tuple(R.Tensor(("n * 3", 4), dtype="float32"), R.Tensor(("n * m",), dtype="float16"), R.Tensor(("j", 2), dtype="float32")):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        j = T.int64()
        cls = Before
        with R.dataflow():
            a = R.call_tir(cls.reshape, (x,), out_sinfo=R.Tensor((n * 3, 4), dtype="float32"))
            b = R.call_tir(cls.flatten, (y,), out_sinfo=R.Tensor((n * m,), dtype="float16"))
            c = R.call_tir(cls.reshape_to_shape, (z,), out_sinfo=R.Tensor((j, 2), dtype="float32"))
            R.output(a, b, c)
        return (a, b, c)

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def reshape(var_x: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3), T.int64(4)))
        T_reshape = T.match_buffer(var_T_reshape, (n * T.int64(3), T.int64(4)))
        for ax0, ax1 in T.grid(n * T.int64(3), T.int64(4)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[(v_ax0 * T.int64(4) + v_ax1) // T.int64(12), (v_ax0 + v_ax1 // T.int64(4)) % T.int64(3), v_ax1 % T.int64(4)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = x[(v_ax0 * T.int64(4) + v_ax1) // T.int64(12), (v_ax0 + v_ax1 // T.int64(4)) % T.int64(3), v_ax1 % T.int64(4)]

    @T.prim_func(private=True)
    def flatten(var_lv1: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n, m = T.int64(), T.int64()
        lv1 = T.match_buffer(var_lv1, (n, m), "float16")
        T_reshape = T.match_buffer(var_T_reshape, (m * n,), "float16")
        for ax0 in range(m * n):
            with T.block("T_reshape"):
                v_ax0 = T.axis.spatial(m * n, ax0)
                T.reads(lv1[v_ax0 // m, v_ax0 % m])
                T.writes(T_reshape[v_ax0])
                T_reshape[v_ax0] = lv1[v_ax0 // m, v_ax0 % m]

    @T.prim_func(private=True)
    def reshape_to_shape(var_x: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        m = T.int64()
        T_reshape = T.match_buffer(var_T_reshape, (m, T.int64(2)))
        for ax0, ax1 in T.grid(m, T.int64(2)):
            with T.block("T_reshape"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[(v_ax0 * T.int64(2) + v_ax1) // T.int64(4), (v_ax0 * T.int64(2) + v_ax1) % T.int64(4)])
                T.writes(T_reshape[v_ax0, v_ax1])
                T_reshape[v_ax0, v_ax1] = x[(v_ax0 * T.int64(2) + v_ax1) // T.int64(4), (v_ax0 * T.int64(2) + v_ax1) % T.int64(4)]

    @R.function
    def main(x: R.Tensor(("n", 3, 4), dtype="float32"), y: R.Tensor(("n", "m"), dtype="float16"), z: R.Tensor(("k", 4), dtype="float32"), s: R.Shape(["j", 2])) -> R.Tuple(R.Tensor(("n * 3", 4), dtype="float32"), R.Tensor(("n * m",), dtype="float16"), R.Tensor(("j", 2), dtype="float32")):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        j = T.int64()
        cls = Expected
        with R.dataflow():
            a = R.reshape(x, R.shape([n * 3, 4]))
            b = R.reshape(y, R.shape([n * m]))
            c = R.call_tir(cls.reshape_to_shape, (z,), out_sinfo=R.Tensor((j, 2), dtype="float32"))
            R.output(a, b, c)
        return (a, b, c)
