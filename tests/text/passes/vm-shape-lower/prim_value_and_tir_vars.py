# PASSES: vm-shape-lower
# CHECKS: a symbolic prim value becomes make_prim_value and the tir_vars shape of a PrimFunc call make_shape
@I.ir_module
class Before:
    @T.prim_func(private=True)
    def fill(var_y: T.handle, m: T.int64):
        y = T.match_buffer(var_y, (m,), "int64")
        for i in range(m):
            with T.block("fill"):
                vi = T.axis.spatial(m, i)
                y[vi] = m

    @R.function
    def main(y: R.Tensor(("m",), dtype="int64")) -> R.Prim(value="m"):
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Before
        _ = cls.fill(y, R.shape([m]))
        p = R.prim_value(m)
        return p

@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def fill(var_y: T.handle, m: T.int64):
        y = T.match_buffer(var_y, (m,), "int64")
        # with T.block("root"):
        for i in range(m):
            with T.block("fill"):
                vi = T.axis.spatial(m, i)
                T.reads()
                T.writes(y[vi])
                y[vi] = m

    @R.function
    def main(y: R.Tensor(("m",), dtype="int64")) -> R.Prim(value="m"):
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(1),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(1), R.dtype("int64"), R.str("ErrorContext(fn=main, loc=param[0], param=y, annotation=R.Tensor((m,), dtype=\"int64\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str("ErrorContext(fn=main, loc=param[0], param=y, annotation=R.Tensor((m,), dtype=\"int64\")) "), sinfo_args=(R.Tuple,))
        gv: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), sinfo_args=(R.Shape(ndim=1),))
        _: R.Object = cls.fill(y, gv)
        p: R.Prim("int64") = R.call_packed("vm.builtin.make_prim_value", shape_heap, R.prim_value(1), R.prim_value(0), sinfo_args=(R.Prim("int64"),))
        R.call_packed("vm.builtin.check_prim_value_info", p, R.dtype("int64"), R.str("ErrorContext(fn=main, loc=return, annotation=R.Prim(value=m)) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_prim_value", p, shape_heap, R.prim_value(3), R.prim_value(0), R.str("ErrorContext(fn=main, loc=return, annotation=R.Prim(value=m)) "), sinfo_args=(R.Tuple,))
        return p
