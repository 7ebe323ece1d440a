// Tests for graph/well_formed.h. Each rule has a well-formed case and a
// violating case built by hand (struct info set explicitly, no builder), and
// the violating cases check the message names the function and the problem.
#include "rlx/graph/well_formed.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr.h"
#include "rlx/op/op.h"
#include "rlx/tir/function.h"

namespace rlx::graph {
namespace {

using ir::MakeInt;
using ::testing::HasSubstr;

const DataType kF32 = DataType::Float32();

// ---------------------------------------------------------------- builders

StructInfo Tensor(std::vector<PrimExpr> shape) { return TensorSInfo(std::move(shape), kF32); }

Expr CallOp(const std::string& name, std::vector<Expr> args, StructInfo sinfo,
            std::vector<StructInfo> sinfo_args = {}) {
  Call call = MakeCall(name, std::move(args), nullptr, std::move(sinfo_args));
  if (sinfo.defined()) UpdateStructInfo(call, std::move(sinfo));
  return call;
}

Binding Bind(const Var& var, const Expr& value) { return make<VarBindingNode>(var, value); }
Binding MatchCastTo(const Var& var, const Expr& value, StructInfo sinfo) {
  return make<MatchCastNode>(var, value, std::move(sinfo));
}
BindingBlock Plain(std::vector<Binding> bindings) { return make<BindingBlockNode>(std::move(bindings)); }
BindingBlock Dataflow(std::vector<Binding> bindings) { return make<DataflowBlockNode>(std::move(bindings)); }

Expr Seq(std::vector<BindingBlock> blocks, const Expr& body, StructInfo sinfo = nullptr) {
  Expr seq = make<SeqExprNode>(std::move(blocks), body);
  StructInfo info = sinfo.defined() ? sinfo : body->struct_info;
  if (info.defined()) UpdateStructInfo(seq, info);
  return seq;
}

Function Func(std::vector<Var> params, Expr body, StructInfo ret, bool is_pure = true, Dict attrs = nullptr) {
  return make<FunctionNode>(std::move(params), std::move(body), std::move(ret), is_pure, std::move(attrs));
}

ir::IRModule Module(std::vector<ir::IRModuleNode::Entry> functions) {
  return make<ir::IRModuleNode>(std::move(functions), nullptr);
}

ir::IRModule ModuleOf(const Function& func) { return Module({{"main", func}}); }

Span SpanAt(int line) {
  static auto source = std::make_shared<SourceFile>("model.py", "line 1\nline 2\nline 3\nline 4\n");
  return Span{source, line, 1, line, 5};
}

// The messages of every diagnostic for `mod`.
std::vector<std::string> Messages(const ir::IRModule& mod) {
  std::vector<std::string> messages;
  for (const Diagnostic& diag : WellFormedDiagnostics(mod)) messages.push_back(diag.message);
  return messages;
}

// The first violation's message ("" when well formed); also checks that
// CheckWellFormed agrees.
std::string FirstError(const ir::IRModule& mod) {
  std::vector<std::string> messages = Messages(mod);
  try {
    CheckWellFormed(mod);
  } catch (const CompileError& error) {
    EXPECT_FALSE(messages.empty());
    if (!messages.empty()) {
      EXPECT_EQ(error.diagnostic().message, messages[0]);
    }
    return error.diagnostic().message;
  }
  EXPECT_TRUE(messages.empty()) << messages[0];
  return "";
}

// The primer's main, by hand:
//   def main(x: R.Tensor((n, 4), "float32")) -> R.Tensor(ndim=1, "float32"):
//     with R.dataflow():
//       lv0 = R.add(x, x)
//       lv1 = R.call_tir(relu, (lv0,), out_sinfo=R.Tensor((n, 4), "float32"))
//       lv2 = R.reshape(lv1, R.shape([n * 4]))
//       lv3 = R.match_cast(lv2, R.Tensor((m,), "float32"))
//       gv = R.exp(lv3)
//       R.output(gv)
//     return gv
struct Primer {
  ir::Var n = ir::MakeVar("n");
  ir::Var m = ir::MakeVar("m");
  Var x = MakeVar("x", Tensor({n, MakeInt(4)}));
  Var lv0 = MakeDataflowVar("lv0", Tensor({n, MakeInt(4)}));
  Var lv1 = MakeDataflowVar("lv1", Tensor({n, MakeInt(4)}));
  Var lv2 = MakeDataflowVar("lv2", Tensor({n * 4}));
  Var lv3 = MakeDataflowVar("lv3", Tensor({m}));
  Var gv = MakeVar("gv", Tensor({m}));
  Expr call_tir;

