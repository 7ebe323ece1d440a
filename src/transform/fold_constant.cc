// FoldConstant: evaluates constant subgraphs at compile time (after TVM's
// relax.transform.FoldConstant).
//
// One graph::ExprMutator walks each graph function in order, remembering
// what every variable is bound to when that value is known at compile time
// (a Constant, a ShapeExpr, a Tuple literal). At each expression, children
// first:
//
//   Var bound to a Constant              -> the Constant
//   t[i], t a Tuple literal (or bound)   -> field i
//   ShapeExpr / PrimValue                -> each value the analyzer proves to
//                                           be a literal becomes it (shape
//                                           arithmetic on known sizes); symbolic
//                                           values keep their form
//   R.shape_of(x), x's shape known       -> R.shape([...]) of x's struct info
//   Var bound to a ShapeExpr, as an
//     argument of an operator call        -> the ShapeExpr (TVM does the same)
//   R.call_tir(f, (constants...),        -> the output(s) as Constant(s),
//     out_sinfo with static shapes)         computed by running the PrimFunc
//   op(constants...) in a dataflow block,
//     op with a legalization             -> legalized on the fly (in a scratch
//                                           builder, so the module only changes
//                                           when folding succeeds), then folded
//                                           like the R.call_tir it became
//
// PrimFuncs are evaluated with the TIR interpreter (tir/interpreter.h): the
// transform layer cannot link LLVM, and the interpreter is the exact
// reference semantics. Each PrimFunc is compiled for interpretation once.
// A function the interpreter rejects, or that fails at run time, is simply
// not folded (TVM skips functions it cannot build).
//
// Size limit: folding trades run time for module size. An output of at most
// kMaxFoldedElements elements is always folded; a larger one only when it is
// no larger than its constant inputs together (a transform of existing
// weights, e.g. a transpose, does not grow the module; an iota or a
// broadcast would) and below kMaxInterpretedElements. Independently, a
// PrimFunc whose loop nests would take more than kMaxInterpretedStores
// stores (estimated from its loop extents) is not interpreted: a matmul of
// two large constants would take too long at compile time. Nor is one with
// a while loop, whose trip count is unknown.
//
// Afterwards the bindings left unused are removed (TVM's RemoveAllUnused).
// Module functions are not removed (dead-code-elimination does that).
#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>

#include "rlx/graph/expr_functor.h"
#include "rlx/graph/op_registry.h"
#include "rlx/ir/functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/interpreter.h"
#include "rlx/tir/stmt_functor.h"
#include "rlx/transform/passes.h"
#include "utils.h"

