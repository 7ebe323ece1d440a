// VMShapeLower: lowers symbolic shapes and the checks at function
// boundaries and match_casts to VM builtins over a per-function shape heap
// (after TVM's relax.backend.VMShapeLower).
//
// Slots. Every symbolic expression the function mentions (in parameter and
// return annotations, ShapeExprs, PrimValues, match_cast patterns) gets a
// slot of the shape heap, an int64 tensor allocated at function entry:
//
//   shape_heap = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap",
//                    (R.prim_value(<number of slots>),), sinfo_args=R.Tensor(ndim=1, dtype="int64"))
//
// (R.null_value() when there are none). Equal expressions (provably, by
// arith::Analyzer) share a slot. A variable's slot is filled when a match
// first meets it; a compound expression's (n * 2, n + m) is computed as soon
// as all its variables are known, by a generated PrimFunc that reads and
// writes the heap:
//
//   @T.prim_func(private=True)
//   def shape_func(heap: T.handle):
//       H = T.match_buffer(heap, (3,), "int64")
//       H[2] = H[0] * T.int64(2)
//
// Matching points, in order: the parameters (at entry), each match_cast,
// the return value (after the body). At each point:
//   0. Static checks, recursively through tuples:
//        vm.builtin.check_tensor_info(x, ndim, dtype, err_ctx)   (no dtype when unknown)
//        vm.builtin.check_shape_info(x, ndim, err_ctx)
//        vm.builtin.check_prim_value_info(x, dtype, err_ctx)
//        vm.builtin.check_tuple_info(x, size, err_ctx)
//      (parameters are always checked: the caller may be anything; at a
//      match_cast or the return, a check the struct info already proves is
//      skipped; with the function attribute "num_input" = k, parameters from
//      index k on are weights and their static-shape tensors are not checked). Tuple fields are taken with TupleGetItem, or with
//      vm.builtin.tuple_getitem when the value is not known to be a tuple.
//   1. vm.builtin.match_shape(x, shape_heap, ndim, code0, v0, code1, v1, ..., err_ctx)
//      with MatchShapeCode per dimension: kAssertEqualToImm (0, v = the
//      constant), kStoreToHeap (1, v = slot of a variable met first here),
//      kNoOp (2: a compound expression not yet computable), kAssertEqualToLoad
//      (3, v = slot of a known value). Scalars use vm.builtin.match_prim_value.
//   2. Compound expressions whose variables are now all known are computed
//      by one new shape_func, called as `_ = cls.shape_func(shape_heap)`.
//   3. The matches that had a kNoOp are emitted again; now every dimension
//      must be known, else a CompileError names the function and the value.
// Then every ShapeExpr of the body with a symbolic dimension becomes
//   vm.builtin.make_shape(shape_heap, ndim, code0, v0, ...)   (MakeShapeCode
// kUseImm = 0 with the constant, kLoadShape = 1 with the slot), and every
// symbolic PrimValue vm.builtin.make_prim_value(shape_heap, code, v).
// Struct info annotations are left as they are. The error context strings
// name the function, the parameter and the expected struct info, e.g.
//   ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 4), dtype="float32"))
// Local functions must have been lifted out first (a CompileError otherwise).
#include <fmt/format.h>

#include <memory>
#include <optional>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/ir/functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/text/printer.h"
#include "rlx/tir/function.h"
#include "rlx/tir/stmt.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Expr;
using graph::StructInfo;
using ir::PrimExpr;

constexpr const char* kPassName = "vm-shape-lower";

// The integer protocols of vm.builtin.match_shape / make_shape (TVM's
// runtime/vm/builtin.h).
enum class MatchShapeCode : int64_t { kAssertEqualToImm = 0, kStoreToHeap = 1, kNoOp = 2, kAssertEqualToLoad = 3 };
enum class MakeShapeCode : int64_t { kUseImm = 0, kLoadShape = 1 };

Expr Int64Value(int64_t value) { return Expr(new graph::PrimValueNode(ir::MakeInt(value))); }
Expr Str(std::string value) { return Expr(new graph::StringImmNode(std::move(value))); }
Expr Extern(const char* symbol) { return Expr(new graph::ExternFuncNode(symbol)); }
StructInfo VoidSInfo() { return graph::TupleSInfo({}); }

Expr PackedCall(const char* symbol, std::vector<Expr> args, StructInfo result) {
  return Expr(new graph::CallNode(Extern(symbol), std::move(args), nullptr, {std::move(result)}));
}

bool IsConstant(const PrimExpr& expr) { return expr.isa<ir::IntImmNode>() || expr.isa<ir::FloatImmNode>(); }

