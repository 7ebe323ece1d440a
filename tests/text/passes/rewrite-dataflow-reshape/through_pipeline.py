# PASSES: legalize-ops,rewrite-dataflow-reshape,to-non-dataflow,remove-purity-checking,call-tir-rewrite,static-plan-block-memory
# CHECKS: after the rewrite a reshape allocates nothing: the reshaped tensor is a view whose storage is planned with its source (n * 16 bytes reused for the (n * 4,) result)
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def double(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n,), "float32")
        y = T.match_buffer(var_y, (n,), "float32")
        for i in range(n):
            with T.block("double"):
                vi = T.axis.spatial(n, i)
                y[vi] = x[vi] * T.float32(2)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n * 4",), dtype="float32"):
        n = T.int64()
        cls = Before
        with R.dataflow():
            a = R.flatten(x)
            b = R.call_tir(cls.double, (a,), out_sinfo=R.Tensor((n * 4,), dtype="float32"))
            c = R.call_tir(cls.double, (b,), out_sinfo=R.Tensor((n * 4,), dtype="float32"))
            d = R.call_tir(cls.double, (c,), out_sinfo=R.Tensor((n * 4,), dtype="float32"))
            e = R.call_tir(cls.double, (d,), out_sinfo=R.Tensor((n * 4,), dtype="float32"))
            R.output(e)
        return e

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def double(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n,), "float32")
        y = T.match_buffer(var_y, (n,), "float32")
        for i in range(n):
            with T.block("double"):
                vi = T.axis.spatial(n, i)
                y[vi] = x[vi] * T.float32(2)

    @T.prim_func(private=True)
    def reshape(var_x: T.handle, var_T_reshape: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        T_reshape = T.match_buffer(var_T_reshape, (n * T.int64(4),))
        for ax0 in range(n * T.int64(4)):
            with T.block("T_reshape"):
                v_ax0 = T.axis.spatial(n * T.int64(4), ax0)
                T.reads(x[v_ax0 // T.int64(4), v_ax0 % T.int64(4)])
                T.writes(T_reshape[v_ax0])
                T_reshape[v_ax0] = x[v_ax0 // T.int64(4), v_ax0 % T.int64(4)]

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n * 4",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        a = R.reshape(x, R.shape([n * 4]))
        storage = R.memory.alloc_storage(R.shape([n * 16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n * 4]), R.dtype("float32"))
        _ = cls.double(a, alloc)
        b = alloc
        storage1 = R.memory.alloc_storage(R.shape([n * 16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc1 = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([n * 4]), R.dtype("float32"))
        _1 = cls.double(b, alloc1)
        c = alloc1
        alloc2 = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n * 4]), R.dtype("float32"))
        _2 = cls.double(c, alloc2)
        d = alloc2
        alloc3 = R.builtin.alloc_tensor(R.shape([n * 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3 = cls.double(d, alloc3)
        e = alloc3
        return e
