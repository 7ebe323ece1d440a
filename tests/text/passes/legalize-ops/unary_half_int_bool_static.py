# PASSES: legalize-ops
# CHECKS: float16 transcendental ops compute in float32 and cast back; integer abs/sign are selects, floor on integers is the identity, clip casts its bounds; logical_not on bool
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float16"), i: R.Tensor((4,), dtype="int32"), b: R.Tensor((4,), dtype="bool")) -> R.Tuple(R.Tensor((2, 3), dtype="float16"), R.Tensor((4,), dtype="int32"), R.Tensor((4,), dtype="bool")):
        h0 = R.exp(x)
        h1 = R.nn.gelu(h0)
        h2 = R.floor(h1)
        i0 = R.abs(i)
        i1 = R.sign(i0)
        i2 = R.floor(i1)
        i3 = R.clip(i2, R.prim_value(0), R.prim_value(6))
        b0 = R.logical_not(b)
        return (h2, i3, b0)

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float16"), i: R.Tensor((4,), dtype="int32"), b: R.Tensor((4,), dtype="bool")) -> R.Tuple(R.Tensor((2, 3), dtype="float16"), R.Tensor((4,), dtype="int32"), R.Tensor((4,), dtype="bool")):
        cls = Expected
        h0 = R.call_tir(cls.tir_exp, (x,), out_sinfo=R.Tensor((2, 3), dtype="float16"))
        h1 = R.call_tir(cls.gelu, (h0,), out_sinfo=R.Tensor((2, 3), dtype="float16"))
        h2 = R.call_tir(cls.tir_floor, (h1,), out_sinfo=R.Tensor((2, 3), dtype="float16"))
        i0 = R.call_tir(cls.tir_abs, (i,), out_sinfo=R.Tensor((4,), dtype="int32"))
        i1 = R.call_tir(cls.tir_sign, (i0,), out_sinfo=R.Tensor((4,), dtype="int32"))
        i2 = R.call_tir(cls.tir_floor1, (i1,), out_sinfo=R.Tensor((4,), dtype="int32"))
        i3 = R.call_tir(cls.tir_clip, (i2,), out_sinfo=R.Tensor((4,), dtype="int32"))
        b0 = R.call_tir(cls.tir_logical_not, (b,), out_sinfo=R.Tensor((4,), dtype="bool"))
        return (h2, i3, b0)

    @T.prim_func(private=True)
    def tir_exp(x: T.Buffer((T.int64(2), T.int64(3)), "float16"), compute: T.Buffer((T.int64(2), T.int64(3)), "float16")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.Cast("float16", T.exp(T.Cast("float32", x[v_ax0, v_ax1])))

    @T.prim_func(private=True)
    def gelu(h0: T.Buffer((T.int64(2), T.int64(3)), "float16"), compute: T.Buffer((T.int64(2), T.int64(3)), "float16")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(h0[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.Cast("float16", T.Cast("float32", h0[v_ax0, v_ax1]) * (T.float32(0.5) + T.erf(T.Cast("float32", h0[v_ax0, v_ax1]) * T.float32(0.7071067811865476)) * T.float32(0.5)))

    @T.prim_func(private=True)
    def tir_floor(h1: T.Buffer((T.int64(2), T.int64(3)), "float16"), compute: T.Buffer((T.int64(2), T.int64(3)), "float16")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0, ax1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(h1[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.Cast("float16", T.floor(T.Cast("float32", h1[v_ax0, v_ax1])))

    @T.prim_func(private=True)
    def tir_abs(i: T.Buffer((T.int64(4),), "int32"), compute: T.Buffer((T.int64(4),), "int32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0 in range(T.int64(4)):
            with T.block("compute"):
                v_ax0 = T.axis.spatial(T.int64(4), ax0)
                T.reads(i[v_ax0])
                T.writes(compute[v_ax0])
                compute[v_ax0] = T.Select(i[v_ax0] >= 0, i[v_ax0], 0 - i[v_ax0])

    @T.prim_func(private=True)
    def tir_sign(i0: T.Buffer((T.int64(4),), "int32"), compute: T.Buffer((T.int64(4),), "int32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0 in range(T.int64(4)):
            with T.block("compute"):
                v_ax0 = T.axis.spatial(T.int64(4), ax0)
                T.reads(i0[v_ax0])
                T.writes(compute[v_ax0])
                compute[v_ax0] = T.Select(i0[v_ax0] > 0, 1, T.Select(i0[v_ax0] < 0, -1, 0))

    @T.prim_func(private=True)
    def tir_floor1(i1: T.Buffer((T.int64(4),), "int32"), compute: T.Buffer((T.int64(4),), "int32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0 in range(T.int64(4)):
            with T.block("compute"):
                v_ax0 = T.axis.spatial(T.int64(4), ax0)
                T.reads(i1[v_ax0])
                T.writes(compute[v_ax0])
                compute[v_ax0] = i1[v_ax0]

    @T.prim_func(private=True)
    def tir_clip(i2: T.Buffer((T.int64(4),), "int32"), compute: T.Buffer((T.int64(4),), "int32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0 in range(T.int64(4)):
            with T.block("compute"):
                v_ax0 = T.axis.spatial(T.int64(4), ax0)
                T.reads(i2[v_ax0])
                T.writes(compute[v_ax0])
                compute[v_ax0] = T.min(T.max(i2[v_ax0], 0), 6)

    @T.prim_func(private=True)
    def tir_logical_not(b: T.Buffer((T.int64(4),), "bool"), compute: T.Buffer((T.int64(4),), "bool")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for ax0 in range(T.int64(4)):
            with T.block("compute"):
                v_ax0 = T.axis.spatial(T.int64(4), ax0)
                T.reads(b[v_ax0])
                T.writes(compute[v_ax0])
                compute[v_ax0] = not b[v_ax0]
