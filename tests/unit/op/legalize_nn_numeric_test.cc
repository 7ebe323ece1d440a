// End-to-end numerical tests of the legalizations: a module calling the
// operator (with symbolic shapes and attributes in TVMScript form) goes
// through legalize-ops; the PrimFunc it produces runs in the TIR interpreter
// on the PyTorch reference inputs (tests/data/op_reference, written by
// tests/data/gen_op_reference.py) and must reproduce the reference outputs.
// This checks what the TE-level tests cannot: attribute normalization
// (padding forms, default layouts, negative axes) on the way from the call.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../common/op_reference.h"
#include "rlx/graph/expr.h"
#include "rlx/op/op.h"
#include "rlx/text/parser.h"
#include "rlx/tir/interpreter.h"
#include "rlx/transform/passes.h"

namespace rlx::op {
namespace {

using tir::HostTensor;

// The one PrimFunc legalize-ops makes of `main` (parameters and body given).
tir::PrimFunc LegalizedPrimFunc(const std::string& params, const std::string& body) {
  RegisterAllOps();
  std::string text = "@I.ir_module\nclass Module:\n    @R.function\n    def main(" + params + "):\n        gv = " + body +
                     "\n        return gv\n";
  ir::IRModule mod = transform::LegalizeOps()(text::ParseModuleText(text));
  tir::PrimFunc result;
  for (const auto& [name, func] : mod->functions) {
    if (func.isa<tir::PrimFuncNode>()) {
      EXPECT_FALSE(result.defined()) << "more than one PrimFunc";
      result = cast<tir::PrimFuncNode>(func);
    }
  }
  EXPECT_TRUE(result.defined()) << "the call was not legalized: " << body;
  return result;
}

struct Case {
  std::string reference;            // tests/data/op_reference/<reference>.*
  std::vector<std::string> inputs;  // reference arrays, in parameter order
  std::string params;
  std::string body;
  double tolerance = 1e-4;
};

void RunCase(const Case& c) {
  SCOPED_TRACE(c.reference + ": " + c.body);
  tir::PrimFunc func = LegalizedPrimFunc(c.params, c.body);
  if (!func.defined()) return;
  std::vector<HostTensor> values;
  for (const std::string& name : c.inputs) values.push_back(op_test::LoadOpReference(c.reference, name));
  HostTensor expected = op_test::LoadOpReference(c.reference, "out");
  HostTensor out(expected.dtype, expected.shape);
  std::vector<tir::ArgValue> args;
  for (HostTensor& value : values) args.push_back(&value);
  args.push_back(&out);
  tir::RunPrimFunc(func, args);
  for (int64_t i = 0; i < expected.num_elements(); ++i) {
    double e = expected.GetFloat(i);
    EXPECT_NEAR(out.GetFloat(i), e, c.tolerance * (1 + std::fabs(e))) << "element " << i;
  }
}

const char* const kX2 = R"(x: R.Tensor(("n", "m"), dtype="float32"))";
const char* const kX4 = R"(x: R.Tensor(("n", "c", "h", "w"), dtype="float32"))";

TEST(LegalizeNNNumericTest, SoftmaxFamily) {
  RunCase({"softmax_2d", {"x"}, kX2, "R.nn.softmax(x, axis=-1)"});
  RunCase({"softmax_row", {"x"}, kX2, "R.nn.softmax(x)"});
  RunCase({"softmax_3d_axis1", {"x"}, R"(x: R.Tensor(("a", "b", "c"), dtype="float32"))", "R.nn.softmax(x, axis=1)"});
  RunCase({"log_softmax_2d", {"x"}, kX2, "R.nn.log_softmax(x, axis=1)"});
}

TEST(LegalizeNNNumericTest, Normalizations) {
  RunCase({"layer_norm", {"x", "gamma", "beta"},
           R"(x: R.Tensor(("b", "s", 8), dtype="float32"), g: R.Tensor((8,), dtype="float32"), bt: R.Tensor((8,), dtype="float32"))",
           "R.nn.layer_norm(x, g, bt, axes=[-1], epsilon=1e-05)"});
  RunCase({"layer_norm_2axes", {"x", "gamma", "beta"},
           R"(x: R.Tensor(("b", 3, 4, 5), dtype="float32"), g: R.Tensor((4, 5), dtype="float32"), bt: R.Tensor((4, 5), dtype="float32"))",
           "R.nn.layer_norm(x, g, bt, axes=[-2, -1])"});
  RunCase({"rms_norm", {"x", "weight"}, R"(x: R.Tensor(("n", 8), dtype="float32"), wt: R.Tensor((8,), dtype="float32"))",
           "R.nn.rms_norm(x, wt, axes=[1], epsilon=1e-06)"});
  RunCase({"group_norm", {"x", "gamma", "beta"},
           R"(x: R.Tensor(("n", 6, "h", "w"), dtype="float32"), g: R.Tensor((6,), dtype="float32"), bt: R.Tensor((6,), dtype="float32"))",
           "R.nn.group_norm(x, g, bt, num_groups=3, channel_axis=1, axes=[2, 3])"});
}

TEST(LegalizeNNNumericTest, Convolutions) {
  RunCase({"conv2d_stride2_pad1", {"x", "w"}, std::string(kX4) + R"(, wt: R.Tensor((4, 3, 3, 3), dtype="float32"))",
           "R.nn.conv2d(x, wt, strides=2, padding=(1, 1))"});
  RunCase({"conv2d_groups2_dilation2", {"x", "w"}, std::string(kX4) + R"(, wt: R.Tensor((6, 2, 3, 3), dtype="float32"))",
           "R.nn.conv2d(x, wt, padding=[2, 2, 2, 2], dilation=[2, 2], groups=2)"});
  RunCase({"conv1d_stride2_pad1", {"x", "w"},
           R"(x: R.Tensor(("n", 3, "l"), dtype="float32"), wt: R.Tensor((4, 3, 3), dtype="float32"))",
           "R.nn.conv1d(x, wt, strides=[2], padding=[1])"});
  RunCase({"conv2d_transpose", {"x", "w"}, std::string(kX4) + R"(, wt: R.Tensor((4, 3, 3, 3), dtype="float32"))",
           "R.nn.conv2d_transpose(x, wt, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[1, 1])"});
  RunCase({"conv2d_transpose_groups2", {"x", "w"}, std::string(kX4) + R"(, wt: R.Tensor((4, 2, 3, 3), dtype="float32"))",
           "R.nn.conv2d_transpose(x, wt, groups=2)"});
}

TEST(LegalizeNNNumericTest, Pooling) {
  RunCase({"max_pool2d", {"x"}, kX4, "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])"});
  RunCase({"max_pool2d_ceil", {"x"}, kX4, "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], ceil_mode=True)"});
  RunCase({"avg_pool2d_include_pad", {"x"}, kX4,
           "R.nn.avg_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1], count_include_pad=True)"});
  RunCase({"avg_pool2d_exclude_pad", {"x"}, kX4, "R.nn.avg_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])"});
  RunCase({"adaptive_avg_pool2d", {"x"}, kX4, "R.nn.adaptive_avg_pool2d(x, output_size=[3, 2])"});
}

TEST(LegalizeNNNumericTest, Resize) {
  RunCase({"resize_linear_half_pixel", {"x"}, kX4, "R.image.resize2d(x, R.shape([7, 3]))"});
  RunCase({"resize_linear_align_corners", {"x"}, kX4,
           R"(R.image.resize2d(x, R.shape([7, 3]), coordinate_transformation_mode="align_corners"))"});
  RunCase({"resize_nearest_asymmetric", {"x"}, kX4,
           R"(R.image.resize2d(x, R.shape([8, 10]), method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor"))"});
}

TEST(LegalizeNNNumericTest, Attention) {
  std::string qkv = R"(q: R.Tensor(("b", "s", "h", "d"), dtype="float32"), k: R.Tensor(("b", "t", "h", "d"), dtype="float32"), v: R.Tensor(("b", "t", "h", "dv"), dtype="float32"))";
  RunCase({"attention", {"q", "k", "v"}, qkv, "R.nn.attention(q, k, v)"});
  RunCase({"attention_bias_scale", {"q", "k", "v", "bias"}, qkv + R"(, bias: R.Tensor(("b", "h", "s", "t"), dtype="float32"))",
           "R.nn.attention(q, k, v, bias, scale=0.3)"});
  RunCase({"attention_causal_top_left", {"q", "k", "v"}, qkv, R"(R.nn.attention(q, k, v, causal_mask="TopLeft"))"});
  RunCase({"attention_causal_bottom_right", {"q", "k", "v"}, qkv, R"(R.nn.attention(q, k, v, causal_mask="BottomRight"))"});
}

TEST(LegalizeNNNumericTest, ScanAndSearch) {
  RunCase({"cumsum_axis1", {"x"}, kX2, "R.cumsum(x, axis=-1)"});
  RunCase({"argmax_ties", {"x"}, kX2, "R.argmax(x, axis=1)", 0});
  RunCase({"argmin_ties", {"x"}, kX2, "R.argmin(x, axis=-1)", 0});
}

TEST(LegalizeNNNumericTest, BatchNormReturnsTheMovingStatistics) {
  const char* c = "batch_norm";
  tir::PrimFunc func = LegalizedPrimFunc(
      R"(x: R.Tensor(("n", 3, "h", "w"), dtype="float32"), g: R.Tensor((3,), dtype="float32"), bt: R.Tensor((3,), dtype="float32"), m: R.Tensor((3,), dtype="float32"), v: R.Tensor((3,), dtype="float32"))",
      "R.nn.batch_norm(x, g, bt, m, v, axis=1)");
  ASSERT_TRUE(func.defined());
  HostTensor x = op_test::LoadOpReference(c, "x"), g = op_test::LoadOpReference(c, "gamma"), b = op_test::LoadOpReference(c, "beta"),
             m = op_test::LoadOpReference(c, "mean"), v = op_test::LoadOpReference(c, "var"), expected = op_test::LoadOpReference(c, "out");
  HostTensor out(DataType::Float32(), expected.shape), out_mean(DataType::Float32(), {3}),
      out_var(DataType::Float32(), {3});
  tir::RunPrimFunc(func, {&x, &g, &b, &m, &v, &out, &out_mean, &out_var});
  for (int64_t i = 0; i < expected.num_elements(); ++i) {
    EXPECT_NEAR(out.GetFloat(i), expected.GetFloat(i), 1e-4 * (1 + std::fabs(expected.GetFloat(i))));
  }
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(out_mean.GetFloat(i), m.GetFloat(i));
    EXPECT_EQ(out_var.GetFloat(i), v.GetFloat(i));
  }
}

// One legalized PrimFunc, run at several values of its symbolic dims
// against naive loops.
TEST(LegalizeNNNumericTest, SymbolicSizesAgainstNaive) {
  tir::PrimFunc softmax = LegalizedPrimFunc(kX2, "R.nn.softmax(x, axis=0)");
  tir::PrimFunc cumsum = LegalizedPrimFunc(kX2, "R.cumsum(x, axis=0, exclusive=True)");
  tir::PrimFunc pad = LegalizedPrimFunc(kX2, "R.nn.pad(x, pad_width=[1, 0, 0, 2], pad_value=-1.0)");
  ASSERT_TRUE(softmax.defined() && cumsum.defined() && pad.defined());
  tir::Interpreter run_softmax(softmax), run_cumsum(cumsum), run_pad(pad);
  for (int64_t n : {1, 2, 7}) {
    for (int64_t m : {1, 3}) {
      HostTensor x(DataType::Float32(), {n, m});
      for (int64_t i = 0; i < n * m; ++i) x.SetFloat(i, std::sin(static_cast<double>(i) * 1.7) * 3);
      HostTensor sm(DataType::Float32(), {n, m}), cs(DataType::Float32(), {n, m}), pd(DataType::Float32(), {n + 1, m + 2});
      run_softmax.Run({&x, &sm});
      run_cumsum.Run({&x, &cs});
      run_pad.Run({&x, &pd});
      for (int64_t j = 0; j < m; ++j) {
        double max_value = -1e30, sum = 0, running = 0;
        for (int64_t i = 0; i < n; ++i) max_value = std::max(max_value, x.At({i, j}));
        for (int64_t i = 0; i < n; ++i) sum += std::exp(x.At({i, j}) - max_value);
        for (int64_t i = 0; i < n; ++i) {
          EXPECT_NEAR(sm.At({i, j}), std::exp(x.At({i, j}) - max_value) / sum, 1e-6);
          EXPECT_NEAR(cs.At({i, j}), running, 1e-5);
          running += x.At({i, j});
        }
      }
      for (int64_t i = 0; i <= n; ++i) {
        for (int64_t j = 0; j < m + 2; ++j) {
          double expected = i >= 1 && j < m ? x.At({i - 1, j}) : -1.0;
          EXPECT_EQ(pd.At({i, j}), expected) << n << "x" << m << " at " << i << "," << j;
        }
      }
    }
  }
}

}  // namespace
}  // namespace rlx::op
