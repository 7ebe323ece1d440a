// Helpers for tests that compile PrimFuncs with the JIT and run them:
// conversions between the interpreter's HostTensor and the runtime's
// NDArray, and running one function both ways on the same inputs.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "codegen_test_util.h"
#include "rlx/codegen/jit.h"
#include "rlx/runtime/module.h"
#include "rlx/runtime/ndarray.h"

namespace rlx::codegen_test {

inline runtime::DataType ToRuntimeType(DataType dtype) {
  switch (dtype.code()) {
    case DataType::kInt:
      return runtime::DataType::Int(dtype.bits(), dtype.lanes());
    case DataType::kUInt:
      return runtime::DataType::UInt(dtype.bits(), dtype.lanes());
    case DataType::kFloat:
      return runtime::DataType::Float(dtype.bits(), dtype.lanes());
    case DataType::kBFloat:
      return runtime::DataType::BFloat16();
    case DataType::kBool:
      return runtime::DataType::Bool();
    case DataType::kHandle:
      return runtime::DataType::Handle();
  }
  return runtime::DataType();
}

inline runtime::NDArray ToNDArray(const tir::HostTensor& tensor) {
  runtime::NDArray array = runtime::NDArray::Empty(tensor.shape, ToRuntimeType(tensor.dtype));
  array.CopyFrom(tensor.data.data(), tensor.data.size());
  return array;
}

inline tir::HostTensor ToHostTensor(const runtime::NDArray& array, DataType dtype) {
  tir::HostTensor tensor(dtype, array.shape());
  array.CopyTo(tensor.data.data(), tensor.data.size());
  return tensor;
}

// The runtime Module holding `func` compiled as `name`.
inline runtime::Module Compile(const PrimFunc& func, const std::string& name = "kernel",
                               const codegen::CodegenOptions& options = {}) {
  return codegen::JitModule::CompileToModule({{name, func}}, options);
}

// Calls `kernel` with `args` (NDArrays and scalars); the RuntimeError
// message, or "<no error>".
template <typename... Args>
std::string RuntimeErrorOf(const runtime::PackedFunc& kernel, Args&&... args) {
  try {
    kernel(std::forward<Args>(args)...);
  } catch (const runtime::RuntimeError& error) {
    return error.what();
  }
  return "<no error>";
}

// Runs `func` through the interpreter and the JIT on copies of `inputs`
// (followed by zero-filled `outputs`), and expects every output element to
// agree within `tolerance` (relative, 0 = exactly; NaNs must match NaNs).
inline void ExpectJitMatchesInterpreter(const PrimFunc& func, const std::vector<tir::HostTensor>& inputs,
                                        const std::vector<tir::HostTensor>& outputs, double tolerance = 0.0,
                                        const std::vector<tir::ArgValue>& scalars = {}) {
  std::vector<tir::HostTensor> interp_inputs = inputs, interp_outputs = outputs;
  std::vector<tir::ArgValue> interp_args;
  for (tir::HostTensor& t : interp_inputs) interp_args.push_back(&t);
  for (tir::HostTensor& t : interp_outputs) interp_args.push_back(&t);
  for (const tir::ArgValue& s : scalars) interp_args.push_back(s);
  tir::RunPrimFunc(func, interp_args);

  runtime::Module module = Compile(func);
  std::vector<runtime::Value> jit_args;
  std::vector<runtime::NDArray> jit_outputs;
  for (const tir::HostTensor& t : inputs) jit_args.push_back(ToNDArray(t));
  for (const tir::HostTensor& t : outputs) {
    jit_outputs.push_back(ToNDArray(t));
    jit_args.push_back(jit_outputs.back());
  }
  for (const tir::ArgValue& s : scalars) {
    if (s.is_int()) jit_args.push_back(runtime::Value(s.int_value()));
    if (s.is_float()) jit_args.push_back(runtime::Value(s.float_value()));
  }
  module.GetRequiredFunction("kernel").CallPacked(jit_args);

  for (size_t o = 0; o < outputs.size(); ++o) {
    tir::HostTensor jit = ToHostTensor(jit_outputs[o], outputs[o].dtype);
    const tir::HostTensor& expected = interp_outputs[o];
    for (int64_t i = 0; i < expected.num_elements(); ++i) {
      double want = expected.GetFloat(i), got = jit.GetFloat(i);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << "output " << o << " element " << i;
        continue;
      }
      EXPECT_NEAR(got, want, tolerance * std::max(1.0, std::fabs(want))) << "output " << o << " element " << i;
    }
  }
}

}  // namespace rlx::codegen_test