namespace rlx::transform {
namespace {

using graph::Call;
using graph::Constant;
using graph::Expr;
using ir::PrimExpr;

constexpr const char* kPassName = "fold-constant";
constexpr int64_t kMaxFoldedElements = int64_t{1} << 16;
constexpr int64_t kMaxInterpretedElements = int64_t{1} << 24;
constexpr double kMaxInterpretedStores = double(int64_t{1} << 26);
// A legalization may return a call of another legalizable op.
constexpr int kMaxLegalizeDepth = 4;

// ---------------------------------------------------------------------------
// Constants <-> interpreter tensors.

tir::HostTensor ToHostTensor(const graph::TensorData& data) {
  tir::HostTensor tensor;
  tensor.dtype = data.dtype;
  tensor.shape = data.shape;
  tensor.data = data.bytes;
  return tensor;
}

Constant ToConstant(tir::HostTensor&& tensor) {
  auto data = std::make_shared<graph::TensorData>();
  data->dtype = tensor.dtype;
  data->shape = std::move(tensor.shape);
  data->bytes = std::move(tensor.data);
  return make<graph::ConstantNode>(std::move(data));
}

// The static shape of a tensor struct info, or nullopt.
std::optional<std::vector<int64_t>> StaticShape(const graph::StructInfo& sinfo) {
  const auto* tensor = sinfo.as<graph::TensorStructInfoNode>();
  if (tensor == nullptr || tensor->IsUnknownDtype()) return std::nullopt;
  std::optional<std::vector<PrimExpr>> dims = tensor->GetShape();
  if (!dims) return std::nullopt;
  std::vector<int64_t> shape;
  for (const PrimExpr& dim : *dims) {
    const auto* imm = dim.as<ir::IntImmNode>();
    if (imm == nullptr) return std::nullopt;
    shape.push_back(imm->value);
  }
  return shape;
}

// The output tensors a call_tir allocates: its out_sinfo, one tensor or a
// tuple of tensors, all with static shapes.
std::optional<std::vector<tir::HostTensor>> AllocateOutputs(const graph::StructInfo& out_sinfo) {
  std::vector<graph::StructInfo> fields = {out_sinfo};
  if (const auto* tuple = out_sinfo.as<graph::TupleStructInfoNode>()) fields = tuple->fields;
  std::vector<tir::HostTensor> outputs;
  for (const graph::StructInfo& field : fields) {
    std::optional<std::vector<int64_t>> shape = StaticShape(field);
    if (!shape) return std::nullopt;
    outputs.emplace_back(field.as<graph::TensorStructInfoNode>()->dtype, *shape);
  }
  return outputs;
}

// Roughly how many stores running `func` takes: the product of the loop
// extents around each BufferStore, summed. A symbolic extent counts as
// `symbolic_extent` (the largest argument's size: a bound for the loops of
// elementwise and reduction kernels).
class StoreCountEstimator : public tir::StmtVisitor {
 public:
  static double Estimate(const tir::PrimFunc& func, double symbolic_extent) {
    StoreCountEstimator estimator(symbolic_extent);
    estimator.VisitStmt(func->body);
    return estimator.total_;
  }

 protected:
  using StmtVisitor::VisitStmt_;
  void VisitStmt_(const tir::ForNode* op, const tir::Stmt& self) override {
    double saved = iterations_;
    const auto* extent = op->extent.as<ir::IntImmNode>();
    iterations_ *= extent != nullptr ? static_cast<double>(std::max<int64_t>(extent->value, 0)) : symbolic_extent_;
    StmtVisitor::VisitStmt_(op, self);
    iterations_ = saved;
  }
  // A while loop's trip count is unknown until it runs (it may not end):
  // such a function is never interpreted at compile time.
  void VisitStmt_(const tir::WhileNode*, const tir::Stmt&) override {
    total_ = std::numeric_limits<double>::infinity();
  }
  void VisitStmt_(const tir::BufferStoreNode* op, const tir::Stmt& self) override {
    total_ += iterations_;
    StmtVisitor::VisitStmt_(op, self);
  }

 private:
  explicit StoreCountEstimator(double symbolic_extent) : symbolic_extent_(symbolic_extent) {}
  double symbolic_extent_;
  double iterations_ = 1;
  double total_ = 0;
};

bool WorthFolding(const std::vector<tir::HostTensor>& inputs, const std::vector<tir::HostTensor>& outputs) {
  int64_t input_elements = 0;
  int64_t output_elements = 0;
  for (const tir::HostTensor& input : inputs) input_elements += input.num_elements();
  for (const tir::HostTensor& output : outputs) output_elements += output.num_elements();
  if (output_elements <= kMaxFoldedElements) return true;
  return output_elements <= input_elements && output_elements <= kMaxInterpretedElements;
}

// Does `expr` refer to a graph variable anywhere?
bool MentionsVar(const Expr& expr) {
  bool found = false;
  graph::PostOrderVisit(expr, [&](const Expr& sub) { found = found || sub.isa<graph::VarNode>(); });
  return found;
}

std::string OpName(const Call& call) {
  const auto* op = call->op.as<graph::OpNode>();
  return op == nullptr ? std::string() : op->name;
}

// ---------------------------------------------------------------------------

class ConstantFolder : public graph::ExprMutator {
 public:
  explicit ConstantFolder(const ir::IRModule& mod) : ExprMutator(mod) {}

 protected:
  using ExprMutator::VisitExpr_;

  Expr VisitExpr_(const graph::VarNode* op, const Expr& self) override {
    if (Constant constant = KnownConstant(op); constant.defined()) return constant;
    return ExprMutator::VisitExpr_(op, self);
  }
  Expr VisitExpr_(const graph::DataflowVarNode* op, const Expr& self) override {
    if (Constant constant = KnownConstant(op); constant.defined()) return constant;
    return ExprMutator::VisitExpr_(op, self);
  }

