// Unit tests of the TVMScript parser (rlx/text/parser.h): what is defined
// where, dtypes of literals, block domains, operator attribute defaults,
// dataflow outputs, the implicit root block and read/write inference. The
// round-trip corpus (roundtrip_test.cc) and the error files
// (parse_error_test.cc) cover breadth; these tests pin down details.
#include "rlx/text/parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "rlx/graph/expr.h"
#include "rlx/graph/struct_info.h"
#include "rlx/graph/well_formed.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/analysis.h"
#include "rlx/tir/function.h"

namespace rlx::text {
namespace {

graph::Function RelaxFunc(const ir::IRModule& mod, const std::string& name) {
  ObjectRef func = mod->Lookup(name);
  EXPECT_TRUE(func.isa<graph::FunctionNode>()) << name;
  return cast<graph::FunctionNode>(func);
}

tir::PrimFunc PrimFunc(const ir::IRModule& mod, const std::string& name) {
  ObjectRef func = mod->Lookup(name);
  EXPECT_TRUE(func.isa<tir::PrimFuncNode>()) << name;
  return cast<tir::PrimFuncNode>(func);
}

const graph::SeqExprNode* Body(const graph::Function& func) { return func->body.as<graph::SeqExprNode>(); }

std::vector<graph::Binding> AllBindings(const graph::Function& func) {
  std::vector<graph::Binding> bindings;
  for (const graph::BindingBlock& block : Body(func)->blocks) {
    bindings.insert(bindings.end(), block->bindings.begin(), block->bindings.end());
  }
  return bindings;
}

graph::Binding FindBinding(const graph::Function& func, const std::string& name) {
  for (const graph::Binding& binding : AllBindings(func)) {
    if (binding->var->name_hint == name) return binding;
  }
  ADD_FAILURE() << "no binding named " << name;
  return nullptr;
}

const graph::CallNode* BoundCall(const graph::Function& func, const std::string& name) {
  const auto* binding = FindBinding(func, name).as<graph::VarBindingNode>();
  return binding ? binding->value.as<graph::CallNode>() : nullptr;
}

std::vector<ir::PrimExpr> TensorShape(const graph::StructInfo& sinfo) {
  const auto* tensor = sinfo.as<graph::TensorStructInfoNode>();
  EXPECT_NE(tensor, nullptr);
  return tensor ? tensor->GetShape().value_or(std::vector<ir::PrimExpr>{}) : std::vector<ir::PrimExpr>{};
}

// The statement under the implicit root block (or the body itself).
tir::Stmt UnderRoot(const tir::PrimFunc& func) {
  if (const auto* realize = func->body.as<tir::BlockRealizeNode>(); realize && realize->block->name == "root") {
    return realize->block->body;
  }
  return func->body;
}

// The first BlockRealize under `stmt` (walking loops and sequences).
const tir::BlockRealizeNode* FirstRealize(const tir::Stmt& stmt) {
  if (const auto* realize = stmt.as<tir::BlockRealizeNode>()) return realize;
  if (const auto* loop = stmt.as<tir::ForNode>()) return FirstRealize(loop->body);
  if (const auto* seq = stmt.as<tir::SeqStmtNode>()) {
    for (const tir::Stmt& s : seq->seq) {
      if (const auto* found = FirstRealize(s)) return found;
    }
  }
  return nullptr;
}

CompileError ParseError(const std::string& text) {
  try {
    ParseModuleText(text, "test.py");
  } catch (const CompileError& error) {
    return error;
  }
  ADD_FAILURE() << "expected a CompileError for:\n" << text;
  return CompileError(Span(), "");
}

// ---------------------------------------------------------------------------
// Symbolic variables.

TEST(ParserTest, SignatureStringDefinesSymbolicVarAndBodyRestatesIt) {
  ir::IRModule mod = ParseModuleText(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), y: R.Tensor(("n",), "float32")) -> R.Tensor(("n", 4), "float32"):
        n = T.int64()
        z: R.Tensor((n, 4), "float32") = R.add(x, x)
        return z
)");
  graph::Function func = RelaxFunc(mod, "main");
  ir::PrimExpr n_in_x = TensorShape(func->params[0]->struct_info)[0];
  ir::PrimExpr n_in_y = TensorShape(func->params[1]->struct_info)[0];
  ASSERT_TRUE(n_in_x.isa<ir::VarNode>());
  EXPECT_EQ(n_in_x.as<ir::VarNode>()->name_hint, "n");
  EXPECT_EQ(n_in_x->dtype, DataType::Int64());
  EXPECT_TRUE(n_in_x.same_as(n_in_y)) << "a later appearance reuses the variable";
  EXPECT_TRUE(TensorShape(func->ret_struct_info)[0].same_as(n_in_x));
  EXPECT_TRUE(TensorShape(FindBinding(func, "z")->var->struct_info)[0].same_as(n_in_x))
      << "`n = T.int64()` binds the signature's n";
  EXPECT_TRUE(ir::IsConstInt(TensorShape(func->params[0]->struct_info)[1], 4));
  EXPECT_EQ(TensorShape(func->params[0]->struct_info)[1]->dtype, DataType::Int64()) << "shape literals are int64";
}

