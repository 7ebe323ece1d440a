// The PrimFunc interpreter: statements and buffer layouts (see
// interpreter_compile.h for the design, rlx/tir/interpreter.h for the
// semantics).
//
// Each statement compiles to one closure. A statement that introduces a
// variable, a storage or a buffer defines it in the compiler's scope while
// its body compiles and undefines it after, so any use outside is caught at
// compile time. Storage the program allocates lives in the closure's stack
// frame for the duration of the body (block alloc_buffers, Allocate, an
// allocating DeclBuffer) and starts filled with 0xFF bytes.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "tir/interpreter_compile.h"

namespace rlx::tir::interp {

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

int64_t NumElements(const std::vector<int64_t>& shape, const std::string& what, const Span& span) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) ThrowError(span, fmt::format("{} has negative shape {}", what, ShapeText(shape)));
    if (__builtin_mul_overflow(count, dim, &count)) {
      ThrowError(span, fmt::format("{} of shape {} is too large", what, ShapeText(shape)));
    }
  }
  return count;
}

namespace {

// Computes shape, strides and offset of `decl` into `state`.
void ComputeLayout(Frame& f, const BufferDecl& decl, BufferState* state) {
  state->shape.resize(decl.shape.size());
  for (size_t d = 0; d < decl.shape.size(); ++d) state->shape[d] = decl.shape[d](f).i;
  state->strides.resize(decl.shape.size());
  if (decl.strides.empty()) {
    int64_t stride = 1;
    for (size_t d = decl.shape.size(); d-- > 0;) {
      state->strides[d] = stride;
      stride *= state->shape[d];
    }
  } else {
    for (size_t d = 0; d < decl.strides.size(); ++d) state->strides[d] = decl.strides[d](f).i;
  }
  state->elem_offset = decl.elem_offset ? decl.elem_offset(f).i : 0;
}

// One past the largest element position the layout can touch (0 if empty).
int64_t RequiredElements(const BufferState& state, const BufferDecl& decl) {
  int64_t last = state.elem_offset;
  for (size_t d = 0; d < state.shape.size(); ++d) {
    if (state.shape[d] < 0) {
      ThrowError(decl.span, fmt::format("buffer {} has negative shape {}", decl.name, ShapeText(state.shape)));
    }
    if (state.shape[d] == 0) return 0;
    last += (state.shape[d] - 1) * state.strides[d];
  }
  return last + 1;
}

// Allocates poisoned storage for `decl` into `owned` and declares it.
void AllocateAndDeclare(Frame& f, const BufferDecl& decl, std::vector<std::vector<uint8_t>>& owned) {
  BufferState layout;
  ComputeLayout(f, decl, &layout);
  NumElements(layout.shape, "buffer " + decl.name, decl.span);
  int64_t elements = RequiredElements(layout, decl);
  std::vector<uint8_t>& storage = owned.emplace_back(static_cast<size_t>(elements * decl.dtype.bytes()), 0xFF);
  f.storages[decl.storage_slot] = Storage{storage.data(), static_cast<int64_t>(storage.size())};
  DeclareBuffer(f, decl);
}

}  // namespace

void DeclareBuffer(Frame& f, const BufferDecl& decl) {
  BufferState& state = f.buffers[decl.slot];
  ComputeLayout(f, decl, &state);
  const Storage& storage = f.storages[decl.storage_slot];
  state.base = storage.base;
  state.capacity = storage.bytes / decl.dtype.bytes();
  int64_t required = RequiredElements(state, decl);
  if (state.elem_offset < 0 || required > state.capacity) {
    ThrowError(decl.span, fmt::format("buffer {} of shape {} needs {} elements but its storage holds {}",
                                      decl.name, ShapeText(state.shape), required, state.capacity));
  }
}

BufferDecl Compiler::CompileBufferDecl(const Buffer& buffer) {
  if (!LoadFnFor(buffer->dtype)) {
    Fail(fmt::format("buffer {} has unsupported dtype {}", buffer->name, buffer->dtype.ToString()));
  }
  if (!buffer->strides.empty() && buffer->strides.size() != buffer->shape.size()) {
    Fail(fmt::format("buffer {} has {} strides for {} dimensions", buffer->name, buffer->strides.size(),
                     buffer->shape.size()));
  }
  BufferDecl decl;
  decl.name = buffer->name;
  decl.dtype = buffer->dtype;
  decl.slot = BufferSlot(buffer.get());
  decl.storage_slot = StorageSlot(buffer->data.get());
  decl.shape = CompileExprs(buffer->shape);
  decl.strides = CompileExprs(buffer->strides);
  if (buffer->elem_offset.defined()) decl.elem_offset = CompileExpr(buffer->elem_offset);
  decl.span = buffer->span.defined() ? buffer->span : current_span_;
  return decl;
}

