# PASSES: legalize-ops
# CHECKS: std over every axis of a symbolic tensor
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")):
        gv = R.std(x)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor((), dtype="float32"):
        n = T.int64()
        cls = Expected
        gv = R.call_tir(cls.std, (x,), out_sinfo=R.Tensor((), dtype="float32"))
        return gv

    @T.prim_func(private=True)
    def std(var_x: T.handle, std: T.Buffer((), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        # with T.block("root"):
        variance_sum = T.alloc_buffer(())
        variance_sq_sum = T.alloc_buffer(())
        variance = T.alloc_buffer(())
        for k0, k1 in T.grid(n, T.int64(4)):
            with T.block("variance_sum"):
                v_k0, v_k1 = T.axis.remap("RR", [k0, k1])
                T.reads(x[v_k0, v_k1])
                T.writes(variance_sum[()])
                with T.init():
                    variance_sum[()] = T.float32(0.0)
                variance_sum[()] = variance_sum[()] + x[v_k0, v_k1]
        for k0, k1 in T.grid(n, T.int64(4)):
            with T.block("variance_sq_sum"):
                v_k0, v_k1 = T.axis.remap("RR", [k0, k1])
                T.reads(x[v_k0, v_k1], variance_sum[()])
                T.writes(variance_sq_sum[()])
                with T.init():
                    variance_sq_sum[()] = T.float32(0.0)
                variance_sq_sum[()] = variance_sq_sum[()] + (x[v_k0, v_k1] - variance_sum[()] / T.Cast("float32", n * T.int64(4))) * (x[v_k0, v_k1] - variance_sum[()] / T.Cast("float32", n * T.int64(4)))
        with T.block("variance"):
            T.reads(variance_sq_sum[()])
            T.writes(variance[()])
            variance[()] = variance_sq_sum[()] / T.Cast("float32", n * T.int64(4))
        with T.block("std"):
            T.reads(variance[()])
            T.writes(std[()])
            std[()] = T.sqrt(variance[()])
