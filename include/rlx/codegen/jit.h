// In-process compilation of PrimFuncs to machine code (LLVM 19 ORC LLJIT).
//
//   auto jit = codegen::JitModule::Compile({{"add", add_func}}, {});
//   auto add = reinterpret_cast<RLXPackedCFunc>(jit->GetFunction("add"));
//   int rc = add(args, type_codes, 3, &ret, &ret_code);  // 0, or an error
//
// or, with the runtime's calling conveniences and error translation:
//
//   runtime::Module mod = codegen::JitModule::CompileToModule(funcs, {});
//   mod.GetFunction("add")(a, b, c);      // NDArrays; RuntimeError on failure
//
// Every exported kernel has the packed C signature of rlx/runtime/c_abi.h:
// `int name(RLXValue* args, int* type_codes, int num_args, RLXValue* ret,
// int* ret_code)`. Arguments follow the PrimFunc's parameters: a buffer
// parameter takes a DLTensor* (type code RLX_ARG_TENSOR), a scalar an int64
// (RLX_ARG_INT) or a double (RLX_ARG_FLOAT). The entry checks the arguments
// against the function's buffers (count, type codes, rank, dtype, device,
// every dimension, strides, byte offset), binds the symbolic shape
// variables, and on a mismatch returns nonzero after
// rlx_set_last_error("add: buffer A: expected dimension 1 to be n * 4 (= 12),
// got 5"). Generated code reaches the runtime (parallel_for, workspace,
// errors) through the module's rlx_runtime_callbacks table, which Compile
// fills in, exactly as Module::LoadFromFile does for a shared library.
//
// No LLVM type appears here; the implementation is src/codegen/llvm/.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rlx/codegen/options.h"
#include "rlx/runtime/c_abi.h"
#include "rlx/runtime/module.h"
#include "rlx/tir/function.h"

namespace rlx::codegen {

using NamedPrimFuncs = std::vector<std::pair<std::string, tir::PrimFunc>>;

class JitModule {
 public:
  // Compiles `funcs` (each exported under its name) into one LLVM module and
  // loads it. User errors (an unsupported construct, a shape variable no
  // argument defines) are CompileErrors naming the function.
  static std::unique_ptr<JitModule> Compile(const NamedPrimFuncs& funcs, const CodegenOptions& options = {});
  // The same, wrapped as a runtime Module (which keeps the JIT alive).
  static runtime::Module CompileToModule(const NamedPrimFuncs& funcs, const CodegenOptions& options = {});

  ~JitModule();
  JitModule(const JitModule&) = delete;
  JitModule& operator=(const JitModule&) = delete;

  // The address of the exported kernel `name` (an RLXPackedCFunc), or
  // nullptr when there is none.
  void* GetFunction(const std::string& name) const;
  RLXPackedCFunc GetPackedCFunc(const std::string& name) const {
    return reinterpret_cast<RLXPackedCFunc>(GetFunction(name));
  }
  // The optimized LLVM IR of the whole module, as text.
  const std::string& GetLLVMIR() const;

 private:
  struct Impl;
  explicit JitModule(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rlx::codegen
