# PASSES: normalize
# CHECKS: a module already in normal form is unchanged, dataflow blocks and library calls included (TVM test_normalize_no_op)
@I.ir_module
class Before:
    @R.function
    def f(x: R.Tensor(dtype="float32")):
        gv = R.add(x, x)
        gv1 = R.add(gv, gv)
        gv2 = R.add(gv, gv1)
        return (gv, gv2)

    @R.function
    def foo(x: R.Tensor(("m", "n"), dtype="float32")):
        m = T.int64()
        n = T.int64()
        with R.dataflow():
            lv0 = R.call_dps_packed("test.op.identity", (x,), out_sinfo=R.Tensor((m, n), dtype="float32"))
            gv0 = R.call_dps_packed("test.op.identity", (lv0,), out_sinfo=R.Tensor((m, n), dtype="float32"))
            R.output(gv0)
        return gv0

@I.ir_module
class Expected:
    @R.function
    def f(x: R.Tensor(dtype="float32")):
        gv = R.add(x, x)
        gv1 = R.add(gv, gv)
        gv2 = R.add(gv, gv1)
        return (gv, gv2)

    @R.function
    def foo(x: R.Tensor(("m", "n"), dtype="float32")):
        m = T.int64()
        n = T.int64()
        with R.dataflow():
            lv0 = R.call_dps_packed("test.op.identity", (x,), out_sinfo=R.Tensor((m, n), dtype="float32"))
            gv0 = R.call_dps_packed("test.op.identity", (lv0,), out_sinfo=R.Tensor((m, n), dtype="float32"))
            R.output(gv0)
        return gv0
