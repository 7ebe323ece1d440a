// The graph layer's cross-level builtins and their struct-info deduction.
//
// These are the operators through which a graph function reaches the other
// levels of a module, plus a few runtime helpers. Their contracts follow
// Apache TVM's Relax:
//
//   R.call_tir(gv, (a, b), out_sinfo=S, tir_vars=shape)   args [gv, Tuple, ShapeExpr?]
//   R.call_tir_inplace(gv, (a, b), out_sinfo=S, inplace_indices=[0])
//   R.call_tir_with_grad(gv, (a, b), out_sinfo=S, te_grad_name="g", te_grad_kwargs={...})
//       call_tir that also names the tensor-expression gradient of the
//       PrimFunc (attributes only; deduced as call_tir)
//   R.call_dps_packed("sym", (a, b), out_sinfo=S)          args [ExternFunc, Tuple]
//       destination-passing calls: the struct info is the declared out_sinfo
//       (sinfo_args[0]), a Tensor or a Tuple of Tensors.
//   R.call_pure_packed("sym", a, b, sinfo_args=S)          args [ExternFunc, a, b]
//   R.call_packed("sym", a, b, sinfo_args=S)               impure
//   R.call_inplace_packed("sym", a, b, inplace_indices=[0], sinfo_args=S)
//   R.print(a, b, format="...")                            impure, Object
//   R.assert_op(cond, a, format="...")                     impure, Object
//   R.shape_of(t)                                          Shape of t's shape
//   R.null_value()                                         Object
//   R.make_closure(gv, (captured...))                      Callable
//   R.invoke_closure(clo, (a, b), sinfo_args=S)            impure
//   R.invoke_pure_closure(clo, (a, b), sinfo_args=S)
//
// Every rule checks what it can see and throws CompileError at the call's
// span, prefixed with the script name ("R.call_tir: ..."). When the context
// module holds the PrimFunc a call_tir names, its parameter count is checked
// against inputs + allocated outputs + tir_vars (its buffers' shapes are not
// matched here).
#include <fmt/format.h>

#include <optional>
#include <set>

#include "graph/builtin_ops.h"
#include "rlx/graph/block_builder.h"
#include "rlx/graph/op_registry.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/function.h"

