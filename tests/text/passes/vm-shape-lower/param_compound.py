# PASSES: vm-shape-lower
# CHECKS: a parameter dimension n + 1 is skipped (kNoOp) in the first match and checked against its computed slot in a second one
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n + 1",), dtype="float32")) -> R.Tensor(("n + 1",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        return y

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n + 1",), dtype="float32")) -> R.Tensor(("n + 1",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Expected
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(1), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n,), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(1), R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[1], param=y, annotation=R.Tensor((n + 1,), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n,), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        _: R.Object = cls.shape_func(shape_heap)
        R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(1), R.prim_value(3), R.prim_value(1), R.str("ErrorContext(fn=main, loc=param[1], param=y, annotation=R.Tensor((n + 1,), dtype=\"float32\")) "), sinfo_args=(R.Tuple,))
        return y

    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(2),), "int64")):
        T.func_attr({"tir.is_host_func": T.bool(True)})
        H[T.int64(1)] = H[T.int64(0)] + T.int64(1)
