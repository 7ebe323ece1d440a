# ERROR: 6:9: an if in a Relax function needs an else branch
@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")):
        if c:
            y = R.exp(x)
        return x
