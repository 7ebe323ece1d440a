# PASSES: vm-shape-lower
# CHECKS: a tuple parameter is checked with check_tuple_info, then field by field through TupleGetItem
@I.ir_module
class Before:
    @R.function
    def main(t: R.Tuple(R.Tensor(("n",), dtype="float32"), R.Shape(["m"]))) -> R.Shape(["m", "n"]):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        s = R.shape([m, n])
        return s

@I.ir_module
class Expected:
    @R.function
    def main(t: R.Tuple(R.Tensor(("n",), dtype="float32"), R.Shape(["m"]))) -> R.Shape(["m", "n"]):
        m = T.int64()
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        R.call_packed("vm.builtin.check_tuple_info", t, R.prim_value(2), R.str("ErrorContext(fn=main, loc=param[0], param=t, annotation=R.Tuple(R.Tensor((n,), dtype=\"float32\"), R.Shape([m]))) "), sinfo_args=(R.Tuple,))
        gv: R.Tensor((n,), dtype="float32") = t[0]
        R.call_packed("vm.builtin.check_tensor_info", gv, R.prim_value(1), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[0], param=t, annotation=R.Tuple(R.Tensor((n,), dtype=\"float32\"), R.Shape([m]))) "), sinfo_args=(R.Tuple,))
        gv_1: R.Shape([m]) = t[1]
        R.call_packed("vm.builtin.check_shape_info", gv_1, R.prim_value(1), R.str("ErrorContext(fn=main, loc=param[0], param=t, annotation=R.Tuple(R.Tensor((n,), dtype=\"float32\"), R.Shape([m]))) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", gv, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str("ErrorContext(fn=main, loc=param[0], param=t, annotation=R.Tuple(R.Tensor((n,), dtype=\"float32\"), R.Shape([m]))) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", gv_1, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(1), R.str("ErrorContext(fn=main, loc=param[0], param=t, annotation=R.Tuple(R.Tensor((n,), dtype=\"float32\"), R.Shape([m]))) "), sinfo_args=(R.Tuple,))
        s: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(1), R.prim_value(1), R.prim_value(0), sinfo_args=(R.Shape(ndim=2),))
        R.call_packed("vm.builtin.check_shape_info", s, R.prim_value(2), R.str("ErrorContext(fn=main, loc=return, annotation=R.Shape([m, n])) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(1), R.prim_value(3), R.prim_value(0), R.str("ErrorContext(fn=main, loc=return, annotation=R.Shape([m, n])) "), sinfo_args=(R.Tuple,))
        return s