TEST(ParserTest, CompoundStringDimensionUsesDefinedVars) {
  ir::IRModule mod = ParseModuleText(R"(
@R.function
def main(x: R.Tensor(("n",), "float32"), y: R.Tensor(("n * 2",), "float32")) -> R.Tensor(("n * 2",), "float32"):
    return y
)");
  graph::Function func = RelaxFunc(mod, "main");
  ir::PrimExpr n = TensorShape(func->params[0]->struct_info)[0];
  const auto* mul = TensorShape(func->params[1]->struct_info)[0].as<ir::MulNode>();
  ASSERT_NE(mul, nullptr);
  EXPECT_TRUE(mul->a.same_as(n));
  EXPECT_TRUE(ir::IsConstInt(mul->b, 2));
  const auto* ret = TensorShape(func->ret_struct_info)[0].as<ir::MulNode>();
  ASSERT_NE(ret, nullptr);
  EXPECT_TRUE(ret->a.same_as(n));
}

TEST(ParserTest, MatchCastDefinesNewSymbolicVar) {
  ir::IRModule mod = ParseModuleText(R"(
@R.function
def main(x: R.Tensor(dtype="float32", ndim=1)):
    m = T.int64()
    y = R.match_cast(x, R.Tensor((m,), "float32"))
    z: R.Tensor((m,), "float32") = R.exp(y)
    return z
)");
  graph::Function func = RelaxFunc(mod, "main");
  const auto* match = FindBinding(func, "y").as<graph::MatchCastNode>();
  ASSERT_NE(match, nullptr);
  ir::PrimExpr m = TensorShape(match->struct_info)[0];
  EXPECT_TRUE(TensorShape(FindBinding(func, "z")->var->struct_info)[0].same_as(m));
  // The return struct info may only mention parameter-defined variables.
  const auto* ret = func->ret_struct_info.as<graph::TensorStructInfoNode>();
  ASSERT_NE(ret, nullptr);
  EXPECT_FALSE(ret->shape.defined());
  EXPECT_EQ(ret->ndim, 1);
}

// ---------------------------------------------------------------------------
// Bindings and blocks.

TEST(ParserTest, DataflowOutputsAreVarsOthersDataflowVars) {
  ir::IRModule mod = ParseModuleText(R"(
@R.function
def main(x: R.Tensor((4,), "float32")):
    with R.dataflow():
        lv = R.exp(x)
        gv = R.add(lv, x)
        gv = R.multiply(gv, gv)
        R.output(gv)
    return gv
)");
  graph::Function func = RelaxFunc(mod, "main");
  const graph::SeqExprNode* body = Body(func);
  ASSERT_EQ(body->blocks.size(), 1u);
  ASSERT_TRUE(body->blocks[0]->is_dataflow());
  const auto& bindings = body->blocks[0]->bindings;
  ASSERT_EQ(bindings.size(), 3u);
  EXPECT_TRUE(bindings[0]->var.isa<graph::DataflowVarNode>());
  EXPECT_TRUE(bindings[1]->var.isa<graph::DataflowVarNode>()) << "only the last binding of gv is the output";
  EXPECT_FALSE(bindings[2]->var.isa<graph::DataflowVarNode>());
  EXPECT_TRUE(body->body.same_as(bindings[2]->var));
}

