// te::CreatePrimFunc: lowers a graph of tensor expressions to a PrimFunc in
// TensorIR block form (TVM's create_prim_func).
//
// Steps:
//   1. Collect every compute reachable from the arguments, inputs before
//      users (a post-order walk of Tensor::inputs()). Placeholders must be
//      arguments; computes that are not become intermediates.
//   2. Parameters: one handle per argument, bound in the buffer map to the
//      tensor's buffer (named `var_<name>` when its shape is symbolic, since
//      the buffer then appears through `T.match_buffer`), then the scalar
//      parameters. A symbolic size is defined by a bare appearance as an
//      argument dimension or by a scalar parameter; any other size variable
//      is an error, since the function could not be called.
//   3. One loop nest per compute, in order:
//
//        for <spatial loops> , <reduce loops>:          (fresh loop vars)
//          with T.block(name):
//            v_* = T.axis.remap("S..SR..R", [loops])      (fresh iter vars)
//            T.reads(<regions of the body's loads>)
//            T.writes(out[v_0, ..., v_k])
//            with T.init(): out[v] = identity            (reductions)
//            out[v] = body                 or  out[v] = combine(out[v], body)
//
//      with the compute's axis variables replaced by the block's iteration
//      variables. A reduction `where` guards the update with an if. An
//      extern tensor (te::Extern) instead gets an opaque block around its
//      statement, without iteration variables, reading each input and
//      writing the output as a whole (TVM's form for te.extern):
//
//        with T.block(name):
//          T.reads(A[0:n, 0:m], ...)
//          T.writes(out[0:n, 0:m])
//          <the extern statement>
//   4. A root block ("root", no iteration variables) holds the nests in
//      order and allocates the intermediates; the function carries
//      {"tir.noalias": True} and is private (no global symbol; it prints as
//      `@T.prim_func(private=True)`, like TVM's legalized kernels).
//
// Read regions (per buffer, per dimension): an index that is a pure
// expression of the block's iteration variables and the function's symbolic
// sizes is exact (a point per block instance, as TVM writes it); several
// such indices differing by constants give their hull; anything else
// (a load inside the index, a let-bound variable, indices at unrelated
// offsets) covers the whole dimension.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "rlx/arith/analyzer.h"
#include "rlx/ir/functor.h"
#include "rlx/support/diagnostic.h"
#include "rlx/tir/stmt_functor.h"
#include "tir/te_internal.h"

namespace rlx::te {
namespace {

using tir::BufferRegion;
using tir::Range;
using tir::Stmt;
using VarSet = std::unordered_set<const ir::VarNode*>;

bool HasSymbolicShape(const Tensor& tensor) {
  return std::any_of(tensor.shape().begin(), tensor.shape().end(),
                     [](const PrimExpr& dim) { return !dim.isa<ir::IntImmNode>(); });
}

// The variables `expr` uses that it does not bind itself (with a Let).
std::vector<Var> FreeVars(const PrimExpr& expr) {
  std::vector<Var> vars;
  if (!expr.defined()) return vars;
  VarSet bound;
  ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
    if (const auto* let = sub.as<ir::LetNode>()) bound.insert(let->var.get());
  });
  VarSet seen;
  ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
    const auto* var = sub.as<ir::VarNode>();
    if (var && !bound.count(var) && seen.insert(var).second) vars.push_back(cast<ir::VarNode>(sub));
  });
  return vars;
}

// The accesses of one buffer inside a block body, in order.
struct BufferAccesses {
  Buffer buffer;
  std::vector<std::vector<PrimExpr>> indices;
};

class PrimFuncBuilder {
 public:
  PrimFuncBuilder(const std::vector<Tensor>& args, const std::vector<Var>& scalar_params)
      : args_(args), scalar_params_(scalar_params) {}

  PrimFunc Build();

 private:
  void CollectTensors();
  void Visit(const Tensor& tensor);
  void CheckArgumentList();
  void CheckPlaceholders();
  void MakeParams(tir::PrimFuncNode* func);
  void DefineSymbolicVars();
  void CheckDefined(const PrimExpr& expr, const Tensor& user, VarSet local);
  void CheckKnownBuffers(const PrimExpr& expr, const Tensor& user);
  void CheckExternBody(const Tensor& tensor);