// ---------------------------------------------------------------- statements

StmtFn Compiler::CompileStmt(const Stmt& stmt) {
  RLX_ICHECK(stmt.defined()) << "compiling an undefined statement";
  Span saved = current_span_;
  if (stmt->span.defined()) current_span_ = stmt->span;
  StmtFn fn;
  switch (stmt->kind()) {
    case NodeKind::kFor: fn = CompileFor(stmt.as<ForNode>()); break;
    case NodeKind::kBlockRealize: fn = CompileBlockRealize(stmt.as<BlockRealizeNode>()); break;
    case NodeKind::kBufferStore: fn = CompileStore(stmt.as<BufferStoreNode>()); break;
    case NodeKind::kIfThenElse: fn = CompileIf(stmt.as<IfThenElseNode>()); break;
    case NodeKind::kWhile: fn = CompileWhile(stmt.as<WhileNode>()); break;
    case NodeKind::kLetStmt: fn = CompileLetStmt(stmt.as<LetStmtNode>()); break;
    case NodeKind::kAttrStmt: fn = CompileAttrStmt(stmt.as<AttrStmtNode>()); break;
    case NodeKind::kAssertStmt: fn = CompileAssert(stmt.as<AssertStmtNode>()); break;
    case NodeKind::kAllocate: fn = CompileAllocate(stmt.as<AllocateNode>()); break;
    case NodeKind::kDeclBuffer: fn = CompileDeclBuffer(stmt.as<DeclBufferNode>()); break;
    case NodeKind::kSeqStmt: {
      std::vector<StmtFn> seq;
      for (const Stmt& child : stmt.as<SeqStmtNode>()->seq) seq.push_back(CompileStmt(child));
      fn = [seq = std::move(seq)](Frame& f) {
        for (const StmtFn& child : seq) child(f);
      };
      break;
    }
    case NodeKind::kEvaluate: {
      const PrimExpr& value = stmt.as<EvaluateNode>()->value;
      if (value.isa<ir::IntImmNode>()) {
        fn = [](Frame&) {};
      } else {
        ExprFn expr = CompileExpr(value);
        fn = [expr = std::move(expr)](Frame& f) { expr(f); };
      }
      break;
    }
    case NodeKind::kBlock: Fail("a block must be realized by a BlockRealize to run");
    default: RLX_UNREACHABLE() << "unhandled statement kind " << NodeKindName(stmt->kind());
  }
  current_span_ = saved;
  return fn;
}

StmtFn Compiler::CompileOptional(const Stmt& stmt) {
  if (!stmt.defined()) return nullptr;
  return CompileStmt(stmt);
}

StmtFn Compiler::CompileFor(const ForNode* loop) {
  DataType t = loop->loop_var->dtype;
  if (!t.is_integer()) Fail(fmt::format("loop variable {} must be an integer, not {}", loop->loop_var->name_hint, t.ToString()));
  ExprFn min = CompileExpr(loop->min), extent = CompileExpr(loop->extent);
  ExprFn step = loop->step.defined() ? CompileExpr(loop->step) : ExprFn();
  int slot = VarSlot(loop->loop_var.get());
  DefineVar(loop->loop_var.get());
  StmtFn body = CompileStmt(loop->body);
  UndefineVar(loop->loop_var.get());
  Span span = current_span_;
  std::string name = loop->loop_var->name_hint;
  return [=](Frame& f) {
    int64_t begin = min(f).i;
    int64_t count = extent(f).i;
    int64_t stride = step ? step(f).i : 1;
    if (stride <= 0) ThrowError(span, fmt::format("loop {} has step {}; a loop step must be positive", name, stride));
    for (int64_t i = 0; i < count; i += stride) {
      f.vars[slot] = Value::Int(WrapInt(begin + i, t));
      body(f);
    }
  };
}