  void VisitBinding_(const graph::VarBindingNode* binding) override {
    Expr value = VisitExpr(binding->value);
    ReEmitBinding(binding, value);
    if (value.isa<graph::ConstantNode>() || value.isa<graph::ShapeExprNode>() || value.isa<graph::TupleNode>()) {
      // Under the original variable (met in values not yet rewritten) and
      // under the one the builder bound (met in rewritten values).
      known_value_[binding->var.get()] = value;
      if (auto it = var_remap_.find(binding->var.get()); it != var_remap_.end()) known_value_[it->second.get()] = value;
    }
  }

  Expr VisitExpr_(const graph::TupleGetItemNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* item = visited.as<graph::TupleGetItemNode>();
    if (item == nullptr) return visited;
    const auto* tuple = KnownValue(item->tuple).as<graph::TupleNode>();
    if (tuple == nullptr || item->index < 0 || item->index >= static_cast<int>(tuple->fields.size())) return visited;
    return tuple->fields[item->index];
  }

  Expr VisitExpr_(const graph::ShapeExprNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* shape = visited.as<graph::ShapeExprNode>();
    bool changed = false;
    std::vector<PrimExpr> values = SimplifyAll(shape->values, &changed);
    return changed ? make<graph::ShapeExprNode>(std::move(values)) : visited;
  }

  Expr VisitExpr_(const graph::PrimValueNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* prim = visited.as<graph::PrimValueNode>();
    PrimExpr folded = FoldPrimExpr(prim->value);
    return folded.same_as(prim->value) ? visited : make<graph::PrimValueNode>(folded);
  }

  Expr VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    Expr visited = ExprMutator::VisitExpr_(op, self);
    const auto* call_node = visited.as<graph::CallNode>();
    if (call_node == nullptr || !call_node->op.isa<graph::OpNode>()) return visited;
    Call call(call_node);
    std::string name = OpName(call);
    if (name == "relax.call_tir") return FoldCallTIR(call, builder().GetContextModule()).value_or(visited);
    if (name == "relax.shape_of") return FoldShapeOf(call).value_or(visited);
    Call with_shapes = InlineKnownShapes(call);
    if (builder().CurrentBlockIsDataflow()) {
      if (std::optional<Expr> folded = FoldByLegalizing(with_shapes)) return *folded;
    }
    return with_shapes;
  }

 private:
  Expr KnownValue(const Expr& expr) const {
    const auto* var = expr.as<graph::VarNode>();
    if (var == nullptr) return expr;
    auto it = known_value_.find(var);
    return it == known_value_.end() ? expr : it->second;
  }

  Constant KnownConstant(const graph::VarNode* var) const {
    auto it = known_value_.find(var);
    if (it == known_value_.end()) return Constant();
    return dyn_cast<graph::ConstantNode>(it->second);
  }

  std::vector<PrimExpr> SimplifyAll(const std::vector<PrimExpr>& values, bool* changed) {
    std::vector<PrimExpr> result;
    for (const PrimExpr& value : values) {
      result.push_back(FoldPrimExpr(value));
      if (!result.back().same_as(value)) *changed = true;
    }
    return result;
  }

  // `value` as an integer or float literal when the analyzer proves it is
  // one; otherwise `value` itself (symbolic arithmetic keeps its form).
  PrimExpr FoldPrimExpr(const PrimExpr& value) {
    if (value.isa<ir::IntImmNode>() || value.isa<ir::FloatImmNode>()) return value;
    PrimExpr simplified = builder().analyzer().Simplify(value);
    bool is_literal = simplified.isa<ir::IntImmNode>() || simplified.isa<ir::FloatImmNode>();
    return is_literal ? simplified : value;
  }

