// Tests for the BlockBuilder (emission, scoping, normalization, deduction),
// the operator registry and the cross-level builtins.
//
// Test-only operators ("test.unary", "test.binary") are registered here so
// the tests do not depend on the op layer.
#include "rlx/graph/block_builder.h"

#include <gtest/gtest.h>

#include <mutex>

#include "rlx/graph/op_registry.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/function.h"

namespace rlx::graph {
namespace {

using ir::MakeInt;

const DataType kF32 = DataType::Float32();

StructInfo Tensor(std::vector<PrimExpr> dims, DataType dtype = kF32) { return TensorSInfo(std::move(dims), dtype); }

// test.unary(x) -> x's struct info; test.binary(a, b) -> a's, and an error
// without a span when both ranks are known and differ.
void RegisterTestOps() {
  static std::once_flag once;
  std::call_once(once, [] {
    OpInfo unary;
    unary.name = "test.unary";
    unary.args = {"x"};
    unary.infer = [](const Call& call, BlockBuilder&) { return GetStructInfo(call->args[0]); };
    RegisterOp(unary);
    OpInfo binary;
    binary.name = "test.binary";
    binary.args = {"a", "b"};
    binary.infer = [](const Call& call, BlockBuilder&) {
      const auto* a = GetStructInfo(call->args[0]).as<TensorStructInfoNode>();
      const auto* b = GetStructInfo(call->args[1]).as<TensorStructInfoNode>();
      if (a && b && !a->IsUnknownNdim() && !b->IsUnknownNdim() && a->ndim != b->ndim) {
        throw CompileError(Span(), "test.binary: ranks differ");
      }
      return GetStructInfo(call->args[0]);
    };
    RegisterOp(binary);
  });
}

Call Unary(Expr x) { return MakeCall("test.unary", {std::move(x)}); }
Call Binary(Expr a, Expr b) { return MakeCall("test.binary", {std::move(a), std::move(b)}); }

tir::PrimFunc MakePrimFunc(int num_params) {
  auto* func = new tir::PrimFuncNode();
  for (int i = 0; i < num_params; ++i) func->params.push_back(ir::MakeVar("p" + std::to_string(i), DataType::Handle()));
  return tir::PrimFunc(func);
}

class BlockBuilderTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterTestOps(); }

  // The message of the CompileError `fn` throws ("<no error>" if none).
  template <typename F>
  static std::string ErrorOf(F&& fn) {
    try {
      fn();
    } catch (const CompileError& error) {
      return error.diagnostic().message;
    }
    return "<no error>";
  }

  // A span into a one-line source file, for location checks.
  static Span SpanAt(int column, int end_column) {
    static SourceFilePtr source = std::make_shared<SourceFile>("t.py", "lv = R.foo(x, y)\n");
    return Span{source, 1, column, 1, end_column};
  }

  ir::Var n = ir::MakeVar("n");
  ir::Var m = ir::MakeVar("m");
  ir::Var k = ir::MakeVar("k");
};

// ---------------------------------------------------------------------------
// Emission and blocks.

TEST_F(BlockBuilderTest, EmitInDataflowBlockMakesDataflowVarsAndOutputsMakeVars) {
  BlockBuilder bb;
  Var x = MakeVar("x", Tensor({n, MakeInt(4)}));
  bb.BeginScope({x});
  bb.BeginDataflowBlock();
  Var lv = bb.Emit(Unary(x));
  Var gv = bb.EmitOutput(Unary(lv));
  BindingBlock block = bb.EndBlock();
  bb.EndScope();
  EXPECT_TRUE(lv.isa<DataflowVarNode>());
  EXPECT_EQ(lv->name_hint, "lv");
  EXPECT_FALSE(gv.isa<DataflowVarNode>());
  EXPECT_EQ(gv->name_hint, "gv");
  EXPECT_TRUE(block->is_dataflow());
  ASSERT_EQ(block->bindings.size(), 2u);
  EXPECT_EQ(ToString(GetStructInfo(gv)), "Tensor((n, 4), float32)");
}