namespace {

// Everything a BlockRealize needs at run time.
struct BlockPlan {
  std::string name;
  std::vector<ExprFn> values;     // iter_values, in the enclosing scope
  ExprFn predicate;               // null: always
  std::vector<int> iter_slots;
  std::vector<std::string> iter_names;
  std::vector<ExprFn> dom_min, dom_extent;
  std::vector<size_t> reduce_iters;  // positions of reduce iteration variables
  std::vector<BufferDecl> allocs;
  std::vector<StmtFn> matches;
  StmtFn init;  // may be null
  StmtFn body;
  Span span;
};

void BindIterVars(Frame& f, const BlockPlan& plan) {
  for (size_t i = 0; i < plan.values.size(); ++i) {
    Value value = plan.values[i](f);
    int64_t lo = plan.dom_min[i](f).i;
    int64_t extent = plan.dom_extent[i](f).i;
    if (value.i < lo || value.i >= lo + extent) {
      ThrowError(plan.span, fmt::format("block {}: iteration variable {} = {} is outside its domain "
                                        "[{}, {})",
                                        plan.name, plan.iter_names[i], value.i, lo, lo + extent));
    }
    f.vars[plan.iter_slots[i]] = value;
  }
}

bool AtReductionStart(Frame& f, const BlockPlan& plan) {
  for (size_t i : plan.reduce_iters) {
    if (f.vars[plan.iter_slots[i]].i != plan.dom_min[i](f).i) return false;
  }
  return true;
}

void RunBlock(Frame& f, const BlockPlan& plan) {
  if (plan.predicate && !plan.predicate(f).AsBool()) return;
  BindIterVars(f, plan);
  std::vector<std::vector<uint8_t>> owned;
  for (const BufferDecl& alloc : plan.allocs) AllocateAndDeclare(f, alloc, owned);
  for (const StmtFn& match : plan.matches) match(f);
  if (plan.init && AtReductionStart(f, plan)) plan.init(f);
  plan.body(f);
}

}  // namespace

StmtFn Compiler::CompileBlockRealize(const BlockRealizeNode* realize) {
  const BlockNode* block = realize->block.get();
  if (realize->iter_values.size() != block->iter_vars.size()) {
    Fail(fmt::format("block {} has {} iteration variables but {} values", block->name, block->iter_vars.size(),
                     realize->iter_values.size()));
  }
  auto plan = std::make_shared<BlockPlan>();
  plan->name = block->name;
  plan->span = current_span_;
  plan->values = CompileExprs(realize->iter_values);
  if (realize->predicate.defined() && !ir::IsConstInt(realize->predicate, 1)) {
    plan->predicate = CompileExpr(realize->predicate);
  }
  for (size_t i = 0; i < block->iter_vars.size(); ++i) {
    const IterVar& iter = block->iter_vars[i];
    if (!iter->var->dtype.is_integer()) Fail(fmt::format("iteration variable {} must be an integer", iter->var->name_hint));
    plan->dom_min.push_back(CompileExpr(iter->dom.min));
    plan->dom_extent.push_back(CompileExpr(iter->dom.extent));
    plan->iter_slots.push_back(VarSlot(iter->var.get()));
    plan->iter_names.push_back(iter->var->name_hint);
    if (iter->iter_kind == IterKind::kReduce) plan->reduce_iters.push_back(i);
  }
  for (const IterVar& iter : block->iter_vars) DefineVar(iter->var.get());
  for (const Buffer& buffer : block->alloc_buffers) {
    plan->allocs.push_back(CompileBufferDecl(buffer));
    DefineStorage(buffer->data.get());
    DeclareBufferInScope(buffer.get());
  }
  std::vector<const ir::VarNode*> matched_vars;
  for (const MatchBufferRegion& match : block->match_buffers) {
    plan->matches.push_back(CompileMatchBuffer(match, &matched_vars));
  }
  plan->init = CompileOptional(block->init);
  plan->body = CompileStmt(block->body);
  for (const MatchBufferRegion& match : block->match_buffers) UndeclareBufferInScope(match->buffer.get());
  for (const ir::VarNode* var : matched_vars) UndefineVar(var);
  for (const Buffer& buffer : block->alloc_buffers) {
    UndeclareBufferInScope(buffer.get());
    UndefineStorage(buffer->data.get());
  }
  for (const IterVar& iter : block->iter_vars) UndefineVar(iter->var.get());
  return [plan](Frame& f) { RunBlock(f, *plan); };
}

