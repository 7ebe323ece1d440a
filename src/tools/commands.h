// The subcommands of the `rlx` command line (private to the tool).
//
// Each subcommand is a pair of functions: Add<Name>Command declares its
// options on the CLI11 app (filling an options struct when parsed), and
// Run<Name>Command does the work and returns the exit code. User errors are
// thrown as CompileError; rlx_main.cc turns every exception into a message on
// stderr and exit code 1.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rlx::tools {

struct OptOptions {
  std::string input;          // a path, or "-" for standard input
  std::string passes;         // comma-separated flag names
  std::string output = "-";   // a path, or "-" for standard output
  bool print_ir_after_all = false;
  bool time_passes = false;
  bool verify_each = true;
  bool list_passes = false;   // print the registered passes and stop
};

// `rlx opt FILE|- [--passes=a,b] [-o OUT] [--print-ir-after-all]
//  [--time-passes] [--[no-]verify-each]`: parse, check, run passes, print.
// `rlx opt --list-passes`: the registered passes with their summaries.
CLI::App* AddOptCommand(CLI::App& app, OptOptions& options);
int RunOptCommand(const OptOptions& options);

struct RunOptions {
  std::string model;                 // FILE.so or FILE.py
  std::string entry = "main";
  std::vector<std::string> inputs;   // NAME=PATH.npy
  std::vector<std::string> outputs;  // PATH.npy, one per output
  int bench = 0;                     // extra timed runs
  bool profile = false;              // time every VM call during the runs
  bool debug_memory = false;         // memory-plan verifier + NaN fill (RLX_DEBUG_MEMORY)
  bool no_library_dispatch = false;  // .py/.onnx: leave dispatch-library out of the pipeline
};

// `rlx run FILE.so|FILE.py [--entry main] [--input NAME=PATH.npy ...]
//  [--output PATH.npy ...] [--bench N]`: run a function on the VM.
CLI::App* AddRunCommand(CLI::App& app, RunOptions& options);
int RunRunCommand(const RunOptions& options);

struct BuildOptions {
  std::string input;            // a TVMScript file or an ONNX model (.onnx)
  std::string output;           // the shared library to write
  std::vector<std::string> input_shapes;  // .onnx only: NAME=1,3,h,w
  std::string target = "host";  // host, generic, or an LLVM CPU name
  int opt_level = 3;            // pipeline PassContext and LLVM, 0..3
  bool print_ir_after_all = false;
  bool time_passes = false;
  bool verify_memory_plan = false;  // static-plan-block-memory checks its plan
  bool no_library_dispatch = false;  // leave dispatch-library (oneDNN calls) out of the pipeline
};

// `rlx build FILE -o OUT.so [--target host|generic|CPU] [--opt-level N]
//  [--print-ir-after-all] [--time-passes]`: the default pipeline, VM code
// generation and LLVM code generation, written as one shared library.
CLI::App* AddBuildCommand(CLI::App& app, BuildOptions& options);
int RunBuildCommand(const BuildOptions& options);

struct ImportOptions {
  std::string input;                      // an ONNX model
  std::string output = "-";               // a path, or "-" for standard output
  std::vector<std::string> input_shapes;  // NAME=1,3,h,w
  bool keep_params_in_input = false;
};

// `rlx import MODEL.onnx [-o OUT.py] [--input-shape NAME=1,3,h,w ...]
//  [--keep-params-in-input]`: import an ONNX model and print it as TVMScript.
CLI::App* AddImportCommand(CLI::App& app, ImportOptions& options);
int RunImportCommand(const ImportOptions& options);

}  // namespace rlx::tools
