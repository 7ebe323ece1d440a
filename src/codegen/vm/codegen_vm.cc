// VMCodeGen: lowered graph functions -> VM bytecode.
//
// Design note (after TVM's CodeGenVM, our own code). Each graph function is
// compiled on its own by a FunctionCodeGen that walks the body once, in
// order:
// - Parameters occupy registers 0..n-1; every binding that computes
//   something gets a fresh register (the IR is in A-normal form and SSA, so a
//   register is written once, except by R.vm.kill_object, which overwrites
//   its operand's register with null so the value dies there). An alias
//   binding (y = x, y = match_cast(x)) shares its value's register, as
//   kill-after-last-use expects.
// - Leaves become call arguments without instructions: an integer prim value
//   is an immediate, a constant tensor / constant shape / string / dtype /
//   float is a constant-pool entry, a GlobalVar or ExternFunc used as a value is a
//   function-table entry (a closure at run time).
// - Calls: a GlobalVar callee is a call of that VM function or PrimFunc
//   kernel by name; an ExternFunc callee (R.call_packed) a call of the
//   builtin or kernel of that symbol; a Var callee an invoke_closure; the
//   R.vm.* ops, R.call_builtin_with_ctx, R.null_value, R.make_closure,
//   R.invoke_closure and R.shape_of map to their vm.builtin.* functions with
//   TVM's argument order (the VM context first where TVM passes it).
// - If: the condition goes through vm.builtin.read_if_cond; both branches
//   copy their result into one merge register; the If's false offset and the
//   Goto over the false branch are patched once the branch lengths are known.
// - The function returns its body's value (copied into a register when it is
//   a leaf).
// Names: as in TVM, a function is exported under its "global_symbol"
// attribute (set by attach-global-symbol), or under its module name when it
// has none (a private function). A graph function is entered in the function
// table, and a PrimFunc's kernel compiled, under that symbol, and every call
// of a GlobalVar goes to its callee's symbol. Two functions exported under
// one symbol are a CompileError.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <unordered_map>

#include "rlx/codegen/vm_codegen.h"
#include "rlx/graph/expr.h"
#include "rlx/graph/op_registry.h"
#include "rlx/graph/struct_info.h"
#include "rlx/runtime/vm/exec_builder.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/function.h"

namespace rlx::codegen {
namespace {

namespace rt = runtime;
namespace rvm = runtime::vm;
using Arg = rvm::Instruction::Arg;
using rvm::RegName;

rt::DataType ToRuntimeDtype(const DataType& dtype, const Span& span) {
  auto parsed = rt::DataType::Parse(dtype.ToString());
  if (!parsed) ThrowError(span, fmt::format("dtype {} has no runtime representation", dtype.ToString()));
  return *parsed;
}

rt::NDArray ToNDArray(const graph::TensorData& data, const Span& span) {
  rt::NDArray array = rt::NDArray::Empty(data.shape, ToRuntimeDtype(data.dtype, span));
  if (array.ByteSize() != data.bytes.size()) {
    ThrowError(span, fmt::format("constant has {} bytes of data for {} ({} bytes)", data.bytes.size(),
                                 array.ToString(), array.ByteSize()));
  }
  array.CopyFrom(data.bytes.data(), data.bytes.size());
  return array;
}

// The constant value of a PrimExpr (after lowering, shapes and prim values
// are constants or were turned into make_shape calls).
std::optional<int64_t> ConstInt(const ir::PrimExpr& expr) {
  if (const auto* imm = expr.as<ir::IntImmNode>()) return imm->value;
  return std::nullopt;
}

std::string SymbolOf(const std::string& name, const ObjectRef& func) {
  ir::Dict attrs;
  if (const auto* graph_func = func.as<graph::FunctionNode>()) attrs = graph_func->attrs;
  if (const auto* prim_func = func.as<tir::PrimFuncNode>()) attrs = prim_func->attrs;
  const auto* symbol = attrs.defined() ? attrs->Get("global_symbol").as<ir::StringImmNode>() : nullptr;
  return symbol != nullptr ? symbol->value : name;
}

Span SpanOf(const ObjectRef& func) {
  if (const auto* graph_func = func.as<graph::FunctionNode>()) return graph_func->span;
  if (const auto* prim_func = func.as<tir::PrimFuncNode>()) return prim_func->span;
  return Span();
}

// Every graph function and PrimFunc with the symbol it is exported under; a
// CompileError when two share one.
std::vector<std::pair<std::string, ObjectRef>> ExportedFunctions(const ir::IRModule& mod) {
  std::vector<std::pair<std::string, ObjectRef>> exported;
  std::unordered_map<std::string, std::string> owner;
  for (const auto& [name, func] : mod->functions) {
    if (!func.isa<graph::FunctionNode>() && !func.isa<tir::PrimFuncNode>()) continue;
    std::string symbol = SymbolOf(name, func);
    auto [it, inserted] = owner.emplace(symbol, name);
    if (!inserted) {
      ThrowError(SpanOf(func), fmt::format("functions '{}' and '{}' are both exported as global_symbol '{}'",
                                           it->second, name, symbol));
    }
    exported.emplace_back(symbol, func);
  }
  return exported;
}

class FunctionCodeGen {
 public:
  FunctionCodeGen(rvm::ExecBuilder* builder, const ir::IRModule& mod) : builder_(builder), mod_(mod) {}

