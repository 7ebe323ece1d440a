// Executable: lookup, text form, verification and the binary format.
//
// The binary format is written by ByteWriter and read by ByteReader, which
// checks every read against the remaining bytes and every count against what
// the remaining bytes could possibly hold, so a truncated or corrupted blob
// becomes a RuntimeError ("VM executable: truncated while reading
// constants") rather than a huge allocation or a read past the end. After
// parsing, Verify() checks every index, so the interpreter can trust them.
#include "rlx/runtime/vm/executable.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include "rlx/runtime/error.h"

namespace rlx::runtime::vm {
namespace {

constexpr const char* kErrorPrefix = "VM executable: ";

uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

class ByteWriter {
 public:
  template <typename T>
  void Put(T value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out_.append(bytes, sizeof(T));
  }
  void PutString(std::string_view text) {
    Put<uint64_t>(text.size());
    out_.append(text);
  }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}
  void SetSection(const char* section) { section_ = section; }

  template <typename T>
  T Get() {
    Need(sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }
  std::string GetString() {
    uint64_t size = Get<uint64_t>();
    Need(size);
    std::string text(bytes_.substr(pos_, size));
    pos_ += size;
    return text;
  }
  // A count of entries each at least `min_entry_bytes` long.
  uint64_t GetCount(uint64_t min_entry_bytes) {
    uint64_t count = Get<uint64_t>();
    if (min_entry_bytes > 0 && count > Remaining() / min_entry_bytes) {
      Fail(StrCat("count ", count, " exceeds the remaining ", Remaining(), " bytes"));
    }
    return count;
  }
  uint64_t Remaining() const { return bytes_.size() - pos_; }
  [[noreturn]] void Fail(const std::string& what) const {
    throw RuntimeError(StrCat(kErrorPrefix, "corrupt data while reading ", section_, ": ", what));
  }

 private:
  void Need(uint64_t size) const {
    if (size > Remaining()) {
      throw RuntimeError(StrCat(kErrorPrefix, "truncated while reading ", section_, " (needed ", size,
                                " more bytes, ", Remaining(), " left)"));
    }
  }
  std::string_view bytes_;
  size_t pos_ = 0;
  const char* section_ = "header";
};

// Tags of constant-pool entries.
enum class ConstTag : uint8_t { kNull = 0, kInt = 1, kFloat = 2, kBool = 3, kString = 4, kDtype = 5, kShape = 6, kNDArray = 7 };

void WriteConstant(ByteWriter& out, const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      out.Put(ConstTag::kNull);
      return;
    case Value::Kind::kInt:
      out.Put(ConstTag::kInt);
      out.Put<int64_t>(value.AsInt());
      return;
    case Value::Kind::kFloat:
      out.Put(ConstTag::kFloat);
      out.Put<double>(value.AsFloat());
      return;
    case Value::Kind::kBool:
      out.Put(ConstTag::kBool);
      out.Put<uint8_t>(value.AsBool() ? 1 : 0);
      return;
    case Value::Kind::kString:
      out.Put(ConstTag::kString);
      out.PutString(value.AsString());
      return;
    case Value::Kind::kDtype: {
      DLDataType dl = value.AsDtype().dl();
      out.Put(ConstTag::kDtype);
      out.Put<uint8_t>(dl.code);
      out.Put<uint8_t>(dl.bits);
      out.Put<uint16_t>(dl.lanes);
      return;
    }
    case Value::Kind::kShape: {
      out.Put(ConstTag::kShape);
      const ShapeTuple& shape = value.AsShape();
      out.Put<uint64_t>(shape.size());
      for (int64_t dim : shape) out.Put<int64_t>(dim);
      return;
    }
    case Value::Kind::kNDArray:
      out.Put(ConstTag::kNDArray);
      out.PutString(value.AsNDArray().ToNpyBytes());
      return;
    default:
      throw RuntimeError(StrCat(kErrorPrefix, "cannot serialize a constant of type ", value.type_name()));
  }
}

Value ReadConstant(ByteReader& in) {
  auto tag = in.Get<ConstTag>();
  switch (tag) {
    case ConstTag::kNull:
      return Value();
    case ConstTag::kInt:
      return Value(in.Get<int64_t>());
    case ConstTag::kFloat:
      return Value(in.Get<double>());
    case ConstTag::kBool:
      return Value(in.Get<uint8_t>() != 0);
    case ConstTag::kString:
      return Value(in.GetString());
    case ConstTag::kDtype: {
      DLDataType dl;
      dl.code = in.Get<uint8_t>();
      dl.bits = in.Get<uint8_t>();
      dl.lanes = in.Get<uint16_t>();
      return Value(DataType(dl));
    }
    case ConstTag::kShape: {
      uint64_t ndim = in.GetCount(sizeof(int64_t));
      ShapeTuple shape(ndim);
      for (auto& dim : shape) dim = in.Get<int64_t>();
      return Value(std::move(shape));
    }
    case ConstTag::kNDArray: {
      std::string npy = in.GetString();
      try {
        return Value(NDArray::ParseNpy(npy, "constant"));
      } catch (const RuntimeError& error) {
        in.Fail(error.what());
      }
    }
  }
  in.Fail(StrCat("unknown constant tag ", static_cast<int>(tag)));
}

void WriteFunction(ByteWriter& out, const VMFuncInfo& info) {
  out.Put<uint8_t>(static_cast<uint8_t>(info.kind));
  out.PutString(info.name);
  out.Put<int64_t>(info.start_instr);
  out.Put<int64_t>(info.end_instr);
  out.Put<int64_t>(info.num_args);
  out.Put<int64_t>(info.register_file_size);
  out.Put<uint64_t>(info.param_names.size());
  for (const auto& name : info.param_names) out.PutString(name);
}

VMFuncInfo ReadFunction(ByteReader& in) {
  VMFuncInfo info;
  auto kind = in.Get<uint8_t>();
  if (kind > static_cast<uint8_t>(VMFuncInfo::FuncKind::kVMTIRFunc)) in.Fail(StrCat("unknown function kind ", int{kind}));
  info.kind = static_cast<VMFuncInfo::FuncKind>(kind);
  info.name = in.GetString();
  info.start_instr = in.Get<int64_t>();
  info.end_instr = in.Get<int64_t>();
  info.num_args = in.Get<int64_t>();
  info.register_file_size = in.Get<int64_t>();
  uint64_t num_params = in.GetCount(sizeof(uint64_t));
  info.param_names.resize(num_params);
  for (auto& name : info.param_names) name = in.GetString();
  return info;
}

void WriteInstruction(ByteWriter& out, const Instruction& instr) {
  out.Put<uint8_t>(static_cast<uint8_t>(instr.op));
  switch (instr.op) {
    case Opcode::kCall:
      out.Put<int64_t>(instr.reg);
      out.Put<int64_t>(instr.func_idx);
      out.Put<uint64_t>(instr.args.size());
      for (const auto& arg : instr.args) out.Put<int64_t>(arg.Encode());
      return;
    case Opcode::kRet:
      out.Put<int64_t>(instr.reg);
      return;
    case Opcode::kGoto:
      out.Put<int64_t>(instr.offset);
      return;
    case Opcode::kIf:
      out.Put<int64_t>(instr.reg);
      out.Put<int64_t>(instr.offset);
      return;
  }
}

Instruction ReadInstruction(ByteReader& in) {
  auto op = static_cast<Opcode>(in.Get<uint8_t>());
  switch (op) {
    case Opcode::kCall: {
      RegName dst = in.Get<int64_t>();
      Index func_idx = in.Get<int64_t>();
      uint64_t num_args = in.GetCount(sizeof(int64_t));
      std::vector<Instruction::Arg> args(num_args);
      for (auto& arg : args) {
        try {
          arg = Instruction::Arg::Decode(in.Get<int64_t>());
        } catch (const RuntimeError& error) {
          if (dynamic_cast<const InternalError*>(&error)) throw;
          in.Fail(error.what());
        }
      }
      return Instruction::Call(func_idx, std::move(args), dst);
    }
    case Opcode::kRet:
      return Instruction::Ret(in.Get<int64_t>());
    case Opcode::kGoto:
      return Instruction::Goto(in.Get<int64_t>());
    case Opcode::kIf: {
      RegName cond = in.Get<int64_t>();
      return Instruction::If(cond, in.Get<int64_t>());
    }
  }
  in.Fail(StrCat("unknown opcode ", static_cast<int>(op)));
}

std::string ArgToString(const Instruction::Arg& arg) {
  switch (arg.kind()) {
    case Instruction::Arg::Kind::kRegister:
      return RegNameToString(arg.value());
    case Instruction::Arg::Kind::kImmediate:
      return StrCat("i", arg.value());
    case Instruction::Arg::Kind::kConstIdx:
      return StrCat("c[", arg.value(), "]");
    case Instruction::Arg::Kind::kFuncIdx:
      return StrCat("f[", arg.value(), "]");
  }
  return "?";
}

const char* FuncKindName(VMFuncInfo::FuncKind kind) {
  switch (kind) {
    case VMFuncInfo::FuncKind::kPackedFunc:
      return "packed";
    case VMFuncInfo::FuncKind::kVMFunc:
      return "vm";
    case VMFuncInfo::FuncKind::kVMTIRFunc:
      return "tir";
  }
  return "?";
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RuntimeError(StrCat("cannot open VM executable file '", path, "'"));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

Index Executable::FindFunction(const std::string& name) const {
  auto it = func_map.find(name);
  return it == func_map.end() ? -1 : it->second;
}

std::vector<std::string> Executable::GetVMFunctionNames() const {
  std::vector<std::string> names;
  for (const auto& info : func_table) {
    if (info.kind == VMFuncInfo::FuncKind::kVMFunc) names.push_back(info.name);
  }
  return names;
}

std::string Executable::AsText() const {
  std::ostringstream out;
  for (const auto& info : func_table) {
    if (info.kind != VMFuncInfo::FuncKind::kVMFunc) continue;
    out << "@" << info.name << "(";
    for (size_t i = 0; i < info.param_names.size(); ++i) out << (i ? ", " : "") << info.param_names[i];
    out << ") regs=" << info.register_file_size << ":\n";
    for (Index pc = info.start_instr; pc < info.end_instr && pc < static_cast<Index>(instructions.size()); ++pc) {
      const Instruction& instr = instructions[pc];
      switch (instr.op) {
        case Opcode::kCall: {
          bool known = instr.func_idx >= 0 && instr.func_idx < static_cast<Index>(func_table.size());
          out << "  call  " << (known ? func_table[instr.func_idx].name : StrCat("f[", instr.func_idx, "]"))
              << " in: ";
          for (size_t i = 0; i < instr.args.size(); ++i) out << (i ? ", " : "") << ArgToString(instr.args[i]);
          out << " dst: " << RegNameToString(instr.reg) << "\n";
          break;
        }
        case Opcode::kRet:
          out << "  ret   " << RegNameToString(instr.reg) << "\n";
          break;
        case Opcode::kGoto:
          out << "  goto  " << instr.offset << "\n";
          break;
        case Opcode::kIf:
          out << "  if    " << RegNameToString(instr.reg) << ", " << instr.offset << "\n";
          break;
      }
    }
    out << "\n";
  }
  bool any_extern = false;
  for (size_t i = 0; i < func_table.size(); ++i) {
    if (func_table[i].kind == VMFuncInfo::FuncKind::kVMFunc) continue;
    if (!any_extern) out << "functions:\n";
    any_extern = true;
    out << "  f[" << i << "] " << FuncKindName(func_table[i].kind) << " " << func_table[i].name << "\n";
  }
  if (!constants.empty()) out << "constants:\n";
  for (size_t i = 0; i < constants.size(); ++i) out << "  c[" << i << "] " << constants[i].ToString() << "\n";
  return out.str();
}

void Executable::Verify() const {
  auto fail = [](const std::string& what) { throw RuntimeError(StrCat(kErrorPrefix, what)); };
  const auto num_instrs = static_cast<Index>(instructions.size());
  const auto num_funcs = static_cast<Index>(func_table.size());
  const auto num_consts = static_cast<Index>(constants.size());
  for (Index f = 0; f < num_funcs; ++f) {
    const VMFuncInfo& info = func_table[f];
    if (FindFunction(info.name) != f) fail(StrCat("function '", info.name, "' is missing from the name table"));
    if (info.kind != VMFuncInfo::FuncKind::kVMFunc) continue;
    if (info.start_instr < 0 || info.start_instr >= info.end_instr || info.end_instr > num_instrs) {
      fail(StrCat("function '", info.name, "' has instructions [", info.start_instr, ", ", info.end_instr,
                  ") outside [0, ", num_instrs, ")"));
    }
    if (info.num_args < 0 || info.num_args > info.register_file_size ||
        static_cast<int64_t>(info.param_names.size()) != info.num_args) {
      fail(StrCat("function '", info.name, "' has ", info.num_args, " arguments, ", info.param_names.size(),
                  " parameter names and ", info.register_file_size, " registers"));
    }
    auto check_reg = [&](RegName reg, Index pc, bool write) {
      bool special = reg == Instruction::kVoidRegister || (!write && reg == Instruction::kVMRegister);
      if (!special && (reg < 0 || reg >= info.register_file_size)) {
        fail(StrCat("function '", info.name, "', instruction ", pc, ": register ", reg, " outside [0, ",
                    info.register_file_size, ")"));
      }
    };
    for (Index pc = info.start_instr; pc < info.end_instr; ++pc) {
      const Instruction& instr = instructions[pc];
      switch (instr.op) {
        case Opcode::kCall:
          if (instr.func_idx < 0 || instr.func_idx >= num_funcs) {
            fail(StrCat("function '", info.name, "', instruction ", pc, ": function index ", instr.func_idx,
                        " out of range"));
          }
          check_reg(instr.reg, pc, true);
          for (const auto& arg : instr.args) {
            switch (arg.kind()) {
              case Instruction::Arg::Kind::kRegister:
                check_reg(arg.value(), pc, false);
                break;
              case Instruction::Arg::Kind::kConstIdx:
                if (arg.value() < 0 || arg.value() >= num_consts) {
                  fail(StrCat("function '", info.name, "', instruction ", pc, ": constant index ", arg.value(),
                              " out of range"));
                }
                break;
              case Instruction::Arg::Kind::kFuncIdx:
                if (arg.value() < 0 || arg.value() >= num_funcs) {
                  fail(StrCat("function '", info.name, "', instruction ", pc, ": function index ", arg.value(),
                              " out of range"));
                }
                break;
              case Instruction::Arg::Kind::kImmediate:
                break;
            }
          }
          break;
        case Opcode::kRet:
          check_reg(instr.reg, pc, false);
          break;
        case Opcode::kIf:
          check_reg(instr.reg, pc, false);
          [[fallthrough]];
        case Opcode::kGoto: {
          int64_t target = pc + instr.offset;
          if (instr.offset == 0 || target < info.start_instr || target >= info.end_instr) {
            fail(StrCat("function '", info.name, "', instruction ", pc, ": jump offset ", instr.offset,
                        " leaves the function"));
          }
          if (instr.op == Opcode::kIf && pc + 1 >= info.end_instr) {
            fail(StrCat("function '", info.name, "', instruction ", pc, ": if falls off the function"));
          }
          break;
        }
        default:
          fail(StrCat("function '", info.name, "', instruction ", pc, ": unknown opcode"));
      }
    }
    const Instruction& last = instructions[info.end_instr - 1];
    if (last.op != Opcode::kRet && last.op != Opcode::kGoto) {
      fail(StrCat("function '", info.name, "' does not end with ret or goto"));
    }
  }
}

std::string Executable::SaveToBytes() const {
  ByteWriter payload;
  payload.Put<uint64_t>(func_table.size());
  for (const auto& info : func_table) WriteFunction(payload, info);
  payload.Put<uint64_t>(constants.size());
  for (const auto& value : constants) WriteConstant(payload, value);
  payload.Put<uint64_t>(instructions.size());
  for (const auto& instr : instructions) WriteInstruction(payload, instr);

  ByteWriter out;
  out.Put<uint64_t>(kMagic);
  out.Put<uint32_t>(kFormatVersion);
  out.Put<uint64_t>(payload.bytes().size());
  out.Put<uint64_t>(Fnv1a64(payload.bytes()));
  out.bytes() += payload.bytes();
  return std::move(out.bytes());
}

std::shared_ptr<Executable> Executable::LoadFromBytes(std::string_view bytes) {
  ByteReader header(bytes);
  if (bytes.size() < sizeof(uint64_t) || header.Get<uint64_t>() != kMagic) {
    throw RuntimeError(StrCat(kErrorPrefix, "not an rlx VM executable (bad magic number)"));
  }
  uint32_t version = header.Get<uint32_t>();
  if (version != kFormatVersion) {
    throw RuntimeError(StrCat(kErrorPrefix, "format version ", version, " is not supported (this runtime reads version ",
                              kFormatVersion, ")"));
  }
  uint64_t size = header.Get<uint64_t>();
  uint64_t checksum = header.Get<uint64_t>();
  if (size != header.Remaining()) {
    throw RuntimeError(StrCat(kErrorPrefix, "truncated or padded: the header announces ", size,
                              " payload bytes, ", header.Remaining(), " present"));
  }
  std::string_view payload = bytes.substr(bytes.size() - size);
  if (Fnv1a64(payload) != checksum) throw RuntimeError(StrCat(kErrorPrefix, "checksum mismatch (corrupt data)"));

  ByteReader in(payload);
  auto exec = std::make_shared<Executable>();
  in.SetSection("function table");
  uint64_t num_funcs = in.GetCount(1);
  for (uint64_t i = 0; i < num_funcs; ++i) {
    exec->func_table.push_back(ReadFunction(in));
    if (!exec->func_map.emplace(exec->func_table.back().name, static_cast<Index>(i)).second) {
      in.Fail(StrCat("function '", exec->func_table.back().name, "' appears twice"));
    }
  }
  in.SetSection("constants");
  uint64_t num_consts = in.GetCount(1);
  for (uint64_t i = 0; i < num_consts; ++i) exec->constants.push_back(ReadConstant(in));
  in.SetSection("instructions");
  uint64_t num_instrs = in.GetCount(1);
  for (uint64_t i = 0; i < num_instrs; ++i) exec->instructions.push_back(ReadInstruction(in));
  if (in.Remaining() != 0) in.Fail(StrCat(in.Remaining(), " trailing bytes"));
  exec->Verify();
  return exec;
}

void Executable::SaveToFile(const std::string& path) const {
  std::ofstream out(path, std::ios::binary);
  std::string bytes = SaveToBytes();
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw RuntimeError(StrCat("cannot write VM executable file '", path, "'"));
}

std::shared_ptr<Executable> Executable::LoadFromFile(const std::string& path) {
  std::string bytes = ReadWholeFile(path);
  try {
    return LoadFromBytes(bytes);
  } catch (const RuntimeError& error) {
    throw RuntimeError(StrCat(path, ": ", error.what()));
  }
}

std::shared_ptr<Executable> Executable::LoadFromModule(const Module& module) {
  const void* data = module.GetSymbol(kExecutableSymbol);
  const void* size = module.GetSymbol(kExecutableSizeSymbol);
  if (data == nullptr || size == nullptr) {
    throw RuntimeError(StrCat("module '", module.name(), "' holds no VM executable (no symbol '", kExecutableSymbol,
                              "'); was it built by `rlx build`?"));
  }
  uint64_t nbytes;
  std::memcpy(&nbytes, size, sizeof(nbytes));
  try {
    return LoadFromBytes(std::string_view(static_cast<const char*>(data), nbytes));
  } catch (const RuntimeError& error) {
    throw RuntimeError(StrCat(module.name(), ": ", error.what()));
  }
}

std::shared_ptr<Executable> Executable::LoadFromLibrary(const std::string& path, Module* library) {
  Module module = Module::LoadFromFile(path);
  auto exec = LoadFromModule(module);
  if (library != nullptr) *library = module;
  return exec;
}

}  // namespace rlx::runtime::vm
