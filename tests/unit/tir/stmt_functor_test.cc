// Tests for tir/stmt_functor.h: the visitor reaches every statement,
// expression and buffer; the mutator keeps identity when nothing changes and
// rebuilds only the changed path; PostOrderVisit and Substitute.
#include "rlx/tir/stmt_functor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace rlx::tir {
namespace {

using ir::MakeInt;
using ir::MakeVar;

// The relu loop nest of the primer:
//   for i in range(n): for j in range(4):
//     with T.block("relu"): vi, vj = remap(i, j)
//       Y[vi, vj] = max(X[vi, vj], 0.0)
struct ReluNest {
  Var n = MakeVar("n");
  Var i = MakeVar("i");
  Var j = MakeVar("j");
  Var vi = MakeVar("vi");
  Var vj = MakeVar("vj");
  Buffer x = ir::MakeBuffer("X", {n, MakeInt(4)}, DataType::Float32());
  Buffer y = ir::MakeBuffer("Y", {n, MakeInt(4)}, DataType::Float32());
  Stmt store;
  Block block;
  Stmt realize;
  Stmt inner_loop;
  Stmt outer_loop;

  ReluNest() {
    PrimExpr load = make<ir::BufferLoadNode>(x, std::vector<PrimExpr>{vi, vj});
    store = make<BufferStoreNode>(y, ir::max(load, ir::MakeFloat(0.0)), std::vector<PrimExpr>{vi, vj});

    auto* block_node = new BlockNode();
    block_node->name = "relu";
    block_node->iter_vars = {make<IterVarNode>(vi, Range{MakeInt(0), n}, IterKind::kSpatial),
                             make<IterVarNode>(vj, Range{MakeInt(0), MakeInt(4)}, IterKind::kSpatial)};
    block_node->reads = {make<BufferRegionNode>(x, std::vector<Range>{{vi, MakeInt(1)}, {vj, MakeInt(1)}})};
    block_node->writes = {make<BufferRegionNode>(y, std::vector<Range>{{vi, MakeInt(1)}, {vj, MakeInt(1)}})};
    block_node->body = store;
    block = Block(block_node);

    auto* realize_node = new BlockRealizeNode();
    realize_node->iter_values = {i, j};
    realize_node->predicate = ir::MakeBool(true);
    realize_node->block = block;
    realize = Stmt(realize_node);

    inner_loop = MakeFor(j, MakeInt(4), realize);
    outer_loop = MakeFor(i, n, inner_loop);
  }

  static Stmt MakeFor(Var var, PrimExpr extent, Stmt body) {
    auto* node = new ForNode();
    node->loop_var = std::move(var);
    node->min = MakeInt(0);
    node->extent = std::move(extent);
    node->body = std::move(body);
    return Stmt(node);
  }
};

// Records what the visitor reaches.
class RecordingVisitor : public StmtVisitor {
 public:
  std::vector<NodeKind> stmts;
  std::vector<std::string> vars;
  std::vector<std::string> buffer_uses;
  std::vector<std::string> buffer_defs;

