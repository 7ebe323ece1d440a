# PASSES: vm-shape-lower
# CHECKS: a match_cast checks its value and defines new symbolic variables in the heap
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2)) -> R.Shape(ndim=2):
        m = T.int64()
        k = T.int64()
        R.func_attr({"relax.force_pure": True})
        y = R.match_cast(x, R.Tensor((m, k), dtype="float32"))
        s = R.shape([k, m])
        return s

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2)) -> R.Shape(ndim=2):
        R.func_attr({"relax.force_pure": True})
        m = T.int64()
        k = T.int64()
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor(dtype=\"float32\", ndim=2)) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str("ErrorContext(match_cast, struct_info=R.Tensor((m, k), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str("ErrorContext(match_cast, struct_info=R.Tensor((m, k), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        y: R.Tensor((m, k), dtype="float32") = R.match_cast(x, R.Tensor((m, k), dtype="float32"))
        s: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(1), R.prim_value(1), R.prim_value(0), sinfo_args=(R.Shape(ndim=2),))
        return s