  Primer() {
    op::RegisterAllOps();
    Expr args = make<TupleNode>(std::vector<Expr>{lv0});
    UpdateStructInfo(args, TupleSInfo({lv0->struct_info}));
    call_tir = CallOp("relax.call_tir", {make<GlobalVarNode>("relu"), args}, Tensor({n, MakeInt(4)}),
                      {Tensor({n, MakeInt(4)})});
  }

  std::vector<Binding> Bindings() const {
    Expr shape = make<ShapeExprNode>(std::vector<PrimExpr>{n * 4});
    return {Bind(lv0, CallOp("relax.add", {x, x}, Tensor({n, MakeInt(4)}))), Bind(lv1, call_tir),
            Bind(lv2, CallOp("relax.reshape", {lv1, shape}, Tensor({n * 4}))),
            MatchCastTo(lv3, lv2, Tensor({m})), Bind(gv, CallOp("relax.exp", {lv3}, Tensor({m})))};
  }

  Function Main(std::vector<Binding> bindings, const Expr& result) const {
    return Func({x}, Seq({Dataflow(std::move(bindings))}, result), TensorSInfo(kF32, 1));
  }
  Function Main() const { return Main(Bindings(), gv); }

  // def relu(X: (n, 4), Y: (n, 4)): Y[vi, vj] = max(X[vi, vj], 0) over a block.
  tir::PrimFunc Relu() const { return ReluWith(nullptr); }

  // The relu PrimFunc; `edit` may change its parts before assembly.
  struct ReluParts {
    ir::Var n, i, j, vi, vj, x_handle, y_handle;
    ir::Buffer x_buf, y_buf;
    std::vector<PrimExpr> iter_values;
    tir::Stmt store;
  };
  tir::PrimFunc ReluWith(const std::function<void(ReluParts&)>& edit) const {
    ReluParts p;
    p.n = ir::MakeVar("n");
    p.i = ir::MakeVar("i");
    p.j = ir::MakeVar("j");
    p.vi = ir::MakeVar("vi");
    p.vj = ir::MakeVar("vj");
    p.x_handle = ir::MakeVar("x", DataType::Handle());
    p.y_handle = ir::MakeVar("y", DataType::Handle());
    p.x_buf = ir::MakeBuffer("X", {p.n, MakeInt(4)}, kF32);
    p.y_buf = ir::MakeBuffer("Y", {p.n, MakeInt(4)}, kF32);
    p.iter_values = {p.i, p.j};
    PrimExpr load = make<ir::BufferLoadNode>(p.x_buf, std::vector<PrimExpr>{p.vi, p.vj});
    p.store = make<tir::BufferStoreNode>(p.y_buf, ir::max(load, ir::MakeFloat(0.0)), std::vector<PrimExpr>{p.vi, p.vj});
    if (edit) edit(p);

    auto* block = new tir::BlockNode();
    block->name = "relu";
    block->iter_vars = {make<tir::IterVarNode>(p.vi, tir::Range{MakeInt(0), p.n}, tir::IterKind::kSpatial),
                        make<tir::IterVarNode>(p.vj, tir::Range{MakeInt(0), MakeInt(4)}, tir::IterKind::kSpatial)};
    block->body = p.store;
    auto* realize = new tir::BlockRealizeNode();
    realize->iter_values = p.iter_values;
    realize->predicate = ir::MakeBool(true);
    realize->block = tir::Block(block);
    tir::Stmt body = Loop(p.i, p.n, Loop(p.j, MakeInt(4), tir::Stmt(realize)));

    auto* func = new tir::PrimFuncNode();
    func->params = {p.x_handle, p.y_handle};
    func->buffer_map = {{p.x_handle, p.x_buf}, {p.y_handle, p.y_buf}};
    func->body = body;
    return tir::PrimFunc(func);
  }

  static tir::Stmt Loop(const ir::Var& var, const PrimExpr& extent, const tir::Stmt& body) {
    auto* loop = new tir::ForNode();
    loop->loop_var = var;
    loop->min = MakeInt(0);
    loop->extent = extent;
    loop->body = body;
    return tir::Stmt(loop);
  }

