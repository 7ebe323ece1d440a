# PASSES: legalize-ops
# CHECKS: argmax: the extreme value, then the first index holding it
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((3, 4), dtype="float32")):
        gv = R.argmax(x, axis=1)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((3,), dtype="int64"):
        cls = Expected
        gv = R.call_tir(cls.argmax, (x,), out_sinfo=R.Tensor((3,), dtype="int64"))
        return gv

    @T.prim_func(private=True)
    def argmax(x: T.Buffer((T.int64(3), T.int64(4)), "float32"), argmax: T.Buffer((T.int64(3),), "int64")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        argmax_value = T.alloc_buffer((T.int64(3),))
        for ax0, k0 in T.grid(T.int64(3), T.int64(4)):
            with T.block("argmax_value"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                T.reads(x[v_ax0, v_k0])
                T.writes(argmax_value[v_ax0])
                with T.init():
                    argmax_value[v_ax0] = T.float32(-3.4028234663852886e+38)
                argmax_value[v_ax0] = T.max(argmax_value[v_ax0], x[v_ax0, v_k0])
        for ax0, k0 in T.grid(T.int64(3), T.int64(4)):
            with T.block("argmax"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                T.reads(x[v_ax0, v_k0], argmax_value[v_ax0])
                T.writes(argmax[v_ax0])
                with T.init():
                    argmax[v_ax0] = T.int64(9223372036854775807)
                argmax[v_ax0] = T.min(argmax[v_ax0], T.Select(x[v_ax0, v_k0] == argmax_value[v_ax0], v_k0, T.int64(9223372036854775807)))
