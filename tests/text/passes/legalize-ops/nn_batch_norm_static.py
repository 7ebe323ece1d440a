# PASSES: legalize-ops
# CHECKS: inference batch_norm: a tuple of the normalized data and the moving statistics
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3, 4, 4), dtype="float32"), g: R.Tensor((3,), dtype="float32"), b: R.Tensor((3,), dtype="float32"), m: R.Tensor((3,), dtype="float32"), v: R.Tensor((3,), dtype="float32")):
        gv = R.nn.batch_norm(x, g, b, m, v, axis=1)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3, 4, 4), dtype="float32"), g: R.Tensor((3,), dtype="float32"), b: R.Tensor((3,), dtype="float32"), m: R.Tensor((3,), dtype="float32"), v: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((2, 3, 4, 4), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        cls = Expected
        gv = R.call_tir(cls.batch_norm, (x, g, b, m, v), out_sinfo=[R.Tensor((2, 3, 4, 4), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")])
        return gv

    @T.prim_func(private=True)
    def batch_norm(x: T.Buffer((T.int64(2), T.int64(3), T.int64(4), T.int64(4)), "float32"), g: T.Buffer((T.int64(3),), "float32"), b: T.Buffer((T.int64(3),), "float32"), m: T.Buffer((T.int64(3),), "float32"), v: T.Buffer((T.int64(3),), "float32"), batch_norm: T.Buffer((T.int64(2), T.int64(3), T.int64(4), T.int64(4)), "float32"), batch_norm_mean: T.Buffer((T.int64(3),), "float32"), batch_norm_var: T.Buffer((T.int64(3),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(2), T.int64(3), T.int64(4), T.int64(4)):
            with T.block("batch_norm"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(x[v_ax0, v_ax1, v_ax2, v_ax3], m[v_ax1], v[v_ax1], g[v_ax1], b[v_ax1])
                T.writes(batch_norm[v_ax0, v_ax1, v_ax2, v_ax3])
                batch_norm[v_ax0, v_ax1, v_ax2, v_ax3] = (x[v_ax0, v_ax1, v_ax2, v_ax3] - m[v_ax1]) * T.rsqrt(v[v_ax1] + T.float32(1e-05)) * g[v_ax1] + b[v_ax1]
        for ax0 in range(T.int64(3)):
            with T.block("batch_norm_mean"):
                v_ax0 = T.axis.spatial(T.int64(3), ax0)
                T.reads(m[v_ax0])
                T.writes(batch_norm_mean[v_ax0])
                batch_norm_mean[v_ax0] = m[v_ax0]
        for ax0 in range(T.int64(3)):
            with T.block("batch_norm_var"):
                v_ax0 = T.axis.spatial(T.int64(3), ax0)
                T.reads(v[v_ax0])
                T.writes(batch_norm_var[v_ax0])
                batch_norm_var[v_ax0] = v[v_ax0]
