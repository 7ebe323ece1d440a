# PASSES: legalize-ops
# CHECKS: layer_norm over the last axis with gamma and beta
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 8), dtype="float32"), g: R.Tensor((8,), dtype="float32"), b: R.Tensor((8,), dtype="float32")):
        gv = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1e-05, center=True, scale=True)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 8), dtype="float32"), g: R.Tensor((8,), dtype="float32"), b: R.Tensor((8,), dtype="float32")) -> R.Tensor((2, 8), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.layer_norm, (x, g, b), out_sinfo=R.Tensor((2, 8), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def layer_norm(x: T.Buffer((T.int64(2), T.int64(8)), "float32"), g: T.Buffer((T.int64(8),), "float32"), b: T.Buffer((T.int64(8),), "float32"), layer_norm: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        layer_norm_mean_sum = T.alloc_buffer((T.int64(2),))
        layer_norm_mean = T.alloc_buffer((T.int64(2),))
        layer_norm_var_sum = T.alloc_buffer((T.int64(2),))
        layer_norm_var = T.alloc_buffer((T.int64(2),))
        for ax0, k0 in T.grid(T.int64(2), T.int64(8)):
            with T.block("layer_norm_mean_sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                T.reads(x[v_ax0, v_k0])
                T.writes(layer_norm_mean_sum[v_ax0])
                with T.init():
                    layer_norm_mean_sum[v_ax0] = T.float32(0.0)
                layer_norm_mean_sum[v_ax0] = layer_norm_mean_sum[v_ax0] + x[v_ax0, v_k0]
        for ax0 in range(T.int64(2)):
            with T.block("layer_norm_mean"):
                v_ax0 = T.axis.spatial(T.int64(2), ax0)
                T.reads(layer_norm_mean_sum[v_ax0])
                T.writes(layer_norm_mean[v_ax0])
                layer_norm_mean[v_ax0] = layer_norm_mean_sum[v_ax0] / T.float32(8.0)
        for ax0, k0 in T.grid(T.int64(2), T.int64(8)):
            with T.block("layer_norm_var_sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                T.reads(x[v_ax0, v_k0], layer_norm_mean[v_ax0])
                T.writes(layer_norm_var_sum[v_ax0])
                with T.init():
                    layer_norm_var_sum[v_ax0] = T.float32(0.0)
                layer_norm_var_sum[v_ax0] = layer_norm_var_sum[v_ax0] + (x[v_ax0, v_k0] - layer_norm_mean[v_ax0]) * (x[v_ax0, v_k0] - layer_norm_mean[v_ax0])
        for ax0 in range(T.int64(2)):
            with T.block("layer_norm_var"):
                v_ax0 = T.axis.spatial(T.int64(2), ax0)
                T.reads(layer_norm_var_sum[v_ax0])
                T.writes(layer_norm_var[v_ax0])
                layer_norm_var[v_ax0] = layer_norm_var_sum[v_ax0] / T.float32(8.0)
        for ax0, ax1 in T.grid(T.int64(2), T.int64(8)):
            with T.block("layer_norm"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], layer_norm_mean[v_ax0], layer_norm_var[v_ax0], g[v_ax1], b[v_ax1])
                T.writes(layer_norm[v_ax0, v_ax1])
                layer_norm[v_ax0, v_ax1] = (x[v_ax0, v_ax1] - layer_norm_mean[v_ax0]) * T.rsqrt(layer_norm_var[v_ax0] + T.float32(1e-05)) * g[v_ax1] + b[v_ax1]
