# PASSES: legalize-ops
# CHECKS: left_shift and bitwise_xor broadcast like the arithmetic ops and become
# TIR's shift_left and bitwise_xor intrinsics
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="uint8"), s: R.Tensor((4,), dtype="uint8")):
        a = R.left_shift(x, s)
        b = R.bitwise_xor(a, x)
        return b

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="uint8"), s: R.Tensor((4,), dtype="uint8")) -> R.Tensor(("n", 4), dtype="uint8"):
        n = T.int64()
        cls = Expected
        a = R.call_tir(cls.left_shift, (x, s), out_sinfo=R.Tensor((n, 4), dtype="uint8"))
        b = R.call_tir(cls.bitwise_xor, (a, x), out_sinfo=R.Tensor((n, 4), dtype="uint8"))
        return b

    @T.prim_func(private=True)
    def left_shift(var_x: T.handle, s: T.Buffer((T.int64(4),), "uint8"), var_T_left_shift: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)), "uint8")
        T_left_shift = T.match_buffer(var_T_left_shift, (n, T.int64(4)), "uint8")
        # with T.block("root"):
        for ax0, ax1 in T.grid(n, T.int64(4)):
            with T.block("T_left_shift"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], s[v_ax1])
                T.writes(T_left_shift[v_ax0, v_ax1])
                T_left_shift[v_ax0, v_ax1] = T.shift_left(x[v_ax0, v_ax1], s[v_ax1])

    @T.prim_func(private=True)
    def bitwise_xor(var_a: T.handle, var_x: T.handle, var_T_bitwise_xor: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a = T.match_buffer(var_a, (n, T.int64(4)), "uint8")
        x = T.match_buffer(var_x, (n, T.int64(4)), "uint8")
        T_bitwise_xor = T.match_buffer(var_T_bitwise_xor, (n, T.int64(4)), "uint8")
        # with T.block("root"):
        for ax0, ax1 in T.grid(n, T.int64(4)):
            with T.block("T_bitwise_xor"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a[v_ax0, v_ax1], x[v_ax0, v_ax1])
                T.writes(T_bitwise_xor[v_ax0, v_ax1])
                T_bitwise_xor[v_ax0, v_ax1] = T.bitwise_xor(a[v_ax0, v_ax1], x[v_ax0, v_ax1])
