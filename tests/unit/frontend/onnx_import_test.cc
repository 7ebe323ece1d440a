// The ONNX importer's structure: symbolic input dims, shape folding at import
// time, opset-dependent attribute forms, initializers, --input-shape, and
// its errors (bad files, unsupported operators listed together, bad
// --input-shape). Models are built with the protobuf API
// (onnx_test_util.h); the result is checked through struct info and the
// printed TVMScript, which must parse back to an equal module.
#include "rlx/frontend/onnx.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "onnx_test_util.h"
#include "rlx/graph/expr.h"
#include "rlx/graph/structural_equal.h"
#include "rlx/graph/well_formed.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"

namespace rlx::frontend {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::OnnxModelBuilder;
using Builder = OnnxModelBuilder;

graph::Function Main(const ir::IRModule& mod) { return cast<graph::FunctionNode>(mod->Lookup("main")); }

std::string ParamSInfo(const ir::IRModule& mod, size_t index) {
  return graph::ToString(graph::GetStructInfo(Main(mod)->params.at(index)));
}
std::string RetSInfo(const ir::IRModule& mod) { return graph::ToString(Main(mod)->ret_struct_info); }

std::string ErrorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const CompileError& error) {
    return error.what();
  }
  return "";
}

// Imports, checks well-formedness and that the printed text parses back to
// an equal module; returns the module.
ir::IRModule Import(const Builder& b, const std::string& stem, const OnnxImportOptions& options = {}) {
  ir::IRModule mod = ImportOnnx(b.Write(stem), options);
  graph::CheckWellFormed(mod);
  std::string text = text::PrintModule(mod);
  ir::IRModule reparsed = text::ParseModuleText(text);
  EXPECT_TRUE(graph::StructuralEqual(mod, reparsed)) << text;
  return mod;
}

TEST(OnnxImportTest, DynamicDimsBecomeSymbolicVarsNamedAfterDimParam) {
  Builder b;
  b.Input("input.1", {std::string("batch"), int64_t{4}});
  b.Input("y", {std::string("batch"), std::string("")});
  b.Node("Add", {"input.1", "input.1"}, {"s"});
  b.Node("Concat", {"s", "y"}, {"out"});
  OnnxModelBuilder::AttrInt(b.model().mutable_graph()->mutable_node(1), "axis", 1);
  b.Output("out");
  ir::IRModule mod = Import(b, "dims");
  EXPECT_EQ(Main(mod)->params[0]->name_hint, "input_1");
  EXPECT_EQ(ParamSInfo(mod, 0), "Tensor((batch, 4), float32)");
  EXPECT_EQ(ParamSInfo(mod, 1), "Tensor((batch, d0), float32)");
  EXPECT_EQ(RetSInfo(mod), "Tensor((batch, d0 + 4), float32)");
}

// Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])) folds into
// R.reshape(x, R.shape([n, 768])): no shape tensor is computed at run time.
TEST(OnnxImportTest, ShapeGatherConcatReshapeChainFoldsToAPreciseShape) {
  Builder b;
  b.Input("x", {std::string("n"), int64_t{12}, int64_t{64}});
  b.Node("Shape", {"x"}, {"shape"});
  b.ConstInts("zero", {0}, /*scalar=*/true);
  b.Node("Gather", {"shape", "zero"}, {"batch"});
  b.ConstInts("axes", {0});
  b.Node("Unsqueeze", {"batch", "axes"}, {"batch1"});
  b.ConstInts("minus_one", {-1});
  b.Node("Concat", {"batch1", "minus_one"}, {"target"});
  OnnxModelBuilder::AttrInt(b.model().mutable_graph()->mutable_node(5), "axis", 0);
  b.Node("Reshape", {"x", "target"}, {"out"});
  b.Output("out");
  ir::IRModule mod = Import(b, "reshape_chain");
  EXPECT_EQ(RetSInfo(mod), "Tensor((n, 768), float32)");
  std::string text = text::PrintModule(mod);
  EXPECT_THAT(text, HasSubstr("R.reshape(x, R.shape([n, 768]))"));
  EXPECT_THAT(text, Not(HasSubstr("R.shape_of")));
}

