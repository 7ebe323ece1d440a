// Tests of the pass infrastructure: module and function passes, Sequential
// (order, opt-level gating, required passes), instruments, the registry.
// Modules are built by hand so these tests do not depend on the parser.
#include <gtest/gtest.h>

#include <algorithm>

#include <sstream>
#include <string>
#include <vector>

#include "rlx/support/diagnostic.h"
#include "rlx/tir/function.h"
#include "rlx/transform/pass.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

// main(x: Tensor((n, 4), f32)) { return x }, plus a PrimFunc "kernel" that
// does nothing. Well formed.
ir::IRModule MakeModule() {
  ir::Var n = ir::MakeVar("n");
  graph::Var x = graph::MakeVar("x", graph::TensorSInfo({n, ir::MakeInt(4)}, DataType::Float32()));
  auto body = make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{}, x);
  graph::UpdateStructInfo(body, graph::GetStructInfo(x));
  auto main = make<graph::FunctionNode>(std::vector<graph::Var>{x}, body, graph::GetStructInfo(x));
  auto* kernel_node = new tir::PrimFuncNode();
  kernel_node->body = make<tir::EvaluateNode>(ir::MakeInt(0, DataType::Int32()));
  tir::PrimFunc kernel(kernel_node);
  return make<ir::IRModuleNode>(std::vector<ir::IRModuleNode::Entry>{{"main", main}, {"kernel", kernel}},
                                ir::Dict());
}

// A module pass that records its name in `log` and returns the module as is.
Pass RecordingPass(const std::string& name, std::vector<std::string>* log, int opt_level = 0,
                   std::vector<std::string> required = {}) {
  return CreateModulePass(
      [name, log](ir::IRModule mod, const PassContext&) {
        log->push_back(name);
        return mod;
      },
      PassInfo{name, "records itself", opt_level, std::move(required)});
}

// Records every hook call as "hook:pass".
class RecordingInstrument : public PassInstrument {
 public:
  explicit RecordingInstrument(std::vector<std::string>* log, std::string veto = "")
      : log_(log), veto_(std::move(veto)) {}
  std::string name() const override { return "recording"; }
  void EnterPassContext() override { log_->push_back("enter"); }
  void ExitPassContext() override { log_->push_back("exit"); }
  bool ShouldRun(const ir::IRModule&, const PassInfo& info) override {
    log_->push_back("should-run:" + info.name);
    return info.name != veto_;
  }
  void RunBeforePass(const ir::IRModule&, const PassInfo& info) override { log_->push_back("before:" + info.name); }
  void RunAfterPass(const ir::IRModule&, const PassInfo& info) override { log_->push_back("after:" + info.name); }

 private:
  std::vector<std::string>* log_;
  std::string veto_;
};

using Log = std::vector<std::string>;

TEST(PassInfra, ModulePassRunsAndReportsInfo) {
  Log log;
  Pass pass = RecordingPass("my-pass", &log, 1);
  EXPECT_EQ(pass.info().name, "my-pass");
  EXPECT_EQ(pass.info().opt_level, 1);
  ir::IRModule mod = MakeModule();
  ir::IRModule result = pass(mod);
  EXPECT_TRUE(result.same_as(mod));
  EXPECT_EQ(log, (Log{"my-pass"}));
}

TEST(PassInfra, SequentialRunsInOrder) {
  Log log;
  Pass seq = Sequential({RecordingPass("a", &log), RecordingPass("b", &log), RecordingPass("c", &log)});
  seq(MakeModule());
  EXPECT_EQ(log, (Log{"a", "b", "c"}));
}

TEST(PassInfra, SequentialGatesByOptLevel) {
  Log log;
  Pass seq = Sequential({RecordingPass("cheap", &log, 1), RecordingPass("costly", &log, 3)});
  PassContext ctx;
  ctx.opt_level = 2;
  seq(MakeModule(), ctx);
  EXPECT_EQ(log, (Log{"cheap"}));

  log.clear();
  ctx.opt_level = 3;
  seq(MakeModule(), ctx);
  EXPECT_EQ(log, (Log{"cheap", "costly"}));
}

TEST(PassInfra, RequiredAndDisabledPassesOverrideOptLevel) {
  Log log;
  Pass seq = Sequential({RecordingPass("cheap", &log, 1), RecordingPass("costly", &log, 3)});
  PassContext ctx;
  ctx.opt_level = 0;
  ctx.required_passes = {"costly"};
  seq(MakeModule(), ctx);
  EXPECT_EQ(log, (Log{"costly"}));

  log.clear();
  ctx.opt_level = 3;
  ctx.required_passes.clear();
  ctx.disabled_passes = {"cheap"};
  seq(MakeModule(), ctx);
  EXPECT_EQ(log, (Log{"costly"}));
}