  void Compile(const std::string& name, const graph::Function& func) {
    func_name_ = name;
    std::vector<std::string> param_names;
    for (const auto& param : func->params) {
      registers_[param.get()] = next_register_++;
      param_names.push_back(param->name_hint);
    }
    builder_->EmitFunction(name, static_cast<int64_t>(func->params.size()), std::move(param_names));
    Arg result = Visit(func->body);
    builder_->EmitRet(ToRegister(result));
    builder_->EndFunction(name);
  }

 private:
  RegName NewRegister() { return next_register_++; }

  // A register holding `arg` (a copy for non-register arguments).
  RegName ToRegister(const Arg& arg) {
    if (arg.kind() == Arg::Kind::kRegister && arg.value() < rvm::Instruction::kBeginSpecialReg) return arg.value();
    RegName reg = NewRegister();
    builder_->EmitCall("vm.builtin.copy", {arg}, reg);
    return reg;
  }

  [[noreturn]] void Unsupported(const graph::Expr& expr, const std::string& what) {
    ThrowError(expr->span, fmt::format("VM codegen of function '{}': {} is not supported here; run the VM "
                                       "lowering pipeline (rlx build) before code generation",
                                       func_name_, what));
  }

  Arg Visit(const graph::Expr& expr) {
    using graph::ExprNode;
    if (const auto* var = expr.as<graph::VarNode>()) {
      auto it = registers_.find(var);
      if (it == registers_.end()) ThrowError(expr->span, fmt::format("VM codegen: variable '{}' is not defined", var->name_hint));
      return Arg::Register(it->second);
    }
    if (const auto* seq = expr.as<graph::SeqExprNode>()) {
      for (const auto& block : seq->blocks) {
        for (const auto& binding : block->bindings) VisitBinding(binding);
      }
      return Visit(seq->body);
    }
    if (const auto* constant = expr.as<graph::ConstantNode>()) {
      return builder_->ConvertConstant(rt::Value(ToNDArray(*constant->data, expr->span)));
    }
    if (const auto* shape = expr.as<graph::ShapeExprNode>()) {
      rt::ShapeTuple dims;
      for (const auto& value : shape->values) {
        auto dim = ConstInt(value);
        if (!dim) Unsupported(expr, "a symbolic shape expression (VMShapeLower turns it into vm.builtin.make_shape)");
        dims.push_back(*dim);
      }
      return builder_->ConvertConstant(rt::Value(std::move(dims)));
    }
    if (const auto* prim = expr.as<graph::PrimValueNode>()) {
      if (auto value = ConstInt(prim->value)) {
        if (*value >= Arg::kValueMin && *value <= Arg::kValueMax) return Arg::Immediate(*value);
        return builder_->ConvertConstant(rt::Value(*value));
      }
      if (const auto* imm = prim->value.as<ir::FloatImmNode>()) return builder_->ConvertConstant(rt::Value(imm->value));
      Unsupported(expr, "a symbolic prim value (VMShapeLower turns it into vm.builtin.make_prim_value)");
    }
    if (const auto* text = expr.as<graph::StringImmNode>()) return builder_->ConvertConstant(rt::Value(text->value));
    if (const auto* dtype = expr.as<graph::DataTypeImmNode>()) {
      return builder_->ConvertConstant(rt::Value(ToRuntimeDtype(dtype->value, expr->span)));
    }
    if (const auto* gvar = expr.as<graph::GlobalVarNode>()) return Arg::FuncIdx(FunctionIndex(gvar->name_hint, expr));
    if (const auto* extern_func = expr.as<graph::ExternFuncNode>()) {
      return Arg::FuncIdx(PackedIndex(extern_func->global_symbol));
    }
    if (const auto* tuple = expr.as<graph::TupleNode>()) {
      std::vector<Arg> fields;
      for (const auto& field : tuple->fields) fields.push_back(Visit(field));
      RegName dst = NewRegister();
      builder_->EmitCall("vm.builtin.make_tuple", std::move(fields), dst);
      return Arg::Register(dst);
    }
    if (const auto* item = expr.as<graph::TupleGetItemNode>()) {
      Arg tuple = Visit(item->tuple);
      RegName dst = NewRegister();
      builder_->EmitCall("vm.builtin.tuple_getitem", {tuple, Arg::Immediate(item->index)}, dst);
      return Arg::Register(dst);
    }
    if (const auto* if_node = expr.as<graph::IfNode>()) return VisitIf(*if_node);
    if (expr.isa<graph::CallNode>()) return VisitCall(cast<graph::CallNode>(expr));
    if (expr.isa<graph::FunctionNode>()) Unsupported(expr, "a nested function (lift it to the module first)");
    Unsupported(expr, "this expression");
  }

