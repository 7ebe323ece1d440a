// Fusion end to end: examples/mlp.py and examples/transformer_block.py are
// compiled by the default pipeline twice, with fuse-ops/fuse-tir and with
// them disabled, run on the VM (LLVM kernels, default CPU schedule) at
// several sequence lengths (1, odd, above 64), and the outputs compared.
// The fused build must also really be fused: fewer kernels, and merged
// PrimFuncs with intermediate buffers.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include "rlx/codegen/vm_codegen.h"
#include "rlx/op/op.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/text/parser.h"
#include "rlx/tir/function.h"
#include "rlx/transform/passes.h"
#include "rlx/transform/pipeline.h"

namespace rlx::codegen {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;

ir::IRModule ParseExample(const std::string& name) {
  std::ifstream file(std::string(RLX_SOURCE_DIR) + "/examples/" + name);
  std::stringstream text;
  text << file.rdbuf();
  op::RegisterAllOps();
  return text::ParseModuleText(text.str(), name);
}

ir::IRModule Lower(const ir::IRModule& mod, bool fuse, bool by_pattern = false) {
  transform::PassContext ctx;
  if (!fuse) ctx.disabled_passes = {"fuse-ops", "fuse-tir"};
  // Fusion of generated kernels is under test: matmuls stay generated kernels.
  ctx.disabled_passes.push_back("dispatch-library");
  transform::PassContextScope scope(ctx);
  ir::IRModule input = mod;
  if (by_pattern) {
    input = transform::FuseOpsByPattern(transform::BuiltinFusionPatterns("matmul_epilogue"))(input, ctx);
  }
  return transform::DefaultPipeline()(input, ctx);
}

int CountPrimFuncs(const ir::IRModule& mod) {
  int count = 0;
  for (const auto& [name, func] : mod->functions) count += func.isa<tir::PrimFuncNode>() ? 1 : 0;
  return count;
}

bool HasFusedPrimFunc(const ir::IRModule& mod) {
  for (const auto& [name, func] : mod->functions) {
    if (func.isa<tir::PrimFuncNode>() && name.rfind("fused_", 0) == 0) return true;
  }
  return false;
}

// A tensor argument: its shape, with -1 standing for the sequence length.
using ShapeSpec = std::vector<int64_t>;

std::vector<rt::Value> RandomArgs(const std::vector<ShapeSpec>& specs, int64_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<rt::Value> args;
  for (size_t i = 0; i < specs.size(); ++i) {
    rt::ShapeTuple shape;
    int64_t count = 1;
    for (int64_t dim : specs[i]) {
      shape.push_back(dim < 0 ? n : dim);
      count *= shape.back();
    }
    std::vector<float> values(count);
    float scale = i == 0 ? 1.0f : 0.2f;  // the activation, then weights
    for (float& value : values) value = dist(rng) * scale;
    args.emplace_back(rt::NDArray::FromVector<float>(shape, values));
  }
  return args;
}

void ExpectFusionPreservesResults(const std::string& example, const std::vector<ShapeSpec>& specs,
                                  const std::vector<int64_t>& lengths, bool by_pattern = false) {
  ir::IRModule mod = ParseExample(example);
  ir::IRModule fused = Lower(mod, /*fuse=*/true, by_pattern);
  if (by_pattern) {
    EXPECT_TRUE(fused->Contains("fused_relax_matmul_relax_add")) << example;
  }
  ir::IRModule unfused = Lower(mod, /*fuse=*/false);
  EXPECT_TRUE(HasFusedPrimFunc(fused)) << example;
  EXPECT_FALSE(HasFusedPrimFunc(unfused)) << example;
  EXPECT_LT(CountPrimFuncs(fused), CountPrimFuncs(unfused)) << example;

  VMCompiled fused_compiled = CompileForVM(fused);
  VMCompiled unfused_compiled = CompileForVM(unfused);
  rvm::VirtualMachine fused_vm(fused_compiled.exec, fused_compiled.library);
  rvm::VirtualMachine unfused_vm(unfused_compiled.exec, unfused_compiled.library);
  std::mt19937 rng(7);
  for (int64_t n : lengths) {
    std::vector<rt::Value> args = RandomArgs(specs, n, rng);
    rt::NDArray expected = unfused_vm.Invoke("main", args).AsNDArray();
    rt::NDArray actual = fused_vm.Invoke("main", args).AsNDArray();
    ASSERT_EQ(actual.shape(), expected.shape()) << example << " n=" << n;
    std::vector<float> want = expected.ToVector<float>();
    std::vector<float> got = actual.ToVector<float>();
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_TRUE(std::isfinite(want[i])) << example << " n=" << n << " element " << i;
      ASSERT_NEAR(got[i], want[i], 1e-4f * (1 + std::fabs(want[i]))) << example << " n=" << n << " element " << i;
    }
  }
}

