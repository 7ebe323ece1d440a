// Normalize on IR built by hand, which text cannot express because the
// parser normalizes as it reads (TVM's test_transform_normalize.py builds its
// inputs the same way). Results are compared with parsed expectations.
#include <gtest/gtest.h>

#include "rlx/graph/structural_equal.h"
#include "rlx/graph/well_formed.h"
#include "rlx/op/op.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::BindingBlock;
using graph::Expr;
using graph::Var;

class NormalizeTest : public testing::Test {
 protected:
  static void SetUpTestSuite() { op::RegisterAllOps(); }
};

ir::IRModule ModuleOf(const graph::Function& func, const std::string& name = "main") {
  return make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{{name, func}}, ir::Dict());
}

graph::StructInfo Tensor2D(ir::Var m, ir::Var n, DataType dtype) { return graph::TensorSInfo({m, n}, dtype); }

void ExpectEqualModules(const ir::IRModule& actual, const std::string& expected_text) {
  ir::IRModule expected = text::ParseModuleText(expected_text, "expected.py");
  std::optional<std::string> mismatch = graph::StructuralMismatch(actual, expected);
  EXPECT_FALSE(mismatch) << *mismatch << "\n--- actual:\n"
                         << text::PrintModule(actual) << "--- expected:\n"
                         << text::PrintModule(expected);
}

// TVM test_normalize_function: nested calls as the whole body.
TEST_F(NormalizeTest, NestedCallsBecomeBindings) {
  ir::Var m = ir::MakeVar("m");
  ir::Var n = ir::MakeVar("n");
  Var x = graph::MakeVar("x", Tensor2D(m, n, DataType::Float(16)));
  Expr body = op::multiply(op::add(x, x), op::add(x, x));
  auto func = make<graph::FunctionNode>(std::vector<Var>{x}, body, graph::TensorSInfo(DataType::Float(16), 2),
                                        true, ir::Dict(), /*is_private=*/true);
  ir::IRModule after = Normalize()(ModuleOf(func));
  graph::CheckWellFormed(after);
  ExpectEqualModules(after, R"(
@I.ir_module
class Module:
    @R.function(private=True)
    def main(x: R.Tensor(("m", "n"), dtype="float16")) -> R.Tensor(dtype="float16", ndim=2):
        m = T.int64()
        n = T.int64()
        gv: R.Tensor((m, n), dtype="float16") = R.add(x, x)
        gv1: R.Tensor((m, n), dtype="float16") = R.add(x, x)
        gv2: R.Tensor((m, n), dtype="float16") = R.multiply(gv, gv1)
        return gv2
)");
}

// TVM test_normalize_combine_nearby_blocks: [df][df][bindings][bindings].
TEST_F(NormalizeTest, AdjacentBlocksOfOneKindMerge) {
  graph::StructInfo scalar = graph::TensorSInfo(std::vector<ir::PrimExpr>{}, DataType::Int32());
  Var x = graph::MakeVar("x", scalar);
  Var v0 = graph::MakeVar("v0", scalar);
  Var v1 = graph::MakeVar("v1", scalar);
  Var v2 = graph::MakeVar("v2", scalar);
  Var v3 = graph::MakeVar("v3", scalar);
  auto bind = [](Var var, Expr value) { return graph::Binding(make<graph::VarBindingNode>(var, value)); };
  std::vector<BindingBlock> blocks = {
      make<graph::DataflowBlockNode>(std::vector<graph::Binding>{bind(v0, op::add(x, x))}),
      make<graph::DataflowBlockNode>(std::vector<graph::Binding>{bind(v1, op::add(v0, v0))}),
      make<graph::BindingBlockNode>(std::vector<graph::Binding>{}),
      make<graph::BindingBlockNode>(std::vector<graph::Binding>{bind(v2, op::add(v1, v1))}),
      make<graph::BindingBlockNode>(std::vector<graph::Binding>{bind(v3, op::add(v2, v2))}),
  };
  auto body = make<graph::SeqExprNode>(blocks, v3);
  auto func = make<graph::FunctionNode>(std::vector<Var>{x}, body, scalar, true, ir::Dict(), /*is_private=*/true);
  ir::IRModule after = Normalize()(ModuleOf(func));
  graph::CheckWellFormed(after);
  const auto* seq = cast<graph::FunctionNode>(after->Lookup("main"))->body.as<graph::SeqExprNode>();
  ASSERT_NE(seq, nullptr);
  ASSERT_EQ(seq->blocks.size(), 2u);
  EXPECT_TRUE(seq->blocks[0]->is_dataflow());
  EXPECT_EQ(seq->blocks[0]->bindings.size(), 2u);
  EXPECT_FALSE(seq->blocks[1]->is_dataflow());
  EXPECT_EQ(seq->blocks[1]->bindings.size(), 2u);
  EXPECT_TRUE(seq->blocks[0]->bindings[0]->var.same_as(v0));  // variables keep their identity
}

// TVM test_normalize_if_branches: branches that are bare calls.
TEST_F(NormalizeTest, IfBranchesBecomeSeqExprs) {
  graph::StructInfo scalar = graph::TensorSInfo(std::vector<ir::PrimExpr>{}, DataType::Int32());
  Var cond = graph::MakeVar("cond", graph::TensorSInfo(std::vector<ir::PrimExpr>{}, DataType::Bool()));
  Var x = graph::MakeVar("x", scalar);
  Var y = graph::MakeVar("y", scalar);
  Var z = graph::MakeVar("z", nullptr);
  auto if_node = make<graph::IfNode>(cond, op::add(x, y), op::multiply(x, y));
  auto binding = graph::Binding(make<graph::VarBindingNode>(z, if_node));
  auto body = make<graph::SeqExprNode>(
      std::vector<BindingBlock>{make<graph::BindingBlockNode>(std::vector<graph::Binding>{binding})}, z);
  auto func = make<graph::FunctionNode>(std::vector<Var>{cond, x, y}, body, scalar, true, ir::Dict(), true);
  ir::IRModule after = Normalize()(ModuleOf(func));
  graph::CheckWellFormed(after);
  ExpectEqualModules(after, R"(
@I.ir_module
class Module:
    @R.function(private=True)
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor((), dtype="int32"),
             y: R.Tensor((), dtype="int32")) -> R.Tensor((), dtype="int32"):
        if cond:
            w = R.add(x, y)
            z = w
        else:
            w = R.multiply(x, y)
            z = w
        return z
)");
}

TEST_F(NormalizeTest, NormalizedModuleIsReturnedAsIs) {
  ir::IRModule mod = text::ParseModuleText(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        with R.dataflow():
            lv = R.add(x, x)
            gv = R.multiply(lv, x)
            R.output(gv)
        return gv
)");
  EXPECT_TRUE(Normalize()(mod).same_as(mod));
}

}  // namespace
}  // namespace rlx::transform
