// `rlx opt`: the mlir-opt of rlx.
//
//   rlx opt FILE|- [--passes=a,b,c] [-o OUT] [--print-ir-after-all]
//                  [--time-passes] [--[no-]verify-each]
//   rlx opt --list-passes
//
// Reads TVMScript (a file, or standard input for "-"), checks that the
// module is well-formed, runs the named passes in order (each one runs as
// named, whatever its opt level), and prints the result as TVMScript to
// standard output or OUT. With --verify-each (the default) the module is
// checked again after every pass, so a pass that breaks an invariant is
// named in the error. Diagnostics and instrument output go to stderr.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>

#include "rlx/graph/well_formed.h"
#include "rlx/text/parser.h"
#include "rlx/text/printer.h"
#include "rlx/transform/pass.h"
#include "tools/commands.h"

namespace rlx::tools {
namespace {

using transform::Pass;
using transform::PassContext;
using transform::PassInfo;

// One line per registered pass: name and summary.
std::string PassList() {
  std::string text;
  for (const PassInfo& info : transform::ListPasses()) {
    text += "  " + info.name + std::string(info.name.size() < 24 ? 24 - info.name.size() : 1, ' ') +
            info.summary + "\n";
  }
  return text;
}

std::string PassListHelp() {
  return "Passes (--passes=a,b,c runs them in order; options go in braces, e.g.\n"
         "--passes=dead-code-elimination{entry-functions=main,decode}):\n" +
         PassList();
}

SourceFilePtr ReadInput(const std::string& input) {
  if (input != "-") return text::ReadSourceFile(input);
  std::string content((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  return std::make_shared<SourceFile>("<stdin>", std::move(content));
}

PassContext MakeContext(const OptOptions& options) {
  PassContext ctx;
  if (options.verify_each) ctx.instruments.push_back(transform::MakeWellFormedCheckInstrument());
  if (options.print_ir_after_all) ctx.instruments.push_back(transform::MakePrintIRAfterAllInstrument(std::cerr));
  if (options.time_passes) ctx.instruments.push_back(std::make_shared<transform::PassTimingInstrument>(&std::cerr));
  return ctx;
}

void WriteOutput(const std::string& output, const std::string& text) {
  if (output == "-") {
    std::cout << text;
    std::cout.flush();
    return;
  }
  std::ofstream file(output, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open '" + output + "' for writing");
  file << text;
  if (!file.flush()) throw std::runtime_error("cannot write '" + output + "'");
}

}  // namespace

CLI::App* AddOptCommand(CLI::App& app, OptOptions& options) {
  CLI::App* opt = app.add_subcommand("opt", "Parse a TVMScript module, run passes on it, print it");
  opt->add_option("input", options.input, "Input TVMScript file, or - for standard input");
  opt->add_option("--passes", options.passes, "Comma-separated passes to run, in order");
  opt->add_option("-o,--output", options.output, "Output file (default: standard output)");
  opt->add_flag("--print-ir-after-all", options.print_ir_after_all, "Print the module to stderr after every pass");
  opt->add_flag("--time-passes", options.time_passes, "Print the wall time of every pass to stderr");
  opt->add_flag("--verify-each,!--no-verify-each", options.verify_each,
                "Check well-formedness after every pass (default: on)");
  opt->add_flag("--list-passes", options.list_passes, "List the registered passes and exit");
  opt->footer(PassListHelp());
  return opt;
}

int RunOptCommand(const OptOptions& options) {
  if (options.list_passes) {
    std::cout << PassList();
    return 0;
  }
  if (options.input.empty()) {
    throw std::runtime_error("opt: an input file is required (a path, or - for standard input)");
  }
  std::vector<Pass> passes = transform::ParsePassPipeline(options.passes);  // unknown names fail before parsing
  ir::IRModule mod = text::ParseModule(ReadInput(options.input));
  graph::CheckWellFormed(mod);
  PassContext ctx = MakeContext(options);
  {
    transform::PassContextScope scope(ctx);
    for (const Pass& pass : passes) mod = pass(mod, ctx);
  }
  WriteOutput(options.output, text::PrintModule(mod));
  return 0;
}

}  // namespace rlx::tools
