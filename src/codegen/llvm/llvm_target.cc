// Target selection, the optimization pipeline and module building for the
// LLVM backend.
//
// The host target is what the JIT runs on: llvm::sys::getProcessTriple(),
// getHostCPUName() and getHostCPUFeatures() (so AVX2 / AVX-512 / FMA are
// used exactly when the machine has them). Optimization is the new pass
// manager's per-module default pipeline at the requested level (capped at
// O2, see OptimizeModule), with loop and SLP vectorization on from O2, and the target's TargetTransformInfo and
// TargetLibraryInfo registered so that cost models and libm knowledge are
// the host's. Floating-point semantics stay strict IEEE (no fast-math): the
// generated code must agree with the interpreter.
//
// Loops the schedule vectorizes carry llvm.loop.vectorize.enable, a request
// LLVM may be unable to honour (a gather through clamped indices, as in an
// edge or reflect pad); the loop then stays scalar and correct, and LLVM
// reports an "optimization failure" warning, which by default it prints to
// stderr, once per loop copy, on every build. Those warnings are dropped
// while the pipeline runs (QuietMissedOptimizations); every other
// diagnostic goes on to LLVM's default handling.
#include "codegen/llvm/llvm_target.h"

#include <fmt/format.h>

#include <mutex>
#include <unordered_set>

#include "codegen/llvm/codegen_llvm.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/transform.h"

namespace rlx::codegen {

void InitializeLLVM() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

llvm::CodeGenOptLevel CodeGenLevel(int opt_level) {
  if (opt_level <= 0) return llvm::CodeGenOptLevel::None;
  if (opt_level == 1) return llvm::CodeGenOptLevel::Less;
  if (opt_level == 2) return llvm::CodeGenOptLevel::Default;
  return llvm::CodeGenOptLevel::Aggressive;
}

namespace {

std::string HostFeatureString() {
  std::string features;
  for (const auto& entry : llvm::sys::getHostCPUFeatures()) {
    if (!features.empty()) features += ',';
    features += (entry.second ? "+" : "-") + entry.first().str();
  }
  return features;
}

}  // namespace

TargetSpec ResolveTarget(const CodegenOptions& options) {
  TargetSpec spec;
  spec.triple = options.triple.empty() ? llvm::sys::getProcessTriple() : options.triple;
  spec.cpu = options.cpu.empty() ? llvm::sys::getHostCPUName().str() : options.cpu;
  spec.features = options.features;
  if (spec.features.empty() && options.cpu.empty() && options.triple.empty()) spec.features = HostFeatureString();
  return spec;
}

std::unique_ptr<llvm::TargetMachine> CreateTargetMachine(const TargetSpec& spec, int opt_level) {
  InitializeLLVM();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(spec.triple, error);
  if (target == nullptr) {
    ThrowError(Span(), fmt::format("codegen: no LLVM target for triple '{}': {}", spec.triple, error));
  }
  // An unknown CPU name would make LLVM abort later ("64-bit code requested
  // on a subtarget that doesn't support it"): reject it here.
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(target->createMCSubtargetInfo(spec.triple, "", ""));
  if (subtarget != nullptr && !spec.cpu.empty() && !subtarget->isCPUStringValid(spec.cpu)) {
    ThrowError(Span(), fmt::format("codegen: unknown CPU '{}' for target {}", spec.cpu, spec.triple));
  }
  llvm::TargetOptions target_options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      spec.triple, spec.cpu, spec.features, target_options, llvm::Reloc::PIC_, std::nullopt, CodeGenLevel(opt_level)));
  if (!machine) {
    ThrowError(Span(), fmt::format("codegen: cannot create a target machine for {} (cpu '{}')", spec.triple, spec.cpu));
  }
  return machine;
}

