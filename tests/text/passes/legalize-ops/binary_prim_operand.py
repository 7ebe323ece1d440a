# PASSES: legalize-ops
# CHECKS: a binary op with an R.Prim operand of unknown value (scale) gets a scalar parameter of the prim's dtype in the operand's position among the inputs, and call_tir passes the prim value in its argument tuple (as TVM's call_te); a literal prim value (R.prim_value) is inlined; a comparison with a prim operand gives bool
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), scale: R.Prim("float32")) -> R.Tensor(("n", 4), dtype="bool"):
        n = T.int64()
        a = R.multiply(x, scale)
        b = R.subtract(scale, a)
        c = R.add(b, R.prim_value(T.float32(2)))
        d = R.less(c, scale)
        return d

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def multiply(var_x: T.handle, scale: T.float32, var_T_multiply: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        T_multiply = T.match_buffer(var_T_multiply, (n, T.int64(4)))
        for ax0, ax1 in T.grid(n, T.int64(4)):
            with T.block("T_multiply"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1])
                T.writes(T_multiply[v_ax0, v_ax1])
                T_multiply[v_ax0, v_ax1] = x[v_ax0, v_ax1] * scale

    @T.prim_func(private=True)
    def subtract(scale: T.float32, var_a: T.handle, var_T_subtract: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        a = T.match_buffer(var_a, (n, T.int64(4)))
        T_subtract = T.match_buffer(var_T_subtract, (n, T.int64(4)))
        for ax0, ax1 in T.grid(n, T.int64(4)):
            with T.block("T_subtract"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(a[v_ax0, v_ax1])
                T.writes(T_subtract[v_ax0, v_ax1])
                T_subtract[v_ax0, v_ax1] = scale - a[v_ax0, v_ax1]

    @T.prim_func(private=True)
    def add(var_b: T.handle, var_T_add: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        b = T.match_buffer(var_b, (n, T.int64(4)))
        T_add = T.match_buffer(var_T_add, (n, T.int64(4)))
        for ax0, ax1 in T.grid(n, T.int64(4)):
            with T.block("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(b[v_ax0, v_ax1])
                T.writes(T_add[v_ax0, v_ax1])
                T_add[v_ax0, v_ax1] = b[v_ax0, v_ax1] + T.float32(2)

    @T.prim_func(private=True)
    def less(var_c: T.handle, scale: T.float32, var_T_less: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        c = T.match_buffer(var_c, (n, T.int64(4)))
        T_less = T.match_buffer(var_T_less, (n, T.int64(4)), "bool")
        for ax0, ax1 in T.grid(n, T.int64(4)):
            with T.block("T_less"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(c[v_ax0, v_ax1])
                T.writes(T_less[v_ax0, v_ax1])
                T_less[v_ax0, v_ax1] = c[v_ax0, v_ax1] < scale

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), scale: R.Prim("float32")) -> R.Tensor(("n", 4), dtype="bool"):
        n = T.int64()
        cls = Expected
        a = R.call_tir(cls.multiply, (x, scale), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        b = R.call_tir(cls.subtract, (scale, a), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        c = R.call_tir(cls.add, (b,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        d = R.call_tir(cls.less, (c, scale), out_sinfo=R.Tensor((n, 4), dtype="bool"))
        return d
