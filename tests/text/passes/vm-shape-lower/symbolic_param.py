# PASSES: vm-shape-lower
# CHECKS: symbolic dims are stored to the heap at their first match and compared at later ones; a symbolic shape value becomes make_shape
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n",), dtype="int32")) -> R.Shape(["n", 4]):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        s = R.shape([n, 4])
        return s

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n",), dtype="int32")) -> R.Shape(["n", 4]):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(1),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 4), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(1), R.dtype("int32"), R.str("ErrorContext(fn=main, loc=param[1], param=y, annotation=R.Tensor((n,), dtype=\"int32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(4), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 4), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(0), R.str("ErrorContext(fn=main, loc=param[1], param=y, annotation=R.Tensor((n,), dtype=\"int32\")) "), sinfo_args=(R.Tuple,))
        s: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(4), sinfo_args=(R.Shape(ndim=2),))
        R.call_packed("vm.builtin.check_shape_info", s, R.prim_value(2), R.str("ErrorContext(fn=main, loc=return, annotation=R.Shape([n, 4])) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(0), R.prim_value(4), R.str("ErrorContext(fn=main, loc=return, annotation=R.Shape([n, 4])) "), sinfo_args=(R.Tuple,))
        return s