  // Operator arguments that are variables bound to shapes become the shapes.
  Call InlineKnownShapes(const Call& call) {
    std::vector<Expr> args = call->args;
    bool changed = false;
    for (Expr& arg : args) {
      Expr known = KnownValue(arg);
      if (!known.same_as(arg) && known.isa<graph::ShapeExprNode>()) {
        arg = known;
        changed = true;
      }
    }
    if (!changed) return call;
    return cast<graph::CallNode>(
        builder().Normalize(make<graph::CallNode>(call->op, std::move(args), call->attrs, call->sinfo_args)));
  }

  std::optional<Expr> FoldShapeOf(const Call& call) {
    const auto* tensor = graph::GetStructInfo(call->args[0]).as<graph::TensorStructInfoNode>();
    if (tensor == nullptr) return std::nullopt;
    std::optional<std::vector<PrimExpr>> dims = tensor->GetShape();
    if (!dims) return std::nullopt;
    for (const PrimExpr& dim : *dims) {
      bool defined = true;
      ir::PostOrderVisit(dim, [&](const PrimExpr& sub) {
        if (const auto* var = sub.as<ir::VarNode>()) defined = defined && builder().IsSymbolicVarDefined(ir::Var(var));
      });
      if (!defined) return std::nullopt;
    }
    return Expr(make<graph::ShapeExprNode>(*dims));
  }

  // Legalizes `call` in a scratch builder (so the PrimFuncs it adds stay out
  // of the module unless folding succeeds: then none is needed) and folds
  // the R.call_tir it becomes.
  std::optional<Expr> FoldByLegalizing(const Call& call) {
    const graph::OpInfo* info = graph::FindOp(OpName(call));
    if (info == nullptr || !info->legalize || !info->pure) return std::nullopt;
    for (const Expr& arg : call->args) {
      if (MentionsVar(arg)) return std::nullopt;
    }
    graph::BlockBuilder scratch(builder().GetContextModule());
    scratch.BeginDataflowBlock();
    Expr current;
    try {
      current = scratch.Normalize(call);
      for (int depth = 0; depth < kMaxLegalizeDepth; ++depth) {
        const auto* current_call = current.as<graph::CallNode>();
        const graph::OpInfo* current_info = current_call ? graph::FindOp(OpName(Call(current_call))) : nullptr;
        if (current_info == nullptr || !current_info->legalize) break;
        Expr replaced = current_info->legalize(scratch, Call(current_call));
        if (replaced.same_as(current)) return std::nullopt;
        current = scratch.Normalize(replaced);
      }
    } catch (const CompileError&) {
      return std::nullopt;  // not legalizable with these arguments: leave the call
    }
    if (!scratch.EndBlock()->bindings.empty()) return std::nullopt;
    const auto* lowered = current.as<graph::CallNode>();
    if (lowered == nullptr || OpName(Call(lowered)) != "relax.call_tir") return std::nullopt;
    return FoldCallTIR(Call(lowered), scratch.GetContextModule());
  }

  // R.call_tir of a PrimFunc of `mod` on constant arguments with static
  // output shapes -> the computed output (a Constant or a Tuple of them).
  std::optional<Expr> FoldCallTIR(const Call& call, const ir::IRModule& mod) {
    const auto* callee = call->args[0].as<graph::GlobalVarNode>();
    const auto* args = call->args[1].as<graph::TupleNode>();
    if (callee == nullptr || args == nullptr || call->sinfo_args.size() != 1) return std::nullopt;
    const auto* func = mod->Lookup(callee->name_hint).as<tir::PrimFuncNode>();
    if (func == nullptr) return std::nullopt;
    std::vector<tir::HostTensor> inputs;
    for (const Expr& arg : args->fields) {
      const auto* constant = arg.as<graph::ConstantNode>();
      if (constant == nullptr) return std::nullopt;
      inputs.push_back(ToHostTensor(*constant->data));
    }
    std::vector<int64_t> scalars;
    if (call->args.size() > 2 && !ConstantTIRVars(call->args[2], &scalars)) return std::nullopt;
    std::optional<std::vector<tir::HostTensor>> outputs = AllocateOutputs(call->sinfo_args[0]);
    if (!outputs || !WorthFolding(inputs, *outputs) || !CheapEnough(tir::PrimFunc(func), inputs, *outputs)) {
      return std::nullopt;
    }
    if (!Evaluate(tir::PrimFunc(func), inputs, *outputs, scalars)) return std::nullopt;
    if (!call->sinfo_args[0].isa<graph::TupleStructInfoNode>()) return Expr(ToConstant(std::move(outputs->front())));
    std::vector<Expr> fields;
    for (tir::HostTensor& output : *outputs) fields.push_back(ToConstant(std::move(output)));
    return builder().Normalize(make<graph::TupleNode>(std::move(fields)));
  }

