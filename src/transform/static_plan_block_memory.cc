// StaticPlanBlockMemory: after TVM's relax.transform.StaticPlanBlockMemory.
//
// The R.builtin.alloc_tensor calls that call-tir-rewrite produced become
// allocations in planned storage, and storage is shared between tensors
// whose lifetimes do not overlap:
//
//   a = R.builtin.alloc_tensor(R.shape([n, 4]), "float32", 0, "global")
//   _ = cls.f(x, a)
//   b = R.builtin.alloc_tensor(R.shape([n, 4]), "float32", 0, "global")
//   _ = cls.g(a, b)                     # last use of a
//   c = R.builtin.alloc_tensor(R.shape([4, n]), "float32", 0, "global")
//   _ = cls.h(b, c)
// becomes
//   storage = R.memory.alloc_storage(R.shape([n * 16]), 0, "global", "float32")
//   a = R.memory.alloc_tensor(storage, 0, R.shape([n, 4]), "float32")
//   ...
//   storage1 = R.memory.alloc_storage(R.shape([n * 16]), 0, "global", "float32")
//   b = R.memory.alloc_tensor(storage1, 0, R.shape([n, 4]), "float32")
//   ...
//   c = R.memory.alloc_tensor(storage, 0, R.shape([4, n]), "float32")  # a is dead
//
// Algorithm, per graph function (the design of TVM's pass, our own code):
//  1. Bounds. Symbolic variables of the function signature named in the
//     "tir_var_upper_bound" attribute ({"n": 1024}) are bound to [0, bound]
//     in an arith::Analyzer; those named in "tir_non_negative_var" to
//     [0, +inf).
//  2. Tokens. Every alloc_tensor gets a prototype token: its byte size
//     (dtype bytes * lanes * the constant dimensions, times the symbolic
//     dimensions; each dimension replaced by its constant upper bound where
//     the analyzer knows one, so bounded tensors get static sizes), dtype,
//     storage scope and the binding block it is allocated in. Tokens flow
//     through variables, tuples, tuple items and the in-place memory
//     operators (R.reshape, R.memory.view, R.memory.ensure_zero_offset),
//     and each use as an argument of a PrimFunc call, an extern (packed)
//     call or R.vm.call_tir_dyn counts one reference. A token is discarded
//     (its tensor keeps an allocation of its own, lower-alloc-tensor's) when
//     its tensor may escape or outlive the block: it is the result of an If
//     branch's SeqExpr, used by an If, an argument of any other call (a
//     graph function may keep it), the value of a match_cast, captured by a
//     nested function, or used in a block other than the one that
//     allocated it. Returned by the function (the result of the body's
//     SeqExpr, directly, as a tuple field, renamed or viewed) is the one
//     escape that keeps a token of constant size: it is marked returned
//     (function outputs, below); a returned token of symbolic size is
//     discarded. An If branch's result stays unplanned: the If's variable
//     holds no token in the enclosing scope, and keeping the tensors that
//     flow out of a branch in their own allocations needs no argument about
//     the branch's arena.
//  3. Planning. The bindings are walked in order. A token of constant
//     size (constant shape, or bounded: a product of non-negative
//     dimensions at their bounds dominates its value below the bounds)
//     goes to the arena of its binding block and storage scope, with its
//     live interval: from its allocation to its last reference, in binding
//     positions, or to the end of the block for a returned token. At the
//     end of the block the arena is packed, greedy by size: tensors sorted
//     by size descending (earlier allocation first on ties), each placed
//     at the lowest 64-byte-aligned offset where it overlaps no
//     already-placed tensor whose interval intersects its own.
//     Placing the big tensors first leaves the small ones to fill the gaps
//     between them (the greedy-by-size strategy of TFLite's arena planner;
//     optimal packing is NP-hard, this one is O(k^2 log k) for k tensors and
//     within a few percent of the lower bound, the largest total size alive
//     at once, on transformer blocks; see docs/performance.md). The arena's
//     size is the largest placed end. A token of symbolic size keeps
//     storage-token reuse: it takes a free slot of its (scope, dtype) whose
//     size provably equals its own (arith::Analyzer::CanProveEqual, so
//     n*4*4 reuses 4*n*4), else a new slot; a slot is free once every
//     reference of the tensors in it has been seen. Each SeqExpr (the body,
//     each If branch) is planned with its own pool, so a storage never
//     leaves the scope that defines it.
//  4. Rewrite. Each arena and slot becomes one R.memory.alloc_storage,
//     emitted right before its first tensor (an arena's dtype is its
//     tensors' when they share one, else uint8); each planned alloc_tensor
//     becomes R.memory.alloc_tensor(storage, offset, shape, dtype). With the
//     function attribute "relax.memory_plan_dynamic_func_output" the
//     unplanned allocations of symbolic shape also get a storage of their
//     own of upper-bound size (the attribute is then removed). Since
//     returned tokens of bounded size are in the arena whether or not the
//     attribute is given, it only changes the allocations that cannot be:
//     those that escape otherwise (an If branch's result, an argument of a
//     graph function, ...), whose storage then has a static size when
//     their dimensions are bounded (and which the VM can then keep per
//     call site), and outputs of unbounded symbolic size (their storage
//     keeps the symbolic size: nothing to gain).
//  5. Verification (PassContext config kVerifyMemoryPlanConfig, `rlx build
//     --verify-memory-plan`): the result is checked on its own, without the
//     planner's data: in each SeqExpr, a tensor's lifetime runs from its
//     R.memory.alloc_tensor to the last binding that uses it or a variable
//     aliasing it (a renaming, R.reshape / R.memory.view of it, a tuple
//     holding it, an item of such a tuple; a use by the SeqExpr's result
//     lasts to its end, so a function output in an arena is alive to the
//     end); tensors of one storage must have disjoint
//     lifetimes or provably disjoint bytes, and each must provably fit its
//     storage. A violation (a planner bug, or a hand-written plan) is a
//     CompileError naming the tensors.
// Kills are not emitted here: kill-after-last-use, which runs later, kills
// every tensor and storage after its last use, as in TVM. An arena has a
// constant size, so the VM allocates it once per call site and reuses it on
// later calls (VirtualMachine's static storage cache).
//
// Function outputs in the arena. The output is the last tensor written, and
// when it is written most intermediates are dead: packing it with them puts
// it in their bytes (a block's peak is then its arena, within a few percent
// of the lower bound that counts the output), and a call with bounds makes
// no allocation once the VM holds the arena. At run time the returned
// tensor is a view of the arena storage and holds a reference to it: the
// kill of the storage's register after its last alloc_tensor and the end of
// the frame do not free it, the run-time NaN fill touches only bytes of dead
// tensors, and the VM reuses its cached arena only when it holds the sole
// reference (the caller dropped the output); otherwise the next call takes
// a fresh arena from the allocator (the VM keeps up to two per call site,
// so a caller feeding each output back as the next call's input alternates
// between two arenas without allocating). The trade-off: an output the
// caller keeps pins the whole arena (intermediates' bytes included) rather
// than its own bytes, and a caller that keeps every output gets one
// arena-sized allocation per call, a pool hit with the pooled allocator.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/expr_functor.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/function.h"
#include "rlx/transform/passes.h"

