// EmitExecutableObjectFile: a relocatable object holding the serialized VM
// executable as two exported constants (see rlx/codegen/vm_codegen.h), so
// that `rlx build` links kernels and bytecode into one shared library.
//
// The object is built through LLVM like the kernels (same target machine and
// position-independent code): a constant byte array with external linkage
// and default visibility, and its uint64 size.
#include <fmt/format.h>

#include "codegen/llvm/llvm_target.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/support/diagnostic.h"

namespace rlx::codegen {

void EmitExecutableObjectFile(const std::string& bytes, const std::string& path, const CodegenOptions& options) {
  TargetSpec spec = ResolveTarget(options);
  std::unique_ptr<llvm::TargetMachine> target = CreateTargetMachine(spec, options.opt_level);
  llvm::LLVMContext context;
  llvm::Module module("rlx_vm_executable", context);
  module.setTargetTriple(spec.triple);
  module.setDataLayout(target->createDataLayout());

  llvm::Constant* data = llvm::ConstantDataArray::getRaw(
      llvm::StringRef(bytes.data(), bytes.size()), bytes.size(), llvm::Type::getInt8Ty(context));
  auto* data_var = new llvm::GlobalVariable(module, data->getType(), /*isConstant=*/true,
                                            llvm::GlobalValue::ExternalLinkage, data,
                                            runtime::vm::Executable::kExecutableSymbol);
  data_var->setAlignment(llvm::Align(16));
  data_var->setVisibility(llvm::GlobalValue::DefaultVisibility);
  llvm::Constant* size = llvm::ConstantInt::get(llvm::Type::getInt64Ty(context), bytes.size());
  auto* size_var = new llvm::GlobalVariable(module, size->getType(), /*isConstant=*/true,
                                            llvm::GlobalValue::ExternalLinkage, size,
                                            runtime::vm::Executable::kExecutableSizeSymbol);
  size_var->setVisibility(llvm::GlobalValue::DefaultVisibility);

  std::error_code error;
  llvm::raw_fd_ostream out(path, error, llvm::sys::fs::OF_None);
  if (error) {
    out.clear_error();
    ThrowError(Span(), fmt::format("cannot write object file {}: {}", path, error.message()));
  }
  llvm::legacy::PassManager passes;
  bool unsupported = target->addPassesToEmitFile(passes, out, nullptr, llvm::CodeGenFileType::ObjectFile);
  RLX_ICHECK(!unsupported) << "target " << spec.triple << " cannot emit object files";
  passes.run(module);
  out.flush();
  if (out.has_error()) {
    std::string message = out.error().message();
    out.clear_error();
    ThrowError(Span(), fmt::format("cannot write object file {}: {}", path, message));
  }
}

}  // namespace rlx::codegen
