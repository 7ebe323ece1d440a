# PASSES: legalize-ops
# CHECKS: every float unary op and nn activation on a symbolic shape becomes call_tir of its own PrimFunc (TVM names: tir_<op>, relu, gelu, gelu_tanh, silu)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        a0 = R.abs(x)
        a1 = R.negative(a0)
        a2 = R.exp(a1)
        a3 = R.log(a2)
        a4 = R.sqrt(a3)
        a5 = R.rsqrt(a4)
        a6 = R.sin(a5)
        a7 = R.cos(a6)
        a8 = R.tanh(a7)
        a9 = R.sigmoid(a8)
        a10 = R.erf(a9)
        a11 = R.floor(a10)
        a12 = R.ceil(a11)
        a13 = R.round(a12)
        a14 = R.sign(a13)
        a15 = R.square(a14)
        a16 = R.clip(a15, R.prim_value(T.float32(-1)), R.prim_value(T.float32(6)))
        a17 = R.nn.relu(a16)
        a18 = R.nn.gelu(a17)
        a19 = R.nn.gelu_tanh(a18)
        a20 = R.nn.silu(a19)
        return a20

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        cls = Expected
        a0 = R.call_tir(cls.tir_abs, (x,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a1 = R.call_tir(cls.tir_negative, (a0,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a2 = R.call_tir(cls.tir_exp, (a1,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a3 = R.call_tir(cls.tir_log, (a2,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a4 = R.call_tir(cls.tir_sqrt, (a3,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a5 = R.call_tir(cls.tir_rsqrt, (a4,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a6 = R.call_tir(cls.tir_sin, (a5,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a7 = R.call_tir(cls.tir_cos, (a6,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a8 = R.call_tir(cls.tir_tanh, (a7,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a9 = R.call_tir(cls.tir_sigmoid, (a8,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a10 = R.call_tir(cls.tir_erf, (a9,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a11 = R.call_tir(cls.tir_floor, (a10,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a12 = R.call_tir(cls.tir_ceil, (a11,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a13 = R.call_tir(cls.tir_round, (a12,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a14 = R.call_tir(cls.tir_sign, (a13,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a15 = R.call_tir(cls.tir_square, (a14,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a16 = R.call_tir(cls.tir_clip, (a15,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a17 = R.call_tir(cls.relu, (a16,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a18 = R.call_tir(cls.gelu, (a17,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a19 = R.call_tir(cls.gelu_tanh, (a18,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        a20 = R.call_tir(cls.silu, (a19,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        return a20

    @T.prim_func(private=True)
    def tir_abs(var_x: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.fabs(x[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_negative(var_a0: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a0 = T.match_buffer(var_a0, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a0[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.float32(0.0) - a0[v_ax0, v_ax1]

    @T.prim_func(private=True)
    def tir_exp(var_a1: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a1 = T.match_buffer(var_a1, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a1[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.exp(a1[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_log(var_a2: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a2 = T.match_buffer(var_a2, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a2[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.log(a2[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_sqrt(var_a3: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a3 = T.match_buffer(var_a3, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a3[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.sqrt(a3[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_rsqrt(var_a4: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a4 = T.match_buffer(var_a4, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a4[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.rsqrt(a4[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_sin(var_a5: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a5 = T.match_buffer(var_a5, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a5[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.sin(a5[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_cos(var_a6: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a6 = T.match_buffer(var_a6, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a6[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.cos(a6[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_tanh(var_a7: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a7 = T.match_buffer(var_a7, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a7[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.tanh(a7[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_sigmoid(var_a8: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a8 = T.match_buffer(var_a8, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a8[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.sigmoid(a8[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_erf(var_a9: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a9 = T.match_buffer(var_a9, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a9[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.erf(a9[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_floor(var_a10: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a10 = T.match_buffer(var_a10, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a10[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.floor(a10[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_ceil(var_a11: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a11 = T.match_buffer(var_a11, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a11[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.ceil(a11[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_round(var_a12: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a12 = T.match_buffer(var_a12, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a12[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.round(a12[v_ax0, v_ax1])

    @T.prim_func(private=True)
    def tir_sign(var_a13: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a13 = T.match_buffer(var_a13, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a13[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.Select(a13[v_ax0, v_ax1] > T.float32(0.0), T.float32(1.0), T.Select(a13[v_ax0, v_ax1] < T.float32(0.0), T.float32(-1.0), T.float32(0.0)))

    @T.prim_func(private=True)
    def tir_square(var_a14: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a14 = T.match_buffer(var_a14, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a14[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = a14[v_ax0, v_ax1] * a14[v_ax0, v_ax1]

    @T.prim_func(private=True)
    def tir_clip(var_a15: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a15 = T.match_buffer(var_a15, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a15[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.min(T.max(a15[v_ax0, v_ax1], T.float32(-1.0)), T.float32(6.0))

    @T.prim_func(private=True)
    def relu(var_a16: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a16 = T.match_buffer(var_a16, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a16[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.max(a16[v_ax0, v_ax1], T.float32(0.0))

    @T.prim_func(private=True)
    def gelu(var_a17: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a17 = T.match_buffer(var_a17, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a17[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = a17[v_ax0, v_ax1] * (T.float32(0.5) + T.erf(a17[v_ax0, v_ax1] * T.float32(0.7071067811865476)) * T.float32(0.5))

    @T.prim_func(private=True)
    def gelu_tanh(var_a18: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a18 = T.match_buffer(var_a18, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a18[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = T.float32(0.5) * a18[v_ax0, v_ax1] * (T.float32(1.0) + T.tanh(T.float32(0.7978845608028654) * (a18[v_ax0, v_ax1] + T.float32(0.044715) * a18[v_ax0, v_ax1] * a18[v_ax0, v_ax1] * a18[v_ax0, v_ax1])))

    @T.prim_func(private=True)
    def silu(var_a19: T.handle, var_compute: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a19 = T.match_buffer(var_a19, (n, T.int64(3)))
        compute = T.match_buffer(var_compute, (n, T.int64(3)))
        for ax0, ax1 in T.grid(n, T.int64(3)):
            with T.block("compute"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a19[v_ax0, v_ax1])
                T.writes(compute[v_ax0, v_ax1])
                compute[v_ax0, v_ax1] = a19[v_ax0, v_ax1] * T.sigmoid(a19[v_ax0, v_ax1])
