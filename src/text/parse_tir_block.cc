// PrimFunc parsing: blocks (see tir_parser.h).
//
// `with T.block("name"):` (or T.sblock; `no_realize=True` gives a bare
// Block) collects its iteration variables, regions, predicate, attributes,
// buffers and init from the statements of its body, then builds the
// BlockRealize. As in TVM:
// - `vi = T.axis.spatial(dom, value)` (S, reduce/R, scan, opaque): dom is an
//   extent or a (min, max) pair; the variable is an int of at least 32 bits,
//   as wide as its domain. `vi, vj = T.axis.remap("SR", [i, j])` takes each
//   domain from the loop that defines i, j.
// - Reads and writes not given are inferred from the body (TVM's
//   ScriptComplete does the same with a finer region analysis). Ours: every
//   buffer stored to is written, every other buffer loaded from is read
//   (buffers allocated or matched inside the block are left out); per
//   dimension the region is the single index all accesses agree on when it
//   uses no variable defined inside the block, else the whole dimension.
// - A function body holding blocks (or with function-level T.alloc_buffer)
//   is wrapped in an implicit root block named "root" that owns those
//   buffers, unless the body already is a single block without iteration
//   variables (TVM's rule; the printer shows the root block as the comment
//   `# with T.block("root"):`).
#include <fmt/format.h>

#include "rlx/arith/analyzer.h"
#include "rlx/tir/stmt_functor.h"
#include "text/tir_parser.h"

namespace rlx::text::detail {

using ir::PrimExpr;

namespace {

tir::IterKind AxisKind(const std::string& suffix, const Span& span) {
  if (suffix == "spatial" || suffix == "S") return tir::IterKind::kSpatial;
  if (suffix == "reduce" || suffix == "R") return tir::IterKind::kReduce;
  if (suffix == "scan") return tir::IterKind::kScan;
  if (suffix == "opaque") return tir::IterKind::kOpaque;
  Fail(span, fmt::format("unknown axis kind 'T.axis.{}'; expected spatial, reduce, scan, opaque or remap", suffix));
}

DataType IterVarType(const tir::Range& dom, DataType requested) {
  int bits = std::max({dom.min->dtype.bits(), dom.extent->dtype.bits(), requested.bits(), 32});
  return DataType::Int(bits);
}

// Buffer accesses inside a block, for read/write inference.
class AccessCollector {
 public:
  struct Accesses {
    ir::Buffer buffer;
    std::vector<std::vector<PrimExpr>> index_lists;
  };

  void Collect(const tir::Stmt& stmt) {
    if (!stmt.defined()) return;
    tir::PostOrderVisit(stmt, [this](const ObjectRef& node) { Visit(node); });
  }
  void AddLocal(const ir::Buffer& buffer) { local_.insert(buffer.get()); }

  std::vector<tir::BufferRegion> Writes() const { return Regions(writes_, {}); }
  std::vector<tir::BufferRegion> Reads() const {
    std::unordered_set<const Node*> written;
    for (const Accesses& access : writes_) written.insert(access.buffer.get());
    return Regions(reads_, written);
  }

 private:
  void Visit(const ObjectRef& node) {
    if (const auto* store = node.as<tir::BufferStoreNode>()) {
      Record(writes_, store->buffer, store->indices);
    } else if (const auto* load = node.as<ir::BufferLoadNode>()) {
      Record(reads_, load->buffer, load->indices);
    } else if (const auto* loop = node.as<tir::ForNode>()) {
      inner_vars_.insert(loop->loop_var.get());
    } else if (const auto* let = node.as<tir::LetStmtNode>()) {
      inner_vars_.insert(let->var.get());
    } else if (const auto* let = node.as<ir::LetNode>()) {
      inner_vars_.insert(let->var.get());
    } else if (const auto* block = node.as<tir::BlockNode>()) {
      for (const tir::IterVar& iter : block->iter_vars) inner_vars_.insert(iter->var.get());
      for (const ir::Buffer& buffer : block->alloc_buffers) local_.insert(buffer.get());
      for (const tir::MatchBufferRegion& match : block->match_buffers) local_.insert(match->buffer.get());
    }
  }

