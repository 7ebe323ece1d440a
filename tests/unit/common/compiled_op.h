// Legalized one-call modules compiled through LLVM and run, shared by the
// codegen tests of the legalizations (tests/unit/codegen/legalize_*_codegen
// tests): only the codegen tests may include it (they link LLVM).
//
//   CompiledOp op = LegalizeAndCompile({{"x", "R.Tensor((\"n\", 3), dtype=\"float32\")"}}, "R.exp(x)");
//   tir::HostTensor y = RunCompiledAt(op, {x}, {{"n", 7}})[0];
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../codegen/jit_test_util.h"
#include "../op/legalize_test_util.h"
#include "rlx/runtime/ndarray.h"

namespace rlx::op_test {

// A legalized op with its PrimFunc compiled once by the JIT (no module when
// the op legalizes to no PrimFunc).
struct CompiledOp {
  LegalizedOp op;
  runtime::Module module;
};

inline CompiledOp LegalizeAndCompile(const std::vector<std::pair<std::string, std::string>>& params,
                                     const std::string& call_text, const std::vector<std::string>& sym_vars = {}) {
  LegalizedOp op = LegalizeCall(params, call_text, sym_vars);
  if (!op.func.defined()) return {op, runtime::Module()};
  return {op, codegen_test::Compile(op.func)};
}

// Runs `module`'s "kernel" on `inputs`, writing into `outputs` (their shapes
// chosen by the caller); `tir_vars` are its trailing scalars. Returns the
// outputs.
inline std::vector<tir::HostTensor> RunKernel(const runtime::Module& module, const std::vector<tir::HostTensor>& inputs,
                                              const std::vector<tir::HostTensor>& outputs,
                                              const std::vector<int64_t>& tir_vars = {}) {
  std::vector<runtime::Value> args;
  std::vector<runtime::NDArray> out_arrays;
  for (const tir::HostTensor& t : inputs) args.push_back(codegen_test::ToNDArray(t));
  for (const tir::HostTensor& t : outputs) {
    out_arrays.push_back(codegen_test::ToNDArray(t));
    args.push_back(out_arrays.back());
  }
  for (int64_t v : tir_vars) args.push_back(runtime::Value(v));
  module.GetRequiredFunction("kernel").CallPacked(args);
  std::vector<tir::HostTensor> results;
  for (size_t i = 0; i < outputs.size(); ++i) {
    results.push_back(codegen_test::ToHostTensor(out_arrays[i], outputs[i].dtype));
  }
  return results;
}

inline std::vector<tir::HostTensor> RunCompiledInto(const CompiledOp& compiled,
                                                    const std::vector<tir::HostTensor>& inputs,
                                                    const std::vector<tir::HostTensor>& outputs,
                                                    const std::vector<int64_t>& tir_vars = {}) {
  return RunKernel(compiled.module, inputs, outputs, tir_vars);
}

// Runs `module` (compiled from `op`) with outputs shaped by the call's struct
// info at `sizes` (symbolic variable name -> value).
inline std::vector<tir::HostTensor> RunKernelAt(const LegalizedOp& op, const runtime::Module& module,
                                                const std::vector<tir::HostTensor>& inputs,
                                                const std::map<std::string, int64_t>& sizes) {
  return RunKernel(module, inputs, MakeOutputs(op, sizes), TirVarValues(op, sizes));
}

inline std::vector<tir::HostTensor> RunCompiledAt(const CompiledOp& compiled, const std::vector<tir::HostTensor>& inputs,
                                                  const std::map<std::string, int64_t>& sizes) {
  return RunKernelAt(compiled.op, compiled.module, inputs, sizes);
}

}  // namespace rlx::op_test