TEST(PassInfra, SequentialRunsRequiredPassesFirst) {
  Log log;
  auto instrument = std::make_shared<RecordingInstrument>(&log);
  PassContext ctx;
  ctx.instruments.push_back(instrument);
  Pass seq = Sequential({RecordingPass("needs-normalize", &log, 0, {"normalize"})});
  seq(MakeModule(), ctx);
  Log expected = {"should-run:normalize", "before:normalize", "after:normalize", "should-run:needs-normalize",
                  "before:needs-normalize", "needs-normalize", "after:needs-normalize"};
  EXPECT_EQ(log, expected);
}

TEST(PassInfra, InstrumentHooksInOrderAndSequentialNotReported) {
  Log log;
  PassContext ctx;
  ctx.instruments.push_back(std::make_shared<RecordingInstrument>(&log));
  Pass seq = Sequential({RecordingPass("a", &log)}, PassInfo{"pipeline", "a pipeline", 0, {}});
  {
    PassContextScope scope(ctx);
    seq(MakeModule(), ctx);
  }
  Log expected = {"enter", "should-run:a", "before:a", "a", "after:a", "exit"};
  EXPECT_EQ(log, expected);
}

TEST(PassInfra, ShouldRunVetoSkipsThePass) {
  Log log;
  PassContext ctx;
  ctx.instruments.push_back(std::make_shared<RecordingInstrument>(&log, "b"));
  Sequential({RecordingPass("a", &log), RecordingPass("b", &log)})(MakeModule(), ctx);
  Log expected = {"should-run:a", "before:a", "a", "after:a", "should-run:b"};
  EXPECT_EQ(log, expected);
}

TEST(PassInfra, FunctionPassKeepsModuleWhenNothingChanges) {
  int calls = 0;
  Pass pass = CreateFunctionPass(
      [&calls](graph::Function func, ir::IRModule, const PassContext&) {
        ++calls;
        return func;
      },
      PassInfo{"identity", "returns every function as is", 0, {}});
  ir::IRModule mod = MakeModule();
  EXPECT_TRUE(pass(mod).same_as(mod));
  EXPECT_EQ(calls, 1);  // the PrimFunc is not a graph function
}

TEST(PassInfra, FunctionPassReplacesChangedFunctions) {
  Pass pass = CreateFunctionPass(
      [](graph::Function func, ir::IRModule, const PassContext&) {
        return make<graph::FunctionNode>(func->params, func->body, func->ret_struct_info, func->is_pure, func->attrs,
                                         /*is_private=*/true);
      },
      PassInfo{"make-private", "makes every function private", 0, {}});
  ir::IRModule mod = MakeModule();
  ir::IRModule result = pass(mod);
  ASSERT_FALSE(result.same_as(mod));
  ASSERT_EQ(result->functions.size(), 2u);
  EXPECT_EQ(result->functions[0].first, "main");
  EXPECT_TRUE(cast<graph::FunctionNode>(result->Lookup("main"))->is_private);
  EXPECT_TRUE(result->Lookup("kernel").same_as(mod->Lookup("kernel")));
}

TEST(PassInfra, TimingInstrumentAccumulatesPerPass) {
  Log log;
  std::ostringstream out;
  PassContext ctx;
  auto timing = std::make_shared<PassTimingInstrument>(&out);
  ctx.instruments.push_back(timing);
  {
    PassContextScope scope(ctx);
    Sequential({RecordingPass("a", &log), RecordingPass("b", &log), RecordingPass("a", &log)})(MakeModule(), ctx);
  }
  ASSERT_EQ(timing->entries().size(), 2u);
  EXPECT_EQ(timing->entries()[0].pass_name, "a");
  EXPECT_EQ(timing->entries()[0].runs, 2);
  EXPECT_EQ(timing->entries()[1].pass_name, "b");
  std::string report = out.str();
  EXPECT_NE(report.find("Pass execution timing report"), std::string::npos) << report;
  EXPECT_NE(report.find("a (2 runs)"), std::string::npos) << report;
  EXPECT_NE(report.find("Total"), std::string::npos) << report;
}

