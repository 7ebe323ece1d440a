// convert-layout end to end: a small convolutional network with symbolic
// batch, height and width (conv + bias + relu, a depthwise conv with a
// constant batch_norm and ONNX's HardSwish, a squeeze-and-excitation block:
// mean over H, W with keepdims -> 1x1 conv -> HardSigmoid -> multiply, a max
// pool, a concat of two convs (one grouped), a split, a pad, a resize, then a reshape and a
// matmul head that need the original layout back) is compiled by the default
// pipeline without convert-layout, with it (NHWC / OHWI convolutions through
// the generated kernels) and, when the runtime has oneDNN, with it and
// dispatch-library, run on the VM at several sizes (1, odd, large) and the
// outputs compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <sstream>

#include "../common/random_const.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/op/op.h"
#include "rlx/runtime/contrib/dnnl.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/passes.h"
#include "rlx/transform/pipeline.h"

namespace rlx::codegen {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;

using test_util::RandomConst;

std::string NetworkText() {
  std::mt19937 rng(7);
  auto c = [&](std::vector<int64_t> shape, float lo = -0.5f, float hi = 0.5f) { return RandomConst(shape, rng, lo, hi); };
  std::ostringstream out;
  out << R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32"), w1: R.Tensor((8, 3, 3, 3), dtype="float32")) -> R.Tensor(("n", 6), dtype="float32"):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            c1 = R.nn.conv2d(x, w1, strides=[1, 1], padding=[1, 1, 1, 1])
            b1 = R.expand_dims()" << c({8}) << R"(, axis=[1, 2])
            a1 = R.add(c1, b1)
            r1 = R.nn.relu(a1)
            c2 = R.nn.conv2d(r1, )" << c({8, 1, 3, 3}) << R"(, strides=[2, 2], padding=[1, 1, 1, 1], groups=8)
            bn = R.nn.batch_norm(c2, )" << c({8}, 0.5f, 1.5f) << ", " << c({8}) << ", " << c({8}) << ", "
      << c({8}, 0.5f, 1.5f) << R"(, axis=1, epsilon=1e-05)
            n2 = bn[0]
            s3 = R.add(n2, R.const(3.0, "float32"))
            k3 = R.clip(s3, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(6.0)))
            m3 = R.multiply(n2, k3)
            hs = R.divide(m3, R.const(6.0, "float32"))
            se = R.mean(hs, axis=[2, 3], keepdims=True)
            se1 = R.nn.conv2d(se, )" << c({8, 8, 1, 1}) << R"()
            se2 = R.add(se1, )" << c({1, 8, 1, 1}) << R"()
            se3 = R.multiply(se2, R.const(0.2, "float32"))
            se4 = R.add(se3, R.const(0.5, "float32"))
            se5 = R.clip(se4, R.prim_value(T.float64(0.0)), R.prim_value(T.float64(1.0)))
            sc = R.multiply(hs, se5)
            p = R.nn.max_pool2d(sc, pool_size=[3, 3], strides=[1, 1], padding=[1, 1, 1, 1])
            d1 = R.nn.conv2d(p, )" << c({4, 8, 1, 1}) << R"()
            d2 = R.nn.conv2d(p, )" << c({4, 4, 3, 3}) << R"(, padding=[1, 1, 1, 1], groups=2)
            cat = R.concat((d1, d2), axis=1)
            parts = R.split(cat, indices_or_sections=2, axis=1)
            q0 = parts[0]
            q1 = parts[1]
            q = R.subtract(q0, q1)
            padded = R.nn.pad(q, pad_width=[0, 0, 0, 0, 1, 0, 0, 2], pad_value=0.0)
            up = R.image.resize2d(padded, R.shape([4, 6]), method="linear")
            red = R.sum(up, axis=[2], keepdims=False)
            flat = R.reshape(red, R.shape([n, 24]))
            fc = R.matmul(flat, )" << c({24, 6}) << R"()
            gv = R.nn.relu(fc)
            R.output(gv)
        return gv
)";
  return out.str();
}

enum class Build { kPlain, kConverted, kConvertedDispatched };