namespace rlx::graph {
namespace {

[[noreturn]] void Fail(const Call& call, const char* script_name, const std::string& message) {
  ThrowError(call->span, fmt::format("{}: {}", script_name, message));
}

StructInfo SInfoOf(const Expr& expr) { return expr->struct_info.defined() ? expr->struct_info : ObjectSInfo(); }

// "a variable 'x' of Tensor((n, 4), float32)", "an extern function 'f'", ...
std::string Describe(const Expr& expr) {
  if (const auto* var = expr.as<VarNode>()) {
    return fmt::format("variable '{}' of {}", var->name_hint, ToString(SInfoOf(expr)));
  }
  if (const auto* ext = expr.as<ExternFuncNode>()) return fmt::format("extern function \"{}\"", ext->global_symbol);
  if (const auto* gv = expr.as<GlobalVarNode>()) return fmt::format("global function '{}'", gv->name_hint);
  return fmt::format("a {} of {}", NodeKindName(expr->kind()), ToString(SInfoOf(expr)));
}

void CheckArgCount(const Call& call, const char* script_name, size_t min_args, size_t max_args) {
  size_t n = call->args.size();
  if (n >= min_args && n <= max_args) return;
  std::string expected = min_args == max_args ? std::to_string(min_args)
                         : max_args == SIZE_MAX ? fmt::format("at least {}", min_args)
                                                : fmt::format("{} to {}", min_args, max_args);
  Fail(call, script_name, fmt::format("expected {} arguments, got {}", expected, n));
}

// The number of fields of a tuple argument (a Tuple expression or a value of
// Tuple struct info); a CompileError for anything else.
std::optional<size_t> CheckTupleArg(const Call& call, const char* script_name, const Expr& arg, const char* what) {
  if (const auto* tuple = arg.as<TupleNode>()) return tuple->fields.size();
  StructInfo sinfo = SInfoOf(arg);
  if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) return tuple->fields.size();
  if (sinfo.isa<ObjectStructInfoNode>()) return std::nullopt;
  Fail(call, script_name, fmt::format("expected {} as a tuple, got {}", what, Describe(arg)));
}

bool IsTensorOrTensorTuple(const StructInfo& sinfo) {
  if (sinfo.isa<TensorStructInfoNode>()) return true;
  const auto* tuple = sinfo.as<TupleStructInfoNode>();
  if (tuple == nullptr) return false;
  for (const StructInfo& field : tuple->fields) {
    if (!field.isa<TensorStructInfoNode>()) return false;
  }
  return true;
}

// The declared output of a destination-passing call.
StructInfo CheckOutSInfo(const Call& call, const char* script_name) {
  if (call->sinfo_args.size() != 1) {
    Fail(call, script_name, fmt::format("expected one out_sinfo, got {}", call->sinfo_args.size()));
  }
  const StructInfo& out = call->sinfo_args[0];
  if (!IsTensorOrTensorTuple(out)) {
    Fail(call, script_name, fmt::format("out_sinfo must be a Tensor or a Tuple of Tensors, got {}", ToString(out)));
  }
  return out;
}

size_t NumOutputs(const StructInfo& out) {
  if (const auto* tuple = out.as<TupleStructInfoNode>()) return tuple->fields.size();
  return 1;
}

// The output struct info of a call that declares its result in sinfo_args
// (none: Object; several: a tuple of them).
StructInfo DeclaredResult(const Call& call) {
  if (call->sinfo_args.empty()) return ObjectSInfo();
  if (call->sinfo_args.size() == 1) return call->sinfo_args[0];
  return TupleSInfo(call->sinfo_args);
}

// The integers of an int-list attribute (a single int counts as a list).
std::optional<std::vector<int64_t>> IntListAttr(const Call& call, const std::string& key) {
  if (!call->attrs.defined()) return std::nullopt;
  ObjectRef value = call->attrs->Get(key);
  if (!value.defined()) return std::nullopt;
  std::vector<int64_t> result;
  auto append = [&result](const ObjectRef& item) {
    const auto* imm = item.as<ir::IntImmNode>();
    if (imm == nullptr) return false;
    result.push_back(imm->value);
    return true;
  };
  if (const auto* array = value.as<ir::ArrayNode>()) {
    for (const ObjectRef& item : array->elements) {
      if (!append(item)) return std::nullopt;
    }
    return result;
  }
  if (!append(value)) return std::nullopt;
  return result;
}

// Checks `inplace_indices` (each -1 = freshly allocated, or the index of an
// input to reuse, each input at most once) and returns it.
std::vector<int64_t> CheckInplaceIndices(const Call& call, const char* script_name,
                                         std::optional<size_t> num_inputs, size_t num_outputs) {
  auto indices = IntListAttr(call, "inplace_indices");
  if (!indices) Fail(call, script_name, "expected an integer list attribute 'inplace_indices'");
  if (indices->size() != num_outputs) {
    Fail(call, script_name,
         fmt::format("inplace_indices has {} entries but the call has {} outputs", indices->size(), num_outputs));
  }
  std::set<int64_t> used;
  for (int64_t index : *indices) {
    if (index == -1) continue;
    if (index < 0 || (num_inputs && index >= static_cast<int64_t>(*num_inputs))) {
      Fail(call, script_name, fmt::format("inplace index {} is out of range for {} inputs", index,
                                          num_inputs ? std::to_string(*num_inputs) : "the"));
    }
    if (!used.insert(index).second) {
      Fail(call, script_name, fmt::format("input {} is used in place for two outputs", index));
    }
  }
  return *indices;
}

// The PrimFunc `gv` names in the context module, if there is one; a
// CompileError if the name holds something else.
tir::PrimFunc LookupPrimFunc(const Call& call, const char* script_name, const GlobalVar& gv, BlockBuilder& bb) {
  ir::IRModule mod = bb.GetContextModule();
  if (!mod.defined()) return nullptr;
  ObjectRef func = mod->Lookup(gv->name_hint);
  if (!func.defined()) return nullptr;
  if (!func.isa<tir::PrimFuncNode>()) {
    Fail(call, script_name, fmt::format("'{}' is not a PrimFunc", gv->name_hint));
  }
  return cast<tir::PrimFuncNode>(func);
}

// "1 input", "2 inputs".
std::string Count(size_t count, const char* noun) { return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s"); }

struct DpsArity {
  std::optional<size_t> inputs;
  size_t allocated_outputs = 0;
  std::optional<size_t> tir_vars;
};

void CheckPrimFuncArity(const Call& call, const char* script_name, const GlobalVar& gv, const DpsArity& arity,
                        BlockBuilder& bb) {
  tir::PrimFunc func = LookupPrimFunc(call, script_name, gv, bb);
  if (!func.defined() || !arity.inputs || !arity.tir_vars) return;
  size_t expected = *arity.inputs + arity.allocated_outputs + *arity.tir_vars;
  if (func->params.size() == expected) return;
  Fail(call, script_name,
       fmt::format("'{}' takes {}, but the call passes {}, {} and {} tir_vars", gv->name_hint,
                   Count(func->params.size(), "parameter"), Count(*arity.inputs, "input"),
                   Count(arity.allocated_outputs, "output"), *arity.tir_vars));
}

// The callee of call_tir / call_tir_inplace, checked to be a global.
GlobalVar CheckTIRCallee(const Call& call, const char* script_name) {
  const Expr& callee = call->args[0];
  if (!callee.isa<GlobalVarNode>()) {
    Fail(call, script_name, fmt::format("the callee must be a global PrimFunc, got {}", Describe(callee)));
  }
  return cast<GlobalVarNode>(callee);
}

// tir_vars (the optional third argument): a shape; its rank when known.
std::optional<size_t> CheckTIRVars(const Call& call, const char* script_name) {
  if (call->args.size() < 3) return 0;
  StructInfo sinfo = SInfoOf(call->args[2]);
  const auto* shape = sinfo.as<ShapeStructInfoNode>();
  if (shape == nullptr) Fail(call, script_name, fmt::format("tir_vars must be a shape, got {}", ToString(sinfo)));
  if (shape->ndim < 0) return std::nullopt;
  return static_cast<size_t>(shape->ndim);
}

// ---------------------------------------------------------------------------
// Rules.

StructInfo InferCallTIRNamed(const Call& call, BlockBuilder& bb, const char* name) {
  CheckArgCount(call, name, 2, 3);
  GlobalVar gv = CheckTIRCallee(call, name);
  DpsArity arity;
  arity.inputs = CheckTupleArg(call, name, call->args[1], "the arguments");
  arity.tir_vars = CheckTIRVars(call, name);
  StructInfo out = CheckOutSInfo(call, name);
  arity.allocated_outputs = NumOutputs(out);
  CheckPrimFuncArity(call, name, gv, arity, bb);
  return out;
}

StructInfo InferCallTIR(const Call& call, BlockBuilder& bb) { return InferCallTIRNamed(call, bb, "R.call_tir"); }
StructInfo InferCallTIRWithGrad(const Call& call, BlockBuilder& bb) {
  return InferCallTIRNamed(call, bb, "R.call_tir_with_grad");
}

// An output written in place must be described like the input it reuses.
void CheckInplaceOutputs(const Call& call, const char* script_name, const std::vector<int64_t>& indices,
                         const StructInfo& out, BlockBuilder& bb) {
  const auto* args = call->args[1].as<TupleNode>();
  if (args == nullptr) return;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] < 0) continue;
    StructInfo output = out.isa<TupleStructInfoNode>() ? out.as<TupleStructInfoNode>()->fields[i] : out;
    StructInfo input = SInfoOf(args->fields[indices[i]]);
    if (StructInfoBaseCheck(output, input, bb.analyzer()) == BaseCheckResult::kFailL0) {
      Fail(call, script_name, fmt::format("output {} is written in place into input {} of {}, but is declared {}", i,
                                          indices[i], ToString(input), ToString(output)));
    }
  }
}