namespace {

// Swallows DK_OptimizationFailure diagnostics (missed requested loop
// transformations); anything else is left to the context's default.
class QuietMissedOptimizations : public llvm::DiagnosticHandler {
 public:
  bool handleDiagnostics(const llvm::DiagnosticInfo& info) override {
    return info.getKind() == llvm::DK_OptimizationFailure;
  }
};

// Installs QuietMissedOptimizations on a context for its lifetime, then
// restores the previous handler.
class ScopedQuietDiagnostics {
 public:
  explicit ScopedQuietDiagnostics(llvm::LLVMContext& context)
      : context_(context), previous_(context.getDiagnosticHandler()) {
    context_.setDiagnosticHandler(std::make_unique<QuietMissedOptimizations>());
  }
  ~ScopedQuietDiagnostics() {
    if (!previous_) previous_ = std::make_unique<llvm::DiagnosticHandler>();
    context_.setDiagnosticHandler(std::move(previous_));
  }
  ScopedQuietDiagnostics(const ScopedQuietDiagnostics&) = delete;
  ScopedQuietDiagnostics& operator=(const ScopedQuietDiagnostics&) = delete;

 private:
  llvm::LLVMContext& context_;
  std::unique_ptr<llvm::DiagnosticHandler> previous_;
};

}  // namespace

void OptimizeModule(llvm::Module& module, llvm::TargetMachine* target, int opt_level) {
  ScopedQuietDiagnostics quiet(module.getContext());
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = opt_level >= 2;
  tuning.SLPVectorization = opt_level >= 2;
  llvm::PassBuilder builder(target, tuning);
  llvm::Triple triple(module.getTargetTriple());
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(llvm::TargetLibraryInfoImpl(triple)); });
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  if (opt_level <= 0) {
    passes = builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
  } else {
    // Level 3 runs LLVM's O2 pipeline: O3 adds non-trivial loop unswitching
    // (a copy of a loop per loop-invariant branch; generated kernels have
    // many guards), which made PP-OCRv4 rec take 45 s to optimize instead of
    // 11 s, and its kernels were no faster (docs/performance.md).
    passes = builder.buildPerModuleDefaultPipeline(opt_level == 1 ? llvm::OptimizationLevel::O1
                                                                  : llvm::OptimizationLevel::O2);
  }
  passes.run(module, mam);
}

// The TIR lowering of one function before codegen: the default CPU schedule
// (injective nests, then the others; when enabled and optimizing), then
// LowerForCodegen.
tir::PrimFunc LowerFunction(const tir::PrimFunc& func, const CodegenOptions& options) {
  bool schedule = options.schedule && options.opt_level >= 1;
  return tir::LowerForCodegen(schedule ? tir::ScheduleReductionCPU(tir::ScheduleInjectiveCPU(func)) : func);
}

std::unique_ptr<llvm::Module> BuildModule(llvm::LLVMContext* context, llvm::TargetMachine* target,
                                          const NamedPrimFuncs& funcs, const CodegenOptions& options) {
  CodeGenLLVM codegen(context, target, options, "rlx_module");
  std::unordered_set<std::string> names;
  for (const auto& [name, func] : funcs) {
    if (name.empty()) ThrowError(func->span, "codegen: a function needs a non-empty name");
    if (!names.insert(name).second) ThrowError(func->span, fmt::format("codegen: two functions are named {}", name));
    codegen.AddFunction(name, options.lower ? LowerFunction(func, options) : func);
  }
  std::unique_ptr<llvm::Module> module = codegen.Finish();
  OptimizeModule(*module, target, options.opt_level);
  return module;
}

std::string ModuleToString(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream out(text);
  module.print(out, nullptr);
  return out.str();
}

HostTargetInfo DescribeHostTarget() {
  HostTargetInfo info;
  info.triple = llvm::sys::getProcessTriple();
  info.cpu = llvm::sys::getHostCPUName().str();
  static const char* kVectorFeatures[] = {"sse4.2",   "avx",      "avx2",       "fma",        "f16c", "avx512f",
                                          "avx512bw", "avx512vl", "avx512bf16", "avx512fp16", "neon", "sve"};
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  for (const char* feature : kVectorFeatures) {
    auto it = features.find(feature);
    if (it == features.end() || !it->second) continue;
    if (!info.vector_features.empty()) info.vector_features += ' ';
    info.vector_features += feature;
  }
  return info;
}

}  // namespace rlx::codegen
