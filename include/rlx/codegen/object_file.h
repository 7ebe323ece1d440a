// Ahead-of-time compilation of PrimFuncs to a relocatable object file (for
// `rlx build`, which links it into a shared library loaded by
// runtime::Module::LoadFromFile).
//
// The object holds one exported kernel per function (packed C signature,
// rlx/runtime/c_abi.h) plus the module symbols rlx_module_abi_version and
// rlx_runtime_callbacks, defined weak so that several rlx objects can be
// linked into one library. Code is position independent.
#pragma once

#include <string>

#include "rlx/codegen/jit.h"
#include "rlx/codegen/options.h"

namespace rlx::codegen {

// Writes the object file to `path` (CompileError if it cannot be written).
void EmitObjectFile(const NamedPrimFuncs& funcs, const std::string& path, const CodegenOptions& options = {});

// The optimized LLVM IR that EmitObjectFile would compile, as text.
std::string EmitLLVMIR(const NamedPrimFuncs& funcs, const CodegenOptions& options = {});

}  // namespace rlx::codegen
