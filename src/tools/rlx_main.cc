// The `rlx` command line.
//
// main() only declares the subcommands (commands.h), parses the arguments
// with CLI11 and dispatches. Every error ends as text on stderr and exit
// code 1, never as a crash: a CompileError prints its rendered diagnostic
// (`file:line:col: error: ...`, the source line and a caret), a usage error
// prints CLI11's message, anything else prints `rlx: error: ...`.
#include <CLI/CLI.hpp>

#include <exception>
#include <functional>
#include <iostream>

#include "rlx/op/op.h"
#include "rlx/support/diagnostic.h"
#include "tools/commands.h"

namespace {

constexpr const char* kVersion = "rlx 0.1.0";

// Runs `command`, turning every exception into a message and exit code 1.
int RunReportingErrors(const std::function<int()>& command) {
  try {
    return command();
  } catch (const rlx::CompileError& error) {
    std::cerr << error.what();
  } catch (const std::exception& error) {
    std::cerr << "rlx: error: " << error.what() << "\n";
  } catch (...) {
    std::cerr << "rlx: error: unknown exception\n";
  }
  return 1;
}

// Parses the arguments; nonzero when the program should stop with that
// code (usage errors), -1 when help or the version was printed (exit 0).
int ParseArguments(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    return 0;
  } catch (const CLI::Success& success) {
    app.exit(success);
    return -1;
  } catch (const CLI::ParseError& error) {
    app.exit(error);
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rlx: a compiler for machine-learning models with dynamic shapes (Relax / TVMScript)", "rlx"};
  app.set_version_flag("--version", kVersion);
  app.require_subcommand(1);
  rlx::tools::OptOptions opt_options;
  CLI::App* opt = rlx::tools::AddOptCommand(app, opt_options);
  rlx::tools::RunOptions run_options;
  CLI::App* run = rlx::tools::AddRunCommand(app, run_options);
  rlx::tools::BuildOptions build_options;
  CLI::App* build = rlx::tools::AddBuildCommand(app, build_options);
  rlx::tools::ImportOptions import_options;
  CLI::App* import = rlx::tools::AddImportCommand(app, import_options);

  int parse_status = ParseArguments(app, argc, argv);
  if (parse_status != 0) return parse_status < 0 ? 0 : parse_status;
  return RunReportingErrors([&] {
    rlx::op::RegisterAllOps();
    if (opt->parsed()) return rlx::tools::RunOptCommand(opt_options);
    if (run->parsed()) return rlx::tools::RunRunCommand(run_options);
    if (build->parsed()) return rlx::tools::RunBuildCommand(build_options);
    if (import->parsed()) return rlx::tools::RunImportCommand(import_options);
    return 1;
  });
}