// Shape arithmetic (Div, Mul) and Slice of a shape stay symbolic too.
TEST(OnnxImportTest, ShapeArithmeticIsSimplified) {
  Builder b;
  b.Input("x", {std::string("b"), std::string("s"), int64_t{64}});
  b.Node("Shape", {"x"}, {"shape"});
  b.ConstInts("starts", {0});
  b.ConstInts("ends", {2});
  b.Node("Slice", {"shape", "starts", "ends"}, {"bs"});
  b.ConstInts("two", {2});
  b.Node("Mul", {"bs", "two"}, {"bs2"});
  b.ConstInts("halfdim", {16});
  b.Node("Concat", {"bs2", "halfdim"}, {"target"});
  OnnxModelBuilder::AttrInt(b.model().mutable_graph()->mutable_node(6), "axis", 0);
  b.Node("Reshape", {"x", "target"}, {"y"});
  b.Output("y");
  ir::IRModule mod = Import(b, "shape_arith");
  EXPECT_EQ(RetSInfo(mod), "Tensor((b * 2, s * 2, 16), float32)");
}

TEST(OnnxImportTest, OpsetDecidesAttributeOrInputForms) {
  // Opset 11: Squeeze's and Unsqueeze's axes are attributes, Clip's bounds too
  // before 11.
  Builder b11(11);
  b11.Input("x", {int64_t{2}, int64_t{1}, int64_t{3}});
  auto* squeeze = b11.Node("Squeeze", {"x"}, {"sq"});
  OnnxModelBuilder::AttrInts(squeeze, "axes", {1});
  auto* unsqueeze = b11.Node("Unsqueeze", {"sq"}, {"out"});
  OnnxModelBuilder::AttrInts(unsqueeze, "axes", {0});
  b11.Output("out");
  EXPECT_EQ(RetSInfo(Import(b11, "opset11")), "Tensor((1, 2, 3), float32)");

  // Opset 13: the same as inputs.
  Builder b13(13);
  b13.Input("x", {int64_t{2}, int64_t{1}, int64_t{3}});
  b13.ConstInts("one", {1});
  b13.ConstInts("zero", {0});
  b13.Node("Squeeze", {"x", "one"}, {"sq"});
  b13.Node("Unsqueeze", {"sq", "zero"}, {"out"});
  b13.Output("out");
  EXPECT_EQ(RetSInfo(Import(b13, "opset13")), "Tensor((1, 2, 3), float32)");

  // Split: sizes as an attribute in 11, as an input in 13.
  Builder s11(11);
  s11.Input("x", {int64_t{6}, std::string("n")});
  auto* split = s11.Node("Split", {"x"}, {"a", "b"});
  OnnxModelBuilder::AttrInts(split, "split", {2, 4});
  s11.Output("b");
  EXPECT_EQ(RetSInfo(Import(s11, "split11")), "Tensor((4, n), float32)");
  Builder s13(13);
  s13.Input("x", {int64_t{6}, std::string("n")});
  s13.ConstInts("sizes", {2, 4});
  s13.Node("Split", {"x", "sizes"}, {"a", "b"});
  s13.Output("b");
  EXPECT_EQ(RetSInfo(Import(s13, "split13")), "Tensor((4, n), float32)");

  // ReduceSum: axes attribute in 11, input in 13.
  Builder r11(11);
  r11.Input("x", {int64_t{2}, std::string("n")});
  auto* reduce = r11.Node("ReduceSum", {"x"}, {"out"});
  OnnxModelBuilder::AttrInts(reduce, "axes", {1});
  OnnxModelBuilder::AttrInt(reduce, "keepdims", 0);
  r11.Output("out");
  EXPECT_EQ(RetSInfo(Import(r11, "reduce11")), "Tensor((2,), float32)");
  Builder r13(13);
  r13.Input("x", {int64_t{2}, std::string("n")});
  r13.ConstInts("axes", {1});
  auto* reduce13 = r13.Node("ReduceSum", {"x", "axes"}, {"out"});
  OnnxModelBuilder::AttrInt(reduce13, "keepdims", 0);
  r13.Output("out");
  EXPECT_EQ(RetSInfo(Import(r13, "reduce13")), "Tensor((2,), float32)");

  // Clip: attributes before 11 (clip with prim values), inputs after.
  Builder c6(9);
  c6.Input("x", {std::string("n")});
  auto* clip = c6.Node("Clip", {"x"}, {"out"});
  OnnxModelBuilder::AttrFloat(clip, "min", 0.0f);
  OnnxModelBuilder::AttrFloat(clip, "max", 6.0f);
  c6.Output("out");
  EXPECT_THAT(text::PrintModule(Import(c6, "clip9")), HasSubstr("R.clip(x"));
}