  void VisitBinding(const graph::Binding& binding) {
    graph::Expr value;
    if (const auto* var_binding = binding.as<graph::VarBindingNode>()) {
      value = var_binding->value;
    } else {
      // A remaining match_cast has been checked by the lowered code already:
      // it only renames its value.
      value = binding.as<graph::MatchCastNode>()->value;
    }
    Arg result = Visit(value);
    // An alias (y = x, y = match_cast(x)) shares x's register:
    // kill-after-last-use kills x after the last use of either and never
    // kills the alias itself.
    registers_[binding->var.get()] = ToRegister(result);
  }

  Arg VisitIf(const graph::IfNode& node) {
    Arg cond = Visit(node.cond);
    RegName cond_reg = NewRegister();
    builder_->EmitCall("vm.builtin.read_if_cond", {cond}, cond_reg);
    rvm::Index if_instr = builder_->NextInstrIndex();
    builder_->EmitIf(cond_reg, 1);  // patched below
    RegName merge = NewRegister();
    Arg true_value = Visit(node.true_branch);
    builder_->EmitCall("vm.builtin.copy", {true_value}, merge);
    rvm::Index goto_instr = builder_->NextInstrIndex();
    builder_->EmitGoto(1);  // patched below
    builder_->SetJumpOffset(if_instr, builder_->NextInstrIndex() - if_instr);
    Arg false_value = Visit(node.false_branch);
    builder_->EmitCall("vm.builtin.copy", {false_value}, merge);
    builder_->SetJumpOffset(goto_instr, builder_->NextInstrIndex() - goto_instr);
    return Arg::Register(merge);
  }

  std::vector<Arg> VisitArgs(const std::vector<graph::Expr>& args, size_t begin = 0) {
    std::vector<Arg> result;
    for (size_t i = begin; i < args.size(); ++i) result.push_back(Visit(args[i]));
    return result;
  }

  // The fields of a tuple argument (R.call_builtin_with_ctx(f, (a, b))).
  std::vector<Arg> VisitTupleFields(const graph::Expr& expr) {
    if (const auto* tuple = expr.as<graph::TupleNode>()) return VisitArgs(tuple->fields);
    return {Visit(expr)};
  }

  // The function-table entry of module function `name` (under its symbol).
  rvm::Index FunctionIndex(const std::string& name, const graph::Expr& expr) {
    ObjectRef func = mod_->Lookup(name);
    if (!func.defined()) ThrowError(expr->span, fmt::format("VM codegen: no function '{}' in the module", name));
    std::string symbol = SymbolOf(name, func);
    rvm::Index idx = builder_->GetFunction(symbol);
    if (idx >= 0) return idx;
    builder_->DeclareFunction(symbol, func.isa<graph::FunctionNode>() ? rvm::VMFuncInfo::FuncKind::kVMFunc
                                                                       : rvm::VMFuncInfo::FuncKind::kVMTIRFunc);
    return builder_->GetFunction(symbol);
  }