  Stmt LowerCompute(const Tensor& tensor);
  Stmt LowerExtern(const Tensor& tensor);
  std::vector<BufferRegion> ReadRegions(const std::vector<PrimExpr>& exprs, const VarSet& iter_vars);
  Range MergeAccesses(const BufferAccesses& access, size_t dim, const VarSet& iter_vars);
  bool IsExactIndex(const PrimExpr& index, const VarSet& iter_vars) const;
  std::string UniqueBlockName(const std::string& name);

  const std::vector<Tensor>& args_;
  const std::vector<Var>& scalar_params_;
  std::vector<Tensor> tensors_;  // every reachable tensor, inputs first
  std::unordered_set<const TensorDef*> visited_;
  std::unordered_set<const ir::BufferNode*> known_buffers_;
  VarSet symbolic_vars_;  // defined at function level
  std::unordered_set<std::string> block_names_;
  arith::Analyzer analyzer_;
};

// ---------------------------------------------------------------- collection

void PrimFuncBuilder::Visit(const Tensor& tensor) {
  if (!visited_.insert(tensor.get()).second) return;
  for (const Tensor& input : tensor.inputs()) Visit(input);
  tensors_.push_back(tensor);
  known_buffers_.insert(tensor.buffer().get());
}

void PrimFuncBuilder::CollectTensors() {
  for (const Tensor& arg : args_) Visit(arg);
}

bool Contains(const std::vector<Tensor>& list, const Tensor& tensor) {
  return std::find(list.begin(), list.end(), tensor) != list.end();
}

void PrimFuncBuilder::CheckArgumentList() {
  for (size_t i = 0; i < args_.size(); ++i) {
    if (!args_[i].defined()) ThrowError(Span(), fmt::format("CreatePrimFunc: argument {} is undefined", i));
    for (size_t j = 0; j < i; ++j) {
      if (args_[i] == args_[j]) {
        ThrowError(Span(), fmt::format("CreatePrimFunc: tensor {} is passed twice (arguments {} and {})",
                                       args_[i].name(), j, i));
      }
    }
  }
}

void PrimFuncBuilder::CheckPlaceholders() {
  for (const Tensor& tensor : tensors_) {
    if (!tensor.is_placeholder() || Contains(args_, tensor)) continue;
    std::string user;
    for (const Tensor& other : tensors_) {
      if (Contains(other.inputs(), tensor)) user = other.name();
    }
    ThrowError(Span(), fmt::format("CreatePrimFunc: placeholder {} is read by {} but is not among the arguments",
                                   tensor.name(), user));
  }
}

// ---------------------------------------------------------------- parameters

void PrimFuncBuilder::MakeParams(tir::PrimFuncNode* func) {
  for (const Tensor& arg : args_) {
    std::string name = HasSymbolicShape(arg) ? "var_" + arg.name() : arg.name();
    Var param = ir::MakeVar(std::move(name), DataType::Handle());
    func->params.push_back(param);
    func->buffer_map.emplace_back(param, arg.buffer());
  }
  for (const Var& scalar : scalar_params_) func->params.push_back(scalar);
}

void PrimFuncBuilder::DefineSymbolicVars() {
  for (const Tensor& arg : args_) {
    for (const PrimExpr& dim : arg.shape()) {
      if (const auto* var = dim.as<ir::VarNode>()) symbolic_vars_.insert(var);
    }
  }
  for (const Var& scalar : scalar_params_) symbolic_vars_.insert(scalar.get());
  for (const Tensor& tensor : tensors_) {
    for (const PrimExpr& dim : tensor.shape()) CheckDefined(dim, tensor, {});
    if (tensor.is_placeholder()) continue;
    if (tensor.get()->extern_body.defined()) {
      CheckExternBody(tensor);
      continue;
    }
    VarSet local;
    for (const IterVar& axis : tensor.get()->axes) local.insert(axis->var.get());
    for (const IterVar& axis : tensor.get()->reduce_axes) {
      local.insert(axis->var.get());
      CheckDefined(axis->dom.min, tensor, {});
      CheckDefined(axis->dom.extent, tensor, {});
    }
    CheckDefined(tensor.get()->body, tensor, local);
    CheckDefined(tensor.get()->reduce_where, tensor, local);
    CheckKnownBuffers(tensor.get()->body, tensor);
    CheckKnownBuffers(tensor.get()->reduce_where, tensor);
  }
}