TEST_F(BlockBuilderTest, EmitOutsideDataflowMakesNamedVars) {
  BlockBuilder bb;
  Var x = MakeVar("x", Tensor({n}));
  bb.BeginScope({x});
  bb.BeginBindingBlock();
  EXPECT_FALSE(bb.CurrentBlockIsDataflow());
  Var y = bb.Emit(Unary(x), "y");
  BindingBlock block = bb.EndBlock();
  EXPECT_FALSE(y.isa<DataflowVarNode>());
  EXPECT_EQ(y->name_hint, "y");
  EXPECT_FALSE(block->is_dataflow());
}

TEST_F(BlockBuilderTest, NestedCallsAreEmittedInANormalForm) {
  BlockBuilder bb;
  Var a = MakeVar("a", Tensor({n})), b = MakeVar("b", Tensor({n})), c = MakeVar("c", Tensor({n}));
  bb.BeginScope({a, b, c});
  bb.BeginDataflowBlock();
  Var out = bb.Emit(Binary(Binary(a, b), c));
  BindingBlock block = bb.EndBlock();
  ASSERT_EQ(block->bindings.size(), 2u);
  const auto* first = block->bindings[0].as<VarBindingNode>();
  const auto* second = block->bindings[1].as<VarBindingNode>();
  ASSERT_TRUE(first && second);
  EXPECT_TRUE(second->var.same_as(out));
  const auto* inner = first->value.as<CallNode>();
  const auto* outer = second->value.as<CallNode>();
  ASSERT_TRUE(inner && outer);
  EXPECT_TRUE(inner->args[0].same_as(a));
  EXPECT_TRUE(outer->args[0].same_as(first->var));
  EXPECT_TRUE(outer->args[1].same_as(c));
  EXPECT_TRUE(first->var.isa<DataflowVarNode>());
}

TEST_F(BlockBuilderTest, NormalizingANormalExpressionReturnsTheSameNode) {
  BlockBuilder bb;
  Var a = MakeVar("a", Tensor({n}));
  bb.BeginScope({a});
  bb.BeginBindingBlock();
  Expr call = bb.Normalize(Unary(a));
  EXPECT_TRUE(bb.Normalize(call).same_as(call));
  Expr tuple = bb.Normalize(make<TupleNode>(std::vector<Expr>{a, call}));
  EXPECT_EQ(bb.EndBlock()->bindings.size(), 1u);  // the call inside the tuple
  EXPECT_TRUE(bb.Normalize(tuple).same_as(tuple));
}

TEST_F(BlockBuilderTest, TupleFieldsBecomeLeaves) {
  BlockBuilder bb;
  Var a = MakeVar("a", Tensor({n})), b = MakeVar("b", PrimValueSInfo(m));
  bb.BeginScope({a, b});
  bb.BeginBindingBlock();
  Expr tuple = bb.Normalize(make<TupleNode>(std::vector<Expr>{Unary(a), b}));
  BindingBlock block = bb.EndBlock();
  ASSERT_EQ(block->bindings.size(), 1u);
  EXPECT_TRUE(tuple.as<TupleNode>()->fields[0].same_as(block->bindings[0]->var));
  EXPECT_EQ(ToString(GetStructInfo(tuple)), "Tuple(Tensor((n,), float32), Prim(value=m, int64))");
}

// ---------------------------------------------------------------------------
// Tuple indexing and operator errors.

TEST_F(BlockBuilderTest, TupleGetItemChecksTheIndex) {
  BlockBuilder bb;
  Var t = MakeVar("t", TupleSInfo({Tensor({n}), PrimSInfo(DataType::Int64())}));
  bb.BeginScope({t});
  bb.BeginBindingBlock();
  EXPECT_EQ(ToString(GetStructInfo(bb.Normalize(make<TupleGetItemNode>(t, 1)))), "Prim(int64)");
  auto item = make<TupleGetItemNode>(t, 3);
  const_cast<TupleGetItemNode*>(item.get())->span = SpanAt(6, 10);
  try {
    bb.Emit(item);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_EQ(error.diagnostic().message, "index 3 out of range for a tuple of 2 fields");
    EXPECT_EQ(error.diagnostic().span.column, 6);
  }
  Var obj = MakeVar("o", ObjectSInfo());
  EXPECT_TRUE(GetStructInfo(bb.Normalize(make<TupleGetItemNode>(obj, 5))).isa<ObjectStructInfoNode>());
  EXPECT_EQ(ErrorOf([&] { bb.Normalize(make<TupleGetItemNode>(MakeVar("x", Tensor({n})), 0)); }),
            "cannot take item 0 of a value of Tensor((n,), float32): not a tuple");
}