StructInfo InferCallTIRInplace(const Call& call, BlockBuilder& bb) {
  const char* name = "R.call_tir_inplace";
  CheckArgCount(call, name, 2, 3);
  GlobalVar gv = CheckTIRCallee(call, name);
  DpsArity arity;
  arity.inputs = CheckTupleArg(call, name, call->args[1], "the arguments");
  arity.tir_vars = CheckTIRVars(call, name);
  StructInfo out = CheckOutSInfo(call, name);
  std::vector<int64_t> indices = CheckInplaceIndices(call, name, arity.inputs, NumOutputs(out));
  for (int64_t index : indices) arity.allocated_outputs += index == -1 ? 1 : 0;
  CheckInplaceOutputs(call, name, indices, out, bb);
  CheckPrimFuncArity(call, name, gv, arity, bb);
  return out;
}

void CheckExternCallee(const Call& call, const char* script_name) {
  const Expr& callee = call->args[0];
  if (callee.isa<ExternFuncNode>() || SInfoOf(callee).isa<FuncStructInfoNode>()) return;
  Fail(call, script_name, fmt::format("the callee must be an extern function, got {}", Describe(callee)));
}

StructInfo InferCallDPSPacked(const Call& call, BlockBuilder&) {
  const char* name = "R.call_dps_packed";
  CheckArgCount(call, name, 2, 2);
  CheckExternCallee(call, name);
  CheckTupleArg(call, name, call->args[1], "the arguments");
  return CheckOutSInfo(call, name);
}

