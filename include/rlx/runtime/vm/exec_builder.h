// Builds an Executable one function at a time (after TVM's ExecBuilder):
// what VMCodeGen uses, and what tests use to write bytecode by hand.
//
//   ExecBuilder b;
//   b.EmitFunction("main", 2, {"x", "y"});
//   b.EmitCall("vm.builtin.make_tuple", {Arg::Register(0), Arg::Register(1)}, 2);
//   b.EmitRet(2);
//   b.EndFunction("main");
//   std::shared_ptr<Executable> exec = b.Get();
//
// Calling a function by name declares it as a packed function unless it was
// declared (or defined) as something else; constants are deduplicated for
// ints, strings, shapes and dtypes.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rlx/runtime/vm/executable.h"

namespace rlx::runtime::vm {

class ExecBuilder {
 public:
  using Arg = Instruction::Arg;

  ExecBuilder();

  // Declares `name` with `kind` (a later EmitFunction fills in the body).
  void DeclareFunction(const std::string& name, VMFuncInfo::FuncKind kind);
  // Starts the body of VM function `name`; registers 0..num_inputs-1 are
  // its parameters.
  void EmitFunction(const std::string& name, int64_t num_inputs, std::vector<std::string> param_names);
  // Ends the current function; its register file size is the highest
  // register used + 1.
  void EndFunction(const std::string& name);

  // Emits a call of `func` (declared as a packed function if unknown).
  void EmitCall(const std::string& func, std::vector<Arg> args, RegName dst);
  void EmitCall(Index func_idx, std::vector<Arg> args, RegName dst);
  void EmitRet(RegName result);
  void EmitGoto(int64_t pc_offset);
  void EmitIf(RegName cond, int64_t false_offset);
  // The index of the next instruction (for patching jumps).
  Index NextInstrIndex() const;
  // Changes the offset of the Goto or If at `instr`.
  void SetJumpOffset(Index instr, int64_t offset);

  // A constant-pool argument for `value`.
  Arg ConvertConstant(const Value& value);
  // The function-table index of `name`, or -1.
  Index GetFunction(const std::string& name) const;

  // The finished executable (verified).
  std::shared_ptr<Executable> Get();

 private:
  void NoteRegister(RegName reg);
  void NoteArg(const Arg& arg);
  std::shared_ptr<Executable> exec_;
  std::optional<Index> current_func_;
  int64_t max_register_ = -1;
};

}  // namespace rlx::runtime::vm