void PrimFuncBuilder::CheckDefined(const PrimExpr& expr, const Tensor& user, VarSet local) {
  for (const Var& var : FreeVars(expr)) {
    if (local.count(var.get()) || symbolic_vars_.count(var.get())) continue;
    ThrowError(Span(), fmt::format("CreatePrimFunc: variable {} (used by {}) is not defined by the shape of any "
                                   "argument; pass it as a scalar parameter or give an argument a dimension {}",
                                   var->name_hint, user.name(), var->name_hint));
  }
}

void PrimFuncBuilder::CheckKnownBuffers(const PrimExpr& expr, const Tensor& user) {
  if (!expr.defined()) return;
  ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
    const auto* load = sub.as<ir::BufferLoadNode>();
    if (load && !known_buffers_.count(load->buffer.get())) {
      ThrowError(Span(), fmt::format("CreatePrimFunc: {} reads buffer {}, which belongs to no tensor of this "
                                     "function (read tensors through Tensor::operator() inside fcompute)",
                                     user.name(), load->buffer->name));
    }
  });
}

// An extern statement may use the variables it binds itself (loops, lets,
// allocations) and the function's symbolic sizes, and may touch only its own
// input and output buffers and the scratch buffers it declares itself
// (Allocate + DeclBuffer).
void PrimFuncBuilder::CheckExternBody(const Tensor& tensor) {
  const TensorDef& def = *tensor.get();
  VarSet local;
  std::unordered_set<const ir::BufferNode*> buffers = {def.buffer.get()};
  for (const Tensor& input : def.inputs) buffers.insert(input.buffer().get());
  std::vector<Var> used;
  auto check_buffer = [&](const Buffer& buffer) {
    if (buffers.count(buffer.get())) return;
    ThrowError(Span(), fmt::format("CreatePrimFunc: extern {} accesses buffer {}, which is neither its output nor "
                                   "one of its inputs",
                                   tensor.name(), buffer->name));
  };
  tir::PostOrderVisit(def.extern_body, [&](const ObjectRef& node) {
    if (const auto* decl = node.as<tir::DeclBufferNode>()) buffers.insert(decl->buffer.get());
  });
  tir::PostOrderVisit(def.extern_body, [&](const ObjectRef& node) {
    if (const auto* loop = node.as<tir::ForNode>()) local.insert(loop->loop_var.get());
    if (const auto* alloc = node.as<tir::AllocateNode>()) local.insert(alloc->buffer_var.get());
    if (const auto* decl = node.as<tir::DeclBufferNode>()) local.insert(decl->buffer->data.get());
    if (const auto* let = node.as<tir::LetStmtNode>()) local.insert(let->var.get());
    if (const auto* let = node.as<ir::LetNode>()) local.insert(let->var.get());
    if (node.isa<ir::VarNode>()) used.push_back(cast<ir::VarNode>(node));
    if (const auto* load = node.as<ir::BufferLoadNode>()) check_buffer(load->buffer);
    if (const auto* store = node.as<tir::BufferStoreNode>()) check_buffer(store->buffer);
  });
  for (const Var& var : used) CheckDefined(var, tensor, local);
}

// ---------------------------------------------------------------- regions

bool PrimFuncBuilder::IsExactIndex(const PrimExpr& index, const VarSet& iter_vars) const {
  bool exact = true;
  ir::PostOrderVisit(index, [&](const PrimExpr& sub) {
    if (sub.isa<ir::BufferLoadNode>()) exact = false;
    const auto* var = sub.as<ir::VarNode>();
    if (var && !iter_vars.count(var) && !symbolic_vars_.count(var)) exact = false;
  });
  return exact;
}

