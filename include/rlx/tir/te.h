// Tensor expressions: describe a tensor computation as math, get a TensorIR
// PrimFunc (after TVM's te.placeholder / te.compute / te.sum /
// te.create_prim_func).
//
//   Var n = ir::MakeVar("n");
//   te::Tensor a = te::Placeholder({n, ir::MakeInt(4)}, DataType::Float32(), "A");
//   te::Tensor w = te::Placeholder({ir::MakeInt(4), ir::MakeInt(3)}, DataType::Float32(), "W");
//   IterVar k = te::ReduceAxis(ir::MakeInt(4), "k");
//   te::Tensor c = te::Compute({n, ir::MakeInt(3)}, [&](const std::vector<Var>& i) {
//     return te::Sum(a(i[0], k->var) * w(k->var, i[1]), {k});
//   }, "matmul");
//   PrimFunc f = te::CreatePrimFunc({a, w, c});   // inputs, then outputs
//
// gives TVM's block form (as text/printer.h prints it):
//
//   @T.prim_func(private=True)
//   def f(var_A: T.handle, W: T.Buffer((T.int64(4), T.int64(3)), "float32"), var_matmul: T.handle):
//       T.func_attr({"tir.noalias": T.bool(True)})
//       n = T.int64()
//       A = T.match_buffer(var_A, (n, T.int64(4)))
//       matmul = T.match_buffer(var_matmul, (n, T.int64(3)))
//       # with T.block("root"):
//       for ax0, ax1, k in T.grid(n, T.int64(3), T.int64(4)):
//           with T.block("matmul"):
//               v_ax0, v_ax1, v_k = T.axis.remap("SSR", [ax0, ax1, k])
//               T.reads(A[v_ax0, v_k], W[v_k, v_ax1])
//               T.writes(matmul[v_ax0, v_ax1])
//               with T.init():
//                   matmul[v_ax0, v_ax1] = T.float32(0.0)
//               matmul[v_ax0, v_ax1] = matmul[v_ax0, v_ax1] + A[v_ax0, v_k] * W[v_k, v_ax1]
//
// Design:
// - A Tensor is a shared handle to its definition: a placeholder (an input
//   buffer) or a compute (spatial axes, optional reduce axes, the element
//   expression). Every Tensor owns one Buffer from its creation; reading
//   `t(i, j)` is a BufferLoad of that buffer, so compute bodies are ordinary
//   PrimExprs and need no TE-specific expression node.
// - Dependencies are traced: while Compute runs `fcompute`, every tensor read
//   through operator() is recorded as an input of the tensor being defined
//   (a thread-local trace, nested computes included). Build the body inside
//   `fcompute` (helper functions called from it are fine); a BufferLoad made
//   some other way reads a buffer CreatePrimFunc knows nothing about and is
//   reported as an error there.
// - A reduction (Sum, MaxReduce, MinReduce, ProdReduce) must be the whole
//   compute body, as in TVM. Until Compute takes it apart it travels as an
//   internal Call ("te.sum", ...) that never reaches a PrimFunc.
// - CreatePrimFunc makes one block per computed tensor, in dependency order,
//   with fresh loop variables (named after the axes: `ax0`, `ax1`, or the
//   names given, and the reduce axes' names) and block iteration variables
//   (`v_` + the loop name), under a root block that allocates the
//   intermediate tensors. Read regions are exact points where the index is a
//   pure expression of the block's iteration variables and the function's
//   symbolic sizes (TVM's output), the hull when several such accesses differ
//   by constants (`A[v_i]`, `A[v_i + 1]` -> `A[v_i:v_i + 2]`), and the whole
//   dimension otherwise (data-dependent indices).
//
// User mistakes (indexing with the wrong number of indices, a reduction
// nested inside an expression, a placeholder missing from the arguments, a
// symbolic size no argument defines) are CompileErrors.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "rlx/ir/expr.h"
#include "rlx/tir/function.h"
#include "rlx/tir/stmt.h"

