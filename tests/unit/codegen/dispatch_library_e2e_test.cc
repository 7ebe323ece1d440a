// dispatch-library end to end: a small convolutional network with symbolic
// height and width (conv + bias + relu, a depthwise conv folded with a
// constant batch_norm and ONNX's HardSwish, a 1x1 conv with a residual add
// and HardSigmoid, a global mean and a matmul + bias + relu head) is compiled
// by the default pipeline with dispatch-library and without it, run on the
// VM at sizes 1x1, odd and large, and the outputs compared. The dispatched
// build must really call oneDNN (rlx.dnnl.* in the lowered module).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "../common/random_const.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/op/op.h"
#include "rlx/runtime/contrib/dnnl.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/pipeline.h"

namespace rlx::codegen {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;

using test_util::RandomConst;

std::string NetworkText() {
  std::mt19937 rng(3);
  std::ostringstream out;
  out << R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, "h", "w"), dtype="float32"), w1: R.Tensor((8, 3, 3, 3), dtype="float32")) -> R.Tensor((1, 5), dtype="float32"):
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            c1 = R.nn.conv2d(x, w1, strides=[1, 1], padding=[1, 1, 1, 1])
            b1 = R.expand_dims()" << RandomConst({8}, rng, -0.5f, 0.5f) << R"(, axis=[1, 2])
            a1 = R.add(c1, b1)
            r1 = R.nn.relu(a1)
            c2 = R.nn.conv2d(r1, )" << RandomConst({8, 1, 3, 3}, rng, -0.5f, 0.5f) << R"(, strides=[2, 2], padding=[1, 1, 1, 1], groups=8)
            bn = R.nn.batch_norm(c2, )" << RandomConst({8}, rng, 0.5f, 1.5f) << ", " << RandomConst({8}, rng, -0.5f, 0.5f)
      << ", " << RandomConst({8}, rng, -0.5f, 0.5f) << ", " << RandomConst({8}, rng, 0.5f, 1.5f) << R"(, axis=1, epsilon=1e-05)
            n2 = bn[0]
            s3 = R.add(n2, R.const(3.0, "float32"))
            k3 = R.clip(s3, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(6.0)))
            m3 = R.multiply(n2, k3)
            hs = R.divide(m3, R.const(6.0, "float32"))
            c3 = R.nn.conv2d(hs, )" << RandomConst({8, 8, 1, 1}, rng, -0.5f, 0.5f) << R"()
            res = R.add(c3, hs)
            m4 = R.multiply(res, R.const(0.2, "float32"))
            a4 = R.add(m4, R.const(0.5, "float32"))
            hsig = R.clip(a4, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(1.0)))
            pooled = R.mean(hsig, axis=[2, 3], keepdims=False)
            fc = R.matmul(pooled, )" << RandomConst({8, 5}, rng, -0.5f, 0.5f) << R"()
            fb = R.add(fc, )" << RandomConst({5}, rng, -0.5f, 0.5f) << R"()
            gv = R.nn.relu(fb)
            R.output(gv)
        return gv
)";
  return out.str();
}

ir::IRModule Lower(const ir::IRModule& mod, bool dispatch) {
  transform::PassContext ctx;
  if (!dispatch) ctx.disabled_passes = {"dispatch-library"};
  transform::PassContextScope scope(ctx);
  return transform::DefaultPipeline()(mod, ctx);
}

rt::NDArray RandomTensor(const rt::ShapeTuple& shape, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  std::vector<float> values(static_cast<size_t>(count));
  for (float& v : values) v = dist(rng);
  return rt::NDArray::FromVector<float>(shape, values);
}

