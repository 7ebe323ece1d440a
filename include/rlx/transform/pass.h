// Pass infrastructure: passes as data, contexts, instruments, a registry.
//
// Design (after TVM's tvm::transform and MLIR's pass manager):
// - A pass is declared as data: PassInfo holds its flag name (kebab-case,
//   "dead-code-elimination"), a one-line summary, the optimization level at
//   which a pipeline enables it, and the names of passes it requires.
// - `Pass` is a cheap, copyable handle to an immutable implementation. Calling
//   it runs the pass on a module under a PassContext, with the context's
//   instruments notified before and after; a pass never mutates its input
//   (IR nodes are immutable), it returns a new module or the same one.
// - Three kinds of pass: module passes (IRModule -> IRModule), function
//   passes (applied to every graph::Function; the module is rebuilt only when
//   some function changed), and Sequential (runs its passes in order, skips
//   those the context's opt level disables, runs each one's required passes
//   first). A Sequential is a container: the instruments see the passes in it,
//   not the container itself.
// - Instruments observe and steer pass execution: --print-ir-after-all and
//   --time-passes are instruments; ShouldRun can veto a pass.
// - The registry maps flag names to factories (src/transform/pass_registry.cc,
//   an explicit table: no static initializers), for `rlx opt --passes=...`.
#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rlx/graph/expr.h"
#include "rlx/ir/attrs.h"
#include "rlx/ir/module.h"

namespace rlx::transform {

struct PassInfo {
  // Kebab-case flag name, TVM's pass name: "dead-code-elimination".
  std::string name;
  // One line for `rlx opt --help` and the registry listing.
  std::string summary;
  // A Sequential runs the pass only when the context's opt_level is at least
  // this (unless the context requires or disables it by name).
  int opt_level = 0;
  // Flag names of passes a Sequential runs right before this one.
  std::vector<std::string> required;
};

// Observes (and may veto) pass execution. All hooks default to no-ops.
class PassInstrument {
 public:
  virtual ~PassInstrument() = default;
  // The instrument's name, for messages.
  virtual std::string name() const = 0;

  // Called when a context holding the instrument is entered / exited
  // (PassContext::Enter / Exit, or a PassContextScope).
  virtual void EnterPassContext() {}
  virtual void ExitPassContext() {}
  // Returning false skips the pass (the other hooks are then not called).
  virtual bool ShouldRun(const ir::IRModule& /*mod*/, const PassInfo& /*info*/) { return true; }
  virtual void RunBeforePass(const ir::IRModule& /*mod*/, const PassInfo& /*info*/) {}
  // `mod` is the pass's result.
  virtual void RunAfterPass(const ir::IRModule& /*mod*/, const PassInfo& /*info*/) {}
};

// The configuration passes run under.
class PassContext {
 public:
  // Passes with info.opt_level above this are skipped by Sequential.
  int opt_level = 2;
  // Free-form options for passes ("relax.xxx" keys), may be undefined.
  ir::Dict config;
  // Flag names a Sequential always runs / never runs, whatever opt_level says.
  std::vector<std::string> required_passes;
  std::vector<std::string> disabled_passes;
  std::vector<std::shared_ptr<PassInstrument>> instruments;

  // Would a Sequential run a pass described by `info` under this context?
  bool PassEnabled(const PassInfo& info) const;

  // Notify every instrument that the context is entered / exited.
  void Enter() const;
  void Exit() const;

  // Instrument hooks, called by Pass::operator(). InstrumentShouldRun is
  // false when any instrument vetoes.
  bool InstrumentShouldRun(const ir::IRModule& mod, const PassInfo& info) const;
  void InstrumentBeforePass(const ir::IRModule& mod, const PassInfo& info) const;
  void InstrumentAfterPass(const ir::IRModule& mod, const PassInfo& info) const;
};

// Enters `ctx` on construction and exits it on destruction (so a timing
// report is printed even when a pass throws).
class PassContextScope {
 public:
  explicit PassContextScope(const PassContext& ctx) : ctx_(ctx) { ctx_.Enter(); }
  ~PassContextScope() { ctx_.Exit(); }
  PassContextScope(const PassContextScope&) = delete;
  PassContextScope& operator=(const PassContextScope&) = delete;

