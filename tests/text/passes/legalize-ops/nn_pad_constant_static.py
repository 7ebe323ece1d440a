# PASSES: legalize-ops
# CHECKS: constant padding guards the load with T.if_then_else
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")):
        gv = R.nn.pad(x, pad_width=[0, 0, 1, 2], pad_value=1.5, pad_mode="constant")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 6), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.pad, (x,), out_sinfo=R.Tensor((2, 6), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def pad(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), pad: T.Buffer((T.int64(2), T.int64(6)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1 in T.grid(T.int64(2), T.int64(6)):
            with T.block("pad"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1 - T.int64(1)])
                T.writes(pad[v_ax0, v_ax1])
                pad[v_ax0, v_ax1] = T.if_then_else(v_ax1 - T.int64(1) >= T.int64(0) and v_ax1 - T.int64(1) < T.int64(3), x[v_ax0, v_ax1 - T.int64(1)], T.float32(1.5))
