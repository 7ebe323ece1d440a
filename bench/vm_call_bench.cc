// VM call overhead: invoking functions that do (almost) nothing, so the time
// is the interpreter's own (name lookup, frame set-up, dispatch, return).
// Target: an empty function call well under 1 microsecond.
#include <benchmark/benchmark.h>

#include "rlx/runtime/vm/exec_builder.h"
#include "rlx/runtime/vm/vm.h"

namespace {

using namespace rlx::runtime;
using namespace rlx::runtime::vm;
using Arg = Instruction::Arg;

std::shared_ptr<Executable> BuildExecutable() {
  ExecBuilder b;
  // identity(x): ret %0
  b.EmitFunction("identity", 1, {"x"});
  b.EmitRet(0);
  b.EndFunction("identity");
  // one_call(x): one builtin call, then ret
  b.EmitFunction("one_call", 1, {"x"});
  b.EmitCall("vm.builtin.copy", {Arg::Register(0)}, 1);
  b.EmitRet(1);
  b.EndFunction("one_call");
  // nested(x): a VM-to-VM call
  b.EmitFunction("nested", 1, {"x"});
  b.EmitCall("identity", {Arg::Register(0)}, 1);
  b.EmitRet(1);
  b.EndFunction("nested");
  return b.Get();
}

void RunInvoke(benchmark::State& state, const char* name) {
  VirtualMachine vm(BuildExecutable());
  std::vector<Value> args{Value(NDArray::Empty({4}, DataType::Float(32)))};
  for (auto _ : state) benchmark::DoNotOptimize(vm.Invoke(name, args));
}

void BM_VMInvokeEmpty(benchmark::State& state) { RunInvoke(state, "identity"); }
void BM_VMInvokeOneBuiltin(benchmark::State& state) { RunInvoke(state, "one_call"); }
void BM_VMInvokeNested(benchmark::State& state) { RunInvoke(state, "nested"); }

// Through a PackedFunc handle (no name lookup).
void BM_VMPackedFuncEmpty(benchmark::State& state) {
  VirtualMachine vm(BuildExecutable());
  PackedFunc identity = vm.GetFunction("identity");
  Value x(NDArray::Empty({4}, DataType::Float(32)));
  for (auto _ : state) benchmark::DoNotOptimize(identity(x));
}

BENCHMARK(BM_VMInvokeEmpty);
BENCHMARK(BM_VMInvokeOneBuiltin);
BENCHMARK(BM_VMInvokeNested);
BENCHMARK(BM_VMPackedFuncEmpty);

}  // namespace

BENCHMARK_MAIN();