TEST(DispatchLibraryEndToEnd, ConvNetSameResultsWithAndWithoutDispatch) {
  if (!rt::contrib::DnnlAvailable()) GTEST_SKIP() << "this build has no oneDNN (RLX_USE_DNNL off or libdnnl-dev missing)";
  op::RegisterAllOps();
  ir::IRModule mod = text::ParseModuleText(NetworkText(), "convnet.py");
  ir::IRModule dispatched = Lower(mod, true);
  ir::IRModule generated = Lower(mod, false);
  std::string dispatched_text = text::PrintModule(dispatched);
  EXPECT_NE(dispatched_text.find("rlx.dnnl.conv2d"), std::string::npos);
  EXPECT_NE(dispatched_text.find("rlx.dnnl.matmul"), std::string::npos);
  EXPECT_EQ(text::PrintModule(generated).find("rlx.dnnl"), std::string::npos);

  VMCompiled dispatched_compiled = CompileForVM(dispatched);
  VMCompiled generated_compiled = CompileForVM(generated);
  rvm::VirtualMachine dispatched_vm(dispatched_compiled.exec, dispatched_compiled.library);
  rvm::VirtualMachine generated_vm(generated_compiled.exec, generated_compiled.library);
  std::mt19937 rng(11);
  rt::NDArray w1 = RandomTensor({8, 3, 3, 3}, rng);
  for (auto [h, w] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {7, 13}, {96, 160}, {7, 13}}) {
    std::vector<rt::Value> args = {RandomTensor({1, 3, h, w}, rng), w1};
    std::vector<float> want = generated_vm.Invoke("main", args).AsNDArray().ToVector<float>();
    std::vector<float> got = dispatched_vm.Invoke("main", args).AsNDArray().ToVector<float>();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], 1e-4f * (1 + std::fabs(want[i]))) << "h=" << h << " w=" << w << " element " << i;
    }
  }
}

// Compiles `text` with and without dispatch-library, checks that the
// dispatched module calls `library_func`, and compares both on inputs of
// every shape in `input_shapes` (the module's only parameter).
void ExpectSameResults(const std::string& text, const std::string& library_func,
                       const std::vector<rt::ShapeTuple>& input_shapes) {
  ir::IRModule mod = text::ParseModuleText(text, "module.py");
  ir::IRModule dispatched = Lower(mod, true);
  ir::IRModule generated = Lower(mod, false);
  ASSERT_NE(text::PrintModule(dispatched).find("\"" + library_func + "\""), std::string::npos) << text;
  VMCompiled dispatched_compiled = CompileForVM(dispatched);
  VMCompiled generated_compiled = CompileForVM(generated);
  rvm::VirtualMachine dispatched_vm(dispatched_compiled.exec, dispatched_compiled.library);
  rvm::VirtualMachine generated_vm(generated_compiled.exec, generated_compiled.library);
  std::mt19937 rng(17);
  for (const rt::ShapeTuple& shape : input_shapes) {
    std::vector<rt::Value> args = {RandomTensor(shape, rng)};
    rt::NDArray want_array = generated_vm.Invoke("main", args).AsNDArray();
    rt::NDArray got_array = dispatched_vm.Invoke("main", args).AsNDArray();
    ASSERT_EQ(got_array.shape(), want_array.shape());
    std::vector<float> want = want_array.ToVector<float>(), got = got_array.ToVector<float>();
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], 1e-4f * (1 + std::fabs(want[i])))
          << "input " << rt::ShapeToString(shape) << " element " << i << "\n" << text;
    }
  }
}

