# PASSES: legalize-ops
# CHECKS: sum/mean/max/min/prod with axis and keepdims over a symbolic shape (identities 0, lowest, highest, 1); mean divides by the reduced count; float16 sum and mean accumulate in float32
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4, 5), dtype="float32"), h: R.Tensor((2, 3), dtype="float16")) -> R.Tensor((), dtype="float16"):
        n = T.int64()
        s0 = R.sum(x, axis=[1], keepdims=False)
        s1 = R.mean(x, axis=[-1, 0], keepdims=True)
        s2 = R.max(x)
        s3 = R.min(x, axis=[2])
        s4 = R.prod(x, axis=[0, 1, 2], keepdims=True)
        s5 = R.sum(h)
        s6 = R.mean(h, axis=[1])
        return s5

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4, 5), dtype="float32"), h: R.Tensor((2, 3), dtype="float16")) -> R.Tensor((), dtype="float16"):
        n = T.int64()
        cls = Expected
        s0 = R.call_tir(cls.sum, (x,), out_sinfo=R.Tensor((n, 5), dtype="float32"))
        s1 = R.call_tir(cls.mean, (x,), out_sinfo=R.Tensor((1, 4, 1), dtype="float32"))
        s2 = R.call_tir(cls.max, (x,), out_sinfo=R.Tensor((), dtype="float32"))
        s3 = R.call_tir(cls.min, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        s4 = R.call_tir(cls.prod, (x,), out_sinfo=R.Tensor((1, 1, 1), dtype="float32"))
        s5 = R.call_tir(cls.sum1, (h,), out_sinfo=R.Tensor((), dtype="float16"))
        s6 = R.call_tir(cls.mean1, (h,), out_sinfo=R.Tensor((2,), dtype="float16"))
        return s5

    @T.prim_func(private=True)
    def sum(var_x: T.handle, var_x_red: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4), T.int64(5)))
        x_red = T.match_buffer(var_x_red, (n, T.int64(5)))
        for ax0, ax1, k1 in T.grid(n, T.int64(5), T.int64(4)):
            with T.block("x_red"):
                v_ax0, v_ax1, v_k1 = T.axis.remap("SSR", [ax0, ax1, k1])
                T.reads(x[v_ax0, v_k1, v_ax1])
                T.writes(x_red[v_ax0, v_ax1])
                with T.init():
                    x_red[v_ax0, v_ax1] = T.float32(0.0)
                x_red[v_ax0, v_ax1] = x_red[v_ax0, v_ax1] + x[v_ax0, v_k1, v_ax1]

    @T.prim_func(private=True)
    def mean(var_x: T.handle, T_divide: T.Buffer((T.int64(1), T.int64(4), T.int64(1)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4), T.int64(5)))
        x_red = T.alloc_buffer((T.int64(1), T.int64(4), T.int64(1)))
        for ax0, ax1, ax2, k0, k2 in T.grid(T.int64(1), T.int64(4), T.int64(1), n, T.int64(5)):
            with T.block("x_red"):
                v_ax0, v_ax1, v_ax2, v_k0, v_k2 = T.axis.remap("SSSRR", [ax0, ax1, ax2, k0, k2])
                T.reads(x[v_k0, v_ax1, v_k2])
                T.writes(x_red[v_ax0, v_ax1, v_ax2])
                with T.init():
                    x_red[v_ax0, v_ax1, v_ax2] = T.float32(0.0)
                x_red[v_ax0, v_ax1, v_ax2] = x_red[v_ax0, v_ax1, v_ax2] + x[v_k0, v_ax1, v_k2]
        for ax0, ax1, ax2 in T.grid(T.int64(1), T.int64(4), T.int64(1)):
            with T.block("T_divide"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x_red[v_ax0, v_ax1, v_ax2])
                T.writes(T_divide[v_ax0, v_ax1, v_ax2])
                T_divide[v_ax0, v_ax1, v_ax2] = x_red[v_ax0, v_ax1, v_ax2] / T.Cast("float32", n * T.int64(5))

    @T.prim_func(private=True)
    def max(var_x: T.handle, x_red: T.Buffer((), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4), T.int64(5)))
        for k0, k1, k2 in T.grid(n, T.int64(4), T.int64(5)):
            with T.block("x_red"):
                v_k0, v_k1, v_k2 = T.axis.remap("RRR", [k0, k1, k2])
                T.reads(x[v_k0, v_k1, v_k2])
                T.writes(x_red[()])
                with T.init():
                    x_red[()] = T.float32(-3.4028234663852886e+38)
                x_red[()] = T.max(x_red[()], x[v_k0, v_k1, v_k2])

    @T.prim_func(private=True)
    def min(var_x: T.handle, var_x_red: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4), T.int64(5)))
        x_red = T.match_buffer(var_x_red, (n, T.int64(4)))
        for ax0, ax1, k2 in T.grid(n, T.int64(4), T.int64(5)):
            with T.block("x_red"):
                v_ax0, v_ax1, v_k2 = T.axis.remap("SSR", [ax0, ax1, k2])
                T.reads(x[v_ax0, v_ax1, v_k2])
                T.writes(x_red[v_ax0, v_ax1])
                with T.init():
                    x_red[v_ax0, v_ax1] = T.float32(3.4028234663852886e+38)
                x_red[v_ax0, v_ax1] = T.min(x_red[v_ax0, v_ax1], x[v_ax0, v_ax1, v_k2])

    @T.prim_func(private=True)
    def prod(var_x: T.handle, x_red: T.Buffer((T.int64(1), T.int64(1), T.int64(1)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4), T.int64(5)))
        for ax0, ax1, ax2, k0, k1, k2 in T.grid(T.int64(1), T.int64(1), T.int64(1), n, T.int64(4), T.int64(5)):
            with T.block("x_red"):
                v_ax0, v_ax1, v_ax2, v_k0, v_k1, v_k2 = T.axis.remap("SSSRRR", [ax0, ax1, ax2, k0, k1, k2])
                T.reads(x[v_k0, v_k1, v_k2])
                T.writes(x_red[v_ax0, v_ax1, v_ax2])
                with T.init():
                    x_red[v_ax0, v_ax1, v_ax2] = T.float32(1.0)
                x_red[v_ax0, v_ax1, v_ax2] = x_red[v_ax0, v_ax1, v_ax2] * x[v_k0, v_k1, v_k2]

    @T.prim_func(private=True)
    def sum1(h: T.Buffer((T.int64(2), T.int64(3)), "float16"), compute: T.Buffer((), "float16")):
        T.func_attr({"tir.noalias": T.bool(True)})
        h_red = T.alloc_buffer(())
        for k0, k1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("h_red"):
                v_k0, v_k1 = T.axis.remap("RR", [k0, k1])
                T.reads(h[v_k0, v_k1])
                T.writes(h_red[()])
                with T.init():
                    h_red[()] = T.float32(0.0)
                h_red[()] = h_red[()] + T.Cast("float32", h[v_k0, v_k1])
        with T.block("compute"):
            T.reads(h_red[()])
            T.writes(compute[()])
            compute[()] = T.Cast("float16", h_red[()])

    @T.prim_func(private=True)
    def mean1(h: T.Buffer((T.int64(2), T.int64(3)), "float16"), T_divide: T.Buffer((T.int64(2),), "float16")):
        T.func_attr({"tir.noalias": T.bool(True)})
        h_red = T.alloc_buffer((T.int64(2),))
        for ax0, k1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("h_red"):
                v_ax0, v_k1 = T.axis.remap("SR", [ax0, k1])
                T.reads(h[v_ax0, v_k1])
                T.writes(h_red[v_ax0])
                with T.init():
                    h_red[v_ax0] = T.float32(0.0)
                h_red[v_ax0] = h_red[v_ax0] + T.Cast("float32", h[v_ax0, v_k1])
        for ax0 in range(T.int64(2)):
            with T.block("T_divide"):
                v_ax0 = T.axis.spatial(T.int64(2), ax0)
                T.reads(h_red[v_ax0])
                T.writes(T_divide[v_ax0])
                T_divide[v_ax0] = T.Cast("float16", h_red[v_ax0] / T.float32(3.0))
