# PASSES: vm-shape-lower
# CHECKS: shapes inside If branches are made from the heap slots filled at entry
@I.ir_module
class Before:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Shape(ndim=1):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        if c:
            a = R.shape([n])
            r = a
        else:
            b = R.shape([4])
            r = b
        return r

@I.ir_module
class Expected:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Shape(ndim=1):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(1),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        R.call_packed("vm.builtin.check_tensor_info", c, R.prim_value(0), R.dtype("bool"), R.str("ErrorContext(fn=main, loc=param[0], param=c, annotation=R.Tensor((), dtype=\"bool\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[1], param=x, annotation=R.Tensor((n,), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str("ErrorContext(fn=main, loc=param[1], param=x, annotation=R.Tensor((n,), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        if c:
            a: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), sinfo_args=(R.Shape(ndim=1),))
            r: R.Shape(ndim=1) = a
        else:
            b: R.Shape([4]) = R.shape([4])
            r: R.Shape(ndim=1) = b
        return r
