# PASSES: legalize-ops
# CHECKS: batch_norm on a symbolic batch, channels last
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 5, 3), dtype="float32"), g: R.Tensor((3,), dtype="float32"), b: R.Tensor((3,), dtype="float32"), m: R.Tensor((3,), dtype="float32"), v: R.Tensor((3,), dtype="float32")):
        gv = R.nn.batch_norm(x, g, b, m, v, axis=-1, epsilon=0.001)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 5, 3), dtype="float32"), g: R.Tensor((3,), dtype="float32"), b: R.Tensor((3,), dtype="float32"), m: R.Tensor((3,), dtype="float32"), v: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 5, 3), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.batch_norm, (x, g, b, m, v), out_sinfo=[R.Tensor((n, 5, 3), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")])
        return gv

    @T.prim_func(private=True)
    def batch_norm(var_x: T.handle, g: T.Buffer((T.int64(3),), "float32"), b: T.Buffer((T.int64(3),), "float32"), m: T.Buffer((T.int64(3),), "float32"), v: T.Buffer((T.int64(3),), "float32"), var_batch_norm: T.handle, batch_norm_mean: T.Buffer((T.int64(3),), "float32"), batch_norm_var: T.Buffer((T.int64(3),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(5), T.int64(3)))
        batch_norm = T.match_buffer(var_batch_norm, (n, T.int64(5), T.int64(3)))
        # with T.block("root"):
        for ax0, ax1, ax2 in T.grid(n, T.int64(5), T.int64(3)):
            with T.block("batch_norm"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax0, v_ax1, v_ax2], m[v_ax2], v[v_ax2], g[v_ax2], b[v_ax2])
                T.writes(batch_norm[v_ax0, v_ax1, v_ax2])
                batch_norm[v_ax0, v_ax1, v_ax2] = (x[v_ax0, v_ax1, v_ax2] - m[v_ax2]) * T.rsqrt(v[v_ax2] + T.float32(0.001)) * g[v_ax2] + b[v_ax2]
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
