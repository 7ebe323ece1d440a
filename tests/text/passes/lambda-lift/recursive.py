# PASSES: lambda-lift
# CHECKS: a recursive local function (it calls itself by name, TVM test_recursive) capturing x is lifted with x as a trailing parameter; the recursive call becomes a direct call of the lifted function passing x on, the outer call goes through the closure
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        @R.function
        def while_loop(i: R.Tensor((), dtype="int32"), s: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
            cond = R.less(i, R.const(10, "int32"))
            c = R.const(1, "int32")
            if cond:
                new_i = R.add(i, c)
                new_s = R.add(s, x)
                r = while_loop(new_i, new_s)
            else:
                r = s
            return r

        gv = while_loop(R.const(0, "int32"), x)
        return gv

@I.ir_module
class Expected:
    @R.function(private=True)
    def main_while_loop(i: R.Tensor((), dtype="int32"), s: R.Tensor((2, 3), dtype="float32"), x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Expected
        cond = R.less(i, R.const(10, "int32"))
        c = R.const(1, "int32")
        if cond:
            new_i = R.add(i, c)
            new_s = R.add(s, x)
            r = cls.main_while_loop(new_i, new_s, x)
        else:
            r = s
        return r

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Expected
        while_loop = R.make_closure(cls.main_while_loop, (x,))
        gv = R.invoke_pure_closure(while_loop, (R.const(0, "int32"), x), sinfo_args=(R.Tensor((2, 3), dtype="float32"),))
        return gv
