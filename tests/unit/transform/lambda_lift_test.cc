// LambdaLift on a recursive local function. The text format cannot express
// a local function that calls itself (the parser defines the function's
// variable only after its body), so the input is built with the
// BlockBuilder; the expected module is text.
#include <gtest/gtest.h>

#include "rlx/graph/block_builder.h"
#include "rlx/graph/structural_equal.h"
#include "rlx/op/op.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Expr;
using graph::StructInfo;
using graph::Var;

class LambdaLiftTest : public testing::Test {
 protected:
  static void SetUpTestSuite() { op::RegisterAllOps(); }
};

StructInfo Tensor23() {
  return graph::TensorSInfo({ir::MakeInt(2, DataType::Int64()), ir::MakeInt(3, DataType::Int64())},
                            DataType::Float32());
}
StructInfo ScalarInt32() { return graph::TensorSInfo(std::vector<ir::PrimExpr>{}, DataType::Int32()); }

// main(x, i0):
//   while_loop = fn(i, s) { new_s = add(s, x); r = while_loop(i, new_s); r }
//   gv = while_loop(i0, x)
ir::IRModule RecursiveLocalFunction() {
  Var x = graph::MakeVar("x", Tensor23());
  Var i0 = graph::MakeVar("i0", ScalarInt32());
  Var loop = graph::MakeVar("while_loop", make<graph::FuncStructInfoNode>(
                                              std::vector<StructInfo>{ScalarInt32(), Tensor23()}, Tensor23()));
  Var i = graph::MakeVar("i", ScalarInt32());
  Var s = graph::MakeVar("s", Tensor23());
  graph::BlockBuilder builder;
  builder.BeginScope({x, i0});
  builder.BeginBindingBlock();

  builder.BeginScope({i, s});
  builder.BeginBindingBlock();
  Var new_s = builder.Emit(graph::MakeCall("relax.add", {s, x}), "new_s");
  Var r = builder.Emit(make<graph::CallNode>(loop, std::vector<Expr>{i, new_s}), "r");
  graph::BindingBlock inner_block = builder.EndBlock();
  builder.EndScope();
  Expr inner_body = make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{inner_block}, r);
  Expr inner = make<graph::FunctionNode>(std::vector<Var>{i, s}, inner_body, Tensor23());
  builder.EmitWithVar(loop, inner);

  Var gv = builder.Emit(make<graph::CallNode>(loop, std::vector<Expr>{i0, x}), "gv");
  graph::BindingBlock outer_block = builder.EndBlock();
  builder.EndScope();
  Expr body = make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{outer_block}, gv);
  ir::Dict attrs = ir::DictWith(nullptr, "global_symbol", ir::MakeString("main"));
  Expr main = builder.Normalize(make<graph::FunctionNode>(std::vector<Var>{x, i0}, body, Tensor23(), true, attrs));
  return ir::WithFunction(make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{}, nullptr), "main", main);
}

constexpr const char* kExpected = R"(
@I.ir_module
class Expected:
    @R.function(private=True)
    def main_while_loop(i: R.Tensor((), dtype="int32"), s: R.Tensor((2, 3), dtype="float32"), x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Expected
        new_s = R.add(s, x)
        r = cls.main_while_loop(i, new_s, x)
        return r

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), i0: R.Tensor((), dtype="int32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Expected
        while_loop = R.make_closure(cls.main_while_loop, (x,))
        gv = R.invoke_pure_closure(while_loop, (i0, x), sinfo_args=(R.Tensor((2, 3), dtype="float32"),))
        return gv
)";

TEST_F(LambdaLiftTest, RecursiveLocalFunctionCallsItsLiftedSelfWithCaptures) {
  ir::IRModule after = LambdaLift()(RecursiveLocalFunction());
  ir::IRModule expected = text::ParseModuleText(kExpected);
  std::optional<std::string> mismatch = graph::StructuralMismatch(after, expected);
  EXPECT_FALSE(mismatch.has_value()) << *mismatch << "\n--- after:\n" << text::PrintModule(after);
}

// The closure's struct info leaves out the captured (last) parameters.
TEST_F(LambdaLiftTest, ClosureTypeDropsTheCapturedParameters) {
  ir::IRModule after = LambdaLift()(RecursiveLocalFunction());
  const auto* main = after->Lookup("main").as<graph::FunctionNode>();
  ASSERT_NE(main, nullptr);
  const auto* seq = main->body.as<graph::SeqExprNode>();
  ASSERT_NE(seq, nullptr);
  const graph::Binding& closure = seq->blocks.at(0)->bindings.at(0);
  const auto* finfo = graph::GetStructInfo(closure->var).as<graph::FuncStructInfoNode>();
  ASSERT_NE(finfo, nullptr);
  ASSERT_TRUE(finfo->params.has_value());
  ASSERT_EQ(finfo->params->size(), 2u);
  EXPECT_TRUE(graph::StructuralEqual((*finfo->params)[0], ScalarInt32()));
  EXPECT_TRUE(graph::StructuralEqual((*finfo->params)[1], Tensor23()));
}

}  // namespace
}  // namespace rlx::transform
