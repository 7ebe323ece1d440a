# PASSES: legalize-ops
# CHECKS: bilinear resize2d with half_pixel coordinates
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32")):
        gv = R.image.resize2d(x, R.shape([8, 6]), method="linear", coordinate_transformation_mode="half_pixel")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32")) -> R.Tensor((1, 2, 8, 6), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.resize2d, (x,), out_sinfo=R.Tensor((1, 2, 8, 6), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def resize2d(x: T.Buffer((T.int64(1), T.int64(2), T.int64(4), T.int64(4)), "float32"), resize: T.Buffer((T.int64(1), T.int64(2), T.int64(8), T.int64(6)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(2), T.int64(8), T.int64(6)):
            with T.block("resize"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(x[v_ax0, v_ax1, T.int64(0):T.int64(4), T.int64(0):T.int64(4)])
                T.writes(resize[v_ax0, v_ax1, v_ax2, v_ax3])
                resize[v_ax0, v_ax1, v_ax2, v_ax3] = (x[v_ax0, v_ax1, T.max(T.min(T.Cast("int64", T.floor((T.Cast("float32", v_ax2) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(8.0)) - T.float32(0.5))), T.Sub(T.int64(4), T.int64(1))), T.int64(0)), T.max(T.min(T.Cast("int64", T.floor((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5))), T.Sub(T.int64(4), T.int64(1))), T.int64(0))] * (T.float32(1.0) - ((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5) - T.floor((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5)))) + x[v_ax0, v_ax1, T.max(T.min(T.Cast("int64", T.floor((T.Cast("float32", v_ax2) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(8.0)) - T.float32(0.5))), T.Sub(T.int64(4), T.int64(1))), T.int64(0)), T.max(T.min(T.Cast("int64", T.floor((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5))) + T.int64(1), T.Sub(T.int64(4), T.int64(1))), T.int64(0))] * ((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5) - T.floor((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5)))) * (T.float32(1.0) - ((T.Cast("float32", v_ax2) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(8.0)) - T.float32(0.5) - T.floor((T.Cast("float32", v_ax2) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(8.0)) - T.float32(0.5)))) + (x[v_ax0, v_ax1, T.max(T.min(T.Cast("int64", T.floor((T.Cast("float32", v_ax2) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(8.0)) - T.float32(0.5))) + T.int64(1), T.Sub(T.int64(4), T.int64(1))), T.int64(0)), T.max(T.min(T.Cast("int64", T.floor((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5))), T.Sub(T.int64(4), T.int64(1))), T.int64(0))] * (T.float32(1.0) - ((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5) - T.floor((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5)))) + x[v_ax0, v_ax1, T.max(T.min(T.Cast("int64", T.floor((T.Cast("float32", v_ax2) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(8.0)) - T.float32(0.5))) + T.int64(1), T.Sub(T.int64(4), T.int64(1))), T.int64(0)), T.max(T.min(T.Cast("int64", T.floor((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5))) + T.int64(1), T.Sub(T.int64(4), T.int64(1))), T.int64(0))] * ((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5) - T.floor((T.Cast("float32", v_ax3) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(6.0)) - T.float32(0.5)))) * ((T.Cast("float32", v_ax2) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(8.0)) - T.float32(0.5) - T.floor((T.Cast("float32", v_ax2) + T.float32(0.5)) * T.Div(T.float32(4.0), T.float32(8.0)) - T.float32(0.5)))