// Softmax before opset 13 coerces to 2-D at `axis` (default 1).
TEST(OnnxImportTest, SoftmaxBeforeOpset13CoercesTo2D) {
  Builder b(11);
  b.Input("x", {std::string("n"), int64_t{3}, int64_t{4}});
  b.Node("Softmax", {"x"}, {"out"});
  b.Output("out");
  ir::IRModule mod = Import(b, "softmax11");
  std::string text = text::PrintModule(mod);
  EXPECT_THAT(text, HasSubstr("R.reshape(x, R.shape([n, 12]))"));
  EXPECT_THAT(text, HasSubstr("R.nn.softmax(lv, axis=1)"));
  EXPECT_EQ(RetSInfo(mod), "Tensor((n, 3, 4), float32)");

  Builder b13(13);
  b13.Input("x", {std::string("n"), int64_t{3}, int64_t{4}});
  b13.Node("Softmax", {"x"}, {"out"});
  b13.Output("out");
  EXPECT_THAT(text::PrintModule(Import(b13, "softmax13")), Not(HasSubstr("R.reshape")));
}

TEST(OnnxImportTest, InitializersAreConstantsOrParameters) {
  Builder b;
  b.Input("x", {std::string("n"), int64_t{2}});
  b.Initializer("w", {2, 3}, {1, 2, 3, 4, 5, 6});
  b.Node("MatMul", {"x", "w"}, {"out"});
  b.Output("out");
  ir::IRModule constants = Import(b, "init");
  EXPECT_EQ(Main(constants)->params.size(), 1u);
  EXPECT_EQ(RetSInfo(constants), "Tensor((n, 3), float32)");
  OnnxImportOptions options;
  options.keep_params_in_input = true;
  ir::IRModule params = Import(b, "init_params", options);
  ASSERT_EQ(Main(params)->params.size(), 2u);
  EXPECT_EQ(Main(params)->params[1]->name_hint, "w");
  EXPECT_EQ(ParamSInfo(params, 1), "Tensor((2, 3), float32)");
  EXPECT_THAT(text::PrintModule(params), HasSubstr("\"num_input\": 1"));
}

TEST(OnnxImportTest, ExternalDataIsReadRelativeToTheModel) {
  Builder b;
  b.Input("x", {int64_t{2}});
  onnx::TensorProto* w = b.Initializer("w", {2}, {});
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* location = w->add_external_data();
  location->set_key("location");
  location->set_value("weights.bin");
  b.Node("Add", {"x", "w"}, {"out"});
  b.Output("out");
  std::string path = b.Write("external");
  std::filesystem::path bin = std::filesystem::path(path).parent_path() / "weights.bin";
  {
    std::ofstream file(bin, std::ios::binary);
    float values[2] = {1.5f, -2.0f};
    file.write(reinterpret_cast<const char*>(values), sizeof(values));
  }
  ir::IRModule mod = ImportOnnx(path);
  EXPECT_EQ(RetSInfo(mod), "Tensor((2,), float32)");
  std::filesystem::remove(bin);
  EXPECT_THAT(ErrorOf([&] { ImportOnnx(path); }), HasSubstr("weights.bin"));
}

