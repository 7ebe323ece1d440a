# PASSES: vm-shape-lower
# CHECKS: static parameters are checked with check_tensor_info and match_shape against immediates; no slots: the heap is R.null_value()
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        y = R.add(x, x)
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Object = R.null_value()
        R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((2, 3), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(2), R.prim_value(0), R.prim_value(3), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((2, 3), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        y: R.Tensor((2, 3), dtype="float32") = R.add(x, x)
        return y
