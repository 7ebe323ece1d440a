// Helpers for the compiled-code checks of the nn / statistical / image /
// einsum legalizations (legalize_nn_codegen_test.cc): legalize a one-call
// module, compile its PrimFunc once with the JIT, and run it on PyTorch
// reference data (tests/data/op_reference, written by
// tests/data/gen_op_reference.py), on slices of that data, or on random
// inputs whose shapes follow the symbolic sizes (compared with the TIR
// interpreter running the same PrimFunc).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../op/legalize_test_util.h"
#include "jit_test_util.h"
#include "rlx/runtime/ndarray.h"

namespace rlx::op_test {

// A legalized op with its PrimFunc compiled once by the JIT.
struct CompiledNNOp {
  LegalizedOp op;
  runtime::Module module;
};

inline CompiledNNOp CompileLegalized(const std::vector<std::pair<std::string, std::string>>& params,
                                     const std::string& call_text, const std::vector<std::string>& sym_vars = {}) {
  LegalizedOp op = LegalizeCall(params, call_text, sym_vars);
  if (!op.func.defined()) return {op, runtime::Module()};
  return {op, codegen_test::Compile(op.func)};
}

// Runs the compiled PrimFunc on `inputs`, writing into `outputs` (their
// shapes chosen by the caller); `tir_vars` are its trailing scalars.
inline std::vector<tir::HostTensor> RunCompiledInto(const CompiledNNOp& compiled,
                                                    const std::vector<tir::HostTensor>& inputs,
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
  compiled.module.GetRequiredFunction("kernel").CallPacked(args);
  std::vector<tir::HostTensor> results;
  for (size_t i = 0; i < outputs.size(); ++i) {
    results.push_back(codegen_test::ToHostTensor(out_arrays[i], outputs[i].dtype));
  }
  return results;
}

// Runs the compiled PrimFunc with outputs shaped by the call's struct info
// at `sizes` (symbolic variable name -> value).
inline std::vector<tir::HostTensor> RunCompiledAt(const CompiledNNOp& compiled,
                                                  const std::vector<tir::HostTensor>& inputs,
                                                  const std::map<std::string, int64_t>& sizes) {
  return RunCompiledInto(compiled, inputs, MakeOutputs(compiled.op, sizes), TirVarValues(compiled.op, sizes));
}

// A reference array (float32 or int64) as a HostTensor.
inline tir::HostTensor LoadOpReference(const std::string& case_name, const std::string& array) {
  runtime::NDArray nd = runtime::NDArray::LoadNpy(std::string(RLX_SOURCE_DIR) + "/tests/data/op_reference/" +
                                                  case_name + "." + array + ".npy");
  std::vector<int64_t> shape(nd.shape().begin(), nd.shape().end());
  if (nd.dtype().code() == runtime::DataType::kInt) {
    tir::HostTensor result(DataType::Int64(), shape);
    std::vector<int64_t> values = nd.ToVector<int64_t>();
    for (size_t i = 0; i < values.size(); ++i) result.SetInt(static_cast<int64_t>(i), values[i]);
    return result;
  }
  std::vector<float> values = nd.ToVector<float>();
  return tir::HostTensor::FromDoubles(DataType::Float32(), shape, std::vector<double>(values.begin(), values.end()));
}

// The first `rows` entries of `tensor` along its dimension 0.
inline tir::HostTensor LeadingRows(const tir::HostTensor& tensor, int64_t rows) {
  std::vector<int64_t> shape = tensor.shape;
  shape[0] = rows;
  tir::HostTensor result(tensor.dtype, shape);
  std::copy(tensor.data.begin(), tensor.data.begin() + static_cast<std::ptrdiff_t>(result.data.size()),
            result.data.begin());
  return result;
}

// `tensor` with its dimensions permuted: result dim d is tensor dim perm[d].
inline tir::HostTensor Permuted(const tir::HostTensor& tensor, const std::vector<int>& perm) {
  std::vector<int64_t> shape;
  for (int p : perm) shape.push_back(tensor.shape[p]);
  tir::HostTensor result(tensor.dtype, shape);
  std::vector<int64_t> source(perm.size());
  for (int64_t flat = 0; flat < result.num_elements(); ++flat) {
    std::vector<int64_t> index = Unflatten(flat, shape);
    for (size_t d = 0; d < perm.size(); ++d) source[perm[d]] = index[d];
    result.SetFloat(flat, tensor.At(source));
  }
  return result;
}

// Sizes 1, an odd middle one and `full` (deduplicated, ascending).
inline std::vector<int64_t> SizesUpTo(int64_t full) {
  std::vector<int64_t> sizes = {1, (full / 2) | 1, full};
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// Expects every element of `actual` within abs_tol + rel * |expected| of
// `expected` (same shape); NaN matches NaN. Reports the worst element.
inline void ExpectAllClose(const tir::HostTensor& actual, const tir::HostTensor& expected, double rel, double abs_tol,
                           const std::string& what) {
  ASSERT_EQ(actual.shape, expected.shape) << what;
  ExpectTensorNear(actual, expected.shape, expected.ToDoubles(), rel, abs_tol, what);
}

}  // namespace rlx::op_test
