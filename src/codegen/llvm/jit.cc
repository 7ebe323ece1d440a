// JitModule: PrimFuncs compiled in process with LLVM's ORC LLJIT.
//
// Compile builds one optimized llvm::Module for all functions
// (llvm_target.cc), keeps its IR text for GetLLVMIR, and hands it to an
// LLJIT created for the host (same triple, CPU and features as the module
// was optimized for). Symbols the code needs from outside — libm
// (tanhf, erff, ...) and snprintf — are resolved from the current process.
// The runtime is reached only through the module's rlx_runtime_callbacks
// global, which Compile points at rlx_get_runtime_callbacks() right after
// loading, exactly what runtime::Module::LoadFromFile does for a shared
// library; so the JIT and `rlx build` run identical code.
//
// Each JitModule owns its LLVMContext (through the ThreadSafeModule) and its
// LLJIT; kernels stay valid while the JitModule lives.
#include "rlx/codegen/jit.h"

#include <fmt/format.h>

#include <unordered_set>

#include "codegen/llvm/llvm_target.h"
#include "rlx/support/diagnostic.h"

namespace rlx::codegen {

namespace {

template <typename T>
T Unwrap(llvm::Expected<T> value, const char* what) {
  if (!value) {
    std::string message = llvm::toString(value.takeError());
    RLX_ICHECK(false) << "LLVM JIT: " << what << ": " << message;
  }
  return std::move(*value);
}

void Check(llvm::Error error, const char* what) {
  if (error) {
    std::string message = llvm::toString(std::move(error));
    RLX_ICHECK(false) << "LLVM JIT: " << what << ": " << message;
  }
}

llvm::orc::JITTargetMachineBuilder MakeTargetBuilder(const TargetSpec& spec, int opt_level) {
  llvm::orc::JITTargetMachineBuilder builder{llvm::Triple(spec.triple)};
  builder.setCPU(spec.cpu);
  std::vector<std::string> features;
  llvm::SmallVector<llvm::StringRef, 64> parts;
  llvm::StringRef(spec.features).split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) features.push_back(part.str());
  builder.addFeatures(features);
  builder.setCodeGenOptLevel(CodeGenLevel(opt_level));
  builder.setRelocationModel(llvm::Reloc::PIC_);
  return builder;
}

// A runtime::Module over a JitModule it owns.
class JitModuleNode : public runtime::ModuleNode {
 public:
  explicit JitModuleNode(std::unique_ptr<JitModule> jit) : jit_(std::move(jit)) {}
  void* GetSymbol(const std::string& name) const override { return jit_->GetFunction(name); }
  const std::string& name() const override { return name_; }

 private:
  std::unique_ptr<JitModule> jit_;
  std::string name_ = "jit";
};

}  // namespace

struct JitModule::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::string llvm_ir;
  std::unordered_set<std::string> kernels;
};

JitModule::JitModule(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
JitModule::~JitModule() = default;

std::unique_ptr<JitModule> JitModule::Compile(const NamedPrimFuncs& funcs, const CodegenOptions& options) {
  InitializeLLVM();
  CodegenOptions host_options = options;
  host_options.triple.clear();  // the JIT runs here
  TargetSpec spec = ResolveTarget(host_options);
  llvm::orc::JITTargetMachineBuilder target_builder = MakeTargetBuilder(spec, options.opt_level);
  std::unique_ptr<llvm::TargetMachine> target = Unwrap(target_builder.createTargetMachine(), "target machine");

  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module = BuildModule(context.get(), target.get(), funcs, host_options);
  auto impl = std::make_unique<Impl>();
  impl->llvm_ir = ModuleToString(*module);
  for (const auto& [name, func] : funcs) impl->kernels.insert(name);

  impl->jit = Unwrap(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(target_builder)).create(),
                     "creating the JIT");
  char prefix = impl->jit->getDataLayout().getGlobalPrefix();
  impl->jit->getMainJITDylib().addGenerator(
      Unwrap(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix), "process symbols"));
  Check(impl->jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(context))),
        "adding the module");

  llvm::orc::ExecutorAddr callbacks = Unwrap(impl->jit->lookup(RLX_RUNTIME_CALLBACKS_SYMBOL), "runtime callbacks");
  *callbacks.toPtr<const RLXRuntimeCallbacks**>() = rlx_get_runtime_callbacks();
  return std::unique_ptr<JitModule>(new JitModule(std::move(impl)));
}

runtime::Module JitModule::CompileToModule(const NamedPrimFuncs& funcs, const CodegenOptions& options) {
  return runtime::Module(std::make_shared<JitModuleNode>(Compile(funcs, options)));
}

void* JitModule::GetFunction(const std::string& name) const {
  if (!impl_->kernels.count(name)) return nullptr;
  return Unwrap(impl_->jit->lookup(name), "looking up a kernel").toPtr<void*>();
}

const std::string& JitModule::GetLLVMIR() const { return impl_->llvm_ir; }

}  // namespace rlx::codegen