std::vector<ir::Var> VarsOf(const PrimExpr& expr) {
  std::vector<ir::Var> vars;
  ir::Substitute(expr, [&](const ir::Var& var) -> PrimExpr {
    if (std::find_if(vars.begin(), vars.end(), [&](const ir::Var& v) { return v.same_as(var); }) == vars.end()) {
      vars.push_back(var);
    }
    return var;
  });
  return vars;
}

struct Slot {
  PrimExpr expr;
  int64_t index;
  bool computed = false;
};

// A pending match of a value against a symbolic pattern.
struct MatchItem {
  Expr value;
  std::vector<PrimExpr> pattern;
  bool is_prim_value;
  std::string err_ctx;
};

// Every symbolic expression of a function, in first-appearance order.
class SlotCollector : public graph::ExprVisitor {
 public:
  explicit SlotCollector(std::vector<PrimExpr>* exprs) : exprs_(exprs) {}
  void VisitPrimExpr(const PrimExpr& expr) override {
    if (IsConstant(expr)) return;
    for (const ir::Var& var : VarsOf(expr)) exprs_->push_back(var);
    exprs_->push_back(expr);
  }

 protected:
  using ExprVisitor::VisitExpr_;
  void VisitExpr_(const graph::FunctionNode*, const Expr&) override {}

 private:
  std::vector<PrimExpr>* exprs_;
};

class ShapeLowerer : public graph::ExprMutator {
 public:
  explicit ShapeLowerer(const ir::IRModule& mod) : ExprMutator(mod) {}

  graph::Function Rewrite(const std::string& name, const graph::FunctionNode* func) {
    function_name_ = name;
    CollectSlots(func);
    builder_->BeginScope(func->params);
    builder_->BeginBindingBlock();
    EmitShapeHeap();
    std::vector<MatchItem> todos;
    size_t num_input = NumInput(func);
    for (size_t i = 0; i < func->params.size(); ++i) {
      const graph::Var& param = func->params[i];
      std::string err_ctx = fmt::format("ErrorContext(fn={}, loc=param[{}], param={}, annotation={}) ", name, i,
                                        param->name_hint, text::PrintStructInfo(param->struct_info));
      dynamic_only_ = i >= num_input;
      CheckMatchCast(param->struct_info, param, /*always_check=*/true, err_ctx, &todos);
    }
    dynamic_only_ = false;
    MatchInRounds(todos);
    graph::BindingBlock prologue = builder_->EndBlock();

    auto body = cast<graph::SeqExprNode>(VisitWithNewScope(func->body, func->params));
    builder_->BeginBindingBlock();
    if (func->ret_struct_info.defined()) {
      std::string err_ctx = fmt::format("ErrorContext(fn={}, loc=return, annotation={}) ", name,
                                        text::PrintStructInfo(func->ret_struct_info));
      std::vector<MatchItem> ret_todos;
      CheckMatchCast(func->ret_struct_info, body->body, /*always_check=*/false, err_ctx, &ret_todos);
      RunMatch(ret_todos, /*require_computed=*/true);
    }
    graph::BindingBlock epilogue = builder_->EndBlock();
    std::vector<graph::BindingBlock> blocks = {prologue};
    blocks.insert(blocks.end(), body->blocks.begin(), body->blocks.end());
    blocks.push_back(epilogue);
    Expr new_body = builder_->Normalize(Expr(new graph::SeqExprNode(std::move(blocks), body->body)));
    builder_->EndScope();
    auto* node = new graph::FunctionNode(func->params, new_body, func->ret_struct_info, func->is_pure, func->attrs,
                                         func->is_private);
    node->span = func->span;
    return graph::Function(node);
  }

 protected:
  using ExprMutator::VisitExpr_;

  // Annotations keep their symbolic shapes; only values are lowered.
  StructInfo VisitStructInfo(const StructInfo& sinfo) override { return sinfo; }

  Expr VisitExpr_(const graph::FunctionNode* op, const Expr&) override {
    throw CompileError(op->span, fmt::format("{}: function '{}' contains a local function; lift it out first",
                                             kPassName, function_name_));
  }

  Expr VisitExpr_(const graph::ShapeExprNode* op, const Expr& self) override {
    if (std::all_of(op->values.begin(), op->values.end(), IsConstant)) return self;
    std::vector<Expr> args = {shape_heap_, Int64Value(static_cast<int64_t>(op->values.size()))};
    for (const PrimExpr& value : op->values) AppendMakeShapeArgs(value, &args);
    return PackedCall("vm.builtin.make_shape", std::move(args),
                      graph::ShapeSInfo(static_cast<int>(op->values.size())));
  }