  ir::IRModule Mod(const Function& main) const { return Module({{"relu", Relu()}, {"main", main}}); }
  ir::IRModule Mod() const { return Mod(Main()); }
};

// ---------------------------------------------------------------- well formed

TEST(WellFormedTest, PrimerModuleIsWellFormed) {
  Primer p;
  EXPECT_EQ(FirstError(p.Mod()), "");
  EXPECT_NO_THROW(CheckWellFormed(p.Mod()));
}

// The same program emitted through the BlockBuilder (struct info deduced,
// not written by hand), plus an If in a binding block, is well formed too.
TEST(WellFormedTest, BuilderOutputIsWellFormed) {
  Primer p;
  ir::IRModule context = Module({{"relu", p.Relu()}});
  BlockBuilder bb(context);
  Var cond = MakeVar("cond", PrimSInfo(DataType::Bool()));
  bb.BeginScope({p.x, cond});
  bb.BeginDataflowBlock();
  Var lv0 = bb.Emit(op::add(p.x, p.x), "lv0");
  Expr args = make<TupleNode>(std::vector<Expr>{lv0});
  Var lv1 = bb.Emit(MakeCall("relax.call_tir", {make<GlobalVarNode>("relu"), args}, nullptr,
                             {Tensor({p.n, MakeInt(4)})}),
                    "lv1");
  Var lv2 = bb.EmitMatchCast(lv1, Tensor({p.m, MakeInt(4)}), "lv2");
  Var gv = bb.EmitOutput(op::exp(lv2), "gv");
  BindingBlock dataflow = bb.EndBlock();
  bb.BeginBindingBlock();
  Var y = MakeVar("y", nullptr);
  Expr if_expr = make<IfNode>(cond, gv, op::exp(gv));  // branches become SeqExprs
  bb.EmitWithVar(y, if_expr);
  BindingBlock plain = bb.EndBlock();
  bb.EndScope();
  Expr func = bb.Normalize(
      make<FunctionNode>(std::vector<Var>{p.x, cond}, make<SeqExprNode>(std::vector<BindingBlock>{dataflow, plain}, y),
                         TensorSInfo(kF32, 2)));
  EXPECT_EQ(FirstError(Module({{"relu", p.Relu()}, {"main", func}})), "");
}

TEST(WellFormedTest, EmptyModuleIsWellFormed) { EXPECT_EQ(FirstError(Module({})), ""); }

// ---------------------------------------------------------------- variables

TEST(WellFormedTest, VarUsedBeforeDefinition) {
  Primer p;
  std::vector<Binding> bindings = p.Bindings();
  std::swap(bindings[0], bindings[1]);  // lv1 = call_tir(.., (lv0,)) before lv0 = ...
  std::string error = FirstError(p.Mod(p.Main(bindings, p.gv)));
  EXPECT_THAT(error, HasSubstr("function 'main'"));
  EXPECT_THAT(error, HasSubstr("DataflowVar 'lv0' is used before its definition"));
}

TEST(WellFormedTest, VarDefinedTwice) {
  Primer p;
  std::vector<Binding> bindings = p.Bindings();
  bindings.push_back(Bind(p.gv, CallOp("relax.exp", {p.lv3}, Tensor({p.m}))));
  EXPECT_THAT(FirstError(p.Mod(p.Main(bindings, p.gv))), HasSubstr("Var 'gv' is defined more than once"));
}

TEST(WellFormedTest, ParameterUsedWithoutBeingAParameter) {
  Primer p;
  Var y = MakeVar("y", Tensor({p.n, MakeInt(4)}));
  std::vector<Binding> bindings = p.Bindings();
  bindings[0] = Bind(p.lv0, CallOp("relax.add", {p.x, y}, Tensor({p.n, MakeInt(4)})));
  EXPECT_THAT(FirstError(p.Mod(p.Main(bindings, p.gv))), HasSubstr("Var 'y' is used before its definition"));
}

TEST(WellFormedTest, DataflowVarUsedOutsideItsBlock) {
  Primer p;
  std::vector<Binding> bindings = p.Bindings();
  Function main = p.Main(bindings, p.lv3);  // return lv3, a DataflowVar
  std::string error = FirstError(p.Mod(main));
  EXPECT_EQ(error, "function 'main': DataflowVar 'lv3' used outside its dataflow block");
}

TEST(WellFormedTest, DataflowVarUsedInALaterDataflowBlock) {
  Primer p;
  std::vector<Binding> bindings = p.Bindings();
  Var later = MakeDataflowVar("later", Tensor({p.m}));
  Var out = MakeVar("out", Tensor({p.m}));
  Function main = Func({p.x},
                       Seq({Dataflow(bindings), Dataflow({Bind(later, CallOp("relax.exp", {p.lv3}, Tensor({p.m}))),
                                                          Bind(out, later)})},
                           out),
                       TensorSInfo(kF32, 1));
  EXPECT_THAT(FirstError(p.Mod(main)), HasSubstr("DataflowVar 'lv3' used outside its dataflow block"));
}

TEST(WellFormedTest, DataflowVarDefinedOutsideDataflowBlock) {
  Primer p;
  Var lv = MakeDataflowVar("lv", Tensor({p.n, MakeInt(4)}));
  Function main = Func({p.x}, Seq({Plain({Bind(lv, CallOp("relax.add", {p.x, p.x}, Tensor({p.n, MakeInt(4)})))})}, p.x),
                       TensorSInfo(kF32, 2));
  EXPECT_THAT(FirstError(ModuleOf(main)), HasSubstr("DataflowVar 'lv' is defined outside a dataflow block"));
}

TEST(WellFormedTest, DataflowVarAsParameter) {
  Var param = MakeDataflowVar("lv", Tensor({MakeInt(2)}));
  Function main = Func({param}, Seq({}, param), Tensor({MakeInt(2)}));
  EXPECT_THAT(FirstError(ModuleOf(main)), HasSubstr("DataflowVar 'lv' cannot be a function parameter"));
  EXPECT_EQ(Messages(ModuleOf(main)).size(), 1u);  // its use in the body is not reported again
}

TEST(WellFormedTest, VarOfAnIfBranchIsInvisibleAfterIt) {
  Var cond = MakeVar("cond", PrimSInfo(DataType::Bool()));
  Var x = MakeVar("x", Tensor({MakeInt(2)}));
  Var a = MakeVar("a", Tensor({MakeInt(2)}));
  Var b = MakeVar("b", Tensor({MakeInt(2)}));
  Var y = MakeVar("y", Tensor({MakeInt(2)}));
  Expr then_branch = Seq({Plain({Bind(a, CallOp("relax.exp", {x}, Tensor({MakeInt(2)})))})}, a);
  Expr else_branch = Seq({Plain({Bind(b, CallOp("relax.exp", {x}, Tensor({MakeInt(2)})))})}, b);
  Expr if_expr = make<IfNode>(cond, then_branch, else_branch);
  UpdateStructInfo(if_expr, Tensor({MakeInt(2)}));

  Function good = Func({cond, x}, Seq({Plain({Bind(y, if_expr)})}, y), Tensor({MakeInt(2)}));
  EXPECT_EQ(FirstError(ModuleOf(good)), "");

  Function bad = Func({cond, x}, Seq({Plain({Bind(y, if_expr)})}, a), Tensor({MakeInt(2)}));
  EXPECT_THAT(FirstError(ModuleOf(bad)), HasSubstr("Var 'a' is used before its definition"));
}

TEST(WellFormedTest, ParameterSharedByTwoFunctions) {
  Var x = MakeVar("x", Tensor({MakeInt(2)}));
  Function f = Func({x}, Seq({}, x), Tensor({MakeInt(2)}));
  Function g = Func({x}, Seq({}, x), Tensor({MakeInt(2)}));
  EXPECT_THAT(FirstError(Module({{"f", f}, {"g", g}})),
              HasSubstr("Var 'x' is a parameter of both function 'f' and function 'g'"));
}

// ---------------------------------------------------------------- symbolic variables

TEST(WellFormedTest, UndefinedSymbolicVarInShape) {
  Primer p;
  ir::Var k = ir::MakeVar("k");
  std::vector<Binding> bindings = p.Bindings();
  Expr shape = make<ShapeExprNode>(std::vector<PrimExpr>{k});
  bindings[2] = Bind(p.lv2, CallOp("relax.reshape", {p.lv1, shape}, Tensor({p.n * 4})));
  std::string error = FirstError(p.Mod(p.Main(bindings, p.gv)));
  EXPECT_THAT(error, HasSubstr("function 'main': symbolic variable 'k' is used but not defined"));
}

TEST(WellFormedTest, SymbolicVarDefinedByMatchCastOnlyAfterIt) {
  Primer p;
  std::vector<Binding> bindings = p.Bindings();
  // lv2 annotated with m before the match_cast that defines m.
  Var early = MakeDataflowVar("lv2", Tensor({p.m}));
  bindings[2] = Bind(early, CallOp("relax.reshape", {p.lv1, make<ShapeExprNode>(std::vector<PrimExpr>{p.n * 4})},
                                   Tensor({p.n * 4})));
  bindings[3] = MatchCastTo(p.lv3, early, Tensor({p.m}));
  EXPECT_THAT(FirstError(p.Mod(p.Main(bindings, p.gv))), HasSubstr("symbolic variable 'm' is used but not defined"));
}

TEST(WellFormedTest, ReturnAnnotationMayOnlyUseParameterVars) {
  Primer p;
  Function main = Func({p.x}, Seq({Dataflow(p.Bindings())}, p.gv), Tensor({p.m}));
  EXPECT_THAT(FirstError(p.Mod(main)), HasSubstr("symbolic variable 'm' is used but not defined"));
}

TEST(WellFormedTest, CallableStructInfoBindsItsOwnSymbolicVars) {
  ir::Var k = ir::MakeVar("k");
  StructInfo callable = make<FuncStructInfoNode>(std::vector<StructInfo>{Tensor({k})}, Tensor({k}));
  Var f = MakeVar("f", callable);
  Var x = MakeVar("x", Tensor({MakeInt(3)}));
  Var y = MakeVar("y", Tensor({MakeInt(3)}));
  Expr call = make<CallNode>(f, std::vector<Expr>{x});
  UpdateStructInfo(call, Tensor({MakeInt(3)}));
  Function main = Func({f, x}, Seq({Plain({Bind(y, call)})}, y), Tensor({MakeInt(3)}));
  EXPECT_EQ(FirstError(ModuleOf(main)), "");
}

TEST(WellFormedTest, ShapeDimensionsMustBeIntegers) {
  Var x = MakeVar("x", Tensor({MakeInt(4)}));
  Var y = MakeVar("y", Tensor({MakeInt(4)}));
  Expr shape = make<ShapeExprNode>(std::vector<PrimExpr>{ir::MakeFloat(4.0)});
  Function main = Func({x}, Seq({Plain({Bind(y, CallOp("relax.reshape", {x, shape}, Tensor({MakeInt(4)})))})}, y),
                       Tensor({MakeInt(4)}));
  EXPECT_THAT(FirstError(ModuleOf(main)), HasSubstr("has type float32; expected an integer"));
}

// ---------------------------------------------------------------- struct info and normal form

TEST(WellFormedTest, ExpressionWithoutStructInfo) {
  Primer p;
  std::vector<Binding> bindings = p.Bindings();
  bindings[0] = Bind(p.lv0, CallOp("relax.add", {p.x, p.x}, nullptr));
  EXPECT_THAT(FirstError(p.Mod(p.Main(bindings, p.gv))), HasSubstr("call to R.add has no struct info"));
}

TEST(WellFormedTest, VariableWithoutStructInfo) {
  Var x = MakeVar("x", Tensor({MakeInt(2)}));
  Var y = MakeVar("y", nullptr);
  Function main = Func({x}, Seq({Plain({Bind(y, CallOp("relax.exp", {x}, Tensor({MakeInt(2)})))})}, y,
                           Tensor({MakeInt(2)})),
                       Tensor({MakeInt(2)}));
  std::vector<std::string> messages = Messages(ModuleOf(main));
  ASSERT_EQ(messages.size(), 1u);  // reported at the definition, not again at the use
  EXPECT_EQ(messages[0], "function 'main': Var 'y' has no struct info");
}

TEST(WellFormedTest, NestedCallArgumentIsNotANormalForm) {
  Primer p;
  std::vector<Binding> bindings = p.Bindings();
  Expr inner = CallOp("relax.add", {p.x, p.x}, Tensor({p.n, MakeInt(4)}));
  bindings[0] = Bind(p.lv0, CallOp("relax.add", {inner, p.x}, Tensor({p.n, MakeInt(4)})));
  EXPECT_THAT(FirstError(p.Mod(p.Main(bindings, p.gv))),
              HasSubstr("argument 0 of call to R.add must be a leaf expression"));
}

TEST(WellFormedTest, FunctionBodyMustBeASeqExpr) {
  Var x = MakeVar("x", Tensor({MakeInt(2)}));
  Function main = Func({x}, CallOp("relax.exp", {x}, Tensor({MakeInt(2)})), Tensor({MakeInt(2)}));
  EXPECT_THAT(FirstError(ModuleOf(main)), HasSubstr("the body of the function must be a SeqExpr, got call to R.exp"));
}

TEST(WellFormedTest, IfBranchMustBeASeqExpr) {
  Var cond = MakeVar("cond", PrimSInfo(DataType::Bool()));
  Var x = MakeVar("x", Tensor({MakeInt(2)}));
  Var y = MakeVar("y", Tensor({MakeInt(2)}));
  Expr if_expr = make<IfNode>(cond, x, Seq({}, x));
  UpdateStructInfo(if_expr, Tensor({MakeInt(2)}));
  Function main = Func({cond, x}, Seq({Plain({Bind(y, if_expr)})}, y), Tensor({MakeInt(2)}));
  EXPECT_THAT(FirstError(ModuleOf(main)), HasSubstr("the true branch of an If must be a SeqExpr, got Var 'x'"));
}

TEST(WellFormedTest, IfInsideDataflowBlock) {
  Var cond = MakeVar("cond", PrimSInfo(DataType::Bool()));
  Var x = MakeVar("x", Tensor({MakeInt(2)}));
  Var y = MakeVar("y", Tensor({MakeInt(2)}));
  Expr if_expr = make<IfNode>(cond, Seq({}, x), Seq({}, x));
  UpdateStructInfo(if_expr, Tensor({MakeInt(2)}));
  Function main = Func({cond, x}, Seq({Dataflow({Bind(y, if_expr)})}, y), Tensor({MakeInt(2)}));
  EXPECT_THAT(FirstError(ModuleOf(main)), HasSubstr("an If is not allowed inside a dataflow block"));
}

TEST(WellFormedTest, GlobalVarMustNameAModuleFunction) {
  Primer p;
  // The module lacks "relu", which call_tir refers to.
  EXPECT_THAT(FirstError(Module({{"main", p.Main()}})),
              HasSubstr("GlobalVar 'relu' does not name a function of the module"));
}

// ---------------------------------------------------------------- purity

// y = R.call_packed("my_lib.log", x, sinfo_args=R.Object)
Expr CallPacked(const Expr& arg, const Span& span = Span()) {
  Expr call = CallOp("relax.call_packed", {make<ExternFuncNode>("my_lib.log"), arg}, ObjectSInfo(), {ObjectSInfo()});
  const_cast<ExprNode*>(call.get())->span = span;
  return call;
}

TEST(WellFormedTest, ImpureCallInsideDataflowBlock) {
  Var x = MakeVar("x", Tensor({MakeInt(2)}));
  Var lv = MakeDataflowVar("lv", ObjectSInfo());
  Function main = Func({x}, Seq({Dataflow({Bind(lv, CallPacked(x, SpanAt(3)))})}, x), Tensor({MakeInt(2)}),
                       /*is_pure=*/false);
  std::vector<Diagnostic> diags = WellFormedDiagnostics(ModuleOf(main));
  ASSERT_FALSE(diags.empty());
  EXPECT_EQ(diags[0].message, "function 'main': impure call to R.call_packed inside a dataflow block");
  EXPECT_EQ(diags[0].span.line, 3);
  EXPECT_THAT(diags[0].Render(), HasSubstr("model.py:3:1: error:"));
}

TEST(WellFormedTest, ImpureCallInPureFunction) {
  Var x = MakeVar("x", Tensor({MakeInt(2)}));
  Var y = MakeVar("y", ObjectSInfo());
  Expr body = Seq({Plain({Bind(y, CallPacked(x))})}, x);
  EXPECT_THAT(FirstError(ModuleOf(Func({x}, body, Tensor({MakeInt(2)})))),
              HasSubstr("the function is pure but calls impure R.call_packed"));
  // Marked impure, or forced pure: fine.
  EXPECT_EQ(FirstError(ModuleOf(Func({x}, body, Tensor({MakeInt(2)}), /*is_pure=*/false))), "");
  Dict force = ir::DictWith(nullptr, "relax.force_pure", ir::MakeBool(true));
  EXPECT_EQ(FirstError(ModuleOf(Func({x}, body, Tensor({MakeInt(2)}), /*is_pure=*/true, force))), "");
}

TEST(WellFormedTest, ForcePureRequiresPureFunction) {
  Var x = MakeVar("x", Tensor({MakeInt(2)}));
  Dict force = ir::DictWith(nullptr, "relax.force_pure", ir::MakeBool(true));
  Function main = Func({x}, Seq({}, x), Tensor({MakeInt(2)}), /*is_pure=*/false, force);
  EXPECT_THAT(FirstError(ModuleOf(main)),
              HasSubstr("attribute \"relax.force_pure\" is set but the function is not marked pure"));
}

TEST(WellFormedTest, CallToImpureModuleFunction) {
  Var a = MakeVar("a", Tensor({MakeInt(2)}));
  Function impure = Func({a}, Seq({}, a), Tensor({MakeInt(2)}), /*is_pure=*/false);
  Var x = MakeVar("x", Tensor({MakeInt(2)}));
  Var y = MakeVar("y", Tensor({MakeInt(2)}));
  Expr call = make<CallNode>(make<GlobalVarNode>("helper"), std::vector<Expr>{x});
  UpdateStructInfo(call, Tensor({MakeInt(2)}));
  Function main = Func({x}, Seq({Plain({Bind(y, call)})}, y), Tensor({MakeInt(2)}));
  EXPECT_THAT(FirstError(Module({{"helper", impure}, {"main", main}})),
              HasSubstr("function 'main': the function is pure but calls impure 'helper'"));
}

// ---------------------------------------------------------------- diagnostics

TEST(WellFormedTest, DiagnosticsCollectEveryViolation) {
  Primer p;
  std::vector<Binding> bindings = p.Bindings();
  bindings[0] = Bind(p.lv0, CallOp("relax.add", {p.x, p.x}, nullptr));  // no struct info
  Function main = p.Main(bindings, p.lv3);                             // DataflowVar escapes
  std::vector<std::string> messages = Messages(Module({{"main", main}}));  // and relu is missing
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_THAT(messages[0], HasSubstr("has no struct info"));
  EXPECT_THAT(messages[1], HasSubstr("GlobalVar 'relu'"));
  EXPECT_THAT(messages[2], HasSubstr("DataflowVar 'lv3' used outside its dataflow block"));
}

// ---------------------------------------------------------------- PrimFuncs

TEST(WellFormedTirTest, ReluIsWellFormed) {
  Primer p;
  EXPECT_EQ(FirstError(Module({{"relu", p.Relu()}})), "");
}

TEST(WellFormedTirTest, UndefinedVariable) {
  Primer p;
  ir::Var k = ir::MakeVar("k");
  tir::PrimFunc func = p.ReluWith([&](Primer::ReluParts& parts) { parts.iter_values = {parts.i, k}; });
  EXPECT_THAT(FirstError(Module({{"relu", func}})),
              HasSubstr("PrimFunc 'relu': variable 'k' is used but not bound"));
}

TEST(WellFormedTirTest, BlockIterVarUsedOutsideItsBlock) {
  Primer p;
  tir::PrimFunc func = p.ReluWith([&](Primer::ReluParts& parts) {
    // The realize binds (vi, j): vi belongs to the block it realizes.
    parts.iter_values = {parts.vi, parts.j};
  });
  EXPECT_THAT(FirstError(Module({{"relu", func}})), HasSubstr("variable 'vi' is used but not bound"));
}

TEST(WellFormedTirTest, UndeclaredBuffer) {
  Primer p;
  tir::PrimFunc func = p.ReluWith([&](Primer::ReluParts& parts) {
    ir::Buffer other = ir::MakeBuffer("Z", {parts.n, MakeInt(4)}, kF32);
    parts.store = make<tir::BufferStoreNode>(other, ir::MakeFloat(0.0), std::vector<PrimExpr>{parts.vi, parts.vj});
  });
  EXPECT_THAT(FirstError(Module({{"relu", func}})), HasSubstr("buffer 'Z' is used but not declared"));
}

TEST(WellFormedTirTest, AllocatedAndDeclaredBuffersAreInScope) {
  Primer p;
  tir::PrimFunc func = p.ReluWith([&](Primer::ReluParts& parts) {
    ir::Buffer scratch = ir::MakeBuffer("scratch", {MakeInt(4)}, kF32);
    tir::Stmt write = make<tir::BufferStoreNode>(scratch, ir::MakeFloat(1.0), std::vector<PrimExpr>{parts.vj});
    auto* alloc = new tir::AllocateNode();
    alloc->buffer_var = scratch->data;
    alloc->dtype = kF32;
    alloc->extents = {MakeInt(4)};
    alloc->body = make<tir::DeclBufferNode>(scratch, tir::MakeSeq({write, parts.store}));
    parts.store = tir::Stmt(alloc);
  });
  EXPECT_EQ(FirstError(Module({{"relu", func}})), "");
}

TEST(WellFormedTirTest, LoopVariableRedefined) {
  Primer p;
  tir::PrimFunc func = p.ReluWith(nullptr);
  auto* node = const_cast<tir::PrimFuncNode*>(func.get());
  const auto* outer = node->body.as<tir::ForNode>();
  node->body = Primer::Loop(outer->loop_var, MakeInt(2), node->body);  // for i: for i: ...
  EXPECT_THAT(FirstError(Module({{"relu", func}})), HasSubstr("loop variable 'i' is redefined"));
}

TEST(WellFormedTirTest, IterValueCountMustMatchIterVars) {
  Primer p;
  tir::PrimFunc func = p.ReluWith([&](Primer::ReluParts& parts) { parts.iter_values = {parts.i}; });
  EXPECT_THAT(FirstError(Module({{"relu", func}})),
              HasSubstr("block 'relu' has 2 iteration variable(s) but its BlockRealize binds 1 value(s)"));
}

TEST(WellFormedTirTest, BufferMapVariablesDefineInAnyOrder) {
  ir::Var n = ir::MakeVar("n");
  ir::Var m = ir::MakeVar("m");
  ir::Var a = ir::MakeVar("a", DataType::Handle());
  ir::Var b = ir::MakeVar("b", DataType::Handle());
  ir::Buffer flat = ir::MakeBuffer("A", {n * m}, kF32);  // uses n, m before B defines them
  ir::Buffer grid = ir::MakeBuffer("B", {n, m}, kF32);
  PrimExpr load = make<ir::BufferLoadNode>(flat, std::vector<PrimExpr>{MakeInt(0)});
  auto* func = new tir::PrimFuncNode();
  func->params = {a, b};
  func->buffer_map = {{a, flat}, {b, grid}};
  func->body = make<tir::BufferStoreNode>(grid, load, std::vector<PrimExpr>{MakeInt(0), MakeInt(0)});
  EXPECT_EQ(FirstError(Module({{"copy", tir::PrimFunc(func)}})), "");
}

TEST(WellFormedTirTest, BlockAllocBufferInvisibleOutsideTheBlock) {
  Primer p;
  ir::Buffer local = ir::MakeBuffer("local", {MakeInt(4)}, kF32);
  tir::PrimFunc func = p.ReluWith(nullptr);
  auto* node = const_cast<tir::PrimFuncNode*>(func.get());
  // Give the relu block an alloc buffer, and store to it after the loops.
  const auto* realize = node->body.as<tir::ForNode>()->body.as<tir::ForNode>()->body.as<tir::BlockRealizeNode>();
  const_cast<tir::BlockNode*>(realize->block.get())->alloc_buffers.push_back(local);
  tir::Stmt after = make<tir::BufferStoreNode>(local, ir::MakeFloat(0.0), std::vector<PrimExpr>{MakeInt(0)});
  node->body = tir::MakeSeq({node->body, after});
  EXPECT_THAT(FirstError(Module({{"relu", func}})), HasSubstr("buffer 'local' is used but not declared"));
}

TEST(WellFormedTirTest, ExternFunctionIsAModuleEntry) {
  // `my_ext = R.ExternFunc("my_ext")` in a module class: a function defined
  // outside the module; a plain string is not a function.
  Primer p;
  ObjectRef ext(static_cast<const Node*>(new ExternFuncNode("my_ext")));
  EXPECT_EQ(FirstError(Module({{"relu", p.Relu()}, {"my_ext", ext}})), "");
  EXPECT_THAT(FirstError(Module({{"relu", p.Relu()}, {"name", ir::MakeString("x")}})),
              HasSubstr("module entry 'name' is neither"));
}

TEST(WellFormedTirTest, BufferViewOfBoundDataIsInScope) {
  // `Flat = T.Buffer((16,), data=A.data)`: a view of a parameter's memory
  // (TVM's flattened form) needs no declaration of its own.
  ir::Var a = ir::MakeVar("a", DataType::Handle());
  ir::Buffer grid = ir::MakeBuffer("A", {MakeInt(4), MakeInt(4)}, kF32);
  ir::Buffer flat = ir::MakeBuffer("Flat", {MakeInt(16)}, kF32);
  const_cast<ir::BufferNode*>(flat.get())->data = grid->data;
  ir::Buffer stray = ir::MakeBuffer("Stray", {MakeInt(16)}, kF32);  // its own, unbound data
  auto make_func = [&](const ir::Buffer& target) {
    auto* func = new tir::PrimFuncNode();
    func->params = {a};
    func->buffer_map = {{a, grid}};
    func->body = make<tir::BufferStoreNode>(target, ir::MakeFloat(0.0), std::vector<PrimExpr>{MakeInt(3)});
    return tir::PrimFunc(func);
  };
  EXPECT_EQ(FirstError(Module({{"f", make_func(flat)}})), "");
  EXPECT_THAT(FirstError(Module({{"f", make_func(stray)}})), HasSubstr("buffer 'Stray' is used but not declared"));
}

TEST(WellFormedTirTest, LetVariableScopedToItsBody) {
  ir::Var a = ir::MakeVar("a", DataType::Handle());
  ir::Buffer out = ir::MakeBuffer("Out", {MakeInt(4)}, kF32);
  ir::Var t = ir::MakeVar("t");
  tir::Stmt store = make<tir::BufferStoreNode>(out, ir::MakeFloat(0.0), std::vector<PrimExpr>{t});
  auto make_func = [&](tir::Stmt body) {
    auto* func = new tir::PrimFuncNode();
    func->params = {a};
    func->buffer_map = {{a, out}};
    func->body = std::move(body);
    return tir::PrimFunc(func);
  };
  tir::Stmt let = make<tir::LetStmtNode>(t, MakeInt(1), store);
  EXPECT_EQ(FirstError(Module({{"f", make_func(let)}})), "");
  EXPECT_THAT(FirstError(Module({{"f", make_func(tir::MakeSeq({let, store}))}})),
              HasSubstr("variable 't' is used but not bound"));
}

}  // namespace
}  // namespace rlx::graph