std::string IntList(const std::vector<int64_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

struct TransposeCase {
  int64_t in_channels, out_per_group, groups, kh, kw;
  std::vector<int64_t> strides, padding, output_padding, dilation;
  std::string epilogue;  // "bn_sigmoid", "bn_relu_affine" or "affine_hard_swish"
};

// conv2d_transpose over symbolic n, h, w with a constant weight, a
// per-channel bias and the case's epilogue.
std::string TransposeModuleText(const TransposeCase& c, std::mt19937& rng) {
  int64_t out_channels = c.out_per_group * c.groups;
  std::ostringstream out;
  out << R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", )" << c.in_channels << R"(, "h", "w"), dtype="float32")) -> R.Tensor(dtype="float32", ndim=4):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            c0 = R.nn.conv2d_transpose(x, )"
      << RandomConst({c.in_channels, c.out_per_group, c.kh, c.kw}, rng, -0.5f, 0.5f)
      << ", strides=" << IntList(c.strides) << ", padding=" << IntList(c.padding)
      << ", output_padding=" << IntList(c.output_padding) << ", dilation=" << IntList(c.dilation)
      << ", groups=" << c.groups << R"()
            b0 = R.expand_dims()" << RandomConst({out_channels}, rng, -0.5f, 0.5f) << R"(, axis=[1, 2])
            a0 = R.add(c0, b0)
)";
  if (c.epilogue == "affine_hard_swish") {
    out << R"(            m1 = R.multiply(R.const([1.375], "float32"), a0)
            t1 = R.add(m1, R.const([0.5859375], "float32"))
            s1 = R.add(t1, R.const(3.0, "float32"))
            k1 = R.clip(s1, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(6.0)))
            p1 = R.multiply(t1, k1)
            d1 = R.divide(p1, R.const(6.0, "float32"))
            m2 = R.multiply(R.const([0.1675], "float32"), d1)
            gv = R.add(m2, R.const([0.0347], "float32"))
)";
  } else {
    out << "            bn = R.nn.batch_norm(a0, " << RandomConst({out_channels}, rng, 0.5f, 1.5f) << ", "
        << RandomConst({out_channels}, rng, -0.5f, 0.5f) << ", " << RandomConst({out_channels}, rng, -0.5f, 0.5f)
        << ", "
        << RandomConst({out_channels}, rng, 0.5f, 1.5f) << ", axis=1, epsilon=1e-05)\n"
        << "            n0 = bn[0]\n";
    if (c.epilogue == "bn_sigmoid") {
      out << "            gv = R.sigmoid(n0)\n";
    } else {
      out << R"(            r0 = R.nn.relu(n0)
            m0 = R.multiply(r0, R.const(0.75, "float32"))
            gv = R.subtract(m0, R.const([0.25], "float32"))
)";
    }
  }
  out << R"(            R.output(gv)
        return gv
)";
  return out.str();
}

// conv2d_transpose on oneDNN against the generated (legalized) kernels:
// stride 2 (det's upsampling), padding with output_padding, output_padding
// beyond the padding, groups, depthwise with dilation; every symbolic dim at
// 1, odd and large values.
TEST(DispatchLibraryEndToEnd, ConvTransposeSameResultsWithAndWithoutDispatch) {
  if (!rt::contrib::DnnlAvailable()) GTEST_SKIP() << "this build has no oneDNN (RLX_USE_DNNL off or libdnnl-dev missing)";
  op::RegisterAllOps();
  std::vector<TransposeCase> cases = {
      {4, 3, 1, 2, 2, {2, 2}, {0, 0, 0, 0}, {0, 0}, {1, 1}, "bn_sigmoid"},
      {4, 2, 1, 3, 3, {2, 2}, {1, 1, 1, 1}, {1, 1}, {1, 1}, "bn_relu_affine"},
      {4, 2, 1, 4, 3, {2, 3}, {0, 1, 0, 0}, {1, 2}, {1, 1}, "bn_sigmoid"},
      {6, 2, 3, 3, 3, {2, 1}, {1, 0, 1, 0}, {1, 0}, {1, 1}, "affine_hard_swish"},
      {4, 1, 4, 3, 3, {1, 1}, {2, 2, 2, 2}, {0, 0}, {2, 2}, "bn_relu_affine"},
  };
  std::mt19937 rng(23);
  for (const TransposeCase& c : cases) {
    std::vector<rt::ShapeTuple> shapes = {
        {1, c.in_channels, 1, 1}, {3, c.in_channels, 5, 7}, {2, c.in_channels, 40, 56}};
    ExpectSameResults(TransposeModuleText(c, rng), "rlx.dnnl.conv2d_transpose", shapes);
  }
}