namespace rlx::transform {
namespace {

using graph::Expr;
using graph::VarNode;

constexpr const char* kPassName = "static-plan-block-memory";
constexpr const char* kUpperBoundAttr = "tir_var_upper_bound";
constexpr const char* kNonNegativeAttr = "tir_non_negative_var";
constexpr const char* kPlanDynamicOutputAttr = "relax.memory_plan_dynamic_func_output";
// Byte alignment of the offsets in an arena (the allocator's block alignment).
constexpr int64_t kArenaAlignment = 64;

bool IsOpCall(const graph::CallNode* call, const char* name) {
  const auto* op = call->op.as<graph::OpNode>();
  return op != nullptr && op->name == name;
}

bool IsInplaceMemoryOp(const graph::CallNode* call) {
  return IsOpCall(call, "relax.reshape") || IsOpCall(call, "relax.memory.view") ||
         IsOpCall(call, "relax.memory.ensure_zero_offset");
}

// ---------------------------------------------------------------------------
// Step 1: bounds of the signature's symbolic variables.

void BindSignatureBounds(const graph::FunctionNode* func, arith::Analyzer* analyzer) {
  if (!func->attrs.defined()) return;
  const auto* upper_bounds = func->attrs->Get(kUpperBoundAttr).as<ir::DictNode>();
  const auto* non_negative = func->attrs->Get(kNonNegativeAttr).as<ir::ArrayNode>();
  std::unordered_set<std::string> non_negative_names;
  if (non_negative != nullptr) {
    for (const ObjectRef& name : non_negative->elements) {
      if (const auto* str = name.as<ir::StringImmNode>()) non_negative_names.insert(str->value);
    }
  }
  for (const ir::Var& var : graph::TIRVarsInStructInfo(func->struct_info)) {
    ObjectRef bound = upper_bounds != nullptr ? upper_bounds->Get(var->name_hint) : ObjectRef();
    if (const auto* value = bound.as<ir::IntImmNode>()) {
      if (value->value <= 0) {
        throw CompileError(func->span, fmt::format("{}: the upper bound of {} in {} must be positive, got {}",
                                                   kPassName, var->name_hint, kUpperBoundAttr, value->value));
      }
      analyzer->Bind(var, 0, value->value);
    } else if (non_negative_names.count(var->name_hint)) {
      analyzer->Bind(var, 0, arith::ConstIntBound::kPosInf);
    }
  }
}

// Each dimension replaced by its constant upper bound when one is known and
// the analyzer proves it non-negative: a product of non-negative factors
// grows with each factor, so the bytes at the bounds dominate the bytes at
// every smaller value of the symbolic variables.
std::vector<ir::PrimExpr> UpperBoundShape(const std::vector<ir::PrimExpr>& shape, arith::Analyzer* analyzer) {
  std::vector<ir::PrimExpr> bounded;
  for (const ir::PrimExpr& dim : shape) {
    arith::ConstIntBound bound = analyzer->ConstBounds(dim);
    bool dominated = bound.max_value != arith::ConstIntBound::kPosInf && bound.min_value >= 0;
    bounded.push_back(dominated ? ir::MakeInt(bound.max_value) : dim);
  }
  return bounded;
}

ir::PrimExpr ByteSize(const std::vector<ir::PrimExpr>& shape, DataType dtype, arith::Analyzer* analyzer) {
  int64_t constant = dtype.bytes() * dtype.lanes();
  ir::PrimExpr symbolic = ir::MakeInt(1);
  for (const ir::PrimExpr& dim : shape) {
    if (const auto* imm = dim.as<ir::IntImmNode>()) {
      constant *= imm->value;
    } else {
      symbolic = ir::mul(symbolic, ir::cast(DataType::Int64(), dim));
    }
  }
  return analyzer->Simplify(ir::mul(ir::MakeInt(constant), symbolic));
}

// The shape and dtype an alloc_tensor allocates (a ShapeExpr is required).
const graph::ShapeExprNode* AllocShape(const graph::CallNode* call) {
  if (const auto* shape = call->args.at(0).as<graph::ShapeExprNode>()) return shape;
  if (const auto* sinfo = call->struct_info.as<graph::TensorStructInfoNode>()) {
    if (sinfo->shape.defined()) return sinfo->shape.as<graph::ShapeExprNode>();
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// Step 2: tokens.

struct Token {
  ir::PrimExpr bytes;
  DataType dtype;
  std::string scope;
  const graph::BindingBlockNode* block = nullptr;
  int references = 0;
  bool discarded = false;
  // Returned by the function (its only escape) with a constant size: packed
  // into its block's arena, alive to the end of the block.
  bool returned = false;
};

// The tokens an expression holds: one (a tensor), none, or one per field.
struct Tokens {
  Token* leaf = nullptr;
  std::vector<Tokens> fields;

  template <typename F>
  void ForEach(F&& visit) const {
    if (leaf != nullptr && !leaf->discarded) visit(leaf);
    for (const Tokens& field : fields) field.ForEach(visit);
  }
};

class TokenCollector {
 public:
  TokenCollector(const ir::IRModule& mod, arith::Analyzer* analyzer) : mod_(mod), analyzer_(analyzer) {}

  // The body's SeqExpr is collected here rather than by Collect: the tokens
  // of its result are the function's outputs, the only escape that does not
  // discard a token of constant size.
  void Run(const graph::FunctionNode* func) {
    const auto* body = func->body.as<graph::SeqExprNode>();
    if (body == nullptr) {
      Discard(Collect(func->body));
      return;
    }
    for (const graph::BindingBlock& block : body->blocks) CollectBlock(block.get());
    MarkReturned(Collect(body->body));
  }

  // The alloc_tensor calls and their tokens (discarded ones included).
  const std::unordered_map<const graph::CallNode*, Token*>& alloc_tokens() const { return alloc_tokens_; }

  // The tokens a leaf expression (variable, tuple of leaves) holds.
  Tokens Lookup(const Expr& expr) const {
    if (const auto* var = expr.as<VarNode>()) {
      auto it = var_tokens_.find(var);
      return it == var_tokens_.end() ? Tokens() : it->second;
    }
    if (const auto* tuple = expr.as<graph::TupleNode>()) {
      Tokens tokens;
      for (const Expr& field : tuple->fields) tokens.fields.push_back(Lookup(field));
      return tokens;
    }
    if (const auto* item = expr.as<graph::TupleGetItemNode>()) {
      Tokens tuple = Lookup(item->tuple);
      auto index = static_cast<size_t>(item->index);
      return index < tuple.fields.size() ? tuple.fields[index] : Tokens();
    }
    return Tokens();
  }

 private:
  static void Discard(const Tokens& tokens) {
    tokens.ForEach([](Token* token) { token->discarded = true; });
  }

  // A function output of constant (or bounded) size goes into the arena; one
  // of symbolic size cannot share a slot (it outlives the call) and keeps an
  // allocation of its own.
  static void MarkReturned(const Tokens& tokens) {
    tokens.ForEach([](Token* token) {
      if (token->bytes.isa<ir::IntImmNode>()) {
        token->returned = true;
      } else {
        token->discarded = true;
      }
    });
  }

  Tokens Collect(const Expr& expr) {
    if (const auto* seq = expr.as<graph::SeqExprNode>()) {
      for (const graph::BindingBlock& block : seq->blocks) CollectBlock(block.get());
      Discard(Collect(seq->body));
      return Tokens();
    }
    if (const auto* call = expr.as<graph::CallNode>()) return CollectCall(call);
    if (const auto* if_node = expr.as<graph::IfNode>()) {
      Discard(Collect(if_node->cond));
      Discard(Collect(if_node->true_branch));
      Discard(Collect(if_node->false_branch));
      return Tokens();
    }
    if (expr.isa<VarNode>() || expr.isa<graph::TupleNode>() || expr.isa<graph::TupleGetItemNode>()) {
      return Lookup(expr);
    }
    DiscardCaptured(expr);
    return Tokens();
  }

  void CollectBlock(const graph::BindingBlockNode* block) {
    blocks_.push_back(block);
    for (const graph::Binding& binding : block->bindings) {
      if (const auto* var_binding = binding.as<graph::VarBindingNode>()) {
        var_tokens_[binding->var.get()] = Collect(var_binding->value);
      } else {
        Discard(Collect(cast<graph::MatchCastNode>(binding)->value));
      }
    }
    blocks_.pop_back();
  }

  Tokens CollectCall(const graph::CallNode* call) {
    if (IsOpCall(call, "relax.builtin.alloc_tensor")) return CreateToken(call);
    if (IsInplaceMemoryOp(call)) return Lookup(call->args.at(0));
    if (DoesNotRetainArguments(call)) {
      for (const Expr& arg : call->args) {
        Lookup(arg).ForEach([&](Token* token) {
          if (token->block != blocks_.back()) {
            token->discarded = true;
          } else {
            ++token->references;
          }
        });
      }
    } else {
      for (const Expr& arg : call->args) Discard(Collect(arg));
    }
    return Tokens();
  }

  // A PrimFunc of the module, an extern function or R.vm.call_tir_dyn: they
  // write their outputs and keep no reference to their arguments.
  bool DoesNotRetainArguments(const graph::CallNode* call) const {
    if (call->op.isa<graph::ExternFuncNode>() || IsOpCall(call, "relax.vm.call_tir_dyn")) return true;
    const auto* gvar = call->op.as<graph::GlobalVarNode>();
    return gvar != nullptr && mod_->Lookup(gvar->name_hint).isa<tir::PrimFuncNode>();
  }

  Tokens CreateToken(const graph::CallNode* call) {
    RLX_ICHECK(!blocks_.empty()) << "alloc_tensor outside a binding block";
    const graph::ShapeExprNode* shape = AllocShape(call);
    auto token = std::make_unique<Token>();
    token->block = blocks_.back();
    if (shape == nullptr) {
      token->discarded = true;  // unknown shape: left to lower-alloc-tensor, which reports it
    } else {
      token->dtype = cast<graph::DataTypeImmNode>(call->args.at(1))->value;
      token->bytes = ByteSize(UpperBoundShape(shape->values, analyzer_), token->dtype, analyzer_);
      token->scope = cast<graph::StringImmNode>(call->args.at(3))->value;
    }
    Tokens tokens;
    tokens.leaf = token.get();
    alloc_tokens_[call] = token.get();
    owned_.push_back(std::move(token));
    return tokens;
  }

  // A nested function or any other expression: its variables may be kept.
  void DiscardCaptured(const Expr& expr) {
    class VarCollector : public graph::ExprVisitor {
     public:
      std::vector<const VarNode*> vars;

     protected:
      using ExprVisitor::VisitExpr_;
      void VisitExpr_(const VarNode* op, const Expr&) override { vars.push_back(op); }
      void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { vars.push_back(op); }
    } collector;
    collector.VisitExpr(expr);
    for (const VarNode* var : collector.vars) Discard(Lookup(Expr(var)));
  }

  const ir::IRModule& mod_;
  arith::Analyzer* analyzer_;
  std::vector<const graph::BindingBlockNode*> blocks_;
  std::unordered_map<const VarNode*, Tokens> var_tokens_;
  std::unordered_map<const graph::CallNode*, Token*> alloc_tokens_;
  std::vector<std::unique_ptr<Token>> owned_;
};

// ---------------------------------------------------------------------------
// Step 3: planning.

// One planned storage: an arena of constant size, or a slot of symbolic size.
struct Slot {
  int id = 0;
  ir::PrimExpr bytes;
  DataType dtype;
  std::string scope;
  int references = 0;
};

// Where a planned alloc_tensor lives.
struct Placement {
  const Slot* slot = nullptr;
  int64_t offset = 0;
};

// Free symbolic-size slots by (scope, dtype).
class SlotPool {
 public:
  explicit SlotPool(arith::Analyzer* analyzer) : analyzer_(analyzer) {}

  Slot* TakeReusable(const Token& token) {
    std::vector<Slot*>& free = free_[{token.scope, token.dtype.ToString()}];
    for (auto it = free.begin(); it != free.end(); ++it) {
      if (!analyzer_->CanProveEqual(token.bytes, (*it)->bytes)) continue;
      Slot* slot = *it;
      free.erase(it);
      return slot;
    }
    return nullptr;
  }

  void Release(Slot* slot) { free_[{slot->scope, slot->dtype.ToString()}].push_back(slot); }

 private:
  arith::Analyzer* analyzer_;
  std::map<std::pair<std::string, std::string>, std::vector<Slot*>> free_;
};

// A constant-size tensor of a block: its bytes and live interval, positions
// of bindings in the block (allocation to last reference, both inclusive).
struct ArenaTensor {
  const graph::CallNode* call;
  const Token* token;
  int64_t bytes;
  size_t first;
  size_t last;
  int64_t offset = 0;

  bool LiveWith(const ArenaTensor& other) const { return first <= other.last && other.first <= last; }
};

int64_t AlignUp(int64_t value) { return (value + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }

// The lowest aligned offset at which `tensor` overlaps none of `placed` that
// is alive at the same time.
int64_t LowestFreeOffset(const ArenaTensor& tensor, const std::vector<const ArenaTensor*>& placed) {
  std::vector<std::pair<int64_t, int64_t>> busy;  // byte ranges of the live placed tensors
  for (const ArenaTensor* other : placed) {
    if (tensor.LiveWith(*other)) busy.emplace_back(other->offset, other->offset + other->bytes);
  }
  std::sort(busy.begin(), busy.end());
  int64_t offset = 0;
  for (const auto& [begin, end] : busy) {
    if (offset + tensor.bytes <= begin) break;
    offset = std::max(offset, AlignUp(end));
  }
  return offset;
}

// Greedy by size: largest first, each at the lowest free offset; returns the
// arena's size.
int64_t PackOffsets(std::vector<ArenaTensor*>* tensors) {
  std::stable_sort(tensors->begin(), tensors->end(), [](const ArenaTensor* a, const ArenaTensor* b) {
    return a->bytes != b->bytes ? a->bytes > b->bytes : a->first < b->first;
  });
  std::vector<const ArenaTensor*> placed;
  int64_t total = 0;
  for (ArenaTensor* tensor : *tensors) {
    tensor->offset = LowestFreeOffset(*tensor, placed);
    total = std::max(total, tensor->offset + tensor->bytes);
    placed.push_back(tensor);
  }
  return total;
}

class MemoryPlanner {
 public:
  MemoryPlanner(const TokenCollector& tokens, arith::Analyzer* analyzer) : tokens_(tokens), analyzer_(analyzer) {}

  void Run(const graph::FunctionNode* func) { PlanSeq(func->body); }

  // The storage and offset of every planned alloc_tensor call.
  const std::unordered_map<const graph::CallNode*, Placement>& planned() const { return planned_; }

 private:
  // The constant-size tensors of the block being planned.
  struct BlockArena {
    size_t position = 0;
    std::vector<ArenaTensor> tensors;
    std::unordered_map<const Token*, size_t> index_of;
  };

  void PlanSeq(const Expr& expr) {
    const auto* seq = expr.as<graph::SeqExprNode>();
    if (seq == nullptr) return;
    pools_.emplace_back(analyzer_);
    for (const graph::BindingBlock& block : seq->blocks) {
      arenas_.emplace_back();
      for (const graph::Binding& binding : block->bindings) {
        const auto* var_binding = binding.as<graph::VarBindingNode>();
        if (var_binding != nullptr) PlanValue(var_binding->value);
        ++arenas_.back().position;
      }
      PackArena(&arenas_.back());
      arenas_.pop_back();
    }
    pools_.pop_back();
  }

  void PlanValue(const Expr& value) {
    if (const auto* if_node = value.as<graph::IfNode>()) {
      PlanSeq(if_node->true_branch);
      PlanSeq(if_node->false_branch);
      return;
    }
    const auto* call = value.as<graph::CallNode>();
    if (call == nullptr || IsInplaceMemoryOp(call)) return;
    if (IsOpCall(call, "relax.builtin.alloc_tensor")) {
      PlanAllocation(call);
      return;
    }
    for (const Expr& arg : call->args) tokens_.Lookup(arg).ForEach([&](Token* token) { Reference(token); });
  }

  // One use of a token by the binding at the current position.
  void Reference(const Token* token) {
    BlockArena& arena = arenas_.back();
    if (auto it = arena.index_of.find(token); it != arena.index_of.end()) {
      arena.tensors[it->second].last = arena.position;
      return;
    }
    Slot* slot = slot_of_.at(token);
    RLX_ICHECK(slot->references > 0) << "a storage slot used more often than counted";
    if (--slot->references == 0) pools_.back().Release(slot);
  }

  void PlanAllocation(const graph::CallNode* call) {
    Token* token = tokens_.alloc_tokens().at(call);
    if (token->discarded) return;
    if (const auto* bytes = token->bytes.as<ir::IntImmNode>()) {
      BlockArena& arena = arenas_.back();
      arena.index_of[token] = arena.tensors.size();
      arena.tensors.push_back(ArenaTensor{call, token, bytes->value, arena.position, arena.position});
      return;
    }
    // A tensor that is never used needs no reuse; it gets a slot of its own.
    Slot* slot = token->references > 0 ? pools_.back().TakeReusable(*token) : nullptr;
    if (slot == nullptr) slot = NewSlot(token->bytes, token->dtype, token->scope);
    slot->references = token->references;
    slot_of_[token] = slot;
    planned_[call] = Placement{slot, 0};
  }

  Slot* NewSlot(const ir::PrimExpr& bytes, DataType dtype, const std::string& scope) {
    slots_.push_back(std::make_unique<Slot>(Slot{static_cast<int>(slots_.size()), bytes, dtype, scope, 0}));
    return slots_.back().get();
  }

  // One arena per storage scope for the block's constant-size tensors; a
  // function output is alive from its allocation to the end of the block
  // (after the block, the caller holds it).
  void PackArena(BlockArena* arena) {
    std::map<std::string, std::vector<ArenaTensor*>> by_scope;
    for (ArenaTensor& tensor : arena->tensors) {
      if (tensor.token->returned) tensor.last = arena->position;
      by_scope[tensor.token->scope].push_back(&tensor);
    }
    for (auto& [scope, tensors] : by_scope) {
      int64_t total = PackOffsets(&tensors);
      Slot* slot = NewSlot(ir::MakeInt(total), ArenaDtype(tensors), scope);
      for (const ArenaTensor* tensor : tensors) planned_[tensor->call] = Placement{slot, tensor->offset};
    }
  }

  // The tensors' dtype when they share one, else bytes.
  static DataType ArenaDtype(const std::vector<ArenaTensor*>& tensors) {
    DataType dtype = tensors.front()->token->dtype;
    for (const ArenaTensor* tensor : tensors) {
      if (tensor->token->dtype != dtype) return DataType::UInt(8);
    }
    return dtype;
  }

  const TokenCollector& tokens_;
  arith::Analyzer* analyzer_;
  std::vector<SlotPool> pools_;
  std::vector<BlockArena> arenas_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::unordered_map<const Token*, Slot*> slot_of_;
  std::unordered_map<const graph::CallNode*, Placement> planned_;
};

// ---------------------------------------------------------------------------
// Step 4: rewrite.

Expr MakeAllocStorage(const ir::PrimExpr& bytes, const Expr& device, const std::string& scope, DataType dtype) {
  return graph::MakeCall("relax.memory.alloc_storage",
                         {Expr(new graph::ShapeExprNode({bytes})), device, Expr(new graph::StringImmNode(scope)),
                          Expr(new graph::DataTypeImmNode(dtype))});
}

Expr MakeAllocTensor(const Expr& storage, const graph::CallNode* call, int64_t offset = 0) {
  return graph::MakeCall("relax.memory.alloc_tensor", {storage, Expr(new graph::PrimValueNode(ir::MakeInt(offset))),
                                                        call->args.at(0), call->args.at(1)});
}

class StorageRewriter : public graph::ExprMutator {
 public:
  StorageRewriter(const ir::IRModule& mod, const MemoryPlanner& planner, bool plan_dynamic_output,
                  arith::Analyzer* analyzer)
      : ExprMutator(mod), planner_(planner), plan_dynamic_output_(plan_dynamic_output), analyzer_(analyzer) {}

 protected:
  using ExprMutator::VisitExpr_;

  Expr VisitExpr_(const graph::CallNode* op, const Expr& self) override {
    if (!IsOpCall(op, "relax.builtin.alloc_tensor")) return ExprMutator::VisitExpr_(op, self);
    auto planned = planner_.planned().find(op);
    if (planned != planner_.planned().end()) {
      const Slot* slot = planned->second.slot;
      auto it = storage_of_.find(slot);
      if (it == storage_of_.end()) {
        Expr storage = builder_->Emit(MakeAllocStorage(slot->bytes, op->args.at(2), slot->scope, slot->dtype),
                                      "storage");
        it = storage_of_.emplace(slot, storage).first;
      }
      return MakeAllocTensor(it->second, op, planned->second.offset);
    }
    const graph::ShapeExprNode* shape = AllocShape(op);
    if (plan_dynamic_output_ && shape != nullptr) return AllocateUpperBound(op, shape);
    return ExprMutator::VisitExpr_(op, self);
  }

 private:
  // An unplanned tensor of symbolic shape in a storage of its upper-bound size.
  Expr AllocateUpperBound(const graph::CallNode* call, const graph::ShapeExprNode* shape) {
    std::vector<ir::PrimExpr> bounded = UpperBoundShape(shape->values, analyzer_);
    bool is_static = std::all_of(shape->values.begin(), shape->values.end(),
                                 [](const ir::PrimExpr& dim) { return dim.isa<ir::IntImmNode>(); });
    if (is_static) return Expr(call);
    DataType dtype = cast<graph::DataTypeImmNode>(call->args.at(1))->value;
    const std::string& scope = cast<graph::StringImmNode>(call->args.at(3))->value;
    Expr storage = builder_->Emit(MakeAllocStorage(ByteSize(bounded, dtype, analyzer_), call->args.at(2), scope, dtype),
                                  "storage");
    return MakeAllocTensor(storage, call);
  }

  const MemoryPlanner& planner_;
  bool plan_dynamic_output_;
  arith::Analyzer* analyzer_;
  std::unordered_map<const Slot*, Expr> storage_of_;
};


// ---------------------------------------------------------------------------
// Step 5: verification of the rewritten function.

std::vector<const VarNode*> VarsIn(const Expr& expr) {
  class Collector : public graph::ExprVisitor {
   public:
    std::vector<const VarNode*> vars;

   protected:
    using ExprVisitor::VisitExpr_;
    void VisitExpr_(const VarNode* op, const Expr&) override { vars.push_back(op); }
    void VisitExpr_(const graph::DataflowVarNode* op, const Expr&) override { vars.push_back(op); }
  } collector;
  collector.VisitExpr(expr);
  return collector.vars;
}

// Values whose result may share bytes with the variables they mention.
bool IsAliasingValue(const Expr& value) {
  if (value.isa<VarNode>() || value.isa<graph::TupleNode>() || value.isa<graph::TupleGetItemNode>()) return true;
  const auto* call = value.as<graph::CallNode>();
  return call != nullptr && IsInplaceMemoryOp(call);
}

class PlanVerifier {
 public:
  explicit PlanVerifier(arith::Analyzer* analyzer) : analyzer_(analyzer) {}

  void VerifySeq(const Expr& expr) {
    const auto* seq = expr.as<graph::SeqExprNode>();
    if (seq == nullptr) return;
    std::vector<graph::Binding> bindings;
    for (const graph::BindingBlock& block : seq->blocks) {
      bindings.insert(bindings.end(), block->bindings.begin(), block->bindings.end());
    }
    std::unordered_map<const VarNode*, std::vector<const VarNode*>> roots;  // var -> tensors it may alias
    std::unordered_map<const VarNode*, size_t> last_use;
    std::unordered_map<const VarNode*, ir::PrimExpr> storage_bytes;
    struct Placed {
      const VarNode* tensor;
      const VarNode* storage;
      size_t index;
      ir::PrimExpr begin;
      ir::PrimExpr end;
    };
    std::vector<Placed> placed;
    auto use = [&](const Expr& value, size_t index) {
      for (const VarNode* var : VarsIn(value)) {
        for (const VarNode* root : roots[var]) last_use[root] = std::max(last_use[root], index);
      }
    };
    for (size_t i = 0; i < bindings.size(); ++i) {
      const VarNode* var = bindings[i]->var.get();
      const auto* var_binding = bindings[i].as<graph::VarBindingNode>();
      Expr value = var_binding != nullptr ? var_binding->value : cast<graph::MatchCastNode>(bindings[i])->value;
      use(value, i);
      if (const auto* if_node = value.as<graph::IfNode>()) {
        VerifySeq(if_node->true_branch);
        VerifySeq(if_node->false_branch);
      }
      const auto* call = value.as<graph::CallNode>();
      if (call != nullptr && IsOpCall(call, "relax.memory.alloc_storage")) {
        storage_bytes[var] = cast<graph::ShapeExprNode>(call->args.at(0))->values.at(0);
      } else if (call != nullptr && IsOpCall(call, "relax.memory.alloc_tensor")) {
        const auto* storage = call->args.at(0).as<VarNode>();
        if (storage != nullptr && storage_bytes.count(storage)) {
          auto [begin, end] = ByteRange(call);
          if (!analyzer_->CanProveLessEqual(end, storage_bytes.at(storage))) {
            throw CompileError(call->span, fmt::format("{}: memory plan verification: tensor {} (bytes [{}, {})) does "
                                                       "not provably fit its storage of {} bytes",
                                                       kPassName, var->name_hint, ir::ToString(begin),
                                                       ir::ToString(end), ir::ToString(storage_bytes.at(storage))));
          }
          placed.push_back(Placed{var, storage, i, begin, end});
          roots[var] = {var};
          last_use[var] = i;
        }
      } else if (IsAliasingValue(value)) {
        for (const VarNode* source : VarsIn(value)) {
          roots[var].insert(roots[var].end(), roots[source].begin(), roots[source].end());
        }
      }
    }
    use(seq->body, bindings.size());
    for (size_t a = 0; a < placed.size(); ++a) {
      for (size_t b = a + 1; b < placed.size(); ++b) {
        if (placed[a].storage != placed[b].storage) continue;
        if (analyzer_->CanProveLessEqual(placed[a].end, placed[b].begin) ||
            analyzer_->CanProveLessEqual(placed[b].end, placed[a].begin)) {
          continue;  // disjoint bytes
        }
        if (last_use[placed[a].tensor] < placed[b].index) continue;
        throw CompileError(bindings[placed[b].index]->span,
                           fmt::format("{}: memory plan verification: tensors {} and {} share bytes of storage {} "
                                       "but are alive at the same time",
                                       kPassName, placed[a].tensor->name_hint, placed[b].tensor->name_hint,
                                       placed[a].storage->name_hint));
      }
    }
  }

 private:
  // The bytes [begin, end) an R.memory.alloc_tensor occupies in its storage.
  std::pair<ir::PrimExpr, ir::PrimExpr> ByteRange(const graph::CallNode* call) {
    const auto* offset = call->args.at(1).as<graph::PrimValueNode>();
    const auto* shape = call->args.at(2).as<graph::ShapeExprNode>();
    RLX_ICHECK(offset != nullptr && shape != nullptr)
        << kPassName << ": R.memory.alloc_tensor without a known offset and shape";
    DataType dtype = cast<graph::DataTypeImmNode>(call->args.at(3))->value;
    ir::PrimExpr begin = ir::cast(DataType::Int64(), offset->value);
    return {begin, analyzer_->Simplify(ir::add(begin, ByteSize(shape->values, dtype, analyzer_)))};
  }

  arith::Analyzer* analyzer_;
};

bool PlansDynamicOutput(const graph::FunctionNode* func) {
  if (!func->attrs.defined()) return false;
  const auto* flag = func->attrs->Get(kPlanDynamicOutputAttr).as<ir::IntImmNode>();
  return flag != nullptr && flag->value != 0;
}

graph::Function WithoutAttr(const graph::Function& func, const std::string& key) {
  if (!func->attrs.defined() || !func->attrs->Contains(key)) return func;
  std::vector<ir::DictNode::Item> items;
  for (const auto& item : func->attrs->items) {
    if (item.first != key) items.push_back(item);
  }
  ir::Dict attrs = items.empty() ? ir::Dict() : ir::Dict(new ir::DictNode(std::move(items)));
  auto* updated = new graph::FunctionNode(func->params, func->body, func->ret_struct_info, func->is_pure, attrs,
                                          func->is_private);
  updated->span = func->span;
  return graph::Function(updated);
}

// The config key when set; otherwise on in the memory debug mode
// (RLX_DEBUG_MEMORY=1, rlx/runtime/memory_debug.h), so a test suite run in
// that mode verifies every plan it compiles.
bool VerifyRequested(const PassContext& ctx) {
  const auto* flag = ctx.config.defined() ? ctx.config->Get(kVerifyMemoryPlanConfig).as<ir::IntImmNode>() : nullptr;
  if (flag != nullptr) return flag->value != 0;
  const char* debug_memory = std::getenv("RLX_DEBUG_MEMORY");
  return debug_memory != nullptr && debug_memory[0] != '\0' && std::string_view(debug_memory) != "0";
}

graph::Function PlanFunction(const graph::Function& func, const ir::IRModule& mod, bool verify) {
  arith::Analyzer analyzer;
  BindSignatureBounds(func.get(), &analyzer);
  TokenCollector tokens(mod, &analyzer);
  tokens.Run(func.get());
  MemoryPlanner planner(tokens, &analyzer);
  planner.Run(func.get());
  bool plan_dynamic_output = PlansDynamicOutput(func.get());
  StorageRewriter rewriter(mod, planner, plan_dynamic_output, &analyzer);
  graph::Function planned = cast<graph::FunctionNode>(rewriter.VisitExpr(func));
  if (verify) PlanVerifier(&analyzer).VerifySeq(planned->body);
  return plan_dynamic_output ? WithoutAttr(planned, kPlanDynamicOutputAttr) : planned;
}

}  // namespace

Pass StaticPlanBlockMemory() {
  return CreateFunctionPass([](graph::Function func, ir::IRModule mod,
                               const PassContext& ctx) { return PlanFunction(func, mod, VerifyRequested(ctx)); },
                            PassInfo{kPassName,
                                     "Plans the storage of R.builtin.alloc_tensor: storage shared between tensors of "
                                     "disjoint lifetimes, sized by tir_var_upper_bound",
                                     0,
                                     {}});
}

}  // namespace rlx::transform