TEST(ParserTest, RebindingShadowsAndAnnotationsAreKept) {
  ir::IRModule mod = ParseModuleText(R"(
@R.function
def main(x: R.Tensor((4,), "float32")):
    y = R.exp(x)
    y: R.Tensor(ndim=1) = R.add(y, x)
    return y
)");
  graph::Function func = RelaxFunc(mod, "main");
  std::vector<graph::Binding> bindings = AllBindings(func);
  ASSERT_EQ(bindings.size(), 2u);
  EXPECT_FALSE(bindings[0]->var.same_as(bindings[1]->var));
  const auto* add = bindings[1].as<graph::VarBindingNode>()->value.as<graph::CallNode>();
  EXPECT_TRUE(add->args[0].same_as(bindings[0]->var)) << "the right-hand side sees the old y";
  const auto* sinfo = bindings[1]->var->struct_info.as<graph::TensorStructInfoNode>();
  ASSERT_NE(sinfo, nullptr);
  EXPECT_FALSE(sinfo->shape.defined()) << "the (less precise) annotation is kept";
  EXPECT_EQ(sinfo->ndim, 1);
}

TEST(ParserTest, IfBindsBranchResults) {
  ir::IRModule mod = ParseModuleText(R"(
@R.function
def main(c: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")):
    if c:
        y = R.exp(x)
    else:
        y = x
    return y
)");
  graph::Function func = RelaxFunc(mod, "main");
  const auto* binding = FindBinding(func, "y").as<graph::VarBindingNode>();
  ASSERT_NE(binding, nullptr);
  const auto* if_node = binding->value.as<graph::IfNode>();
  ASSERT_NE(if_node, nullptr);
  const auto* then_seq = if_node->true_branch.as<graph::SeqExprNode>();
  const auto* else_seq = if_node->false_branch.as<graph::SeqExprNode>();
  ASSERT_TRUE(then_seq && else_seq);
  EXPECT_EQ(then_seq->blocks.size(), 1u);
  EXPECT_TRUE(else_seq->body.same_as(func->params[1]));
  EXPECT_EQ(TensorShape(binding->var->struct_info).size(), 1u);
}

TEST(ParserTest, ExpressionStatementIsBoundToUnderscore) {
  ir::IRModule mod = ParseModuleText(R"(
@R.function(pure=False)
def main(x: R.Tensor((4,), "float32")):
    R.print(x, format="{}")
    return x
)");
  graph::Function func = RelaxFunc(mod, "main");
  EXPECT_FALSE(func->is_pure);
  std::vector<graph::Binding> bindings = AllBindings(func);
  ASSERT_EQ(bindings.size(), 1u);
  EXPECT_EQ(bindings[0]->var->name_hint, "_");
}

TEST(ParserTest, PublicFunctionsGetGlobalSymbol) {
  ir::IRModule mod = ParseModuleText(R"(
@I.ir_module
class Module:
    @R.function
    def pub(x: R.Tensor((4,), "float32")):
        return x

    @R.function(private=True)
    def priv(x: R.Tensor((4,), "float32")):
        return x

    @T.prim_func
    def tir_pub(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(1)
)");
  graph::Function pub = RelaxFunc(mod, "pub");
  ASSERT_TRUE(pub->attrs.defined());
  EXPECT_EQ(pub->attrs->Get("global_symbol").as<ir::StringImmNode>()->value, "pub");
  graph::Function priv = RelaxFunc(mod, "priv");
  EXPECT_TRUE(priv->is_private);
  EXPECT_FALSE(priv->attrs.defined() && priv->attrs->Contains("global_symbol"));
  tir::PrimFunc tir_pub = PrimFunc(mod, "tir_pub");
  EXPECT_EQ(tir_pub->attrs->Get("global_symbol").as<ir::StringImmNode>()->value, "tir_pub");
  // Module order is source order.
  ASSERT_EQ(mod->functions.size(), 3u);
  EXPECT_EQ(mod->functions[0].first, "pub");
  EXPECT_EQ(mod->functions[2].first, "tir_pub");
}

TEST(ParserTest, CallToLaterFunctionIsDeducedFromItsSignature) {
  ir::IRModule mod = ParseModuleText(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 5), "float32")):
        cls = Module
        y = cls.flatten(x)
        return y

    @R.function
    def flatten(x: R.Tensor(("a", "b"), "float32")) -> R.Tensor(("a * b",), "float32"):
        y = R.reshape(x, R.shape([a * b]))
        return y
)");
  graph::Function main = RelaxFunc(mod, "main");
  std::vector<ir::PrimExpr> shape = TensorShape(FindBinding(main, "y")->var->struct_info);
  ASSERT_EQ(shape.size(), 1u);
  EXPECT_TRUE(ir::IsConstInt(shape[0], 15));
  const graph::CallNode* call = BoundCall(main, "y");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->op.as<graph::GlobalVarNode>()->name_hint, "flatten");
}