  Expr VisitExpr_(const graph::PrimValueNode* op, const Expr& self) override {
    if (IsConstant(op->value)) return self;
    std::vector<Expr> args = {shape_heap_};
    AppendMakeShapeArgs(op->value, &args);
    return PackedCall("vm.builtin.make_prim_value", std::move(args), graph::PrimSInfo(op->value->dtype));
  }

  void VisitBinding_(const graph::MatchCastNode* binding) override {
    Expr value = VisitExpr(binding->value);
    std::string err_ctx =
        fmt::format("ErrorContext(match_cast, struct_info={}) ", text::PrintStructInfo(binding->struct_info));
    std::vector<MatchItem> todos;
    CheckMatchCast(binding->struct_info, value, /*always_check=*/false, err_ctx, &todos);
    MatchInRounds(todos);
    ExprMutator::VisitBinding_(binding);
  }

 private:
  // ---------------------------------------------------------------- slots

  void CollectSlots(const graph::FunctionNode* func) {
    slots_.clear();
    std::vector<PrimExpr> exprs;
    SlotCollector collector(&exprs);
    for (const graph::Var& param : func->params) collector.VisitStructInfo(param->struct_info);
    collector.VisitExpr(func->body);
    if (func->ret_struct_info.defined()) collector.VisitStructInfo(func->ret_struct_info);
    for (const PrimExpr& expr : exprs) {
      if (FindSlot(expr) == nullptr) {
        slots_.push_back(std::make_unique<Slot>(Slot{expr, static_cast<int64_t>(slots_.size())}));
      }
    }
  }

  Slot* FindSlot(const PrimExpr& expr) {
    for (const auto& slot : slots_) {
      if (slot->expr.same_as(expr)) return slot.get();
    }
    if (expr.isa<ir::VarNode>()) return nullptr;
    for (const auto& slot : slots_) {
      if (!slot->expr.isa<ir::VarNode>() && analyzer_.CanProveEqual(slot->expr, expr)) return slot.get();
    }
    return nullptr;
  }

  Slot& SlotOf(const PrimExpr& expr) {
    Slot* slot = FindSlot(expr);
    RLX_ICHECK(slot != nullptr) << "no shape-heap slot for " << ir::ToString(expr);
    return *slot;
  }

  void EmitShapeHeap() {
    Expr heap;
    if (slots_.empty()) {
      heap = graph::MakeCall("relax.null_value", {});
    } else {
      Expr size(new graph::TupleNode({Int64Value(static_cast<int64_t>(slots_.size()))}));
      heap = graph::MakeCall("relax.call_builtin_with_ctx", {Extern("vm.builtin.alloc_shape_heap"), size}, nullptr,
                             {graph::TensorSInfo(DataType::Int64(), 1)});
    }
    shape_heap_ = builder_->Emit(heap, "shape_heap");
  }

  [[noreturn]] void FailUncomputed(const PrimExpr& expr, const std::string& where) {
    throw CompileError(Span{}, fmt::format("{}: in function '{}', the symbolic value {} is not known at {}: no "
                                           "earlier match defines all of its variables",
                                           kPassName, function_name_, ir::ToString(expr), where));
  }

  void AppendMakeShapeArgs(const PrimExpr& value, std::vector<Expr>* args) {
    if (const auto* imm = value.as<ir::IntImmNode>()) {
      args->push_back(Int64Value(static_cast<int64_t>(MakeShapeCode::kUseImm)));
      args->push_back(Int64Value(imm->value));
      return;
    }
    Slot& slot = SlotOf(value);
    if (!slot.computed) FailUncomputed(value, "its use");
    args->push_back(Int64Value(static_cast<int64_t>(MakeShapeCode::kLoadShape)));
    args->push_back(Int64Value(slot.index));
  }

  // ---------------------------------------------------------------- checks

  void EmitCheck(const char* builtin, std::vector<Expr> args) {
    builder_->Emit(PackedCall(builtin, std::move(args), VoidSInfo()), "_");
  }