StructInfo InferPackedCall(const Call& call, const char* script_name) {
  CheckArgCount(call, script_name, 1, SIZE_MAX);
  CheckExternCallee(call, script_name);
  return DeclaredResult(call);
}

StructInfo InferCallPurePacked(const Call& call, BlockBuilder&) { return InferPackedCall(call, "R.call_pure_packed"); }
StructInfo InferCallPacked(const Call& call, BlockBuilder&) { return InferPackedCall(call, "R.call_packed"); }

StructInfo InferCallInplacePacked(const Call& call, BlockBuilder&) {
  const char* name = "R.call_inplace_packed";
  StructInfo result = InferPackedCall(call, name);
  CheckInplaceIndices(call, name, call->args.size() - 1, std::max<size_t>(call->sinfo_args.size(), 1));
  return result;
}

StructInfo InferPrint(const Call&, BlockBuilder&) { return ObjectSInfo(); }

bool IsBoolScalar(const StructInfo& sinfo) {
  if (const auto* prim = sinfo.as<PrimStructInfoNode>()) return prim->dtype.is_bool();
  if (const auto* tensor = sinfo.as<TensorStructInfoNode>()) {
    return (tensor->IsUnknownDtype() || tensor->dtype.is_bool()) && (tensor->ndim == 0 || tensor->IsUnknownNdim());
  }
  return false;
}

StructInfo InferAssert(const Call& call, BlockBuilder&) {
  const char* name = "R.assert_op";
  CheckArgCount(call, name, 1, SIZE_MAX);
  StructInfo cond = SInfoOf(call->args[0]);
  if (!IsBoolScalar(cond)) {
    Fail(call, name, fmt::format("the condition must be a bool scalar or a 0-d bool tensor, got {}", ToString(cond)));
  }
  return ObjectSInfo();
}

StructInfo InferShapeOf(const Call& call, BlockBuilder&) {
  const char* name = "R.shape_of";
  CheckArgCount(call, name, 1, 1);
  StructInfo sinfo = SInfoOf(call->args[0]);
  const auto* tensor = sinfo.as<TensorStructInfoNode>();
  if (tensor == nullptr) Fail(call, name, fmt::format("expected a tensor, got {}", ToString(sinfo)));
  if (auto dims = tensor->GetShape()) return ShapeSInfo(*dims);
  return ShapeSInfo(tensor->ndim);
}

StructInfo InferNullValue(const Call& call, BlockBuilder&) {
  CheckArgCount(call, "R.null_value", 0, 0);
  return ObjectSInfo();
}

// A closure over a module function: the parameters left after the captured
// ones, when the function can be looked up.
StructInfo InferMakeClosure(const Call& call, BlockBuilder& bb) {
  const char* name = "R.make_closure";
  CheckArgCount(call, name, 2, 2);
  const Expr& callee = call->args[0];
  if (!callee.isa<GlobalVarNode>()) {
    Fail(call, name, fmt::format("the callee must be a global function, got {}", Describe(callee)));
  }
  std::optional<size_t> captured = CheckTupleArg(call, name, call->args[1], "the captured values");
  ir::IRModule mod = bb.GetContextModule();
  ObjectRef func = mod.defined() ? mod->Lookup(callee.as<GlobalVarNode>()->name_hint) : ObjectRef();
  const auto* graph_func = func.as<FunctionNode>();
  if (graph_func == nullptr || !captured) return FuncStructInfoNode::Opaque(ObjectSInfo());
  const auto* finfo = graph_func->struct_info.as<FuncStructInfoNode>();
  if (finfo == nullptr || !finfo->params || finfo->params->size() < *captured) {
    return FuncStructInfoNode::Opaque(ObjectSInfo());
  }
  // The captured values bind the last parameters (TVM's VMClosure::BindLastArgs; vm.builtin.make_closure).
  std::vector<StructInfo> rest(finfo->params->begin(), finfo->params->end() - static_cast<std::ptrdiff_t>(*captured));
  auto closure = make<FuncStructInfoNode>(std::move(rest), finfo->ret, finfo->purity);
  const auto* values = call->args[1].as<TupleNode>();
  if (values == nullptr || values->fields.empty()) return closure;
  // The symbolic variables the captured parameters define (n of a captured
  // R.Prim(value=n)) take the captured values': matched like a call of a
  // function of the captured parameters that returns the closure.
  std::vector<StructInfo> captured_params(finfo->params->end() - static_cast<std::ptrdiff_t>(*captured),
                                          finfo->params->end());
  auto binder = make<FuncStructInfoNode>(std::move(captured_params), closure, true);
  auto* bind_call = new CallNode(callee, values->fields);
  bind_call->span = call->span;
  return DeriveCallRetStructInfo(binder, Call(bind_call), bb);
}