TEST_F(BlockBuilderTest, UnknownOperatorIsAnErrorAtTheCall) {
  BlockBuilder bb;
  Var x = MakeVar("x", Tensor({n}));
  bb.BeginScope({x});
  bb.BeginBindingBlock();
  Call call = MakeCall("relax.foo", {x});
  const_cast<CallNode*>(call.get())->span = SpanAt(6, 17);
  try {
    bb.Emit(call);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_EQ(error.diagnostic().message, "unknown operator 'relax.foo'");
    EXPECT_EQ(error.diagnostic().span.column, 6);
    EXPECT_NE(std::string(error.what()).find("t.py:1:6: error: unknown operator"), std::string::npos);
  }
  // The builder is still usable after the error.
  EXPECT_NO_THROW(bb.Emit(Unary(x)));
  EXPECT_EQ(bb.EndBlock()->bindings.size(), 1u);
}

TEST_F(BlockBuilderTest, RuleErrorsWithoutASpanGetTheCallsSpan) {
  BlockBuilder bb;
  Var a = MakeVar("a", Tensor({n})), b = MakeVar("b", Tensor({n, m}));
  bb.BeginScope({a, b});
  bb.BeginBindingBlock();
  Call call = Binary(a, b);
  const_cast<CallNode*>(call.get())->span = SpanAt(6, 17);
  try {
    bb.Emit(call);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_EQ(error.diagnostic().message, "test.binary: ranks differ");
    EXPECT_TRUE(error.diagnostic().span.defined());
    EXPECT_EQ(error.diagnostic().span.column, 6);
  }
}

// ---------------------------------------------------------------------------
// Registry and builtins.

TEST_F(BlockBuilderTest, RegistryHasTheBuiltinsUnderBothNames) {
  const OpInfo* call_tir = FindOp("relax.call_tir");
  ASSERT_NE(call_tir, nullptr);
  EXPECT_EQ(call_tir->script_name, "R.call_tir");
  EXPECT_EQ(FindOpByScriptName("R.call_tir"), call_tir);
  for (const char* name : {"R.call_dps_packed", "R.call_pure_packed", "R.call_packed", "R.print", "R.assert_op",
                           "R.shape_of", "R.call_tir_inplace", "R.invoke_closure", "R.make_closure",
                           "R.null_value", "R.call_inplace_packed"}) {
    EXPECT_NE(FindOpByScriptName(name), nullptr) << name;
  }
  EXPECT_FALSE(FindOp("relax.call_packed")->pure);
  EXPECT_FALSE(FindOp("relax.print")->pure);
  EXPECT_TRUE(FindOp("relax.call_pure_packed")->pure);
  EXPECT_EQ(FindOp("relax.nonexistent"), nullptr);
  std::vector<const OpInfo*> ops = ListOps();
  for (size_t i = 1; i < ops.size(); ++i) EXPECT_LT(ops[i - 1]->name, ops[i]->name);
}

TEST_F(BlockBuilderTest, CallTIRReturnsItsOutSInfo) {
  ir::IRModule mod = make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{{"relu", MakePrimFunc(2)}}, nullptr);
  BlockBuilder bb(mod);
  Var x = MakeVar("x", Tensor({n, MakeInt(4)}));
  bb.BeginScope({x});
  bb.BeginDataflowBlock();
  Expr args = make<TupleNode>(std::vector<Expr>{x});
  Call call = MakeCall("relax.call_tir", {make<GlobalVarNode>("relu"), args}, nullptr, {Tensor({n, MakeInt(4)})});
  Var out = bb.Emit(call);
  EXPECT_EQ(ToString(GetStructInfo(out)), "Tensor((n, 4), float32)");
  // A nested call inside the argument tuple is emitted first.
  Call nested = MakeCall("relax.call_tir", {make<GlobalVarNode>("relu"), make<TupleNode>(std::vector<Expr>{Unary(x)})},
                         nullptr, {Tensor({n, MakeInt(4)})});
  bb.Emit(nested);
  EXPECT_EQ(bb.EndBlock()->bindings.size(), 3u);
}