TEST(OnnxImportTest, InputShapeOptionPinsOrRenamesDims) {
  Builder b;
  b.Input("x", {std::string("N"), int64_t{3}, std::string(""), std::string("")});
  b.Node("Relu", {"x"}, {"out"});
  b.Output("out");
  OnnxImportOptions options;
  ParseInputShapeOption("x=1,3,h,w", options);
  ir::IRModule mod = Import(b, "pin", options);
  EXPECT_EQ(ParamSInfo(mod, 0), "Tensor((1, 3, h, w), float32)");

  OnnxImportOptions wrong_name;
  ParseInputShapeOption("y=1,3,h,w", wrong_name);
  EXPECT_THAT(ErrorOf([&] { ImportOnnx(b.Write("pin_bad"), wrong_name); }),
              HasSubstr("--input-shape names 'y', which is not a graph input (inputs: x)"));
  OnnxImportOptions wrong_rank;
  ParseInputShapeOption("x=1,3", wrong_rank);
  EXPECT_THAT(ErrorOf([&] { ImportOnnx(b.Write("pin_rank"), wrong_rank); }),
              HasSubstr("gives 2 dimensions for input 'x' of rank 4"));
  OnnxImportOptions conflict;
  ParseInputShapeOption("x=1,4,h,w", conflict);
  EXPECT_THAT(ErrorOf([&] { ImportOnnx(b.Write("pin_conflict"), conflict); }),
              HasSubstr("pins dimension 1 of input 'x' to 4, but the model says 3"));
  OnnxImportOptions malformed;
  EXPECT_THAT(ErrorOf([&] { ParseInputShapeOption("x=1,3-x", malformed); }), HasSubstr("'3-x'"));
  EXPECT_THAT(ErrorOf([&] { ParseInputShapeOption("x", malformed); }), HasSubstr("expected NAME=DIM"));
}

TEST(OnnxImportTest, TruncatedOrMissingFilesAreErrorsNamingTheFile) {
  Builder b;
  b.Input("x", {int64_t{2}});
  b.Initializer("w", {64}, std::vector<float>(64, 1.0f));
  b.Node("Relu", {"x"}, {"out"});
  b.Output("out");
  std::string path = b.Write("truncated");
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  EXPECT_THAT(ErrorOf([&] { ImportOnnx(path); }), HasSubstr(path + ": not a valid ONNX model"));
  EXPECT_THAT(ErrorOf([&] { ImportOnnx("/nonexistent/model.onnx"); }),
              HasSubstr("/nonexistent/model.onnx: cannot open"));
}

TEST(OnnxImportTest, EveryUnsupportedOperatorIsReportedTogether) {
  Builder b;
  b.Input("x", {int64_t{2}});
  b.Node("FancyOp", {"x"}, {"a"}, "first");
  b.Node("Relu", {"a"}, {"b"}, "fine");
  b.Node("FancyOp", {"b"}, {"c"}, "second");
  b.Node("Unique", {"c"}, {"d"}, "third");
  b.Output("d");
  std::string error = ErrorOf([&] { ImportOnnx(b.Write("unsupported")); });
  EXPECT_THAT(error, HasSubstr("unsupported ONNX operators (opset 13):"));
  EXPECT_THAT(error, HasSubstr("FancyOp (nodes first, second)"));
  EXPECT_THAT(error, HasSubstr("Unique (node third)"));
  EXPECT_THAT(error, Not(HasSubstr("Relu")));
}

TEST(OnnxImportTest, ConverterErrorsNameTheNode) {
  Builder b;
  b.Input("x", {int64_t{1}, int64_t{1}, int64_t{2}, int64_t{2}, int64_t{2}, int64_t{2}});
  b.Input("w", {int64_t{1}, int64_t{1}, int64_t{1}, int64_t{1}, int64_t{1}, int64_t{1}});
  b.Node("Conv", {"x", "w"}, {"out"}, "conv4d");
  b.Output("out");
  EXPECT_THAT(ErrorOf([&] { ImportOnnx(b.Write("conv4d")); }),
              HasSubstr("node 'conv4d' (Conv): 4-D convolution is not supported (1-D, 2-D and 3-D are)"));
}