TEST(PassInfra, PrintIRAfterAllNamesEachPass) {
  Log log;
  std::ostringstream out;
  PassContext ctx;
  ctx.instruments.push_back(MakePrintIRAfterAllInstrument(out));
  Sequential({RecordingPass("first", &log), RecordingPass("second", &log)})(MakeModule(), ctx);
  std::string text = out.str();
  size_t first = text.find("// IR after first\n");
  size_t second = text.find("// IR after second\n");
  ASSERT_NE(first, std::string::npos) << text;
  ASSERT_NE(second, std::string::npos) << text;
  EXPECT_LT(first, second);
  EXPECT_NE(text.find("def main("), std::string::npos) << text;
}

TEST(PassInfra, WellFormedCheckNamesTheBreakingPass) {
  // A pass that makes main return a variable nothing defines.
  Pass breaker = CreateFunctionPass(
      [](graph::Function func, ir::IRModule, const PassContext&) {
        graph::Var stray = graph::MakeVar("stray", graph::GetStructInfo(func->params[0]));
        auto body = make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{}, stray);
        graph::UpdateStructInfo(body, graph::GetStructInfo(stray));
        return make<graph::FunctionNode>(func->params, body, func->ret_struct_info);
      },
      PassInfo{"breaker", "returns an undefined variable", 0, {}});
  Log log;
  PassContext ctx;
  ctx.instruments.push_back(MakeWellFormedCheckInstrument());
  EXPECT_NO_THROW(RecordingPass("harmless", &log)(MakeModule(), ctx));
  try {
    breaker(MakeModule(), ctx);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_EQ(error.diagnostic().message.rfind("module is not well-formed after pass 'breaker': ", 0), 0u)
        << error.what();
    EXPECT_NE(error.diagnostic().message.find("stray"), std::string::npos) << error.what();
  }
}

TEST(PassRegistry, ListsPassesSorted) {
  std::vector<PassInfo> infos = ListPasses();
  std::vector<std::string> names;
  for (const PassInfo& info : infos) {
    names.push_back(info.name);
    EXPECT_FALSE(info.summary.empty()) << info.name;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end()) << "a name is registered twice";
  for (const char* name : {"annotate-tir-op-pattern", "canonicalize-bindings", "dead-code-elimination", "legalize-ops",
                           "normalize", "to-non-dataflow", "call-tir-rewrite", "vm-shape-lower", "attach-global-symbol"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

TEST(PassRegistry, LooksUpByFlagName) {
  EXPECT_EQ(LookupPass("normalize").info().name, "normalize");
  EXPECT_EQ(LookupPass(" dead-code-elimination ").info().name, "dead-code-elimination");
  EXPECT_EQ(LookupPass("dead-code-elimination{entry-functions=main,decode}").info().name, "dead-code-elimination");
}

TEST(PassRegistry, UnknownPassListsKnownOnes) {
  try {
    LookupPass("foo");
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    std::string known;
    for (const PassInfo& info : ListPasses()) known += (known.empty() ? "" : ", ") + info.name;
    EXPECT_EQ(error.diagnostic().message, "unknown pass 'foo'; known passes: " + known);
    EXPECT_NE(known.find("canonicalize-bindings, convert-layout, dead-code-elimination"), std::string::npos) << known;
  }
}

TEST(PassRegistry, UnknownOptionIsAnError) {
  try {
    LookupPass("normalize{level=3}");
    FAIL() << "expected a CompileError";
  } catch (const CompileError& error) {
    EXPECT_EQ(error.diagnostic().message, "pass 'normalize' has no option 'level'");
  }
  EXPECT_THROW(LookupPass("dead-code-elimination{entry-functions}"), CompileError);
  EXPECT_THROW(LookupPass("dead-code-elimination{entry-functions=main"), CompileError);
}

TEST(PassRegistry, ParsesPipelinesWithOptions) {
  std::vector<Pass> passes =
      ParsePassPipeline("normalize, dead-code-elimination{entry-functions=main,decode},,canonicalize-bindings");
  ASSERT_EQ(passes.size(), 3u);
  EXPECT_EQ(passes[0].info().name, "normalize");
  EXPECT_EQ(passes[1].info().name, "dead-code-elimination");
  EXPECT_EQ(passes[2].info().name, "canonicalize-bindings");
  EXPECT_TRUE(ParsePassPipeline("").empty());
  EXPECT_THROW(ParsePassPipeline("normalize,bogus"), CompileError);
}

}  // namespace
}  // namespace rlx::transform
