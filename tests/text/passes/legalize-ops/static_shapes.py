# PASSES: legalize-ops
# CHECKS: static-shape legalizations across families (sigmoid, silu, broadcast subtract/maximum/greater_equal/logical_or, where, mean with keepdims, max, triu, matmul) in one chain, each call its own PrimFunc
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((3,), dtype="float32"), c: R.Tensor((2, 1), dtype="bool"), w: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        u0 = R.sigmoid(x)
        u1 = R.nn.silu(u0)
        b0 = R.subtract(u1, y)
        b1 = R.maximum(b0, y)
        b2 = R.greater_equal(b1, y)
        b3 = R.logical_or(b2, c)
        s0 = R.where(c, b1, y)
        r0 = R.mean(s0, axis=[1], keepdims=True)
        r1 = R.max(s0, axis=[0])
        t0 = R.triu(s0, R.prim_value(0))
        m0 = R.matmul(t0, w)
        return m0

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((3,), dtype="float32"), c: R.Tensor((2, 1), dtype="bool"), w: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        cls = Expected
        u0 = R.call_tir(cls.tir_sigmoid, (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        u1 = R.call_tir(cls.silu, (u0,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        b0 = R.call_tir(cls.subtract, (u1, y), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        b1 = R.call_tir(cls.maximum, (b0, y), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        b2 = R.call_tir(cls.greater_equal, (b1, y), out_sinfo=R.Tensor((2, 3), dtype="bool"))
        b3 = R.call_tir(cls.logical_or, (b2, c), out_sinfo=R.Tensor((2, 3), dtype="bool"))
        s0 = R.call_tir(cls.where, (c, b1, y), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        r0 = R.call_tir(cls.mean, (s0,), out_sinfo=R.Tensor((2, 1), dtype="float32"))
        r1 = R.call_tir(cls.max, (s0,), out_sinfo=R.Tensor((3,), dtype="float32"))
        t0 = R.call_tir(cls.triu, (s0,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        m0 = R.call_tir(cls.matmul, (t0, w), out_sinfo=R.Tensor((2, 4), dtype="float32"))
        return m0

    @T.prim_func(private=True)
    def tir_sigmoid(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), compute: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.sigmoid(x[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def silu(u0: T.Buffer((T.int64(2), T.int64(3)), "float32"), compute: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(u0[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = u0[v_ax0, v_ax1] * T.sigmoid(u0[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def subtract(u1: T.Buffer((T.int64(2), T.int64(3)), "float32"), y: T.Buffer((T.int64(3),), "float32"), T_subtract: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_subtract"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(u1[v_ax0, v_ax1], y[v_ax1])
                T.writes(T_subtract[v_ax0, v_ax1])
                T_subtract[v_ax0, v_ax1] = u1[v_ax0, v_ax1] - y[v_ax1]

    @T.prim_func(private=True)
    def maximum(b0: T.Buffer((T.int64(2), T.int64(3)), "float32"), y: T.Buffer((T.int64(3),), "float32"), T_maximum: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_maximum"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(b0[v_ax0, v_ax1], y[v_ax1])
                T.writes(T_maximum[v_ax0, v_ax1])
                T_maximum[v_ax0, v_ax1] = T.max(b0[v_ax0, v_ax1], y[v_ax1])

    @T.prim_func(private=True)
    def greater_equal(b1: T.Buffer((T.int64(2), T.int64(3)), "float32"), y: T.Buffer((T.int64(3),), "float32"), T_greater_equal: T.Buffer((T.int64(2), T.int64(3)), "bool")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_greater_equal"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(b1[v_ax0, v_ax1], y[v_ax1])
                T.writes(T_greater_equal[v_ax0, v_ax1])
                T_greater_equal[v_ax0, v_ax1] = b1[v_ax0, v_ax1] >= y[v_ax1]

    @T.prim_func(private=True)
    def logical_or(b2: T.Buffer((T.int64(2), T.int64(3)), "bool"), c: T.Buffer((T.int64(2), T.int64(1)), "bool"), T_logical_or: T.Buffer((T.int64(2), T.int64(3)), "bool")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_logical_or"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(b2[v_ax0, v_ax1], c[v_ax0, T.int64(0)])
                T.writes(T_logical_or[v_ax0, v_ax1])
                T_logical_or[v_ax0, v_ax1] = b2[v_ax0, v_ax1] or c[v_ax0, T.int64(0)]

    @T.prim_func(private=True)
    def where(c: T.Buffer((T.int64(2), T.int64(1)), "bool"), b1: T.Buffer((T.int64(2), T.int64(3)), "float32"), y: T.Buffer((T.int64(3),), "float32"), T_where: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_where"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(c[v_ax0, T.int64(0)], b1[v_ax0, v_ax1], y[v_ax1])
                T.writes(T_where[v_ax0, v_ax1])
                T_where[v_ax0, v_ax1] = T.Select(c[v_ax0, T.int64(0)], b1[v_ax0, v_ax1], y[v_ax1])

    @T.prim_func(private=True)
    def mean(s0: T.Buffer((T.int64(2), T.int64(3)), "float32"), T_divide: T.Buffer((T.int64(2), T.int64(1)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        s0_red = T.alloc_buffer((T.int64(2), T.int64(1)))
        for ax0, ax1, k1 in T.grid(T.int64(2), T.int64(1), T.int64(3)):
            with T.block("s0_red"):
                v_ax0, v_ax1, v_k1 = T.axis.remap("SSR", [ax0, ax1, k1])
                T.reads(s0[v_ax0, v_k1])
                T.writes(s0_red[v_ax0, v_ax1])
                with T.init():
                    s0_red[v_ax0, v_ax1] = T.float32(0.0)
                s0_red[v_ax0, v_ax1] = s0_red[v_ax0, v_ax1] + s0[v_ax0, v_k1]
        for ax0, ax1 in T.grid(T.int64(2), T.int64(1)):
            with T.block("T_divide"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(s0_red[v_ax0, v_ax1])
                T.writes(T_divide[v_ax0, v_ax1])
                T_divide[v_ax0, v_ax1] = s0_red[v_ax0, v_ax1] / T.float32(3.0)

    @T.prim_func(private=True)
    def max(s0: T.Buffer((T.int64(2), T.int64(3)), "float32"), s0_red: T.Buffer((T.int64(3),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, k0 in T.grid(T.int64(3), T.int64(2)):
            with T.block("s0_red"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                T.reads(s0[v_k0, v_ax0])
                T.writes(s0_red[v_ax0])
                with T.init():
                    s0_red[v_ax0] = T.float32(-3.4028234663852886e+38)
                s0_red[v_ax0] = T.max(s0_red[v_ax0], s0[v_k0, v_ax0])

    @T.prim_func(private=True)
    def triu(s0: T.Buffer((T.int64(2), T.int64(3)), "float32"), trilu: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("trilu"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(s0[v_ax0, v_ax1])
                T.writes(trilu[v_ax0, v_ax1])
                trilu[v_ax0, v_ax1] = T.Select(v_ax1 - v_ax0 >= T.int64(0), s0[v_ax0, v_ax1], T.float32(0.0))

    @T.prim_func(private=True)
    def matmul(t0: T.Buffer((T.int64(2), T.int64(3)), "float32"), w: T.Buffer((T.int64(3), T.int64(4)), "float32"), matmul: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1, k in T.grid(T.int64(2), T.int64(4), T.int64(3)):
            with T.block("matmul"):
                v_ax0, v_ax1, v_k = T.axis.remap("SSR", [ax0, ax1, k])
                T.reads(t0[v_ax0, v_k], w[v_k, v_ax1])
                T.writes(matmul[v_ax0, v_ax1])
                with T.init():
                    matmul[v_ax0, v_ax1] = T.float32(0.0)
                matmul[v_ax0, v_ax1] = matmul[v_ax0, v_ax1] + t0[v_ax0, v_k] * w[v_k, v_ax1]
