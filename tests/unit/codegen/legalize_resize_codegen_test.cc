// R.image.resize2d's cubic method and its tf_half_pixel_for_nn and
// tf_crop_and_resize coordinate maps, legalized with symbolic input sizes,
// run with the TIR interpreter and compiled through LLVM (with and without
// the default CPU schedule) at sizes 1, odd and large, against a naive
// double-precision reference written from ONNX's Resize definition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "legalize_jit_util.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();

struct ResizeCase {
  std::string method = "cubic", mode = "half_pixel";
  double alpha = -0.5;
  bool exclude = false;
  std::vector<double> roi = {0, 0, 0, 0};  // start_h, start_w, end_h, end_w
  double extrapolation = 0;
};

// ONNX's coordinate maps (output length `out` from the integer size).
double SourceCoordinate(const ResizeCase& c, int64_t o, int64_t in, int64_t out, double start, double end) {
  double scale = static_cast<double>(in) / static_cast<double>(out);
  if (c.mode == "align_corners") return out > 1 ? o * static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0;
  if (c.mode == "asymmetric") return o * scale;
  if (c.mode == "tf_half_pixel_for_nn") return (o + 0.5) * scale;
  if (c.mode == "tf_crop_and_resize") {
    if (out == 1) return 0.5 * (start + end) * static_cast<double>(in - 1);
    return start * static_cast<double>(in - 1) + o * (end - start) * static_cast<double>(in - 1) / (out - 1);
  }
  return (o + 0.5) * scale - 0.5;
}

// Keys' cubic kernel W(x) of parameter a.
double CubicKernel(double x, double a) {
  x = std::fabs(x);
  if (x <= 1) return (a + 2) * x * x * x - (a + 3) * x * x + 1;
  if (x < 2) return a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a;
  return 0;
}

// Interpolation weights of source positions along one dim for coordinate
// `x` (positions outside [0, in) read the edge, unless excluded).
std::vector<std::pair<int64_t, double>> Taps(const ResizeCase& c, double x, int64_t in) {
  std::vector<std::pair<int64_t, double>> taps;
  auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i, 0, in - 1); };
  double base = std::floor(x);
  if (c.method == "nearest_neighbor") return {{clamp(static_cast<int64_t>(std::ceil(x - 0.5))), 1.0}};
  if (c.method == "linear") return {{clamp(static_cast<int64_t>(base)), 1 - (x - base)}, {clamp(static_cast<int64_t>(base) + 1), x - base}};
  double total = 0;
  for (int64_t k = -1; k <= 2; ++k) {
    int64_t i = static_cast<int64_t>(base) + k;
    double w = CubicKernel(x - static_cast<double>(i), c.alpha);
    if (c.exclude && (i < 0 || i >= in)) w = 0;
    taps.push_back({clamp(i), w});
    total += w;
  }
  if (c.exclude) {
    for (auto& tap : taps) tap.second /= total;
  }
  return taps;
}

ExpectedTensor ResizeReference(const tir::HostTensor& x, int64_t out_h, int64_t out_w, const ResizeCase& c) {
  int64_t h = x.shape[2], w = x.shape[3];
  return Reference({x.shape[0], x.shape[1], out_h, out_w}, [&](const Index& i) {
    double cy = SourceCoordinate(c, i[2], h, out_h, c.roi[0], c.roi[2]);
    double cx = SourceCoordinate(c, i[3], w, out_w, c.roi[1], c.roi[3]);
    if (c.mode == "tf_crop_and_resize" && (cy < 0 || cy > h - 1 || cx < 0 || cx > w - 1)) return c.extrapolation;
    double value = 0;
    for (const auto& [y, wy] : Taps(c, cy, h)) {
      for (const auto& [xx, wx] : Taps(c, cx, w)) value += wy * wx * x.At({i[0], i[1], y, xx});
    }
    return value;
  });
}

// (h, w) values: 1, odd, large.
const std::vector<std::pair<int64_t, int64_t>> kSizes = {{1, 1}, {7, 5}, {64, 33}};
const std::string kInput = R"(R.Tensor(("n", 2, "h", "w"), dtype="float32"))";

void CheckResize(const std::string& call, int64_t out_h, int64_t out_w, const ResizeCase& c, const std::string& what) {
  Compiled compiled = LegalizeAndCompile(kInput, call);
  for (int64_t n : {1, 3}) {
    for (const auto& [h, w] : kSizes) {
      tir::HostTensor x = RandomTensor(kF32, {n, 2, h, w}, static_cast<unsigned>(h * 100 + w), -4, 4);
      ExpectAllRuns(compiled, x, {{"n", n}, {"h", h}, {"w", w}}, {ResizeReference(x, out_h, out_w, c)}, {kF32}, what,
                    1e-4, 1e-4);
    }
  }
}

TEST(LegalizeResizeCodegenTest, CubicHalfPixelKeysKernel) {
  ResizeCase c;
  c.alpha = -0.75;
  CheckResize(R"(R.image.resize2d(x, R.shape([5, 9]), method="cubic", cubic_alpha=-0.75))", 5, 9, c, "cubic a=-0.75");
}

TEST(LegalizeResizeCodegenTest, CubicAlignCornersExcludeOutside) {
  ResizeCase c;
  c.mode = "align_corners";
  c.exclude = true;
  CheckResize(R"(R.image.resize2d(x, R.shape([4, 11]), method="cubic", coordinate_transformation_mode="align_corners", cubic_exclude=1))",
              4, 11, c, "cubic align_corners exclude");
}

TEST(LegalizeResizeCodegenTest, TfCropAndResizeExtrapolates) {
  ResizeCase c;
  c.method = "linear";
  c.mode = "tf_crop_and_resize";
  c.roi = {-0.2, 0.3, 1.1, 0.8};
  c.extrapolation = 10;
  CheckResize(R"(R.image.resize2d(x, R.shape([6, 3]), roi=[-0.2, 0.3, 1.1, 0.8], method="linear", coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=10.0))",
              6, 3, c, "linear tf_crop_and_resize");
}

TEST(LegalizeResizeCodegenTest, NearestTfHalfPixelForNN) {
  ResizeCase c;
  c.method = "nearest_neighbor";
  c.mode = "tf_half_pixel_for_nn";
  CheckResize(R"(R.image.resize2d(x, R.shape([3, 8]), method="nearest_neighbor", coordinate_transformation_mode="tf_half_pixel_for_nn", rounding_method="round_prefer_floor"))",
              3, 8, c, "nearest tf_half_pixel_for_nn");
}

}  // namespace
}  // namespace rlx::op_test
