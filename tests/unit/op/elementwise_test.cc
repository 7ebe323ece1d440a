// Struct-info deduction of the elementwise operators: binary broadcasting,
// unary, clip and astype.
#include <gtest/gtest.h>

#include "op_test_util.h"

namespace rlx::op::testing {
namespace {

using ElementwiseTest = OpTest;

// ---------------------------------------------------------------------------
// Binary broadcasting.

TEST_F(ElementwiseTest, AddStaticSameShape) {
  StructInfo sinfo = Infer(add(TensorVar("x", {Int(2), Int(3)}), TensorVar("y", {Int(2), Int(3)})));
  ExpectTensor(sinfo, {Int(2), Int(3)}, kF32);
}

TEST_F(ElementwiseTest, BroadcastsDimsOfOne) {
  StructInfo sinfo = Infer(multiply(TensorVar("x", {Int(2), Int(1), Int(4)}), TensorVar("y", {Int(3), Int(1)})));
  ExpectTensor(sinfo, {Int(2), Int(3), Int(4)}, kF32);
}

TEST_F(ElementwiseTest, BroadcastsMissingLeadingDims) {
  StructInfo sinfo = Infer(add(TensorVar("x", {n, Int(4)}), TensorVar("y", {Int(4)})));
  ExpectTensor(sinfo, {n, Int(4)}, kF32);
  sinfo = Infer(subtract(TensorVar("x", {Int(4)}), TensorVar("y", {b, n, Int(4)})));
  ExpectTensor(sinfo, {b, n, Int(4)}, kF32);
}

TEST_F(ElementwiseTest, SymbolicDimsAgainstOne) {
  StructInfo sinfo = Infer(add(TensorVar("x", {n, Int(1)}), TensorVar("y", {Int(1), m})));
  ExpectTensor(sinfo, {n, m}, kF32);
}

TEST_F(ElementwiseTest, ProvablyEqualSymbolicDims) {
  StructInfo sinfo = Infer(divide(TensorVar("x", {n * 4, m}), TensorVar("y", {4 * n, m})));
  ExpectTensor(sinfo, {n * 4, m}, kF32);
}

TEST_F(ElementwiseTest, ConstantMismatchIsAnError) {
  EXPECT_EQ(InferError(add(TensorVar("x", {n, Int(4)}), TensorVar("y", {n, Int(5)}))),
            "add: cannot broadcast shapes (n, 4) and (n, 5)");
}

TEST_F(ElementwiseTest, MismatchBehindAnUndecidableDimIsStillAnError) {
  EXPECT_EQ(InferError(maximum(TensorVar("x", {n, Int(2)}), TensorVar("y", {m, Int(3)}))),
            "maximum: cannot broadcast shapes (n, 2) and (m, 3)");
}

TEST_F(ElementwiseTest, UndecidableDimsKeepRankAndDtype) {
  StructInfo sinfo = Infer(add(TensorVar("x", {n, Int(4)}), TensorVar("y", {m, Int(4)})));
  ExpectTensorRank(sinfo, 2, kF32);
  sinfo = Infer(add(TensorVar("x", {n}), TensorVar("y", {b, m})));
  ExpectTensorRank(sinfo, 2, kF32);
}

TEST_F(ElementwiseTest, UnknownRankPropagates) {
  StructInfo sinfo = Infer(add(TensorVar("x", -1), TensorVar("y", {Int(2), Int(3)})));
  ExpectTensorRank(sinfo, -1, kF32);
}

TEST_F(ElementwiseTest, UnknownShapeKeepsTheLargerRank) {
  StructInfo sinfo = Infer(power(TensorVar("x", 2), TensorVar("y", {Int(1), Int(3), Int(4)})));
  ExpectTensorRank(sinfo, 3, kF32);
}

TEST_F(ElementwiseTest, UnknownDtypePropagates) {
  StructInfo sinfo = Infer(add(TensorVar("x", {n, Int(4)}, DataType::Void()), TensorVar("y", {Int(4)})));
  ExpectTensor(sinfo, {n, Int(4)}, DataType::Void());
}

TEST_F(ElementwiseTest, DifferentDtypesAreAnError) {
  EXPECT_EQ(InferError(add(TensorVar("x", {n}, kF32), TensorVar("y", {n}, kF16))),
            "add: operands have different dtypes float32 and float16");
}

TEST_F(ElementwiseTest, NonTensorArgumentIsAnError) {
  graph::Var shape = graph::MakeVar("s", graph::ShapeSInfo({n}));
  EXPECT_EQ(InferError(add(TensorVar("x", {n}), shape)),
            "add: expected a Tensor or a Prim for argument 'x2', got Shape([n])");
}

// A Prim operand is a scalar broadcast like a tensor of shape (1,) (TVM's
// InferStructInfoBroadcast): the result has the tensor's shape.
TEST_F(ElementwiseTest, PrimOperandBroadcastsAsAScalar) {
  graph::Var scale = graph::MakeVar("scale", graph::PrimSInfo(kF32));
  ExpectTensor(Infer(multiply(TensorVar("x", {n, Int(4)}), scale)), {n, Int(4)}, kF32);
  ExpectTensor(Infer(subtract(scale, TensorVar("x", {m}))), {m}, kF32);
  ExpectTensor(Infer(greater(TensorVar("x", {n, Int(2)}), scale)), {n, Int(2)}, kBool);
  // A literal prim value; a 0-d tensor broadcasts with (1,) to (1,), as in TVM.
  graph::Expr two = make<graph::PrimValueNode>(ir::MakeFloat(2.0, kF32));
  ExpectTensor(Infer(add(TensorVar("x", {n, m}), two)), {n, m}, kF32);
  ExpectTensor(Infer(add(TensorVar("x", Shape{}), two)), {Int(1)}, kF32);
  // Unknown rank stays unknown.
  StructInfo sinfo = Infer(add(TensorVar("x", -1), scale));
  ASSERT_TRUE(sinfo.isa<graph::TensorStructInfoNode>());
  EXPECT_TRUE(cast<graph::TensorStructInfoNode>(sinfo)->IsUnknownNdim());
}

TEST_F(ElementwiseTest, TwoPrimOperandsGiveAPrim) {
  graph::Var a = graph::MakeVar("a", graph::PrimSInfo(kI32));
  graph::Var b = graph::MakeVar("b", graph::PrimSInfo(kI32));
  StructInfo sinfo = Infer(add(a, b));
  const auto* prim = sinfo.as<graph::PrimStructInfoNode>();
  ASSERT_NE(prim, nullptr) << graph::ToString(sinfo);
  EXPECT_EQ(prim->dtype, kI32);
  sinfo = Infer(less(a, b));
  ASSERT_TRUE(sinfo.isa<graph::PrimStructInfoNode>());
  EXPECT_EQ(sinfo.as<graph::PrimStructInfoNode>()->dtype, kBool);
}

TEST_F(ElementwiseTest, PrimOperandOfAnotherDtypeIsAnError) {
  graph::Var scale = graph::MakeVar("scale", graph::PrimSInfo(DataType::Float(64)));
  EXPECT_EQ(InferError(multiply(TensorVar("x", {n}), scale)),
            "multiply: operands have different dtypes float32 and float64");
}

TEST_F(ElementwiseTest, WrongArgumentCountIsAnError) {
  Call call = graph::MakeCall("relax.add", {TensorVar("x", {n})});
  EXPECT_EQ(InferError(call), "add: expected 2 arguments, got 1");
}

TEST_F(ElementwiseTest, ComparisonsGiveBool) {
  StructInfo sinfo = Infer(less(TensorVar("x", {n, Int(4)}), TensorVar("y", {Int(4)})));
  ExpectTensor(sinfo, {n, Int(4)}, kBool);
  sinfo = Infer(equal(TensorVar("x", {n}, DataType::Void()), TensorVar("y", {n}, kI32)));
  ExpectTensor(sinfo, {n}, kBool);
}

TEST_F(ElementwiseTest, SharedShapeVarIsKept) {
  graph::Var shape = graph::MakeVar("s", graph::ShapeSInfo(2));
  auto tensor_sinfo = make<graph::TensorStructInfoNode>(shape, kF32);
  graph::Var x = graph::MakeVar("x", tensor_sinfo);
  graph::Var y = graph::MakeVar("y", tensor_sinfo);
  StructInfo sinfo = Infer(floor_mod(x, y));
  const auto* tensor = sinfo.as<graph::TensorStructInfoNode>();
  ASSERT_NE(tensor, nullptr);
  EXPECT_TRUE(tensor->shape.same_as(shape));
  EXPECT_EQ(tensor->ndim, 2);
}

TEST_F(ElementwiseTest, ErrorCarriesTheCallSpan) {
  Call call = WithSpan(add(TensorVar("x", {Int(3)}), TensorVar("y", {Int(5)})), 3);
  try {
    Infer(call);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_EQ(error.diagnostic().span.line, 3);
    EXPECT_EQ(error.diagnostic().span.column, 3);
    EXPECT_NE(std::string(error.what()).find("model.py:3:3: error: add: cannot broadcast shapes (3,) and (5,)"),
              std::string::npos)
        << error.what();
  }
}

TEST_F(ElementwiseTest, BinaryOpsAreRegisteredAsBroadcast) {
  for (const char* name : {"add", "subtract", "multiply", "divide", "floor_divide", "power", "maximum", "minimum",
                           "floor_mod", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                           "logical_and", "logical_or"}) {
    const graph::OpInfo* info = graph::FindOpByScriptName(std::string("R.") + name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(info->name, std::string("relax.") + name);
    EXPECT_EQ(info->pattern, graph::OpPatternKind::kBroadcast) << name;
    EXPECT_EQ(info->args, (std::vector<std::string>{"x1", "x2"})) << name;
    EXPECT_TRUE(info->attrs.empty()) << name;
    EXPECT_TRUE(info->pure) << name;
  }
}

// ---------------------------------------------------------------------------
// Unary operators and clip.

TEST_F(ElementwiseTest, UnaryKeepsTheInputStructInfo) {
  graph::Var x = TensorVar("x", {n, Int(4)});
  for (const Call& call : {exp(x), abs(x), negative(x), sqrt(x), rsqrt(x), tanh(x), sigmoid(x), erf(x), square(x),
                           nn::relu(x), nn::gelu(x), nn::gelu_tanh(x), nn::silu(x)}) {
    StructInfo sinfo = Infer(call);
    EXPECT_TRUE(sinfo.same_as(x->struct_info)) << call->op.as<graph::OpNode>()->name;
  }
}

TEST_F(ElementwiseTest, TranscendentalOpsRequireFloat) {
  graph::Var x = TensorVar("x", {n}, kI32);
  EXPECT_EQ(InferError(exp(x)), "exp: expected a tensor of float dtype, got int32");
  EXPECT_EQ(InferError(nn::silu(x)), "nn.silu: expected a tensor of float dtype, got int32");
  ExpectTensor(Infer(nn::relu(x)), {n}, kI32);
  ExpectTensor(Infer(sign(x)), {n}, kI32);
}

TEST_F(ElementwiseTest, UnaryAcceptsUnknownDtypeAndRank) {
  ExpectTensorRank(Infer(log(TensorVar("x", -1, DataType::Void()))), -1, DataType::Void());
  ExpectTensorRank(Infer(floor(TensorVar("x", 3))), 3, kF32);
}

TEST_F(ElementwiseTest, LogicalNotKeepsBool) {
  ExpectTensor(Infer(logical_not(TensorVar("x", {n, m}, kBool))), {n, m}, kBool);
}

TEST_F(ElementwiseTest, UnaryRejectsNonTensor) {
  graph::Var p = graph::MakeVar("p", graph::PrimSInfo(DataType::Int64()));
  EXPECT_EQ(InferError(nn::relu(p)), "nn.relu: expected a Tensor for argument 'data', got Prim(int64)");
}

TEST_F(ElementwiseTest, NnOpsUseTheNnNamespace) {
  const graph::OpInfo* info = graph::FindOpByScriptName("R.nn.relu");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->name, "relax.nn.relu");
  EXPECT_EQ(info->args, std::vector<std::string>{"data"});
  EXPECT_EQ(info->pattern, graph::OpPatternKind::kElemWise);
  EXPECT_EQ(graph::FindOp("relax.relu"), nullptr);
}

TEST_F(ElementwiseTest, ClipTakesPrimValueBounds) {
  graph::Var x = TensorVar("x", {n, Int(8)});
  Call call = clip(x, make<graph::PrimValueNode>(ir::MakeFloat(0)), make<graph::PrimValueNode>(ir::MakeFloat(6)));
  EXPECT_TRUE(Infer(call).same_as(x->struct_info));
  Call bad = clip(x, TensorVar("lo", {Int(1)}), make<graph::PrimValueNode>(ir::MakeFloat(6)));
  EXPECT_EQ(InferError(bad), "clip: expected a PrimValue for argument 'min', got Tensor((1,), float32)");
  const graph::OpInfo* info = graph::FindOp("relax.clip");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->args, (std::vector<std::string>{"x", "min", "max"}));
}

// ---------------------------------------------------------------------------
// astype.

TEST_F(ElementwiseTest, AstypeChangesOnlyTheDtype) {
  ExpectTensor(Infer(astype(TensorVar("x", {n, Int(4)}), kF16)), {n, Int(4)}, kF16);
  ExpectTensorRank(Infer(astype(TensorVar("x", 3), kI32)), 3, kI32);
  ExpectTensorRank(Infer(astype(TensorVar("x", -1, DataType::Void()), kF32)), -1, kF32);
}

TEST_F(ElementwiseTest, AstypeStoresTheDtypeAsAString) {
  Call call = astype(TensorVar("x", {n}), kF16);
  ASSERT_TRUE(call->attrs.defined());
  const auto* dtype = call->attrs->Get("dtype").as<ir::StringImmNode>();
  ASSERT_NE(dtype, nullptr);
  EXPECT_EQ(dtype->value, "float16");
  const graph::OpInfo* info = graph::FindOp("relax.astype");
  ASSERT_NE(info, nullptr);
  ASSERT_EQ(info->attrs.size(), 1u);
  EXPECT_EQ(info->attrs[0].name, "dtype");
  EXPECT_EQ(info->attrs[0].kind, graph::AttrKind::kDataType);
  EXPECT_FALSE(info->attrs[0].default_value.defined());  // required
  EXPECT_EQ(info->pattern, graph::OpPatternKind::kElemWise);
}

TEST_F(ElementwiseTest, AstypeAttributeErrors) {
  graph::Var x = TensorVar("x", {n});
  EXPECT_EQ(InferError(graph::MakeCall("relax.astype", {x})), "astype: missing attribute 'dtype'");
  Call bad = graph::MakeCall("relax.astype", {x}, ir::DictWith(nullptr, "dtype", ir::MakeString("flaot32")));
  EXPECT_EQ(InferError(bad), "astype: attribute 'dtype' expects a data type, got \"flaot32\"");
}

// ---------------------------------------------------------------------------
// Through the BlockBuilder: emitted bindings get the deduced struct info.

TEST_F(ElementwiseTest, BlockBuilderDeducesOnEmit) {
  graph::Var x = TensorVar("x", {n, Int(4)});
  graph::Var y = TensorVar("y", {Int(4)});
  graph::BlockBuilder builder;
  builder.BeginScope({x, y});
  builder.BeginDataflowBlock();
  graph::Var sum_var = builder.Emit(add(x, y), "lv0");
  graph::Var relu_var = builder.Emit(nn::relu(sum_var), "lv1");
  graph::Var cmp_var = builder.Emit(greater(relu_var, y), "lv2");
  builder.EndBlock();
  builder.EndScope();
  ExpectTensor(graph::GetStructInfo(sum_var), {n, Int(4)}, kF32);
  ExpectTensor(graph::GetStructInfo(relu_var), {n, Int(4)}, kF32);
  ExpectTensor(graph::GetStructInfo(cmp_var), {n, Int(4)}, kBool);
}

TEST_F(ElementwiseTest, BlockBuilderReportsMismatchAtTheCall) {
  graph::Var x = TensorVar("x", {n, Int(4)});
  graph::Var y = TensorVar("y", {n, Int(5)});
  graph::BlockBuilder builder;
  builder.BeginScope({x, y});
  builder.BeginDataflowBlock();
  try {
    builder.Emit(WithSpan(add(x, y), 2));
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_EQ(error.diagnostic().message, "add: cannot broadcast shapes (n, 4) and (n, 5)");
    EXPECT_EQ(error.diagnostic().span.line, 2);
  }
}

}  // namespace
}  // namespace rlx::op::testing
