# PASSES: legalize-ops
# CHECKS: reflect padding of a symbolic dim: out size n + 2
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")):
        gv = R.nn.pad(x, pad_width=[1, 1, 0, 0], pad_mode="reflect")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n + 2", 3), dtype="float32"):
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.pad, (x,), out_sinfo=R.Tensor((n + 2, 3), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def pad(var_x: T.handle, var_pad: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(3)))
        pad = T.match_buffer(var_pad, (n + T.int64(2), T.int64(3)))
        # with T.block("root"):
        for ax0, ax1 in T.grid(n + T.int64(2), T.int64(3)):
            with T.block("pad"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[T.Select(v_ax0 - T.int64(1) < T.int64(0), T.int64(0) - (v_ax0 - T.int64(1)), T.Select(v_ax0 - T.int64(1) >= n, (n - T.int64(1)) * T.int64(2) - (v_ax0 - T.int64(1)), v_ax0 - T.int64(1))), T.Select(v_ax1 < T.int64(0), T.int64(0) - v_ax1, T.Select(v_ax1 >= T.int64(3), T.Sub(T.int64(3), T.int64(1)) * T.int64(2) - v_ax1, v_ax1))])
                T.writes(pad[v_ax0, v_ax1])
                pad[v_ax0, v_ax1] = x[T.Select(v_ax0 - T.int64(1) < T.int64(0), T.int64(0) - (v_ax0 - T.int64(1)), T.Select(v_ax0 - T.int64(1) >= n, (n - T.int64(1)) * T.int64(2) - (v_ax0 - T.int64(1)), v_ax0 - T.int64(1))), T.Select(v_ax1 < T.int64(0), T.int64(0) - v_ax1, T.Select(v_ax1 >= T.int64(3), T.Sub(T.int64(3), T.int64(1)) * T.int64(2) - v_ax1, v_ax1))]
