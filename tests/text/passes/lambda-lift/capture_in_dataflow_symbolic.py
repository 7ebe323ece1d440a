# PASSES: lambda-lift
# CHECKS: a local function capturing a tensor of symbolic shape: the capture becomes a trailing parameter whose shape the lifted function's own parameters define; the call of the local function goes through the closure
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()

        @R.function
        def scale(y: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
            z = R.multiply(y, x)
            return z

        with R.dataflow():
            a = R.exp(x)
            R.output(a)
        gv = scale(a)
        return gv

@I.ir_module
class Expected:
    @R.function(private=True)
    def main_scale(y: R.Tensor(("n", 4), dtype="float32"), x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        z = R.multiply(y, x)
        return z

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Expected
        scale = R.make_closure(cls.main_scale, (x,))
        with R.dataflow():
            a = R.exp(x)
            R.output(a)
        gv = R.invoke_pure_closure(scale, (a,), sinfo_args=(R.Tensor((n, 4), dtype="float32"),))
        return gv
