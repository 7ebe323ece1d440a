# PASSES: fuse-ops-by-pattern{patterns=conv_epilogue}
# CHECKS: an unknown pattern table is an error naming it and the known ones
# ERROR: unknown pattern table 'conv_epilogue'; known tables: matmul_epilogue
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return x
