# PASSES: legalize-ops
# CHECKS: layer_norm on (b, s, 16) with symbolic b and s
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("b", "s", 16), dtype="float32"), g: R.Tensor((16,), dtype="float32"), b1: R.Tensor((16,), dtype="float32")):
        gv = R.nn.layer_norm(x, g, b1, axes=[2])
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("b", "s", 16), dtype="float32"), g: R.Tensor((16,), dtype="float32"), b1: R.Tensor((16,), dtype="float32")) -> R.Tensor(("b", "s", 16), dtype="float32"):
        b = T.int64()
        s = T.int64()
        cls = Expected
        gv = R.call_tir(cls.layer_norm, (x, g, b1), out_sinfo=R.Tensor((b, s, 16), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def layer_norm(var_x: T.handle, g: T.Buffer((T.int64(16),), "float32"), b1: T.Buffer((T.int64(16),), "float32"), var_layer_norm: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        b, s = T.int64(), T.int64()
        x = T.match_buffer(var_x, (b, s, T.int64(16)))
        layer_norm = T.match_buffer(var_layer_norm, (b, s, T.int64(16)))
        # with T.block("root"):
        layer_norm_mean_sum = T.alloc_buffer((b, s))
        layer_norm_mean = T.alloc_buffer((b, s))
        layer_norm_var_sum = T.alloc_buffer((b, s))
        layer_norm_var = T.alloc_buffer((b, s))
        for ax0, ax1, k0 in T.grid(b, s, T.int64(16)):
            with T.block("layer_norm_mean_sum"):
                v_ax0, v_ax1, v_k0 = T.axis.remap("SSR", [ax0, ax1, k0])
                T.reads(x[v_ax0, v_ax1, v_k0])
                T.writes(layer_norm_mean_sum[v_ax0, v_ax1])
                with T.init():
                    layer_norm_mean_sum[v_ax0, v_ax1] = T.float32(0.0)
                layer_norm_mean_sum[v_ax0, v_ax1] = layer_norm_mean_sum[v_ax0, v_ax1] + x[v_ax0, v_ax1, v_k0]
        for ax0, ax1 in T.grid(b, s):
            with T.block("layer_norm_mean"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(layer_norm_mean_sum[v_ax0, v_ax1])
                T.writes(layer_norm_mean[v_ax0, v_ax1])
                layer_norm_mean[v_ax0, v_ax1] = layer_norm_mean_sum[v_ax0, v_ax1] / T.float32(16.0)
        for ax0, ax1, k0 in T.grid(b, s, T.int64(16)):
            with T.block("layer_norm_var_sum"):
                v_ax0, v_ax1, v_k0 = T.axis.remap("SSR", [ax0, ax1, k0])
                T.reads(x[v_ax0, v_ax1, v_k0], layer_norm_mean[v_ax0, v_ax1])
                T.writes(layer_norm_var_sum[v_ax0, v_ax1])
                with T.init():
                    layer_norm_var_sum[v_ax0, v_ax1] = T.float32(0.0)
                layer_norm_var_sum[v_ax0, v_ax1] = layer_norm_var_sum[v_ax0, v_ax1] + (x[v_ax0, v_ax1, v_k0] - layer_norm_mean[v_ax0, v_ax1]) * (x[v_ax0, v_ax1, v_k0] - layer_norm_mean[v_ax0, v_ax1])
        for ax0, ax1 in T.grid(b, s):
            with T.block("layer_norm_var"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(layer_norm_var_sum[v_ax0, v_ax1])
                T.writes(layer_norm_var[v_ax0, v_ax1])
                layer_norm_var[v_ax0, v_ax1] = layer_norm_var_sum[v_ax0, v_ax1] / T.float32(16.0)
        for ax0, ax1, ax2 in T.grid(b, s, T.int64(16)):
            with T.block("layer_norm"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax0, v_ax1, v_ax2], layer_norm_mean[v_ax0, v_ax1], layer_norm_var[v_ax0, v_ax1], g[v_ax2], b1[v_ax2])
                T.writes(layer_norm[v_ax0, v_ax1, v_ax2])
                layer_norm[v_ax0, v_ax1, v_ax2] = (x[v_ax0, v_ax1, v_ax2] - layer_norm_mean[v_ax0, v_ax1]) * T.rsqrt(layer_norm_var[v_ax0, v_ax1] + T.float32(1e-05)) * g[v_ax2] + b1[v_ax2]