Range PrimFuncBuilder::MergeAccesses(const BufferAccesses& access, size_t dim, const VarSet& iter_vars) {
  const PrimExpr& extent = access.buffer->shape[dim];
  Range whole{ir::MakeInt(0, extent->dtype), extent};
  const PrimExpr& first = access.indices[0][dim];
  int64_t low = 0, high = 0;
  for (const std::vector<PrimExpr>& indices : access.indices) {
    if (!IsExactIndex(indices[dim], iter_vars)) return whole;
    std::optional<int64_t> offset = ir::AsConstInt(analyzer_.Simplify(indices[dim] - first));
    if (!offset) return whole;
    low = std::min(low, *offset);
    high = std::max(high, *offset);
  }
  PrimExpr min = low == 0 ? first : analyzer_.Simplify(first + low);
  return Range{min, ir::MakeInt(high - low + 1, first->dtype)};
}

std::vector<BufferRegion> PrimFuncBuilder::ReadRegions(const std::vector<PrimExpr>& exprs, const VarSet& iter_vars) {
  std::vector<BufferAccesses> accesses;
  auto record = [&](const PrimExpr& sub) {
    const auto* load = sub.as<ir::BufferLoadNode>();
    if (!load) return;
    auto it = std::find_if(accesses.begin(), accesses.end(),
                           [&](const BufferAccesses& a) { return a.buffer.same_as(load->buffer); });
    if (it == accesses.end()) it = accesses.insert(accesses.end(), BufferAccesses{load->buffer, {}});
    it->indices.push_back(load->indices);
  };
  for (const PrimExpr& expr : exprs) {
    if (expr.defined()) ir::PostOrderVisit(expr, record);
  }
  std::vector<BufferRegion> regions;
  for (const BufferAccesses& access : accesses) {
    std::vector<Range> region;
    for (size_t d = 0; d < access.buffer->shape.size(); ++d) region.push_back(MergeAccesses(access, d, iter_vars));
    regions.push_back(make<tir::BufferRegionNode>(access.buffer, std::move(region)));
  }
  return regions;
}

// ---------------------------------------------------------------- loop nests

std::string PrimFuncBuilder::UniqueBlockName(const std::string& name) {
  std::string unique = name;
  for (int suffix = 1; !block_names_.insert(unique).second; ++suffix) unique = fmt::format("{}_{}", name, suffix);
  return unique;
}

Stmt MakeFor(const Var& loop_var, const Range& dom, Stmt body) {
  auto* loop = new tir::ForNode();
  loop->loop_var = loop_var;
  loop->min = dom.min;
  loop->extent = dom.extent;
  loop->body = std::move(body);
  return Stmt(loop);
}

// The block's update: `out[v] = body`, or the reduction's combine (guarded by
// `where` unless it is constant true).
Stmt MakeUpdate(const TensorDef& def, const std::vector<PrimExpr>& point, const PrimExpr& body,
                const PrimExpr& where) {
  if (def.reduce_kind == ReduceKind::kNone) return make<tir::BufferStoreNode>(def.buffer, body, point);
  PrimExpr acc = make<ir::BufferLoadNode>(def.buffer, point);
  Stmt store = make<tir::BufferStoreNode>(def.buffer, ReduceCombine(def.reduce_kind, acc, body), point);
  if (ir::IsConstInt(where, 1)) return store;
  return make<tir::IfThenElseNode>(where, store, Stmt());
}