// A graph function may call a PrimFunc directly (TVM's PrimFunc struct
// info): the call is pure when the PrimFunc writes only memory it allocates
// and calls no state-updating builtin. `-> None` means R.Tuple().
TEST(ParserTest, DirectPrimFuncCallsArePureOnlyWhenThePrimFuncIs) {
  const char* const kPrimFuncs = R"(
    @T.prim_func(private=True)
    def total(A: T.Buffer((4,), "float32")) -> T.float32:
        acc = T.decl_buffer((1,), "float32")
        acc[0] = T.float32(0)
        for i in range(4):
            acc[0] = acc[0] + A[i]
        return acc[0]

    @T.prim_func(private=True)
    def zero_first(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(0)

    @T.prim_func(private=True)
    def extern_call(A: T.Buffer((4,), "float32")):
        acc = T.decl_buffer((1,), "float32")
        acc[0] = T.call_extern("float32", "side_effect", A[0])
)";
  ir::IRModule mod = ParseModuleText(std::string(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Prim("float32"):
        s = Module.total(x)
        return s

    @R.function(pure=False)
    def writes(x: R.Tensor((4,), "float32")) -> None:
        v = Module.zero_first(x)
        return R.tuple()
)") + kPrimFuncs);
  EXPECT_NO_THROW(graph::CheckWellFormed(mod));
  EXPECT_TRUE(tir::IsPureFunction(PrimFunc(mod, "total")));
  EXPECT_FALSE(tir::IsPureFunction(PrimFunc(mod, "zero_first")));
  EXPECT_FALSE(tir::IsPureFunction(PrimFunc(mod, "extern_call")));
  const auto* prim = FindBinding(RelaxFunc(mod, "main"), "s")->var->struct_info.as<graph::PrimStructInfoNode>();
  ASSERT_NE(prim, nullptr);
  EXPECT_EQ(prim->dtype, DataType::Float32());
  graph::Function writes = RelaxFunc(mod, "writes");
  const auto* ret = writes->ret_struct_info.as<graph::TupleStructInfoNode>();
  ASSERT_NE(ret, nullptr);
  EXPECT_TRUE(ret->fields.empty());

  ir::IRModule impure = ParseModuleText(std::string(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        y = Module.zero_first(x)
        return x
)") + kPrimFuncs);
  try {
    graph::CheckWellFormed(impure);
    ADD_FAILURE() << "a pure function calling a PrimFunc that writes its argument must be rejected";
  } catch (const CompileError& error) {
    EXPECT_NE(std::string(error.what()).find("the function is pure but calls impure PrimFunc 'zero_first'"),
              std::string::npos)
        << error.what();
  }
}

// ---------------------------------------------------------------------------
// Operators.

TEST(ParserTest, OperatorAttributesGetDefaultsAndNoneIsLeftOut) {
  ir::IRModule mod = ParseModuleText(R"(
@R.function
def main(x: R.Tensor((4, 4), "float32")):
    a = R.sum(x)
    b = R.sum(x, axis=1, keepdims=True)
    c = R.permute_dims(x)
    d = R.matmul(x, x)
    e = R.astype(x, "float16")
    f = R.mean(x, [0], False)
    return x
)");
  graph::Function func = RelaxFunc(mod, "main");
  const graph::CallNode* a = BoundCall(func, "a");
  ASSERT_TRUE(a->attrs.defined());
  EXPECT_FALSE(a->attrs->Contains("axis")) << "axis=None is left out";
  EXPECT_EQ(a->attrs->Get("keepdims").as<ir::IntImmNode>()->value, 0);
  EXPECT_TRUE(a->attrs->Get("keepdims").as<ir::IntImmNode>()->dtype.is_bool());
  const graph::CallNode* b = BoundCall(func, "b");
  const auto* axis = b->attrs->Get("axis").as<ir::ArrayNode>();
  ASSERT_NE(axis, nullptr) << "a single int becomes a list";
  ASSERT_EQ(axis->elements.size(), 1u);
  EXPECT_EQ(axis->elements[0].as<ir::IntImmNode>()->value, 1);
  EXPECT_EQ(axis->elements[0].as<ir::IntImmNode>()->dtype, DataType::Int64());
  EXPECT_FALSE(BoundCall(func, "c")->attrs.defined());
  EXPECT_EQ(BoundCall(func, "d")->attrs->Get("out_dtype").as<ir::StringImmNode>()->value, "void");
  EXPECT_EQ(BoundCall(func, "e")->attrs->Get("dtype").as<ir::StringImmNode>()->value, "float16");
  const graph::CallNode* f = BoundCall(func, "f");
  EXPECT_EQ(f->attrs->Get("axis").as<ir::ArrayNode>()->elements.size(), 1u) << "positional attributes";
  EXPECT_EQ(f->op.as<graph::OpNode>()->name, "relax.mean");
}

TEST(ParserTest, CallTIRBuildsTupleArgsAndSinfoArgs) {
  ir::IRModule mod = ParseModuleText(R"(
@I.ir_module
class Module:
    @T.prim_func
    def copy(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i]
            C[i] = A[i]

    @R.function
    def main(x: R.Tensor((4,), "float32")):
        cls = Module
        y = R.call_tir(cls.copy, [x], out_sinfo=[R.Tensor((4,), "float32"), R.Tensor((4,), "float32")])
        return y
)");
  graph::Function func = RelaxFunc(mod, "main");
  const graph::CallNode* call = BoundCall(func, "y");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->op.as<graph::OpNode>()->name, "relax.call_tir");
  ASSERT_EQ(call->args.size(), 2u);
  EXPECT_TRUE(call->args[0].isa<graph::GlobalVarNode>());
  EXPECT_TRUE(call->args[1].isa<graph::TupleNode>());
  ASSERT_EQ(call->sinfo_args.size(), 1u);
  const auto* out = call->sinfo_args[0].as<graph::TupleStructInfoNode>();
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->fields.size(), 2u);
}

