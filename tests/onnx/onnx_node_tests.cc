// onnx_node_tests: runs ONNX's own node tests (Debian's libonnx-testdata,
// /usr/share/libonnx-testdata/data/node/test_*/: model.onnx and
// test_data_set_0/{input,output}_N.pb) through rlx: import, the default
// pipeline, VM code generation with JIT kernels, run, and comparison with
// ONNX's tolerances (|actual - expected| <= 1e-7 + 1e-3 * |expected|, same
// shape and dtype, NaN matches NaN).
//
//   onnx_node_tests DATA_DIR [--expected FILE] [--write-passing FILE]
//                            [--only-expected] [--verbose]
//
// Every test runs in a forked child (an internal check that aborts, or a
// crash, fails that test only; a 60 s alarm bounds it) and is reported as
// pass, fail (with the reason) or unsupported (an operator the importer
// rejects up front), followed by the totals. --expected FILE lists test names
// that must pass (one per line, # comments): the exit code is 1 when one of
// them does not. --only-expected runs just those (the ctest test does this).
// --write-passing FILE writes the names of the passing tests.
//
// Many node tests feed what is normally a constant (a Reshape's target shape,
// Slice's starts, Resize's scales, Pad's pads) as a graph input. When the
// import says such a value must be known at import time, the test is retried
// with its int64 and small (<= 8 elements) inputs bound to the test's values
// (OnnxImportOptions::input_values) and, if it passes, reported as a pass
// with "inputs bound: ..." and counted apart in the totals.
//
// ONNX's test data store bfloat16 tensors as UINT16 TensorProtos (numpy has
// no bfloat16); where the model declares the input or output BFLOAT16, the
// runner reads the uint16 data as bfloat16 bit patterns.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/op/op.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/support/diagnostic.h"
#include "rlx/transform/pipeline.h"

namespace {

namespace fs = std::filesystem;
namespace rt = rlx::runtime;

enum Outcome { kPass = 0, kFail = 1, kUnsupported = 2 };

rt::DataType RuntimeType(rlx::DataType dtype) {
  if (dtype.is_bool()) return rt::DataType(rt::DataType::kBool, 8);
  if (dtype.is_bfloat16()) return rt::DataType::BFloat16();
  if (dtype.is_float()) return rt::DataType::Float(dtype.bits());
  if (dtype.is_int()) return rt::DataType::Int(dtype.bits());
  return rt::DataType::UInt(dtype.bits());
}

rt::NDArray ToNDArray(const rlx::graph::TensorData& data) {
  rt::NDArray array = rt::NDArray::Empty(rt::ShapeTuple(data.shape.begin(), data.shape.end()), RuntimeType(data.dtype));
  array.CopyFrom(data.bytes.data(), data.bytes.size());
  return array;
}

double Element(const rt::NDArray& array, int64_t i) {
  const char* p = static_cast<const char*>(array.data());
  rt::DataType t = array.dtype();
  auto load = [&](auto typed) {
    std::memcpy(&typed, p + i * static_cast<int64_t>(sizeof(typed)), sizeof(typed));
    return static_cast<double>(typed);
  };
  if (t == rt::DataType::Float(32)) return load(float{});
  if (t == rt::DataType::Float(64)) return load(double{});
  if (t == rt::DataType::Float(16) || t == rt::DataType::BFloat16()) {
    uint16_t bits;
    std::memcpy(&bits, p + i * 2, 2);
    if (t == rt::DataType::BFloat16()) {
      uint32_t wide = static_cast<uint32_t>(bits) << 16;
      float value;
      std::memcpy(&value, &wide, 4);
      return value;
    }
    int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
    double value = exponent == 0 ? std::ldexp(mantissa, -24)
                   : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                    : std::ldexp(mantissa | 0x400, exponent - 25);
    return (bits & 0x8000) ? -value : value;
  }
  if (t == rt::DataType::Int(64)) return load(int64_t{});
  if (t == rt::DataType::Int(32)) return load(int32_t{});
  if (t == rt::DataType::Int(16)) return load(int16_t{});
  if (t == rt::DataType::Int(8)) return load(int8_t{});
  if (t == rt::DataType::UInt(64)) return load(uint64_t{});
  if (t == rt::DataType::UInt(32)) return load(uint32_t{});
  if (t == rt::DataType::UInt(16)) return load(uint16_t{});
  return load(uint8_t{});  // uint8, bool
}

// Empty when equal within ONNX's tolerances, else why not.
std::string Compare(const rt::NDArray& actual, const rt::NDArray& expected) {
  if (!(actual.dtype() == expected.dtype())) return "dtype differs";
  if (actual.shape() != expected.shape()) return "shape differs";
  rt::NDArray a = actual.IsContiguous() ? actual : actual.Clone();
  for (int64_t i = 0; i < expected.NumElements(); ++i) {
    double x = Element(a, i), y = Element(expected, i);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x == y) continue;
    if (!(std::fabs(x - y) <= 1e-7 + 1e-3 * std::fabs(y))) {
      return "element " + std::to_string(i) + ": " + std::to_string(x) + " vs " + std::to_string(y);
    }
  }
  return "";
}

