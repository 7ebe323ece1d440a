// Operator fusion on the transformer block (examples/transformer_block.py):
// latency of `main` at sequence length 1 and 512, built by the default
// pipeline with fuse-ops/fuse-tir and with them disabled. The kernel
// launches per call (calls of PrimFuncs in the lowered `main`, which has no
// loops; shape functions counted apart) are reported as counters, with the
// minimum and median wall time of one call (min_us, median_us).
//
//   ninja -C build fusion_bench && build/bin/fusion_bench
//
// (RLX_SOURCE_DIR locates the example; run from the repository root
// otherwise.)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <random>
#include <sstream>

#include "rlx/codegen/vm_codegen.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/op/op.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/text/parser.h"
#include "rlx/tir/function.h"
#include "rlx/transform/pipeline.h"

namespace {

using namespace rlx;
namespace rt = rlx::runtime;

std::string ExamplePath() {
#ifdef RLX_SOURCE_DIR
  return std::string(RLX_SOURCE_DIR) + "/examples/transformer_block.py";
#else
  return "examples/transformer_block.py";
#endif
}

ir::IRModule Lowered(bool fuse) {
  std::ifstream file(ExamplePath());
  std::stringstream text;
  text << file.rdbuf();
  op::RegisterAllOps();
  ir::IRModule mod = text::ParseModuleText(text.str(), "transformer_block.py");
  transform::PassContext ctx;
  if (!fuse) ctx.disabled_passes = {"fuse-ops", "fuse-tir"};
  transform::PassContextScope scope(ctx);
  return transform::DefaultPipeline()(mod, ctx);
}

// Kernel calls in `main` (the function has no loops, so each runs once per call).
std::pair<int, int> CountLaunches(const ir::IRModule& mod) {
  int kernels = 0;
  int shape_funcs = 0;
  graph::PostOrderVisit(cast<graph::FunctionNode>(mod->Lookup("main")), [&](const graph::Expr& e) {
    const auto* call = e.as<graph::CallNode>();
    const auto* gv = call ? call->op.as<graph::GlobalVarNode>() : nullptr;
    if (gv == nullptr || !mod->Lookup(gv->name_hint).isa<tir::PrimFuncNode>()) return;
    (gv->name_hint.rfind("shape_func", 0) == 0 ? shape_funcs : kernels) += 1;
  });
  return {kernels, shape_funcs};
}

std::vector<rt::Value> Inputs(int64_t n) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-0.2f, 0.2f);
  std::vector<std::vector<int64_t>> shapes = {{n, 64}, {64}, {64},      {64, 64}, {64, 64}, {64, 64}, {64, 64},
                                              {64},    {64}, {64, 256}, {256},    {256, 64}, {64}};
  std::vector<rt::Value> args;
  for (const auto& shape : shapes) {
    int64_t count = 1;
    for (int64_t dim : shape) count *= dim;
    std::vector<float> values(count);
    for (float& value : values) value = dist(rng);
    args.emplace_back(rt::NDArray::FromVector<float>(rt::ShapeTuple(shape.begin(), shape.end()), values));
  }
  return args;
}

void BM_TransformerBlock(benchmark::State& state) {
  bool fuse = state.range(0) != 0;
  int64_t n = state.range(1);
  ir::IRModule mod = Lowered(fuse);
  auto [kernels, shape_funcs] = CountLaunches(mod);
  codegen::VMCompiled compiled = codegen::CompileForVM(mod);
  rt::vm::VirtualMachine vm(compiled.exec, compiled.library);
  std::vector<rt::Value> args = Inputs(n);
  std::vector<double> samples;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(vm.Invoke("main", args));
    samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  // On a shared machine the mean is mostly other processes' time slices:
  // the minimum and the median say more about the code.
  std::sort(samples.begin(), samples.end());
  state.counters["min_us"] = samples.front();
  state.counters["median_us"] = samples[samples.size() / 2];
  state.counters["kernel_launches"] = kernels;
  state.counters["shape_func_launches"] = shape_funcs;
  state.SetLabel(fuse ? "fused" : "unfused");
}

BENCHMARK(BM_TransformerBlock)
    ->ArgNames({"fuse", "seq_len"})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({0, 512})
    ->Args({1, 512})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
