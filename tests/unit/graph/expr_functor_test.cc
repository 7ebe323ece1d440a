// Tests for graph/expr_functor.h: what ExprVisitor reaches, PostOrderVisit
// order, identity of ExprMutatorBase / ExprMutator when nothing changes, and
// ExprMutator re-emitting changed bindings with fresh, remapped variables
// whose struct info the BlockBuilder re-deduces.
#include "rlx/graph/expr_functor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rlx/graph/block_builder.h"
#include "rlx/graph/well_formed.h"
#include "rlx/ir/functor.h"
#include "rlx/op/op.h"

namespace rlx::graph {
namespace {

using ir::MakeInt;

const DataType kF32 = DataType::Float32();

// def main(x: R.Tensor((n, 4), "float32")) -> R.Tensor(ndim=2, "float32"):
//   with R.dataflow():
//     lv0 = R.add(x, x)
//     lv1 = R.match_cast(lv0, R.Tensor((m, 4), "float32"))
//     gv = R.exp(lv1)
//     R.output(gv)
//   return gv
struct MainFunc {
  ir::Var n = ir::MakeVar("n");
  ir::Var m = ir::MakeVar("m");
  Var x;
  Var lv0;
  Var lv1;
  Var gv;
  Function func;

  MainFunc() {
    op::RegisterAllOps();
    x = MakeVar("x", TensorSInfo({n, MakeInt(4)}, kF32));
    BlockBuilder bb;
    bb.BeginScope({x});
    bb.BeginDataflowBlock();
    lv0 = bb.Emit(op::add(x, x), "lv0");
    lv1 = bb.EmitMatchCast(lv0, TensorSInfo({m, MakeInt(4)}, kF32), "lv1");
    gv = bb.EmitOutput(op::exp(lv1), "gv");
    BindingBlock block = bb.EndBlock();
    bb.EndScope();
    Expr body = make<SeqExprNode>(std::vector<BindingBlock>{block}, gv);
    func = cast<FunctionNode>(bb.Normalize(make<FunctionNode>(std::vector<Var>{x}, body, TensorSInfo(kF32, 2))));
  }

  const SeqExprNode* body() const { return func->body.as<SeqExprNode>(); }
};

// The bindings of the first block of `func`'s body.
const std::vector<Binding>& Bindings(const Expr& func) {
  return cast<FunctionNode>(func)->body.as<SeqExprNode>()->blocks.at(0)->bindings;
}

// The well-formedness diagnostics of a module holding `func` as "main".
std::vector<std::string> WellFormedMessages(const Expr& func) {
  std::vector<std::string> messages;
  auto mod = make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{{"main", func}}, nullptr);
  for (const Diagnostic& diag : WellFormedDiagnostics(mod)) messages.push_back(diag.message);
  return messages;
}

std::string OpName(const Expr& call) { return call.as<CallNode>()->op.as<OpNode>()->name; }

// Records what the visitor reaches.
class RecordingVisitor : public ExprVisitor {
 public:
  std::vector<std::string> defs;
  std::vector<std::string> uses;
  std::vector<std::string> prim_vars;
  std::vector<std::string> calls;

  void VisitPrimExpr(const PrimExpr& expr) override {
    ir::PostOrderVisit(expr, [this](const PrimExpr& e) {
      if (const auto* var = e.as<ir::VarNode>()) prim_vars.push_back(var->name_hint);
    });
  }

