// convert-layout beyond the text tests (tests/text/passes/convert-layout):
// the registry option and its errors, a module without convolutions left
// untouched, and another desired kernel layout (HWIO) permuting a constant
// kernel at compile time.
#include <gtest/gtest.h>

#include "rlx/op/op.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

std::string ErrorOf(const std::string& spec) {
  try {
    LookupPass(spec);
  } catch (const CompileError& error) {
    return error.what();
  }
  return "";
}

TEST(ConvertLayout, RegistryOptionNamesOperatorAndLayouts) {
  EXPECT_EQ(LookupPass("convert-layout").info().name, "convert-layout");
  EXPECT_EQ(LookupPass("convert-layout{desired-layouts=nn.conv2d:NHWC:OHWI}").info().name, "convert-layout");
  EXPECT_EQ(LookupPass("convert-layout{desired-layouts=relax.nn.conv2d:NHWC:HWIO}").info().name, "convert-layout");
  EXPECT_NE(ErrorOf("convert-layout{desired-layouts=nn.conv2d:NHWC}").find("<operator>:<data layout>:<kernel layout>"),
            std::string::npos);
  EXPECT_NE(ErrorOf("convert-layout{desired-layouts=nn.dense:NC:OI}").find("unsupported operator 'relax.nn.dense'"),
            std::string::npos);
  EXPECT_NE(ErrorOf("convert-layout{desired-layouts=nn.conv2d:NHWQ:OHWI}").find("permutation of NCHW"),
            std::string::npos);
  EXPECT_NE(ErrorOf("convert-layout{desired-layouts=nn.conv2d:NHWC:OHWW}").find("permutation of OIHW"),
            std::string::npos);
}

TEST(ConvertLayout, ModuleWithoutConvolutionIsUnchanged) {
  op::RegisterAllOps();
  ir::IRModule mod = text::ParseModuleText(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv = R.matmul(x, w)
            gv = R.nn.relu(lv)
            R.output(gv)
        return gv
)", "matmul.py");
  ir::IRModule result = LookupPass("convert-layout")(mod);
  EXPECT_TRUE(result->Lookup("main").same_as(mod->Lookup("main")));
}

TEST(ConvertLayout, HWIOKernelIsPermutedAtCompileTime) {
  op::RegisterAllOps();
  ir::IRModule mod = text::ParseModuleText(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 1, 4, 4), dtype="float32")) -> R.Tensor((1, 2, 4, 3), dtype="float32"):
        with R.dataflow():
            gv = R.nn.conv2d(x, R.const([[[[1.0, 2.0]]], [[[3.0, 4.0]]]], "float32"))
            R.output(gv)
        return gv
)", "conv.py");
  std::string text = text::PrintModule(LookupPass("convert-layout{desired-layouts=nn.conv2d:NHWC:HWIO}")(mod));
  // OIHW (2, 1, 1, 2) -> HWIO (1, 2, 1, 2): kernel[o][0][0][w] lands at [0][w][0][o].
  EXPECT_NE(text.find("R.const([[[[1.0, 3.0]], [[2.0, 4.0]]]], \"float32\")"), std::string::npos) << text;
  EXPECT_NE(text.find("kernel_layout=\"HWIO\""), std::string::npos) << text;
  EXPECT_NE(text.find("R.permute_dims(gv, axes=[0, 3, 1, 2])"), std::string::npos) << text;
}

}  // namespace
}  // namespace rlx::transform
