// The VM's register bytecode (after TVM's relax VM, our own code).
//
// A VM function is a straight list of instructions over a register file.
// There are four opcodes:
//   Call dst, func_idx, args...   dst = func_table[func_idx](args...)
//   Ret  result                   returns register `result`
//   Goto pc_offset                pc += pc_offset
//   If   cond, false_offset       pc += (register cond is true) ? 1 : false_offset
// Offsets are relative to the instruction itself, so a function's code can be
// moved. A call argument (Instruction::Arg) is one of: a register, an
// immediate int64, an index into the constant pool, or an index into the
// function table (which passes the function itself: a closure for a VM
// function, the packed function otherwise).
//
// Two special registers exist in every frame: kVoidRegister (writes are
// dropped, reads give null) and kVMRegister (reads give the VM context, the
// first argument of builtins such as vm.builtin.alloc_storage).
//
// Serialized, an Arg is one int64 word: the kind in the top 8 bits and the
// value, sign-extended, in the low 56 bits (so immediates lie within +-2^55).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rlx::runtime::vm {

using RegName = int64_t;
using Index = int64_t;

enum class Opcode : uint8_t {
  kCall = 1,
  kRet = 2,
  kGoto = 3,
  kIf = 4,
};

struct Instruction {
  // Registers at or above this value are special.
  static constexpr RegName kBeginSpecialReg = int64_t{1} << 54;
  static constexpr RegName kVoidRegister = kBeginSpecialReg + 0;
  static constexpr RegName kVMRegister = kBeginSpecialReg + 1;

  class Arg {
   public:
    enum class Kind : uint8_t { kRegister = 0, kImmediate = 1, kConstIdx = 2, kFuncIdx = 3 };
    static constexpr int kKindBits = 8;
    static constexpr int kValueBits = 64 - kKindBits;
    static constexpr int64_t kValueMax = (int64_t{1} << (kValueBits - 1)) - 1;
    static constexpr int64_t kValueMin = -(int64_t{1} << (kValueBits - 1));

    Arg() = default;
    static Arg Register(RegName reg) { return Arg(Kind::kRegister, reg); }
    static Arg Immediate(int64_t value) { return Arg(Kind::kImmediate, value); }
    static Arg ConstIdx(Index index) { return Arg(Kind::kConstIdx, index); }
    static Arg FuncIdx(Index index) { return Arg(Kind::kFuncIdx, index); }

    Kind kind() const { return kind_; }
    int64_t value() const { return value_; }
    // The one-word encoding; RuntimeError if the value does not fit.
    int64_t Encode() const;
    // RuntimeError for an unknown kind.
    static Arg Decode(int64_t word);
    bool operator==(const Arg& other) const { return kind_ == other.kind_ && value_ == other.value_; }

   private:
    Arg(Kind kind, int64_t value) : kind_(kind), value_(value) {}
    Kind kind_ = Kind::kImmediate;
    int64_t value_ = 0;
  };

  Opcode op = Opcode::kRet;
  // Call: destination register; Ret: result register; If: condition register.
  RegName reg = 0;
  // Call: index into the function table.
  Index func_idx = 0;
  // Goto: pc offset; If: the offset taken when the condition is false.
  int64_t offset = 0;
  // Call: the arguments.
  std::vector<Arg> args;

  static Instruction Call(Index func_idx, std::vector<Arg> args, RegName dst);
  static Instruction Ret(RegName result);
  static Instruction Goto(int64_t pc_offset);
  static Instruction If(RegName cond, int64_t false_offset);
  bool operator==(const Instruction& other) const = default;
};

// "%3", "%void", "%vm".
std::string RegNameToString(RegName reg);

}  // namespace rlx::runtime::vm