TEST(ParserTest, ConstantsDefaultToInt32AndFloat32) {
  ir::IRModule mod = ParseModuleText(R"(
@R.function
def main(x: R.Tensor((4,), "float32")):
    a = R.const(3)
    b = R.const([1.5, -2.0])
    c = R.const([[1, 2], [3, 4]], "int64")
    d = R.const(False)
    return x
)");
  graph::Function func = RelaxFunc(mod, "main");
  auto payload = [&](const std::string& name) {
    const auto* binding = FindBinding(func, name).as<graph::VarBindingNode>();
    return binding->value.as<graph::ConstantNode>()->data;
  };
  EXPECT_EQ(payload("a")->dtype, DataType::Int32());
  EXPECT_TRUE(payload("a")->shape.empty());
  int32_t a = 0;
  std::memcpy(&a, payload("a")->bytes.data(), sizeof(a));
  EXPECT_EQ(a, 3);
  EXPECT_EQ(payload("b")->dtype, DataType::Float32());
  float b[2];
  ASSERT_EQ(payload("b")->bytes.size(), sizeof(b));
  std::memcpy(b, payload("b")->bytes.data(), sizeof(b));
  EXPECT_EQ(b[1], -2.0f);
  EXPECT_EQ(payload("c")->shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(payload("c")->bytes.size(), 4 * sizeof(int64_t));
  EXPECT_EQ(payload("d")->dtype, DataType::Bool());
}

TEST(ParserTest, PythonOperatorsMapToElementwiseOps) {
  ir::IRModule mod = ParseModuleText(R"(
@R.function
def main(x: R.Tensor((4,), "float32")):
    a = x * x + x
    b = -a
    c = a >= x
    return x
)");
  graph::Function func = RelaxFunc(mod, "main");
  EXPECT_EQ(BoundCall(func, "a")->op.as<graph::OpNode>()->name, "relax.add");
  EXPECT_EQ(BoundCall(func, "b")->op.as<graph::OpNode>()->name, "relax.negative");
  EXPECT_EQ(BoundCall(func, "c")->op.as<graph::OpNode>()->name, "relax.greater_equal");
  // The nested product was emitted as its own binding (A-normal form).
  EXPECT_EQ(AllBindings(func).size(), 4u);
}

// ---------------------------------------------------------------------------
// TIR.

TEST(ParserTest, TIRLiteralsAreInt32AndStoresConvertToBufferDtype) {
  ir::IRModule mod = ParseModuleText(R"(
@T.prim_func
def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "int64")):
    for i in range(8):
        A[i] = 0
        B[i] = i + 1
)");
  tir::PrimFunc func = PrimFunc(mod, "f");
  const auto* loop = func->body.as<tir::ForNode>();
  ASSERT_NE(loop, nullptr) << "no blocks: no root block";
  EXPECT_EQ(loop->loop_var->dtype, DataType::Int32());
  const auto* seq = loop->body.as<tir::SeqStmtNode>();
  ASSERT_NE(seq, nullptr);
  const auto* store_a = seq->seq[0].as<tir::BufferStoreNode>();
  ASSERT_TRUE(store_a->value.isa<ir::FloatImmNode>());
  EXPECT_EQ(store_a->value->dtype, DataType::Float32());
  const auto* store_b = seq->seq[1].as<tir::BufferStoreNode>();
  const auto* cast = store_b->value.as<ir::CastNode>();
  ASSERT_NE(cast, nullptr) << "an int32 value stored into int64 is cast";
  EXPECT_EQ(cast->dtype, DataType::Int64());
  EXPECT_EQ(cast->value->dtype, DataType::Int32());
}

