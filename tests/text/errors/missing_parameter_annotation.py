# ERROR: 5:14: parameter 'x' needs a struct info annotation
@I.ir_module
class Module:
    @R.function
    def main(x):
        return x
