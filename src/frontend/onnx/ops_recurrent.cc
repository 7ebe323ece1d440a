// Converters of ONNX's recurrent layers RNN, GRU and LSTM, keeping the
// sequence length symbolic.
//
// Shapes (layout 0; layout 1 swaps the batch and sequence axes of X, Y,
// initial_h/c and Y_h/c, handled by permute_dims around the same graph):
//   X (S, B, I), W (D, G*H, I), R (D, G*H, H), B (D, 2*G*H),
//   sequence_lens (B), initial_h / initial_c (D, B, H), P (D, 3*H);
//   Y (S, D, B, H), Y_h / Y_c (D, B, H)
// with D = 2 for direction "bidirectional" (direction 0 forward, 1
// reverse) and G = 1 (RNN), 3 (GRU: z, r, h) or 4 (LSTM: i, o, f, c).
//
// The graph:
//   xw = matmul(expand_dims(X, 1), permute_dims(W, [0, 2, 1]))   (S, D, B, G*H)
//        + reshape(Wb + Rb, (D, 1, G*H))
// is the input projection of every time step at once (ordinary Relax ops,
// so they get the usual matmul paths). For GRU with linear_before_reset the
// h gate's Rb part stays out of the sum and goes to the kernel as rbh (D, H),
// since it is scaled by r there.
//
// The recurrence is one TIR kernel (a te::Extern statement, as cumsum),
// called with R.call_tir on xw, R_t = permute_dims(R, [0, 2, 1]) (D, H,
// G*H) and the optional inputs. Its single output Z has S + 2 rows of
// (D, B, H):
//   Z[0:S]        Y
//   Z[S]          the running hidden state; after the loop, Y_h
//   Z[S + 1]      LSTM: the running cell state, then Y_c;
//                 GRU (linear_before_reset = 0): scratch for r * H_{t-1}
// and a local buffer acc (G*H) holds one step's recurrent products. For
// each direction d (a C++ loop: at most two statements), the kernel sets
// the state rows from initial_h / initial_c (or zeros), then
//   for t in [0, S):                  (serial: carries the state)
//     for b in [0, B):
//       if t < len[b]:                (len = sequence_lens, or S)
//         time = reverse ? len[b] - 1 - t : t   (len[b] clamped to S)
//         acc = 0
//         for k in [0, H): for row in [0, G*H):      (contiguous rows)
//           acc[row] += Z[S, d, b, k] * R_t[d, k, row]
//         the cell's update per hidden unit j into Y[time] (and the cell
//         state), from xw[time, d, b, g*H + j] + acc[g*H + j]
//         Z[S] = Y[time]              (after every j is computed)
//       else:
//         Y[t] = 0                    (positions past the sequence's end)
// GRU without linear_before_reset first takes the z and r products, stores
// r * H_{t-1} in Z[S + 1] and then takes the h gate's product from that
// row. The graph slices Y, Y_h and Y_c out of Z. The time loop's extent is
// the symbolic S: nothing is unrolled over time.
//
// Activations (ONNX's list: Relu, Tanh, Sigmoid, Affine, LeakyRelu,
// ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus) are
// TIR expressions; `activation_alpha` / `activation_beta` are consumed in
// order by the activations that take them; missing values take the usual
// defaults (LeakyRelu 0.01, HardSigmoid 0.2 / 0.5, ThresholdedRelu and Elu
// 1.0, Affine 1 / 0, ScaledTanh 1 / 1). `clip` bounds every gate's input
// to its activation. LSTM's input_forget = 1 and attributes ONNX does not
// define for the op are import errors naming the attribute.
#include <algorithm>
#include <cctype>
#include <set>

#include "frontend/onnx/converter.h"
#include "rlx/arith/analyzer.h"
#include "rlx/graph/struct_info.h"
#include "rlx/op/legalize.h"
#include "rlx/op/manipulate.h"
#include "rlx/op/op.h"
#include "rlx/tir/te.h"

