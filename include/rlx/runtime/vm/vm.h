// The virtual machine that runs an Executable (after TVM's relax VM, our own
// code).
//
//   auto exec = Executable::LoadFromLibrary("model.so", &lib);
//   VirtualMachine vm(exec, lib);
//   Value y = vm.Invoke("main", {x});
//
// Loading resolves every packed function and TIR kernel of the function
// table by name, the kernel library first, then the global registry
// (builtins are registered by RegisterBuiltins, which the constructor calls);
// a name found nowhere is a RuntimeError at load time, naming it.
//
// Each call of a VM function gets a frame with its own register file;
// arguments arrive in registers 0..num_args-1. Anything a builtin or kernel
// throws reaches the caller of Invoke as a RuntimeError with the message,
// prefixed by the VM function it happened in; nothing aborts.
//
// Closures: a function-table argument of a VM function evaluates to a
// VMClosure (a Value holding the object) that captures nothing;
// vm.builtin.make_closure binds trailing arguments and
// vm.builtin.invoke_closure(vm, closure, args...) calls one.
//
// Threads: several threads may Invoke the same VirtualMachine at once (as
// with ONNX Runtime's InferenceSession::Run). Frames are per call, the call
// site an alloc_storage belongs to is tracked per thread, and the static
// storage cache hands a storage to one caller at a time under a mutex (a
// storage another thread still holds is never reused). Only
// EnableProfiling must not run while another thread is calling.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "rlx/runtime/allocator.h"

#include "rlx/runtime/module.h"
#include "rlx/runtime/packed_func.h"
#include "rlx/runtime/vm/executable.h"

namespace rlx::runtime::vm {

class VirtualMachine;

// A callable VM function (or any function) with bound trailing arguments.
class VMClosure final : public Object {
 public:
  VMClosure(std::string func_name, PackedFunc impl) : func_name(std::move(func_name)), impl(std::move(impl)) {}
  std::string func_name;
  // Takes the VM function's arguments (without the VM context).
  PackedFunc impl;
  static constexpr std::string_view kTypeName = "VMClosure";
  std::string_view type_name() const override { return kTypeName; }
};

// The value of the kVMRegister register: gives builtins the VM.
class VMContext final : public Object {
 public:
  explicit VMContext(VirtualMachine* vm) : vm(vm) {}
  VirtualMachine* vm;
  static constexpr std::string_view kTypeName = "VMContext";
  std::string_view type_name() const override { return kTypeName; }
};

class VirtualMachine {
 public:
  // `library` may be undefined when the executable calls no kernel.
  // `allocator` (nullptr: the global pooled allocator) serves alloc_storage.
  VirtualMachine(std::shared_ptr<const Executable> exec, Module library = Module(),
                 Allocator* allocator = nullptr);
  ~VirtualMachine();
  VirtualMachine(const VirtualMachine&) = delete;
  VirtualMachine& operator=(const VirtualMachine&) = delete;

  // Calls VM function `name`; RuntimeError for an unknown name or a wrong
  // number of arguments.
  Value Invoke(const std::string& name, const std::vector<Value>& args);
  // Calls any function-table entry or closure value.
  Value InvokeClosure(const Value& closure, std::span<const Value> args);

  std::vector<std::string> GetFunctionNames() const;
  // The parameter names of VM function `name` (RuntimeError if unknown).
  const std::vector<std::string>& GetParamNames(const std::string& name) const;
  // VM function `name` as a PackedFunc (keeps a pointer to this VM).
  PackedFunc GetFunction(const std::string& name);

  const Executable& executable() const { return *exec_; }
  Allocator* allocator() const { return allocator_; }
  const Value& context() const { return context_; }
  // Extracts the VM from the kVMRegister value a builtin receives.
  static VirtualMachine* FromContext(const Value& value, std::string_view builtin);

  // The storage for vm.builtin.alloc_storage, called by the instruction
  // being executed. Static storage cache: when that instruction's size is a
  // constant of the executable, the storage is allocated once and kept per
  // VM and instruction; a later execution of the instruction gets it back
  // if nothing else holds it any more (no tensor, register or output of an
  // earlier call, which also covers recursion and re-entrancy: a frame
  // still using it makes the next one allocate afresh). Up to
  // kStoragesPerSite storages are kept per instruction, so that a caller
  // holding one output (a planned output is a view of its arena) while it
  // calls again, e.g. feeding each output back as the next input, alternates
  // between two storages without allocating. Other sizes are allocated from
  // allocator() each time.
  std::shared_ptr<Storage> AllocStorage(size_t nbytes);
  // The same cache for a builtin whose size is fixed by its instruction
  // (vm.builtin.alloc_shape_heap): always kept per instruction.
  std::shared_ptr<Storage> AllocSiteStorage(size_t nbytes);

  // Call profiling (TVM's vm.profile, simplified): while enabled, every call
  // instruction is timed and its wall-clock time is added to its callee's
  // entry (a kernel, packed function, builtin or VM function; a VM
  // function's time includes the calls it makes; a call through
  // vm.builtin.call_tir_dyn is charged to its kernel). Off by default: a
  // disabled profiler costs one branch per call.
  struct CallProfile {
    std::string name;
    int64_t calls = 0;
    int64_t total_ns = 0;
  };
  // Not while another thread is calling this VM.
  void EnableProfiling(bool enable);
  // The callees called since profiling was enabled, most total time first.
  std::vector<CallProfile> ProfileReport() const;

 private:
  struct Frame;
  Value InvokeIndex(Index func_idx, std::span<const Value> args);
  Value InvokeProfiled(const Instruction& instr, std::span<const Value> args);
  Value RunFrame(Index func_idx, std::span<const Value> args);
  Value ReadArg(const Frame& frame, const Instruction::Arg& arg) const;
  void ResolveFunctions();
  std::shared_ptr<Storage> TakeSiteStorage(Index site, size_t nbytes);

  std::shared_ptr<const Executable> exec_;
  Module library_;
  Allocator* allocator_;
  Value context_;
  // Per function-table entry: the packed function, or the closure of a VM
  // function (as a Value, for kFuncIdx arguments).
  std::vector<PackedFunc> func_pool_;
  std::vector<Value> func_values_;
  // The static storage cache by instruction (the instruction whose call is
  // in progress is kept per thread, in vm.cc), guarded by storage_mutex_.
  static constexpr size_t kStoragesPerSite = 2;
  std::mutex storage_mutex_;
  std::unordered_map<Index, std::vector<std::shared_ptr<Storage>>> static_storage_;
  // Per function-table entry while profiling is on (empty when off),
  // guarded by profile_mutex_.
  std::vector<CallProfile> profile_;
  mutable std::mutex profile_mutex_;
};

// Registers the vm.builtin.* functions in the global registry (idempotent,
// thread-safe).
void RegisterBuiltins();

// MatchShapeCode / MakeShapeCode: the integer protocol of
// vm.builtin.match_shape and vm.builtin.make_shape (same values as TVM).
enum class MatchShapeCode : int { kAssertEqualToImm = 0, kStoreToHeap = 1, kNoOp = 2, kAssertEqualToLoad = 3 };
enum class MakeShapeCode : int { kUseImm = 0, kLoadShape = 1 };

}  // namespace rlx::runtime::vm
