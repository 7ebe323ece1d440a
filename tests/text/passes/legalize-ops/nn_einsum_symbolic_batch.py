# PASSES: legalize-ops
# CHECKS: batched einsum with a broadcast ellipsis and symbolic sizes
@I.ir_module
class Before:
    @R.function
    def main(a: R.Tensor(("b", "n", 4), dtype="float32"), c: R.Tensor((1, 4, "m"), dtype="float32")):
        gv = R.einsum((a, c), subscripts="...ij,...jk->...ik")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(a: R.Tensor(("b", "n", 4), dtype="float32"), c: R.Tensor((1, 4, "m"), dtype="float32")) -> R.Tensor(("b", "n", "m"), dtype="float32"):
        b = T.int64()
        n = T.int64()
        m = T.int64()
        cls = Expected
        gv = R.call_tir(cls.einsum, (a, c), out_sinfo=R.Tensor((b, n, m), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def einsum(var_a: T.handle, var_c: T.handle, var_einsum: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        b, n = T.int64(), T.int64()
        a = T.match_buffer(var_a, (b, n, T.int64(4)))
        m = T.int64()
        c = T.match_buffer(var_c, (T.int64(1), T.int64(4), m))
        einsum = T.match_buffer(var_einsum, (b, n, m))
        # with T.block("root"):
        for ax0, ax1, ax2, r_j in T.grid(b, n, m, T.int64(4)):
            with T.block("einsum"):
                v_ax0, v_ax1, v_ax2, v_r_j = T.axis.remap("SSSR", [ax0, ax1, ax2, r_j])
                T.reads(a[v_ax0, v_ax1, v_r_j], c[T.int64(0), v_r_j, v_ax2])
                T.writes(einsum[v_ax0, v_ax1, v_ax2])
                with T.init():
                    einsum[v_ax0, v_ax1, v_ax2] = T.float32(0.0)
                einsum[v_ax0, v_ax1, v_ax2] = einsum[v_ax0, v_ax1, v_ax2] + a[v_ax0, v_ax1, v_r_j] * c[T.int64(0), v_r_j, v_ax2]
