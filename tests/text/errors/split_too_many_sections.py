# ERROR: 6:13: split: cannot split a dimension of size 2 into 4 sections
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")):
        y = R.split(x, indices_or_sections=4, axis=0)
        return y
