// Tests for structural equality and hashing (graph/structural_equal.h).
//
// Most tests build the same program twice, independently, with different
// variable names (the `Names` argument of the builders), then change one
// thing and check that the comparison reports it at the expected path.
#include "rlx/graph/structural_equal.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "rlx/graph/expr.h"
#include "rlx/ir/module.h"
#include "rlx/tir/function.h"

namespace rlx::graph {
namespace {

using ir::PrimExpr;

const DataType kF32 = DataType::Float32();
const DataType kI64 = DataType::Int64();

// The mismatch message, or "" when equal (keeps expectations one-liners).
std::string Mismatch(const ObjectRef& lhs, const ObjectRef& rhs) {
  return StructuralMismatch(lhs, rhs).value_or("");
}

void ExpectEqualAndSameHash(const ObjectRef& lhs, const ObjectRef& rhs) {
  EXPECT_EQ(Mismatch(lhs, rhs), "");
  EXPECT_TRUE(StructuralEqual(lhs, rhs));
  EXPECT_EQ(StructuralHash(lhs), StructuralHash(rhs));
}

BindingBlock Dataflow(std::vector<Binding> bindings) { return make<DataflowBlockNode>(std::move(bindings)); }
Binding Bind(Var var, Expr value) { return make<VarBindingNode>(std::move(var), std::move(value)); }
Expr Seq(std::vector<BindingBlock> blocks, Expr body) { return make<SeqExprNode>(std::move(blocks), std::move(body)); }
Function Func(std::vector<Var> params, Expr body, StructInfo ret, ir::Dict attrs = nullptr) {
  return make<FunctionNode>(std::move(params), std::move(body), std::move(ret), true, std::move(attrs));
}
ir::Dict Attrs(std::vector<ir::DictNode::Item> items) { return make<ir::DictNode>(std::move(items)); }
ir::IRModule Module(std::vector<ir::IRModuleNode::Entry> functions) {
  return make<ir::IRModuleNode>(std::move(functions), nullptr);
}

// ---------------------------------------------------------------------------
// The primer's program: a PrimFunc `relu` and a graph function `main`.

struct Names {
  std::string n = "n", x = "x", w = "w", lv = "lv", out = "gv";
  std::string i = "i", j = "j", vi = "vi", vj = "vj", X = "X", Y = "Y";
};

// relu(x: handle, y: handle) with X, Y: (n, 4) float32 and a block per element.
// `y_cols` is Y's second dimension; `swap_load` reads X[vj, vi] instead.
tir::PrimFunc BuildRelu(const Names& names, int64_t y_cols = 4, bool swap_load = false) {
  ir::Var n = ir::MakeVar(names.n);
  ir::Var x = ir::MakeVar(names.x, DataType::Handle());
  ir::Var y = ir::MakeVar(names.x + "_out", DataType::Handle());
  ir::Buffer X = ir::MakeBuffer(names.X, {n, ir::MakeInt(4)}, kF32);
  ir::Buffer Y = ir::MakeBuffer(names.Y, {n, ir::MakeInt(y_cols)}, kF32);
  ir::Var i = ir::MakeVar(names.i), j = ir::MakeVar(names.j);
  ir::Var vi = ir::MakeVar(names.vi), vj = ir::MakeVar(names.vj);

  std::vector<PrimExpr> load_at = swap_load ? std::vector<PrimExpr>{vj, vi} : std::vector<PrimExpr>{vi, vj};
  PrimExpr load = make<ir::BufferLoadNode>(X, load_at);
  auto* block = new tir::BlockNode();
  block->name = "relu";
  block->iter_vars = {make<tir::IterVarNode>(vi, tir::Range{ir::MakeInt(0), n}, tir::IterKind::kSpatial),
                      make<tir::IterVarNode>(vj, tir::Range{ir::MakeInt(0), ir::MakeInt(4)}, tir::IterKind::kSpatial)};
  block->reads = {make<tir::BufferRegionNode>(X, std::vector<tir::Range>{{vi, ir::MakeInt(1)}, {vj, ir::MakeInt(1)}})};
  block->writes = {make<tir::BufferRegionNode>(Y, std::vector<tir::Range>{{vi, ir::MakeInt(1)}, {vj, ir::MakeInt(1)}})};
  block->body = make<tir::BufferStoreNode>(Y, ir::max(load, ir::MakeFloat(0)), std::vector<PrimExpr>{vi, vj});

  auto* realize = new tir::BlockRealizeNode();
  realize->iter_values = {i, j};
  realize->predicate = ir::MakeBool(true);
  realize->block = tir::Block(block);

  auto* inner = new tir::ForNode();
  inner->loop_var = j;
  inner->min = ir::MakeInt(0);
  inner->extent = ir::MakeInt(4);
  inner->body = tir::Stmt(realize);
  auto* outer = new tir::ForNode();
  outer->loop_var = i;
  outer->min = ir::MakeInt(0);
  outer->extent = n;
  outer->body = tir::Stmt(inner);

  auto* func = new tir::PrimFuncNode();
  func->params = {x, y};
  func->buffer_map = {{x, X}, {y, Y}};
  func->body = tir::Stmt(outer);
  func->is_private = true;
  return tir::PrimFunc(func);
}

// What to vary in `main`.
struct MainVariant {
  int64_t reshape_factor = 4;  // lv2 = reshape(lv1, (n * factor,))
  int64_t x_cols = 4;          // x: Tensor((n, x_cols))
  std::string global_symbol = "main";
  bool output_is_dataflow = false;  // the output var a DataflowVar (ill-formed, but comparable)
};

// main(x: Tensor((n, 4)), w: Tensor((4, 4))):
//   with dataflow: lv0 = matmul(x, w); lv1 = call_tir(relu, (lv0,)); lv2 = reshape(lv1, (n * 4,)); gv = lv2
//   return gv
Function BuildMain(const Names& names, const MainVariant& v = {}) {
  ir::Var n = ir::MakeVar(names.n);
  StructInfo n_by_4 = TensorSInfo({n, ir::MakeInt(4)}, kF32);
  Var x = MakeVar(names.x, TensorSInfo({n, ir::MakeInt(v.x_cols)}, kF32));
  Var w = MakeVar(names.w, TensorSInfo({ir::MakeInt(4), ir::MakeInt(4)}, kF32));
  Var lv0 = MakeDataflowVar(names.lv + "0", n_by_4);
  Var lv1 = MakeDataflowVar(names.lv + "1", n_by_4);
  StructInfo flat = TensorSInfo({n * 4}, kF32);
  Var lv2 = MakeDataflowVar(names.lv + "2", flat);
  Var gv = v.output_is_dataflow ? MakeDataflowVar(names.out, flat) : MakeVar(names.out, flat);

  Expr call_tir = MakeCall("relax.call_tir", {make<GlobalVarNode>("relu"), make<TupleNode>(std::vector<Expr>{lv0})},
                           nullptr, {n_by_4});
  Expr reshape = MakeCall("relax.reshape", {lv1, make<ShapeExprNode>(std::vector<PrimExpr>{n * v.reshape_factor})});
  Expr body = Seq({Dataflow({Bind(lv0, MakeCall("relax.matmul", {x, w})), Bind(lv1, call_tir), Bind(lv2, reshape),
                             Bind(gv, lv2)})},
                  gv);
  return Func({x, w}, body, flat, Attrs({{"global_symbol", ir::MakeString(v.global_symbol)}}));
}

ir::IRModule BuildModule(const Names& names, const MainVariant& v = {}) {
  return Module({{"relu", BuildRelu(names)}, {"main", BuildMain(names, v)}});
}

const Names kRenamed{"m", "inp", "weight", "t", "result", "a", "b", "va", "vb", "In", "Out"};

// ---------------------------------------------------------------------------
// Whole modules.

TEST(StructuralEqual, ModulesBuiltTwiceWithDifferentNamesAreEqualAndHashEqual) {
  ExpectEqualAndSameHash(BuildModule(Names{}), BuildModule(kRenamed));
}

TEST(StructuralEqual, ChangedDimensionReportsPathAndBothSides) {
  MainVariant v;
  v.reshape_factor = 5;
  EXPECT_EQ(Mismatch(BuildModule(Names{}), BuildModule(kRenamed, v)),
            "functions[\"main\"].body.blocks[0].bindings[2].value.args[1].values[0]: lhs n * 4, rhs m * 5");
  EXPECT_FALSE(StructuralEqual(BuildModule(Names{}), BuildModule(Names{}, v)));
}

TEST(StructuralEqual, ParameterStructInfoIsComparedAtTheDefinition) {
  MainVariant v;
  v.x_cols = 5;
  EXPECT_EQ(Mismatch(BuildMain(Names{}), BuildMain(Names{}, v)),
            "params[0].struct_info.shape.values[1]: lhs 4, rhs 5");
}

TEST(StructuralEqual, ModuleFunctionOrderIsIrrelevant) {
  Names names;
  ir::IRModule forward = Module({{"relu", BuildRelu(names)}, {"main", BuildMain(names)}});
  ir::IRModule backward = Module({{"main", BuildMain(kRenamed)}, {"relu", BuildRelu(kRenamed)}});
  ExpectEqualAndSameHash(forward, backward);
}

TEST(StructuralEqual, ModuleMissingFunctionIsReportedByName) {
  ir::IRModule both = BuildModule(Names{});
  ir::IRModule only_main = Module({{"main", BuildMain(Names{})}});
  EXPECT_EQ(Mismatch(both, only_main), "functions[\"relu\"]: lhs PrimFunc, rhs (absent)");
  EXPECT_EQ(Mismatch(only_main, both), "functions[\"relu\"]: lhs (absent), rhs PrimFunc");
}

TEST(StructuralEqual, FunctionsWithTheSameBodyUnderDifferentNamesDiffer) {
  ir::IRModule lhs = Module({{"main", BuildMain(Names{})}});
  ir::IRModule rhs = Module({{"main2", BuildMain(Names{})}});
  EXPECT_FALSE(StructuralEqual(lhs, rhs));
  EXPECT_NE(StructuralHash(lhs), StructuralHash(rhs));
}

TEST(StructuralEqual, DictAttributeDifferenceReportsKey) {
  MainVariant v;
  v.global_symbol = "entry";
  EXPECT_EQ(Mismatch(BuildModule(Names{}), BuildModule(Names{}, v)),
            "functions[\"main\"].attrs[\"global_symbol\"]: lhs \"main\", rhs \"entry\"");
}

// ---------------------------------------------------------------------------
// Variable correspondence.

// f(x, y) = add(first, second) where first/second pick among the params.
Function BuildAdd(bool swap_use, const std::string& prefix = "") {
  StructInfo sinfo = TensorSInfo({ir::MakeInt(4)}, kF32);
  Var x = MakeVar(prefix + "x", sinfo);
  Var y = MakeVar(prefix + "y", sinfo);
  Var z = MakeVar(prefix + "z", sinfo);
  Expr sum = swap_use ? MakeCall("relax.add", {y, x}) : MakeCall("relax.add", {x, y});
  return Func({x, y}, Seq({make<BindingBlockNode>(std::vector<Binding>{Bind(z, sum)})}, z), sinfo);
}

TEST(StructuralEqual, SwappedUseOfTwoVarsIsNotEqual) {
  ExpectEqualAndSameHash(BuildAdd(false), BuildAdd(false, "p_"));
  std::string message = Mismatch(BuildAdd(false), BuildAdd(true));
  EXPECT_EQ(message,
            "body.blocks[0].bindings[0].value.args[0]: lhs Var x (matched earlier with rhs Var x), "
            "rhs Var y (matched earlier with lhs Var y)");
  EXPECT_NE(StructuralHash(BuildAdd(false)), StructuralHash(BuildAdd(true)));
}

TEST(StructuralEqual, CorrespondenceIsABijection) {
  StructInfo sinfo = TensorSInfo({ir::MakeInt(4)}, kF32);
  Var a = MakeVar("a", sinfo), b = MakeVar("b", sinfo), c = MakeVar("c", sinfo);
  // lhs uses two different vars where rhs uses the same one twice, and back.
  Expr two = MakeCall("relax.add", {a, b});
  Expr same = MakeCall("relax.add", {c, c});
  EXPECT_EQ(Mismatch(two, same), "args[1]: lhs Var b (first seen here), rhs Var c (matched earlier with lhs Var a)");
  EXPECT_EQ(Mismatch(same, two), "args[1]: lhs Var c (matched earlier with rhs Var a), rhs Var b (first seen here)");
  EXPECT_NE(StructuralHash(two), StructuralHash(same));
}

TEST(StructuralEqual, DataflowVarAndVarDiffer) {
  MainVariant v;
  v.output_is_dataflow = true;
  EXPECT_EQ(Mismatch(BuildMain(Names{}), BuildMain(Names{}, v)),
            "body.blocks[0].bindings[3].var: lhs Var gv, rhs DataflowVar gv");
  EXPECT_NE(StructuralHash(BuildMain(Names{})), StructuralHash(BuildMain(Names{}, v)));
}

// f(x: Tensor((d0, d1))) -> Tensor((d0 * d1,)): reshape(x, (d0 * d1,))
Function BuildFlatten(const std::string& n, const std::string& m, bool square) {
  ir::Var d0 = ir::MakeVar(n);
  ir::Var d1 = square ? d0 : ir::MakeVar(m);
  Var x = MakeVar("x", TensorSInfo({d0, d1}, kF32));
  StructInfo flat = TensorSInfo({d0 * d1}, kF32);
  Var y = MakeVar("y", flat);
  Expr reshape = MakeCall("relax.reshape", {x, make<ShapeExprNode>(std::vector<PrimExpr>{d0 * d1})});
  return Func({x}, Seq({make<BindingBlockNode>(std::vector<Binding>{Bind(y, reshape)})}, y), flat);
}

TEST(StructuralEqual, SymbolicVarsInSignaturesAreMapped) {
  ExpectEqualAndSameHash(BuildFlatten("n", "m", false), BuildFlatten("p", "q", false));
  EXPECT_EQ(Mismatch(BuildFlatten("n", "m", false), BuildFlatten("n", "m", true)),
            "params[0].struct_info.shape.values[1]: lhs m, rhs n (lhs m (first seen here), rhs n (matched earlier "
            "with lhs n))");
  EXPECT_NE(StructuralHash(BuildFlatten("n", "m", false)), StructuralHash(BuildFlatten("n", "m", true)));
}

TEST(StructuralEqual, SymbolicVarDtypeMustMatch) {
  ir::Var n64 = ir::MakeVar("n", kI64);
  ir::Var n32 = ir::MakeVar("n", DataType::Int32());
  EXPECT_EQ(Mismatch(TensorSInfo({n64}, kF32), TensorSInfo({n32}, kF32)),
            "shape.values[0]: lhs n, rhs n (lhs n: int64, rhs n: int32)");
}

// x: Tensor(ndim=1); y = match_cast(x, Tensor((m,))); z = reshape(y, (m or n,))
Function BuildMatchCast(const std::string& m_name, bool use_wrong_var) {
  ir::Var n = ir::MakeVar("n");
  ir::Var m = ir::MakeVar(m_name);
  Var x = MakeVar("x", TensorSInfo({n}, kF32));
  StructInfo pattern = TensorSInfo({m}, kF32);
  Var y = MakeVar("y", pattern);
  Var z = MakeVar("z", pattern);
  Binding cast = make<MatchCastNode>(y, x, pattern);
  Expr reshape = MakeCall("relax.reshape", {y, make<ShapeExprNode>(std::vector<PrimExpr>{use_wrong_var ? n : m})});
  return Func({x}, Seq({make<BindingBlockNode>(std::vector<Binding>{cast, Bind(z, reshape)})}, z), pattern);
}

TEST(StructuralEqual, MatchCastDefinesSymbolicVars) {
  ExpectEqualAndSameHash(BuildMatchCast("m", false), BuildMatchCast("k", false));
  EXPECT_EQ(Mismatch(BuildMatchCast("m", false), BuildMatchCast("m", true)),
            "body.blocks[0].bindings[1].value.args[1].values[0]: lhs m, rhs n (lhs m (matched earlier with rhs m), "
            "rhs n (matched earlier with lhs n))");
}

TEST(StructuralEqual, NoIdentityShortcutForSharedSubtrees) {
  // Both functions share one body object but bind the parameters in the
  // opposite order: the body is not the same program.
  StructInfo sinfo = TensorSInfo({ir::MakeInt(4)}, kF32);
  Var x = MakeVar("x", sinfo), y = MakeVar("y", sinfo);
  Expr body = MakeCall("relax.subtract", {x, y});
  Function xy = Func({x, y}, body, sinfo);
  Function yx = Func({y, x}, body, sinfo);
  EXPECT_FALSE(StructuralEqual(xy, yx));
  EXPECT_TRUE(StructuralEqual(xy, xy));
}

TEST(StructuralEqual, LocalRecursiveFunctionTerminates) {
  auto build = [](const std::string& name) {
    StructInfo sinfo = TensorSInfo({ir::MakeInt(4)}, kF32);
    StructInfo fsinfo = make<FuncStructInfoNode>(std::vector<StructInfo>{sinfo}, sinfo);
    Var self = MakeVar(name, fsinfo);
    Var p = MakeVar("p", sinfo);
    Function inner = Func({p}, make<CallNode>(self, std::vector<Expr>{p}), sinfo);
    Var x = MakeVar("x", sinfo);
    Var r = MakeVar("r", sinfo);
    Expr body = Seq({make<BindingBlockNode>(std::vector<Binding>{Bind(self, inner), Bind(r, make<CallNode>(
                                                                                             self, std::vector<Expr>{x}))})},
                    r);
    return Func({x}, body, sinfo);
  };
  ExpectEqualAndSameHash(build("loop"), build("again"));
}

// ---------------------------------------------------------------------------
// Tensor programs.

TEST(StructuralEqual, TirFunctionsWithRenamedLoopVarsAreEqual) {
  ExpectEqualAndSameHash(BuildRelu(Names{}), BuildRelu(kRenamed));
}

TEST(StructuralEqual, TirSwappedIndicesAreNotEqual) {
  EXPECT_EQ(Mismatch(BuildRelu(Names{}), BuildRelu(Names{}, 4, true)),
            "body.body.body.block.body.value: lhs max(X[vi, vj], 0), rhs max(X[vj, vi], 0) (at a.indices[0]: lhs vi "
            "(matched earlier with rhs vi), rhs vj (matched earlier with lhs vj))");
  EXPECT_NE(StructuralHash(BuildRelu(Names{})), StructuralHash(BuildRelu(Names{}, 4, true)));
}

TEST(StructuralEqual, BufferShapeMismatchReportsPath) {
  EXPECT_EQ(Mismatch(BuildRelu(Names{}), BuildRelu(kRenamed, 8)), "buffer_map[1].buffer.shape[1]: lhs 4, rhs 8");
}

TEST(StructuralEqual, ForKindAndBlockStructure) {
  tir::PrimFunc serial = BuildRelu(Names{});
  tir::PrimFunc parallel = BuildRelu(Names{});
  const_cast<tir::ForNode*>(parallel->body.as<tir::ForNode>())->for_kind = tir::ForKind::kParallel;
  EXPECT_EQ(Mismatch(serial, parallel), "body.for_kind: lhs serial, rhs parallel");
}

TEST(StructuralEqual, TirLetAndIfThenElseWithRenamedVars) {
  auto build = [](const std::string& name, int64_t bound) {
    ir::Var v = ir::MakeVar(name, DataType::Int32());
    ir::Var t = ir::MakeVar(name + "_t", DataType::Int32());
    tir::Stmt then_case = make<tir::EvaluateNode>(t + 1);
    tir::Stmt branch = make<tir::IfThenElseNode>(ir::lt(t, ir::MakeInt(bound, DataType::Int32())), then_case, nullptr);
    tir::Stmt let = make<tir::LetStmtNode>(t, v * 2, branch);
    auto* func = new tir::PrimFuncNode();
    func->params = {v};
    func->body = let;
    return tir::PrimFunc(func);
  };
  ExpectEqualAndSameHash(build("a", 10), build("b", 10));
  EXPECT_EQ(Mismatch(build("a", 10), build("b", 11)), "body.body.condition: lhs a_t < 10, rhs b_t < 11");
}

TEST(StructuralEqual, OmittedElemOffsetEqualsZero) {
  ir::Buffer implicit = ir::MakeBuffer("A", {ir::MakeInt(4)}, kF32);
  ir::Buffer explicit_zero = ir::MakeBuffer("B", {ir::MakeInt(4)}, kF32);
  const_cast<ir::BufferNode*>(explicit_zero.get())->elem_offset = ir::MakeInt(0);
  ExpectEqualAndSameHash(implicit, explicit_zero);
}

// ---------------------------------------------------------------------------
// Leaves compared by value.

Constant MakeConstant(std::vector<float> values, std::vector<int64_t> shape) {
  auto data = std::make_shared<TensorData>();
  data->dtype = kF32;
  data->shape = std::move(shape);
  data->bytes.resize(values.size() * sizeof(float));
  std::memcpy(data->bytes.data(), values.data(), data->bytes.size());
  return make<ConstantNode>(data);
}

TEST(StructuralEqual, ConstantsWithDifferentPayloadAreUnequalButHashEqual) {
  Constant a = MakeConstant({1, 2, 3, 4}, {2, 2});
  Constant b = MakeConstant({1, 2, 3, 5}, {2, 2});
  ExpectEqualAndSameHash(a, MakeConstant({1, 2, 3, 4}, {2, 2}));
  EXPECT_FALSE(StructuralEqual(a, b));
  EXPECT_EQ(StructuralHash(a), StructuralHash(b));
  EXPECT_EQ(Mismatch(a, b), "data.bytes: payloads differ, first at byte 14 (lhs 0x80, rhs 0xa0)");
}

TEST(StructuralEqual, ConstantsWithDifferentShapeDiffer) {
  Constant a = MakeConstant({1, 2, 3, 4}, {2, 2});
  Constant b = MakeConstant({1, 2, 3, 4}, {4});
  EXPECT_EQ(Mismatch(a, b), "data.shape: lhs (2, 2), rhs (4,)");
  EXPECT_NE(StructuralHash(a), StructuralHash(b));
}

TEST(StructuralEqual, GlobalVarsOpsAndExternFuncsCompareByName) {
  ExpectEqualAndSameHash(make<GlobalVarNode>("f"), make<GlobalVarNode>("f"));
  EXPECT_EQ(Mismatch(make<GlobalVarNode>("f"), make<GlobalVarNode>("g")), "name: lhs \"f\", rhs \"g\"");
  EXPECT_EQ(Mismatch(MakeCall("relax.add", {}), MakeCall("relax.multiply", {})),
            "op.name: lhs \"relax.add\", rhs \"relax.multiply\"");
  ExpectEqualAndSameHash(make<ExternFuncNode>("lib.norm"), make<ExternFuncNode>("lib.norm"));
  EXPECT_FALSE(StructuralEqual(make<ExternFuncNode>("lib.norm"), make<ExternFuncNode>("lib.rms_norm")));
  EXPECT_EQ(Mismatch(make<GlobalVarNode>("f"), make<ExternFuncNode>("f")), "lhs GlobalVar @f, rhs ExternFunc \"f\"");
}

// ---------------------------------------------------------------------------
// PrimExprs and struct info on their own.

TEST(StructuralEqual, PrimExprMismatchIsReportedWhole) {
  ir::Var n = ir::MakeVar("n");
  EXPECT_EQ(Mismatch(n * 4, n * 5), "lhs n * 4, rhs n * 5");
  EXPECT_EQ(Mismatch(n * 4, n + 4), "lhs n * 4, rhs n + 4");
  // Renderings that look alike get a note saying what differs.
  EXPECT_EQ(Mismatch(ir::MakeInt(4), ir::MakeInt(4, DataType::Int32())),
            "lhs 4, rhs 4 (at dtype: lhs int64, rhs int32)");
}

TEST(StructuralEqual, StructInfoKindsAndFields) {
  ir::Var n = ir::MakeVar("n");
  EXPECT_EQ(Mismatch(TensorSInfo({n, ir::MakeInt(4)}, kF32), TensorSInfo(kF32, 2)),
            "shape: lhs ShapeExpr (n, 4), rhs undefined");
  EXPECT_EQ(Mismatch(TensorSInfo(kF32, 2), TensorSInfo(DataType::Float(16), 2)), "dtype: lhs float32, rhs float16");
  EXPECT_EQ(Mismatch(ShapeSInfo(2), TensorSInfo(kF32, 2)), "lhs Shape(ndim=2), rhs Tensor(ndim=2, float32)");
  EXPECT_EQ(Mismatch(FuncStructInfoNode::Opaque(ObjectSInfo()),
                     make<FuncStructInfoNode>(std::vector<StructInfo>{}, ObjectSInfo())),
            "params: lhs unknown, rhs known");
  ExpectEqualAndSameHash(TupleSInfo({ShapeSInfo({n}), PrimSInfo(kI64)}),
                         TupleSInfo({ShapeSInfo({ir::MakeVar("k")}), PrimSInfo(kI64)}));
}

TEST(StructuralEqual, DerivedStructInfoIsComparedWhenBothHaveOne) {
  StructInfo sinfo = TensorSInfo({ir::MakeInt(4)}, kF32);
  Var x = MakeVar("x", sinfo);
  Call plain = MakeCall("relax.abs", {x});
  Call deduced = MakeCall("relax.abs", {x});
  UpdateStructInfo(deduced, sinfo);
  Call other = MakeCall("relax.abs", {x});
  UpdateStructInfo(other, TensorSInfo(kF32, 1));
  EXPECT_TRUE(StructuralEqual(plain, deduced));
  EXPECT_EQ(StructuralHash(plain), StructuralHash(deduced));
  EXPECT_EQ(Mismatch(deduced, other), "struct_info.shape: lhs ShapeExpr (4,), rhs undefined");
}

TEST(StructuralEqual, BindingBlockKindMatters) {
  StructInfo sinfo = TensorSInfo({ir::MakeInt(4)}, kF32);
  Var x = MakeVar("x", sinfo);
  Binding binding = Bind(MakeVar("y", sinfo), x);
  BindingBlock plain = make<BindingBlockNode>(std::vector<Binding>{binding});
  BindingBlock dataflow = make<DataflowBlockNode>(std::vector<Binding>{binding});
  EXPECT_EQ(Mismatch(plain, dataflow), "lhs BindingBlock of 1 bindings, rhs DataflowBlock of 1 bindings");
}

// ---------------------------------------------------------------------------
// Attribute containers.

TEST(StructuralEqual, DictKeyOrderIsIrrelevantAndMissingKeysAreReported) {
  ir::Dict ab = Attrs({{"a", ir::MakeInt(1)}, {"b", ir::MakeString("x")}});
  ir::Dict ba = Attrs({{"b", ir::MakeString("x")}, {"a", ir::MakeInt(1)}});
  ExpectEqualAndSameHash(ab, ba);
  ir::Dict a_only = Attrs({{"a", ir::MakeInt(1)}});
  EXPECT_EQ(Mismatch(ab, a_only), "[\"b\"]: lhs \"x\", rhs (absent)");
  EXPECT_EQ(Mismatch(ab, Attrs({{"a", ir::MakeInt(2)}, {"b", ir::MakeString("x")}})), "[\"a\"]: lhs 1, rhs 2");
}

TEST(StructuralEqual, UndefinedDictEqualsEmptyDict) {
  StructInfo sinfo = TensorSInfo({ir::MakeInt(4)}, kF32);
  auto build = [&](ir::Dict attrs) {
    Var x = MakeVar("x", sinfo);
    return Func({x}, x, sinfo, std::move(attrs));
  };
  ExpectEqualAndSameHash(build(nullptr), build(Attrs({})));
  EXPECT_EQ(Mismatch(build(nullptr), build(Attrs({{"k", ir::MakeInt(1)}}))),
            "attrs: lhs undefined, rhs Dict of 1 entries");
}

TEST(StructuralEqual, ArraysCompareElementwise) {
  ir::Array short_list = make<ir::ArrayNode>(std::vector<ObjectRef>{ir::MakeInt(1)});
  ir::Array long_list = make<ir::ArrayNode>(std::vector<ObjectRef>{ir::MakeInt(1), ir::MakeInt(2)});
  ir::Array other = make<ir::ArrayNode>(std::vector<ObjectRef>{ir::MakeInt(3)});
  EXPECT_EQ(Mismatch(short_list, long_list), "lhs 1 elements, rhs 2 elements");
  EXPECT_EQ(Mismatch(short_list, other), "[0]: lhs 1, rhs 3");
  ExpectEqualAndSameHash(short_list, make<ir::ArrayNode>(std::vector<ObjectRef>{ir::MakeInt(1)}));
}

TEST(StructuralEqual, UndefinedRefs) {
  EXPECT_TRUE(StructuralEqual(nullptr, nullptr));
  EXPECT_EQ(Mismatch(nullptr, ir::MakeInt(1)), "lhs undefined, rhs 1");
  EXPECT_EQ(StructuralHash(nullptr), StructuralHash(nullptr));
}

TEST(StructuralEqual, SpansAreIgnored) {
  Function a = BuildMain(Names{});
  Function b = BuildMain(Names{});
  auto source = std::make_shared<SourceFile>("model.py", "def main(x):\n  return x\n");
  const_cast<FunctionNode*>(b.get())->span = Span{source, 1, 1, 2, 11};
  const_cast<VarNode*>(b->params[0].get())->span = Span{source, 1, 10, 1, 11};
  ExpectEqualAndSameHash(a, b);
}

// ---------------------------------------------------------------------------
// Scale.

// main(x) with a chain of `count` bindings lv_i = add(lv_{i-1}, x).
Function BuildChain(int count, const std::string& prefix, int64_t last_dim = 4) {
  ir::Var n = ir::MakeVar(prefix + "n");
  StructInfo sinfo = TensorSInfo({n, ir::MakeInt(4)}, kF32);
  Var x = MakeVar(prefix + "x", sinfo);
  std::vector<Binding> bindings;
  Var previous = x;
  for (int i = 0; i < count; ++i) {
    bool last = i + 1 == count;
    Var next = MakeDataflowVar(prefix + std::to_string(i), last ? TensorSInfo({n, ir::MakeInt(last_dim)}, kF32) : sinfo);
    bindings.push_back(Bind(next, MakeCall("relax.add", {previous, x})));
    previous = next;
  }
  return Func({x}, Seq({Dataflow(std::move(bindings))}, previous), sinfo);
}

// A long chain is compared and hashed without deep recursion. (How fast is
// measured, not asserted: a wall-clock bound failed under the sanitizers on
// a loaded machine.)
TEST(StructuralEqual, TenThousandBindingsAreComparedAndHashed) {
  Function lhs = BuildChain(10000, "a");
  Function rhs = BuildChain(10000, "b");
  bool equal = StructuralEqual(lhs, rhs);
  size_t lhs_hash = StructuralHash(lhs);
  size_t rhs_hash = StructuralHash(rhs);
  EXPECT_TRUE(equal);
  EXPECT_EQ(lhs_hash, rhs_hash);
  EXPECT_EQ(Mismatch(lhs, BuildChain(10000, "c", 5)),
            "body.blocks[0].bindings[9999].var.struct_info.shape.values[1]: lhs 4, rhs 5");
}

TEST(StructuralHash, DistinguishesSmallChanges) {
  ir::Var n = ir::MakeVar("n");
  std::vector<ObjectRef> distinct = {n * 4,           n * 5,           n + 4,       ir::MakeInt(4),
                                     TensorSInfo({n}, kF32),           TensorSInfo({n}, DataType::Float(16)),
                                     ShapeSInfo({n}), ShapeSInfo(1),   BuildMain(Names{}), BuildAdd(false)};
  for (size_t i = 0; i < distinct.size(); ++i) {
    for (size_t j = i + 1; j < distinct.size(); ++j) {
      EXPECT_NE(StructuralHash(distinct[i]), StructuralHash(distinct[j])) << i << " vs " << j;
      EXPECT_FALSE(StructuralEqual(distinct[i], distinct[j])) << i << " vs " << j;
    }
  }
}

}  // namespace
}  // namespace rlx::graph