  static bool CheapEnough(const tir::PrimFunc& func, const std::vector<tir::HostTensor>& inputs,
                          const std::vector<tir::HostTensor>& outputs) {
    int64_t largest = 1;
    for (const tir::HostTensor& tensor : inputs) largest = std::max(largest, tensor.num_elements());
    for (const tir::HostTensor& tensor : outputs) largest = std::max(largest, tensor.num_elements());
    return StoreCountEstimator::Estimate(func, static_cast<double>(largest)) <= kMaxInterpretedStores;
  }

  static bool ConstantTIRVars(const Expr& tir_vars, std::vector<int64_t>* scalars) {
    const auto* shape = tir_vars.as<graph::ShapeExprNode>();
    if (shape == nullptr) return false;
    for (const PrimExpr& value : shape->values) {
      const auto* imm = value.as<ir::IntImmNode>();
      if (imm == nullptr) return false;
      scalars->push_back(imm->value);
    }
    return true;
  }

  // Runs `func` on inputs, outputs, scalars; false when it cannot be run.
  bool Evaluate(const tir::PrimFunc& func, std::vector<tir::HostTensor>& inputs, std::vector<tir::HostTensor>& outputs,
                const std::vector<int64_t>& scalars) {
    const tir::Interpreter* interpreter = InterpreterFor(func);
    if (interpreter == nullptr) return false;
    std::vector<tir::ArgValue> args;
    for (tir::HostTensor& input : inputs) args.emplace_back(&input);
    for (tir::HostTensor& output : outputs) args.emplace_back(&output);
    for (int64_t scalar : scalars) args.emplace_back(scalar);
    try {
      interpreter->Run(args);
    } catch (const CompileError&) {
      return false;
    }
    return true;
  }

  // The compiled form of `func` (nullptr when the interpreter rejects it).
  const tir::Interpreter* InterpreterFor(const tir::PrimFunc& func) {
    auto it = interpreters_.find(func.get());
    if (it != interpreters_.end()) return it->second.get();
    std::unique_ptr<tir::Interpreter> interpreter;
    try {
      interpreter = std::make_unique<tir::Interpreter>(func);
    } catch (const CompileError&) {
      interpreter = nullptr;
    }
    keep_alive_.push_back(func);
    return (interpreters_[func.get()] = std::move(interpreter)).get();
  }

  std::unordered_map<const graph::VarNode*, Expr> known_value_;
  std::unordered_map<const tir::PrimFuncNode*, std::unique_ptr<tir::Interpreter>> interpreters_;
  std::vector<tir::PrimFunc> keep_alive_;  // the keys of interpreters_
};

ir::IRModule FoldModule(const ir::IRModule& mod) {
  ir::IRModule result = mod;
  for (const auto& [name, func] : mod->functions) {
    const auto* graph_func = func.as<graph::FunctionNode>();
    if (graph_func == nullptr) continue;
    ConstantFolder folder(mod);
    auto folded = cast<graph::FunctionNode>(folder.VisitExpr(graph::Function(graph_func)));
    if (folded.same_as(func)) continue;
    result = ir::WithFunction(result, name, RemoveAllUnused(folded, mod));
  }
  return result;
}

}  // namespace

Pass FoldConstant() {
  return CreateModulePass([](ir::IRModule mod, const PassContext&) { return FoldModule(mod); },
                          PassInfo{kPassName,
                                   "Evaluates calls whose arguments are constants (call_tir and legalizable "
                                   "operators, with the TIR interpreter), shape_of of known shapes, shape "
                                   "arithmetic and indexing of known tuples",
                                   1, {}});
}

}  // namespace rlx::transform