  void VisitStmt(const Stmt& stmt) override {
    stmts.push_back(stmt->kind());
    StmtVisitor::VisitStmt(stmt);
  }
  void VisitPrimExpr(const PrimExpr& expr) override {
    ir::PostOrderVisit(expr, [this](const PrimExpr& e) {
      if (const auto* var = e.as<ir::VarNode>()) vars.push_back(var->name_hint);
    });
    StmtVisitor::VisitPrimExpr(expr);
  }
  void VisitBufferUse(const Buffer& buffer) override { buffer_uses.push_back(buffer->name); }
  void VisitBufferDef(const Buffer& buffer) override {
    buffer_defs.push_back(buffer->name);
    StmtVisitor::VisitBufferDef(buffer);
  }
};

int Count(const std::vector<std::string>& items, const std::string& item) {
  return static_cast<int>(std::count(items.begin(), items.end(), item));
}

TEST(StmtVisitorTest, ReachesEveryStatementInOrder) {
  ReluNest nest;
  RecordingVisitor visitor;
  visitor.VisitStmt(nest.outer_loop);
  std::vector<NodeKind> expected = {NodeKind::kFor, NodeKind::kFor, NodeKind::kBlockRealize, NodeKind::kBlock,
                                    NodeKind::kBufferStore};
  EXPECT_EQ(visitor.stmts, expected);
}

TEST(StmtVisitorTest, ReachesExpressionsAndBufferLoads) {
  ReluNest nest;
  RecordingVisitor visitor;
  visitor.VisitStmt(nest.outer_loop);
  // n: outer extent and vi's domain; i, j: iter values; vi: region, load, store index.
  EXPECT_EQ(Count(visitor.vars, "n"), 2);
  EXPECT_EQ(Count(visitor.vars, "i"), 1);
  EXPECT_EQ(Count(visitor.vars, "vi"), 4);
  // X: read region + the load inside the stored value; Y: write region + the store.
  EXPECT_EQ(Count(visitor.buffer_uses, "X"), 2);
  EXPECT_EQ(Count(visitor.buffer_uses, "Y"), 2);
  EXPECT_TRUE(visitor.buffer_defs.empty());
}

TEST(StmtVisitorTest, BufferDefinitionsAndOptionalFields) {
  Var n = MakeVar("n");
  Buffer scratch = ir::MakeBuffer("scratch", {n}, DataType::Float32());
  Stmt store = make<BufferStoreNode>(scratch, ir::MakeFloat(1.0), std::vector<PrimExpr>{MakeInt(0)});
  Stmt guarded = make<IfThenElseNode>(ir::lt(n, MakeInt(8)), store, Stmt());
  Stmt checked = make<AssertStmtNode>(ir::gt(n, MakeInt(0)), ir::MakeString("n > 0"), Stmt());
  Stmt decl = make<DeclBufferNode>(scratch, MakeSeq({guarded, checked}));

  RecordingVisitor visitor;
  visitor.VisitStmt(decl);
  EXPECT_EQ(visitor.buffer_defs, std::vector<std::string>{"scratch"});
  EXPECT_EQ(visitor.buffer_uses, std::vector<std::string>{"scratch"});
  // The shape of the declared buffer, the if condition and the assert condition.
  EXPECT_EQ(Count(visitor.vars, "n"), 3);
}

TEST(StmtMutatorTest, NoChangeReturnsSameNodes) {
  ReluNest nest;
  StmtMutator mutator;
  EXPECT_TRUE(mutator.VisitStmt(nest.outer_loop).same_as(nest.outer_loop));
  EXPECT_TRUE(mutator.VisitStmt(nest.realize).same_as(nest.realize));
}

TEST(StmtMutatorTest, SubstituteRebuildsOnlyTheChangedPath) {
  ReluNest nest;
  PrimExpr eight = MakeInt(8);
  Stmt result = Substitute(nest.outer_loop, [&](const Var& v) -> PrimExpr {
    return v.same_as(nest.n) ? eight : PrimExpr();
  });
  ASSERT_FALSE(result.same_as(nest.outer_loop));
  const auto* outer = result.as<ForNode>();
  ASSERT_NE(outer, nullptr);
  EXPECT_TRUE(outer->extent.same_as(eight));
  EXPECT_TRUE(outer->loop_var.same_as(nest.i));
  // vi's domain mentions n, so the inner loop and block are rebuilt too...
  const auto* inner = outer->body.as<ForNode>();
  ASSERT_NE(inner, nullptr);
  const auto* realize = inner->body.as<BlockRealizeNode>();
  ASSERT_NE(realize, nullptr);
  EXPECT_TRUE(realize->block->iter_vars[0]->dom.extent.same_as(eight));
  EXPECT_EQ(realize->block->name, "relu");
  // ...but the store, which does not mention n, is the very same node.
  EXPECT_TRUE(realize->block->body.same_as(nest.store));
  // The original is untouched.
  EXPECT_TRUE(nest.outer_loop.as<ForNode>()->extent.same_as(nest.n));
}

TEST(StmtMutatorTest, SubstituteReachesIterValuesAndIndices) {
  ReluNest nest;
  Var k = MakeVar("k");
  Stmt result = Substitute(nest.realize, [&](const Var& v) -> PrimExpr {
    if (v.same_as(nest.i)) return k + 1;
    if (v.same_as(nest.vj)) return MakeInt(3);
    return PrimExpr();
  });
  const auto* realize = result.as<BlockRealizeNode>();
  ASSERT_NE(realize, nullptr);
  EXPECT_EQ(ir::ToString(realize->iter_values[0]), "k + 1");
  EXPECT_TRUE(realize->iter_values[1].same_as(nest.j));
  const auto* store = realize->block->body.as<BufferStoreNode>();
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(ir::IsConstInt(store->indices[1], 3));
  EXPECT_TRUE(store->indices[0].same_as(nest.vi));
  // The load inside the stored value is rewritten as well.
  bool saw_load = false;
  ir::PostOrderVisit(store->value, [&](const PrimExpr& e) {
    if (const auto* load = e.as<ir::BufferLoadNode>()) {
      saw_load = true;
      EXPECT_TRUE(ir::IsConstInt(load->indices[1], 3));
    }
  });
  EXPECT_TRUE(saw_load);
  // Regions are expressions too.
  EXPECT_TRUE(ir::IsConstInt(realize->block->reads[0]->region[1].min, 3));
}

TEST(StmtMutatorTest, SubstituteKeepsSpans) {
  ReluNest nest;
  auto source = std::make_shared<SourceFile>("k.py", "for i in range(n):\n");
  Span span{source, 1, 1, 1, 10};
  auto* loop = new ForNode();
  loop->span = span;
  loop->loop_var = nest.i;
  loop->min = MakeInt(0);
  loop->extent = nest.n;
  loop->body = nest.inner_loop;
  loop->annotations = ir::DictWith(nullptr, "pragma", MakeInt(1));
  loop->for_kind = ForKind::kParallel;
  Stmt stmt(loop);
  Stmt result = Substitute(stmt, [&](const Var& v) -> PrimExpr { return v.same_as(nest.n) ? MakeInt(2) : PrimExpr(); });
  const auto* rebuilt = result.as<ForNode>();
  ASSERT_NE(rebuilt, loop);
  EXPECT_EQ(rebuilt->span.line, 1);
  EXPECT_EQ(rebuilt->span.end_column, 10);
  EXPECT_EQ(rebuilt->for_kind, ForKind::kParallel);
  EXPECT_TRUE(rebuilt->annotations.same_as(loop->annotations));
}

// Replaces one buffer by another everywhere it is referenced.
class BufferReplacer : public StmtMutator {
 public:
  BufferReplacer(Buffer from, Buffer to) : from_(std::move(from)), to_(std::move(to)) {}
  Buffer VisitBuffer(const Buffer& buffer) override { return buffer.same_as(from_) ? to_ : buffer; }

