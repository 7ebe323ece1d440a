// FoldConstant's compile-time budget: a call on constants whose PrimFunc
// would take too many steps in the interpreter (a large matmul) is left for
// run time, while the same call on small constants folds. The constants are
// generated, too large to write in a text test.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "rlx/graph/expr_functor.h"
#include "rlx/op/op.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

class FoldConstantTest : public testing::Test {
 protected:
  static void SetUpTestSuite() { op::RegisterAllOps(); }
};

std::string ConstantMatrix(int size) {
  std::ostringstream text;
  text << "R.const([";
  for (int i = 0; i < size; ++i) {
    text << (i ? ", [" : "[");
    for (int j = 0; j < size; ++j) text << (j ? ", " : "") << ((i + j) % 3) << ".0";
    text << "]";
  }
  text << "], \"float32\")";
  return text.str();
}

// main() = matmul(A, A) with A a size x size constant.
std::string MatmulOfConstants(int size) {
  std::string type = "R.Tensor((" + std::to_string(size) + ", " + std::to_string(size) + "), dtype=\"float32\")";
  return "@I.ir_module\nclass Module:\n    @R.function\n    def main() -> " + type +
         ":\n        with R.dataflow():\n            a = " + ConstantMatrix(size) +
         "\n            gv = R.matmul(a, a)\n            R.output(gv)\n        return gv\n";
}

TEST_F(FoldConstantTest, SmallMatmulOfConstantsFolds) {
  ir::IRModule folded = FoldConstant()(text::ParseModuleText(MatmulOfConstants(8)));
  std::string printed = text::PrintModule(folded);
  EXPECT_EQ(printed.find("R.matmul"), std::string::npos) << printed;
}

TEST_F(FoldConstantTest, MatmulTooCostlyToInterpretIsLeftForRunTime) {
  // 420^3 multiply-adds: over the interpreter budget, although the output is
  // no larger than the inputs.
  ir::IRModule folded = FoldConstant()(text::ParseModuleText(MatmulOfConstants(420)));
  const auto* main = folded->Lookup("main").as<graph::FunctionNode>();
  ASSERT_NE(main, nullptr);
  bool has_matmul = false;
  graph::PostOrderVisit(main->body, [&](const graph::Expr& expr) {
    const auto* call = expr.as<graph::CallNode>();
    const auto* op = call ? call->op.as<graph::OpNode>() : nullptr;
    has_matmul = has_matmul || (op != nullptr && op->name == "relax.matmul");
  });
  EXPECT_TRUE(has_matmul);
}

}  // namespace
}  // namespace rlx::transform
