#include "rlx/ir/expr.h"

#include <gtest/gtest.h>

#include "rlx/ir/functor.h"
#include "rlx/ir/module.h"

namespace rlx::ir {
namespace {

TEST(DataTypeTest, PrintsAndParses) {
  const char* names[] = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                         "float16", "bfloat16", "float32", "float64", "handle", "float32x4", "int8x16"};
  for (const char* name : names) {
    std::optional<DataType> dtype = DataType::Parse(name);
    ASSERT_TRUE(dtype.has_value()) << name;
    EXPECT_EQ(dtype->ToString(), name);
  }
  EXPECT_FALSE(DataType::Parse("float33").has_value());
  EXPECT_FALSE(DataType::Parse("flaot32").has_value());
  EXPECT_FALSE(DataType::Parse("int").has_value());
  EXPECT_FALSE(DataType::Parse("float32x0").has_value());
  EXPECT_FALSE(DataType::Parse("").has_value());
  EXPECT_EQ(DataType::Float32().bytes(), 4);
  EXPECT_TRUE(DataType::Void().is_void());
  EXPECT_EQ(DataType::Void().ToString(), "");
}

TEST(NodeTest, RefCountingAndCasts) {
  Var n = MakeVar("n");
  EXPECT_EQ(n->use_count(), 1);
  {
    PrimExpr as_expr = n;
    EXPECT_EQ(n->use_count(), 2);
    EXPECT_TRUE(as_expr.isa<VarNode>());
    EXPECT_FALSE(as_expr.isa<IntImmNode>());
    EXPECT_TRUE(as_expr.isa<PrimExprNode>());
    EXPECT_EQ(as_expr.as<VarNode>(), n.get());
    EXPECT_FALSE(dyn_cast<IntImmNode>(as_expr).defined());
    EXPECT_TRUE(cast<VarNode>(as_expr).same_as(n));
  }
  EXPECT_EQ(n->use_count(), 1);
}

TEST(ExprTest, ConstructorsMatchIntegerTypes) {
  Var n = MakeVar("n");  // int64
  PrimExpr e = n * 4 + 1;
  EXPECT_EQ(e->dtype, DataType::Int64());
  const auto* sum = e.as<AddNode>();
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->b->dtype, DataType::Int64());
  // int32 var meets int64 var: widened.
  Var i = MakeVar("i", DataType::Int32());
  PrimExpr mixed = add(i, n);
  EXPECT_EQ(mixed->dtype, DataType::Int64());
  EXPECT_TRUE(mixed.as<AddNode>()->a.isa<CastNode>());
  // Comparisons are bool.
  EXPECT_TRUE(lt(n, MakeInt(3))->dtype.is_bool());
  // Float meets int: the int is cast.
  Var x = MakeVar("x", DataType::Float32());
  EXPECT_EQ(mul(x, MakeInt(2))->dtype, DataType::Float32());
}

TEST(ExprTest, ToStringUsesMinimalParentheses) {
  Var n = MakeVar("n");
  Var m = MakeVar("m");
  EXPECT_EQ(ToString(n * 4 + 1), "n * 4 + 1");
  EXPECT_EQ(ToString(floordiv(n + 1, 2)), "(n + 1) // 2");
  EXPECT_EQ(ToString(n - (m - 1)), "n - (m - 1)");
  EXPECT_EQ(ToString(min(n, m)), "min(n, m)");
  EXPECT_EQ(ShapeToString({n, MakeInt(4)}), "(n, 4)");
  EXPECT_EQ(ShapeToString({n}), "(n,)");
}

TEST(FunctorTest, MutatorKeepsUnchangedNodes) {
  Var n = MakeVar("n");
  Var m = MakeVar("m");
  PrimExpr e = n * 4 + floordiv(m, 2);
  PrimExpr same = Substitute(e, [](const Var&) { return PrimExpr(); });
  EXPECT_TRUE(same.same_as(e));
  PrimExpr replaced = Substitute(e, [&](const Var& v) { return v.same_as(n) ? PrimExpr(MakeInt(3)) : PrimExpr(); });
  EXPECT_FALSE(replaced.same_as(e));
  EXPECT_EQ(ToString(replaced), "3 * 4 + m // 2");
  // The untouched right operand is shared.
  EXPECT_TRUE(replaced.as<AddNode>()->b.same_as(e.as<AddNode>()->b));
}

TEST(FunctorTest, PostOrderVisitsChildrenFirst) {
  Var n = MakeVar("n");
  std::vector<std::string> order;
  PostOrderVisit(n + 1, [&](const PrimExpr& e) { order.push_back(ToString(e)); });
  EXPECT_EQ(order, (std::vector<std::string>{"n", "1", "n + 1"}));
}

TEST(ModuleTest, WithFunctionReplacesOrAppends) {
  IRModule mod = WithFunction(IRModule(), "a", MakeInt(1));
  mod = WithFunction(mod, "b", MakeInt(2));
  mod = WithFunction(mod, "a", MakeInt(3));
  ASSERT_EQ(mod->functions.size(), 2u);
  EXPECT_EQ(mod->functions[0].first, "a");
  EXPECT_EQ(AsConstInt(cast<PrimExprNode>(mod->Lookup("a"))), 3);
  EXPECT_FALSE(mod->Lookup("c").defined());
  mod = WithoutFunction(mod, "a");
  EXPECT_EQ(mod->functions.size(), 1u);
}

TEST(AttrsTest, DictWithKeepsOrder) {
  Dict dict = DictWith(Dict(), "x", MakeInt(1));
  dict = DictWith(dict, "y", MakeString("s"));
  dict = DictWith(dict, "x", MakeInt(2));
  ASSERT_EQ(dict->items.size(), 2u);
  EXPECT_EQ(dict->items[0].first, "x");
  EXPECT_TRUE(dict->Contains("y"));
  EXPECT_FALSE(dict->Contains("z"));
}

}  // namespace
}  // namespace rlx::ir