 private:
  const PassContext& ctx_;
};

class PassImpl;

// A handle to a pass. Copies share the implementation.
class Pass {
 public:
  Pass() = default;
  explicit Pass(std::shared_ptr<const PassImpl> impl) : impl_(std::move(impl)) {}

  // Runs the pass: asks the instruments whether to run, notifies them before
  // and after (containers such as Sequential are not reported themselves).
  ir::IRModule operator()(ir::IRModule mod, const PassContext& ctx) const;
  // Runs under a default PassContext.
  ir::IRModule operator()(ir::IRModule mod) const;

  const PassInfo& info() const;
  bool defined() const { return impl_ != nullptr; }

 private:
  std::shared_ptr<const PassImpl> impl_;
};

using ModulePassFunc = std::function<ir::IRModule(ir::IRModule, const PassContext&)>;
using FunctionPassFunc = std::function<graph::Function(graph::Function, ir::IRModule, const PassContext&)>;

// A pass transforming the whole module.
Pass CreateModulePass(ModulePassFunc func, PassInfo info);
// A pass transforming each graph::Function of the module in turn (in module
// order; each call sees the module as updated by the previous ones). The
// module is rebuilt only when some function changed (identity comparison).
Pass CreateFunctionPass(FunctionPassFunc func, PassInfo info);
// Runs `passes` in order under the context's gating (PassContext::PassEnabled),
// each preceded by its required passes (looked up in the registry).
Pass Sequential(std::vector<Pass> passes, PassInfo info = {"sequential", "runs passes in order", 0, {}});

// The registry. `spec` is a flag name, optionally followed by options in
// braces, MLIR style: "dead-code-elimination{entry-functions=main,foo}"
// (options separated by spaces; a list value is comma-separated).
// CompileError "unknown pass 'foo'; known passes: a, b, c" for an unknown
// name, and a CompileError naming the pass for an unknown or bad option.
Pass LookupPass(std::string_view spec);
// Splits "a,b{x=1,2},c" at the commas outside braces and looks up each
// pass in order; blank entries are skipped.
std::vector<Pass> ParsePassPipeline(std::string_view text);
// Every registered pass's info, sorted by name.
std::vector<PassInfo> ListPasses();

// Instruments for the command line.
//
// After every pass, prints "// IR after <pass-name>" and the module (via
// text::PrintModule) to `out`.
std::shared_ptr<PassInstrument> MakePrintIRAfterAllInstrument(std::ostream& out);

// After every pass, checks the module's well-formedness
// (graph::CheckWellFormed); a violation is rethrown as a CompileError whose
// message names the pass: "module is not well-formed after pass 'x': ...".
std::shared_ptr<PassInstrument> MakeWellFormedCheckInstrument();

// Accumulates the wall time of each pass (by name, in first-run order) and,
// when the context is exited, prints a report like MLIR's -mlir-timing to
// `out`. Passes run from inside another pass are timed too but only
// outermost passes count towards the total.
class PassTimingInstrument : public PassInstrument {
 public:
  explicit PassTimingInstrument(std::ostream* out) : out_(out) {}
  std::string name() const override { return "pass-timing"; }

  void EnterPassContext() override;
  void ExitPassContext() override;
  void RunBeforePass(const ir::IRModule& mod, const PassInfo& info) override;
  void RunAfterPass(const ir::IRModule& mod, const PassInfo& info) override;

  struct Entry {
    std::string pass_name;
    double seconds = 0;
    int runs = 0;
    int depth = 0;  // nesting depth of its first run (0: outermost)
  };
  const std::vector<Entry>& entries() const { return entries_; }
  double total_seconds() const { return total_seconds_; }
  // The report as text.
  std::string Report() const;

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream* out_;  // may be null: then nothing is printed on exit
  std::vector<Entry> entries_;
  std::vector<Clock::time_point> starts_;
  double total_seconds_ = 0;
};

}  // namespace rlx::transform