  // Step 0: static checks, collecting the symbolic matches into `todos`.
  void CheckMatchCast(const StructInfo& sinfo, const Expr& value, bool always_check, const std::string& err_ctx,
                      std::vector<MatchItem>* todos) {
    if (!always_check && graph::IsBaseOf(sinfo, graph::GetStructInfo(value), analyzer_)) return;
    if (const auto* tensor = sinfo.as<graph::TensorStructInfoNode>()) return CheckTensor(tensor, value, err_ctx, todos);
    if (const auto* shape = sinfo.as<graph::ShapeStructInfoNode>()) {
      EmitCheck("vm.builtin.check_shape_info", {value, Int64Value(shape->ndim), Str(err_ctx)});
      if (shape->values) todos->push_back(MatchItem{value, *shape->values, false, err_ctx});
      return;
    }
    if (const auto* prim = sinfo.as<graph::PrimStructInfoNode>()) {
      EmitCheck("vm.builtin.check_prim_value_info",
                {value, Expr(new graph::DataTypeImmNode(prim->dtype)), Str(err_ctx)});
      if (prim->value.defined()) todos->push_back(MatchItem{value, {prim->value}, true, err_ctx});
      return;
    }
    if (const auto* tuple = sinfo.as<graph::TupleStructInfoNode>()) return CheckTuple(tuple, value, always_check, err_ctx, todos);
  }

  // The function attribute "num_input": parameters from that index on are
  // weights, whose static shapes are not checked (TVM does the same).
  static size_t NumInput(const graph::FunctionNode* func) {
    ObjectRef value = func->attrs.defined() ? func->attrs->Get("num_input") : ObjectRef();
    const auto* count = value.as<ir::IntImmNode>();
    return count != nullptr && count->value >= 0 ? static_cast<size_t>(count->value) : func->params.size();
  }

  void CheckTensor(const graph::TensorStructInfoNode* tensor, const Expr& value, const std::string& err_ctx,
                   std::vector<MatchItem>* todos) {
    std::optional<std::vector<PrimExpr>> dims = tensor->GetShape();
    if (dynamic_only_ && dims && std::all_of(dims->begin(), dims->end(), IsConstant)) return;
    // An unknown dtype is left out (the builtin's dtype argument is optional).
    std::vector<Expr> args = {value, Int64Value(tensor->ndim)};
    if (!tensor->dtype.is_void()) args.push_back(Expr(new graph::DataTypeImmNode(tensor->dtype)));
    args.push_back(Str(err_ctx));
    EmitCheck("vm.builtin.check_tensor_info", std::move(args));
    if (!tensor->shape.defined()) return;
    const auto* shape = tensor->shape.as<graph::ShapeExprNode>();
    if (shape == nullptr) {
      throw CompileError(tensor->shape->span, fmt::format("{}: in function '{}', a tensor shape given by a variable "
                                                          "cannot be matched: {}",
                                                          kPassName, function_name_, err_ctx));
    }
    todos->push_back(MatchItem{value, shape->values, false, err_ctx});
  }

  void CheckTuple(const graph::TupleStructInfoNode* tuple, const Expr& value, bool always_check,
                  const std::string& err_ctx, std::vector<MatchItem>* todos) {
    const auto* known = graph::GetStructInfo(value).as<graph::TupleStructInfoNode>();
    if (known != nullptr && known->fields.size() != tuple->fields.size()) {
      throw CompileError(value->span, fmt::format("{}: {}tuple of {} fields matched against {} fields", kPassName,
                                                  err_ctx, known->fields.size(), tuple->fields.size()));
    }
    if (always_check || known == nullptr) {
      EmitCheck("vm.builtin.check_tuple_info",
                {value, Int64Value(static_cast<int64_t>(tuple->fields.size())), Str(err_ctx)});
    }
    for (size_t i = 0; i < tuple->fields.size(); ++i) {
      Expr field = known != nullptr
                       ? Expr(new graph::TupleGetItemNode(value, static_cast<int>(i)))
                       : PackedCall("vm.builtin.tuple_getitem", {value, Int64Value(static_cast<int64_t>(i))},
                                    graph::ObjectSInfo());
      CheckMatchCast(tuple->fields[i], builder_->Emit(field), always_check, err_ctx, todos);
    }
  }

  // ---------------------------------------------------------------- matches

  // Steps 1 to 3.
  void MatchInRounds(const std::vector<MatchItem>& todos) {
    std::vector<MatchItem> outstanding = RunMatch(todos, /*require_computed=*/false);
    EmitShapeComputations();
    RunMatch(outstanding, /*require_computed=*/true);
  }

  std::pair<MatchShapeCode, int64_t> MatchArgs(const PrimExpr& expr, bool require_computed, const MatchItem& item) {
    if (const auto* imm = expr.as<ir::IntImmNode>()) return {MatchShapeCode::kAssertEqualToImm, imm->value};
    Slot& slot = SlotOf(expr);
    if (slot.computed) return {MatchShapeCode::kAssertEqualToLoad, slot.index};
    if (require_computed) FailUncomputed(expr, item.err_ctx);
    if (expr.isa<ir::VarNode>()) {
      slot.computed = true;
      return {MatchShapeCode::kStoreToHeap, slot.index};
    }
    return {MatchShapeCode::kNoOp, 0};
  }