// A Reshape target computed at run time: tensor_to_shape, then a match_cast
// to fresh symbolic dims.
TEST(OnnxImportTest, DataDependentReshapeMatchCastsFreshDims) {
  Builder b;
  b.Input("x", {std::string("n"), int64_t{6}});
  b.Input("t", {int64_t{2}}, onnx::TensorProto::INT64);
  b.Node("Reshape", {"x", "t"}, {"out"});
  b.Output("out");
  ir::IRModule mod = Import(b, "dynamic_reshape");
  // The result's dims are defined inside the body: main returns only the rank.
  EXPECT_EQ(RetSInfo(mod), "Tensor(ndim=2, float32)");
  std::string text = text::PrintModule(mod);
  EXPECT_THAT(text, HasSubstr("R.call_pure_packed(\"vm.builtin.tensor_to_shape\""));
  EXPECT_THAT(text, HasSubstr("R.match_cast("));
  EXPECT_THAT(text, HasSubstr("R.Shape([d0, d1])"));
}

// An input bound by OnnxImportOptions::input_values is a constant, so a
// Reshape whose target it is becomes static.
TEST(OnnxImportTest, BoundInputsBecomeConstants) {
  Builder b;
  b.Input("x", {int64_t{2}, int64_t{3}});
  b.Input("t", {int64_t{2}}, onnx::TensorProto::INT64);
  b.Node("Reshape", {"x", "t"}, {"out"});
  b.Output("out");
  OnnxImportOptions options;
  auto target = std::make_shared<graph::TensorData>();
  target->dtype = DataType::Int64();
  target->shape = {2};
  int64_t dims[2] = {3, -1};
  target->bytes.assign(reinterpret_cast<const uint8_t*>(dims), reinterpret_cast<const uint8_t*>(dims) + sizeof(dims));
  options.input_values["t"] = target;
  ir::IRModule mod = Import(b, "bound", options);
  EXPECT_EQ(Main(mod)->params.size(), 1u);
  EXPECT_EQ(RetSInfo(mod), "Tensor((3, 2), float32)");
}

// A float Range's bounds must be known at import time (only integer bounds
// may be symbolic); the error says so, which is what the node-test runner
// reads to bind such inputs, and bound bounds fold to a constant.
TEST(OnnxImportTest, FloatRangeNeedsBoundsKnownAtImportTime) {
  Builder b(11);
  for (const char* name : {"start", "limit", "delta"}) b.Input(name, {});
  b.Node("Range", {"start", "limit", "delta"}, {"out"});
  b.Output("out");
  EXPECT_THAT(ErrorOf([&] { ImportOnnx(b.Write("range_float")); }),
              ::testing::HasSubstr("the bounds of a Range of float32 must be known at import time"));
  OnnxImportOptions options;
  const float values[3] = {1.0f, 2.0f, 0.25f};
  const char* names[3] = {"start", "limit", "delta"};
  for (int i = 0; i < 3; ++i) {
    auto data = std::make_shared<graph::TensorData>();
    data->dtype = DataType::Float32();
    data->bytes.assign(reinterpret_cast<const uint8_t*>(&values[i]), reinterpret_cast<const uint8_t*>(&values[i] + 1));
    options.input_values[names[i]] = data;
  }
  ir::IRModule mod = Import(b, "range_float_bound", options);
  EXPECT_EQ(RetSInfo(mod), "Tensor((4,), float32)");
}

TEST(OnnxImportTest, SanitizedNames) {
  EXPECT_EQ(SanitizeOnnxName("input.1"), "input_1");
  EXPECT_EQ(SanitizeOnnxName("1x"), "_1x");
  EXPECT_EQ(SanitizeOnnxName("ok_name"), "ok_name");
}

}  // namespace
}  // namespace rlx::frontend
