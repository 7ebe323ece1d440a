// The ONNX Resize converter (ops_nn.cc) for cubic resizing and the
// coordinate maps that need more than the integer sizes: a downsampling
// scale whose output size is not exact (4 * 0.8 = 3.2 -> 3) maps
// coordinates with the scale itself (through a tf_crop_and_resize roi), and
// tf_crop_and_resize with an roi input. Imported, compiled with the default
// pipeline and run on the VM against a double-precision reference of ONNX's
// definition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "onnx_test_util.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/text/printer.h"
#include "rlx/transform/pipeline.h"

namespace rlx::frontend {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;
using Builder = testing::OnnxModelBuilder;

std::vector<float> RunModel(const Builder& builder, const std::string& stem, const rt::NDArray& x,
                            std::string* imported_text) {
  ir::IRModule mod = ImportOnnx(builder.Write(stem));
  *imported_text = text::PrintModule(mod);
  codegen::VMCompiled compiled = codegen::CompileForVM(transform::DefaultPipeline()(mod));
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  return vm.Invoke("main", {rt::Value(x)}).AsNDArray().ToVector<float>();
}

double Keys(double x, double a) {
  x = std::fabs(x);
  if (x <= 1) return (a + 2) * x * x * x - (a + 3) * x * x + 1;
  if (x < 2) return a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a;
  return 0;
}

// 1-D cubic interpolation of row `at` (length `in`) at coordinate `x`, edge
// padded; `exclude` drops (and renormalizes away) points outside.
double Cubic1D(const std::function<double(int64_t)>& at, int64_t in, double x, double a, bool exclude) {
  double base = std::floor(x), sum = 0, total = 0;
  for (int64_t k = -1; k <= 2; ++k) {
    int64_t i = static_cast<int64_t>(base) + k;
    double w = Keys(x - static_cast<double>(i), a);
    if (exclude && (i < 0 || i >= in)) w = 0;
    sum += w * at(std::clamp<int64_t>(i, 0, in - 1));
    total += w;
  }
  return exclude ? sum / total : sum;
}

// Separable bicubic resize of a (in x in) image to (out x out) with the
// coordinate map `coord`.
std::vector<double> CubicReference(const std::vector<float>& image, int64_t in, int64_t out,
                                   const std::function<double(int64_t)>& coord, double a, bool exclude) {
  std::vector<double> rows(static_cast<size_t>(out * in));  // resized along y, all columns
  for (int64_t oy = 0; oy < out; ++oy) {
    for (int64_t c = 0; c < in; ++c) {
      rows[oy * in + c] = Cubic1D([&](int64_t y) { return image[y * in + c]; }, in, coord(oy), a, exclude);
    }
  }
  std::vector<double> result;
  for (int64_t oy = 0; oy < out; ++oy) {
    for (int64_t ox = 0; ox < out; ++ox) {
      result.push_back(Cubic1D([&](int64_t x) { return rows[oy * in + x]; }, in, coord(ox), a, exclude));
    }
  }
  return result;
}

void ExpectClose(const std::vector<float>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-4) << "element " << i;
}

const std::vector<float> kImage = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

// X (1, 1, 4, 4) -> Resize(cubic, scales [1, 1, s, s]) with the attributes given.
Builder CubicModel(float scale, double alpha, bool exclude) {
  Builder b(13);
  b.Input("x", {int64_t{1}, int64_t{1}, int64_t{4}, int64_t{4}});
  b.Initializer("roi", {0}, {});
  b.Initializer("scales", {4}, {1.0f, 1.0f, scale, scale});
  auto* node = b.Node("Resize", {"x", "roi", "scales"}, {"y"});
  Builder::AttrString(node, "mode", "cubic");
  Builder::AttrFloat(node, "cubic_coeff_a", static_cast<float>(alpha));
  Builder::AttrInt(node, "exclude_outside", exclude ? 1 : 0);
  b.Output("y");
  return b;
}

TEST(OnnxResizeTest, CubicUpsamplingByAnExactScale) {
  std::string text;
  std::vector<float> y = RunModel(CubicModel(2.0f, -0.75, false), "resize_cubic_up",
                                  rt::NDArray::FromVector<float>({1, 1, 4, 4}, kImage), &text);
  EXPECT_NE(text.find("method=\"cubic\""), std::string::npos) << text;
  EXPECT_NE(text.find("coordinate_transformation_mode=\"half_pixel\""), std::string::npos) << text;
  ExpectClose(y, CubicReference(kImage, 4, 8, [](int64_t o) { return (o + 0.5) / 2.0 - 0.5; }, -0.75, false));
}

TEST(OnnxResizeTest, CubicDownsamplingUsesTheScaleNotTheSizeRatio) {
  std::string text;
  std::vector<float> y = RunModel(CubicModel(0.8f, -0.5, true), "resize_cubic_down",
                                  rt::NDArray::FromVector<float>({1, 1, 4, 4}, kImage), &text);
  // 4 * 0.8 = 3.2: the output is 3 wide, but coordinates step by 1 / 0.8.
  EXPECT_NE(text.find("R.shape([3, 3])"), std::string::npos) << text;
  EXPECT_NE(text.find("tf_crop_and_resize"), std::string::npos) << text;
  ExpectClose(y, CubicReference(kImage, 4, 3, [](int64_t o) { return (o + 0.5) / 0.8 - 0.5; }, -0.5, true));
}

TEST(OnnxResizeTest, TfCropAndResizeWithExtrapolation) {
  Builder b(13);
  b.Input("x", {int64_t{1}, int64_t{1}, int64_t{4}, int64_t{4}});
  b.Initializer("roi", {8}, {0, 0, 0.4f, 0.6f, 1, 1, 1.2f, 0.7f});
  b.Initializer("scales", {0}, {});
  b.InitializerInts("sizes", {4}, {1, 1, 3, 3});
  auto* node = b.Node("Resize", {"x", "roi", "scales", "sizes"}, {"y"});
  Builder::AttrString(node, "mode", "linear");
  Builder::AttrString(node, "coordinate_transformation_mode", "tf_crop_and_resize");
  Builder::AttrFloat(node, "extrapolation_value", 10.0f);
  b.Output("y");
  std::string text;
  std::vector<float> y = RunModel(b, "resize_crop", rt::NDArray::FromVector<float>({1, 1, 4, 4}, kImage), &text);
  // y: 0.4 * 3 + o * 0.8 * 3 / 2 = 1.2, 2.4, 3.6 (outside); x: 1.8, 1.95, 2.1.
  std::vector<double> expected;
  for (double cy : {1.2, 2.4, 3.6}) {
    for (double cx : {1.8, 1.95, 2.1}) {
      if (cy > 3) {
        expected.push_back(10);
        continue;
      }
      double value = 1 + 4 * cy + cx;  // kImage is bilinear in (y, x): 1 + 4y + x
      expected.push_back(value);
    }
  }
  ExpectClose(y, expected);
}

}  // namespace
}  // namespace rlx::frontend
