# PASSES: legalize-ops
# CHECKS: einsum over a tuple-typed variable: each field is passed as t[i]
@I.ir_module
class Before:
    @R.function
    def main(t: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((3, "k"), dtype="float32"))):
        gv = R.einsum(t, subscripts="ij,jk->ik")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(t: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((3, "k"), dtype="float32"))) -> R.Tensor((2, "k"), dtype="float32"):
        k = T.int64()
        cls = Expected
        gv: R.Tensor((2, 3), dtype="float32") = t[0]
        gv_1: R.Tensor((3, k), dtype="float32") = t[1]
        gv_2 = R.call_tir(cls.einsum, (gv, gv_1), out_sinfo=R.Tensor((2, k), dtype="float32"))
        return gv_2

    @T.prim_func(private=True)
    def einsum(t_0: T.Buffer((T.int64(2), T.int64(3)), "float32"), var_t_1: T.handle, var_einsum: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        k = T.int64()
        t_1 = T.match_buffer(var_t_1, (T.int64(3), k))
        einsum = T.match_buffer(var_einsum, (T.int64(2), k))
        # with T.block("root"):
        for ax0, ax1, r_j in T.grid(T.int64(2), k, T.int64(3)):
            with T.block("einsum"):
                v_ax0, v_ax1, v_r_j = T.axis.remap("SSR", [ax0, ax1, r_j])
                T.reads(t_0[v_ax0, v_r_j], t_1[v_r_j, v_ax1])
                T.writes(einsum[v_ax0, v_ax1])
                with T.init():
                    einsum[v_ax0, v_ax1] = T.float32(0.0)
                einsum[v_ax0, v_ax1] = einsum[v_ax0, v_ax1] + t_0[v_ax0, v_r_j] * t_1[v_r_j, v_ax1]