TEST_F(BlockBuilderTest, CallTIRChecksCalleeArgumentsAndArity) {
  ir::IRModule mod = make<ir::IRModuleNode>(
      std::vector<ir::IRModuleNode::Entry>{{"relu", MakePrimFunc(2)}, {"main", make<FunctionNode>(std::vector<Var>{},
                                                                                                  make<TupleNode>(std::vector<Expr>{}),
                                                                                                  TupleSInfo({}))}},
      nullptr);
  BlockBuilder bb(mod);
  Var x = MakeVar("x", Tensor({n}));
  bb.BeginScope({x});
  bb.BeginDataflowBlock();
  auto call_tir = [&](Expr callee, Expr args) {
    return MakeCall("relax.call_tir", {std::move(callee), std::move(args)}, nullptr, {Tensor({n})});
  };
  Expr one_arg = make<TupleNode>(std::vector<Expr>{x});
  Expr two_args = make<TupleNode>(std::vector<Expr>{x, x});
  EXPECT_EQ(ErrorOf([&] { bb.Emit(call_tir(make<ExternFuncNode>("lib.f"), one_arg)); }),
            "R.call_tir: the callee must be a global PrimFunc, got extern function \"lib.f\"");
  EXPECT_EQ(ErrorOf([&] { bb.Emit(call_tir(make<GlobalVarNode>("relu"), x)); }),
            "R.call_tir: expected the arguments as a tuple, got variable 'x' of Tensor((n,), float32)");
  EXPECT_EQ(ErrorOf([&] { bb.Emit(call_tir(make<GlobalVarNode>("main"), one_arg)); }),
            "R.call_tir: 'main' is not a PrimFunc");
  EXPECT_EQ(ErrorOf([&] { bb.Emit(call_tir(make<GlobalVarNode>("relu"), two_args)); }),
            "R.call_tir: 'relu' takes 2 parameters, but the call passes 2 inputs, 1 output and 0 tir_vars");
  Call no_out = MakeCall("relax.call_tir", {make<GlobalVarNode>("relu"), one_arg});
  EXPECT_EQ(ErrorOf([&] { bb.Emit(no_out); }), "R.call_tir: expected one out_sinfo, got 0");
  // With tir_vars: relu would need 3 parameters.
  Call with_vars = MakeCall("relax.call_tir", {make<GlobalVarNode>("relu"), one_arg, make<ShapeExprNode>(std::vector<PrimExpr>{n})},
                            nullptr, {Tensor({n})});
  EXPECT_EQ(ErrorOf([&] { bb.Emit(with_vars); }),
            "R.call_tir: 'relu' takes 2 parameters, but the call passes 1 input, 1 output and 1 tir_vars");
  // A name the module does not hold yet (declared later) is accepted.
  EXPECT_EQ(ErrorOf([&] { bb.Emit(call_tir(make<GlobalVarNode>("later"), one_arg)); }), "<no error>");
}

TEST_F(BlockBuilderTest, CallTIRInplaceChecksIndices) {
  BlockBuilder bb;
  Var x = MakeVar("x", Tensor({n})), y = MakeVar("y", Tensor({n}));
  bb.BeginScope({x, y});
  bb.BeginBindingBlock();
  auto call = [&](std::vector<ObjectRef> indices, StructInfo out) {
    Dict attrs = ir::DictWith(nullptr, "inplace_indices", make<ir::ArrayNode>(std::move(indices)));
    return MakeCall("relax.call_tir_inplace", {make<GlobalVarNode>("f"), make<TupleNode>(std::vector<Expr>{x, y})},
                    attrs, {out});
  };
  EXPECT_EQ(ToString(GetStructInfo(bb.Emit(call({MakeInt(1)}, Tensor({n}))))), "Tensor((n,), float32)");
  EXPECT_EQ(ErrorOf([&] { bb.Emit(call({MakeInt(2)}, Tensor({n}))); }),
            "R.call_tir_inplace: inplace index 2 is out of range for 2 inputs");
  EXPECT_EQ(ErrorOf([&] { bb.Emit(call({MakeInt(0)}, Tensor({n, n}))); }),
            "R.call_tir_inplace: output 0 is written in place into input 0 of Tensor((n,), float32), but is "
            "declared Tensor((n, n), float32)");
}