  static void Record(std::vector<Accesses>& list, const ir::Buffer& buffer, const std::vector<PrimExpr>& indices) {
    for (Accesses& access : list) {
      if (access.buffer.same_as(buffer)) {
        access.index_lists.push_back(indices);
        return;
      }
    }
    list.push_back({buffer, {indices}});
  }

  bool UsesInnerVar(const PrimExpr& expr) const {
    bool found = false;
    ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
      if (inner_vars_.count(sub.get())) found = true;
    });
    return found;
  }

  tir::Range DimRange(const Accesses& access, size_t d) const {
    const PrimExpr& first = access.index_lists[0][d];
    bool point = first->dtype.lanes() == 1 && !UsesInnerVar(first);
    for (const std::vector<PrimExpr>& indices : access.index_lists) {
      point = point && ExprDeepEqual(indices[d], first);
    }
    if (point) return {first, ir::MakeInt(1, first->dtype)};
    const PrimExpr& extent = access.buffer->shape[d];
    return {ir::MakeInt(0, extent->dtype), extent};
  }

  std::vector<tir::BufferRegion> Regions(const std::vector<Accesses>& list,
                                         const std::unordered_set<const Node*>& excluded) const {
    std::vector<tir::BufferRegion> regions;
    for (const Accesses& access : list) {
      if (local_.count(access.buffer.get()) || excluded.count(access.buffer.get())) continue;
      std::vector<tir::Range> ranges;
      for (size_t d = 0; d < access.buffer->shape.size(); ++d) ranges.push_back(DimRange(access, d));
      regions.push_back(make<tir::BufferRegionNode>(access.buffer, std::move(ranges)));
    }
    return regions;
  }

  std::vector<Accesses> reads_;
  std::vector<Accesses> writes_;
  std::unordered_set<const Node*> inner_vars_;
  std::unordered_set<const Node*> local_;
};

bool ContainsBlock(const tir::Stmt& stmt) {
  bool found = false;
  tir::PostOrderVisit(stmt, [&](const ObjectRef& node) {
    if (node.isa<tir::BlockNode>() || node.isa<tir::BlockRealizeNode>()) found = true;
  });
  return found;
}

}  // namespace

TIRParser::BlockState& TIRParser::CurrentBlock(const Span& span, const std::string& what) {
  if (blocks_.empty()) Fail(span, fmt::format("{} is only allowed inside a block (with T.block(...):)", what));
  return *blocks_.back();
}

bool TIRParser::ParseBlockFrameCall(const py::Call& call) {
  std::string name = CalleeName(call);
  if (name == "T.reads" || name == "T.writes") {
    ParseRegions(call, name == "T.reads");
    return true;
  }
  if (name == "T.where") {
    CallArgs args(call, name, {"predicate"}, 1);
    BlockState& state = CurrentBlock(call.span, name);
    PrimExpr predicate = prim_.Eval(args.Required("predicate"));
    if (!predicate->dtype.is_bool()) Fail(args.Required("predicate").span, "T.where expects a boolean condition");
    state.predicate = predicate;
    return true;
  }
  if (name == "T.block_attr" || name == "T.sblock_attr") {  // T.sblock_attr: the T.sblock spelling
    CallArgs args(call, name, {"attrs"}, 1);
    BlockState& state = CurrentBlock(call.span, name);
    ir::Dict dict = EvalAttrDict(args.Required("attrs"), AttrLevel::kTIR, &prim_);
    for (const auto& [key, value] : dict->items) state.annotations = ir::DictWith(state.annotations, key, value);
    return true;
  }
  return false;
}

void TIRParser::ParseRegions(const py::Call& call, bool reads) {
  const char* name = reads ? "T.reads" : "T.writes";
  BlockState& state = CurrentBlock(call.span, name);
  if (!call.keywords.empty()) Fail(call.keywords[0].span, fmt::format("{} takes no keyword arguments", name));
  std::vector<tir::BufferRegion> regions;
  for (const py::ExprPtr& arg : call.args) {
    if (const std::vector<py::ExprPtr>* elts = AsSequence(*arg)) {
      for (const py::ExprPtr& elt : *elts) regions.push_back(prim_.EvalRegion(*elt));
    } else {
      regions.push_back(prim_.EvalRegion(*arg));
    }
  }
  std::optional<std::vector<tir::BufferRegion>>& slot = reads ? state.reads : state.writes;
  if (slot) Fail(call.span, fmt::format("{} is given twice in this block", name));
  slot = std::move(regions);
}

