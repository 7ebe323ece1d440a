# PASSES: legalize-ops
# CHECKS: einsum matmul: j is a reduce axis
@I.ir_module
class Before:
    @R.function
    def main(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((3, 4), dtype="float32")):
        gv = R.einsum((a, b), subscripts="ij,jk->ik")
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.einsum, (a, b), out_sinfo=R.Tensor((2, 4), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def einsum(a: T.Buffer((T.int64(2), T.int64(3)), "float32"), b: T.Buffer((T.int64(3), T.int64(4)), "float32"), einsum: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, r_j in T.grid(T.int64(2), T.int64(4), T.int64(3)):
            with T.block("einsum"):
                v_ax0, v_ax1, v_r_j = T.axis.remap("SSR", [ax0, ax1, r_j])
                T.reads(a[v_ax0, v_r_j], b[v_r_j, v_ax1])
                T.writes(einsum[v_ax0, v_ax1])
                with T.init():
                    einsum[v_ax0, v_ax1] = T.float32(0.0)
                einsum[v_ax0, v_ax1] = einsum[v_ax0, v_ax1] + a[v_ax0, v_r_j] * b[v_r_j, v_ax1]