TEST_F(BlockBuilderTest, PackedCallsUseTheirDeclaredResult) {
  BlockBuilder bb;
  Var x = MakeVar("x", Tensor({n}));
  bb.BeginScope({x});
  bb.BeginBindingBlock();
  Expr args = make<TupleNode>(std::vector<Expr>{x});
  Var dps = bb.Emit(MakeCall("relax.call_dps_packed", {make<ExternFuncNode>("lib.norm"), args}, nullptr, {Tensor({n})}));
  EXPECT_EQ(ToString(GetStructInfo(dps)), "Tensor((n,), float32)");
  EXPECT_EQ(ErrorOf([&] {
              bb.Emit(MakeCall("relax.call_dps_packed", {make<GlobalVarNode>("f"), args}, nullptr, {Tensor({n})}));
            }),
            "R.call_dps_packed: the callee must be an extern function, got global function 'f'");
  EXPECT_EQ(ErrorOf([&] {
              bb.Emit(MakeCall("relax.call_dps_packed", {make<ExternFuncNode>("lib.norm"), args}, nullptr,
                               {ObjectSInfo()}));
            }),
            "R.call_dps_packed: out_sinfo must be a Tensor or a Tuple of Tensors, got Object");
  Var pure = bb.Emit(MakeCall("relax.call_pure_packed", {make<ExternFuncNode>("lib.f"), x}, nullptr, {PrimSInfo(kF32)}));
  EXPECT_EQ(ToString(GetStructInfo(pure)), "Prim(float32)");
  Var impure = bb.Emit(MakeCall("relax.call_packed", {make<ExternFuncNode>("lib.g"), x}));
  EXPECT_TRUE(GetStructInfo(impure).isa<ObjectStructInfoNode>());
  // Calling an ExternFunc directly returns its sinfo_args[0].
  auto direct = make<CallNode>(make<ExternFuncNode>("lib.h"), std::vector<Expr>{x}, nullptr,
                               std::vector<StructInfo>{TensorSInfo(kF32, 1)});
  EXPECT_EQ(ToString(GetStructInfo(bb.Emit(direct))), "Tensor(ndim=1, float32)");
}

TEST_F(BlockBuilderTest, ShapeOfPrintAndAssert) {
  BlockBuilder bb;
  Var x = MakeVar("x", Tensor({n, MakeInt(4)})), y = MakeVar("y", TensorSInfo(kF32, 3));
  Var flag = MakeVar("flag", PrimSInfo(DataType::Bool()));
  bb.BeginScope({x, y, flag});
  bb.BeginBindingBlock();
  EXPECT_EQ(ToString(GetStructInfo(bb.Emit(MakeCall("relax.shape_of", {x})))), "Shape([n, 4])");
  EXPECT_EQ(ToString(GetStructInfo(bb.Emit(MakeCall("relax.shape_of", {y})))), "Shape(ndim=3)");
  EXPECT_EQ(ErrorOf([&] { bb.Emit(MakeCall("relax.shape_of", {flag})); }),
            "R.shape_of: expected a tensor, got Prim(bool)");
  EXPECT_TRUE(GetStructInfo(bb.Emit(MakeCall("relax.print", {x}))).isa<ObjectStructInfoNode>());
  EXPECT_NO_THROW(bb.Emit(MakeCall("relax.assert_op", {flag})));
  EXPECT_EQ(ErrorOf([&] { bb.Emit(MakeCall("relax.assert_op", {x})); }),
            "R.assert_op: the condition must be a bool scalar or a 0-d bool tensor, got Tensor((n, 4), float32)");
  EXPECT_TRUE(GetStructInfo(bb.Emit(MakeCall("relax.null_value", {}))).isa<ObjectStructInfoNode>());
}

// ---------------------------------------------------------------------------
// Calls to module functions.

class ModuleCallTest : public BlockBuilderTest {
 protected:
  // f(x: Tensor((p, q), f32)) -> Tensor((p * q,), f32)
  ir::IRModule ModuleWithF() {
    ir::Var p = ir::MakeVar("p"), q = ir::MakeVar("q");
    Var param = MakeVar("x", Tensor({p, q}));
    Function f = make<FunctionNode>(std::vector<Var>{param}, Expr(param), Tensor({p * q}));
    return make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{{"f", f}}, nullptr);
  }
};