namespace rlx::frontend::onnx_impl {
namespace {

using Out = std::vector<OnnxValue>;
using ir::Buffer;
using ir::Var;
using tir::Stmt;

enum class CellKind { kRnn, kGru, kLstm };

struct Activation {
  std::string name;  // ONNX's spelling
  double alpha = 0.0;
  double beta = 0.0;
};

// The cell's static description, shared by the graph part and the kernel.
struct RecurrentSpec {
  CellKind kind = CellKind::kRnn;
  int64_t hidden = 0;
  int64_t num_gates = 1;
  int64_t num_directions = 1;
  std::vector<bool> reverse;                         // per direction
  std::vector<std::vector<Activation>> activations;  // per direction: f, g, h
  std::optional<double> clip;
  bool linear_before_reset = false;
  bool has_rbh = false, has_initial_h = false, has_initial_c = false, has_peephole = false, has_lens = false;
};

const char* KindName(CellKind kind) {
  switch (kind) {
    case CellKind::kRnn: return "rnn";
    case CellKind::kGru: return "gru";
    case CellKind::kLstm: return "lstm";
  }
  return "rnn";
}

// ---------------------------------------------------------------------------
// Activations.

struct ActivationInfo {
  const char* name;
  bool takes_alpha, takes_beta;
  double default_alpha, default_beta;
};

const std::vector<ActivationInfo>& KnownActivations() {
  static const std::vector<ActivationInfo> known = {
      {"Relu", false, false, 0, 0},         {"Tanh", false, false, 0, 0},
      {"Sigmoid", false, false, 0, 0},      {"Affine", true, true, 1.0, 0.0},
      {"LeakyRelu", true, false, 0.01, 0},  {"ThresholdedRelu", true, false, 1.0, 0},
      {"ScaledTanh", true, true, 1.0, 1.0}, {"HardSigmoid", true, true, 0.2, 0.5},
      {"Elu", true, false, 1.0, 0},         {"Softsign", false, false, 0, 0},
      {"Softplus", false, false, 0, 0}};
  return known;
}

const ActivationInfo* FindActivation(const std::string& name) {
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
  };
  for (const ActivationInfo& info : KnownActivations()) {
    if (lower(info.name) == lower(name)) return &info;
  }
  return nullptr;
}

PrimExpr ApplyActivation(const Activation& act, const PrimExpr& x) {
  DataType dtype = x->dtype;
  auto c = [&dtype](double v) -> PrimExpr { return ir::MakeFloat(v, dtype); };
  const std::string& n = act.name;
  if (n == "Relu") return ir::max(x, c(0));
  if (n == "Tanh") return ir::call(dtype, "tanh", {x});
  if (n == "Sigmoid") return ir::call(dtype, "sigmoid", {x});
  if (n == "Affine") return c(act.alpha) * x + c(act.beta);
  if (n == "LeakyRelu") return ir::select(ir::ge(x, c(0)), x, c(act.alpha) * x);
  if (n == "ThresholdedRelu") return ir::select(ir::ge(x, c(act.alpha)), x, c(0));
  if (n == "ScaledTanh") return c(act.alpha) * ir::call(dtype, "tanh", {c(act.beta) * x});
  if (n == "HardSigmoid") return ir::max(c(0), ir::min(c(1), c(act.alpha) * x + c(act.beta)));
  if (n == "Elu") return ir::select(ir::ge(x, c(0)), x, c(act.alpha) * (ir::call(dtype, "exp", {x}) - c(1)));
  if (n == "Softsign") return ir::truncdiv(x, c(1) + ir::call(dtype, "fabs", {x}));
  RLX_ICHECK(n == "Softplus") << "unknown activation " << n;
  return ir::call(dtype, "log", {c(1) + ir::call(dtype, "exp", {x})});
}

// The activations of every direction, from the attributes or the defaults.
std::vector<std::vector<Activation>> ReadActivations(ConvertContext& ctx, CellKind kind, int64_t num_directions) {
  std::vector<std::string> defaults;
  if (kind == CellKind::kRnn) defaults = {"Tanh"};
  if (kind == CellKind::kGru) defaults = {"Sigmoid", "Tanh"};
  if (kind == CellKind::kLstm) defaults = {"Sigmoid", "Tanh", "Tanh"};
  size_t per_direction = defaults.size();
  std::vector<std::string> names;
  for (int64_t d = 0; d < num_directions; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
  for (const auto& attr : ctx.node().attribute()) {
    if (attr.name() != "activations") continue;
    names.assign(attr.strings().begin(), attr.strings().end());
    if (names.size() != per_direction * static_cast<size_t>(num_directions)) {
      ctx.Fail("attribute 'activations' must list " + std::to_string(per_direction * static_cast<size_t>(num_directions)) +
               " functions, got " + std::to_string(names.size()));
    }
  }
  std::vector<double> alphas = ctx.AttrFloats("activation_alpha").value_or(std::vector<double>{});
  std::vector<double> betas = ctx.AttrFloats("activation_beta").value_or(std::vector<double>{});
  size_t next_alpha = 0, next_beta = 0;
  std::vector<std::vector<Activation>> result(static_cast<size_t>(num_directions));
  for (size_t i = 0; i < names.size(); ++i) {
    const ActivationInfo* info = FindActivation(names[i]);
    if (info == nullptr) ctx.Fail("attribute 'activations': unsupported activation '" + names[i] + "'");
    Activation act{info->name, info->default_alpha, info->default_beta};
    if (info->takes_alpha && next_alpha < alphas.size()) act.alpha = alphas[next_alpha++];
    if (info->takes_beta && next_beta < betas.size()) act.beta = betas[next_beta++];
    result[i / per_direction].push_back(act);
  }
  return result;
}

// ---------------------------------------------------------------------------
// The recurrence kernel (see the design note).

Stmt Loop(const Var& var, const PrimExpr& extent, Stmt body) {
  auto* loop = new tir::ForNode();
  loop->loop_var = var;
  loop->min = ir::MakeInt(0);
  loop->extent = extent;
  loop->body = std::move(body);
  return Stmt(loop);
}

// Indices are simplified (`S + 2 + 0` -> `S + 2`) so the kernel reads well.
std::vector<PrimExpr> SimplifiedIndices(std::vector<PrimExpr> indices) {
  arith::Analyzer analyzer;
  for (PrimExpr& index : indices) index = analyzer.Simplify(index);
  return indices;
}

PrimExpr Load(const Buffer& buffer, std::vector<PrimExpr> indices) {
  return make<ir::BufferLoadNode>(buffer, SimplifiedIndices(std::move(indices)));
}

Stmt Store(const Buffer& buffer, PrimExpr value, std::vector<PrimExpr> indices) {
  return make<tir::BufferStoreNode>(buffer, std::move(value), SimplifiedIndices(std::move(indices)));
}

class RecurrenceKernel {
 public:
  // `inputs`: xw, R_t, then (when present) rbh, initial_h, initial_c, P, lens.
  RecurrenceKernel(const RecurrentSpec& spec, const std::vector<Buffer>& inputs, Buffer out)
      : spec_(spec), out_(std::move(out)) {
    size_t next = 0;
    xw_ = inputs[next++];
    r_t_ = inputs[next++];
    if (spec.has_rbh) rbh_ = inputs[next++];
    if (spec.has_initial_h) initial_h_ = inputs[next++];
    if (spec.has_initial_c) initial_c_ = inputs[next++];
    if (spec.has_peephole) peephole_ = inputs[next++];
    if (spec.has_lens) lens_ = inputs[next++];
    seq_ = xw_->shape[0];
    batch_ = xw_->shape[2];
    hidden_ = ir::MakeInt(spec.hidden);
    dtype_ = out_->dtype;
    acc_ = ir::MakeBuffer("acc", {ir::MakeInt(spec.num_gates * spec.hidden)}, dtype_);
  }

  // The directions' statements inside the allocation of `acc`.
  Stmt Build() {
    std::vector<Stmt> directions;
    for (int64_t d = 0; d < spec_.num_directions; ++d) directions.push_back(Direction(d));
    Stmt body = make<tir::DeclBufferNode>(acc_, tir::MakeSeq(directions));
    auto* alloc = new tir::AllocateNode();
    alloc->buffer_var = acc_->data;
    alloc->dtype = dtype_;
    alloc->extents = acc_->shape;
    alloc->condition = ir::MakeBool(true);
    alloc->body = std::move(body);
    return Stmt(alloc);
  }

 private:
  PrimExpr Int(int64_t v) const { return ir::MakeInt(v); }
  PrimExpr Zero() const { return ir::MakeFloat(0.0, dtype_); }
  PrimExpr StateRow() const { return seq_; }
  PrimExpr CellRow() const { return seq_ + Int(1); }
  // acc[gate * H + j]: the recurrent product of gate `gate` at unit j.
  PrimExpr Acc(int64_t gate, const PrimExpr& j) const { return Load(acc_, {Int(gate * spec_.hidden) + j}); }
  Stmt SetAcc(int64_t gate, const PrimExpr& j, PrimExpr v) const {
    return Store(acc_, std::move(v), {Int(gate * spec_.hidden) + j});
  }
  PrimExpr Z(const PrimExpr& row, const PrimExpr& b, const PrimExpr& j) const { return Load(out_, {row, Int(d_), b, j}); }
  Stmt SetZ(const PrimExpr& row, const PrimExpr& b, const PrimExpr& j, PrimExpr v) const {
    return Store(out_, std::move(v), {row, Int(d_), b, j});
  }
  const Activation& Act(size_t i) const { return spec_.activations[static_cast<size_t>(d_)][i]; }
  PrimExpr Clip(PrimExpr x) const {
    if (!spec_.clip) return x;
    return ir::max(ir::min(x, ir::MakeFloat(*spec_.clip, dtype_)), ir::MakeFloat(-*spec_.clip, dtype_));
  }
  PrimExpr Length(const PrimExpr& b) const {
    // A length above S is taken as S (the kernel never writes past Y).
    return spec_.has_lens ? ir::min(ir::cast(DataType::Int64(), Load(lens_, {b})), seq_) : seq_;
  }

  Stmt Direction(int64_t d) {
    d_ = d;
    Var bi = ir::MakeVar("b"), j = ir::MakeVar("j");
    std::vector<Stmt> init{SetZ(StateRow(), bi, j, spec_.has_initial_h ? Load(initial_h_, {Int(d), bi, j}) : Zero())};
    if (spec_.kind == CellKind::kLstm) {
      init.push_back(SetZ(CellRow(), bi, j, spec_.has_initial_c ? Load(initial_c_, {Int(d), bi, j}) : Zero()));
    }
    Stmt init_loops = Loop(bi, batch_, Loop(j, hidden_, tir::MakeSeq(init)));
    Var b = ir::MakeVar("b"), t = ir::MakeVar("t");
    PrimExpr length = Length(b);
    PrimExpr time = spec_.reverse[static_cast<size_t>(d)] ? length - Int(1) - t : PrimExpr(t);
    Var jz = ir::MakeVar("j");
    Stmt zero_y = Loop(jz, hidden_, SetZ(t, b, jz, Zero()));
    // Without sequence_lens every step is inside every sequence.
    Stmt step = spec_.has_lens ? make<tir::IfThenElseNode>(ir::lt(t, length), Step(b, time), zero_y) : Step(b, time);
    return tir::MakeSeq({init_loops, Loop(t, seq_, Loop(b, batch_, step))});
  }

  // acc[row] = sum_k Z[source_row, d, b, k] * R_t[d, k, row] for the rows
  // of gates [first, last): k outside, so the inner loop runs along
  // contiguous rows of R_t and acc (a local buffer, distinct from Z).
  Stmt RecurrentProduct(const Var& b, int64_t first, int64_t last, const PrimExpr& source_row) const {
    Var row0 = ir::MakeVar("row"), row = ir::MakeVar("row"), k = ir::MakeVar("k");
    PrimExpr width = Int((last - first) * spec_.hidden);
    Stmt clear = Loop(row0, width, SetAcc(first, row0, Zero()));
    PrimExpr term = Z(source_row, b, k) * Load(r_t_, {Int(d_), k, Int(first * spec_.hidden) + row});
    Stmt accumulate = Loop(k, hidden_, Loop(row, width, SetAcc(first, row, Acc(first, row) + term)));
    return tir::MakeSeq({clear, accumulate});
  }

  // xw[time, d, b, gate * H + j] + acc_gate[j].
  PrimExpr GateInput(const Var& b, const PrimExpr& time, int64_t gate, const PrimExpr& j) const {
    return Load(xw_, {time, Int(d_), b, Int(gate * spec_.hidden) + j}) + Acc(gate, j);
  }

  Stmt Step(const Var& b, const PrimExpr& time) {
    std::vector<Stmt> body;
    Var j = ir::MakeVar("j");
    switch (spec_.kind) {
      case CellKind::kRnn:
        body.push_back(RecurrentProduct(b, 0, 1, StateRow()));
        body.push_back(Loop(j, hidden_, SetZ(time, b, j, ApplyActivation(Act(0), Clip(GateInput(b, time, 0, j))))));
        break;
      case CellKind::kGru: GruStep(b, time, body); break;
      case CellKind::kLstm: LstmStep(b, time, body); break;
    }
    Var jc = ir::MakeVar("j");
    body.push_back(Loop(jc, hidden_, SetZ(StateRow(), b, jc, Z(time, b, jc))));
    return tir::MakeSeq(body);
  }

  // Gates z (0), r (1), h (2).
  void GruStep(const Var& b, const PrimExpr& time, std::vector<Stmt>& body) {
    Var j = ir::MakeVar("j");
    auto r_gate = [&](const PrimExpr& jj) { return ApplyActivation(Act(0), Clip(GateInput(b, time, 1, jj))); };
    PrimExpr h_input;
    if (spec_.linear_before_reset) {
      body.push_back(RecurrentProduct(b, 0, 3, StateRow()));
      PrimExpr rh = Acc(2, j);
      if (spec_.has_rbh) rh = rh + Load(rbh_, {Int(d_), j});
      h_input = Load(xw_, {time, Int(d_), b, Int(2 * spec_.hidden) + j}) + r_gate(j) * rh;
    } else {
      body.push_back(RecurrentProduct(b, 0, 2, StateRow()));
      Var jr = ir::MakeVar("j");
      body.push_back(Loop(jr, hidden_, SetZ(CellRow(), b, jr, r_gate(jr) * Z(StateRow(), b, jr))));
      body.push_back(RecurrentProduct(b, 2, 3, CellRow()));
      h_input = GateInput(b, time, 2, j);
    }
    // z goes to its accumulator row (no longer needed) so it is computed once.
    Stmt set_z = SetAcc(0, j, ApplyActivation(Act(0), Clip(GateInput(b, time, 0, j))));
    PrimExpr z = Acc(0, j);
    PrimExpr candidate = ApplyActivation(Act(1), Clip(h_input));
    PrimExpr one = ir::MakeFloat(1.0, dtype_);
    Stmt set_hidden = SetZ(time, b, j, (one - z) * candidate + z * Z(StateRow(), b, j));
    body.push_back(Loop(j, hidden_, tir::MakeSeq({set_z, set_hidden})));
  }

  // Gates i (0), o (1), f (2), c (3); P = [Pi, Po, Pf].
  void LstmStep(const Var& b, const PrimExpr& time, std::vector<Stmt>& body) {
    body.push_back(RecurrentProduct(b, 0, 4, StateRow()));
    Var j = ir::MakeVar("j");
    auto peephole = [&](int64_t which, const PrimExpr& cell) -> PrimExpr {
      if (!spec_.has_peephole) return Zero();
      return Load(peephole_, {Int(d_), Int(which * spec_.hidden) + j}) * cell;
    };
    PrimExpr c_prev = Z(CellRow(), b, j);
    PrimExpr i = ApplyActivation(Act(0), Clip(GateInput(b, time, 0, j) + peephole(0, c_prev)));
    PrimExpr f = ApplyActivation(Act(0), Clip(GateInput(b, time, 2, j) + peephole(2, c_prev)));
    PrimExpr c = ApplyActivation(Act(1), Clip(GateInput(b, time, 3, j)));
    Stmt set_cell = SetZ(CellRow(), b, j, f * c_prev + i * c);
    PrimExpr c_new = Z(CellRow(), b, j);
    PrimExpr o = ApplyActivation(Act(0), Clip(GateInput(b, time, 1, j) + peephole(1, c_new)));
    Stmt set_hidden = SetZ(time, b, j, o * ApplyActivation(Act(2), c_new));
    body.push_back(Loop(j, hidden_, tir::MakeSeq({set_cell, set_hidden})));
  }

  const RecurrentSpec& spec_;
  Buffer out_, xw_, r_t_, acc_, rbh_, initial_h_, initial_c_, peephole_, lens_;
  PrimExpr seq_, batch_, hidden_;
  DataType dtype_;
  int64_t d_ = 0;
};

// ---------------------------------------------------------------------------
// The graph part.

int64_t NumGates(CellKind kind) { return kind == CellKind::kRnn ? 1 : kind == CellKind::kGru ? 3 : 4; }

void CheckAttributes(ConvertContext& ctx, CellKind kind) {
  std::set<std::string> allowed = {"activation_alpha", "activation_beta", "activations", "clip",
                                   "direction",        "hidden_size",     "layout",      "output_sequence"};
  if (kind == CellKind::kGru) allowed.insert("linear_before_reset");
  if (kind == CellKind::kLstm) allowed.insert("input_forget");
  for (const auto& attr : ctx.node().attribute()) {
    if (!allowed.count(attr.name())) ctx.Fail("attribute '" + attr.name() + "' is not supported");
  }
  if (ctx.AttrInt("input_forget", 0) != 0) ctx.Fail("attribute 'input_forget' = 1 is not supported");
}

// A static dim of input `index` (a CompileError otherwise).
int64_t StaticDim(ConvertContext& ctx, size_t index, size_t axis, const std::string& what) {
  std::vector<PrimExpr> dims = ctx.InputShape(index);
  std::optional<int64_t> value = axis < dims.size() ? AsConstInt(dims[axis]) : std::nullopt;
  if (!value) ctx.Fail(what + " must have a static size");
  return *value;
}

// A TIR-side dim for a graph dim: the constant, or a fresh variable.
PrimExpr KernelDim(const PrimExpr& graph_dim, const std::string& name) {
  if (auto value = AsConstInt(graph_dim)) return ir::MakeInt(*value);
  return ir::MakeVar(name);
}

Expr SliceAxis0(ConvertContext& ctx, const Expr& x, const PrimExpr& begin, const PrimExpr& end) {
  return ctx.Emit(op::strided_slice(x, {0}, {begin}, {ctx.Simplify(end)}));
}

Expr SliceAxis1(ConvertContext& ctx, const Expr& x, int64_t begin, int64_t end) {
  return ctx.Emit(op::strided_slice(x, {1}, {Int64(begin)}, {Int64(end)}));
}

struct KernelInput {
  Expr graph;
  std::vector<PrimExpr> kernel_shape;
  DataType dtype;
  std::string name;
};

Out ConvertRecurrent(ConvertContext& ctx, CellKind kind) {
  CheckAttributes(ctx, kind);
  RecurrentSpec spec;
  spec.kind = kind;
  spec.num_gates = NumGates(kind);
  int64_t layout = ctx.opset() >= 14 ? ctx.AttrInt("layout", 0) : 0;
  if (layout != 0 && layout != 1) ctx.Fail("attribute 'layout' must be 0 or 1, got " + std::to_string(layout));
  std::string direction = ctx.AttrString("direction", "forward");
  if (direction == "forward") spec.reverse = {false};
  else if (direction == "reverse") spec.reverse = {true};
  else if (direction == "bidirectional") spec.reverse = {false, true};
  else ctx.Fail("attribute 'direction': unknown value '" + direction + "'");
  spec.num_directions = static_cast<int64_t>(spec.reverse.size());
  if (ctx.HasAttr("clip")) spec.clip = ctx.AttrFloat("clip", 0.0);
  spec.linear_before_reset = kind == CellKind::kGru && ctx.AttrInt("linear_before_reset", 0) != 0;
  spec.activations = ReadActivations(ctx, kind, spec.num_directions);

  Expr x = ctx.TensorInput(0);
  DataType dtype = DTypeOf(x);
  if (!dtype.is_floating()) ctx.Fail("X must be a floating-point tensor, got " + dtype.ToString());
  if (RankOf(x) != 3) ctx.Fail("X must have rank 3");
  if (layout == 1) x = ctx.Emit(op::permute_dims(x, std::vector<int64_t>{1, 0, 2}));
  std::vector<PrimExpr> x_dims = *ShapeOf(x);
  PrimExpr seq = x_dims[0], batch = x_dims[1];
  int64_t num_dirs = spec.num_directions, gates = spec.num_gates;
  if (ctx.InputRank(1) != 3 || ctx.InputRank(2) != 3) ctx.Fail("W and R must have rank 3");
  if (StaticDim(ctx, 2, 0, "R") != num_dirs) ctx.Fail("R's first dim must be num_directions");
  spec.hidden = StaticDim(ctx, 2, 2, "R");
  if (ctx.HasAttr("hidden_size") && ctx.AttrInt("hidden_size", 0) != spec.hidden) {
    ctx.Fail("attribute 'hidden_size' does not match R's shape");
  }
  int64_t hidden = spec.hidden, gate_width = gates * hidden;
  if (StaticDim(ctx, 2, 1, "R") != gate_width) ctx.Fail("R's second dim must be " + std::to_string(gate_width));
  if (StaticDim(ctx, 1, 0, "W") != num_dirs || StaticDim(ctx, 1, 1, "W") != gate_width) {
    ctx.Fail("W must have the shape (" + std::to_string(num_dirs) + ", " + std::to_string(gate_width) + ", input_size)");
  }
  if (ctx.HasInput(3) && (ctx.InputRank(3) != 2 || StaticDim(ctx, 3, 0, "B") != num_dirs ||
                          StaticDim(ctx, 3, 1, "B") != 2 * gate_width)) {
    ctx.Fail("B must have the shape (" + std::to_string(num_dirs) + ", " + std::to_string(2 * gate_width) + ")");
  }

  // xw = X W^T + biases: (S, D, B, G*H).
  Expr w_t = ctx.Emit(op::permute_dims(ctx.TensorInput(1), std::vector<int64_t>{0, 2, 1}));
  Expr xw = ctx.Emit(op::matmul(ctx.Emit(op::expand_dims(x, {1})), w_t));
  std::optional<Expr> rbh;
  if (ctx.HasInput(3)) {
    Expr bias = ctx.TensorInput(3);
    Expr wb = SliceAxis1(ctx, bias, 0, gate_width), rb = SliceAxis1(ctx, bias, gate_width, 2 * gate_width);
    Expr total = ctx.Emit(op::add(wb, rb));
    if (spec.linear_before_reset) {
      rbh = SliceAxis1(ctx, rb, 2 * hidden, 3 * hidden);
      Expr parts = make<graph::TupleNode>(std::vector<Expr>{SliceAxis1(ctx, total, 0, 2 * hidden),
                                                            SliceAxis1(ctx, wb, 2 * hidden, 3 * hidden)});
      total = ctx.Emit(op::concat(parts, 1));
    }
    Expr shaped = ctx.Emit(op::reshape(total, ShapeExprOf({Int64(num_dirs), Int64(1), Int64(gate_width)})));
    xw = ctx.Emit(op::add(xw, shaped));
  }

  PrimExpr k_seq = KernelDim(seq, "seq_length"), k_batch = KernelDim(batch, "batch_size");
  auto state_input = [&](size_t index) {
    Expr value = ctx.TensorInput(index);
    if (layout == 1) value = ctx.Emit(op::permute_dims(value, std::vector<int64_t>{1, 0, 2}));
    return value;
  };
  std::vector<KernelInput> inputs;
  inputs.push_back({xw, {k_seq, ir::MakeInt(num_dirs), k_batch, ir::MakeInt(gate_width)}, dtype, "xw"});
  Expr r_t = ctx.Emit(op::permute_dims(ctx.TensorInput(2), std::vector<int64_t>{0, 2, 1}));
  inputs.push_back({r_t, {ir::MakeInt(num_dirs), ir::MakeInt(hidden), ir::MakeInt(gate_width)}, dtype, "R_t"});
  if (rbh) {
    spec.has_rbh = true;
    inputs.push_back({*rbh, {ir::MakeInt(num_dirs), ir::MakeInt(hidden)}, dtype, "rbh"});
  }
  std::vector<PrimExpr> state_shape{ir::MakeInt(num_dirs), k_batch, ir::MakeInt(hidden)};
  if (ctx.HasInput(5)) {
    spec.has_initial_h = true;
    inputs.push_back({state_input(5), state_shape, dtype, "initial_h"});
  }
  if (kind == CellKind::kLstm && ctx.HasInput(6)) {
    spec.has_initial_c = true;
    inputs.push_back({state_input(6), state_shape, dtype, "initial_c"});
  }
  if (kind == CellKind::kLstm && ctx.HasInput(7)) {
    spec.has_peephole = true;
    inputs.push_back({ctx.TensorInput(7), {ir::MakeInt(num_dirs), ir::MakeInt(3 * hidden)}, dtype, "P"});
  }
  if (ctx.HasInput(4)) {
    spec.has_lens = true;
    Expr lens = ctx.TensorInput(4);
    if (DTypeOf(lens) != DataType::Int32()) lens = ctx.Emit(op::astype(lens, DataType::Int32()));
    inputs.push_back({lens, {k_batch}, DataType::Int32(), "sequence_lens"});
  }

  std::vector<te::Tensor> placeholders;
  std::vector<Expr> args;
  for (const KernelInput& in : inputs) {
    placeholders.push_back(te::Placeholder(in.kernel_shape, in.dtype, in.name));
    args.push_back(in.graph);
  }
  int64_t extra_rows = 2;
  te::Tensor states = te::Extern(
      {ctx.Simplify(k_seq + ir::MakeInt(extra_rows)), ir::MakeInt(num_dirs), k_batch, ir::MakeInt(hidden)}, dtype, placeholders,
      [&spec](const std::vector<Buffer>& in, const Buffer& out) { return RecurrenceKernel(spec, in, out).Build(); },
      std::string(KindName(kind)) + "_states");
  std::vector<te::Tensor> func_args = placeholders;
  func_args.push_back(states);
  graph::GlobalVar gv = op::AddPrimFuncShared(ctx.builder(), te::CreatePrimFunc(func_args), KindName(kind));
  graph::StructInfo out_sinfo =
      graph::TensorSInfo({ctx.Simplify(seq + Int64(extra_rows)), Int64(num_dirs), batch, Int64(hidden)}, dtype);
  Expr z = ctx.Emit(graph::MakeCall("relax.call_tir", {gv, make<graph::TupleNode>(args)}, nullptr, {out_sinfo}));

  auto wanted = [&ctx](size_t i) { return i < ctx.NumOutputs() && !ctx.node().output(static_cast<int>(i)).empty(); };
  Out out(ctx.NumOutputs());
  if (wanted(0)) {
    Expr y = SliceAxis0(ctx, z, Int64(0), seq);
    if (layout == 1) y = ctx.Emit(op::permute_dims(y, std::vector<int64_t>{2, 0, 1, 3}));
    out[0] = OnnxValue::Tensor(y);
  }
  auto final_state = [&](int64_t row) {
    PrimExpr begin = ctx.Simplify(seq + Int64(row));
    Expr state = ctx.Emit(op::squeeze(SliceAxis0(ctx, z, begin, begin + Int64(1)), std::vector<int64_t>{0}));
    if (layout == 1) state = ctx.Emit(op::permute_dims(state, std::vector<int64_t>{1, 0, 2}));
    return OnnxValue::Tensor(state);
  };
  if (wanted(1)) out[1] = final_state(0);
  if (wanted(2)) {
    if (kind != CellKind::kLstm) ctx.Fail("has no output #2");
    out[2] = final_state(1);
  }
  return out;
}

}  // namespace

void RegisterRecurrentConverters(ConverterTable& table) {
  for (int since : {1, 7, 14}) {
    table["RNN"].push_back({since, [](ConvertContext& ctx) { return ConvertRecurrent(ctx, CellKind::kRnn); }});
    table["GRU"].push_back({since, [](ConvertContext& ctx) { return ConvertRecurrent(ctx, CellKind::kGru); }});
    table["LSTM"].push_back({since, [](ConvertContext& ctx) { return ConvertRecurrent(ctx, CellKind::kLstm); }});
  }
}

}  // namespace rlx::frontend::onnx_impl
