// Loaded code: a Module is a handle to a library of compiled kernels.
//
// Module::LoadFromFile(path) dlopens a shared library built by rlx (or by
// hand against c_abi.h), checks that it is an rlx module of this ABI version,
// and installs the runtime's callback table in it (c_abi.h, section 2). Every
// failure is a RuntimeError that names the file: not found, not a shared
// library, a shared library that is not an rlx module, a different ABI
// version, a missing kernel.
//
// GetFunction(name) wraps a kernel with the packed C signature in a
// PackedFunc: Values are converted to RLXValue (NDArray -> DLTensor*, int and
// bool -> int64, float -> double, string -> const char*, null -> null), the
// kernel's nonzero return becomes a RuntimeError carrying the message the
// kernel passed to rlx_set_last_error, and its return value comes back as a
// Value. GetSymbol(name) gives the raw address for other signatures.
//
// A Module is a shared handle over a ModuleNode, so a later JIT can provide
// its own node; the library stays loaded while any handle or any PackedFunc
// from it is alive.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "rlx/runtime/c_abi.h"
#include "rlx/runtime/packed_func.h"

namespace rlx::runtime {

class ModuleNode {
 public:
  virtual ~ModuleNode() = default;
  // The address of symbol `name`, or nullptr.
  virtual void* GetSymbol(const std::string& name) const = 0;
  // For messages: the file path, or a name like "jit".
  virtual const std::string& name() const = 0;
};

class Module {
 public:
  Module() = default;
  explicit Module(std::shared_ptr<const ModuleNode> node) : node_(std::move(node)) {}

  // Loads an rlx module from a shared library (see above).
  static Module LoadFromFile(const std::string& path);

  // The address of a symbol, or nullptr when absent.
  void* GetSymbol(const std::string& name) const;
  // Like GetSymbol, but RuntimeError "module 'm.so' has no symbol 'f'".
  void* GetRequiredSymbol(const std::string& name) const;
  // The kernel `name` (packed C signature, c_abi.h) as a PackedFunc, or a
  // null PackedFunc when absent.
  PackedFunc GetFunction(const std::string& name) const;
  // Like GetFunction, but RuntimeError when absent.
  PackedFunc GetRequiredFunction(const std::string& name) const;

  bool defined() const { return node_ != nullptr; }
  const std::string& name() const;

 private:
  const ModuleNode& node() const;
  std::shared_ptr<const ModuleNode> node_;
};

// Calls a packed C kernel with Values (the conversion GetFunction uses);
// `name` appears in errors.
Value CallPackedCFunc(RLXPackedCFunc func, std::span<const Value> args, const std::string& name);

}  // namespace rlx::runtime
