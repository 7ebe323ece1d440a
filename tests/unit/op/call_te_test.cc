// op::CallTE / CallTEMulti / AddPrimFuncShared on operators defined by the
// test itself: a two-output op (tuple out_sinfo), a symbolic PrimValue that
// becomes a tir_var, sharing and TVM-like renaming of PrimFuncs.
#include <gtest/gtest.h>

#include "legalize_test_util.h"
#include "rlx/graph/block_builder.h"
#include "rlx/graph/op_registry.h"
#include "rlx/graph/structural_equal.h"
#include "rlx/op/legalize.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();

// "relax.test.halves"(x: (n, 2k)) -> ((n, k), (n, k)): the left and right
// halves of the last dimension.
graph::StructInfo InferHalves(const graph::Call& call, graph::BlockBuilder&) {
  auto x = cast<graph::TensorStructInfoNode>(graph::GetStructInfo(call->args[0]));
  std::vector<PrimExpr> shape = x->GetShape().value();
  shape.back() = ir::floordiv(shape.back(), 2);
  graph::StructInfo half = graph::TensorSInfo(shape, x->dtype);
  return graph::TupleSInfo({half, half});
}

// "relax.test.shift"(x, offset: Prim) -> x + offset.
graph::StructInfo InferShift(const graph::Call& call, graph::BlockBuilder&) {
  return graph::GetStructInfo(call->args[0]);
}

// "relax.test.stack_rows"((a: (n, 2), b: (m, 2))) -> (n + m, 2).
graph::StructInfo InferStackRows(const graph::Call& call, graph::BlockBuilder&) {
  auto tuple = cast<graph::TupleStructInfoNode>(graph::GetStructInfo(call->args[0]));
  auto a = cast<graph::TensorStructInfoNode>(tuple->fields[0]);
  auto b = cast<graph::TensorStructInfoNode>(tuple->fields[1]);
  return graph::TensorSInfo({a->GetShape().value()[0] + b->GetShape().value()[0], ir::MakeInt(2)}, a->dtype);
}

void RegisterTestOps() {
  static bool done = false;
  if (done) return;
  done = true;
  op::RegisterAllOps();
  graph::OpInfo halves;
  halves.name = "relax.test.halves";
  halves.script_name = "R.test.halves";
  halves.args = {"x"};
  halves.infer = InferHalves;
  halves.legalize = [](graph::BlockBuilder& builder, const graph::Call& call) -> graph::Expr {
    return op::CallTEMulti(builder, call, "halves", [](const op::TEArgs& args) {
      const te::Tensor& x = args[0].tensor();
      PrimExpr half = ir::floordiv(x.shape()[1], 2);
      te::Tensor left = te::Compute({x.shape()[0], half}, [&](const std::vector<ir::Var>& i) { return x(i[0], i[1]); },
                                    "left");
      te::Tensor right = te::Compute(
          {x.shape()[0], half}, [&](const std::vector<ir::Var>& i) { return x(i[0], i[1] + half); }, "right");
      return std::vector<te::Tensor>{left, right};
    });
  };
  graph::RegisterOp(halves);
  graph::OpInfo shift;
  shift.name = "relax.test.shift";
  shift.script_name = "R.test.shift";
  shift.args = {"x", "offset"};
  shift.infer = InferShift;
  shift.legalize = [](graph::BlockBuilder& builder, const graph::Call& call) -> graph::Expr {
    return op::CallTE(builder, call, "shift", [](const op::TEArgs& args) {
      const te::Tensor& x = args[0].tensor();
      return te::Compute(
          x.shape(),
          [&](const std::vector<ir::Var>& i) { return x(i) + ir::cast(x.dtype(), args[1].prim()); }, "shifted");
    });
  };
  graph::RegisterOp(shift);
  graph::OpInfo stack;
  stack.name = "relax.test.stack_rows";
  stack.script_name = "R.test.stack_rows";
  stack.args = {"tensors"};
  stack.infer = InferStackRows;
  stack.legalize = [](graph::BlockBuilder& builder, const graph::Call& call) -> graph::Expr {
    return op::CallTE(builder, call, "stack_rows", [](const op::TEArgs& args) {
      const te::Tensor& a = args[0].tensors()[0];
      const te::Tensor& b = args[0].tensors()[1];
      PrimExpr rows = a.shape()[0];
      return te::Compute(
          {rows + b.shape()[0], ir::MakeInt(2)},
          [&](const std::vector<ir::Var>& i) {
            return te::IfThenElse(ir::lt(i[0], rows), a(ir::min(i[0], rows - 1), i[1]),
                                  b(ir::max(i[0] - rows, ir::MakeInt(0)), i[1]));
          },
          "stacked");
    });
  };
  graph::RegisterOp(stack);
}