ir::IRModule Lower(ir::IRModule mod, Build build) {
  transform::PassContext ctx;
  ctx.disabled_passes = {"convert-layout"};
  if (build != Build::kConvertedDispatched) ctx.disabled_passes.push_back("dispatch-library");
  transform::PassContextScope scope(ctx);
  if (build != Build::kPlain) mod = transform::ConvertLayout({{"relax.nn.conv2d", {"NHWC", "OHWI"}}})(mod, ctx);
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

int Count(const std::string& text, const std::string& piece) {
  int count = 0;
  for (size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++count;
  return count;
}

void ExpectSameResults(Build build) {
  op::RegisterAllOps();
  ir::IRModule mod = text::ParseModuleText(NetworkText(), "convnet.py");
  ir::IRModule converted = Lower(mod, build);
  ir::IRModule plain = Lower(mod, Build::kPlain);
  std::string nhwc_text = text::PrintModule(transform::ConvertLayout({{"relax.nn.conv2d", {"NHWC", "OHWI"}}})(mod));
  EXPECT_EQ(Count(nhwc_text, "data_layout=\"NHWC\", kernel_layout=\"OHWI\""), 5) << nhwc_text;
  if (build == Build::kConvertedDispatched) {
    // Every conv dispatched, in NHWC (the tenth attrs value 1); c1 has
    // stride 1, padding 1, dilation 1, groups 1.
    std::string dispatched_text = text::PrintModule(converted);
    EXPECT_EQ(Count(dispatched_text, "\"rlx.dnnl.conv2d\""), 5) << dispatched_text;
    EXPECT_NE(dispatched_text.find("R.shape([1, 1, 1, 1, 1, 1, 1, 1, 1, 1])"), std::string::npos) << dispatched_text;
  }
  VMCompiled converted_compiled = CompileForVM(converted);
  VMCompiled plain_compiled = CompileForVM(plain);
  rvm::VirtualMachine converted_vm(converted_compiled.exec, converted_compiled.library);
  rvm::VirtualMachine plain_vm(plain_compiled.exec, plain_compiled.library);
  std::mt19937 rng(11);
  rt::NDArray w1 = RandomTensor({8, 3, 3, 3}, rng);
  for (auto [n, h, w] : std::vector<std::array<int64_t, 3>>{{1, 1, 1}, {3, 7, 13}, {2, 64, 96}, {1, 8, 8}}) {
    std::vector<rt::Value> args = {RandomTensor({n, 3, h, w}, rng), w1};
    std::vector<float> want = plain_vm.Invoke("main", args).AsNDArray().ToVector<float>();
    std::vector<float> got = converted_vm.Invoke("main", args).AsNDArray().ToVector<float>();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], 1e-3f * (1 + std::fabs(want[i])))
          << "n=" << n << " h=" << h << " w=" << w << " element " << i;
    }
  }
}

TEST(ConvertLayoutEndToEnd, NHWCNetworkMatchesNCHWWithGeneratedKernels) { ExpectSameResults(Build::kConverted); }

TEST(ConvertLayoutEndToEnd, NHWCNetworkMatchesNCHWWithOneDNN) {
  if (!rt::contrib::DnnlAvailable()) GTEST_SKIP() << "this build has no oneDNN (RLX_USE_DNNL off or libdnnl-dev missing)";
  ExpectSameResults(Build::kConvertedDispatched);
}

// convert-layout runs right before dispatch-library (with a dead-code
// clean-up between) exactly when the runtime has oneDNN.
TEST(ConvertLayoutEndToEnd, DefaultPipelineConvertsBeforeDispatch) {
  std::vector<std::string> names = transform::DefaultPipelinePassNames();
  auto convert = std::find(names.begin(), names.end(), "convert-layout");
  auto dispatch = std::find(names.begin(), names.end(), "dispatch-library");
  if (!rt::contrib::DnnlAvailable()) {
    EXPECT_EQ(convert, names.end());
    return;
  }
  ASSERT_NE(convert, names.end());
  ASSERT_NE(dispatch, names.end());
  EXPECT_LT(convert, dispatch);
}

}  // namespace
}  // namespace rlx::codegen