// A match_buffer views a region of its source: same storage and strides,
// offset to the region's start. Bare variables in the view's shape, strides
// or offset are defined by the match (and stay defined for the block);
// others are checked.
StmtFn Compiler::CompileMatchBuffer(const MatchBufferRegion& match, std::vector<const ir::VarNode*>* defined) {
  const Buffer& view = match->buffer;
  const BufferRegion& source = match->source;
  if (buffer_depth_[BufferSlot(source->buffer.get())] == 0) {
    Fail(fmt::format("match_buffer {}: source buffer {} is not declared here", view->name, source->buffer->name));
  }
  if (view->shape.size() != source->region.size()) {
    Fail(fmt::format("match_buffer {}: {} dimensions for a region of {} (only equal ranks are supported)", view->name,
                     view->shape.size(), source->region.size()));
  }
  struct Part {
    int bare_slot = -1;  // a bare variable defined by this match
    ExprFn check;        // else: the expected value
  };
  auto plan_part = [&](const PrimExpr& expr) {
    Part part;
    const auto* var = expr.as<ir::VarNode>();
    if (var && !IsVarDefined(var)) {
      part.bare_slot = VarSlot(var);
      DefineVar(var);
      defined->push_back(var);
    } else {
      part.check = CompileExpr(expr);
    }
    return part;
  };
  std::vector<ExprFn> mins, extents;
  for (const Range& range : source->region) {
    mins.push_back(CompileExpr(range.min));
    extents.push_back(CompileExpr(range.extent));
  }
  std::vector<Part> shape, strides;
  for (const PrimExpr& dim : view->shape) shape.push_back(plan_part(dim));
  for (const PrimExpr& stride : view->strides) strides.push_back(plan_part(stride));
  std::optional<Part> offset;
  if (view->elem_offset.defined()) offset = plan_part(view->elem_offset);
  int source_slot = BufferSlot(source->buffer.get());
  int view_slot = BufferSlot(view.get());
  DeclareBufferInScope(view.get());
  std::string name = view->name;
  Span span = current_span_;

  auto bind = [span, name](Frame& f, const Part& part, int64_t actual, const std::string& what) {
    if (part.bare_slot >= 0) {
      f.vars[part.bare_slot] = Value::Int(actual);
      return;
    }
    int64_t expected = part.check(f).i;
    if (expected != actual) {
      ThrowError(span, fmt::format("match_buffer {}: expected {} to be {}, got {}", name, what, expected, actual));
    }
  };
  return [=](Frame& f) {
    const BufferState& src = f.buffers[source_slot];
    BufferState state;
    state.base = src.base;
    state.capacity = src.capacity;
    state.elem_offset = src.elem_offset;
    for (size_t d = 0; d < mins.size(); ++d) {
      int64_t lo = mins[d](f).i, extent = extents[d](f).i;
      if (lo < 0 || extent < 0 || lo + extent > src.shape[d]) {
        ThrowError(span, fmt::format("match_buffer {}: region [{}, {}) of dimension {} is outside "
                                     "the source's shape {}",
                                     name, lo, lo + extent, d, ShapeText(src.shape)));
      }
      state.elem_offset += lo * src.strides[d];
      state.shape.push_back(extent);
      bind(f, shape[d], extent, fmt::format("dimension {}", d));
    }
    state.strides = src.strides;
    for (size_t d = 0; d < strides.size(); ++d) bind(f, strides[d], src.strides[d], fmt::format("stride {}", d));
    if (offset) bind(f, *offset, state.elem_offset, "the element offset");
    f.buffers[view_slot] = std::move(state);
  };
}

StmtFn Compiler::CompileStore(const BufferStoreNode* store) {
  const Buffer& buffer = store->buffer;
  ExprFn value = CompileExpr(store->value);
  if (store->value->dtype != buffer->dtype) {
    Fail(fmt::format("buffer {} of {} elements is stored a {} value `{}`", buffer->name, buffer->dtype.ToString(),
                     store->value->dtype.ToString(), ir::ToString(store->value)));
  }
  StoreFn store_fn = StoreFnFor(buffer->dtype);
  if (!store_fn) Fail(fmt::format("buffer {} has unsupported dtype {}", buffer->name, buffer->dtype.ToString()));
  auto address = CompileAddress(buffer, store->indices);
  return [value = std::move(value), address = std::move(address), store_fn](Frame& f) {
    Value v = value(f);
    store_fn(address(f), v);
  };
}

StmtFn Compiler::CompileIf(const IfThenElseNode* node) {
  ExprFn cond = CompileExpr(node->condition);
  StmtFn then_case = CompileStmt(node->then_case);
  StmtFn else_case = CompileOptional(node->else_case);
  return [cond = std::move(cond), then_case = std::move(then_case), else_case = std::move(else_case)](Frame& f) {
    if (cond(f).AsBool()) {
      then_case(f);
    } else if (else_case) {
      else_case(f);
    }
  };
}

