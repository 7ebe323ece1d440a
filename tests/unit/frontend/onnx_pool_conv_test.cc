// ONNX pooling and transposed-convolution forms beyond 2-D (ops_nn.cc):
// 3-D MaxPool / AveragePool (nn.max_pool3d / nn.avg_pool3d), MaxPool's
// Indices output (row- and column-major storage_order) and 1-D
// ConvTranspose (2-D over a unit height), and BatchNormalization in training
// mode (batch statistics, updated running statistics), imported, compiled with the
// default pipeline and run on the VM against C++ references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "onnx_test_util.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/transform/pipeline.h"

namespace rlx::frontend {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;
using Builder = testing::OnnxModelBuilder;

std::vector<rt::Value> RunModel(const Builder& builder, const std::string& stem, const std::vector<rt::NDArray>& inputs) {
  ir::IRModule mod = ImportOnnx(builder.Write(stem));
  codegen::VMCompiled compiled = codegen::CompileForVM(transform::DefaultPipeline()(mod));
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  rt::Value out = vm.Invoke("main", std::vector<rt::Value>(inputs.begin(), inputs.end()));
  if (out.kind() == rt::Value::Kind::kArray) return out.AsArray();
  return {out};
}

// x (1, 1, 4, 4, 4) = 0, 1, ..., 63 (the maximum of a window is its last
// point); 2x2x2 windows with stride 2: max and mean of each octant.
TEST(OnnxPoolConvTest, ThreeDimensionalPooling) {
  std::vector<float> x(64);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  for (bool is_max : {true, false}) {
    Builder b(13);
    b.Input("x", {int64_t{1}, int64_t{1}, int64_t{4}, int64_t{4}, int64_t{4}});
    auto* node = b.Node(is_max ? "MaxPool" : "AveragePool", {"x"}, {"y"});
    Builder::AttrInts(node, "kernel_shape", {2, 2, 2});
    Builder::AttrInts(node, "strides", {2, 2, 2});
    b.Output("y");
    std::vector<rt::Value> out = RunModel(b, is_max ? "maxpool3d" : "avgpool3d",
                                     {rt::NDArray::FromVector<float>({1, 1, 4, 4, 4}, x)});
    std::vector<float> expected;
    for (int64_t d = 0; d < 2; ++d) {
      for (int64_t h = 0; h < 2; ++h) {
        for (int64_t w = 0; w < 2; ++w) {
          float first = static_cast<float>(d * 32 + h * 8 + w * 2);
          // The window holds first + {0, 1} + {0, 4} + {0, 16}.
          expected.push_back(is_max ? first + 21 : first + 10.5f);
        }
      }
    }
    EXPECT_EQ(out[0].AsNDArray().shape(), (rt::ShapeTuple{1, 1, 2, 2, 2}));
    EXPECT_EQ(out[0].AsNDArray().ToVector<float>(), expected) << (is_max ? "max" : "avg");
  }
}

// x (2, 1, 3, 3) with ties; 2x2 windows, stride 1, one row of padding at
// the bottom: the index of each window's maximum in the whole tensor.
TEST(OnnxPoolConvTest, MaxPoolIndicesRowAndColumnMajor) {
  std::vector<float> x = {1, 5, 5,  //
                          2, 0, 7,  //
                          9, 9, 3,  //
                          4, 4, 4,  //
                          4, 4, 4,  //
                          1, 8, 2};
  for (int64_t storage_order : {0, 1}) {
    Builder b(12);
    b.Input("x", {int64_t{2}, int64_t{1}, int64_t{3}, int64_t{3}});
    auto* node = b.Node("MaxPool", {"x"}, {"y", "i"});
    Builder::AttrInts(node, "kernel_shape", {2, 2});
    Builder::AttrInts(node, "pads", {0, 0, 1, 0});
    Builder::AttrInt(node, "storage_order", storage_order);
    b.Output("y");
    b.Output("i", onnx::TensorProto::INT64);
    std::vector<rt::Value> out = RunModel(b, "maxpool_indices_" + std::to_string(storage_order),
                                     {rt::NDArray::FromVector<float>({2, 1, 3, 3}, x)});
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[1].AsNDArray().shape(), (rt::ShapeTuple{2, 1, 3, 2}));
    // Windows (row, col) of each image; the first maximum in window order.
    std::vector<int64_t> expected;
    std::vector<float> values;
    for (int64_t n = 0; n < 2; ++n) {
      for (int64_t r = 0; r < 3; ++r) {
        for (int64_t c = 0; c < 2; ++c) {
          int64_t best = -1;
          for (int64_t dr = 0; dr < 2; ++dr) {
            for (int64_t dc = 0; dc < 2; ++dc) {
              if (r + dr > 2) continue;
              int64_t at = n * 9 + (r + dr) * 3 + (c + dc);
              if (best < 0 || x[at] > x[best]) best = at;
            }
          }
          values.push_back(x[best]);
          int64_t spatial = best % 9, row = spatial / 3, col = spatial % 3;
          expected.push_back(n * 9 + (storage_order ? col * 3 + row : spatial));
        }
      }
    }
    EXPECT_EQ(out[0].AsNDArray().ToVector<float>(), values);
    EXPECT_EQ(out[1].AsNDArray().ToVector<int64_t>(), expected) << "storage_order " << storage_order;
  }
}

