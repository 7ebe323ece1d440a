# PASSES: lambda-lift
# CHECKS: a recursive local function that captures nothing (its shape variable m is defined by its own parameter) is lifted without captures: the recursive call and the outer call become direct calls of the lifted function
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        @R.function
        def loop(i: R.Tensor((), dtype="int32"), s: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
            cond = R.less(i, R.const(3, "int32"))
            if cond:
                new_i = R.add(i, R.const(1, "int32"))
                new_s = R.add(s, s)
                r = loop(new_i, new_s)
            else:
                r = s
            return r

        gv = loop(R.const(0, "int32"), x)
        return gv

@I.ir_module
class Expected:
    @R.function(private=True)
    def main_loop(i: R.Tensor((), dtype="int32"), s: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
        m = T.int64()
        cls = Expected
        cond = R.less(i, R.const(3, "int32"))
        if cond:
            new_i = R.add(i, R.const(1, "int32"))
            new_s = R.add(s, s)
            r_1 = cls.main_loop(new_i, new_s)
            r = r_1
        else:
            r = s
        return r

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Expected
        gv = cls.main_loop(R.const(0, "int32"), x)
        return gv