std::vector<fs::path> DataFiles(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> files;
  for (int i = 0;; ++i) {
    fs::path path = dir / (prefix + std::to_string(i) + ".pb");
    if (!fs::exists(path)) break;
    files.push_back(path);
  }
  return files;
}

void Flatten(const rt::Value& value, std::vector<rt::Value>* out) {
  if (value.kind() == rt::Value::Kind::kArray) {
    for (const auto& field : value.AsArray()) Flatten(field, out);
  } else {
    out->push_back(value);
  }
}

// Does the import error say an input must be known at import time?
bool NeedsKnownInputs(const std::string& message) {
  return message.find("known at import time") != std::string::npos ||
         message.find("computed at run time") != std::string::npos;
}

// The model's graph inputs (without initializers) and outputs: names and
// element types, in order.
struct GraphSignature {
  std::vector<std::string> input_names;
  std::vector<int> input_types, output_types;
};

GraphSignature ReadSignature(const fs::path& model) {
  onnx::ModelProto proto;
  std::ifstream file(model, std::ios::binary);
  proto.ParseFromIstream(&file);
  std::set<std::string> initializers;
  for (const auto& init : proto.graph().initializer()) initializers.insert(init.name());
  GraphSignature signature;
  for (const auto& input : proto.graph().input()) {
    if (initializers.count(input.name())) continue;
    signature.input_names.push_back(input.name());
    signature.input_types.push_back(input.type().tensor_type().elem_type());
  }
  for (const auto& output : proto.graph().output()) signature.output_types.push_back(output.type().tensor_type().elem_type());
  return signature;
}

// Test data as the model declares it: uint16 data of a BFLOAT16 value are
// bfloat16 bit patterns (see the top).
rlx::graph::TensorDataPtr AsDeclaredType(rlx::graph::TensorDataPtr data, const std::vector<int>& types, size_t index) {
  if (index >= types.size() || types[index] != onnx::TensorProto::BFLOAT16) return data;
  if (!(data->dtype == rlx::DataType::UInt(16))) return data;
  auto copy = std::make_shared<rlx::graph::TensorData>(*data);
  copy->dtype = rlx::DataType::BFloat16();
  return copy;
}

// Runs one test in the current process; writes the reason to `reason`.
// When the import needs values that the test feeds as graph inputs (a
// Reshape's target, Slice's starts, Resize's scales), it is retried with
// every int64 input and every input of at most 8 elements bound to its test
// value (OnnxImportOptions::input_values); `bound` then names them.
Outcome RunTest(const fs::path& test_dir, std::string& reason, std::string& bound) {
  fs::path data = test_dir / "test_data_set_0";
  std::vector<rlx::graph::TensorDataPtr> inputs;
  std::string model = (test_dir / "model.onnx").string();
  GraphSignature signature = ReadSignature(model);
  auto read_inputs = [&] {
    inputs.clear();
    for (const auto& path : DataFiles(data, "input_")) {
      inputs.push_back(AsDeclaredType(rlx::frontend::ReadOnnxTensorFile(path.string()), signature.input_types,
                                      inputs.size()));
    }
  };
  rlx::ir::IRModule mod;
  rlx::frontend::OnnxImportOptions options;
  try {
    mod = rlx::frontend::ImportOnnx(model);
    read_inputs();
  } catch (const rlx::CompileError& error) {
    reason = error.what();
    if (reason.find("unsupported ONNX operator") != std::string::npos) return kUnsupported;
    if (!NeedsKnownInputs(reason)) return kFail;
    read_inputs();
    const std::vector<std::string>& names = signature.input_names;
    for (size_t i = 0; i < names.size() && i < inputs.size(); ++i) {
      if (inputs[i]->dtype == rlx::DataType::Int64() || inputs[i]->NumElements() <= 8) {
        options.input_values[names[i]] = inputs[i];
        bound += (bound.empty() ? "" : ", ") + names[i];
      }
    }
    try {
      mod = rlx::frontend::ImportOnnx(model, options);
    } catch (const rlx::CompileError& retry_error) {
      reason = retry_error.what();
      return kFail;
    }
  }
  std::vector<rt::Value> args;
  const std::vector<std::string>& names = signature.input_names;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i < names.size() && options.input_values.count(names[i])) continue;
    args.emplace_back(ToNDArray(*inputs[i]));
  }
  rlx::codegen::VMCompiled compiled = rlx::codegen::CompileForVM(rlx::transform::DefaultPipeline()(mod));
  rt::vm::VirtualMachine vm(compiled.exec, compiled.library);
  std::vector<rt::Value> outputs;
  Flatten(vm.Invoke("main", args), &outputs);
  std::vector<fs::path> expected = DataFiles(data, "output_");
  if (outputs.size() != expected.size()) {
    reason = std::to_string(outputs.size()) + " outputs, expected " + std::to_string(expected.size());
    return kFail;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].kind() != rt::Value::Kind::kNDArray) {
      reason = "output " + std::to_string(i) + " is not a tensor";
      return kFail;
    }
    rlx::graph::TensorDataPtr want =
        AsDeclaredType(rlx::frontend::ReadOnnxTensorFile(expected[i].string()), signature.output_types, i);
    std::string diff = Compare(outputs[i].AsNDArray(), ToNDArray(*want));
    if (!diff.empty()) {
      reason = "output " + std::to_string(i) + ": " + diff;
      return kFail;
    }
  }
  return kPass;
}

