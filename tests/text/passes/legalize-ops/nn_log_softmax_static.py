# PASSES: legalize-ops
# CHECKS: log_softmax: x - max - log(sum(exp(x - max)))
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 5), dtype="float32")):
        gv = R.nn.log_softmax(x, axis=1)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 5), dtype="float32")) -> R.Tensor((2, 5), dtype="float32"):
        cls = Expected
        gv = R.call_tir(cls.log_softmax, (x,), out_sinfo=R.Tensor((2, 5), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def log_softmax(x: T.Buffer((T.int64(2), T.int64(5)), "float32"), log_softmax: T.Buffer((T.int64(2), T.int64(5)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        log_softmax_maxelem = T.alloc_buffer((T.int64(2),))
        log_softmax_expsum = T.alloc_buffer((T.int64(2),))
        for ax0, k in T.grid(T.int64(2), T.int64(5)):
            with T.block("log_softmax_maxelem"):
                v_ax0, v_k = T.axis.remap("SR", [ax0, k])
                T.reads(x[v_ax0, v_k])
                T.writes(log_softmax_maxelem[v_ax0])
                with T.init():
                    log_softmax_maxelem[v_ax0] = T.float32(-3.4028234663852886e+38)
                log_softmax_maxelem[v_ax0] = T.max(log_softmax_maxelem[v_ax0], x[v_ax0, v_k])
        for ax0, k in T.grid(T.int64(2), T.int64(5)):
            with T.block("log_softmax_expsum"):
                v_ax0, v_k = T.axis.remap("SR", [ax0, k])
                T.reads(x[v_ax0, v_k], log_softmax_maxelem[v_ax0])
                T.writes(log_softmax_expsum[v_ax0])
                with T.init():
                    log_softmax_expsum[v_ax0] = T.float32(0.0)
                log_softmax_expsum[v_ax0] = log_softmax_expsum[v_ax0] + T.exp(x[v_ax0, v_k] - log_softmax_maxelem[v_ax0])
        for ax0, ax1 in T.grid(T.int64(2), T.int64(5)):
            with T.block("log_softmax"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1], log_softmax_maxelem[v_ax0], log_softmax_expsum[v_ax0])
                T.writes(log_softmax[v_ax0, v_ax1])
                log_softmax[v_ax0, v_ax1] = x[v_ax0, v_ax1] - log_softmax_maxelem[v_ax0] - T.log(log_softmax_expsum[v_ax0])
