// Pass, PassContext and the three kinds of pass.
//
// A PassImpl is an immutable object holding a PassInfo and a Run method;
// Pass::operator() wraps Run with the instrument protocol (ShouldRun, then
// RunBeforePass, Run, RunAfterPass). Containers (Sequential) are not
// reported to instruments themselves: only the passes they hold are, so
// `--print-ir-after-all` prints once per real pass and `--time-passes` does
// not count a pipeline twice.
#include "rlx/transform/pass.h"

#include <algorithm>
#include <utility>

namespace rlx::transform {

class PassImpl {
 public:
  PassImpl(PassInfo info, bool is_container) : info(std::move(info)), is_container(is_container) {}
  virtual ~PassImpl() = default;
  virtual ir::IRModule Run(ir::IRModule mod, const PassContext& ctx) const = 0;

  PassInfo info;
  bool is_container;
};

namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

class ModulePassImpl : public PassImpl {
 public:
  ModulePassImpl(ModulePassFunc func, PassInfo info) : PassImpl(std::move(info), false), func_(std::move(func)) {}
  ir::IRModule Run(ir::IRModule mod, const PassContext& ctx) const override { return func_(std::move(mod), ctx); }

 private:
  ModulePassFunc func_;
};

class FunctionPassImpl : public PassImpl {
 public:
  FunctionPassImpl(FunctionPassFunc func, PassInfo info)
      : PassImpl(std::move(info), false), func_(std::move(func)) {}

  ir::IRModule Run(ir::IRModule mod, const PassContext& ctx) const override {
    // Names first: the module is replaced as functions change.
    std::vector<std::string> names;
    for (const auto& [name, func] : mod->functions) {
      if (func.isa<graph::FunctionNode>()) names.push_back(name);
    }
    for (const std::string& name : names) {
      auto func = cast<graph::FunctionNode>(mod->Lookup(name));
      graph::Function updated = func_(func, mod, ctx);
      RLX_ICHECK(updated.defined()) << "function pass '" << info.name << "' returned no function for " << name;
      if (!updated.same_as(func)) mod = ir::WithFunction(mod, name, updated);
    }
    return mod;
  }

 private:
  FunctionPassFunc func_;
};

class SequentialImpl : public PassImpl {
 public:
  SequentialImpl(std::vector<Pass> passes, PassInfo info)
      : PassImpl(std::move(info), true), passes_(std::move(passes)) {}

  ir::IRModule Run(ir::IRModule mod, const PassContext& ctx) const override {
    for (const Pass& pass : passes_) {
      if (!ctx.PassEnabled(pass.info())) continue;
      for (const std::string& required : pass.info().required) mod = LookupPass(required)(std::move(mod), ctx);
      mod = pass(std::move(mod), ctx);
    }
    return mod;
  }

 private:
  std::vector<Pass> passes_;
};

}  // namespace

// ---------------------------------------------------------------------------
// PassContext

bool PassContext::PassEnabled(const PassInfo& info) const {
  if (Contains(disabled_passes, info.name)) return false;
  if (Contains(required_passes, info.name)) return true;
  return info.opt_level <= opt_level;
}

void PassContext::Enter() const {
  for (const auto& instrument : instruments) instrument->EnterPassContext();
}

void PassContext::Exit() const {
  for (const auto& instrument : instruments) instrument->ExitPassContext();
}

bool PassContext::InstrumentShouldRun(const ir::IRModule& mod, const PassInfo& info) const {
  bool run = true;
  // Every instrument is asked, even after a veto, so each sees the same passes.
  for (const auto& instrument : instruments) run = instrument->ShouldRun(mod, info) && run;
  return run;
}

void PassContext::InstrumentBeforePass(const ir::IRModule& mod, const PassInfo& info) const {
  for (const auto& instrument : instruments) instrument->RunBeforePass(mod, info);
}

void PassContext::InstrumentAfterPass(const ir::IRModule& mod, const PassInfo& info) const {
  for (const auto& instrument : instruments) instrument->RunAfterPass(mod, info);
}

// ---------------------------------------------------------------------------
// Pass

ir::IRModule Pass::operator()(ir::IRModule mod, const PassContext& ctx) const {
  RLX_ICHECK(impl_ != nullptr) << "running an undefined pass";
  RLX_ICHECK(mod.defined()) << "pass '" << impl_->info.name << "' given an undefined module";
  if (impl_->is_container) return impl_->Run(std::move(mod), ctx);
  if (!ctx.InstrumentShouldRun(mod, impl_->info)) return mod;
  ctx.InstrumentBeforePass(mod, impl_->info);
  ir::IRModule result = impl_->Run(std::move(mod), ctx);
  RLX_ICHECK(result.defined()) << "pass '" << impl_->info.name << "' returned no module";
  ctx.InstrumentAfterPass(result, impl_->info);
  return result;
}

ir::IRModule Pass::operator()(ir::IRModule mod) const { return (*this)(std::move(mod), PassContext()); }

const PassInfo& Pass::info() const {
  RLX_ICHECK(impl_ != nullptr) << "info() of an undefined pass";
  return impl_->info;
}

Pass CreateModulePass(ModulePassFunc func, PassInfo info) {
  return Pass(std::make_shared<ModulePassImpl>(std::move(func), std::move(info)));
}

Pass CreateFunctionPass(FunctionPassFunc func, PassInfo info) {
  return Pass(std::make_shared<FunctionPassImpl>(std::move(func), std::move(info)));
}

Pass Sequential(std::vector<Pass> passes, PassInfo info) {
  for (const Pass& pass : passes) RLX_ICHECK(pass.defined()) << "Sequential given an undefined pass";
  return Pass(std::make_shared<SequentialImpl>(std::move(passes), std::move(info)));
}

}  // namespace rlx::transform