StructInfo InferInvokeClosure(const Call& call, const char* script_name) {
  CheckArgCount(call, script_name, 2, 2);
  StructInfo closure = SInfoOf(call->args[0]);
  if (!closure.isa<FuncStructInfoNode>() && !closure.isa<ObjectStructInfoNode>()) {
    Fail(call, script_name, fmt::format("expected a closure, got {}", Describe(call->args[0])));
  }
  CheckTupleArg(call, script_name, call->args[1], "the arguments");
  return DeclaredResult(call);
}

StructInfo InferInvokeClosureImpure(const Call& call, BlockBuilder&) {
  return InferInvokeClosure(call, "R.invoke_closure");
}
StructInfo InferInvokePureClosure(const Call& call, BlockBuilder&) {
  return InferInvokeClosure(call, "R.invoke_pure_closure");
}

// ---------------------------------------------------------------------------
// Registration.

OpInfo Builtin(std::string name, std::string script_name, std::vector<std::string> args, bool variadic,
               FInferStructInfo infer, bool pure = true) {
  OpInfo info;
  info.name = std::move(name);
  info.script_name = std::move(script_name);
  info.args = std::move(args);
  info.variadic_args = variadic;
  info.infer = std::move(infer);
  info.pattern = OpPatternKind::kOpaque;
  info.pure = pure;
  return info;
}

AttrSpec InplaceIndicesAttr() { return AttrSpec{"inplace_indices", AttrKind::kIntList, nullptr}; }
AttrSpec FormatAttr() { return AttrSpec{"format", AttrKind::kString, ir::MakeString("")}; }

}  // namespace

void RegisterGraphBuiltinOps() {
  RegisterOp(Builtin("relax.call_tir", "R.call_tir", {"gvar", "args", "tir_vars"}, true, InferCallTIR));
  OpInfo inplace = Builtin("relax.call_tir_inplace", "R.call_tir_inplace", {"gvar", "args", "tir_vars"}, true,
                           InferCallTIRInplace);
  inplace.attrs = {InplaceIndicesAttr()};
  RegisterOp(std::move(inplace));
  OpInfo with_grad = Builtin("relax.call_tir_with_grad", "R.call_tir_with_grad", {"gvar", "args", "tir_vars"}, true,
                             InferCallTIRWithGrad);
  with_grad.attrs = {AttrSpec{"te_grad_name", AttrKind::kString, nullptr},
                     AttrSpec{"te_grad_kwargs", AttrKind::kAny, ir::Dict(make<ir::DictNode>())}};
  RegisterOp(std::move(with_grad));
  RegisterOp(Builtin("relax.call_dps_packed", "R.call_dps_packed", {"func", "args"}, true, InferCallDPSPacked));
  RegisterOp(Builtin("relax.call_pure_packed", "R.call_pure_packed", {"func"}, true, InferCallPurePacked));
  RegisterOp(Builtin("relax.call_packed", "R.call_packed", {"func"}, true, InferCallPacked, /*pure=*/false));
  OpInfo inplace_packed =
      Builtin("relax.call_inplace_packed", "R.call_inplace_packed", {"func"}, true, InferCallInplacePacked);
  inplace_packed.attrs = {InplaceIndicesAttr()};
  RegisterOp(std::move(inplace_packed));
  OpInfo print = Builtin("relax.print", "R.print", {}, true, InferPrint, /*pure=*/false);
  print.attrs = {FormatAttr()};
  RegisterOp(std::move(print));
  OpInfo assert_op = Builtin("relax.assert_op", "R.assert_op", {"condition"}, true, InferAssert, /*pure=*/false);
  assert_op.attrs = {FormatAttr()};
  RegisterOp(std::move(assert_op));
  RegisterOp(Builtin("relax.shape_of", "R.shape_of", {"input"}, false, InferShapeOf));
  RegisterOp(Builtin("relax.null_value", "R.null_value", {}, false, InferNullValue));
  RegisterOp(Builtin("relax.make_closure", "R.make_closure", {"func", "args"}, false, InferMakeClosure));
  RegisterOp(Builtin("relax.invoke_closure", "R.invoke_closure", {"closure", "args"}, false,
                     InferInvokeClosureImpure, /*pure=*/false));
  RegisterOp(Builtin("relax.invoke_pure_closure", "R.invoke_pure_closure", {"closure", "args"}, false,
                     InferInvokePureClosure));
}

}  // namespace rlx::graph
