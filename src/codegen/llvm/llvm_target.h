// Target machines, optimization and module building for the LLVM backend
// (private to codegen; shared by the JIT and object-file emission).
#pragma once

#include <memory>
#include <string>

#include "codegen/llvm/llvm_headers.h"
#include "rlx/codegen/jit.h"
#include "rlx/codegen/options.h"

namespace rlx::codegen {

// Registers the native target, its assembly printer and parser (once).
void InitializeLLVM();

// The code generation optimization level for options.opt_level.
llvm::CodeGenOptLevel CodeGenLevel(int opt_level);

// The triple, CPU and feature string `options` ask for (host defaults filled in).
struct TargetSpec {
  std::string triple;
  std::string cpu;
  std::string features;
};
TargetSpec ResolveTarget(const CodegenOptions& options);

// A target machine for `spec` (position-independent code).
std::unique_ptr<llvm::TargetMachine> CreateTargetMachine(const TargetSpec& spec, int opt_level);

// Lowers (if asked), generates and optimizes one module holding `funcs`.
// Duplicate or empty names are CompileErrors.
std::unique_ptr<llvm::Module> BuildModule(llvm::LLVMContext* context, llvm::TargetMachine* target,
                                          const NamedPrimFuncs& funcs, const CodegenOptions& options);

// Runs the new pass manager's default pipeline for `opt_level` (O0..O3).
void OptimizeModule(llvm::Module& module, llvm::TargetMachine* target, int opt_level);

std::string ModuleToString(const llvm::Module& module);

}  // namespace rlx::codegen
