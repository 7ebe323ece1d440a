// PrimFunc parsing: scoped statements — loops, while loops, if/else,
// assert, the with forms (T.LetStmt, T.Assert, T.allocate, T.decl_buffer,
// T.While), and buffer
// declarations by T.match_buffer / T.alloc_buffer (see tir_parser.h).
//
// Loops follow TVM: `range(n)`, `range(a, b)` (extent simplified),
// `T.serial/parallel/vectorized/unroll(...)`, `T.thread_binding(n,
// thread="threadIdx.x")`, `T.grid(a, b)`; a loop variable's dtype is its
// extent's, and a loop variable whose name is already in use is an error.
// `T.decl_buffer` without data= owns fresh memory: an Allocate around the
// DeclBuffer, as TVM builds it.
#include <fmt/format.h>

#include "rlx/arith/analyzer.h"
#include "text/tir_parser.h"

namespace rlx::text::detail {

using ir::PrimExpr;

namespace {

bool IsLoopCall(const std::string& name) {
  return name == "range" || name == "T.serial" || name == "T.parallel" || name == "T.vectorized" ||
         name == "T.unroll" || name == "T.thread_binding" || name == "T.grid";
}

tir::ForKind LoopKind(const std::string& name) {
  if (name == "T.parallel") return tir::ForKind::kParallel;
  if (name == "T.vectorized") return tir::ForKind::kVectorized;
  if (name == "T.unroll") return tir::ForKind::kUnrolled;
  if (name == "T.thread_binding") return tir::ForKind::kThreadBinding;
  return tir::ForKind::kSerial;
}

}  // namespace

// ---------------------------------------------------------------------------
// Loops.

ir::Var TIRParser::DefineLoopVar(const py::Expr& target, DataType dtype) {
  // A loop variable may shadow an outer name (Python rebinding, as TVM):
  // it is a new variable, and the printer renames one of them if needed.
  const py::Name& name = TargetName(target, "a loop variable");
  ir::Var var = NewVar(name.id, dtype, name.span);
  scopes_.DefinePrimVar(name.id, var);
  return var;
}

tir::Stmt TIRParser::ParseFor(const py::For& loop) {
  if (!loop.orelse.empty()) Fail(loop.orelse.front()->span, "for-else is not supported");
  const auto* call = loop.iter->As<py::Call>();
  std::string name = call ? CalleeName(*call) : "";
  if (!IsLoopCall(name)) {
    Fail(loop.iter->span, "expected the loop to iterate over range, T.serial, T.parallel, T.vectorized, T.unroll, "
                          "T.thread_binding or T.grid");
  }
  if (name == "T.grid") return ParseGrid(loop, *call);
  bool binding = name == "T.thread_binding";
  CallArgs args(*call, name,
                binding ? std::vector<std::string>{"start", "stop", "thread", "annotations"}
                        : std::vector<std::string>{"start", "stop", "step", "annotations"},
                1);
  PrimExpr min, extent;
  // `T.thread_binding(128, "threadIdx.x")`: a string in the stop position
  // is the thread (TVM accepts both).
  const py::Expr* thread_expr = binding ? args.Get("thread") : nullptr;
  bool stop_is_thread = binding && args.Has("stop") && AsStringLiteral(args.Required("stop"));
  if (stop_is_thread) {
    if (thread_expr != nullptr) Fail(call->span, "T.thread_binding: the thread is given twice");
    thread_expr = &args.Required("stop");
  }
  if (args.Has("stop") && !stop_is_thread) {
    min = prim_.Eval(args.Required("start"));
    PrimExpr stop = prim_.Eval(args.Required("stop"));
    MatchOperandTypes(min, stop, call->span, "range");
    PrimExpr difference = ir::sub(stop, min);  // matches dtypes
    min = difference.as<ir::BinaryNode>()->b;
    arith::Analyzer analyzer;
    extent = ir::IsConstInt(min, 0) ? difference.as<ir::BinaryNode>()->a : analyzer.Simplify(difference);
  } else {
    extent = prim_.Eval(args.Required("start"));
    min = ir::MakeInt(0, extent->dtype);
  }
  if (!extent->dtype.is_integer()) Fail(call->span, "loop bounds must be integers");
  auto* node = new tir::ForNode();
  // Owned by `result` from here, so an error below does not leak it.
  tir::Stmt result = WithStmtSpan(node, loop.span);
  node->min = min;
  node->extent = extent;
  if (const py::Expr* step = binding ? nullptr : args.Get("step"); step != nullptr && !IsNone(step)) {
    node->step = ParseLoopStep(*step, extent->dtype);
  }
  node->for_kind = LoopKind(name);
  if (binding) {
    std::optional<std::string> thread = thread_expr ? AsStringLiteral(*thread_expr) : std::nullopt;
    if (!thread) Fail(call->span, "T.thread_binding needs thread=\"threadIdx.x\" (or another thread tag)");
    node->thread_tag = *thread;
  }
  if (args.Has("annotations")) node->annotations = EvalAttrDict(args.Required("annotations"), AttrLevel::kTIR, &prim_);
  scopes_.Push();
  node->loop_var = DefineLoopVar(*loop.target, extent->dtype);
  loops_.push_back({node->loop_var, {min, extent}});
  node->body = ParseStmts(loop.body, 0);
  loops_.pop_back();
  scopes_.Pop();
  return result;
}

// A loop step (TVM's For.step): an integer of the loop variable's type,
// positive when it is a constant; a step of 1 is no step.
PrimExpr TIRParser::ParseLoopStep(const py::Expr& expr, DataType dtype) {
  PrimExpr step = prim_.Eval(expr);
  if (!step->dtype.is_integer() || !step->dtype.is_scalar()) {
    Fail(expr.span, fmt::format("a loop step must be an integer, got a value of type {}", step->dtype.ToString()));
  }
  if (std::optional<int64_t> value = ir::AsConstInt(step); value && *value <= 0) {
    Fail(expr.span, fmt::format("a loop step must be positive, got {}", *value));
  }
  if (ir::IsConstInt(step, 1)) return PrimExpr();
  return step->dtype == dtype ? step : ir::cast(dtype, step);
}

tir::Stmt TIRParser::ParseGrid(const py::For& loop, const py::Call& call) {
  if (!call.keywords.empty()) Fail(call.keywords[0].span, "T.grid takes only extents");
  std::vector<const py::Expr*> targets;
  if (const auto* tuple = loop.target->As<py::Tuple>()) {
    for (const py::ExprPtr& elt : tuple->elts) targets.push_back(elt.get());
  } else {
    targets.push_back(loop.target.get());
  }
  // Every extent is read before any loop variable is bound (Python
  // evaluates T.grid(...) first), so `for k, j in T.grid(n, k)` means the
  // outer k.
  // `T.grid(*A.shape)` spreads a buffer's shape.
  std::vector<PrimExpr> extents;
  for (const py::ExprPtr& arg : call.args) {
    if (const auto* starred = arg->As<py::Starred>()) {
      const auto* attr = starred->value->As<py::Attribute>();
      if (attr == nullptr || attr->attr != "shape") Fail(arg->span, "T.grid can only spread a buffer's shape (*A.shape)");
      for (const PrimExpr& dim : prim_.EvalBuffer(*attr->value)->shape) {
        extents.push_back(dim);
      }
      continue;
    }
    extents.push_back(prim_.Eval(*arg));
    if (!extents.back()->dtype.is_integer()) Fail(arg->span, "loop extents must be integers");
  }
  if (targets.size() != extents.size()) {
    Fail(loop.target->span, fmt::format("T.grid has {} extent{} but the loop names {} variable{}", extents.size(),
                                        extents.size() == 1 ? "" : "s", targets.size(), targets.size() == 1 ? "" : "s"));
  }
  scopes_.Push();
  std::vector<tir::ForNode*> nodes;
  tir::Stmt outer;
  for (size_t k = 0; k < targets.size(); ++k) {
    PrimExpr extent = extents[k];
    auto* node = new tir::ForNode();
    tir::Stmt stmt = WithStmtSpan(node, loop.span);  // owns node before anything can throw
    node->min = ir::MakeInt(0, extent->dtype);
    node->extent = extent;
    node->loop_var = DefineLoopVar(*targets[k], extent->dtype);
    if (nodes.empty()) {
      outer = stmt;
    } else {
      nodes.back()->body = stmt;
    }
    nodes.push_back(node);
    loops_.push_back({node->loop_var, {node->min, extent}});
  }
  nodes.back()->body = ParseStmts(loop.body, 0);
  for (size_t k = 0; k < targets.size(); ++k) loops_.pop_back();
  scopes_.Pop();
  return outer;
}

// ---------------------------------------------------------------------------
// If, assert, with.

tir::Stmt TIRParser::ParseIf(const py::If& stmt) {
  PrimExpr cond = prim_.Eval(*stmt.test);
  if (!cond->dtype.is_bool()) Fail(stmt.test->span, "the condition of an if must be a boolean expression");
  scopes_.Push();
  tir::Stmt then_case = ParseStmts(stmt.body, 0);
  scopes_.Pop();
  tir::Stmt else_case;
  if (!stmt.orelse.empty()) {
    scopes_.Push();
    else_case = ParseStmts(stmt.orelse, 0);
    scopes_.Pop();
  }
  return WithStmtSpan(new tir::IfThenElseNode(cond, then_case, else_case), stmt.span);
}

// `while cond:`, or TVM's IR-builder spelling `with T.While(cond):`. The
// condition must be a bool scalar; the body is a scope of its own. Python's
// `else:` clause has no TIR meaning.
tir::Stmt TIRParser::ParseWhile(const py::While& stmt) {
  if (!stmt.orelse.empty()) Fail(stmt.orelse.front()->span, "a while loop in a PrimFunc cannot have an else clause");
  return MakeWhile(*stmt.test, stmt.body, stmt.span);
}

tir::Stmt TIRParser::MakeWhile(const py::Expr& condition, const py::StmtList& body, const Span& span) {
  PrimExpr cond = prim_.Eval(condition);
  if (!cond->dtype.is_bool() || !cond->dtype.is_scalar()) {
    Fail(condition.span,
         fmt::format("the condition of a while loop must be a boolean expression, got a value of type {}",
                     cond->dtype.ToString()));
  }
  scopes_.Push();
  tir::Stmt loop_body = ParseStmts(body, 0);
  scopes_.Pop();
  return WithStmtSpan(new tir::WhileNode(cond, loop_body), span);
}

tir::Stmt TIRParser::ParseAssert(const py::Assert& stmt, const py::StmtList& stmts, size_t i) {
  PrimExpr cond = prim_.Eval(*stmt.test);
  if (!cond->dtype.is_bool()) Fail(stmt.test->span, "an assert condition must be a boolean expression");
  PrimExpr message = ir::MakeString("");
  if (stmt.msg) message = prim_.Eval(*stmt.msg);
  return WithStmtSpan(new tir::AssertStmtNode(cond, message, RestOrEmpty(stmts, i + 1)), stmt.span);
}

tir::Stmt TIRParser::ParseWith(const py::With& stmt) {
  if (stmt.items.size() != 1) Fail(stmt.span, "a with statement in a PrimFunc takes exactly one item");
  const py::WithItem& item = stmt.items[0];
  const auto* call = item.context_expr->As<py::Call>();
  std::string name = call ? CalleeName(*call) : "";
  auto body = [&] {
    scopes_.Push();
    tir::Stmt result = ParseStmts(stmt.body, 0);
    scopes_.Pop();
    return result;
  };
  auto target_name = [&](const char* what) -> const py::Name& {
    if (!item.optional_vars) Fail(item.span, fmt::format("{} needs `as name`", what));
    return TargetName(*item.optional_vars, what);
  };
  if (name == "T.block" || name == "T.sblock") return ParseBlock(stmt, *call);
  if (name == "T.init") {
    ParseInit(stmt);
    return tir::Stmt();
  }
  if (name == "T.LetStmt") {
    CallArgs args(*call, name, {"value", "var"}, 1);
    PrimExpr value = prim_.Eval(args.Required("value"));
    ir::Var var;
    if (args.Has("var")) {
      PrimExpr given = prim_.Eval(args.Required("var"));
      if (!given.isa<ir::VarNode>()) Fail(args.Required("var").span, "var= must be a declared variable");
      var = cast<ir::VarNode>(given);
    } else {
      const py::Name& target = target_name("T.LetStmt");
      var = NewVar(target.id, value->dtype, target.span);
    }
    if (value->dtype != var->dtype) value = ir::cast(var->dtype, value);
    scopes_.Push();
    scopes_.DefinePrimVar(var->name_hint, var);
    tir::Stmt let_body = ParseStmts(stmt.body, 0);
    scopes_.Pop();
    return WithStmtSpan(new tir::LetStmtNode(var, value, let_body), stmt.span);
  }
  if (name == "T.attr" || name == "T.launch_thread") {
    const py::Name* target = item.optional_vars ? &TargetName(*item.optional_vars, name.c_str()) : nullptr;
    if (target != nullptr && name == "T.attr") Fail(item.optional_vars->span, "T.attr takes no `as name`");
    return ParseAttrCall(*call, target, body);
  }
  if (name == "T.Assert") {
    CallArgs args(*call, name, {"condition", "message"}, 2);
    PrimExpr cond = prim_.Eval(args.Required("condition"));
    if (!cond->dtype.is_bool()) Fail(args.Required("condition").span, "an assert condition must be boolean");
    return WithStmtSpan(new tir::AssertStmtNode(cond, prim_.Eval(args.Required("message")), body()), stmt.span);
  }
  if (name == "T.allocate") {
    const py::Name& target = target_name("T.allocate");
    return ParseAllocate(*call, target.id, target.span, body);
  }
  if (name == "T.decl_buffer") return ParseDeclBuffer(*call, target_name("T.decl_buffer").id, body);
  if (name == "T.While") {
    if (item.optional_vars) Fail(item.optional_vars->span, "T.While takes no `as name`");
    CallArgs args(*call, name, {"condition"}, 1);
    return MakeWhile(args.Required("condition"), stmt.body, stmt.span);
  }
  Fail(item.context_expr->span,
       fmt::format("expected T.block, T.init, T.LetStmt, T.Assert, T.attr, T.launch_thread, T.allocate, "
                   "T.decl_buffer or T.While in a with statement, got {}", Describe(*item.context_expr)));
}

// `tx = T.env_thread("threadIdx.x")`: a thread variable, bound later by
// T.launch_thread(tx, extent).
void TIRParser::ParseEnvThread(const py::Call& call, const py::Name& target) {
  CallArgs args(call, "T.env_thread", {"thread_tag", "dtype"}, 1);
  std::optional<std::string> tag = AsStringLiteral(args.Required("thread_tag"));
  if (!tag) Fail(args.Required("thread_tag").span, "T.env_thread: the thread tag must be a string");
  DataType dtype = DataType::Int(32);
  if (args.Has("dtype")) {
    std::optional<std::string> text = AsStringLiteral(args.Required("dtype"));
    if (!text) Fail(args.Required("dtype").span, "T.env_thread: dtype must be a string");
    std::optional<DataType> parsed = DataType::Parse(*text);
    if (!parsed) Fail(args.Required("dtype").span, "T.env_thread: unknown dtype " + *text);
    dtype = *parsed;
  }
  ir::Var var = NewVar(target.id, dtype, target.span);
  thread_vars_[var.get()] = make<tir::IterVarNode>(var, tir::Range{}, tir::IterKind::kThreadIndex, *tag);
  scopes_.DefinePrimVar(target.id, var);
}

// The node of a T.attr: a string, a buffer, a thread variable (its
// IterVar) or any other expression.
ObjectRef TIRParser::EvalAttrNode(const py::Expr& expr) {
  if (std::optional<std::string> text = AsStringLiteral(expr)) return ir::MakeString(*text);
  if (const auto* name = expr.As<py::Name>()) {
    const Symbol* symbol = scopes_.Lookup(name->id);
    if (symbol != nullptr && symbol->kind == SymbolKind::kBuffer) return symbol->buffer;
  }
  PrimExpr value = prim_.Eval(expr);
  if (const auto* var = value.as<ir::VarNode>()) {
    auto found = thread_vars_.find(var);
    if (found != thread_vars_.end()) return found->second;
  }
  return value;
}

// T.launch_thread(tag or env_thread var, extent) is a "thread_extent"
// AttrStmt whose node is the thread's IterVar over [0, extent); a tag
// defines a fresh variable (named by `target`) for the body.
// T.attr(node, attr_key, value) is the general form.
tir::Stmt TIRParser::ParseAttrCall(const py::Call& call, const py::Name* target,
                                   const std::function<tir::Stmt()>& body) {
  std::string name = CalleeName(call);
  if (name == "T.attr") {
    CallArgs args(call, name, {"node", "attr_key", "value"}, 3);
    ObjectRef node = EvalAttrNode(args.Required("node"));
    std::optional<std::string> key = AsStringLiteral(args.Required("attr_key"));
    if (!key) Fail(args.Required("attr_key").span, "T.attr: attr_key must be a string");
    PrimExpr value = prim_.Eval(args.Required("value"));
    if (tir::IsThreadBindingAttr(*key) && !node.isa<tir::IterVarNode>()) {
      Fail(args.Required("node").span, fmt::format("T.attr: {} must be attached to a thread variable (T.env_thread)", *key));
    }
    return WithStmtSpan(new tir::AttrStmtNode(node, *key, value, body()), call.span);
  }
  CallArgs args(call, name, {"thread", "extent"}, 2);
  const py::Expr& thread = args.Required("thread");
  PrimExpr extent = prim_.Eval(args.Required("extent"));
  tir::IterVar iter_var;
  scopes_.Push();
  if (std::optional<std::string> tag = AsStringLiteral(thread)) {
    std::string var_name = target != nullptr ? target->id : *tag;
    ir::Var var = NewVar(var_name, extent->dtype, target != nullptr ? target->span : thread.span);
    iter_var = make<tir::IterVarNode>(var, tir::Range{ir::MakeInt(0, extent->dtype), extent},
                                      tir::IterKind::kThreadIndex, *tag);
    if (target != nullptr) scopes_.DefinePrimVar(target->id, var);
  } else {
    ObjectRef node = EvalAttrNode(thread);
    const auto* env = node.as<tir::IterVarNode>();
    if (env == nullptr) Fail(thread.span, "T.launch_thread: expected a thread tag string or a T.env_thread variable");
    if (target != nullptr) Fail(target->span, "T.launch_thread of an env_thread variable takes no target");
    iter_var = make<tir::IterVarNode>(env->var, tir::Range{ir::MakeInt(0, extent->dtype), extent},
                                      tir::IterKind::kThreadIndex, env->thread_tag);
  }
  thread_vars_[iter_var->var.get()] = iter_var;
  tir::Stmt inner = body();
  scopes_.Pop();
  return WithStmtSpan(new tir::AttrStmtNode(iter_var, "thread_extent", extent, inner), call.span);
}

tir::Stmt TIRParser::ParseAllocate(const py::Call& call, const std::string& name, const Span& name_span,
                                   const std::function<tir::Stmt()>& body) {
  CallArgs args(call, "T.allocate", {"extents", "dtype", "scope", "condition", "annotations"}, 2);
  auto* node = new tir::AllocateNode();
  tir::Stmt result = WithStmtSpan(node, call.span);  // owns node before anything can throw
  node->extents = prim_.EvalList(args.Required("extents"));
  node->dtype = EvalDType(args.Required("dtype"));
  node->condition = args.Has("condition") ? prim_.Eval(args.Required("condition")) : PrimExpr(ir::MakeBool(true));
  if (args.Has("annotations")) node->annotations = EvalAttrDict(args.Required("annotations"), AttrLevel::kTIR, &prim_);
  node->buffer_var = NewVar(name, DataType::Handle(), name_span);
  const_cast<ir::VarNode*>(node->buffer_var.get())->pointee = node->dtype;
  scopes_.Push();
  scopes_.DefinePrimVar(name, node->buffer_var);
  node->body = body();
  scopes_.Pop();
  return result;
}

tir::Stmt TIRParser::ParseDeclBuffer(const py::Call& call, const std::string& name,
                                     const std::function<tir::Stmt()>& body) {
  CallArgs args(call, "T.decl_buffer", {"shape", "dtype", "data", "strides", "elem_offset", "scope", "align",
                                        "offset_factor", "buffer_type", "axis_separators"}, 1);
  ir::Buffer buffer = MakeBuffer(BufferKwargs(args), name, false, call.span);
  scopes_.Push();
  scopes_.DefineBuffer(name, buffer);
  tir::Stmt inner = body();
  scopes_.Pop();
  tir::Stmt decl = WithStmtSpan(new tir::DeclBufferNode(buffer, inner), call.span);
  if (args.Has("data")) return decl;
  // No data given: the buffer owns fresh memory (Allocate + DeclBuffer).
  auto* alloc = new tir::AllocateNode();
  alloc->buffer_var = buffer->data;
  alloc->dtype = buffer->dtype;
  alloc->extents = buffer->shape;
  alloc->condition = ir::MakeBool(true);
  alloc->body = decl;
  return WithStmtSpan(alloc, call.span);
}

void TIRParser::ParseMatchBuffer(const py::Call& call, const std::string& name, const Span& span) {
  CallArgs args(call, "T.match_buffer", {"param", "shape", "dtype", "data", "strides", "elem_offset", "scope",
                                         "align", "offset_factor", "buffer_type", "axis_separators"}, 1);
  const py::Expr& source = args.Required("param");
  Kwargs kwargs = BufferKwargs(args);
  if (source.Is<py::Subscript>()) {
    tir::BufferRegion region = prim_.EvalRegion(source);
    ir::Buffer buffer;
    if (!args.Has("shape")) {
      // TVM's default: the region's extents and the source buffer's dtype.
      if (kwargs.size() > (args.Has("dtype") ? 1u : 0u)) {
        Fail(call.span, "T.match_buffer of a region needs shape= when it sets other buffer fields");
      }
      std::vector<PrimExpr> extents;
      for (const tir::Range& range : region->region) extents.push_back(range.extent);
      DataType dtype = args.Has("dtype") ? EvalDType(args.Required("dtype")) : region->buffer->dtype;
      buffer = ir::MakeBuffer(name, std::move(extents), dtype);
      const_cast<ir::BufferNode*>(buffer.get())->span = span;
    } else {
      buffer = MakeBuffer(kwargs, name, true, span);
    }
    CurrentBlock(call.span, "T.match_buffer of a region").match_buffers.push_back(
        make<tir::MatchBufferRegionNode>(buffer, region));
    scopes_.DefineBuffer(name, buffer);
    return;
  }
  const auto* param_name = source.As<py::Name>();
  const Symbol* symbol = param_name ? scopes_.Lookup(param_name->id) : nullptr;
  ir::Var param = symbol && symbol->kind == SymbolKind::kPrimVar ? symbol->prim_var : ir::Var();
  if (!args.Has("shape")) Fail(call.span, "T.match_buffer: missing required argument 'shape'");
  bool is_param = false;
  for (const ir::Var& p : params_) is_param |= p.same_as(param);
  if (!is_param || !param->dtype.is_handle()) {
    Fail(source.span, fmt::format("T.match_buffer expects a T.handle parameter or a buffer region, got {}",
                                  Describe(source)));
  }
  for (const auto& entry : buffer_map_) {
    if (entry.first.same_as(param)) Fail(source.span, fmt::format("parameter '{}' is already matched", param_name->id));
  }
  ir::Buffer buffer = MakeBuffer(kwargs, name, true, span);
  buffer_map_.emplace_back(param, buffer);
  scopes_.DefineBuffer(name, buffer);
}

void TIRParser::ParseAllocBuffer(const py::Call& call, const std::string& name, const Span& span) {
  CallArgs args(call, CalleeName(call), {"shape", "dtype", "data", "strides", "elem_offset", "scope", "align",
                                         "offset_factor", "buffer_type", "axis_separators"}, 1);
  ir::Buffer buffer = MakeBuffer(BufferKwargs(args), name, false, span);
  if (blocks_.empty()) {
    root_allocs_.push_back(buffer);
  } else {
    blocks_.back()->alloc_buffers.push_back(buffer);
  }
  scopes_.DefineBuffer(name, buffer);
}

}  // namespace rlx::text::detail