  // Emits the matches; returns the items that still have kNoOp dimensions.
  std::vector<MatchItem> RunMatch(const std::vector<MatchItem>& todos, bool require_computed) {
    std::vector<MatchItem> outstanding;
    for (const MatchItem& item : todos) {
      std::vector<Expr> args = {item.value, shape_heap_};
      if (!item.is_prim_value) args.push_back(Int64Value(static_cast<int64_t>(item.pattern.size())));
      bool all_noop = true;
      bool any_noop = false;
      for (const PrimExpr& expr : item.pattern) {
        auto [code, value] = MatchArgs(expr, require_computed, item);
        all_noop = all_noop && code == MatchShapeCode::kNoOp;
        any_noop = any_noop || code == MatchShapeCode::kNoOp;
        args.push_back(Int64Value(static_cast<int64_t>(code)));
        args.push_back(Int64Value(value));
      }
      if (any_noop) outstanding.push_back(item);
      args.push_back(Str(item.err_ctx));
      if (!all_noop) {
        EmitCheck(item.is_prim_value ? "vm.builtin.match_prim_value" : "vm.builtin.match_shape", std::move(args));
      }
    }
    return outstanding;
  }

  // Step 2: one shape_func for every compound expression now computable.
  void EmitShapeComputations() {
    std::vector<Slot*> ready;
    for (const auto& slot : slots_) {
      if (slot->computed || slot->expr.isa<ir::VarNode>()) continue;
      std::vector<ir::Var> vars = VarsOf(slot->expr);
      if (std::all_of(vars.begin(), vars.end(), [&](const ir::Var& var) { return SlotOf(var).computed; })) {
        ready.push_back(slot.get());
      }
    }
    if (ready.empty()) return;
    ir::Var heap = make<ir::VarNode>("heap", DataType::Handle());
    ir::Buffer buffer = ir::MakeBuffer("H", {ir::MakeInt(static_cast<int64_t>(slots_.size()))}, DataType::Int64());
    std::vector<tir::Stmt> stores;
    for (Slot* slot : ready) {
      PrimExpr value = ir::Substitute(slot->expr, [&](const ir::Var& var) -> PrimExpr {
        return make<ir::BufferLoadNode>(buffer, std::vector<PrimExpr>{ir::MakeInt(SlotOf(var).index)});
      });
      stores.push_back(make<tir::BufferStoreNode>(buffer, ir::cast(DataType::Int64(), value),
                                                  std::vector<PrimExpr>{ir::MakeInt(slot->index)}));
      slot->computed = true;
    }
    auto* func = new tir::PrimFuncNode();
    func->params = {heap};
    func->buffer_map = {{heap, buffer}};
    func->body = stores.size() == 1 ? stores[0] : tir::Stmt(make<tir::SeqStmtNode>(std::move(stores)));
    func->attrs = ir::DictWith(nullptr, "tir.is_host_func", ir::MakeBool(true));
    func->is_private = true;  // no symbol until attach-global-symbol, as in TVM
    graph::GlobalVar gv = builder_->AddFunction(tir::PrimFunc(func), FreshFunctionName("shape_func"));
    builder_->Emit(Expr(new graph::CallNode(gv, {shape_heap_})), "_");
  }

  std::string FreshFunctionName(const std::string& base) {
    ir::IRModule mod = builder_->GetContextModule();
    std::string name = base;
    for (int i = 1; mod->Contains(name); ++i) name = base + std::to_string(i);
    return name;
  }

  std::string function_name_;
  bool dynamic_only_ = false;  // checking a weight parameter (index >= num_input)
  std::vector<std::unique_ptr<Slot>> slots_;
  Expr shape_heap_;
  arith::Analyzer analyzer_;
};

}  // namespace

Pass VMShapeLower() {
  auto run = [](ir::IRModule mod, const PassContext&) {
    ShapeLowerer lowerer(mod);
    std::vector<std::pair<std::string, graph::Function>> updated;
    for (const auto& [name, func] : mod->functions) {
      if (const auto* graph_func = func.as<graph::FunctionNode>()) {
        updated.emplace_back(name, lowerer.Rewrite(name, graph_func));
      }
    }
    ir::IRModule result = lowerer.builder().GetContextModule();
    for (const auto& [name, func] : updated) result = ir::WithFunction(result, name, func);
    return result;
  };
  return CreateModulePass(run, PassInfo{kPassName,
                                        "Lowers symbolic shapes and boundary checks to VM builtins over a shape heap, "
                                        "shape arithmetic to generated PrimFuncs",
                                        0, {}});
}

}  // namespace rlx::transform