// x (1, 1, n), w (1, 2, 3), stride 2, pads (1, 0), bias: every input element
// scatters x * w into its stride-spaced output window.
TEST(OnnxPoolConvTest, OneDimensionalConvTranspose) {
  Builder b(13);
  b.Input("x", {int64_t{1}, int64_t{1}, std::string("n")});
  b.Initializer("w", {1, 2, 3}, {1, 2, 3, -1, 0, 1});
  b.Initializer("bias", {2}, {0.5f, -0.5f});
  auto* node = b.Node("ConvTranspose", {"x", "w", "bias"}, {"y"});
  Builder::AttrInts(node, "strides", {2});
  Builder::AttrInts(node, "pads", {1, 0});
  b.Output("y");
  const float w[2][3] = {{1, 2, 3}, {-1, 0, 1}};
  for (int64_t n : {1, 4}) {
    std::vector<float> x;
    for (int64_t i = 0; i < n; ++i) x.push_back(static_cast<float>(i + 1));
    int64_t full = (n - 1) * 2 + 3, out_len = full - 1;  // pads remove one leading element
    std::vector<float> expected;
    for (int64_t c = 0; c < 2; ++c) {
      std::vector<float> row(static_cast<size_t>(full), c == 0 ? 0.5f : -0.5f);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t k = 0; k < 3; ++k) row[static_cast<size_t>(i * 2 + k)] += x[static_cast<size_t>(i)] * w[c][k];
      }
      expected.insert(expected.end(), row.begin() + 1, row.end());
    }
    std::vector<rt::Value> out = RunModel(b, "convtranspose1d_" + std::to_string(n), {rt::NDArray::FromVector<float>({1, 1, n}, x)});
    EXPECT_EQ(out[0].AsNDArray().shape(), (rt::ShapeTuple{1, 2, out_len}));
    EXPECT_EQ(out[0].AsNDArray().ToVector<float>(), expected) << "n=" << n;
  }
}


// x (n, 2, 3): per channel, y normalizes with the batch mean and population
// variance; the running statistics move towards them by 1 - momentum.
TEST(OnnxPoolConvTest, BatchNormalizationTrainingMode) {
  Builder b(15);
  b.Input("x", {std::string("n"), int64_t{2}, int64_t{3}});
  b.Initializer("scale", {2}, {1.5f, 0.5f});
  b.Initializer("bias", {2}, {0.25f, -1.0f});
  b.Initializer("mean", {2}, {0.0f, 1.0f});
  b.Initializer("var", {2}, {1.0f, 2.0f});
  auto* node = b.Node("BatchNormalization", {"x", "scale", "bias", "mean", "var"}, {"y", "running_mean", "running_var"});
  Builder::AttrInt(node, "training_mode", 1);
  Builder::AttrFloat(node, "momentum", 0.8f);
  Builder::AttrFloat(node, "epsilon", 0.01f);
  for (const char* name : {"y", "running_mean", "running_var"}) b.Output(name);
  const float scale[2] = {1.5f, 0.5f}, bias[2] = {0.25f, -1.0f}, mean[2] = {0.0f, 1.0f}, var[2] = {1.0f, 2.0f};
  for (int64_t n : {1, 3}) {
    std::vector<float> x;
    for (int64_t i = 0; i < n * 6; ++i) x.push_back(static_cast<float>((i * 7) % 11) - 4.0f);
    std::vector<rt::Value> out = RunModel(b, "batchnorm_training", {rt::NDArray::FromVector<float>({n, 2, 3}, x)});
    ASSERT_EQ(out.size(), 3u);
    std::vector<float> y = out[0].AsNDArray().ToVector<float>();
    std::vector<float> running_mean = out[1].AsNDArray().ToVector<float>();
    std::vector<float> running_var = out[2].AsNDArray().ToVector<float>();
    for (int64_t c = 0; c < 2; ++c) {
      double sum = 0, squares = 0, count = static_cast<double>(n * 3);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t k = 0; k < 3; ++k) sum += x[(i * 2 + c) * 3 + k];
      }
      double batch_mean = sum / count;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t k = 0; k < 3; ++k) squares += std::pow(x[(i * 2 + c) * 3 + k] - batch_mean, 2);
      }
      double batch_var = squares / count;
      EXPECT_NEAR(running_mean[c], mean[c] * 0.8 + batch_mean * 0.2, 1e-5) << "n=" << n;
      EXPECT_NEAR(running_var[c], var[c] * 0.8 + batch_var * 0.2, 1e-5) << "n=" << n;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t k = 0; k < 3; ++k) {
          size_t at = static_cast<size_t>((i * 2 + c) * 3 + k);
          double want = (x[at] - batch_mean) / std::sqrt(batch_var + 0.01) * scale[c] + bias[c];
          EXPECT_NEAR(y[at], want, 1e-4) << "n=" << n << " at " << at;
        }
      }
    }
  }
}

}  // namespace
}  // namespace rlx::frontend
