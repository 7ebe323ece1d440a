# PASSES: vm-shape-lower
# CHECKS: with num_input = 1 the static-shape weight parameter is not checked; the symbolic input and a symbolic weight are
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32"), v: R.Tensor(("k",), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        k = T.int64()
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        return x

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32"), v: R.Tensor(("k",), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        k = T.int64()
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 4), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.check_tensor_info", v, R.prim_value(1), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[2], param=v, annotation=R.Tensor((k,), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(4), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 4), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", v, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(1), R.str("ErrorContext(fn=main, loc=param[2], param=v, annotation=R.Tensor((k,), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        return x