// The condition is evaluated before every iteration, as in C.
StmtFn Compiler::CompileWhile(const WhileNode* node) {
  ExprFn cond = CompileExpr(node->condition);
  StmtFn body = CompileStmt(node->body);
  return [cond = std::move(cond), body = std::move(body)](Frame& f) {
    while (cond(f).AsBool()) body(f);
  };
}

StmtFn Compiler::CompileLetStmt(const LetStmtNode* let) {
  ExprFn value = CompileExpr(let->value);
  int slot = VarSlot(let->var.get());
  DefineVar(let->var.get());
  StmtFn body = CompileStmt(let->body);
  UndefineVar(let->var.get());
  return [slot, value = std::move(value), body = std::move(body)](Frame& f) {
    f.vars[slot] = value(f);
    body(f);
  };
}

// A GPU thread binding has no CPU meaning (TVM's CPU targets reject it as
// well); every other attribute (pragma_*, storage_alignment, ...) is a hint
// that leaves the body's meaning unchanged, so the body runs as is.
StmtFn Compiler::CompileAttrStmt(const AttrStmtNode* attr) {
  if (IsThreadBindingAttr(attr->attr_key)) {
    const auto* iter_var = attr->node.as<IterVarNode>();
    std::string tag = iter_var != nullptr ? iter_var->thread_tag : std::string("?");
    ThrowError(current_span_, fmt::format("the TIR interpreter cannot run a GPU thread binding ({} of {}); "
                                          "it runs CPU code only",
                                          attr->attr_key, tag));
  }
  return CompileStmt(attr->body);
}

StmtFn Compiler::CompileAssert(const AssertStmtNode* node) {
  ExprFn cond = CompileExpr(node->condition);
  std::string message;
  if (const auto* text = node->message.as<ir::StringImmNode>()) {
    message = text->value;
  } else {
    message = node->message.defined() ? ir::ToString(node->message) : "assertion failed";
  }
  StmtFn body = CompileOptional(node->body);
  Span span = current_span_;
  return [cond = std::move(cond), message, body = std::move(body), span](Frame& f) {
    if (!cond(f).AsBool()) ThrowError(span, message);
    if (body) body(f);
  };
}

StmtFn Compiler::CompileAllocate(const AllocateNode* alloc) {
  if (!alloc->dtype.is_scalar() || !LoadFnFor(alloc->dtype)) {
    Fail(fmt::format("allocate {}: unsupported dtype {}", alloc->buffer_var->name_hint, alloc->dtype.ToString()));
  }
  std::vector<ExprFn> extents = CompileExprs(alloc->extents);
  int slot = StorageSlot(alloc->buffer_var.get());
  DefineStorage(alloc->buffer_var.get());
  StmtFn body = CompileStmt(alloc->body);
  UndefineStorage(alloc->buffer_var.get());
  std::string name = alloc->buffer_var->name_hint;
  int elem_bytes = alloc->dtype.bytes();
  Span span = current_span_;
  return [=](Frame& f) {
    std::vector<int64_t> shape;
    for (const ExprFn& extent : extents) shape.push_back(extent(f).i);
    int64_t count = NumElements(shape, "allocation " + name, span);
    std::vector<uint8_t> storage(static_cast<size_t>(count * elem_bytes), 0xFF);
    f.storages[slot] = Storage{storage.data(), static_cast<int64_t>(storage.size())};
    body(f);
  };
}

StmtFn Compiler::CompileDeclBuffer(const DeclBufferNode* decl_node) {
  const Buffer& buffer = decl_node->buffer;
  bool allocates = !IsStorageDefined(buffer->data.get());
  auto decl = std::make_shared<BufferDecl>(CompileBufferDecl(buffer));
  if (allocates) DefineStorage(buffer->data.get());
  DeclareBufferInScope(buffer.get());
  StmtFn body = CompileStmt(decl_node->body);
  UndeclareBufferInScope(buffer.get());
  if (allocates) UndefineStorage(buffer->data.get());
  return [decl, allocates, body = std::move(body)](Frame& f) {
    std::vector<std::vector<uint8_t>> owned;
    if (allocates) {
      AllocateAndDeclare(f, *decl, owned);
    } else {
      DeclareBuffer(f, *decl);
    }
    body(f);
  };
}

}  // namespace rlx::tir::interp
