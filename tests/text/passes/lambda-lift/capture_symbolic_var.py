# PASSES: lambda-lift
# CHECKS: a local function that uses a shape variable n of the enclosing function which none of its parameters defines (its parameter's shape n * 4 is compound) gets n as a trailing R.Prim(value=n) parameter, passed through R.make_closure as R.prim_value(n)
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        flat = R.reshape(x, R.shape([n * 4]))

        @R.function
        def unflatten(y: R.Tensor((n * 4,), dtype="float32")) -> R.Tensor((n, 4), dtype="float32"):
            z = R.reshape(y, R.shape([n, 4]))
            return z

        gv = unflatten(flat)
        return gv

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Expected
        flat = R.reshape(x, R.shape([n * 4]))
        unflatten = R.make_closure(cls.main_unflatten, (R.prim_value(n),))
        gv = R.invoke_pure_closure(unflatten, (flat,), sinfo_args=(R.Tensor((n, 4), dtype="float32"),))
        return gv

    @R.function(private=True)
    def main_unflatten(y: R.Tensor(("n * 4",), dtype="float32"), n_1: R.Prim(value="n")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        z = R.reshape(y, R.shape([n, 4]))
        return z
