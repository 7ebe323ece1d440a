# ERROR: 7:9: unindent does not match any outer indentation level
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
          y = R.add(x, x)
        return y