 protected:
  void VisitVarDef_(const VarNode* var) override { defs.push_back(var->name_hint); }
  void VisitExpr_(const VarNode* op, const Expr& self) override {
    uses.push_back(op->name_hint);
    ExprVisitor::VisitExpr_(op, self);
  }
  void VisitExpr_(const CallNode* op, const Expr& self) override {
    calls.push_back(op->op.as<OpNode>()->name);
    ExprVisitor::VisitExpr_(op, self);
  }
};

int Count(const std::vector<std::string>& items, const std::string& item) {
  return static_cast<int>(std::count(items.begin(), items.end(), item));
}

TEST(ExprVisitorTest, VisitsDefinitionsUsesAndStructInfo) {
  MainFunc main;
  RecordingVisitor visitor;
  visitor.VisitExpr(main.func);
  EXPECT_EQ(visitor.defs, (std::vector<std::string>{"x", "lv0", "lv1", "gv"}));
  EXPECT_EQ(Count(visitor.uses, "x"), 2);
  EXPECT_EQ(Count(visitor.uses, "lv0"), 1);
  EXPECT_EQ(Count(visitor.uses, "lv1"), 1);
  EXPECT_EQ(Count(visitor.uses, "gv"), 1);
  EXPECT_EQ(visitor.calls, (std::vector<std::string>{"relax.add", "relax.exp"}));
  // Struct info reaches VisitPrimExpr: n from the add's (and x's) struct
  // info, m from the match_cast pattern and the later uses.
  EXPECT_GT(Count(visitor.prim_vars, "n"), 0);
  EXPECT_GT(Count(visitor.prim_vars, "m"), 0);
}

TEST(ExprVisitorTest, DataflowVarUsesGoThroughVarHook) {
  MainFunc main;
  ASSERT_TRUE(main.lv0.isa<DataflowVarNode>());
  RecordingVisitor visitor;
  visitor.VisitExpr(main.body()->blocks[0]->bindings[1].as<MatchCastNode>()->value);
  EXPECT_EQ(visitor.uses, std::vector<std::string>{"lv0"});
}

TEST(PostOrderVisitTest, ChildrenBeforeParents) {
  MainFunc main;
  std::vector<const Node*> order;
  PostOrderVisit(main.func, [&](const Expr& expr) { order.push_back(expr.get()); });
  auto position = [&](const ObjectRef& node) {
    return std::find(order.begin(), order.end(), node.get()) - order.begin();
  };
  ASSERT_FALSE(order.empty());
  EXPECT_EQ(order.back(), main.func.get());
  const Expr& add_call = Bindings(main.func)[0].as<VarBindingNode>()->value;
  EXPECT_LT(position(main.x), position(add_call));
  EXPECT_LT(position(add_call), position(main.func->body));
  EXPECT_LT(position(main.func->body), position(main.func));
}

TEST(ExprMutatorBaseTest, NoChangeReturnsSameNodes) {
  MainFunc main;
  ExprMutatorBase mutator;
  EXPECT_TRUE(mutator.VisitExpr(main.func).same_as(main.func));
}

// Replaces the symbolic variable `from` by a constant in every PrimExpr.
class SymbolicSubstituter : public ExprMutatorBase {
 public:
  SymbolicSubstituter(ir::Var from, int64_t to) : from_(std::move(from)), to_(to) {}
  PrimExpr VisitPrimExpr(const PrimExpr& expr) override {
    return ir::Substitute(expr, [this](const ir::Var& v) { return v.same_as(from_) ? MakeInt(to_) : PrimExpr(); });
  }

