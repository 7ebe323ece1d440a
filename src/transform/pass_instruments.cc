// The command line's instruments: --print-ir-after-all, --verify-each and
// --time-passes.
//
// Printing goes through the TVMScript printer, so what is printed after a
// pass can be fed back to `rlx opt` (each module is preceded by a
// `// IR after <pass>` comment line).
//
// The well-formedness check runs graph::CheckWellFormed after each pass and
// prefixes the diagnostic with the pass's name, keeping its location.
//
// Timing keeps a stack of start times (a pass may run passes itself) and
// accumulates wall time per pass name, in the order passes first ran. The
// report follows MLIR's -mlir-timing layout:
//
//   ===-------------------------------------------------------------------------===
//                           ... Pass execution timing report ...
//   ===-------------------------------------------------------------------------===
//     Total Execution Time: 0.0021 seconds
//
//     ----Wall Time----  ----Name----
//       0.0012 ( 57.1%)  normalize
//       0.0009 ( 42.9%)  dead-code-elimination
//       0.0021 (100.0%)  Total
#include <fmt/format.h>

#include <ostream>

#include "rlx/graph/well_formed.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/printer.h"
#include "rlx/transform/pass.h"

namespace rlx::transform {
namespace {

class PrintIRAfterAllInstrument : public PassInstrument {
 public:
  explicit PrintIRAfterAllInstrument(std::ostream& out) : out_(out) {}
  std::string name() const override { return "print-ir-after-all"; }

  void RunAfterPass(const ir::IRModule& mod, const PassInfo& info) override {
    out_ << "// IR after " << info.name << "\n" << text::PrintModule(mod);
    out_.flush();
  }

 private:
  std::ostream& out_;
};

class WellFormedCheckInstrument : public PassInstrument {
 public:
  std::string name() const override { return "verify-each"; }

  void RunAfterPass(const ir::IRModule& mod, const PassInfo& info) override {
    try {
      graph::CheckWellFormed(mod);
    } catch (const CompileError& error) {
      Diagnostic diag = error.diagnostic();
      diag.message = "module is not well-formed after pass '" + info.name + "': " + diag.message;
      throw CompileError(std::move(diag));
    }
  }
};

}  // namespace

std::shared_ptr<PassInstrument> MakePrintIRAfterAllInstrument(std::ostream& out) {
  return std::make_shared<PrintIRAfterAllInstrument>(out);
}

std::shared_ptr<PassInstrument> MakeWellFormedCheckInstrument() {
  return std::make_shared<WellFormedCheckInstrument>();
}

void PassTimingInstrument::EnterPassContext() {
  entries_.clear();
  starts_.clear();
  total_seconds_ = 0;
}

void PassTimingInstrument::ExitPassContext() {
  if (out_ != nullptr && !entries_.empty()) {
    *out_ << Report();
    out_->flush();
  }
}

void PassTimingInstrument::RunBeforePass(const ir::IRModule& /*mod*/, const PassInfo& /*info*/) {
  starts_.push_back(Clock::now());
}

void PassTimingInstrument::RunAfterPass(const ir::IRModule& /*mod*/, const PassInfo& info) {
  RLX_ICHECK(!starts_.empty()) << "RunAfterPass without RunBeforePass for " << info.name;
  double seconds = std::chrono::duration<double>(Clock::now() - starts_.back()).count();
  starts_.pop_back();
  int depth = static_cast<int>(starts_.size());
  if (depth == 0) total_seconds_ += seconds;
  for (Entry& entry : entries_) {
    if (entry.pass_name == info.name && entry.depth == depth) {
      entry.seconds += seconds;
      entry.runs += 1;
      return;
    }
  }
  entries_.push_back(Entry{info.name, seconds, 1, depth});
}

std::string PassTimingInstrument::Report() const {
  const std::string rule = "===" + std::string(73, '-') + "===\n";
  std::string out = rule;
  const std::string title = "... Pass execution timing report ...";
  out += std::string((rule.size() - 1 - title.size()) / 2, ' ') + title + "\n";
  out += rule;
  out += fmt::format("  Total Execution Time: {:.4f} seconds\n\n", total_seconds_);
  out += "  ----Wall Time----  ----Name----\n";
  auto percent = [&](double seconds) { return total_seconds_ > 0 ? 100.0 * seconds / total_seconds_ : 0.0; };
  for (const Entry& entry : entries_) {
    std::string label = std::string(2 * entry.depth, ' ') + entry.pass_name;
    if (entry.runs > 1) label += fmt::format(" ({} runs)", entry.runs);
    out += fmt::format("  {:>8.4f} ({:>5.1f}%)  {}\n", entry.seconds, percent(entry.seconds), label);
  }
  out += fmt::format("  {:>8.4f} ({:>5.1f}%)  Total\n", total_seconds_, total_seconds_ > 0 ? 100.0 : 0.0);
  return out;
}

}  // namespace rlx::transform