Stmt PrimFuncBuilder::LowerCompute(const Tensor& tensor) {
  const TensorDef& def = *tensor.get();
  std::vector<IterVar> axes = def.axes;
  axes.insert(axes.end(), def.reduce_axes.begin(), def.reduce_axes.end());

  std::vector<Var> loop_vars;
  std::vector<IterVar> iter_vars;
  std::unordered_map<const ir::VarNode*, PrimExpr> to_iter;
  VarSet iter_var_set;
  for (const IterVar& axis : axes) {
    loop_vars.push_back(ir::MakeVar(axis->var->name_hint, axis->var->dtype));
    Var iter = ir::MakeVar("v_" + axis->var->name_hint, axis->var->dtype);
    iter_vars.push_back(make<tir::IterVarNode>(iter, axis->dom, axis->iter_kind));
    to_iter[axis->var.get()] = iter;
    iter_var_set.insert(iter.get());
  }
  auto substitute = [&](const PrimExpr& expr) -> PrimExpr {
    if (!expr.defined()) return expr;
    return ir::Substitute(expr, [&](const Var& var) {
      auto it = to_iter.find(var.get());
      return it == to_iter.end() ? PrimExpr() : it->second;
    });
  };
  PrimExpr body = substitute(def.body);
  PrimExpr where = substitute(def.reduce_where);

  std::vector<PrimExpr> point;
  std::vector<Range> point_region;
  for (size_t d = 0; d < def.axes.size(); ++d) {
    point.push_back(iter_vars[d]->var);
    point_region.push_back(Range{iter_vars[d]->var, ir::MakeInt(1, iter_vars[d]->var->dtype)});
  }

  auto* block = new tir::BlockNode();
  block->name = UniqueBlockName(def.name);
  block->iter_vars = iter_vars;
  block->reads = ReadRegions({body, where}, iter_var_set);
  block->writes = {make<tir::BufferRegionNode>(def.buffer, point_region)};
  if (def.reduce_kind != ReduceKind::kNone) {
    block->init = make<tir::BufferStoreNode>(def.buffer, ReduceIdentity(def.reduce_kind, body->dtype), point);
  }
  block->body = MakeUpdate(def, point, body, where);

  auto* realize = new tir::BlockRealizeNode();
  realize->iter_values.assign(loop_vars.begin(), loop_vars.end());
  realize->predicate = ir::MakeBool(true);
  realize->block = tir::Block(block);
  Stmt nest(realize);
  for (size_t i = axes.size(); i-- > 0;) nest = MakeFor(loop_vars[i], axes[i]->dom, nest);
  return nest;
}

Range WholeDimension(const PrimExpr& extent) { return Range{ir::MakeInt(0, extent->dtype), extent}; }

BufferRegion WholeBuffer(const Buffer& buffer) {
  std::vector<Range> region;
  for (const PrimExpr& extent : buffer->shape) region.push_back(WholeDimension(extent));
  return make<tir::BufferRegionNode>(buffer, std::move(region));
}

Stmt PrimFuncBuilder::LowerExtern(const Tensor& tensor) {
  const TensorDef& def = *tensor.get();
  auto* block = new tir::BlockNode();
  block->name = UniqueBlockName(def.name);
  for (const Tensor& input : def.inputs) block->reads.push_back(WholeBuffer(input.buffer()));
  block->writes = {WholeBuffer(def.buffer)};
  block->body = def.extern_body;
  auto* realize = new tir::BlockRealizeNode();
  realize->predicate = ir::MakeBool(true);
  realize->block = tir::Block(block);
  return Stmt(realize);
}

// ---------------------------------------------------------------- function

PrimFunc PrimFuncBuilder::Build() {
  CheckArgumentList();
  CollectTensors();
  CheckPlaceholders();
  DefineSymbolicVars();

  auto* func = new tir::PrimFuncNode();
  MakeParams(func);
  auto* root = new tir::BlockNode();
  root->name = "root";
  std::vector<Stmt> nests;
  for (const Tensor& tensor : tensors_) {
    if (tensor.is_placeholder()) continue;
    nests.push_back(tensor.get()->extern_body.defined() ? LowerExtern(tensor) : LowerCompute(tensor));
    if (!Contains(args_, tensor)) root->alloc_buffers.push_back(tensor.buffer());
  }
  root->body = tir::MakeSeq(std::move(nests));
  auto* root_realize = new tir::BlockRealizeNode();
  root_realize->predicate = ir::MakeBool(true);
  root_realize->block = tir::Block(root);
  func->body = Stmt(root_realize);
  func->attrs = make<ir::DictNode>(std::vector<ir::DictNode::Item>{{"tir.noalias", ir::MakeBool(true)}});
  func->is_private = true;  // no global symbol: the caller names it in a module
  return PrimFunc(func);
}

}  // namespace

PrimFunc CreatePrimFunc(const std::vector<Tensor>& args, const std::vector<Var>& scalar_params) {
  return PrimFuncBuilder(args, scalar_params).Build();
}

}  // namespace rlx::te