 private:
  ir::Var from_;
  int64_t to_;
};

TEST(ExprMutatorBaseTest, RebuildsOnlyWhatChanged) {
  ir::Var n = ir::MakeVar("n");
  Var x = MakeVar("x", TensorSInfo({MakeInt(2)}, kF32));
  Expr shape = make<ShapeExprNode>(std::vector<PrimExpr>{n, MakeInt(4)});
  Expr tuple = make<TupleNode>(std::vector<Expr>{shape, x});
  Expr result = SymbolicSubstituter(n, 8).VisitExpr(tuple);
  ASSERT_FALSE(result.same_as(tuple));
  const auto* rebuilt = result.as<TupleNode>();
  ASSERT_NE(rebuilt, nullptr);
  EXPECT_TRUE(rebuilt->fields[1].same_as(x));
  const auto* new_shape = rebuilt->fields[0].as<ShapeExprNode>();
  ASSERT_NE(new_shape, nullptr);
  EXPECT_TRUE(ir::IsConstInt(new_shape->values[0], 8));
  // A rebuilt tuple gets its struct info from its fields.
  EXPECT_EQ(ToString(rebuilt->struct_info), "Tuple(Shape([8, 4]), Tensor((2,), float32))");
  // Nothing to replace: the same node comes back.
  EXPECT_TRUE(SymbolicSubstituter(ir::MakeVar("k"), 8).VisitExpr(tuple).same_as(tuple));
}

TEST(ExprMutatorTest, NoChangeReturnsSameFunction) {
  MainFunc main;
  EXPECT_EQ(WellFormedMessages(main.func), std::vector<std::string>{});
  ExprMutator mutator;
  EXPECT_TRUE(mutator.VisitExpr(main.func).same_as(main.func));
}

// Rewrites R.add into R.multiply.
class AddToMultiply : public ExprMutator {
 protected:
  using ExprMutator::VisitExpr_;
  Expr VisitExpr_(const CallNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* call = visited.as<CallNode>();
    if (const auto* callee = call->op.as<OpNode>(); callee && callee->name == "relax.add") {
      return op::multiply(call->args[0], call->args[1]);
    }
    return visited;
  }
};

TEST(ExprMutatorTest, ChangedBindingGetsFreshRemappedVar) {
  MainFunc main;
  Expr result = AddToMultiply().VisitExpr(main.func);
  ASSERT_FALSE(result.same_as(main.func));
  const std::vector<Binding>& bindings = Bindings(result);
  ASSERT_EQ(bindings.size(), 3u);

  const auto* first = bindings[0].as<VarBindingNode>();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(OpName(first->value), "relax.multiply");
  EXPECT_FALSE(first->var.same_as(main.lv0));
  EXPECT_EQ(first->var->name_hint, "lv0");
  EXPECT_TRUE(first->var.isa<DataflowVarNode>());
  EXPECT_EQ(ToString(first->var->struct_info), "Tensor((n, 4), float32)");

  // Later uses refer to the new variable, and their bindings are re-emitted.
  const auto* second = bindings[1].as<MatchCastNode>();
  ASSERT_NE(second, nullptr);
  EXPECT_TRUE(second->value.same_as(first->var));
  EXPECT_FALSE(second->var.same_as(main.lv1));
  const auto* third = bindings[2].as<VarBindingNode>();
  ASSERT_NE(third, nullptr);
  EXPECT_TRUE(third->value.as<CallNode>()->args[0].same_as(second->var));
  EXPECT_FALSE(third->var.isa<DataflowVarNode>());  // still an output
  EXPECT_TRUE(cast<FunctionNode>(result)->body.as<SeqExprNode>()->body.same_as(third->var));
  // The parameter did not change.
  EXPECT_TRUE(cast<FunctionNode>(result)->params[0].same_as(main.x));
  EXPECT_EQ(WellFormedMessages(result), std::vector<std::string>{});
}

// Rewrites R.exp(t) into R.sum(t, axis=[1]): a different shape.
class ExpToSum : public ExprMutator {
 protected:
  using ExprMutator::VisitExpr_;
  Expr VisitExpr_(const CallNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* call = visited.as<CallNode>();
    if (const auto* callee = call->op.as<OpNode>(); callee && callee->name == "relax.exp") {
      return op::sum(call->args[0], std::vector<int64_t>{1});
    }
    return visited;
  }
};

TEST(ExprMutatorTest, StructInfoIsReDeduced) {
  MainFunc main;
  Expr result = ExpToSum().VisitExpr(main.func);
  const std::vector<Binding>& bindings = Bindings(result);
  ASSERT_EQ(bindings.size(), 3u);
  EXPECT_TRUE(bindings[0].same_as(Bindings(main.func)[0]));  // unchanged bindings are kept
  EXPECT_TRUE(bindings[1].same_as(Bindings(main.func)[1]));
  EXPECT_EQ(ToString(bindings[2]->var->struct_info), "Tensor((m,), float32)");
  // The old annotation Tensor(ndim=2) is contradicted: the body's (erased) wins.
  EXPECT_EQ(ToString(cast<FunctionNode>(result)->ret_struct_info), "Tensor(ndim=1, float32)");
  EXPECT_EQ(WellFormedMessages(result), std::vector<std::string>{});
}

// Replaces the symbolic variable `from` by a constant everywhere.
class SymbolicRewriter : public ExprMutator {
 public:
  SymbolicRewriter(ir::Var from, int64_t to) : from_(std::move(from)), to_(to) {}
  PrimExpr VisitPrimExpr(const PrimExpr& expr) override {
    return ir::Substitute(expr, [this](const ir::Var& v) { return v.same_as(from_) ? MakeInt(to_) : PrimExpr(); });
  }