 private:
  Buffer from_;
  Buffer to_;
};

TEST(StmtMutatorTest, VisitBufferReachesLoadsStoresAndRegions) {
  ReluNest nest;
  Buffer x2 = ir::MakeBuffer("X2", {nest.n, MakeInt(4)}, DataType::Float32());
  Stmt result = BufferReplacer(nest.x, x2).VisitStmt(nest.realize);
  RecordingVisitor visitor;
  visitor.VisitStmt(result);
  EXPECT_EQ(Count(visitor.buffer_uses, "X"), 0);
  EXPECT_EQ(Count(visitor.buffer_uses, "X2"), 2);
  EXPECT_EQ(Count(visitor.buffer_uses, "Y"), 2);
}

TEST(StmtMutatorTest, OptionalFieldsStayUndefined) {
  Var n = MakeVar("n");
  Stmt eval = make<EvaluateNode>(n);
  Stmt guarded = make<IfThenElseNode>(ir::lt(n, MakeInt(8)), eval, Stmt());
  Stmt result = Substitute(guarded, [&](const Var&) -> PrimExpr { return MakeInt(5); });
  const auto* rebuilt = result.as<IfThenElseNode>();
  ASSERT_NE(rebuilt, nullptr);
  EXPECT_FALSE(rebuilt->else_case.defined());
  EXPECT_TRUE(ir::IsConstInt(rebuilt->then_case.as<EvaluateNode>()->value, 5));
}

TEST(PostOrderVisitTest, ChildrenBeforeParents) {
  ReluNest nest;
  std::vector<const Node*> order;
  PostOrderVisit(nest.outer_loop, [&](const ObjectRef& node) { order.push_back(node.get()); });
  auto position = [&](const ObjectRef& node) {
    return std::find(order.begin(), order.end(), node.get()) - order.begin();
  };
  ASSERT_FALSE(order.empty());
  EXPECT_EQ(order.back(), nest.outer_loop.get());
  EXPECT_LT(position(nest.store), position(nest.block));
  EXPECT_LT(position(nest.block), position(nest.realize));
  EXPECT_LT(position(nest.realize), position(nest.inner_loop));
  // Expressions are reported too: n (the outer extent) comes before the loop.
  EXPECT_LT(position(nest.n), position(nest.outer_loop));
  EXPECT_LT(position(nest.n), static_cast<long>(order.size()));
}

}  // namespace
}  // namespace rlx::tir
