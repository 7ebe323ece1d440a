// EmitObjectFile / EmitLLVMIR: ahead-of-time compilation for `rlx build`.
//
// The module is built exactly as for the JIT (llvm_target.cc) but for the
// requested triple/CPU (the host by default) with position-independent code,
// then written by the target's code generator
// (TargetMachine::addPassesToEmitFile, legacy pass manager, as LLVM 19
// requires for machine code emission).
#include "rlx/codegen/object_file.h"

#include <fmt/format.h>

#include "codegen/llvm/llvm_target.h"
#include "rlx/support/diagnostic.h"

namespace rlx::codegen {

void EmitObjectFile(const NamedPrimFuncs& funcs, const std::string& path, const CodegenOptions& options) {
  TargetSpec spec = ResolveTarget(options);
  std::unique_ptr<llvm::TargetMachine> target = CreateTargetMachine(spec, options.opt_level);
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = BuildModule(&context, target.get(), funcs, options);
  std::error_code error;
  llvm::raw_fd_ostream out(path, error, llvm::sys::fs::OF_None);
  if (error) {
    out.clear_error();
    ThrowError(Span(), fmt::format("cannot write object file {}: {}", path, error.message()));
  }
  llvm::legacy::PassManager passes;
  bool unsupported = target->addPassesToEmitFile(passes, out, nullptr, llvm::CodeGenFileType::ObjectFile);
  RLX_ICHECK(!unsupported) << "target " << spec.triple << " cannot emit object files";
  passes.run(*module);
  out.flush();
  if (out.has_error()) {
    std::string message = out.error().message();
    out.clear_error();
    ThrowError(Span(), fmt::format("cannot write object file {}: {}", path, message));
  }
}

std::string EmitLLVMIR(const NamedPrimFuncs& funcs, const CodegenOptions& options) {
  TargetSpec spec = ResolveTarget(options);
  std::unique_ptr<llvm::TargetMachine> target = CreateTargetMachine(spec, options.opt_level);
  llvm::LLVMContext context;
  return ModuleToString(*BuildModule(&context, target.get(), funcs, options));
}

}  // namespace rlx::codegen
