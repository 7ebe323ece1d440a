# PASSES: legalize-ops
# CHECKS: argmin of the flattened symbolic tensor with keepdims
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")):
        gv = R.argmin(x, keepdims=True)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor((1, 1), dtype="int64"):
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.argmin, (x,), out_sinfo=R.Tensor((1, 1), dtype="int64"))
        return gv

    @T.prim_func(private=True)
    def argmin(var_x: T.handle, argmin: T.Buffer((T.int64(1), T.int64(1)), "int64")):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        # with T.block("root"):
        argmin_value = T.alloc_buffer(())
        for k0, k1 in T.grid(n, T.int64(4)):
            with T.block("argmin_value"):
                v_k0, v_k1 = T.axis.remap("RR", [k0, k1])
                T.reads(x[v_k0, v_k1])
                T.writes(argmin_value[()])
                with T.init():
                    argmin_value[()] = T.float32(3.4028234663852886e+38)
                argmin_value[()] = T.min(argmin_value[()], x[v_k0, v_k1])
        for ax0, ax1, k0, k1 in T.grid(T.int64(1), T.int64(1), n, T.int64(4)):
            with T.block("argmin"):
                v_ax0, v_ax1, v_k0, v_k1 = T.axis.remap("SSRR", [ax0, ax1, k0, k1])
                T.reads(x[v_k0, v_k1], argmin_value[()])
                T.writes(argmin[v_ax0, v_ax1])
                with T.init():
                    argmin[v_ax0, v_ax1] = T.int64(9223372036854775807)
                argmin[v_ax0, v_ax1] = T.min(argmin[v_ax0, v_ax1], T.Select(x[v_k0, v_k1] == argmin_value[()], v_k0 * T.int64(4) + v_k1, T.int64(9223372036854775807)))