TEST(FusionEndToEnd, MlpSameResultsWithAndWithoutFusion) {
  ExpectFusionPreservesResults("mlp.py", {{-1, 784}, {784, 128}, {128}, {128, 10}}, {1, 7, 64, 65});
}

// fuse-ops-by-pattern first (matmul + bias add as a composite function),
// then the default pipeline legalizes inside it and fuse-tir merges it.
TEST(FusionEndToEnd, MlpSameResultsWithPatternFusion) {
  ExpectFusionPreservesResults("mlp.py", {{-1, 784}, {784, 128}, {128}, {128, 10}}, {1, 5, 66}, /*by_pattern=*/true);
}

TEST(FusionEndToEnd, TransformerBlockSameResultsWithAndWithoutFusion) {
  std::vector<ShapeSpec> specs = {{-1, 64}, {64}, {64},      {64, 64}, {64, 64}, {64, 64}, {64, 64},
                                  {64},     {64}, {64, 256}, {256},    {256, 64}, {64}};
  ExpectFusionPreservesResults("transformer_block.py", specs, {1, 7, 64, 97});
}

// A fused group whose merged PrimFunc needs a size no buffer shape defines
// (m: the output is m * 2 long), passed through tir_vars; checked against a
// naive reference at several (n, m). (tile's pattern is given: the
// analysis reads `vi % n` as opaque.)
constexpr const char* kTirVarsModule = R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def tile(var_x: T.handle, var_y: T.handle, m: T.int64):
        T.func_attr({"tir.noalias": T.bool(True), "op_pattern": 2})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (m * T.int64(2),))
        for i in range(m * T.int64(2)):
            with T.block("y"):
                vi = T.axis.spatial(m * T.int64(2), i)
                y[vi] = x[vi % n]

    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        k = T.int64()
        x = T.match_buffer(var_x, (k,))
        y = T.match_buffer(var_y, (k,))
        for i in range(k):
            with T.block("y"):
                vi = T.axis.spatial(k, i)
                y[vi] = T.exp(x[vi])

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), z: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("m * 2",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Module
        with R.dataflow():
            lv0 = R.call_tir(cls.tile, (x,), out_sinfo=R.Tensor((m * 2,), dtype="float32"), tir_vars=R.shape([m]))
            gv = R.call_tir(cls.exp, (lv0,), out_sinfo=R.Tensor((m * 2,), dtype="float32"))
            R.output(gv)
        return gv
)";

TEST(FusionEndToEnd, TirVarsOfTheMergedFunction) {
  op::RegisterAllOps();
  ir::IRModule fused = Lower(text::ParseModuleText(kTirVarsModule), /*fuse=*/true);
  ASSERT_TRUE(HasFusedPrimFunc(fused));
  const auto* merged = fused->Lookup("fused_tile_exp").as<tir::PrimFuncNode>();
  ASSERT_NE(merged, nullptr);
  EXPECT_EQ(merged->params.size(), 3u);  // x, the output, m
  VMCompiled compiled = CompileForVM(fused);
  rvm::VirtualMachine vm(compiled.exec, compiled.library);
  for (auto [n, m] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {3, 5}, {7, 40}}) {
    std::vector<float> x(n);
    for (int64_t i = 0; i < n; ++i) x[i] = 0.1f * static_cast<float>(i) - 0.2f;
    std::vector<float> z(m, 0.0f);
    rt::NDArray out = vm.Invoke("main", {rt::Value(rt::NDArray::FromVector<float>({n}, x)),
                                         rt::Value(rt::NDArray::FromVector<float>({m}, z))})
                          .AsNDArray();
    ASSERT_EQ(out.shape(), (rt::ShapeTuple{m * 2}));
    std::vector<float> got = out.ToVector<float>();
    for (int64_t i = 0; i < m * 2; ++i) {
      ASSERT_NEAR(got[i], std::exp(x[i % n]), 1e-5f) << "n=" << n << " m=" << m << " i=" << i;
    }
  }
}

}  // namespace
}  // namespace rlx::codegen