  rvm::Index PackedIndex(const std::string& symbol) {
    rvm::Index idx = builder_->GetFunction(symbol);
    if (idx >= 0) return idx;
    builder_->DeclareFunction(symbol, rvm::VMFuncInfo::FuncKind::kPackedFunc);
    return builder_->GetFunction(symbol);
  }

  // The callee of R.call_builtin_with_ctx / R.vm.call_tir_dyn.
  rvm::Index CalleeIndex(const graph::Expr& callee) {
    if (const auto* gvar = callee.as<graph::GlobalVarNode>()) return FunctionIndex(gvar->name_hint, callee);
    if (const auto* extern_func = callee.as<graph::ExternFuncNode>()) return PackedIndex(extern_func->global_symbol);
    if (const auto* text = callee.as<graph::StringImmNode>()) return PackedIndex(text->value);
    Unsupported(callee, "this callee");
  }

  Arg EmitCallTo(rvm::Index func_idx, std::vector<Arg> args) {
    RegName dst = NewRegister();
    builder_->EmitCall(func_idx, std::move(args), dst);
    return Arg::Register(dst);
  }
  Arg EmitCallTo(const std::string& builtin, std::vector<Arg> args) { return EmitCallTo(PackedIndex(builtin), std::move(args)); }

  static Arg VMContext() { return Arg::Register(rvm::Instruction::kVMRegister); }

  Arg VisitCall(const graph::Call& call) {
    const graph::Expr& callee = call->op;
    if (const auto* gvar = callee.as<graph::GlobalVarNode>()) {
      return EmitCallTo(FunctionIndex(gvar->name_hint, callee), VisitArgs(call->args));
    }
    if (const auto* extern_func = callee.as<graph::ExternFuncNode>()) {
      return EmitCallTo(PackedIndex(extern_func->global_symbol), VisitArgs(call->args));
    }
    if (callee.isa<graph::VarNode>()) {
      std::vector<Arg> args{VMContext(), Visit(callee)};
      for (const auto& arg : VisitArgs(call->args)) args.push_back(arg);
      return EmitCallTo("vm.builtin.invoke_closure", std::move(args));
    }
    const auto* op = callee.as<graph::OpNode>();
    if (op == nullptr) Unsupported(callee, "this callee");
    const std::string& name = op->name;
    if (name == "relax.call_packed" || name == "relax.call_pure_packed") {
      if (call->args.empty()) Unsupported(call, fmt::format("{} without a function", name));
      return EmitCallTo(CalleeIndex(call->args[0]), VisitArgs(call->args, 1));
    }
    if (name == "relax.call_builtin_with_ctx") {
      std::vector<Arg> args{VMContext()};
      if (call->args.size() > 1) {
        for (const auto& arg : VisitTupleFields(call->args[1])) args.push_back(arg);
      }
      return EmitCallTo(CalleeIndex(call->args.at(0)), std::move(args));
    }
    if (name == "relax.vm.alloc_storage") {
      std::vector<Arg> args{VMContext()};
      for (const auto& arg : VisitArgs(call->args)) args.push_back(arg);
      return EmitCallTo("vm.builtin.alloc_storage", std::move(args));
    }
    if (name == "relax.vm.alloc_tensor") return EmitCallTo("vm.builtin.alloc_tensor", VisitArgs(call->args));
    if (name == "relax.vm.kill_object") {
      Arg target = Visit(call->args.at(0));
      if (target.kind() == Arg::Kind::kRegister) builder_->EmitCall("vm.builtin.null_value", {}, target.value());
      return EmitCallTo("vm.builtin.null_value", {});
    }
    if (name == "relax.vm.call_tir_dyn") {
      std::vector<Arg> args{Arg::FuncIdx(CalleeIndex(call->args.at(0)))};
      for (const auto& arg : VisitTupleFields(call->args.at(1))) args.push_back(arg);
      return EmitCallTo("vm.builtin.call_tir_dyn", std::move(args));
    }
    if (name == "relax.null_value") return EmitCallTo("vm.builtin.null_value", {});
    if (name == "relax.shape_of") return EmitCallTo("vm.builtin.shape_of", VisitArgs(call->args));
    if (name == "relax.make_closure") {
      std::vector<Arg> args{Arg::FuncIdx(CalleeIndex(call->args.at(0)))};
      for (const auto& arg : VisitTupleFields(call->args.at(1))) args.push_back(arg);
      return EmitCallTo("vm.builtin.make_closure", std::move(args));
    }
    if (name == "relax.invoke_closure" || name == "relax.invoke_pure_closure") {
      std::vector<Arg> args{VMContext(), Visit(call->args.at(0))};
      for (const auto& arg : VisitTupleFields(call->args.at(1))) args.push_back(arg);
      return EmitCallTo("vm.builtin.invoke_closure", std::move(args));
    }
    UnloweredOperator(call, name);
  }

