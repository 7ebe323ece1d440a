// ExecBuilder: appends functions, instructions and constants to an
// Executable, tracking the register file size of the current function.
#include "rlx/runtime/vm/exec_builder.h"

#include "rlx/runtime/error.h"

namespace rlx::runtime::vm {

ExecBuilder::ExecBuilder() : exec_(std::make_shared<Executable>()) {}

void ExecBuilder::DeclareFunction(const std::string& name, VMFuncInfo::FuncKind kind) {
  Index existing = exec_->FindFunction(name);
  if (existing >= 0) {
    if (exec_->func_table[existing].kind != kind) {
      throw RuntimeError(StrCat("ExecBuilder: function '", name, "' declared with two different kinds"));
    }
    return;
  }
  VMFuncInfo info;
  info.kind = kind;
  info.name = name;
  exec_->func_map.emplace(name, static_cast<Index>(exec_->func_table.size()));
  exec_->func_table.push_back(std::move(info));
}

void ExecBuilder::EmitFunction(const std::string& name, int64_t num_inputs, std::vector<std::string> param_names) {
  RLX_RUNTIME_ICHECK(!current_func_) << "EmitFunction(" << name << ") inside another function";
  RLX_RUNTIME_ICHECK(static_cast<int64_t>(param_names.size()) == num_inputs) << name;
  DeclareFunction(name, VMFuncInfo::FuncKind::kVMFunc);
  Index idx = exec_->FindFunction(name);
  VMFuncInfo& info = exec_->func_table[idx];
  RLX_RUNTIME_ICHECK(info.end_instr == 0) << "function " << name << " emitted twice";
  info.num_args = num_inputs;
  info.param_names = std::move(param_names);
  info.start_instr = static_cast<Index>(exec_->instructions.size());
  current_func_ = idx;
  max_register_ = num_inputs - 1;
}

void ExecBuilder::EndFunction(const std::string& name) {
  RLX_RUNTIME_ICHECK(current_func_ && exec_->func_table[*current_func_].name == name) << "EndFunction(" << name << ")";
  VMFuncInfo& info = exec_->func_table[*current_func_];
  info.end_instr = static_cast<Index>(exec_->instructions.size());
  info.register_file_size = max_register_ + 1;
  current_func_.reset();
}

void ExecBuilder::NoteRegister(RegName reg) {
  if (reg < Instruction::kBeginSpecialReg && reg > max_register_) max_register_ = reg;
}

void ExecBuilder::NoteArg(const Arg& arg) {
  if (arg.kind() == Arg::Kind::kRegister) NoteRegister(arg.value());
}

void ExecBuilder::EmitCall(const std::string& func, std::vector<Arg> args, RegName dst) {
  Index idx = exec_->FindFunction(func);
  if (idx < 0) {
    DeclareFunction(func, VMFuncInfo::FuncKind::kPackedFunc);
    idx = exec_->FindFunction(func);
  }
  EmitCall(idx, std::move(args), dst);
}

void ExecBuilder::EmitCall(Index func_idx, std::vector<Arg> args, RegName dst) {
  RLX_RUNTIME_ICHECK(current_func_) << "EmitCall outside a function";
  for (const auto& arg : args) NoteArg(arg);
  NoteRegister(dst);
  exec_->instructions.push_back(Instruction::Call(func_idx, std::move(args), dst));
}

void ExecBuilder::EmitRet(RegName result) {
  RLX_RUNTIME_ICHECK(current_func_) << "EmitRet outside a function";
  NoteRegister(result);
  exec_->instructions.push_back(Instruction::Ret(result));
}

void ExecBuilder::EmitGoto(int64_t pc_offset) {
  RLX_RUNTIME_ICHECK(current_func_) << "EmitGoto outside a function";
  exec_->instructions.push_back(Instruction::Goto(pc_offset));
}

void ExecBuilder::EmitIf(RegName cond, int64_t false_offset) {
  RLX_RUNTIME_ICHECK(current_func_) << "EmitIf outside a function";
  NoteRegister(cond);
  exec_->instructions.push_back(Instruction::If(cond, false_offset));
}

Index ExecBuilder::NextInstrIndex() const { return static_cast<Index>(exec_->instructions.size()); }

void ExecBuilder::SetJumpOffset(Index instr, int64_t offset) {
  RLX_RUNTIME_ICHECK(instr >= 0 && instr < NextInstrIndex()) << instr;
  Instruction& target = exec_->instructions[instr];
  RLX_RUNTIME_ICHECK(target.op == Opcode::kGoto || target.op == Opcode::kIf) << "not a jump at " << instr;
  target.offset = offset;
}

ExecBuilder::Arg ExecBuilder::ConvertConstant(const Value& value) {
  auto& constants = exec_->constants;
  // Deduplicate the small kinds (NDArrays are kept apart: they are large and
  // compared by identity only).
  for (size_t i = 0; i < constants.size(); ++i) {
    const Value& c = constants[i];
    if (c.kind() != value.kind()) continue;
    bool same = false;
    switch (value.kind()) {
      case Value::Kind::kInt:
        same = c.AsInt() == value.AsInt();
        break;
      case Value::Kind::kString:
        same = c.AsString() == value.AsString();
        break;
      case Value::Kind::kShape:
        same = c.AsShape() == value.AsShape();
        break;
      case Value::Kind::kDtype:
        same = c.AsDtype() == value.AsDtype();
        break;
      case Value::Kind::kNull:
        same = true;
        break;
      default:
        break;
    }
    if (same) return Arg::ConstIdx(static_cast<Index>(i));
  }
  constants.push_back(value);
  return Arg::ConstIdx(static_cast<Index>(constants.size() - 1));
}

Index ExecBuilder::GetFunction(const std::string& name) const { return exec_->FindFunction(name); }

std::shared_ptr<Executable> ExecBuilder::Get() {
  RLX_RUNTIME_ICHECK(!current_func_) << "Get() inside function " << exec_->func_table[*current_func_].name;
  for (const auto& info : exec_->func_table) {
    if (info.kind == VMFuncInfo::FuncKind::kVMFunc && info.end_instr == 0) {
      throw RuntimeError(StrCat("ExecBuilder: VM function '", info.name, "' declared but never defined"));
    }
  }
  exec_->Verify();
  return exec_;
}

}  // namespace rlx::runtime::vm