TEST(ParserTest, TypedLiteralsAndFolding) {
  ir::IRModule mod = ParseModuleText(R"(
@T.prim_func
def f(A: T.Buffer((8,), "float32"), n: T.int64):
    for i in range(T.int64(8)):
        A[i] = T.float32("inf")
        A[i + 0] = T.Cast("float32", n * 1 + T.int64(2) * 3)
        A[T.Add(i, 0)] = T.float32(-1.5)
)");
  tir::PrimFunc func = PrimFunc(mod, "f");
  const auto* loop = func->body.as<tir::ForNode>();
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->loop_var->dtype, DataType::Int64()) << "the loop variable takes the extent's dtype";
  const auto& seq = loop->body.as<tir::SeqStmtNode>()->seq;
  EXPECT_TRUE(std::isinf(seq[0].as<tir::BufferStoreNode>()->value.as<ir::FloatImmNode>()->value));
  const auto* second = seq[1].as<tir::BufferStoreNode>();
  EXPECT_TRUE(second->indices[0].same_as(loop->loop_var)) << "i + 0 folds to i";
  const auto* cast = second->value.as<ir::CastNode>();
  ASSERT_NE(cast, nullptr);
  const auto* add = cast->value.as<ir::AddNode>();
  ASSERT_NE(add, nullptr);
  EXPECT_TRUE(add->a.same_as(func->params[1])) << "n * 1 folds to n";
  EXPECT_TRUE(ir::IsConstInt(add->b, 6));
  EXPECT_EQ(add->b->dtype, DataType::Int64());
  const auto* third = seq[2].as<tir::BufferStoreNode>();
  EXPECT_TRUE(third->indices[0].isa<ir::AddNode>()) << "explicit T.Add never folds";
}

TEST(ParserTest, RemapTakesDomainsFromLoops) {
  ir::IRModule mod = ParseModuleText(R"(
@T.prim_func
def f(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        for k in range(2, 10):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                B[vi] = B[vi] + A[vi, vk]
)");
  tir::PrimFunc func = PrimFunc(mod, "f");
  const auto* root = func->body.as<tir::BlockRealizeNode>();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->block->name, "root");
  const tir::BlockRealizeNode* realize = FirstRealize(root->block->body);
  ASSERT_NE(realize, nullptr);
  const tir::Block& block = realize->block;
  ASSERT_EQ(block->iter_vars.size(), 2u);
  EXPECT_EQ(block->iter_vars[0]->iter_kind, tir::IterKind::kSpatial);
  EXPECT_EQ(block->iter_vars[1]->iter_kind, tir::IterKind::kReduce);
  EXPECT_TRUE(ir::IsConstInt(block->iter_vars[1]->dom.min, 2));
  EXPECT_TRUE(ir::IsConstInt(block->iter_vars[1]->dom.extent, 8));
  EXPECT_TRUE(ir::IsConstInt(realize->predicate, 1));
  EXPECT_TRUE(realize->predicate->dtype.is_bool());
  // Reads and writes were inferred: B is written (so not read), A is read.
  ASSERT_EQ(block->writes.size(), 1u);
  EXPECT_EQ(block->writes[0]->buffer->name, "B");
  ASSERT_EQ(block->reads.size(), 1u);
  EXPECT_EQ(block->reads[0]->buffer->name, "A");
  EXPECT_TRUE(block->reads[0]->region[1].min.same_as(block->iter_vars[1]->var));
  EXPECT_TRUE(ir::IsConstInt(block->reads[0]->region[1].extent, 1));
}

