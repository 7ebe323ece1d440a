// `rlx run`: load a compiled model (or compile a module in process) and run
// one of its functions on the VM.
//
//   rlx run FILE.so|FILE.py [--entry main] [--input NAME=VALUE ...]
//                           [--output PATH.npy ...] [--bench N]
//
// Every parameter of the entry function needs an --input (named as in the
// function; a missing or unknown name is an error listing the parameters).
// VALUE (kInputSyntax below, also in `rlx run --help`) is a tensor
// (PATH.npy), a tuple of tensors (A.npy,B.npy or tuple:A.npy,...), an
// integer for R.Prim("int64") (5 or int:5), a float for R.Prim("float32")
// (2.5 or float:2.5) or a shape for R.Shape (2,3 or shape:2,3; shape:5 for
// one dimension, shape: for none). Malformed values (a non-integer, a
// negative dimension) are errors naming the parameter; a value of the wrong
// kind or count is rejected by the function's own parameter checks, whose
// message names the parameter and its annotation.
// The result (a tensor, or a tuple of tensors, possibly nested) is flattened
// in order: with --output, one .npy per tensor (the counts must agree);
// without, one line per output with its shape, dtype and a short summary.
// --bench N runs the function N more times and prints the median latency.
// --profile times every call the VM makes during those runs (or one more
// run without --bench) and prints a table per callee: calls, total time,
// share and time per call, most expensive first.
// A .py file is parsed, lowered by the default pipeline and compiled in
// process (VMCodeGen + JIT); an operator the pipeline cannot lower yet is a
// code-generation error that names it.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/runtime/memory_debug.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/text/parser.h"
#include "rlx/transform/pipeline.h"
#include "tools/commands.h"

