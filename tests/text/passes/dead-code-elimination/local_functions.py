# PASSES: dead-code-elimination
# CHECKS: an unused local function goes with the values only it captured; a used one is kept whole, captured values included (after TVM test_recursively_defined_closure)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        threshold = R.const(10, "int32")
        captured_by_unused = R.add(x, x)

        @R.function
        def unused_lambda(a: R.Tensor(("m", 3), dtype="float32")) -> R.Tensor(("m", 3), dtype="float32"):
            b = R.add(a, captured_by_unused)
            return b

        @R.function
        def step(i: R.Tensor((), dtype="int32"), s: R.Tensor(("m", 3), dtype="float32")) -> R.Tensor(("m", 3), dtype="float32"):
            cond = R.call_pure_packed("test.vm.less", i, threshold, sinfo_args=(R.Tensor((), dtype="bool"),))
            dead = R.multiply(s, s)
            if cond:
                r = R.add(s, s)
            else:
                r = s
            return r

        gv = step(R.const(0, "int32"), x)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        threshold = R.const(10, "int32")

        @R.function
        def step(i: R.Tensor((), dtype="int32"), s: R.Tensor(("m", 3), dtype="float32")) -> R.Tensor(("m", 3), dtype="float32"):
            cond = R.call_pure_packed("test.vm.less", i, threshold, sinfo_args=(R.Tensor((), dtype="bool"),))
            if cond:
                r = R.add(s, s)
            else:
                r = s
            return r

        gv = step(R.const(0, "int32"), x)
        return gv
