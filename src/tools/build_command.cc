// `rlx build`: TVMScript (or an ONNX model, by the .onnx extension, imported
// by rlx/frontend/onnx.h) in, one shared library out (kernels + VM bytecode).
//
//   rlx build FILE -o OUT.so [--target host|generic|<cpu>] [--opt-level N]
//                            [--print-ir-after-all] [--time-passes]
//
// Reads the module, checks it is well-formed, runs the default pipeline
// (rlx/transform/pipeline.h: graph clean-ups, legalization, lowering to the
// VM), then VM code generation and LLVM code generation of every PrimFunc,
// written as one shared library by codegen::ExportVMLibrary. --opt-level
// sets both the pipeline's PassContext opt level and LLVM's (0..3).
// --target picks the CPU the kernels are compiled for: "host" (default) the
// machine's own, "generic" the baseline ISA, anything else an LLVM CPU name.
// Errors are CompileErrors (message on stderr, exit code 1).
#include <CLI/CLI.hpp>

#include <iostream>
#include <stdexcept>

#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/graph/well_formed.h"
#include "rlx/text/parser.h"
#include "rlx/transform/passes.h"
#include "rlx/transform/pipeline.h"
#include "tools/commands.h"

namespace rlx::tools {
namespace {

codegen::CodegenOptions MakeCodegenOptions(const BuildOptions& options) {
  codegen::CodegenOptions codegen_options;
  codegen_options.opt_level = options.opt_level;
  if (options.target != "host") codegen_options.cpu = options.target;
  return codegen_options;
}

transform::PassContext MakeContext(const BuildOptions& options) {
  transform::PassContext ctx;
  ctx.opt_level = options.opt_level;
  ctx.instruments.push_back(transform::MakeWellFormedCheckInstrument());
  if (options.print_ir_after_all) ctx.instruments.push_back(transform::MakePrintIRAfterAllInstrument(std::cerr));
  if (options.time_passes) ctx.instruments.push_back(std::make_shared<transform::PassTimingInstrument>(&std::cerr));
  if (options.verify_memory_plan) {
    ctx.config = ir::DictWith(ctx.config, transform::kVerifyMemoryPlanConfig, ir::MakeInt(1, DataType::Bool()));
  }
  if (options.no_library_dispatch) {
    ctx.disabled_passes.push_back("dispatch-library");
    ctx.disabled_passes.push_back("convert-layout");  // only for the library calls
  }
  return ctx;
}

}  // namespace

CLI::App* AddBuildCommand(CLI::App& app, BuildOptions& options) {
  CLI::App* build = app.add_subcommand("build", "Compile a TVMScript module into a shared library the VM runs");
  build->add_option("input", options.input, "Input TVMScript file, or an ONNX model (.onnx)")->required();
  build->add_option("--input-shape", options.input_shapes,
                    "For .onnx models: NAME=1,3,h,w pins (integers) or names (identifiers) the input's dimensions");
  build->add_option("-o,--output", options.output, "Output shared library (.so)")->required();
  build->add_option("--target", options.target, "CPU to compile kernels for: host (default), generic, or an LLVM CPU name");
  build->add_option("--opt-level", options.opt_level, "Optimization level 0..3 of the pipeline and of LLVM (default 3)")
      ->check(CLI::Range(0, 3));
  build->add_flag("--print-ir-after-all", options.print_ir_after_all, "Print the module to stderr after every pass");
  build->add_flag("--time-passes", options.time_passes, "Print the wall time of every pass to stderr");
  build->add_flag("--verify-memory-plan", options.verify_memory_plan,
                  "Check that static-plan-block-memory never gives bytes to two tensors alive at once");
  build->add_flag("--no-library-dispatch", options.no_library_dispatch,
                  "Compile convolutions and matmuls to generated kernels instead of oneDNN calls (dispatch-library)");
  return build;
}

int RunBuildCommand(const BuildOptions& options) {
  ir::IRModule mod;
  if (options.input.size() > 5 && options.input.substr(options.input.size() - 5) == ".onnx") {
    frontend::OnnxImportOptions import_options;
    for (const auto& spec : options.input_shapes) frontend::ParseInputShapeOption(spec, import_options);
    mod = frontend::ImportOnnx(options.input, import_options);
  } else {
    if (!options.input_shapes.empty()) throw std::runtime_error("--input-shape applies to .onnx models only");
    mod = text::ParseModule(text::ReadSourceFile(options.input));
  }
  graph::CheckWellFormed(mod);
  transform::PassContext ctx = MakeContext(options);
  {
    transform::PassContextScope scope(ctx);
    mod = transform::DefaultPipeline()(mod, ctx);
  }
  codegen::ExportVMLibrary(mod, options.output, MakeCodegenOptions(options));
  return 0;
}

}  // namespace rlx::tools