namespace rlx::tools {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct LoadedModel {
  std::shared_ptr<const rvm::Executable> exec;
  rt::Module library;
};

LoadedModel LoadModel(const std::string& path, bool no_library_dispatch) {
  LoadedModel model;
  if (EndsWith(path, ".py") || EndsWith(path, ".onnx")) {
    ir::IRModule mod = EndsWith(path, ".onnx") ? frontend::ImportOnnx(path) : text::ParseModule(text::ReadSourceFile(path));
    transform::PassContext ctx;
    if (no_library_dispatch) {
      ctx.disabled_passes.push_back("dispatch-library");
      ctx.disabled_passes.push_back("convert-layout");  // only for the library calls
    }
    codegen::VMCompiled compiled = codegen::CompileForVM(transform::DefaultPipeline()(mod, ctx));
    model.exec = compiled.exec;
    model.library = compiled.library;
  } else {
    model.exec = rvm::Executable::LoadFromLibrary(path, &model.library);
  }
  return model;
}

std::string Join(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

constexpr const char* kInputSyntax =
    "NAME=VALUE for each parameter of the entry function. VALUE is PATH.npy (a tensor), "
    "A.npy,B.npy or tuple:A.npy,B.npy (a tuple of tensors; tuple: is the empty tuple), "
    "5 or int:5 (R.Prim(\"int64\")), 2.5 or float:2.5 (R.Prim(\"float32\")), "
    "2,3 or shape:2,3 (R.Shape; shape:5 for one dimension, shape: for none)";

bool StartsWith(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

std::runtime_error BadInput(const std::string& name, const std::string& text, const std::string& why) {
  return std::runtime_error("--input " + name + "=" + text + ": " + why);
}

bool IsInteger(const std::string& text) {
  size_t digits = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  return text.size() > digits && text.find_first_not_of("0123456789", digits) == std::string::npos;
}

int64_t ParseInteger(const std::string& name, const std::string& text, const std::string& item) {
  if (!IsInteger(item)) throw BadInput(name, text, "'" + item + "' is not an integer");
  try {
    return std::stoll(item);
  } catch (const std::out_of_range&) {
    throw BadInput(name, text, "'" + item + "' does not fit in int64");
  }
}

double ParseFloat(const std::string& name, const std::string& text, const std::string& item) {
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(item, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (item.empty() || used != item.size()) throw BadInput(name, text, "'" + item + "' is not a number");
  return value;
}

rt::Value ParseShape(const std::string& name, const std::string& text, const std::string& dims) {
  rt::ShapeTuple shape;
  for (const std::string& item : SplitCommas(dims)) {
    int64_t dim = ParseInteger(name, text, item);
    if (dim < 0) throw BadInput(name, text, "shape dimension " + item + " is negative");
    shape.push_back(dim);
  }
  return rt::Value(std::move(shape));
}

rt::Value ParseTuple(const std::string& name, const std::string& text, const std::string& paths) {
  std::vector<rt::Value> fields;
  for (const std::string& path : SplitCommas(paths)) {
    if (!EndsWith(path, ".npy")) throw BadInput(name, text, "tuple field '" + path + "' is not a .npy file");
    fields.emplace_back(rt::NDArray::LoadNpy(path));
  }
  return rt::Value(std::move(fields));
}

// The run-time value of `--input name=text` (kInputSyntax).
rt::Value ParseInputValue(const std::string& name, const std::string& text) {
  if (StartsWith(text, "shape:")) return ParseShape(name, text, text.substr(6));
  if (StartsWith(text, "tuple:")) return ParseTuple(name, text, text.substr(6));
  if (StartsWith(text, "int:")) return rt::Value(ParseInteger(name, text, text.substr(4)));
  if (StartsWith(text, "float:")) return rt::Value(ParseFloat(name, text, text.substr(6)));
  if (text.find(',') != std::string::npos) {
    std::vector<std::string> items = SplitCommas(text);
    bool any_npy = std::any_of(items.begin(), items.end(), [](const std::string& item) { return EndsWith(item, ".npy"); });
    return any_npy ? ParseTuple(name, text, text) : ParseShape(name, text, text);
  }
  if (EndsWith(text, ".npy")) return rt::Value(rt::NDArray::LoadNpy(text));
  if (IsInteger(text)) return rt::Value(ParseInteger(name, text, text));
  if (!text.empty() && text.find_first_of("0123456789") != std::string::npos &&
      text.find_first_not_of("0123456789+-.eE") == std::string::npos) {
    return rt::Value(ParseFloat(name, text, text));
  }
  throw BadInput(name, text,
                 "not a value (expected PATH.npy, A.npy,B.npy, an integer, a float or a shape such as 2,3 or shape:5)");
}

std::vector<rt::Value> ReadInputs(const rvm::VirtualMachine& vm, const RunOptions& options) {
  std::vector<std::string> functions = vm.GetFunctionNames();
  if (std::find(functions.begin(), functions.end(), options.entry) == functions.end()) {
    throw std::runtime_error("the model has no function '" + options.entry + "' (functions: " + Join(functions) +
                             "; a function is named by its global_symbol)");
  }
  const std::vector<std::string>& params = vm.GetParamNames(options.entry);
  std::map<std::string, std::string> paths;
  for (const auto& spec : options.inputs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw std::runtime_error("--input expects NAME=VALUE (PATH.npy, an integer, a shape 2,3, ...), got '" + spec +
                               "'");
    }
    std::string name = spec.substr(0, eq);
    // An ONNX input name ("input.1") finds its sanitized parameter ("input_1").
    if (std::find(params.begin(), params.end(), name) == params.end()) {
      std::string sanitized = frontend::SanitizeOnnxName(name);
      if (std::find(params.begin(), params.end(), sanitized) != params.end()) name = sanitized;
    }
    if (std::find(params.begin(), params.end(), name) == params.end()) {
      throw std::runtime_error("function '" + options.entry + "' has no parameter '" + name + "' (parameters: " +
                               Join(params) + ")");
    }
    if (!paths.emplace(name, spec.substr(eq + 1)).second) {
      throw std::runtime_error("parameter '" + name + "' given twice");
    }
  }
  std::vector<rt::Value> args;
  for (const auto& param : params) {
    auto it = paths.find(param);
    if (it == paths.end()) {
      throw std::runtime_error("missing input for parameter '" + param + "' of '" + options.entry +
                               "' (give --input " + param + "=VALUE; parameters: " + Join(params) + ")");
    }
    args.push_back(ParseInputValue(param, it->second));
  }
  return args;
}

void FlattenOutputs(const rt::Value& value, std::vector<rt::Value>* outputs) {
  if (value.kind() == rt::Value::Kind::kArray) {
    for (const auto& field : value.AsArray()) FlattenOutputs(field, outputs);
  } else {
    outputs->push_back(value);
  }
}

// "min -1.5 max 3 mean 0.25" for floating and integer tensors.
std::string Summary(const rt::NDArray& array) {
  rt::NDArray host = array.IsContiguous() ? array : array.Clone();
  int64_t n = host.NumElements();
  if (n == 0) return "empty";
  auto dtype = host.dtype();
  auto element = [&](int64_t i) -> double {
    const char* data = static_cast<const char*>(host.data());
    if (dtype == rt::DataType::Float(32)) return reinterpret_cast<const float*>(data)[i];
    if (dtype == rt::DataType::Float(64)) return reinterpret_cast<const double*>(data)[i];
    if (dtype == rt::DataType::Int(32)) return reinterpret_cast<const int32_t*>(data)[i];
    if (dtype == rt::DataType::Int(64)) return static_cast<double>(reinterpret_cast<const int64_t*>(data)[i]);
    return std::nan("");
  };
  if (std::isnan(element(0)) && dtype != rt::DataType::Float(32) && dtype != rt::DataType::Float(64)) return "";
  double lo = element(0), hi = element(0), sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = element(i);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  std::ostringstream out;
  out << "min " << lo << " max " << hi << " mean " << sum / static_cast<double>(n);
  return out.str();
}

void WriteOrPrintOutputs(const std::vector<rt::Value>& outputs, const RunOptions& options) {
  if (!options.outputs.empty()) {
    if (options.outputs.size() != outputs.size()) {
      throw std::runtime_error("'" + options.entry + "' returned " + std::to_string(outputs.size()) +
                               " outputs, but " + std::to_string(options.outputs.size()) + " --output paths were given");
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (outputs[i].kind() != rt::Value::Kind::kNDArray) {
        throw std::runtime_error("output " + std::to_string(i) + " is a " + outputs[i].type_name() +
                                 ", not a tensor; it cannot be written as .npy");
      }
      outputs[i].AsNDArray().SaveNpy(options.outputs[i]);
    }
    return;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::cout << "output[" << i << "]: ";
    if (outputs[i].kind() == rt::Value::Kind::kNDArray) {
      const rt::NDArray& array = outputs[i].AsNDArray();
      std::cout << rt::ShapeToString(array.shape()) << " " << array.dtype().ToString();
      std::string summary = Summary(array);
      if (!summary.empty()) std::cout << " " << summary;
    } else {
      std::cout << outputs[i].ToString();
    }
    std::cout << "\n";
  }
}

void Benchmark(rvm::VirtualMachine& vm, const std::vector<rt::Value>& args, const RunOptions& options) {
  std::vector<double> micros;
  for (int i = 0; i < options.bench; ++i) {
    auto start = std::chrono::steady_clock::now();
    vm.Invoke(options.entry, args);
    auto end = std::chrono::steady_clock::now();
    micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  std::sort(micros.begin(), micros.end());
  double median = micros[micros.size() / 2];
  if (micros.size() % 2 == 0) median = (micros[micros.size() / 2 - 1] + micros[micros.size() / 2]) / 2;
  std::cout << "bench: " << options.bench << " runs of '" << options.entry << "', median " << median << " us (min "
            << micros.front() << " us, max " << micros.back() << " us)\n";
}

void PrintProfile(const std::vector<rvm::VirtualMachine::CallProfile>& report, int runs) {
  int64_t total_ns = 0;
  for (const auto& entry : report) total_ns += entry.total_ns;
  std::cout << "profile: " << runs << " run(s), calls made by the VM (a VM function includes its callees)\n";
  std::cout << "      total ms   share   calls/run   us/call  callee\n";
  for (const auto& entry : report) {
    double ms = static_cast<double>(entry.total_ns) / 1e6 / runs;
    double share = total_ns > 0 ? 100.0 * static_cast<double>(entry.total_ns) / static_cast<double>(total_ns) : 0.0;
    double per_call_us = static_cast<double>(entry.total_ns) / 1e3 / static_cast<double>(entry.calls);
    char line[160];
    std::snprintf(line, sizeof(line), "  %12.3f  %5.1f%%  %10.1f  %8.1f  ", ms, share,
                  static_cast<double>(entry.calls) / runs, per_call_us);
    std::cout << line << entry.name << "\n";
  }
}

}  // namespace

CLI::App* AddRunCommand(CLI::App& app, RunOptions& options) {
  CLI::App* run = app.add_subcommand("run", "Run a function of a compiled model (.so) or a lowered module (.py) on the VM");
  run->add_option("model", options.model, "A shared library built by rlx, or a TVMScript file")->required();
  run->add_option("--entry", options.entry, "The function to run (default main)");
  run->add_option("--input", options.inputs, kInputSyntax);
  run->add_option("--output", options.outputs, "PATH.npy for each output, in order");
  run->add_option("--bench", options.bench, "Run N more times and print the median latency")->check(CLI::PositiveNumber);
  run->add_flag("--profile", options.profile,
                "Time every call the VM makes during the --bench runs (or one extra run) and print a table per callee");
  run->add_flag("--debug-memory", options.debug_memory,
                "Check at run time that no two live tensors share bytes and fill released memory with NaN "
                "(as RLX_DEBUG_MEMORY=1)");
  run->add_flag("--no-library-dispatch", options.no_library_dispatch,
                "For .py/.onnx: convolutions and matmuls as generated kernels instead of oneDNN calls");
  return run;
}

int RunRunCommand(const RunOptions& options) {
  if (options.debug_memory) rt::SetMemoryDebug(true);
  LoadedModel model = LoadModel(options.model, options.no_library_dispatch);
  rvm::VirtualMachine vm(model.exec, model.library);
  std::vector<rt::Value> args = ReadInputs(vm, options);
  rt::Value result = vm.Invoke(options.entry, args);
  std::vector<rt::Value> outputs;
  FlattenOutputs(result, &outputs);
  WriteOrPrintOutputs(outputs, options);
  if (options.profile) vm.EnableProfiling(true);
  if (options.bench > 0) Benchmark(vm, args, options);
  if (options.profile) {
    if (options.bench == 0) vm.Invoke(options.entry, args);
    PrintProfile(vm.ProfileReport(), std::max(options.bench, 1));
  }
  return 0;
}

}  // namespace rlx::tools
