// From a lowered IRModule to something the VM runs (after TVM's
// relax.vm.build / CodeGenVM, our own code).
//
// VMCodeGen expects the module the VM lowering pipeline produces: graph
// functions whose bodies contain only calls of GlobalVars (graph functions,
// PrimFuncs), ExternFunc calls (R.call_packed) of builtins or kernels,
// R.vm.* ops, R.call_builtin_with_ctx, R.null_value, R.make_closure /
// R.invoke_closure, tuples, If, constants, constant shapes, integer prim
// values and strings. Anything else (a high-level operator, a symbolic
// ShapeExpr) is a CompileError that names it and says to run the lowering
// pipeline first. Each graph function becomes a VM function of the same name;
// each PrimFunc a TIR kernel resolved by name in the kernel library.
//
// The kernels are compiled by the LLVM backend: in process (CompileForVM,
// JitModule) or into a shared library that also carries the serialized
// executable (ExportVMLibrary; runtime::vm::Executable::LoadFromLibrary reads
// it back).
#pragma once

#include <memory>
#include <string>

#include "rlx/codegen/jit.h"
#include "rlx/codegen/options.h"
#include "rlx/ir/module.h"
#include "rlx/runtime/module.h"
#include "rlx/runtime/vm/executable.h"

namespace rlx::codegen {

// The bytecode of every graph function of `mod`, each named by its
// "global_symbol" attribute (its module name when it has none); calls of a
// GlobalVar go to the callee's symbol. CompileError when two functions share
// a symbol.
std::shared_ptr<runtime::vm::Executable> VMCodeGen(const ir::IRModule& mod);

// The PrimFuncs of `mod`, by symbol (global_symbol, else the name): the
// kernel names the executable calls.
NamedPrimFuncs CollectPrimFuncs(const ir::IRModule& mod);

struct VMCompiled {
  std::shared_ptr<const runtime::vm::Executable> exec;
  runtime::Module library;  // undefined when the module has no PrimFunc
};

// Bytecode plus JIT-compiled kernels, ready for runtime::vm::VirtualMachine.
VMCompiled CompileForVM(const ir::IRModule& mod, const CodegenOptions& options = {});

// Writes an object file defining the exported symbols
// Executable::kExecutableSymbol (the bytes) and kExecutableSizeSymbol
// (uint64 byte count).
void EmitExecutableObjectFile(const std::string& bytes, const std::string& path, const CodegenOptions& options = {});

// Compiles `mod` into the shared library `path` (kernels + executable),
// linked by the system C compiler (`cc`, or $RLX_CC).
void ExportVMLibrary(const ir::IRModule& mod, const std::string& path, const CodegenOptions& options = {});

}  // namespace rlx::codegen