// Forks, runs the test in the child, and reads back the outcome.
Outcome RunIsolated(const fs::path& test_dir, std::string& reason) {
  int fds[2];
  if (pipe(fds) != 0) return kFail;
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    alarm(60);
    std::string why, bound;
    Outcome outcome = kFail;
    try {
      outcome = RunTest(test_dir, why, bound);
    } catch (const std::exception& error) {
      why = error.what();
    }
    why = why.substr(0, why.find('\n'));
    if (outcome == kPass) why = bound.empty() ? "" : "inputs bound: " + bound;
    ssize_t ignored = write(fds[1], why.data(), why.size());
    (void)ignored;
    close(fds[1]);
    _exit(outcome);
  }
  close(fds[1]);
  char buffer[4096];
  ssize_t n;
  reason.clear();
  while ((n = read(fds[0], buffer, sizeof(buffer))) > 0) reason.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) {
    reason = "crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
    return kFail;
  }
  int code = WEXITSTATUS(status);
  return code == kPass ? kPass : code == kUnsupported ? kUnsupported : kFail;
}

std::set<std::string> ReadList(const std::string& path) {
  std::set<std::string> names;
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    line.erase(std::find(line.begin(), line.end(), '#'), line.end());
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (!line.empty()) names.insert(line);
  }
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: onnx_node_tests DATA_DIR [--expected FILE] [--write-passing FILE] [--only-expected] [--verbose]\n";
    return 2;
  }
  fs::path data_dir = argv[1];
  std::string expected_path, passing_path;
  bool only_expected = false, verbose = false;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--expected" && i + 1 < argc) expected_path = argv[++i];
    else if (arg == "--write-passing" && i + 1 < argc) passing_path = argv[++i];
    else if (arg == "--only-expected") only_expected = true;
    else if (arg == "--verbose") verbose = true;
  }
  rlx::op::RegisterAllOps();
  std::set<std::string> expected = expected_path.empty() ? std::set<std::string>{} : ReadList(expected_path);
  std::vector<fs::path> tests;
  for (const auto& entry : fs::directory_iterator(data_dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("test_", 0) != 0 || !fs::exists(entry.path() / "model.onnx")) continue;
    if (only_expected && !expected.count(name)) continue;
    tests.push_back(entry.path());
  }
  std::sort(tests.begin(), tests.end());
  std::vector<std::string> passing, regressions;
  int failed = 0, unsupported = 0, bound = 0;
  for (const fs::path& test : tests) {
    std::string name = test.filename().string();
    std::string reason;
    Outcome outcome = RunIsolated(test, reason);
    if (outcome == kPass) passing.push_back(name);
    if (outcome == kPass && !reason.empty()) ++bound;
    if (outcome == kFail) ++failed;
    if (outcome == kUnsupported) ++unsupported;
    if (outcome != kPass && expected.count(name)) regressions.push_back(name);
    const char* label = outcome == kPass ? "pass" : outcome == kFail ? "FAIL" : "unsupported";
    std::cout << label << " " << name;
    if (!reason.empty() && (verbose || outcome != kUnsupported)) std::cout << " (" << reason << ")";
    std::cout << "\n";
  }
  std::cout << "total " << tests.size() << ": " << passing.size() << " pass (" << bound
            << " of them with parameter-like inputs bound), " << failed << " fail, " << unsupported << " unsupported\n";
  if (!passing_path.empty()) {
    std::ofstream out(passing_path);
    out << "# ONNX node tests (libonnx-testdata 1.12) that rlx passes; written by onnx_node_tests --write-passing\n";
    for (const auto& name : passing) out << name << "\n";
  }
  for (const auto& name : expected) {
    if (!std::count(passing.begin(), passing.end(), name) &&
        !std::count(regressions.begin(), regressions.end(), name)) {
      regressions.push_back(name + " (not found)");
    }
  }
  if (!regressions.empty()) {
    std::cout << regressions.size() << " expected test(s) no longer pass:\n";
    for (const auto& name : regressions) std::cout << "  " << name << "\n";
    return 1;
  }
  return 0;
}