TEST_F(ModuleCallTest, SymbolicParametersAreMatchedAndSubstituted) {
  BlockBuilder bb(ModuleWithF());
  Var y = MakeVar("y", Tensor({MakeInt(2), k}));
  bb.BeginScope({y});
  bb.BeginBindingBlock();
  Var out = bb.Emit(make<CallNode>(make<GlobalVarNode>("f"), std::vector<Expr>{y}));
  auto dims = GetStructInfo(out).as<TensorStructInfoNode>()->GetShape();
  ASSERT_TRUE(dims && dims->size() == 1u) << ToString(GetStructInfo(out));
  EXPECT_TRUE(bb.analyzer().CanProveEqual((*dims)[0], MakeInt(2) * k)) << ToString(GetStructInfo(out));
}

TEST_F(ModuleCallTest, ProvableMismatchAndUndefinedFunctionsAreErrors) {
  ir::Var p = ir::MakeVar("p");
  Var param = MakeVar("x", Tensor({p, p}));
  Function g = make<FunctionNode>(std::vector<Var>{param}, Expr(param), Tensor({p}));
  BlockBuilder bb;
  GlobalVar gv = bb.AddFunction(g, "g");
  Var y = MakeVar("y", Tensor({MakeInt(3), MakeInt(4)}));
  bb.BeginScope({y});
  bb.BeginBindingBlock();
  Call call = make<CallNode>(gv, std::vector<Expr>{y});
  const_cast<CallNode*>(call.get())->span = SpanAt(6, 17);
  try {
    bb.Emit(call);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_EQ(error.diagnostic().message,
              "argument 0 of 'g': expected Tensor((p, p), float32), got Tensor((3, 4), float32)");
    EXPECT_EQ(error.diagnostic().span.column, 6);
  }
  EXPECT_EQ(ErrorOf([&] { bb.Emit(make<CallNode>(make<GlobalVarNode>("h"), std::vector<Expr>{y})); }),
            "undefined function 'h'");
}

TEST_F(ModuleCallTest, CallableVarsAreCalledThroughTheirSignature) {
  BlockBuilder bb;
  ir::Var p = ir::MakeVar("p");
  Var fn = MakeVar("fn", make<FuncStructInfoNode>(std::vector<StructInfo>{Tensor({p})}, Tensor({p, p})));
  Var y = MakeVar("y", Tensor({n}));
  bb.BeginScope({fn, y});
  bb.BeginBindingBlock();
  Var out = bb.Emit(make<CallNode>(fn, std::vector<Expr>{y}));
  EXPECT_EQ(ToString(GetStructInfo(out)), "Tensor((n, n), float32)");
  Var tensor = MakeVar("t", Tensor({n}));
  EXPECT_EQ(ErrorOf([&] { bb.Emit(make<CallNode>(tensor, std::vector<Expr>{y})); }),
            "cannot call a value of Tensor((n,), float32)");
}

// ---------------------------------------------------------------------------
// Annotations, match_cast and scopes.

TEST_F(BlockBuilderTest, EmitWithVarChecksTheAnnotation) {
  BlockBuilder bb;
  Var x = MakeVar("x", Tensor({n, MakeInt(4)}));
  bb.BeginScope({x});
  bb.BeginBindingBlock();
  Var wrong = MakeVar("y", Tensor({n, MakeInt(5)}));
  EXPECT_EQ(ErrorOf([&] { bb.EmitWithVar(wrong, Unary(x)); }),
            "cannot bind a value of Tensor((n, 4), float32) to a variable annotated Tensor((n, 5), float32)");
  // A less precise annotation is kept as written.
  Var coarse = MakeVar("z", TensorSInfo(kF32, 2));
  bb.EmitWithVar(coarse, Unary(x));
  EXPECT_EQ(ToString(GetStructInfo(coarse)), "Tensor(ndim=2, float32)");
  // A symbolic mismatch is left to run time.
  Var other = MakeVar("w", Tensor({m, MakeInt(4)}));
  EXPECT_NO_THROW(bb.EmitWithVar(other, Unary(x)));
  // No annotation: the var takes the deduced struct info.
  Var fresh = MakeVar("v", nullptr);
  bb.EmitWithVar(fresh, Unary(x));
  EXPECT_EQ(ToString(GetStructInfo(fresh)), "Tensor((n, 4), float32)");
}