namespace rlx::te {

using ir::Buffer;
using ir::PrimExpr;
using ir::Var;
using tir::IterVar;
using tir::PrimFunc;

struct TensorDef;  // the definition behind a Tensor (src/tir/te.cc)

// A tensor of a TE program: a handle with identity semantics.
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<const TensorDef> def) : def_(std::move(def)) {}

  bool defined() const { return def_ != nullptr; }
  const std::string& name() const;
  DataType dtype() const;
  const std::vector<PrimExpr>& shape() const;
  int ndim() const { return static_cast<int>(shape().size()); }
  // The buffer this tensor is stored in, in every PrimFunc made from it.
  const Buffer& buffer() const;
  bool is_placeholder() const;
  // The tensors a compute reads, in first-read order; empty for placeholders.
  const std::vector<Tensor>& inputs() const;
  const TensorDef* get() const { return def_.get(); }

  // The element at `indices` (a BufferLoad). Integer literals take the
  // dimension's dtype. The number of indices must equal ndim().
  PrimExpr operator()(std::vector<PrimExpr> indices) const;
  PrimExpr operator()(const std::vector<Var>& indices) const;
  template <typename... Index>
  PrimExpr operator()(const Index&... indices) const {
    return (*this)(std::vector<PrimExpr>{ToIndex(indices)...});
  }

  bool operator==(const Tensor& other) const { return def_ == other.def_; }
  bool operator!=(const Tensor& other) const { return def_ != other.def_; }

 private:
  static PrimExpr ToIndex(const PrimExpr& index) { return index; }
  template <typename Int, typename = std::enable_if_t<std::is_integral_v<Int>>>
  static PrimExpr ToIndex(Int index) {
    return ir::MakeInt(static_cast<int64_t>(index));
  }

  std::shared_ptr<const TensorDef> def_;
};

// An input tensor. `shape` may hold symbolic sizes (ir::Var or expressions
// of them).
Tensor Placeholder(std::vector<PrimExpr> shape, DataType dtype, std::string name);

// The element function: receives one index variable per output dimension.
using FCompute = std::function<PrimExpr(const std::vector<Var>& indices)>;

// A computed tensor of `shape` whose element at `indices` is
// `fcompute(indices)`; its dtype is the body's. `axis_names` name the index
// variables (default "ax0", "ax1", ..., as TVM's C++ compute).
Tensor Compute(std::vector<PrimExpr> shape, const FCompute& fcompute, std::string name = "compute",
               std::vector<std::string> axis_names = {});

// A reduction axis ranging over [0, extent) or over `dom`.
IterVar ReduceAxis(PrimExpr extent, std::string name = "k");
IterVar ReduceAxis(tir::Range dom, std::string name = "k");

// Reductions of `source` over `axes`, usable only as a whole compute body.
// `where` (optional, bool) restricts the reduction to the points where it
// holds. Identities: 0 for Sum, 1 for ProdReduce, the dtype's lowest finite
// value for MaxReduce and its highest for MinReduce (TVM's min_value /
// max_value).
PrimExpr Sum(PrimExpr source, std::vector<IterVar> axes, PrimExpr where = PrimExpr());
PrimExpr MaxReduce(PrimExpr source, std::vector<IterVar> axes, PrimExpr where = PrimExpr());
PrimExpr MinReduce(PrimExpr source, std::vector<IterVar> axes, PrimExpr where = PrimExpr());
PrimExpr ProdReduce(PrimExpr source, std::vector<IterVar> axes, PrimExpr where = PrimExpr());

// A tensor filled by a hand-written statement (TVM's te.extern), for
// computations a compute cannot express, such as a scan that carries a
// running value along an axis. `body` receives the buffers of `inputs` (in
// order) and the new tensor's buffer, and returns the statement that writes
// the latter, reading only those buffers and the symbolic sizes of their
// shapes (it makes its own loops), and scratch buffers it allocates itself
// (an Allocate around a DeclBuffer of the buffer). CreatePrimFunc places it in an opaque
// block (no iteration variables) that reads every input and writes the
// output, each as a whole.
using FExternBody = std::function<tir::Stmt(const std::vector<Buffer>& inputs, const Buffer& output)>;
Tensor Extern(std::vector<PrimExpr> shape, DataType dtype, std::vector<Tensor> inputs, const FExternBody& body,
              std::string name);

// `T.if_then_else(cond, t, f)`: only the chosen arm is evaluated (use it to
// guard loads that would be out of bounds); ir::select evaluates both.
PrimExpr IfThenElse(PrimExpr cond, PrimExpr then_value, PrimExpr else_value);

// The lowest and highest finite values of a scalar dtype, as constants.
PrimExpr MinValue(DataType dtype);
PrimExpr MaxValue(DataType dtype);

// A PrimFunc computing `args` (inputs then outputs, as TVM's
// create_prim_func). Each argument becomes a handle parameter bound in the
// buffer map to its tensor's buffer; `scalar_params` follow as scalar
// parameters (for sizes no argument's shape defines). Every compute
// reachable from the arguments gets a block; computes that are not
// arguments become buffers allocated by the root block. The function is
// private (no global symbol) with {"tir.noalias": True}.
PrimFunc CreatePrimFunc(const std::vector<Tensor>& args, const std::vector<Var>& scalar_params = {});

}  // namespace rlx::te
