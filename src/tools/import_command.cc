// `rlx import`: an ONNX model in, TVMScript out.
//
//   rlx import MODEL.onnx [-o OUT.py] [--input-shape NAME=1,3,h,w ...]
//                         [--keep-params-in-input]
//
// Imports the model with rlx/frontend/onnx.h (dynamic dimensions become
// symbolic variables; --input-shape pins or renames them), checks the module
// is well-formed and prints it; the text parses back with `rlx opt` and
// `rlx build`. Errors (a malformed model, unsupported operators listed
// together, a bad --input-shape) are CompileErrors: message, exit code 1.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <stdexcept>

#include "rlx/frontend/onnx.h"
#include "rlx/graph/well_formed.h"
#include "rlx/text/printer.h"
#include "tools/commands.h"

namespace rlx::tools {

CLI::App* AddImportCommand(CLI::App& app, ImportOptions& options) {
  CLI::App* import = app.add_subcommand("import", "Import an ONNX model and print it as TVMScript");
  import->add_option("input", options.input, "Input ONNX model (.onnx)")->required();
  import->add_option("-o,--output", options.output, "Output file (default: standard output)");
  import->add_option("--input-shape", options.input_shapes,
                     "NAME=1,3,h,w: pin (integers) or name (identifiers) the dimensions of input NAME");
  import->add_flag("--keep-params-in-input", options.keep_params_in_input,
                   "Make the initializers parameters of main instead of constants");
  return import;
}

int RunImportCommand(const ImportOptions& options) {
  frontend::OnnxImportOptions import_options;
  import_options.keep_params_in_input = options.keep_params_in_input;
  for (const auto& spec : options.input_shapes) frontend::ParseInputShapeOption(spec, import_options);
  ir::IRModule mod = frontend::ImportOnnx(options.input, import_options);
  graph::CheckWellFormed(mod);
  std::string text = text::PrintModule(mod);
  if (options.output == "-") {
    std::cout << text;
    return 0;
  }
  std::ofstream file(options.output, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open '" + options.output + "' for writing");
  file << text;
  if (!file.flush()) throw std::runtime_error("cannot write '" + options.output + "'");
  return 0;
}

}  // namespace rlx::tools
