// Instruction constructors and the one-word argument encoding.
#include "rlx/runtime/vm/bytecode.h"

#include "rlx/runtime/error.h"

namespace rlx::runtime::vm {

int64_t Instruction::Arg::Encode() const {
  if (value_ < kValueMin || value_ > kValueMax) {
    throw RuntimeError(StrCat("VM instruction argument ", value_, " does not fit in ", kValueBits, " bits"));
  }
  uint64_t low = static_cast<uint64_t>(value_) & ((uint64_t{1} << kValueBits) - 1);
  return static_cast<int64_t>((static_cast<uint64_t>(kind_) << kValueBits) | low);
}

Instruction::Arg Instruction::Arg::Decode(int64_t word) {
  uint64_t bits = static_cast<uint64_t>(word);
  uint64_t kind = bits >> kValueBits;
  if (kind > static_cast<uint64_t>(Kind::kFuncIdx)) {
    throw RuntimeError(StrCat("VM instruction argument has unknown kind ", kind));
  }
  // Sign-extend the low 56 bits.
  int64_t value = static_cast<int64_t>(bits << kKindBits) >> kKindBits;
  return Arg(static_cast<Kind>(kind), value);
}

Instruction Instruction::Call(Index func_idx, std::vector<Arg> args, RegName dst) {
  Instruction instr;
  instr.op = Opcode::kCall;
  instr.reg = dst;
  instr.func_idx = func_idx;
  instr.args = std::move(args);
  return instr;
}

Instruction Instruction::Ret(RegName result) {
  Instruction instr;
  instr.op = Opcode::kRet;
  instr.reg = result;
  return instr;
}

Instruction Instruction::Goto(int64_t pc_offset) {
  Instruction instr;
  instr.op = Opcode::kGoto;
  instr.offset = pc_offset;
  return instr;
}

Instruction Instruction::If(RegName cond, int64_t false_offset) {
  Instruction instr;
  instr.op = Opcode::kIf;
  instr.reg = cond;
  instr.offset = false_offset;
  return instr;
}

std::string RegNameToString(RegName reg) {
  if (reg == Instruction::kVoidRegister) return "%void";
  if (reg == Instruction::kVMRegister) return "%vm";
  return StrCat("%", reg);
}

}  // namespace rlx::runtime::vm
