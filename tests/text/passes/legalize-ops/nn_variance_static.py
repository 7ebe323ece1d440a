# PASSES: legalize-ops
# CHECKS: variance: mean, then the mean of squared deviations
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((3, 4), dtype="float32")):
        gv = R.variance(x, axis=[1], keepdims=True)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((3, 1), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.variance, (x,), out_sinfo=R.Tensor((3, 1), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def variance(x: T.Buffer((T.int64(3), T.int64(4)), "float32"), variance: T.Buffer((T.int64(3), T.int64(1)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        variance_sum = T.alloc_buffer((T.int64(3),))
        variance_sq_sum = T.alloc_buffer((T.int64(3),))
        for ax0, k0 in T.grid(T.int64(3), T.int64(4)):
            with T.block("variance_sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                T.reads(x[v_ax0, v_k0])
                T.writes(variance_sum[v_ax0])
                with T.init():
                    variance_sum[v_ax0] = T.float32(0.0)
                variance_sum[v_ax0] = variance_sum[v_ax0] + x[v_ax0, v_k0]
        for ax0, k0 in T.grid(T.int64(3), T.int64(4)):
            with T.block("variance_sq_sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                T.reads(x[v_ax0, v_k0], variance_sum[v_ax0])
                T.writes(variance_sq_sum[v_ax0])
                with T.init():
                    variance_sq_sum[v_ax0] = T.float32(0.0)
                variance_sq_sum[v_ax0] = variance_sq_sum[v_ax0] + (x[v_ax0, v_k0] - variance_sum[v_ax0] / T.float32(4.0)) * (x[v_ax0, v_k0] - variance_sum[v_ax0] / T.float32(4.0))
        for ax0, ax1 in T.grid(T.int64(3), T.int64(1)):
            with T.block("variance"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(variance_sq_sum[v_ax0])
                T.writes(variance[v_ax0, v_ax1])
                variance[v_ax0, v_ax1] = variance_sq_sum[v_ax0] / T.float32(4.0)