TEST(ParserTest, AxisWithInt64DomainIsInt64) {
  ir::IRModule mod = ParseModuleText(R"(
@T.prim_func
def f(A: T.Buffer((T.int64(16),), "float32")):
    for i in range(T.int64(16)):
        with T.block("A"):
            vi = T.axis.spatial(T.int64(16), i)
            T.reads()
            T.writes(A[vi])
            A[vi] = T.float32(0)
)");
  const tir::BlockRealizeNode* realize = FirstRealize(UnderRoot(PrimFunc(mod, "f")));
  ASSERT_NE(realize, nullptr);
  EXPECT_EQ(realize->block->iter_vars[0]->var->dtype, DataType::Int64());
  EXPECT_TRUE(realize->block->reads.empty()) << "explicit T.reads() is kept empty";
}

TEST(ParserTest, RootBlockOwnsFunctionLevelAllocations) {
  ir::IRModule mod = ParseModuleText(R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    B = T.alloc_buffer((4,), scope="shared")
    for i in range(4):
        B[i] = A[i]
)");
  tir::PrimFunc func = PrimFunc(mod, "f");
  const auto* root = func->body.as<tir::BlockRealizeNode>();
  ASSERT_NE(root, nullptr) << "function-level alloc_buffer needs a root block";
  ASSERT_EQ(root->block->alloc_buffers.size(), 1u);
  EXPECT_EQ(root->block->alloc_buffers[0]->scope, "shared");
  EXPECT_TRUE(root->block->iter_vars.empty());
}

TEST(ParserTest, MatchBufferDefinesShapeVarsAndBufferMap) {
  ir::IRModule mod = ParseModuleText(R"(
@T.prim_func
def f(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, 4), "float16")
    B = T.match_buffer(b, (m,))
    for i in range(m):
        B[i] = T.float32(0)
)");
  tir::PrimFunc func = PrimFunc(mod, "f");
  ASSERT_EQ(func->buffer_map.size(), 2u);
  const ir::Buffer& a = func->buffer_map[0].second;
  EXPECT_TRUE(func->buffer_map[0].first.same_as(func->params[0]));
  EXPECT_EQ(a->dtype, DataType::Float(16));
  EXPECT_EQ(a->shape[0]->dtype, DataType::Int64());
  const ir::Buffer& b = func->buffer_map[1].second;
  EXPECT_EQ(b->dtype, DataType::Float32()) << "the default dtype";
  ASSERT_TRUE(b->shape[0].isa<ir::VarNode>()) << "an undefined name in a match_buffer shape is defined there";
  EXPECT_EQ(b->shape[0]->dtype, DataType::Int32());
  const auto* loop = func->body.as<tir::ForNode>();
  ASSERT_NE(loop, nullptr);
  EXPECT_TRUE(loop->extent.same_as(b->shape[0]));
}

TEST(ParserTest, ConciseLetAndAssertScopeTheRest) {
  ir::IRModule mod = ParseModuleText(R"(
@T.prim_func
def f(A: T.Buffer((4,), "int32"), n: T.int32):
    assert n > 0, "positive"
    x: T.int64 = n + 1
    A[0] = T.Cast("int32", x)
)");
  tir::PrimFunc func = PrimFunc(mod, "f");
  const auto* assert_stmt = func->body.as<tir::AssertStmtNode>();
  ASSERT_NE(assert_stmt, nullptr);
  EXPECT_EQ(assert_stmt->message.as<ir::StringImmNode>()->value, "positive");
  const auto* let = assert_stmt->body.as<tir::LetStmtNode>();
  ASSERT_NE(let, nullptr);
  EXPECT_EQ(let->var->dtype, DataType::Int64());
  EXPECT_EQ(let->value->dtype, DataType::Int64()) << "the value is converted to the annotated type";
  EXPECT_TRUE(let->body.isa<tir::BufferStoreNode>());
}

