# ERROR: 4:9: function 'main' needs a decorator
@I.ir_module
class Module:
    def main(x: R.Tensor((4,), dtype="float32")):
        return x