TEST(CallTETest, TupleOutputs) {
  RegisterTestOps();
  LegalizedOp op = LegalizeModuleText(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 6), dtype="float32")):
        gv = R.test.halves(x)
        return gv
)");
  ASSERT_TRUE(op.func.defined());
  const auto* out = op.call->sinfo_args[0].as<graph::TupleStructInfoNode>();
  ASSERT_NE(out, nullptr) << "out_sinfo should be a tuple";
  EXPECT_EQ(out->fields.size(), 2u);
  EXPECT_EQ(op.func->params.size(), 3u);  // x, left, right
  for (int64_t n : {1, 4}) {
    tir::HostTensor x = RandomTensor(kF32, {n, 6}, 3);
    std::vector<tir::HostTensor> outs = RunLegalizedMulti(op, {x}, {{"n", n}});
    ASSERT_EQ(outs.size(), 2u);
    std::vector<double> left, right;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < 3; ++j) {
        left.push_back(x.At({i, j}));
        right.push_back(x.At({i, j + 3}));
      }
    }
    ExpectTensorNear(outs[0], {n, 3}, left, 0, 0, "left");
    ExpectTensorNear(outs[1], {n, 3}, right, 0, 0, "right");
  }
}

TEST(CallTETest, SymbolicPrimValueBecomesTirVar) {
  RegisterTestOps();
  LegalizedOp op = LegalizeModuleText(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), s: R.Shape(["k"])):
        k = T.int64()
        gv = R.test.shift(x, R.prim_value(k * 2))
        return gv
)");
  ASSERT_TRUE(op.func.defined());
  ASSERT_EQ(op.call->args.size(), 3u) << "expected tir_vars";
  const auto* tir_vars = op.call->args[2].as<graph::ShapeExprNode>();
  ASSERT_NE(tir_vars, nullptr);
  ASSERT_EQ(tir_vars->values.size(), 1u);
  EXPECT_EQ(cast<ir::VarNode>(tir_vars->values[0])->name_hint, "k");
  tir::HostTensor x = tir::HostTensor::FromDoubles(kF32, {3}, {1, 2, 3});
  ExpectTensorNear(RunLegalized(op, {x}, {{"n", 3}, {"k", 5}}), {3}, {11, 12, 13}, 0, 0, "shift");
}

// A tuple argument: each field becomes its own call_tir input, whether the
// tuple is written out or held by a variable.
TEST(CallTETest, TupleArgumentFieldsBecomeInputs) {
  RegisterTestOps();
  for (const char* body : {"gv = R.test.stack_rows((a, b))", "t = (a, b)\n        gv = R.test.stack_rows(t)"}) {
    SCOPED_TRACE(body);
    LegalizedOp op = LegalizeModuleText(std::string(R"(
@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor(("n", 2), dtype="float32"), b: R.Tensor(("m", 2), dtype="float32")):
        )") + body + "\n        return gv\n");
    ASSERT_TRUE(op.func.defined());
    EXPECT_EQ(op.func->params.size(), 3u);
    EXPECT_TRUE(graph::WellFormedDiagnostics(op.mod).empty()) << "the module must stay well-formed";
    tir::HostTensor a = RandomTensor(kF32, {3, 2}, 1), b = RandomTensor(kF32, {1, 2}, 2);
    std::vector<double> expected = a.ToDoubles();
    for (double v : b.ToDoubles()) expected.push_back(v);
    ExpectTensorNear(RunLegalized(op, {a, b}, {{"n", 3}, {"m", 1}}), {4, 2}, expected, 0, 0, "stack_rows");
  }
}

TEST(CallTETest, AddPrimFuncSharedReusesAndRenames) {
  RegisterTestOps();
  auto make_func = [](int64_t size) {
    te::Tensor a = te::Placeholder({ir::MakeInt(size)}, kF32, "A");
    te::Tensor b = te::Compute({ir::MakeInt(size)}, [&](const std::vector<ir::Var>& i) { return a(i) * a(i); }, "B");
    return te::CreatePrimFunc({a, b});
  };
  graph::BlockBuilder builder(make<ir::IRModuleNode>());
  graph::GlobalVar first = op::AddPrimFuncShared(builder, make_func(4), "square");
  graph::GlobalVar again = op::AddPrimFuncShared(builder, make_func(4), "square");
  graph::GlobalVar other = op::AddPrimFuncShared(builder, make_func(5), "square");
  graph::GlobalVar third = op::AddPrimFuncShared(builder, make_func(6), "square");
  EXPECT_EQ(first->name_hint, "square");
  EXPECT_EQ(again->name_hint, "square") << "a structurally equal PrimFunc is shared";
  EXPECT_EQ(other->name_hint, "square1");
  EXPECT_EQ(third->name_hint, "square2");
  EXPECT_EQ(builder.GetContextModule()->functions.size(), 3u);
  EXPECT_EQ(op::AddPrimFuncShared(builder, make_func(5), "square")->name_hint, "square1");
}

}  // namespace
}  // namespace rlx::op_test
