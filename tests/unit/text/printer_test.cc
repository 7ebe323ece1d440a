// Tests of the TVMScript printer: hand-built IR compared with the exact text
// Apache TVM prints for it (TVM's own printer tests and printed modules
// are the reference), plus rlx's documented extensions (inline tensor
// constants, round-trippable floats).
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "rlx/graph/expr.h"
#include "rlx/ir/expr.h"
#include "rlx/ir/module.h"
#include "rlx/op/op.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/printer.h"
#include "rlx/text/py_ast.h"
#include "rlx/tir/function.h"

namespace rlx::text {
namespace {

using graph::StructInfo;
using ir::MakeInt;
using ir::PrimExpr;

const DataType kF32 = DataType::Float32();
const DataType kI32 = DataType::Int32();

// `text`, after checking that it is valid Python (TVMScript is Python).
std::string Checked(const std::string& text) {
  try {
    py::ParsePython(std::make_shared<SourceFile>("<printed>", text));
  } catch (const CompileError& error) {
    ADD_FAILURE() << "printed text is not valid Python:\n" << error.what() << "\n" << text;
  }
  return text;
}

PrimExpr I64(int64_t v) { return MakeInt(v); }
PrimExpr I32(int64_t v) { return MakeInt(v, kI32); }

StructInfo Tensor(std::vector<PrimExpr> shape, DataType dtype = kF32) {
  return graph::TensorSInfo(std::move(shape), dtype);
}

graph::Binding Bind(const graph::Var& var, graph::Expr value) { return make<graph::VarBindingNode>(var, value); }

graph::Expr Seq(std::vector<graph::BindingBlock> blocks, graph::Expr body) {
  return make<graph::SeqExprNode>(std::move(blocks), std::move(body));
}

graph::BindingBlock Dataflow(std::vector<graph::Binding> bindings) {
  return make<graph::DataflowBlockNode>(std::move(bindings));
}

graph::BindingBlock Plain(std::vector<graph::Binding> bindings) {
  return make<graph::BindingBlockNode>(std::move(bindings));
}

graph::Function Func(std::vector<graph::Var> params, graph::Expr body, StructInfo ret, bool pure = true,
                     ir::Dict attrs = nullptr, bool is_private = false) {
  return make<graph::FunctionNode>(std::move(params), std::move(body), std::move(ret), pure, std::move(attrs),
                                   is_private);
}

ir::Dict Attrs(std::vector<ir::DictNode::Item> items) { return make<ir::DictNode>(std::move(items)); }

graph::Constant Const(DataType dtype, std::vector<int64_t> shape, const void* data, size_t size) {
  auto payload = std::make_shared<graph::TensorData>();
  payload->dtype = dtype;
  payload->shape = std::move(shape);
  payload->bytes.resize(size);
  std::memcpy(payload->bytes.data(), data, size);
  return make<graph::ConstantNode>(payload);
}

// TIR builders.
tir::Stmt For(const ir::Var& var, PrimExpr min, PrimExpr extent, tir::Stmt body,
              tir::ForKind kind = tir::ForKind::kSerial, std::string thread = "") {
  auto* node = new tir::ForNode();
  node->loop_var = var;
  node->min = std::move(min);
  node->extent = std::move(extent);
  node->body = std::move(body);
  node->for_kind = kind;
  node->thread_tag = std::move(thread);
  return tir::Stmt(node);
}

tir::BufferRegion Region(const ir::Buffer& buffer, std::vector<tir::Range> ranges) {
  return make<tir::BufferRegionNode>(buffer, std::move(ranges));
}

tir::Range Point(PrimExpr index) {
  DataType dtype = index->dtype;
  return tir::Range{std::move(index), MakeInt(1, dtype)};
}

struct BlockSpec {
  std::string name;
  std::vector<tir::IterVar> iter_vars;
  std::vector<PrimExpr> values;
  std::vector<tir::BufferRegion> reads, writes;
  tir::Stmt init, body;
  std::vector<ir::Buffer> alloc_buffers;
  PrimExpr predicate;
  ir::Dict annotations;
};

tir::Stmt Realize(const BlockSpec& spec) {
  auto* block = new tir::BlockNode();
  block->name = spec.name;
  block->iter_vars = spec.iter_vars;
  block->reads = spec.reads;
  block->writes = spec.writes;
  block->init = spec.init;
  block->body = spec.body;
  block->alloc_buffers = spec.alloc_buffers;
  block->annotations = spec.annotations;
  auto* realize = new tir::BlockRealizeNode();
  realize->iter_values = spec.values;
  realize->predicate = spec.predicate.defined() ? spec.predicate : ir::MakeBool(true);
  realize->block = tir::Block(block);
  return tir::Stmt(realize);
}

tir::IterVar Axis(const ir::Var& var, PrimExpr extent, tir::IterKind kind = tir::IterKind::kSpatial) {
  DataType dtype = extent->dtype;
  return make<tir::IterVarNode>(var, tir::Range{MakeInt(0, dtype), std::move(extent)}, kind);
}

tir::Stmt Store(const ir::Buffer& buffer, PrimExpr value, std::vector<PrimExpr> indices) {
  return make<tir::BufferStoreNode>(buffer, std::move(value), std::move(indices));
}

PrimExpr Load(const ir::Buffer& buffer, std::vector<PrimExpr> indices) {
  return make<ir::BufferLoadNode>(buffer, std::move(indices));
}

tir::PrimFunc PrimFunc(std::vector<ir::Var> params, std::vector<std::pair<ir::Var, ir::Buffer>> buffer_map,
                       tir::Stmt body, bool is_private = false, ir::Dict attrs = nullptr) {
  auto* node = new tir::PrimFuncNode();
  node->params = std::move(params);
  node->buffer_map = std::move(buffer_map);
  node->body = std::move(body);
  node->is_private = is_private;
  node->attrs = std::move(attrs);
  return tir::PrimFunc(node);
}

ir::Dict NoAlias() { return Attrs({{"tir.noalias", ir::MakeBool(true)}}); }

tir::Stmt Evaluate(PrimExpr value) { return make<tir::EvaluateNode>(std::move(value)); }

// ---------------------------------------------------------------------------
// Scalar expressions.

TEST(PrinterPrimExpr, IntegerLiteralsCarryTheirTypeExceptInt32) {
  EXPECT_EQ(PrintPrimExpr(I32(4)), "4");
  EXPECT_EQ(PrintPrimExpr(I64(4)), "T.int64(4)");
  EXPECT_EQ(PrintPrimExpr(MakeInt(-3, DataType::Int(8))), "T.int8(-3)");
  EXPECT_EQ(PrintPrimExpr(MakeInt(7, DataType::UInt(8))), "T.uint8(7)");
  EXPECT_EQ(PrintPrimExpr(ir::MakeBool(true)), "T.bool(True)");
  EXPECT_EQ(PrintPrimExpr(ir::MakeBool(false)), "T.bool(False)");
}

TEST(PrinterPrimExpr, FloatLiteralsRoundTrip) {
  EXPECT_EQ(PrintPrimExpr(ir::MakeFloat(0.0)), "T.float32(0.0)");
  EXPECT_EQ(PrintPrimExpr(ir::MakeFloat(1.5, DataType::Float(16))), "T.float16(1.5)");
  EXPECT_EQ(PrintPrimExpr(ir::MakeFloat(0.1, DataType::Float(64))), "T.float64(0.1)");
  // A float32 value widened to double keeps every digit needed to read back.
  EXPECT_EQ(PrintPrimExpr(ir::MakeFloat(static_cast<double>(0.1f))), "T.float32(0.10000000149011612)");
  EXPECT_EQ(PrintPrimExpr(ir::MakeFloat(-2.0)), "T.float32(-2.0)");
  EXPECT_EQ(PrintPrimExpr(ir::MakeFloat(1e20)), "T.float32(1e+20)");
  EXPECT_EQ(PrintPrimExpr(ir::MakeFloat(INFINITY)), "T.float32(\"inf\")");
}

TEST(PrinterPrimExpr, InfixOperatorsGetMinimalParentheses) {
  ir::Var n = ir::MakeVar("n"), m = ir::MakeVar("m");
  EXPECT_EQ(PrintPrimExpr((n + 1) * 2), "(n + T.int64(1)) * T.int64(2)");
  EXPECT_EQ(PrintPrimExpr(n * m + 1), "n * m + T.int64(1)");
  EXPECT_EQ(PrintPrimExpr(n - (m - 1)), "n - (m - T.int64(1))");
  EXPECT_EQ(PrintPrimExpr((n - m) - 1), "n - m - T.int64(1)");
  EXPECT_EQ(PrintPrimExpr(ir::floordiv(n + 1, 2)), "(n + T.int64(1)) // T.int64(2)");
  EXPECT_EQ(PrintPrimExpr(ir::floormod(n * 4, m)), "n * T.int64(4) % m");
  EXPECT_EQ(PrintPrimExpr(n * ir::floordiv(m, 2)), "n * (m // T.int64(2))");
}

TEST(PrinterPrimExpr, DivModMinMaxSpelling) {
  ir::Var a = ir::MakeVar("a", kI32), b = ir::MakeVar("b", kI32);
  ir::Var x = ir::MakeVar("x", kF32), y = ir::MakeVar("y", kF32);
  EXPECT_EQ(PrintPrimExpr(ir::truncdiv(a, b)), "T.Div(a, b)");
  EXPECT_EQ(PrintPrimExpr(ir::truncmod(a, b)), "T.truncmod(a, b)");
  EXPECT_EQ(PrintPrimExpr(ir::min(a, b)), "T.min(a, b)");
  EXPECT_EQ(PrintPrimExpr(ir::max(x, ir::MakeFloat(0.0))), "T.max(x, T.float32(0.0))");
  EXPECT_EQ(PrintPrimExpr(ir::truncdiv(x, y + x)), "x / (y + x)");
}

TEST(PrinterPrimExpr, ComparisonsAndLogic) {
  ir::Var i = ir::MakeVar("i", kI32), n = ir::MakeVar("n", kI32);
  PrimExpr in_range = ir::logical_and(ir::lt(i, n), ir::ge(i, I32(0)));
  EXPECT_EQ(PrintPrimExpr(in_range), "i < n and i >= 0");
  EXPECT_EQ(PrintPrimExpr(ir::logical_not(ir::lt(i, n))), "not i < n");
  EXPECT_EQ(PrintPrimExpr(ir::logical_and(ir::logical_or(ir::eq(i, n), ir::ne(i, I32(1))), ir::le(i, n))),
            "(i == n or i != 1) and i <= n");
  EXPECT_EQ(PrintPrimExpr(ir::gt(i + 1, n * 2)), "i + 1 > n * 2");
}

TEST(PrinterPrimExpr, OperandsTVMWouldFoldPrintExplicitly) {
  ir::Var n = ir::MakeVar("n");
  EXPECT_EQ(PrintPrimExpr(ir::add(I32(1), I32(2))), "T.Add(1, 2)");
  EXPECT_EQ(PrintPrimExpr(ir::add(n, I64(0))), "T.Add(n, T.int64(0))");
  EXPECT_EQ(PrintPrimExpr(ir::mul(I64(1), n)), "T.Mul(T.int64(1), n)");
  EXPECT_EQ(PrintPrimExpr(ir::floordiv(n, I64(1))), "T.FloorDiv(n, T.int64(1))");
}

TEST(PrinterPrimExpr, SelectCastCallLet) {
  ir::Var i = ir::MakeVar("i", kI32), x = ir::MakeVar("x", kF32);
  EXPECT_EQ(PrintPrimExpr(ir::select(ir::lt(i, I32(4)), x, ir::MakeFloat(0.0))),
            "T.Select(i < 4, x, T.float32(0.0))");
  EXPECT_EQ(PrintPrimExpr(ir::cast(kF32, i)), "T.Cast(\"float32\", i)");
  EXPECT_EQ(PrintPrimExpr(ir::call(kF32, "exp", {x})), "T.exp(x)");
  EXPECT_EQ(PrintPrimExpr(ir::call(kF32, "call_extern", {ir::MakeString("f"), x})),
            "T.call_extern(\"float32\", \"f\", x)");
  ir::Var v = ir::MakeVar("v", kI32);
  EXPECT_EQ(PrintPrimExpr(make<ir::LetNode>(v, I32(5), v + 1)), "T.Let(v + 1, where={v: 5})");
}

TEST(PrinterPrimExpr, BufferLoadsRampsAndBroadcasts) {
  ir::Buffer a = ir::MakeBuffer("A", {I64(4), I64(8)}, kF32);
  ir::Var i = ir::MakeVar("i"), j = ir::MakeVar("j");
  EXPECT_EQ(PrintPrimExpr(Load(a, {i, j + 1})), "A[i, j + T.int64(1)]");
  PrimExpr ramp = make<ir::RampNode>(I64(0), I64(1), 4);
  EXPECT_EQ(PrintPrimExpr(Load(a, {i, ramp})), "A[i, T.int64(0):T.int64(4)]");
  PrimExpr strided = make<ir::RampNode>(j, I64(2), 4);
  EXPECT_EQ(PrintPrimExpr(Load(a, {i, strided})), "A[i, j:j + T.int64(8):T.int64(2)]");
  EXPECT_EQ(PrintPrimExpr(strided), "T.Ramp(j, T.int64(2), 4)");
  EXPECT_EQ(PrintPrimExpr(make<ir::BroadcastNode>(ir::MakeFloat(0.0), 4)), "T.Broadcast(T.float32(0.0), 4)");
}

TEST(PrinterPrimExpr, DistinctVariablesWithOneNameGetSuffixes) {
  ir::Var n1 = ir::MakeVar("n"), n2 = ir::MakeVar("n"), anonymous = ir::MakeVar("");
  EXPECT_EQ(PrintPrimExpr(n1 + n2 + n1), "n + n_1 + n");
  EXPECT_EQ(PrintPrimExpr(anonymous * 2), "v * T.int64(2)");
  // Names that would shadow the dialect prefixes are renamed too.
  EXPECT_EQ(PrintPrimExpr(ir::MakeVar("T") + 1), "T_1 + T.int64(1)");
}

// ---------------------------------------------------------------------------
// Struct info.

TEST(PrinterStructInfo, TensorForms) {
  ir::Var n = ir::MakeVar("n");
  EXPECT_EQ(PrintStructInfo(Tensor({n, I64(4)})), "R.Tensor((n, 4), dtype=\"float32\")");
  EXPECT_EQ(PrintStructInfo(Tensor({n}, DataType::Int64())), "R.Tensor((n,), dtype=\"int64\")");
  EXPECT_EQ(PrintStructInfo(Tensor({})), "R.Tensor((), dtype=\"float32\")");
  EXPECT_EQ(PrintStructInfo(graph::TensorSInfo(kF32, 2)), "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(PrintStructInfo(graph::TensorSInfo(kF32, -1)), "R.Tensor(dtype=\"float32\")");
  EXPECT_EQ(PrintStructInfo(graph::TensorSInfo(DataType::Void(), -1)), "R.Tensor");
  EXPECT_EQ(PrintStructInfo(graph::TensorSInfo({I64(2), I64(3)}, DataType::Void())), "R.Tensor((2, 3))");
  EXPECT_EQ(PrintStructInfo(Tensor({n * 2, n + 1})), "R.Tensor((n * 2, n + 1), dtype=\"float32\")");
}

TEST(PrinterStructInfo, ShapePrimObjectTuple) {
  ir::Var n = ir::MakeVar("n");
  EXPECT_EQ(PrintStructInfo(graph::ShapeSInfo({n, I64(4)})), "R.Shape([n, 4])");
  EXPECT_EQ(PrintStructInfo(graph::ShapeSInfo(2)), "R.Shape(ndim=2)");
  EXPECT_EQ(PrintStructInfo(graph::ShapeSInfo(-1)), "R.Shape(ndim=-1)");
  EXPECT_EQ(PrintStructInfo(graph::PrimSInfo(DataType::Int64())), "R.Prim(\"int64\")");
  EXPECT_EQ(PrintStructInfo(graph::PrimValueSInfo(n)), "R.Prim(value=n)");
  EXPECT_EQ(PrintStructInfo(graph::ObjectSInfo()), "R.Object");
  EXPECT_EQ(PrintStructInfo(graph::TupleSInfo({Tensor({n}), graph::ObjectSInfo()})),
            "R.Tuple(R.Tensor((n,), dtype=\"float32\"), R.Object)");
  EXPECT_EQ(PrintStructInfo(graph::TupleSInfo({})), "R.Tuple");
}

TEST(PrinterStructInfo, Callable) {
  ir::Var n = ir::MakeVar("n");
  StructInfo func = make<graph::FuncStructInfoNode>(std::vector<StructInfo>{Tensor({n, I64(4)})},
                                                    graph::ObjectSInfo(), true);
  EXPECT_EQ(PrintStructInfo(func), "R.Callable((R.Tensor((n, 4), dtype=\"float32\"),), R.Object, True)");
  EXPECT_EQ(PrintStructInfo(graph::FuncStructInfoNode::Opaque(graph::ObjectSInfo(), false)), "R.Callable");
  EXPECT_EQ(PrintStructInfo(graph::FuncStructInfoNode::Opaque(graph::TensorSInfo(kF32, 2), true)),
            "R.Callable(ret=R.Tensor(dtype=\"float32\", ndim=2), purity=True)");
}

// ---------------------------------------------------------------------------
// Graph-level functions.

TEST(PrinterFunction, DataflowBlockAndMatchCast) {
  ir::Var n = ir::MakeVar("n"), m = ir::MakeVar("m");
  graph::Var x = graph::MakeVar("x", Tensor({n, I64(4)}));
  graph::Var w = graph::MakeVar("w", Tensor({I64(4), I64(4)}));
  graph::Var lv = graph::MakeDataflowVar("lv", Tensor({n, I64(4)}));
  graph::Var lv1 = graph::MakeDataflowVar("lv1", Tensor({n * 4}));
  graph::Var gv = graph::MakeVar("gv", Tensor({m}));
  graph::Expr shape = make<graph::ShapeExprNode>(std::vector<PrimExpr>{n * 4});
  graph::Binding cast = make<graph::MatchCastNode>(gv, lv1, Tensor({m}));
  graph::Expr body = Seq({Dataflow({Bind(lv, op::matmul(x, w)), Bind(lv1, op::reshape(lv, shape)), cast})}, gv);
  graph::Function func = Func({x, w}, body, graph::TensorSInfo(kF32, 1));
  EXPECT_EQ(Checked(PrintFunction(func, "main")),
            "# from tvm.script import tir as T\n"
            "# from tvm.script import relax as R\n"
            "\n"
            "@R.function\n"
            "def main(x: R.Tensor((\"n\", 4), dtype=\"float32\"), w: R.Tensor((4, 4), dtype=\"float32\")) -> "
            "R.Tensor(dtype=\"float32\", ndim=1):\n"
            "    n = T.int64()\n"
            "    m = T.int64()\n"
            "    with R.dataflow():\n"
            "        lv: R.Tensor((n, 4), dtype=\"float32\") = R.matmul(x, w, out_dtype=\"void\")\n"
            "        lv1: R.Tensor((n * 4,), dtype=\"float32\") = R.reshape(lv, R.shape([n * 4]))\n"
            "        gv: R.Tensor((m,), dtype=\"float32\") = R.match_cast(lv1, R.Tensor((m,), dtype=\"float32\"))\n"
            "        R.output(gv)\n"
            "    return gv\n");
}

TEST(PrinterFunction, SignatureVariablesPrintAsStrings) {
  ir::Var n = ir::MakeVar("n");
  graph::Var x = graph::MakeVar("x", Tensor({n}));
  graph::Var y = graph::MakeVar("y", Tensor({n * 2}));
  graph::Var s = graph::MakeVar("s", graph::ShapeSInfo({n, I64(4)}));
  graph::Var p = graph::MakeVar("p", graph::PrimValueSInfo(n));
  graph::Function func = Func({x, y, s, p}, Seq({}, x), Tensor({n}));
  EXPECT_EQ(Checked(PrintFunction(func, "f")),
            "# from tvm.script import tir as T\n"
            "# from tvm.script import relax as R\n"
            "\n"
            "@R.function\n"
            "def f(x: R.Tensor((\"n\",), dtype=\"float32\"), y: R.Tensor((\"n * 2\",), dtype=\"float32\"), "
            "s: R.Shape([\"n\", 4]), p: R.Prim(value=\"n\")) -> R.Tensor((\"n\",), dtype=\"float32\"):\n"
            "    n = T.int64()\n"
            "    return x\n");
}

TEST(PrinterFunction, DecoratorFlagsAndAttributes) {
  graph::Var x = graph::MakeVar("x", Tensor({I64(2)}));
  ir::Dict attrs = Attrs({{"global_symbol", ir::MakeString("main")},
                          {"num_input", I64(1)},
                          {"relax.force_pure", ir::MakeBool(true)}});
  graph::Function func = Func({x}, Seq({}, x), Tensor({I64(2)}), /*pure=*/false, attrs, /*is_private=*/true);
  EXPECT_EQ(Checked(PrintFunction(func, "main")),
            "# from tvm.script import relax as R\n"
            "\n"
            "@R.function(pure=False, private=True)\n"
            "def main(x: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
            "    R.func_attr({\"num_input\": 1, \"relax.force_pure\": True})\n"
            "    return x\n");
  // A global symbol that differs from the printed name is kept.
  EXPECT_NE(PrintFunction(func, "other").find("R.func_attr({\"global_symbol\": \"main\", "), std::string::npos);
}

TEST(PrinterFunction, NestedAttributeDictionaries) {
  graph::Var x = graph::MakeVar("x", Tensor({I64(2)}));
  ir::Dict bounds = Attrs({{"n", I64(2048)}});
  graph::Function func = Func({x}, Seq({}, x), Tensor({I64(2)}), true, Attrs({{"tir_var_upper_bound", bounds}}));
  EXPECT_NE(PrintFunction(func, "f").find("    R.func_attr({\"tir_var_upper_bound\": {\"n\": 2048}})\n"),
            std::string::npos);
  // The same values in a PrimFunc use TIR spelling.
  tir::PrimFunc prim = PrimFunc({}, {}, Evaluate(I32(0)), false, Attrs({{"tir_var_upper_bound", bounds}}));
  EXPECT_NE(PrintPrimFunc(prim, "g").find("    T.func_attr({\"tir_var_upper_bound\": {\"n\": T.int64(2048)}})\n"),
            std::string::npos);
}

TEST(PrinterFunction, DataflowBlockFragment) {
  ir::Var n = ir::MakeVar("n");
  graph::Var a = graph::MakeVar("a", Tensor({I64(1), n, I64(3)}));
  graph::Var b = graph::MakeDataflowVar("b", Tensor({I64(1), n, I64(3)}));
  graph::Var c = graph::MakeVar("c", Tensor({I64(1), n, I64(3)}));
  graph::BindingBlock block = Dataflow({Bind(b, op::sin(a)), Bind(c, op::sin(b))});
  // As TVM prints a lone block: free variables are declared first.
  EXPECT_EQ(Print(block),
            "n = T.int64()\n"
            "a: R.Tensor((1, n, 3), dtype=\"float32\")\n"
            "with R.dataflow():\n"
            "    b: R.Tensor((1, n, 3), dtype=\"float32\") = R.sin(a)\n"
            "    c: R.Tensor((1, n, 3), dtype=\"float32\") = R.sin(b)\n"
            "    R.output(c)");
}

TEST(PrinterFunction, IfBindingAssignsInEachBranch) {
  graph::Var c = graph::MakeVar("c", Tensor({}, DataType::Bool()));
  graph::Var x = graph::MakeVar("x", Tensor({I64(2)}));
  graph::Var lv = graph::MakeVar("lv", Tensor({I64(2)}));
  graph::Var y = graph::MakeVar("y", Tensor({I64(2)}));
  graph::Expr then_branch = Seq({Plain({Bind(lv, op::add(x, x))})}, lv);
  graph::Expr else_branch = Seq({}, x);
  graph::Expr if_node = make<graph::IfNode>(c, then_branch, else_branch);
  graph::Function func = Func({c, x}, Seq({Plain({Bind(y, if_node)})}, y), Tensor({I64(2)}));
  EXPECT_EQ(Checked(PrintFunction(func, "f")),
            "# from tvm.script import relax as R\n"
            "\n"
            "@R.function\n"
            "def f(c: R.Tensor((), dtype=\"bool\"), x: R.Tensor((2,), dtype=\"float32\")) -> "
            "R.Tensor((2,), dtype=\"float32\"):\n"
            "    if c:\n"
            "        lv: R.Tensor((2,), dtype=\"float32\") = R.add(x, x)\n"
            "        y: R.Tensor((2,), dtype=\"float32\") = lv\n"
            "    else:\n"
            "        y: R.Tensor((2,), dtype=\"float32\") = x\n"
            "    return y\n");
}

TEST(PrinterFunction, NestedFunctionPrintsAsInnerDef) {
  StructInfo scalar = Tensor({}, kI32);
  graph::Var x = graph::MakeVar("x", scalar);
  graph::Var y = graph::MakeVar("y", scalar);
  graph::Function inner = Func({y}, Seq({}, y), scalar);
  graph::Var nested = graph::MakeVar("nested", inner->struct_info);
  graph::Var z = graph::MakeVar("z", scalar);
  graph::Expr call = make<graph::CallNode>(nested, std::vector<graph::Expr>{x});
  graph::Function outer = Func({x}, Seq({Plain({Bind(nested, inner), Bind(z, call)})}, z), scalar);
  EXPECT_EQ(Checked(PrintFunction(outer, "main")),
            "# from tvm.script import relax as R\n"
            "\n"
            "@R.function\n"
            "def main(x: R.Tensor((), dtype=\"int32\")) -> R.Tensor((), dtype=\"int32\"):\n"
            "    @R.function\n"
            "    def nested(y: R.Tensor((), dtype=\"int32\")) -> R.Tensor((), dtype=\"int32\"):\n"
            "        return y\n"
            "\n"
            "    z: R.Tensor((), dtype=\"int32\") = nested(x)\n"
            "    return z\n");
}

TEST(PrinterFunction, VariableNamesAreMadeUnique) {
  graph::Var a = graph::MakeVar("lv", Tensor({I64(2)}));
  graph::Var b = graph::MakeVar("lv", Tensor({I64(2)}));
  graph::Var c = graph::MakeVar("R", Tensor({I64(2)}));
  graph::Var d = graph::MakeVar("", Tensor({I64(2)}));
  graph::Var e = graph::MakeVar("lambda", Tensor({I64(2)}));
  graph::Function func = Func({a, b, c, d, e}, Seq({}, b), Tensor({I64(2)}));
  std::string text = PrintFunction(func, "f");
  EXPECT_NE(text.find("def f(lv: R.Tensor((2,), dtype=\"float32\"), lv_1: R.Tensor((2,), dtype=\"float32\"), "
                      "R_1: R.Tensor((2,), dtype=\"float32\"), v: R.Tensor((2,), dtype=\"float32\"), "
                      "lambda_1: R.Tensor((2,), dtype=\"float32\"))"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    return lv_1\n"), std::string::npos) << text;
}

TEST(PrinterFunction, VoidBindingPrintsAsStatement) {
  graph::Var x = graph::MakeVar("x", Tensor({I64(2)}));
  graph::Call print = graph::MakeCall("relax.print", {x}, Attrs({{"format", ir::MakeString("x: {}")}}));
  graph::UpdateStructInfo(print, graph::TupleSInfo({}));
  graph::Var unused = graph::MakeVar("u", graph::TupleSInfo({}));
  graph::Function func = Func({x}, Seq({Plain({Bind(unused, print)})}, x), Tensor({I64(2)}), /*pure=*/false);
  EXPECT_EQ(Checked(PrintFunction(func, "main")),
            "# from tvm.script import relax as R\n"
            "\n"
            "@R.function(pure=False)\n"
            "def main(x: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
            "    R.print(x, format=\"x: {}\")\n"
            "    return x\n");
}

// ---------------------------------------------------------------------------
// Graph-level expressions.

TEST(PrinterExpr, OperatorAttributesInDeclaredOrder) {
  graph::Var x = graph::MakeVar("x", Tensor({I64(2), I64(3)}));
  EXPECT_EQ(Print(op::sum(x, std::vector<int64_t>{1}, false)), "R.sum(x, axis=[1], keepdims=False)");
  EXPECT_EQ(Print(op::sum(x)), "R.sum(x, axis=None, keepdims=False)");
  EXPECT_EQ(Print(op::permute_dims(x)), "R.permute_dims(x, axes=None)");
  EXPECT_EQ(Print(op::permute_dims(x, std::vector<int64_t>{1, 0})), "R.permute_dims(x, axes=[1, 0])");
  EXPECT_EQ(Print(op::astype(x, DataType::Float(16))), "R.astype(x, dtype=\"float16\")");
  EXPECT_EQ(Print(op::nn::relu(x)), "R.nn.relu(x)");
  // Unregistered operators print best-effort from their name and attributes.
  EXPECT_EQ(Print(graph::MakeCall("relax.foo.bar", {x}, Attrs({{"k", I64(1)}, {"flag", ir::MakeBool(false)}}))),
            "R.foo.bar(x, k=1, flag=False)");
}

TEST(PrinterExpr, LeavesTuplesAndPackedCalls) {
  ir::Var n = ir::MakeVar("n");
  graph::Var a = graph::MakeVar("a", Tensor({I64(2)}));
  graph::Var t = graph::MakeVar("t", graph::TupleSInfo({Tensor({I64(2)}), Tensor({I64(2)})}));
  EXPECT_EQ(Print(make<graph::TupleNode>(std::vector<graph::Expr>{a, a})), "(a, a)");
  EXPECT_EQ(Print(make<graph::TupleNode>(std::vector<graph::Expr>{a})), "(a,)");
  EXPECT_EQ(Print(make<graph::TupleNode>(std::vector<graph::Expr>{})), "R.tuple()");
  EXPECT_EQ(Print(make<graph::TupleGetItemNode>(t, 1)), "t[1]");
  EXPECT_EQ(Print(make<graph::ShapeExprNode>(std::vector<PrimExpr>{n, I64(4)})), "R.shape([n, 4])");
  EXPECT_EQ(Print(make<graph::PrimValueNode>(I64(1))), "R.prim_value(1)");
  EXPECT_EQ(Print(make<graph::PrimValueNode>(I32(1))), "R.prim_value(T.int32(1))");
  EXPECT_EQ(Print(make<graph::StringImmNode>("a\"b")), "R.str(\"a\\\"b\")");
  EXPECT_EQ(Print(make<graph::ExternFuncNode>("f")), "R.ExternFunc(\"f\")");
  graph::Expr extern_f = make<graph::ExternFuncNode>("my.f");
  EXPECT_EQ(Print(graph::MakeCall("relax.call_pure_packed", {extern_f, a}, nullptr, {Tensor({I64(2)})})),
            "R.call_pure_packed(\"my.f\", a, sinfo_args=(R.Tensor((2,), dtype=\"float32\"),))");
  EXPECT_EQ(Print(make<graph::CallNode>(extern_f, std::vector<graph::Expr>{a}, nullptr,
                                        std::vector<StructInfo>{graph::ObjectSInfo()})),
            "R.call_packed(\"my.f\", a, sinfo_args=(R.Object,))");
}

TEST(PrinterExpr, Constants) {
  float f = 1.5f;
  EXPECT_EQ(Print(Const(kF32, {}, &f, sizeof(f))), "R.const(1.5, \"float32\")");
  float tenth = 0.1f;
  EXPECT_EQ(Print(Const(kF32, {}, &tenth, sizeof(tenth))), "R.const(0.1, \"float32\")");
  int32_t i = 3;
  EXPECT_EQ(Print(Const(kI32, {}, &i, sizeof(i))), "R.const(3, \"int32\")");
  uint8_t b = 1;
  EXPECT_EQ(Print(Const(DataType::Bool(), {}, &b, sizeof(b))), "R.const(True, \"bool\")");
  int32_t matrix[] = {1, 2, 3, 4};
  EXPECT_EQ(Print(Const(kI32, {2, 2}, matrix, sizeof(matrix))), "R.const([[1, 2], [3, 4]], \"int32\")");
  double vec[] = {0.25, -1.0};
  EXPECT_EQ(Print(Const(DataType::Float(64), {2}, vec, sizeof(vec))), "R.const([0.25, -1.0], \"float64\")");
  uint16_t half = 0x3800;  // 0.5
  EXPECT_EQ(Print(Const(DataType::Float(16), {}, &half, sizeof(half))), "R.const(0.5, \"float16\")");
}

TEST(PrinterExpr, BindingsPrintWithTheirDeclarations) {
  ir::Var n = ir::MakeVar("n");
  graph::Var a = graph::MakeVar("a", Tensor({n}));
  graph::Var b = graph::MakeVar("b", Tensor({n}));
  EXPECT_EQ(Print(Bind(b, op::exp(a))),
            "n = T.int64()\n"
            "a: R.Tensor((n,), dtype=\"float32\")\n"
            "b: R.Tensor((n,), dtype=\"float32\") = R.exp(a)");
}

// ---------------------------------------------------------------------------
// Tensor programs.

TEST(PrinterPrimFunc, ConstantShapeBuffersPrintInline) {
  ir::Buffer a = ir::MakeBuffer("A", {I64(4), I64(4)}, kF32);
  ir::Buffer b = ir::MakeBuffer("B", {I64(4), I64(4)}, kF32);
  ir::Buffer c = ir::MakeBuffer("C", {I64(4), I64(4)}, kF32);
  ir::Var pa = ir::MakeVar("A", DataType::Handle()), pb = ir::MakeVar("B", DataType::Handle()),
          pc = ir::MakeVar("C", DataType::Handle());
  ir::Var i = ir::MakeVar("i"), j = ir::MakeVar("j"), vi = ir::MakeVar("vi"), vj = ir::MakeVar("vj");
  BlockSpec spec;
  spec.name = "C";
  spec.iter_vars = {Axis(vi, I64(4)), Axis(vj, I64(4))};
  spec.values = {i, j};
  spec.reads = {Region(a, {Point(vi), Point(vj)}), Region(b, {Point(vi), Point(vj)})};
  spec.writes = {Region(c, {Point(vi), Point(vj)})};
  spec.body = Store(c, Load(a, {vi, vj}) + Load(b, {vi, vj}), {vi, vj});
  tir::Stmt body = For(i, I64(0), I64(4), For(j, I64(0), I64(4), Realize(spec)));
  tir::PrimFunc func = PrimFunc({pa, pb, pc}, {{pa, a}, {pb, b}, {pc, c}}, body, false, NoAlias());
  EXPECT_EQ(Checked(PrintPrimFunc(func, "add")),
            "# from tvm.script import tir as T\n"
            "\n"
            "@T.prim_func\n"
            "def add(A: T.Buffer((T.int64(4), T.int64(4)), \"float32\"), B: T.Buffer((T.int64(4), T.int64(4)), "
            "\"float32\"), C: T.Buffer((T.int64(4), T.int64(4)), \"float32\")):\n"
            "    T.func_attr({\"tir.noalias\": T.bool(True)})\n"
            "    for i, j in T.grid(T.int64(4), T.int64(4)):\n"
            "        with T.block(\"C\"):\n"
            "            vi, vj = T.axis.remap(\"SS\", [i, j])\n"
            "            T.reads(A[vi, vj], B[vi, vj])\n"
            "            T.writes(C[vi, vj])\n"
            "            C[vi, vj] = A[vi, vj] + B[vi, vj]\n");
}

TEST(PrinterPrimFunc, SymbolicBuffersMatchedInBodyWithReductionInit) {
  ir::Var n = ir::MakeVar("n");
  ir::Buffer a = ir::MakeBuffer("A", {n, I64(4)}, kF32);
  ir::Buffer b = ir::MakeBuffer("B", {n}, kF32);
  ir::Var pa = ir::MakeVar("var_A", DataType::Handle()), pb = ir::MakeVar("var_B", DataType::Handle());
  ir::Var i = ir::MakeVar("i"), k = ir::MakeVar("k"), vi = ir::MakeVar("vi"), vk = ir::MakeVar("vk");
  BlockSpec spec;
  spec.name = "B";
  spec.iter_vars = {Axis(vi, n), Axis(vk, I64(4), tir::IterKind::kReduce)};
  spec.values = {i, k};
  spec.reads = {Region(a, {Point(vi), Point(vk)})};
  spec.writes = {Region(b, {Point(vi)})};
  spec.init = Store(b, ir::MakeFloat(0.0), {vi});
  spec.body = Store(b, Load(b, {vi}) + Load(a, {vi, vk}), {vi});
  tir::Stmt body = For(i, I64(0), n, For(k, I64(0), I64(4), Realize(spec)));
  tir::PrimFunc func = PrimFunc({pa, pb}, {{pa, a}, {pb, b}}, body, /*is_private=*/true, NoAlias());
  EXPECT_EQ(Checked(PrintPrimFunc(func, "row_sum")),
            "# from tvm.script import tir as T\n"
            "\n"
            "@T.prim_func(private=True)\n"
            "def row_sum(var_A: T.handle, var_B: T.handle):\n"
            "    T.func_attr({\"tir.noalias\": T.bool(True)})\n"
            "    n = T.int64()\n"
            "    A = T.match_buffer(var_A, (n, T.int64(4)))\n"
            "    B = T.match_buffer(var_B, (n,))\n"
            "    for i, k in T.grid(n, T.int64(4)):\n"
            "        with T.block(\"B\"):\n"
            "            vi, vk = T.axis.remap(\"SR\", [i, k])\n"
            "            T.reads(A[vi, vk])\n"
            "            T.writes(B[vi])\n"
            "            with T.init():\n"
            "                B[vi] = T.float32(0.0)\n"
            "            B[vi] = B[vi] + A[vi, vk]\n");
}

TEST(PrinterPrimFunc, SeveralNewShapeVariablesShareOneDeclaration) {
  ir::Var m = ir::MakeVar("m"), n = ir::MakeVar("n");
  ir::Buffer a = ir::MakeBuffer("A", {m, n}, DataType::Float(16));
  ir::Var pa = ir::MakeVar("var_A", DataType::Handle()), scalar = ir::MakeVar("k");
  tir::PrimFunc func = PrimFunc({pa, scalar}, {{pa, a}}, Evaluate(I32(0)), true);
  EXPECT_EQ(Checked(PrintPrimFunc(func, "f")),
            "# from tvm.script import tir as T\n"
            "\n"
            "@T.prim_func(private=True)\n"
            "def f(var_A: T.handle, k: T.int64):\n"
            "    m, n = T.int64(), T.int64()\n"
            "    A = T.match_buffer(var_A, (m, n), \"float16\")\n"
            "    T.evaluate(0)\n");
}

TEST(PrinterPrimFunc, ImplicitRootBlockIsAComment) {
  ir::Buffer a = ir::MakeBuffer("A", {I64(4)}, kF32);
  ir::Buffer b = ir::MakeBuffer("B", {I64(4)}, kF32);
  ir::Buffer tmp = ir::MakeBuffer("tmp", {I64(4)}, kF32);
  ir::Var pa = ir::MakeVar("A", DataType::Handle()), pb = ir::MakeVar("B", DataType::Handle());
  ir::Var i1 = ir::MakeVar("i"), i2 = ir::MakeVar("i"), v1 = ir::MakeVar("vi"), v2 = ir::MakeVar("vi");
  BlockSpec first;
  first.name = "tmp";
  first.iter_vars = {Axis(v1, I64(4))};
  first.values = {i1};
  first.reads = {Region(a, {Point(v1)})};
  first.writes = {Region(tmp, {Point(v1)})};
  first.body = Store(tmp, Load(a, {v1}) * ir::MakeFloat(2.0), {v1});
  BlockSpec second;
  second.name = "B";
  second.iter_vars = {Axis(v2, I64(4))};
  second.values = {i2};
  second.reads = {Region(tmp, {Point(v2)})};
  second.writes = {Region(b, {Point(v2)})};
  second.body = Store(b, Load(tmp, {v2}), {v2});
  BlockSpec root;
  root.name = "root";
  root.alloc_buffers = {tmp};
  root.body = tir::MakeSeq({For(i1, I64(0), I64(4), Realize(first)), For(i2, I64(0), I64(4), Realize(second))});
  tir::PrimFunc func = PrimFunc({pa, pb}, {{pa, a}, {pb, b}}, Realize(root));
  EXPECT_EQ(Checked(PrintPrimFunc(func, "scale")),
            "# from tvm.script import tir as T\n"
            "\n"
            "@T.prim_func\n"
            "def scale(A: T.Buffer((T.int64(4),), \"float32\"), B: T.Buffer((T.int64(4),), \"float32\")):\n"
            "    # with T.block(\"root\"):\n"
            "    tmp = T.alloc_buffer((T.int64(4),))\n"
            "    for i in range(T.int64(4)):\n"
            "        with T.block(\"tmp\"):\n"
            "            vi = T.axis.spatial(T.int64(4), i)\n"
            "            T.reads(A[vi])\n"
            "            T.writes(tmp[vi])\n"
            "            tmp[vi] = A[vi] * T.float32(2.0)\n"
            "    for i in range(T.int64(4)):\n"
            "        with T.block(\"B\"):\n"
            "            vi = T.axis.spatial(T.int64(4), i)\n"
            "            T.reads(tmp[vi])\n"
            "            T.writes(B[vi])\n"
            "            B[vi] = tmp[vi]\n");
}

TEST(PrinterPrimFunc, BlockBindingsThatAreNotLoopVariables) {
  ir::Buffer a = ir::MakeBuffer("A", {I64(8)}, kF32);
  ir::Var i = ir::MakeVar("i"), vi = ir::MakeVar("vi");
  BlockSpec spec;
  spec.name = "fill";
  spec.iter_vars = {Axis(vi, I64(8))};
  spec.values = {i * 2};
  spec.predicate = ir::lt(i, I64(4));
  spec.writes = {Region(a, {tir::Range{vi, I64(2)}})};
  spec.annotations = Attrs({{"meta", I32(1)}});
  spec.body = Store(a, ir::MakeFloat(1.0), {vi});
  EXPECT_EQ(Print(For(i, I64(0), I64(4), Realize(spec))),
            "A = T.Buffer((T.int64(8),))\n"
            "for i in range(T.int64(4)):\n"
            "    with T.block(\"fill\"):\n"
            "        vi = T.axis.spatial(T.int64(8), i * T.int64(2))\n"
            "        T.where(i < T.int64(4))\n"
            "        T.reads()\n"
            "        T.writes(A[vi:vi + T.int64(2)])\n"
            "        T.block_attr({\"meta\": 1})\n"
            "        A[vi] = T.float32(1.0)");
}

TEST(PrinterStmt, LoopKinds) {
  ir::Var i = ir::MakeVar("i"), tx = ir::MakeVar("tx");
  tir::Stmt nop = Evaluate(I32(0));
  EXPECT_EQ(Print(For(i, I64(0), I64(8), nop, tir::ForKind::kParallel)),
            "for i in T.parallel(T.int64(8)):\n    T.evaluate(0)");
  EXPECT_EQ(Print(For(i, I64(0), I64(4), nop, tir::ForKind::kVectorized)),
            "for i in T.vectorized(T.int64(4)):\n    T.evaluate(0)");
  EXPECT_EQ(Print(For(i, I64(0), I64(4), nop, tir::ForKind::kUnrolled)),
            "for i in T.unroll(T.int64(4)):\n    T.evaluate(0)");
  EXPECT_EQ(Print(For(tx, I64(0), I64(32), nop, tir::ForKind::kThreadBinding, "threadIdx.x")),
            "for tx in T.thread_binding(T.int64(32), thread=\"threadIdx.x\"):\n    T.evaluate(0)");
  EXPECT_EQ(Print(For(i, I64(2), I64(8), nop)), "for i in range(T.int64(2), T.int64(10)):\n    T.evaluate(0)");
  // A nest whose inner extent depends on the outer variable is no grid.
  ir::Var j = ir::MakeVar("j");
  EXPECT_EQ(Print(For(i, I64(0), I64(4), For(j, I64(0), i, nop))),
            "for i in range(T.int64(4)):\n    for j in range(i):\n        T.evaluate(0)");
}

TEST(PrinterStmt, ConciseScopesOnlyForTheLastStatement) {
  ir::Var x = ir::MakeVar("x", kI32);
  tir::Stmt let = make<tir::LetStmtNode>(x, I32(5), Evaluate(x + 1));
  EXPECT_EQ(Print(let), "x: T.int32 = 5\nT.evaluate(x + 1)");
  EXPECT_EQ(Print(tir::MakeSeq({let, Evaluate(I32(0))})),
            "with T.LetStmt(5) as x:\n    T.evaluate(x + 1)\nT.evaluate(0)");
  ir::Var n = ir::MakeVar("n", kI32);
  tir::Stmt assert_stmt = make<tir::AssertStmtNode>(ir::gt(n, I32(0)), ir::MakeString("n must be positive"),
                                                     Evaluate(n));
  // The free variable is declared before its first use.
  EXPECT_EQ(Print(assert_stmt), "n = T.int32()\nassert n > 0, \"n must be positive\"\nT.evaluate(n)");
}

TEST(PrinterStmt, IfThenElseEvaluateAndDeclBuffer) {
  ir::Var i = ir::MakeVar("i", kI32);
  ir::Buffer a = ir::MakeBuffer("A", {I64(16)}, DataType::Float(16));
  tir::Stmt then_case = Store(a, ir::MakeFloat(0.0, DataType::Float(16)), {I64(0)});
  tir::Stmt else_case = Evaluate(ir::call(kF32, "call_extern", {ir::MakeString("f"), i}));
  tir::Stmt branch = make<tir::IfThenElseNode>(ir::lt(i, I32(10)), then_case, else_case);
  auto* alloc = new tir::AllocateNode();
  alloc->buffer_var = a->data;
  alloc->dtype = a->dtype;
  alloc->extents = {I64(16)};
  alloc->body = make<tir::DeclBufferNode>(a, branch);
  EXPECT_EQ(Print(tir::Stmt(alloc)),
            "i = T.int32()\n"
            "A = T.decl_buffer((T.int64(16),), \"float16\")\n"
            "if i < 10:\n"
            "    A[T.int64(0)] = T.float16(0.0)\n"
            "else:\n"
            "    T.call_extern(\"float32\", \"f\", i)");
}

// ---------------------------------------------------------------------------
// Modules.

TEST(PrinterModule, CrossLevelModule) {
  ir::Var n = ir::MakeVar("n");
  ir::Buffer a = ir::MakeBuffer("A", {n}, kF32);
  ir::Buffer b = ir::MakeBuffer("B", {n}, kF32);
  ir::Var pa = ir::MakeVar("var_A", DataType::Handle()), pb = ir::MakeVar("var_B", DataType::Handle());
  ir::Var i = ir::MakeVar("i"), vi = ir::MakeVar("vi");
  BlockSpec spec;
  spec.name = "B";
  spec.iter_vars = {Axis(vi, n)};
  spec.values = {i};
  spec.reads = {Region(a, {Point(vi)})};
  spec.writes = {Region(b, {Point(vi)})};
  spec.body = Store(b, Load(a, {vi}) + ir::MakeFloat(1.0), {vi});
  tir::PrimFunc add_one = PrimFunc({pa, pb}, {{pa, a}, {pb, b}}, For(i, I64(0), n, Realize(spec)), true);

  ir::Var rn = ir::MakeVar("n");
  graph::Var x = graph::MakeVar("x", Tensor({rn}));
  graph::Var lv = graph::MakeDataflowVar("lv", Tensor({rn}));
  graph::Var gv = graph::MakeVar("gv", graph::TensorSInfo(kF32, 1));
  graph::Expr call_tir = graph::MakeCall("relax.call_tir",
                                         {make<graph::GlobalVarNode>("add_one"),
                                          make<graph::TupleNode>(std::vector<graph::Expr>{x})},
                                         nullptr, {Tensor({rn})});
  graph::Expr call_dps = graph::MakeCall("relax.call_dps_packed",
                                         {make<graph::ExternFuncNode>("my_lib.f"),
                                          make<graph::TupleNode>(std::vector<graph::Expr>{lv})},
                                         nullptr, {Tensor({rn})});
  graph::Function main = Func({x}, Seq({Dataflow({Bind(lv, call_tir), Bind(gv, call_dps)})}, gv),
                              graph::TensorSInfo(kF32, 1));
  ir::IRModule mod = make<ir::IRModuleNode>(
      std::vector<ir::IRModuleNode::Entry>{{"add_one", add_one},
                                           {"ext", make<graph::ExternFuncNode>("my_ext")},
                                           {"main", main}},
      Attrs({{"system_lib_prefix", ir::MakeString("lib_")}}));
  EXPECT_EQ(Checked(PrintModule(mod)),
            "# from tvm.script import ir as I\n"
            "# from tvm.script import tir as T\n"
            "# from tvm.script import relax as R\n"
            "\n"
            "@I.ir_module\n"
            "class Module:\n"
            "    I.module_attrs({\"system_lib_prefix\": \"lib_\"})\n"
            "    @T.prim_func(private=True)\n"
            "    def add_one(var_A: T.handle, var_B: T.handle):\n"
            "        n = T.int64()\n"
            "        A = T.match_buffer(var_A, (n,))\n"
            "        B = T.match_buffer(var_B, (n,))\n"
            "        for i in range(n):\n"
            "            with T.block(\"B\"):\n"
            "                vi = T.axis.spatial(n, i)\n"
            "                T.reads(A[vi])\n"
            "                T.writes(B[vi])\n"
            "                B[vi] = A[vi] + T.float32(1.0)\n"
            "\n"
            "    ext = R.ExternFunc(\"my_ext\")\n"
            "    @R.function\n"
            "    def main(x: R.Tensor((\"n\",), dtype=\"float32\")) -> R.Tensor(dtype=\"float32\", ndim=1):\n"
            "        n = T.int64()\n"
            "        cls = Module\n"
            "        with R.dataflow():\n"
            "            lv = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((n,), dtype=\"float32\"))\n"
            "            gv: R.Tensor(dtype=\"float32\", ndim=1) = R.call_dps_packed(\"my_lib.f\", (lv,), "
            "out_sinfo=R.Tensor((n,), dtype=\"float32\"))\n"
            "            R.output(gv)\n"
            "        return gv\n");
}

TEST(PrinterModule, CallTIRWithTupleOutputAndTirVars) {
  ir::Var n = ir::MakeVar("n");
  graph::Var x = graph::MakeVar("x", Tensor({n}));
  StructInfo out = graph::TupleSInfo({Tensor({n}), Tensor({n})});
  graph::Var y = graph::MakeVar("y", out);
  graph::Expr shape = make<graph::ShapeExprNode>(std::vector<PrimExpr>{n});
  graph::Expr call = graph::MakeCall(
      "relax.call_tir",
      {make<graph::GlobalVarNode>("split"), make<graph::TupleNode>(std::vector<graph::Expr>{x}), shape}, nullptr,
      {out});
  graph::Function main = Func({x}, Seq({Plain({Bind(y, call)})}, y), out);
  // Outside a module the callee prints by its bare name.
  EXPECT_NE(PrintFunction(main, "main")
                .find("    y = R.call_tir(split, (x,), out_sinfo=[R.Tensor((n,), dtype=\"float32\"), "
                      "R.Tensor((n,), dtype=\"float32\")], tir_vars=R.shape([n]))\n"),
            std::string::npos)
      << PrintFunction(main, "main");
}

TEST(PrinterModule, CallsBetweenGraphFunctionsGoThroughCls) {
  graph::Var y = graph::MakeVar("y", Tensor({I64(2)}));
  graph::Function helper = Func({y}, Seq({}, y), Tensor({I64(2)}), true, nullptr, /*is_private=*/true);
  graph::Var x = graph::MakeVar("x", Tensor({I64(2)}));
  graph::Var z = graph::MakeVar("z", Tensor({I64(2)}));
  graph::Expr call = make<graph::CallNode>(make<graph::GlobalVarNode>("helper"), std::vector<graph::Expr>{x});
  graph::Function main = Func({x}, Seq({Plain({Bind(z, call)})}, z), Tensor({I64(2)}));
  ir::IRModule mod = make<ir::IRModuleNode>(
      std::vector<ir::IRModuleNode::Entry>{{"helper", helper}, {"main", main}}, nullptr);
  EXPECT_EQ(Checked(PrintModule(mod)),
            "# from tvm.script import ir as I\n"
            "# from tvm.script import relax as R\n"
            "\n"
            "@I.ir_module\n"
            "class Module:\n"
            "    @R.function(private=True)\n"
            "    def helper(y: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
            "        return y\n"
            "\n"
            "    @R.function\n"
            "    def main(x: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
            "        cls = Module\n"
            "        z: R.Tensor((2,), dtype=\"float32\") = cls.helper(x)\n"
            "        return z\n");
}

TEST(PrinterModule, OnlyUsedDialectsAreImported) {
  graph::Var x = graph::MakeVar("x", Tensor({I64(2)}));
  ir::IRModule mod = make<ir::IRModuleNode>(
      std::vector<ir::IRModuleNode::Entry>{{"main", Func({x}, Seq({}, x), Tensor({I64(2)}))}}, nullptr);
  EXPECT_EQ(Checked(PrintModule(mod)),
            "# from tvm.script import ir as I\n"
            "# from tvm.script import relax as R\n"
            "\n"
            "@I.ir_module\n"
            "class Module:\n"
            "    @R.function\n"
            "    def main(x: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
            "        return x\n");
}

TEST(PrinterAny, DispatchesOnKind) {
  EXPECT_EQ(Print(ObjectRef()), "None");
  EXPECT_EQ(Print(I64(3)), "T.int64(3)");
  EXPECT_EQ(Print(graph::ObjectSInfo()), "R.Object");
  ir::Array list = make<ir::ArrayNode>(std::vector<ObjectRef>{I32(1), ir::MakeString("a")});
  EXPECT_EQ(Print(list), "[1, \"a\"]");
  tir::PrimFunc empty = PrimFunc({}, {}, Evaluate(I32(0)));
  EXPECT_EQ(Print(empty), "# from tvm.script import tir as T\n\n@T.prim_func\ndef main():\n    T.evaluate(0)\n");
}

}  // namespace
}  // namespace rlx::text