TEST(ParserTest, GridMakesNestedLoopsAndThreadBindingKeepsTag) {
  ir::IRModule mod = ParseModuleText(R"(
@T.prim_func
def f(A: T.Buffer((4, 8), "float32")):
    for i, j in T.grid(4, 8):
        A[i, j] = T.float32(0)
    for t in T.thread_binding(32, thread="threadIdx.x"):
        A[0, 0] = T.float32(1)
)");
  const auto* seq = PrimFunc(mod, "f")->body.as<tir::SeqStmtNode>();
  ASSERT_NE(seq, nullptr);
  const auto* outer = seq->seq[0].as<tir::ForNode>();
  ASSERT_NE(outer, nullptr);
  const auto* inner = outer->body.as<tir::ForNode>();
  ASSERT_NE(inner, nullptr);
  EXPECT_TRUE(ir::IsConstInt(inner->extent, 8));
  const auto* bound = seq->seq[1].as<tir::ForNode>();
  EXPECT_EQ(bound->for_kind, tir::ForKind::kThreadBinding);
  EXPECT_EQ(bound->thread_tag, "threadIdx.x");
}

// ---------------------------------------------------------------------------
// Module level and errors.

TEST(ParserTest, ParseModulesReturnsEveryClassInOrder) {
  auto source = std::make_shared<SourceFile>("two.py", R"(
from tvm.script import ir as I
@I.ir_module
class Before:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        return x

@I.ir_module
class Expected:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        y = R.exp(x)
        return y
)");
  auto modules = ParseModules(source);
  ASSERT_EQ(modules.size(), 2u);
  EXPECT_EQ(modules[0].first, "Before");
  EXPECT_EQ(modules[1].first, "Expected");
  EXPECT_EQ(AllBindings(RelaxFunc(modules[1].second, "main")).size(), 1u);
}

TEST(ParserTest, DeductionErrorPointsAtTheCall) {
  CompileError error = ParseError(R"(@R.function
def main(x: R.Tensor(("n", 4), "float32"), w: R.Tensor((5, 3), "float32")):
    y = R.matmul(x, w)
    return y
)");
  EXPECT_EQ(error.diagnostic().span.line, 3);
  EXPECT_EQ(error.diagnostic().span.column, 9);
  EXPECT_NE(error.diagnostic().message.find("(n, 4)"), std::string::npos) << error.what();
  EXPECT_NE(error.diagnostic().message.find("(5, 3)"), std::string::npos) << error.what();
}

TEST(ParserTest, ReadSourceFileReportsMissingFile) {
  try {
    ReadSourceFile("/nonexistent/rlx/file.py");
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_NE(std::string(error.what()).find("cannot read"), std::string::npos);
  }
}

TEST(ParserTest, UnknownOperatorAndUndefinedNameMessages) {
  EXPECT_NE(ParseError("@R.function\ndef f(x: R.Tensor((4,), \"float32\")):\n    y = R.nn.reluu(x)\n    return y\n")
                .diagnostic()
                .message.find("unknown operator 'R.nn.reluu'"),
            std::string::npos);
  CompileError undefined = ParseError("@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    A[0] = q\n");
  EXPECT_EQ(undefined.diagnostic().message, "undefined variable 'q'");
  EXPECT_EQ(undefined.diagnostic().span.column, 12);
}


// ---------------------------------------------------------------------------
// Robustness: every corpus file with one line deleted, and cut short after
// each line, either parses or fails with a CompileError (never a crash).

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string JoinLines(const std::vector<std::string>& lines, size_t skip, size_t count) {
  std::string out;
  for (size_t i = 0; i < count && i < lines.size(); ++i) {
    if (i != skip) out += lines[i] + "\n";
  }
  return out;
}

TEST(ParserRobustnessTest, MutatedCorpusNeverCrashes) {
  std::vector<std::string> files;
  for (const char* dir : {RLX_SOURCE_DIR "/tests/text/roundtrip", RLX_SOURCE_DIR "/tests/text/errors"}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path().string());
  }
  ASSERT_GT(files.size(), 70u);
  size_t parsed = 0, rejected = 0;
  for (const std::string& path : files) {
    std::vector<std::string> lines = SplitLines(ReadSourceFile(path)->text());
    for (size_t i = 0; i < lines.size(); ++i) {
      for (const std::string& text : {JoinLines(lines, i, lines.size()), JoinLines(lines, SIZE_MAX, i)}) {
        try {
          ParseModuleText(text, path);
          ++parsed;
        } catch (const CompileError&) {
          ++rejected;
        }
      }
    }
  }
  EXPECT_GT(parsed, 0u);
  EXPECT_GT(rejected, 0u);
}

}  // namespace
}  // namespace rlx::text