void TIRParser::ParseAxis(const std::string& target, const Span& target_span, const py::Call& call) {
  std::string callee = CalleeName(call);
  BlockState& state = CurrentBlock(call.span, callee);
  tir::IterKind kind = AxisKind(callee.substr(std::string("T.axis.").size()), call.func->span);
  CallArgs args(call, callee, {"dom", "binding", "dtype"}, 2);
  const py::Expr& dom_expr = args.Required("dom");
  tir::Range dom;
  if (const std::vector<py::ExprPtr>* bounds = AsSequence(dom_expr)) {
    if (bounds->size() != 2) Fail(dom_expr.span, "an axis domain is an extent or a (min, max) pair");
    PrimExpr lo = prim_.Eval(*(*bounds)[0]);
    PrimExpr hi = prim_.Eval(*(*bounds)[1]);
    MatchOperandTypes(lo, hi, dom_expr.span, "domain");
    PrimExpr difference = ir::sub(hi, lo);
    arith::Analyzer analyzer;
    dom = {difference.as<ir::BinaryNode>()->b, analyzer.Simplify(difference)};
  } else {
    PrimExpr extent = prim_.Eval(dom_expr);
    dom = {ir::MakeInt(0, extent->dtype), extent};
  }
  if (!dom.min->dtype.is_integer() || !dom.extent->dtype.is_integer()) Fail(dom_expr.span, "an axis domain must be integer");
  DataType requested = args.Has("dtype") ? EvalDType(args.Required("dtype")) : DataType::Int32();
  ir::Var var = NewVar(target, IterVarType(dom, requested), target_span);
  state.iter_vars.push_back(make<tir::IterVarNode>(var, dom, kind));
  state.iter_values.push_back(prim_.Eval(args.Required("binding")));
  scopes_.DefinePrimVar(target, var);
}

void TIRParser::ParseRemap(const std::vector<const py::Expr*>& targets, const py::Call& call) {
  BlockState& state = CurrentBlock(call.span, "T.axis.remap");
  CallArgs args(call, "T.axis.remap", {"kinds", "bindings", "dtype"}, 2);
  std::optional<std::string> kinds = AsStringLiteral(args.Required("kinds"));
  if (!kinds) Fail(args.Required("kinds").span, "T.axis.remap expects a kind string such as \"SSR\"");
  const std::vector<py::ExprPtr>* bindings = AsSequence(args.Required("bindings"));
  if (bindings == nullptr) Fail(args.Required("bindings").span, "T.axis.remap expects a list of loop variables");
  if (kinds->size() != bindings->size() || kinds->size() != targets.size()) {
    Fail(call.span, fmt::format("T.axis.remap: \"{}\" names {} kind{}, but there are {} loop variable{} and {} "
                                "target{}", *kinds, kinds->size(), kinds->size() == 1 ? "" : "s", bindings->size(),
                                bindings->size() == 1 ? "" : "s", targets.size(),
                                targets.size() == 1 ? "" : "s"));
  }
  for (size_t k = 0; k < kinds->size(); ++k) {
    char c = (*kinds)[k];
    if (c != 'S' && c != 'R') {
      Fail(args.Required("kinds").span,
           fmt::format("T.axis.remap: unknown iteration kind '{}' in \"{}\"; expected 'S' (spatial) or 'R' (reduce)",
                       c, *kinds));
    }
    const py::Expr& binding_expr = *(*bindings)[k];
    PrimExpr binding = prim_.Eval(binding_expr);
    const Loop* loop = nullptr;
    for (const Loop& candidate : loops_) {
      if (candidate.var.same_as(binding)) loop = &candidate;
    }
    if (loop == nullptr) {
      Fail(binding_expr.span, fmt::format("T.axis.remap: {} is not the variable of an enclosing loop",
                                          Describe(binding_expr)));
    }
    const auto* target = targets[k]->As<py::Name>();
    if (target == nullptr) Fail(targets[k]->span, "T.axis.remap targets must be names");
    ir::Var var = NewVar(target->id, IterVarType(loop->range, DataType::Int32()), target->span);
    tir::IterKind kind = c == 'S' ? tir::IterKind::kSpatial : tir::IterKind::kReduce;
    state.iter_vars.push_back(make<tir::IterVarNode>(var, loop->range, kind));
    state.iter_values.push_back(binding);
    scopes_.DefinePrimVar(target->id, var);
  }
}