TEST_F(BlockBuilderTest, MatchCastDefinesNewSymbolicVars) {
  BlockBuilder bb;
  Var x = MakeVar("x", TensorSInfo(kF32, 1));
  bb.BeginScope({x});
  bb.BeginDataflowBlock();
  EXPECT_FALSE(bb.IsSymbolicVarDefined(m));
  Var y = bb.EmitMatchCast(x, Tensor({m}), "y");
  EXPECT_TRUE(bb.IsSymbolicVarDefined(m));
  EXPECT_EQ(ToString(GetStructInfo(y)), "Tensor((m,), float32)");
  EXPECT_TRUE(y.isa<DataflowVarNode>());
  BindingBlock block = bb.EndBlock();
  ASSERT_EQ(block->bindings.size(), 1u);
  EXPECT_TRUE(block->bindings[0].isa<MatchCastNode>());
  bb.EndScope();
  EXPECT_FALSE(bb.IsSymbolicVarDefined(m));
}

TEST_F(BlockBuilderTest, MatchCastRejectsProvableIncompatibility) {
  BlockBuilder bb;
  Var x = MakeVar("x", TensorSInfo(kF32, 2));
  bb.BeginScope({x});
  bb.BeginBindingBlock();
  EXPECT_EQ(ErrorOf([&] { bb.EmitMatchCast(x, Tensor({m})); }),
            "match_cast can never succeed: a value of Tensor(ndim=2, float32) cannot match Tensor((m,), float32)");
  EXPECT_NE(ErrorOf([&] { bb.EmitMatchCast(x, TensorSInfo(DataType::Int32(), 2)); }), "<no error>");
  EXPECT_EQ(ErrorOf([&] { bb.EmitMatchCast(MakeVar("o", ObjectSInfo()), Tensor({m, k})); }), "<no error>");
}

TEST_F(BlockBuilderTest, ScopesDefineParameterVars) {
  BlockBuilder bb;
  Var x = MakeVar("x", TupleSInfo({Tensor({n, m * 2}), PrimValueSInfo(k)}));
  EXPECT_FALSE(bb.IsSymbolicVarDefined(n));
  bb.BeginScope({x});
  EXPECT_TRUE(bb.IsSymbolicVarDefined(n));
  EXPECT_TRUE(bb.IsSymbolicVarDefined(k));
  EXPECT_FALSE(bb.IsSymbolicVarDefined(m));  // only used in a compound dimension
  bb.EndScope();
  EXPECT_FALSE(bb.IsSymbolicVarDefined(n));
}

// ---------------------------------------------------------------------------
// If, SeqExpr and Function.

SeqExpr Seq(std::vector<Binding> bindings, Expr body, bool dataflow = false) {
  std::vector<BindingBlock> blocks;
  if (!bindings.empty()) blocks.push_back(make<BindingBlockNode>(std::move(bindings), dataflow));
  return make<SeqExprNode>(std::move(blocks), std::move(body));
}

TEST_F(BlockBuilderTest, IfResultIsTheLCAOfItsBranches) {
  BlockBuilder bb;
  Var cond = MakeVar("c", PrimSInfo(DataType::Bool()));
  Var a = MakeVar("a", Tensor({n, MakeInt(4)})), b = MakeVar("b", Tensor({m, MakeInt(4)}));
  bb.BeginScope({cond, a, b});
  bb.BeginBindingBlock();
  Expr differ = bb.Normalize(make<IfNode>(cond, a, b));
  EXPECT_EQ(ToString(GetStructInfo(differ)), "Tensor(ndim=2, float32)");
  // Branches are wrapped into SeqExprs; nested calls land inside them.
  const auto* node = differ.as<IfNode>();
  ASSERT_TRUE(node->true_branch.isa<SeqExprNode>() && node->false_branch.isa<SeqExprNode>());
  Expr same = bb.Normalize(make<IfNode>(cond, Unary(a), a));
  EXPECT_EQ(ToString(GetStructInfo(same)), "Tensor((n, 4), float32)");
  const auto* true_seq = same.as<IfNode>()->true_branch.as<SeqExprNode>();
  ASSERT_EQ(true_seq->blocks.size(), 1u);
  EXPECT_EQ(true_seq->blocks[0]->bindings.size(), 1u);
  EXPECT_TRUE(true_seq->body.isa<VarNode>());
  EXPECT_TRUE(bb.EndBlock()->bindings.empty());
  EXPECT_EQ(ErrorOf([&] { bb.Normalize(make<IfNode>(a, a, b)); }),
            "the condition of an if must be a bool scalar or a 0-d tensor, got Tensor((n, 4), float32)");
}