  // A high-level operator that survived the pipeline: say why it was not
  // legalized rather than blaming the pipeline.
  [[noreturn]] void UnloweredOperator(const graph::Call& call, const std::string& name) {
    const graph::OpInfo* info = graph::FindOp(name);
    std::string script_name = info != nullptr && !info->script_name.empty() ? info->script_name : name;
    if (info == nullptr || !info->legalize) {
      ThrowError(call->span, fmt::format("VM codegen of function '{}': operator {} has no lowering to a tensor "
                                         "program (legalize-ops leaves it as it is)",
                                         func_name_, script_name));
    }
    std::vector<std::string> arg_sinfos;
    bool shapes_known = true;
    for (const graph::Expr& arg : call->args) {
      graph::StructInfo sinfo = graph::GetStructInfo(arg);
      if (const auto* tensor = sinfo.as<graph::TensorStructInfoNode>()) {
        shapes_known = shapes_known && tensor->GetShape().has_value() && !tensor->IsUnknownDtype();
      }
      arg_sinfos.push_back(graph::ToString(sinfo));
    }
    if (shapes_known) Unsupported(call, fmt::format("operator {}", script_name));
    ThrowError(call->span,
               fmt::format("VM codegen of function '{}': operator {} could not be lowered to a tensor program: "
                           "legalize-ops needs the shape and dtype of its tensor arguments at compile time; its arguments "
                           "are ({}) (give the parameters a shape, or R.match_cast them to one)",
                           func_name_, script_name, fmt::join(arg_sinfos, ", ")));
  }

  rvm::ExecBuilder* builder_;
  const ir::IRModule& mod_;
  std::string func_name_;
  std::unordered_map<const graph::VarNode*, RegName> registers_;
  RegName next_register_ = 0;
};

}  // namespace

std::shared_ptr<runtime::vm::Executable> VMCodeGen(const ir::IRModule& mod) {
  rvm::ExecBuilder builder;
  std::vector<std::pair<std::string, ObjectRef>> exported = ExportedFunctions(mod);
  // Declare every function first so that calls may precede definitions.
  for (const auto& [symbol, func] : exported) {
    if (func.isa<graph::FunctionNode>()) builder.DeclareFunction(symbol, rvm::VMFuncInfo::FuncKind::kVMFunc);
  }
  for (const auto& [symbol, func] : exported) {
    if (!func.isa<graph::FunctionNode>()) continue;
    FunctionCodeGen(&builder, mod).Compile(symbol, cast<graph::FunctionNode>(func));
  }
  return builder.Get();
}

NamedPrimFuncs CollectPrimFuncs(const ir::IRModule& mod) {
  NamedPrimFuncs funcs;
  for (const auto& [symbol, func] : ExportedFunctions(mod)) {
    if (func.isa<tir::PrimFuncNode>()) funcs.emplace_back(symbol, cast<tir::PrimFuncNode>(func));
  }
  return funcs;
}

VMCompiled CompileForVM(const ir::IRModule& mod, const CodegenOptions& options) {
  VMCompiled result;
  result.exec = VMCodeGen(mod);
  NamedPrimFuncs kernels = CollectPrimFuncs(mod);
  if (!kernels.empty()) result.library = JitModule::CompileToModule(kernels, options);
  return result;
}

}  // namespace rlx::codegen
