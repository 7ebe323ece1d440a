# PASSES: legalize-ops
# CHECKS: nearest resize2d to a symbolic size taken from the shape argument
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((1, 3, "h", "w"), dtype="float32"), s: R.Shape(["oh", "ow"])):
        gv = R.image.resize2d(x, s, layout="NCHW", method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((1, 3, "h", "w"), dtype="float32"), s: R.Shape(["oh", "ow"])) -> R.Tensor((1, 3, "oh", "ow"), dtype="float32"):
        oh = T.int64()
        ow = T.int64()
        h = T.int64()
        w = T.int64()
        cls = Expected
        gv = R.call_tir(cls.resize2d, (x,), out_sinfo=R.Tensor((1, 3, oh, ow), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def resize2d(var_x: T.handle, var_resize: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        h, w = T.int64(), T.int64()
        x = T.match_buffer(var_x, (T.int64(1), T.int64(3), h, w))
        oh, ow = T.int64(), T.int64()
        resize = T.match_buffer(var_resize, (T.int64(1), T.int64(3), oh, ow))
        # with T.block("root"):
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(1), T.int64(3), oh, ow):
            with T.block("resize"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(x[v_ax0, v_ax1, T.max(T.min(T.Cast("int64", T.floor(T.Cast("float32", v_ax2) * (T.Cast("float32", h) / T.Cast("float32", oh)))), h - T.int64(1)), T.int64(0)), T.max(T.min(T.Cast("int64", T.floor(T.Cast("float32", v_ax3) * (T.Cast("float32", w) / T.Cast("float32", ow)))), w - T.int64(1)), T.int64(0))])
                T.writes(resize[v_ax0, v_ax1, v_ax2, v_ax3])
                resize[v_ax0, v_ax1, v_ax2, v_ax3] = x[v_ax0, v_ax1, T.max(T.min(T.Cast("int64", T.floor(T.Cast("float32", v_ax2) * (T.Cast("float32", h) / T.Cast("float32", oh)))), h - T.int64(1)), T.int64(0)), T.max(T.min(T.Cast("int64", T.floor(T.Cast("float32", v_ax3) * (T.Cast("float32", w) / T.Cast("float32", ow)))), w - T.int64(1)), T.int64(0))]
