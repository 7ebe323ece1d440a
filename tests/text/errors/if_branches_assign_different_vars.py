# ERROR: 9:13: both branches of an if must end by assigning the same variable
@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")):
        if c:
            y = R.exp(x)
        else:
            z = R.sqrt(x)
        return x