void TIRParser::ParseInit(const py::With& stmt) {
  BlockState& state = CurrentBlock(stmt.span, "T.init()");
  if (state.init.defined()) Fail(stmt.span, "a block has only one T.init()");
  if (stmt.items[0].optional_vars) Fail(stmt.items[0].span, "T.init() does not bind a name");
  scopes_.Push();
  state.init = ParseStmts(stmt.body, 0);
  scopes_.Pop();
}

tir::Stmt TIRParser::ParseBlock(const py::With& stmt, const py::Call& call) {
  std::string callee = CalleeName(call);
  CallArgs args(call, callee, {"name", "no_realize"}, 0);
  BlockState state;
  if (args.Has("name")) {
    std::optional<std::string> name = AsStringLiteral(args.Required("name"));
    if (!name) Fail(args.Required("name").span, fmt::format("{} expects a block name string", callee));
    state.name = *name;
  }
  bool no_realize = args.Has("no_realize") && AsBoolLiteral(args.Required("no_realize")).value_or(false);
  if (stmt.items[0].optional_vars) Fail(stmt.items[0].span, fmt::format("{} does not bind a name", callee));
  blocks_.push_back(&state);
  scopes_.Push();
  tir::Stmt body = ParseStmts(stmt.body, 0);
  scopes_.Pop();
  blocks_.pop_back();
  tir::Block block = BuildBlock(state, body, stmt.span);
  if (no_realize) return block;
  auto* realize = new tir::BlockRealizeNode();
  realize->iter_values = state.iter_values;
  realize->predicate = state.predicate.defined() ? state.predicate : PrimExpr(ir::MakeBool(true));
  realize->block = block;
  realize->span = stmt.span;
  return tir::Stmt(realize);
}

tir::Block TIRParser::BuildBlock(BlockState& state, tir::Stmt body, const Span& span) {
  auto* node = new tir::BlockNode();
  tir::Block result(node);  // owns node before anything can throw
  node->name = state.name;
  node->iter_vars = state.iter_vars;
  node->init = state.init;
  node->body = std::move(body);
  node->alloc_buffers = state.alloc_buffers;
  node->match_buffers = state.match_buffers;
  node->annotations = state.annotations;
  node->span = span;
  if (!state.reads || !state.writes) {
    AccessCollector collector;
    for (const ir::Buffer& buffer : state.alloc_buffers) collector.AddLocal(buffer);
    for (const tir::MatchBufferRegion& match : state.match_buffers) collector.AddLocal(match->buffer);
    collector.Collect(node->init);
    collector.Collect(node->body);
    if (!state.reads) state.reads = collector.Reads();
    if (!state.writes) state.writes = collector.Writes();
  }
  node->reads = *state.reads;
  node->writes = *state.writes;
  return result;
}

tir::Stmt TIRParser::WrapRootBlock(tir::Stmt body) {
  const auto* realize = body.as<tir::BlockRealizeNode>();
  bool is_root = root_allocs_.empty() && realize != nullptr && realize->block->iter_vars.empty();
  if (is_root || (root_allocs_.empty() && !ContainsBlock(body))) return body;
  auto* block = new tir::BlockNode();
  block->name = "root";
  block->body = std::move(body);
  block->alloc_buffers = root_allocs_;
  auto* root = new tir::BlockRealizeNode();
  root->predicate = ir::MakeBool(true);
  root->block = tir::Block(block);
  return tir::Stmt(root);
}

}  // namespace rlx::text::detail
