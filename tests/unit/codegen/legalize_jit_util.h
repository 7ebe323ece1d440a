// Running a one-call legalization three ways -- the TIR interpreter and
// the LLVM JIT with and without the default CPU schedule -- on the same
// input, for the compiled-code tests of single-input operators
// (legalize_sort_codegen_test.cc, legalize_resize_codegen_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../op/legalize_test_util.h"
#include "jit_test_util.h"

namespace rlx::op_test {

// A legalized call of one parameter `x` and its kernel compiled twice.
struct Compiled {
  LegalizedOp op;
  runtime::Module scheduled, unscheduled;
};

inline Compiled LegalizeAndCompile(const std::string& param_type, const std::string& call) {
  LegalizedOp op = LegalizeCall({{"x", param_type}}, call);
  codegen::CodegenOptions unscheduled;
  unscheduled.schedule = false;
  return {op, codegen_test::Compile(op.func, "kernel"), codegen_test::Compile(op.func, "kernel", unscheduled)};
}

inline std::vector<tir::HostTensor> RunCompiled(const LegalizedOp& op, const runtime::Module& module,
                                         const tir::HostTensor& x, const std::map<std::string, int64_t>& sizes) {
  std::vector<tir::HostTensor> outputs = MakeOutputs(op, sizes);
  std::vector<runtime::Value> args = {codegen_test::ToNDArray(x)};
  std::vector<runtime::NDArray> arrays;
  for (const tir::HostTensor& t : outputs) {
    arrays.push_back(codegen_test::ToNDArray(t));
    args.push_back(arrays.back());
  }
  for (int64_t v : TirVarValues(op, sizes)) args.push_back(runtime::Value(v));
  module.GetRequiredFunction("kernel").CallPacked(args);
  std::vector<tir::HostTensor> results;
  for (size_t k = 0; k < outputs.size(); ++k) results.push_back(codegen_test::ToHostTensor(arrays[k], outputs[k].dtype));
  return results;
}

// Runs the interpreter and both compilations; output k must equal expected[k]
// and have dtype dtypes[k].
inline void ExpectAllRuns(const Compiled& compiled, const tir::HostTensor& x, const std::map<std::string, int64_t>& sizes,
                   const std::vector<ExpectedTensor>& expected, const std::vector<DataType>& dtypes,
                   const std::string& what, double rel = 0, double abs_tol = 0) {
  std::vector<std::pair<std::string, std::vector<tir::HostTensor>>> runs = {
      {"interpreter", RunLegalizedMulti(compiled.op, {x}, sizes)},
      {"scheduled", RunCompiled(compiled.op, compiled.scheduled, x, sizes)},
      {"unscheduled", RunCompiled(compiled.op, compiled.unscheduled, x, sizes)}};
  std::string at;
  for (const auto& [name, value] : sizes) at += " " + name + "=" + std::to_string(value);
  for (const auto& [run, outputs] : runs) {
    ASSERT_EQ(outputs.size(), expected.size()) << what << at << " " << run;
    for (size_t k = 0; k < expected.size(); ++k) {
      std::string where = what + at + " (" + run + ") output " + std::to_string(k);
      EXPECT_EQ(outputs[k].dtype, dtypes[k]) << where;
      ExpectTensorNear(outputs[k], expected[k].shape, expected[k].values, rel, abs_tol, where);
    }
  }
}

}  // namespace rlx::op_test