TEST_F(BlockBuilderTest, IfErasesVarsDefinedOnlyInsideItsBranches) {
  BlockBuilder bb;
  Var cond = MakeVar("c", PrimSInfo(DataType::Bool()));
  Var x = MakeVar("x", TensorSInfo(kF32, 1));
  bb.BeginScope({cond, x});
  bb.BeginBindingBlock();
  Var y1 = MakeVar("y1", nullptr), y2 = MakeVar("y2", nullptr);
  Expr then_branch = Seq({make<MatchCastNode>(y1, x, Tensor({k}))}, y1);
  Expr else_branch = Seq({make<MatchCastNode>(y2, x, Tensor({k}))}, y2);
  Expr result = bb.Normalize(make<IfNode>(cond, then_branch, else_branch));
  EXPECT_EQ(ToString(GetStructInfo(y1)), "Tensor((k,), float32)");
  EXPECT_EQ(ToString(GetStructInfo(result)), "Tensor(ndim=1, float32)");
  EXPECT_FALSE(bb.IsSymbolicVarDefined(k));
}

TEST_F(BlockBuilderTest, SeqExprIsNormalizedAndErased) {
  BlockBuilder bb;
  Var x = MakeVar("x", TensorSInfo(kF32, 1));
  bb.BeginScope({x});
  Var cast = MakeVar("y", nullptr), z = MakeVar("z", nullptr);
  SeqExpr seq = Seq({make<MatchCastNode>(cast, x, Tensor({k})), make<VarBindingNode>(z, Unary(Unary(cast)))}, z, true);
  Expr normalized = bb.Normalize(seq);
  const auto* node = normalized.as<SeqExprNode>();
  ASSERT_NE(node, nullptr);
  ASSERT_EQ(node->blocks.size(), 1u);
  EXPECT_TRUE(node->blocks[0]->is_dataflow());
  EXPECT_EQ(node->blocks[0]->bindings.size(), 3u);  // match_cast, the inner call, z
  EXPECT_EQ(ToString(GetStructInfo(z)), "Tensor((k,), float32)");
  EXPECT_EQ(ToString(GetStructInfo(normalized)), "Tensor(ndim=1, float32)");
  // Normalizing again changes nothing.
  EXPECT_TRUE(bb.Normalize(normalized).same_as(normalized));
}

TEST_F(BlockBuilderTest, FunctionsAreNormalizedInTheirOwnScope) {
  BlockBuilder bb;
  Var x = MakeVar("x", Tensor({n, MakeInt(4)}));
  Function func = make<FunctionNode>(std::vector<Var>{x}, Unary(Unary(x)), nullptr);
  Expr normalized = bb.Normalize(func);
  const auto* node = normalized.as<FunctionNode>();
  ASSERT_NE(node, nullptr);
  const auto* body = node->body.as<SeqExprNode>();
  ASSERT_NE(body, nullptr);
  ASSERT_EQ(body->blocks.size(), 1u);
  EXPECT_EQ(body->blocks[0]->bindings.size(), 2u);
  EXPECT_TRUE(body->body.isa<VarNode>());
  EXPECT_EQ(ToString(node->ret_struct_info), "Tensor((n, 4), float32)");
  EXPECT_EQ(ToString(GetStructInfo(normalized)), "Callable((Tensor((n, 4), float32)), Tensor((n, 4), float32))");
  EXPECT_FALSE(bb.IsSymbolicVarDefined(n));
  // A return that mentions a var the body's match_cast defines is erased.
  Var cast = MakeVar("y", nullptr);
  Function dynamic = make<FunctionNode>(std::vector<Var>{x}, Seq({make<MatchCastNode>(cast, x, Tensor({k, m}))}, cast),
                                        nullptr);
  EXPECT_EQ(ToString(bb.Normalize(dynamic).as<FunctionNode>()->ret_struct_info), "Tensor(ndim=2, float32)");
  Function wrong = make<FunctionNode>(std::vector<Var>{x}, Expr(x), TensorSInfo(kF32, 3));
  EXPECT_EQ(ErrorOf([&] { bb.Normalize(wrong); }),
            "the function returns a value of Tensor((n, 4), float32) but is annotated to return Tensor(ndim=3, float32)");
}

}  // namespace
}  // namespace rlx::graph