// PP-LCNetV3's learnable affine block around HardSwish after a conv with
// bias (folded, then hard_swish and eltwise_linear post-ops), a second conv
// with relu and scalar affine post-ops, and a matmul whose scalar divide is
// folded into its weight, then Swish (x * sigmoid(1.5 * x)).
TEST(DispatchLibraryEndToEnd, AffineChainsSameResultsWithAndWithoutDispatch) {
  if (!rt::contrib::DnnlAvailable()) GTEST_SKIP() << "this build has no oneDNN (RLX_USE_DNNL off or libdnnl-dev missing)";
  op::RegisterAllOps();
  std::mt19937 rng(29);
  std::ostringstream text;
  text << R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32")) -> R.Tensor(("n", 5, "h", 4), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            c1 = R.nn.conv2d(x, )" << RandomConst({6, 3, 3, 3}, rng, -0.5f, 0.5f) << R"(, padding=[1, 1, 1, 1])
            b1 = R.reshape()" << RandomConst({6}, rng, -0.5f, 0.5f) << R"(, R.shape([1, 6, 1, 1]))
            a1 = R.add(c1, b1)
            m1 = R.multiply(R.const([1.38], "float32"), a1)
            t1 = R.add(m1, R.const([0.586], "float32"))
            s1 = R.add(t1, R.const(3.0, "float32"))
            k1 = R.clip(s1, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(6.0)))
            p1 = R.multiply(t1, k1)
            d1 = R.divide(p1, R.const(6.0, "float32"))
            m2 = R.multiply(R.const([0.1675], "float32"), d1)
            h1 = R.add(m2, R.const([3.47e-05], "float32"))
            c2 = R.nn.conv2d(h1, )" << RandomConst({5, 6, 1, 1}, rng, -0.5f, 0.5f) << R"()
            r2 = R.nn.relu(c2)
            m3 = R.multiply(r2, R.const(2.0, "float32"))
            h2 = R.subtract(R.const(1.0, "float32"), m3)
            mean = R.mean(h2, axis=[3], keepdims=True)
            fc = R.matmul(mean, )" << RandomConst({1, 4}, rng, -0.5f, 0.5f) << R"()
            fd = R.divide(fc, R.const(0.5, "float32"))
            fs = R.multiply(fd, R.const(1.5, "float32"))
            sg = R.sigmoid(fs)
            gv = R.multiply(fd, sg)
            R.output(gv)
        return gv
)";
  ExpectSameResults(text.str(), "rlx.dnnl.conv2d", {{1, 3, 1, 1}, {3, 3, 7, 13}, {2, 3, 64, 96}});
}

// In the default pipeline right before legalize-ops exactly when the runtime
// has the functions it calls.
TEST(DispatchLibraryEndToEnd, DefaultPipelineDispatchesBeforeLegalization) {
  std::vector<std::string> names = transform::DefaultPipelinePassNames();
  auto dispatch = std::find(names.begin(), names.end(), "dispatch-library");
  if (!rt::contrib::DnnlAvailable()) {
    EXPECT_EQ(dispatch, names.end());
    return;
  }
  ASSERT_NE(dispatch, names.end());
  ASSERT_NE(dispatch + 1, names.end());
  EXPECT_EQ(*(dispatch + 1), "legalize-ops");
}

TEST(DispatchLibraryEndToEnd, WrongInputShapeIsAnError) {
  if (!rt::contrib::DnnlAvailable()) GTEST_SKIP() << "this build has no oneDNN (RLX_USE_DNNL off or libdnnl-dev missing)";
  op::RegisterAllOps();
  ir::IRModule dispatched = Lower(text::ParseModuleText(NetworkText(), "convnet.py"), true);
  VMCompiled compiled = CompileForVM(dispatched);
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  std::mt19937 rng(5);
  std::vector<rt::Value> args = {RandomTensor({1, 4, 8, 8}, rng), RandomTensor({8, 3, 3, 3}, rng)};
  EXPECT_THROW(vm.Invoke("main", args), rt::RuntimeError);
}

}  // namespace
}  // namespace rlx::codegen