 private:
  ir::Var from_;
  int64_t to_;
};

TEST(ExprMutatorTest, ParameterStructInfoMutationRemapsUses) {
  MainFunc main;
  Expr result = SymbolicRewriter(main.n, 8).VisitExpr(main.func);
  const auto* func = result.as<FunctionNode>();
  ASSERT_NE(func, nullptr);
  const Var& param = func->params[0];
  EXPECT_FALSE(param.same_as(main.x));
  EXPECT_EQ(param->name_hint, "x");
  EXPECT_EQ(ToString(param->struct_info), "Tensor((8, 4), float32)");
  const auto* first = Bindings(result)[0].as<VarBindingNode>();
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(first->value.as<CallNode>()->args[0].same_as(param));
  EXPECT_EQ(ToString(first->var->struct_info), "Tensor((8, 4), float32)");
  EXPECT_EQ(WellFormedMessages(result), std::vector<std::string>{});
}

// def f(c: R.Prim("bool"), x: R.Tensor((n, 4))):
//   y = R.If(c, {a = R.add(x, x); a}, {b = R.exp(x); b})
//   return y
TEST(ExprMutatorTest, IfBranchesAreVisitedInTheirOwnScope) {
  op::RegisterAllOps();
  ir::Var n = ir::MakeVar("n");
  Var c = MakeVar("c", PrimSInfo(DataType::Bool()));
  Var x = MakeVar("x", TensorSInfo({n, MakeInt(4)}, kF32));
  Var a = MakeVar("a", nullptr);
  Var b = MakeVar("b", nullptr);
  Var y = MakeVar("y", nullptr);
  auto branch = [](Var var, Expr value) -> Expr {
    Binding binding = make<VarBindingNode>(var, std::move(value));
    return make<SeqExprNode>(std::vector<BindingBlock>{make<BindingBlockNode>(std::vector<Binding>{binding})}, var);
  };
  Expr if_expr = make<IfNode>(c, branch(a, op::add(x, x)), branch(b, op::exp(x)));
  Binding y_binding = make<VarBindingNode>(y, if_expr);
  Expr body = make<SeqExprNode>(std::vector<BindingBlock>{make<BindingBlockNode>(std::vector<Binding>{y_binding})}, y);
  BlockBuilder bb;
  Expr func = bb.Normalize(make<FunctionNode>(std::vector<Var>{c, x}, body, TensorSInfo(kF32, 2)));

  EXPECT_TRUE(ExprMutator().VisitExpr(func).same_as(func));

  Expr result = AddToMultiply().VisitExpr(func);
  const auto* if_binding = Bindings(result)[0].as<VarBindingNode>();
  ASSERT_NE(if_binding, nullptr);
  EXPECT_FALSE(if_binding->var.same_as(y));
  const auto* new_if = if_binding->value.as<IfNode>();
  ASSERT_NE(new_if, nullptr);
  const auto* true_seq = new_if->true_branch.as<SeqExprNode>();
  ASSERT_NE(true_seq, nullptr);
  const auto* true_binding = true_seq->blocks.at(0)->bindings.at(0).as<VarBindingNode>();
  EXPECT_EQ(OpName(true_binding->value), "relax.multiply");
  EXPECT_TRUE(true_seq->body.same_as(true_binding->var));
  // The untouched branch is the very same node.
  EXPECT_TRUE(new_if->false_branch.same_as(func.as<FunctionNode>()->body.as<SeqExprNode>()->blocks[0]
                                               ->bindings[0].as<VarBindingNode>()->value.as<IfNode>()->false_branch));
  EXPECT_EQ(ToString(if_binding->var->struct_info), "Tensor((n, 4), float32)");
  EXPECT_EQ(WellFormedMessages(result), std::vector<std::string>{});
}

}  // namespace
}  // namespace rlx::graph
