// The VM executable: function table, constant pool and bytecode, with a
// versioned binary format (after TVM's relax VMExecutable, our own code).
//
// Function table entries have a kind:
// - kVMFunc: a graph function compiled to bytecode, instructions
//   [start_instr, end_instr) with register_file_size registers; its
//   parameters are registers 0..num_args-1.
// - kPackedFunc: a builtin or library function found by name when the VM is
//   loaded (the kernel library first, then the global registry).
// - kVMTIRFunc: a TIR kernel of the compiled library (also resolved by name
//   in the kernel library first).
//
// Binary format (all integers little-endian):
//   u64 magic kMagic ("RLXVMEXE"), u32 kFormatVersion, u64 payload size,
//   u64 checksum (FNV-1a 64 of the payload), payload.
// The payload is: function table, constants, instructions, each a count
// followed by entries. A blob with the wrong magic, another version, a bad
// checksum, a truncated payload or indices out of range is a RuntimeError
// that says what is wrong; loading never crashes.
//
// Library embedding: a shared library built by rlx may carry a serialized
// executable in two exported symbols, kExecutableSymbol (the bytes) and
// kExecutableSizeSymbol (a uint64 byte count); LoadFromLibrary reads them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rlx/runtime/module.h"
#include "rlx/runtime/packed_func.h"
#include "rlx/runtime/vm/bytecode.h"

namespace rlx::runtime::vm {

struct VMFuncInfo {
  enum class FuncKind : uint8_t { kPackedFunc = 0, kVMFunc = 1, kVMTIRFunc = 2 };
  FuncKind kind = FuncKind::kPackedFunc;
  std::string name;
  Index start_instr = 0;
  Index end_instr = 0;
  int64_t num_args = 0;
  int64_t register_file_size = 0;
  std::vector<std::string> param_names;
  bool operator==(const VMFuncInfo& other) const = default;
};

class Executable {
 public:
  static constexpr uint64_t kMagic = 0x4558454d56584c52ULL;  // "RLXVMEXE"
  static constexpr uint32_t kFormatVersion = 1;
  static constexpr const char* kExecutableSymbol = "rlx_vm_executable";
  static constexpr const char* kExecutableSizeSymbol = "rlx_vm_executable_size";

  std::vector<VMFuncInfo> func_table;
  // name -> index into func_table.
  std::unordered_map<std::string, Index> func_map;
  // NDArray, shape, string, int, float or dtype values.
  std::vector<Value> constants;
  std::vector<Instruction> instructions;

  // Index of `name` in the function table, or -1.
  Index FindFunction(const std::string& name) const;
  // The names of the VM functions (kVMFunc), in table order.
  std::vector<std::string> GetVMFunctionNames() const;

  // Readable bytecode, e.g.
  //   @main(x, w) regs=5:
  //     call  vm.builtin.check_tensor_info in: %0, i2, c[0], c[1] dst: %void
  //     if    %2, 3
  //     goto  2
  //     ret   %4
  std::string AsText() const;

  // The binary format above.
  std::string SaveToBytes() const;
  static std::shared_ptr<Executable> LoadFromBytes(std::string_view bytes);
  void SaveToFile(const std::string& path) const;
  static std::shared_ptr<Executable> LoadFromFile(const std::string& path);
  // The executable embedded in a module (the two symbols above);
  // RuntimeError when it has none.
  static std::shared_ptr<Executable> LoadFromModule(const Module& module);
  // Loads the shared library at `path` and its embedded executable.
  static std::shared_ptr<Executable> LoadFromLibrary(const std::string& path, Module* library = nullptr);

  // Checks every index (functions, constants, registers, jump targets);
  // RuntimeError naming the first problem. LoadFromBytes calls it.
  void Verify() const;
};

}  // namespace rlx::runtime::vm
