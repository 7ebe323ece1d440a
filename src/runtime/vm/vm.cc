// The interpreter: function resolution at load time, frames with register
// files, and the dispatch loop over Call / Ret / Goto / If.
//
// Design: every function-table entry becomes a PackedFunc in func_pool_ at
// load time (a VM function's entry runs RunFrame), so a Call instruction is
// one indirect call whatever its callee. Arguments are gathered into a
// scratch vector per frame; registers hold Values, so a value dies (and its
// storage returns to the pool) when its last register is overwritten, e.g.
// by the null that R.vm.kill_object compiles to.
#include "rlx/runtime/vm/vm.h"

#include <algorithm>
#include <chrono>
#include <mutex>

#include "rlx/runtime/error.h"

namespace rlx::runtime::vm {

namespace {

// The call instruction in progress on this thread: alloc_storage asks for
// it to find its site. Per thread, so that concurrent Invokes of one VM do
// not see each other's sites; tagged with the VM, so that a builtin of
// another VM never takes this VM's site.
struct CallSite {
  const VirtualMachine* vm = nullptr;
  Index instr = -1;
};
thread_local CallSite current_call_site;

// Takes (and clears) this thread's call site if it belongs to `vm`; -1 if
// none does. Clearing it keeps a nested call from seeing the site.
Index TakeCallSite(const VirtualMachine* vm) {
  CallSite site = current_call_site;
  current_call_site = CallSite();
  return site.vm == vm ? site.instr : -1;
}

}  // namespace

struct VirtualMachine::Frame {
  std::vector<Value> registers;
  std::vector<Value> call_args;
};

VirtualMachine::VirtualMachine(std::shared_ptr<const Executable> exec, Module library, Allocator* allocator)
    : exec_(std::move(exec)),
      library_(std::move(library)),
      allocator_(allocator != nullptr ? allocator : Allocator::Global()) {
  if (exec_ == nullptr) throw RuntimeError("VirtualMachine: no executable");
  RegisterBuiltins();
  context_ = Value(std::make_shared<VMContext>(this));
  ResolveFunctions();
}

VirtualMachine::~VirtualMachine() = default;

void VirtualMachine::ResolveFunctions() {
  const auto& table = exec_->func_table;
  func_pool_.resize(table.size());
  func_values_.resize(table.size());
  for (size_t i = 0; i < table.size(); ++i) {
    const VMFuncInfo& info = table[i];
    auto idx = static_cast<Index>(i);
    if (info.kind == VMFuncInfo::FuncKind::kVMFunc) {
      func_pool_[i] = PackedFunc(info.name, [this, idx](const Args& args) { return RunFrame(idx, args.values()); });
      func_values_[i] = Value(std::make_shared<VMClosure>(info.name, func_pool_[i]));
      continue;
    }
    PackedFunc func;
    if (library_.defined()) func = library_.GetFunction(info.name);
    if (!func) func = Registry::Get(info.name);
    if (!func) {
      std::string where = library_.defined() ? StrCat("neither in library '", library_.name(), "' nor")
                                             : std::string("not");
      throw RuntimeError(StrCat("VM executable calls function '", info.name, "', which is ", where,
                                " registered in the runtime"));
    }
    func_pool_[i] = func;
    func_values_[i] = Value(func);
  }
}

Value VirtualMachine::Invoke(const std::string& name, const std::vector<Value>& args) {
  Index idx = exec_->FindFunction(name);
  if (idx < 0 || exec_->func_table[idx].kind != VMFuncInfo::FuncKind::kVMFunc) {
    std::string known;
    for (const auto& fn : GetFunctionNames()) known += (known.empty() ? "" : ", ") + fn;
    throw RuntimeError(StrCat("the VM executable has no function '", name, "' (functions: ", known, ")"));
  }
  return RunFrame(idx, args);
}

Value VirtualMachine::InvokeClosure(const Value& closure, std::span<const Value> args) {
  if (closure.kind() == Value::Kind::kFunc) return closure.AsFunc().CallPacked(args);
  if (closure.kind() == Value::Kind::kObject) {
    if (auto vm_closure = std::dynamic_pointer_cast<VMClosure>(closure.AsObject())) {
      return vm_closure->impl.CallPacked(args);
    }
  }
  throw RuntimeError(StrCat("cannot call a value of type ", closure.type_name(), " (expected a closure)"));
}

Value VirtualMachine::InvokeIndex(Index func_idx, std::span<const Value> args) {
  return func_pool_[func_idx].CallPacked(args);
}

// The function-table entry a call is charged to: the kernel for
// vm.builtin.call_tir_dyn (its first argument), else the callee itself.
static Index ProfiledCallee(const Executable& exec, const Instruction& instr) {
  if (!instr.args.empty() && instr.args[0].kind() == Instruction::Arg::Kind::kFuncIdx &&
      exec.func_table[instr.func_idx].name == "vm.builtin.call_tir_dyn") {
    return instr.args[0].value();
  }
  return instr.func_idx;
}

Value VirtualMachine::InvokeProfiled(const Instruction& instr, std::span<const Value> args) {
  auto start = std::chrono::steady_clock::now();
  Value result = InvokeIndex(instr.func_idx, args);
  auto elapsed = std::chrono::steady_clock::now() - start;
  std::lock_guard<std::mutex> lock(profile_mutex_);
  CallProfile& entry = profile_[ProfiledCallee(*exec_, instr)];
  ++entry.calls;
  entry.total_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
  return result;
}

void VirtualMachine::EnableProfiling(bool enable) {
  profile_.clear();
  if (!enable) return;
  profile_.resize(exec_->func_table.size());
  for (size_t i = 0; i < profile_.size(); ++i) profile_[i].name = exec_->func_table[i].name;
}

std::vector<VirtualMachine::CallProfile> VirtualMachine::ProfileReport() const {
  std::lock_guard<std::mutex> lock(profile_mutex_);
  std::vector<CallProfile> called;
  for (const CallProfile& entry : profile_) {
    if (entry.calls > 0) called.push_back(entry);
  }
  std::stable_sort(called.begin(), called.end(),
                   [](const CallProfile& a, const CallProfile& b) { return a.total_ns > b.total_ns; });
  return called;
}

Value VirtualMachine::ReadArg(const Frame& frame, const Instruction::Arg& arg) const {
  switch (arg.kind()) {
    case Instruction::Arg::Kind::kRegister:
      if (arg.value() == Instruction::kVMRegister) return context_;
      if (arg.value() == Instruction::kVoidRegister) return Value();
      return frame.registers[arg.value()];
    case Instruction::Arg::Kind::kImmediate:
      return Value(arg.value());
    case Instruction::Arg::Kind::kConstIdx:
      return exec_->constants[arg.value()];
    case Instruction::Arg::Kind::kFuncIdx:
      return func_values_[arg.value()];
  }
  return Value();
}

namespace {

bool ReadCondition(const Value& cond, const std::string& func_name) {
  switch (cond.kind()) {
    case Value::Kind::kBool:
      return cond.AsBool();
    case Value::Kind::kInt:
      return cond.AsInt() != 0;
    default:
      throw RuntimeError(StrCat("in VM function '", func_name, "': if condition must be a bool, got ",
                                cond.type_name(), " (use vm.builtin.read_if_cond)"));
  }
}

}  // namespace

Value VirtualMachine::RunFrame(Index func_idx, std::span<const Value> args) {
  const VMFuncInfo& info = exec_->func_table[func_idx];
  if (static_cast<int64_t>(args.size()) != info.num_args) {
    std::string params;
    for (const auto& p : info.param_names) params += (params.empty() ? "" : ", ") + p;
    throw RuntimeError(StrCat("function '", info.name, "' expects ", info.num_args, " arguments (", params, "), got ",
                              args.size()));
  }
  Frame frame;
  frame.registers.resize(static_cast<size_t>(info.register_file_size));
  std::copy(args.begin(), args.end(), frame.registers.begin());
  const auto& code = exec_->instructions;
  Index pc = info.start_instr;
  while (true) {
    const Instruction& instr = code[pc];
    switch (instr.op) {
      case Opcode::kCall: {
        frame.call_args.clear();
        for (const auto& arg : instr.args) frame.call_args.push_back(ReadArg(frame, arg));
        current_call_site = CallSite{this, pc};
        Value result = profile_.empty() ? InvokeIndex(instr.func_idx, frame.call_args)
                                        : InvokeProfiled(instr, frame.call_args);
        if (instr.reg != Instruction::kVoidRegister) frame.registers[instr.reg] = std::move(result);
        ++pc;
        break;
      }
      case Opcode::kRet:
        if (instr.reg == Instruction::kVMRegister) return context_;
        if (instr.reg == Instruction::kVoidRegister) return Value();
        return std::move(frame.registers[instr.reg]);
      case Opcode::kGoto:
        pc += instr.offset;
        break;
      case Opcode::kIf:
        pc += ReadCondition(frame.registers[instr.reg], info.name) ? 1 : instr.offset;
        break;
    }
  }
}

// A call of vm.builtin.alloc_storage whose size is a constant.
static bool IsStaticAllocStorage(const Executable& exec, const Instruction& instr) {
  if (instr.op != Opcode::kCall || instr.args.size() < 2) return false;
  if (instr.func_idx < 0 || static_cast<size_t>(instr.func_idx) >= exec.func_table.size()) return false;
  return exec.func_table[instr.func_idx].name == "vm.builtin.alloc_storage" &&
         instr.args[1].kind() == Instruction::Arg::Kind::kConstIdx;
}

std::shared_ptr<Storage> VirtualMachine::AllocStorage(size_t nbytes) {
  Index site = TakeCallSite(this);
  if (site < 0 || !IsStaticAllocStorage(*exec_, exec_->instructions[site])) {
    return Storage::Create(nbytes, Device::CPU(), allocator_);
  }
  return TakeSiteStorage(site, nbytes);
}

std::shared_ptr<Storage> VirtualMachine::AllocSiteStorage(size_t nbytes) {
  Index site = TakeCallSite(this);
  if (site < 0) return Storage::Create(nbytes, Device::CPU(), allocator_);
  return TakeSiteStorage(site, nbytes);
}

// A cached storage is free when the cache holds its only reference. The
// reference handed out is made under the mutex, so two threads never take
// the same free storage; references dropped elsewhere only make one free.
std::shared_ptr<Storage> VirtualMachine::TakeSiteStorage(Index site, size_t nbytes) {
  std::lock_guard<std::mutex> lock(storage_mutex_);
  std::vector<std::shared_ptr<Storage>>& cached = static_storage_[site];
  for (const std::shared_ptr<Storage>& storage : cached) {
    if (storage.use_count() == 1 && storage->size() == nbytes) return storage;
  }
  std::shared_ptr<Storage> fresh = Storage::Create(nbytes, Device::CPU(), allocator_);
  if (cached.size() < kStoragesPerSite) {
    cached.push_back(fresh);
  } else {
    // Replaces a free one (of another size); all held: not kept.
    auto is_free = [](const std::shared_ptr<Storage>& storage) { return storage.use_count() == 1; };
    auto free = std::find_if(cached.begin(), cached.end(), is_free);
    if (free != cached.end()) *free = fresh;
  }
  return fresh;
}

std::vector<std::string> VirtualMachine::GetFunctionNames() const { return exec_->GetVMFunctionNames(); }

const std::vector<std::string>& VirtualMachine::GetParamNames(const std::string& name) const {
  Index idx = exec_->FindFunction(name);
  if (idx < 0 || exec_->func_table[idx].kind != VMFuncInfo::FuncKind::kVMFunc) {
    throw RuntimeError(StrCat("the VM executable has no function '", name, "'"));
  }
  return exec_->func_table[idx].param_names;
}

PackedFunc VirtualMachine::GetFunction(const std::string& name) {
  Index idx = exec_->FindFunction(name);
  if (idx < 0 || exec_->func_table[idx].kind != VMFuncInfo::FuncKind::kVMFunc) {
    throw RuntimeError(StrCat("the VM executable has no function '", name, "'"));
  }
  return func_pool_[idx];
}

VirtualMachine* VirtualMachine::FromContext(const Value& value, std::string_view builtin) {
  if (value.kind() == Value::Kind::kObject) {
    if (auto context = std::dynamic_pointer_cast<VMContext>(value.AsObject())) return context->vm;
  }
  throw RuntimeError(StrCat("'", builtin, "' expects the VM context as argument 0, got ", value.type_name()));
}

}  // namespace rlx::runtime::vm
