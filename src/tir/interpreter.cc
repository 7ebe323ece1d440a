// The PrimFunc interpreter: host tensors, argument binding and the public
// entry points (semantics in rlx/tir/interpreter.h; the compiler in
// interpreter_compile.h).
//
// Binding follows TVM's argument binder: scalar parameters first, then each
// buffer_map buffer in parameter order. For each buffer dimension (and
// declared stride or element offset) there is a rule: a bare variable not
// yet defined takes the actual value; an expression whose variables are all
// defined is checked; an expression with undefined variables waits until
// every buffer has been seen (a later bare appearance may define them), and
// is an error if they are still undefined then.
#include "rlx/tir/interpreter.h"

#include <fmt/format.h>

#include <optional>

#include "rlx/ir/functor.h"
#include "tir/interpreter_compile.h"

namespace rlx::tir {

// ---------------------------------------------------------------- HostTensor

HostTensor::HostTensor(DataType dtype, std::vector<int64_t> shape) : dtype(dtype), shape(std::move(shape)) {
  RLX_ICHECK(interp::LoadFnFor(dtype) != nullptr) << "HostTensor: unsupported dtype " << dtype.ToString();
  data.assign(static_cast<size_t>(num_elements() * dtype.bytes()), 0);
}

HostTensor HostTensor::FromDoubles(DataType dtype, std::vector<int64_t> shape, const std::vector<double>& values) {
  HostTensor tensor(dtype, std::move(shape));
  RLX_ICHECK(static_cast<int64_t>(values.size()) == tensor.num_elements())
      << "HostTensor: " << values.size() << " values for " << tensor.num_elements() << " elements";
  for (size_t i = 0; i < values.size(); ++i) tensor.SetFloat(static_cast<int64_t>(i), values[i]);
  return tensor;
}

int64_t HostTensor::num_elements() const {
  int64_t count = 1;
  for (int64_t dim : shape) {
    RLX_ICHECK(dim >= 0) << "HostTensor: negative dimension " << dim;
    count *= dim;
  }
  return count;
}

int64_t HostTensor::FlatIndex(const std::vector<int64_t>& index) const {
  RLX_ICHECK(index.size() == shape.size()) << "HostTensor: " << index.size() << " indices for rank " << shape.size();
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    RLX_ICHECK(index[d] >= 0 && index[d] < shape[d]) << "HostTensor: index " << index[d] << " out of range "
                                                      << shape[d] << " in dimension " << d;
    flat = flat * shape[d] + index[d];
  }
  return flat;
}

namespace {
uint8_t* ElementPtr(HostTensor& tensor, int64_t flat) {
  RLX_ICHECK(flat >= 0 && flat < tensor.num_elements()) << "HostTensor: element " << flat << " out of range";
  return tensor.data.data() + flat * tensor.dtype.bytes();
}
const uint8_t* ElementPtr(const HostTensor& tensor, int64_t flat) {
  return ElementPtr(const_cast<HostTensor&>(tensor), flat);
}
}  // namespace

double HostTensor::GetFloat(int64_t flat) const {
  return interp::ToDouble(interp::LoadFnFor(dtype)(ElementPtr(*this, flat)), dtype);
}

void HostTensor::SetFloat(int64_t flat, double value) {
  interp::Value converted = interp::Convert(interp::Value::Float(value), DataType::Float(64), dtype);
  interp::StoreFnFor(dtype)(ElementPtr(*this, flat), converted);
}

int64_t HostTensor::GetInt(int64_t flat) const {
  RLX_ICHECK(!dtype.is_floating()) << "HostTensor::GetInt on " << dtype.ToString();
  interp::Value value = interp::LoadFnFor(dtype)(ElementPtr(*this, flat));
  return value.tag == interp::Value::Tag::kBool ? value.b : value.i;
}

void HostTensor::SetInt(int64_t flat, int64_t value) {
  RLX_ICHECK(!dtype.is_floating()) << "HostTensor::SetInt on " << dtype.ToString();
  interp::Value converted = interp::Convert(interp::Value::Int(value), DataType::Int64(), dtype);
  interp::StoreFnFor(dtype)(ElementPtr(*this, flat), converted);
}

void HostTensor::Fill(double value) {
  for (int64_t i = 0; i < num_elements(); ++i) SetFloat(i, value);
}

std::vector<double> HostTensor::ToDoubles() const {
  std::vector<double> values(static_cast<size_t>(num_elements()));
  for (size_t i = 0; i < values.size(); ++i) values[i] = GetFloat(static_cast<int64_t>(i));
  return values;
}

void HostTensor::CheckElementSize(size_t size) const {
  RLX_ICHECK(static_cast<int>(size) == dtype.bytes())
      << "HostTensor: element type of " << size << " bytes for dtype " << dtype.ToString();
}

// ---------------------------------------------------------------- compiled function

namespace interp {

class CompiledFunc {
 public:
  explicit CompiledFunc(const PrimFunc& func);
  void Run(const std::vector<ArgValue>& args) const;

 private:
  // How one dimension, stride or offset of a parameter buffer binds.
  struct Rule {
    enum class Kind { kDim, kStride, kOffset };
    Kind kind;
    size_t index;        // the dimension or stride
    std::string text;
    std::string what;    // "dimension 1", "stride 0", "element offset"
    int bare_slot = -1;  // the expression is this variable alone
    std::vector<std::pair<int, std::string>> vars;  // slots and names it uses
    ExprFn eval;
  };
  struct ScalarParam {
    std::string name;
    int slot;
    DataType dtype;
  };
  struct BufferParam {
    std::string name;
    DataType dtype;
    std::vector<PrimExpr> shape;
    int slot;
    int storage_slot;
    std::vector<Rule> rules;
  };
  struct Param {
    std::optional<ScalarParam> scalar;
    std::optional<BufferParam> buffer;
  };
  struct Binding;  // the state of one Run's binding

  Rule MakeRule(Compiler& compiler, const PrimExpr& expr, Rule::Kind kind, size_t index);
  void BindScalar(const ScalarParam& param, const ArgValue& arg, size_t index, Binding& binding) const;
  void BindBuffer(const BufferParam& param, const ArgValue& arg, size_t index, Binding& binding) const;
  void ApplyRule(const BufferParam& param, const Rule& rule, int64_t actual, Binding& binding, bool last_chance) const;

  std::vector<Param> params_;
  StmtFn body_;
  int num_vars_ = 0, num_storages_ = 0, num_buffers_ = 0;
  Span span_;
};

struct CompiledFunc::Binding {
  Frame& frame;
  std::vector<char> defined;
  std::vector<std::string> origin;  // where each defined variable got its value
  struct Pending {
    const BufferParam* param;
    const Rule* rule;
    int64_t actual;
  };
  std::vector<Pending> pending;
};

CompiledFunc::Rule CompiledFunc::MakeRule(Compiler& compiler, const PrimExpr& expr, Rule::Kind kind, size_t index) {
  Rule rule;
  rule.kind = kind;
  rule.index = index;
  rule.text = ir::ToString(expr);
  rule.what = kind == Rule::Kind::kDim      ? fmt::format("dimension {}", index)
              : kind == Rule::Kind::kStride ? fmt::format("stride {}", index)
                                            : "element offset";
  if (const auto* var = expr.as<ir::VarNode>()) rule.bare_slot = compiler.VarSlot(var);
  ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
    const auto* var = sub.as<ir::VarNode>();
    if (!var) return;
    int slot = compiler.VarSlot(var);
    for (const auto& [seen, name] : rule.vars) {
      if (seen == slot) return;
    }
    rule.vars.emplace_back(slot, var->name_hint);
  });
  rule.eval = compiler.CompileExpr(expr);
  return rule;
}

CompiledFunc::CompiledFunc(const PrimFunc& func) : span_(func->span) {
  Compiler compiler(func->span);
  for (const Var& param : func->params) {
    if (func->BufferFor(param).defined()) continue;
    if (param->dtype.is_handle() || !LoadFnFor(param->dtype)) {
      compiler.Fail(fmt::format("parameter {} of type {} is not supported", param->name_hint, param->dtype.ToString()));
    }
    compiler.DefineVar(param.get());
  }
  // Every variable of a buffer_map shape is defined by binding (or binding fails).
  for (const auto& [param, buffer] : func->buffer_map) {
    std::vector<PrimExpr> exprs = buffer->shape;
    exprs.insert(exprs.end(), buffer->strides.begin(), buffer->strides.end());
    if (buffer->elem_offset.defined()) exprs.push_back(buffer->elem_offset);
    for (const PrimExpr& expr : exprs) {
      ir::PostOrderVisit(expr, [&](const PrimExpr& sub) {
        const auto* var = sub.as<ir::VarNode>();
        if (var && !compiler.IsVarDefined(var)) compiler.DefineVar(var);
      });
    }
  }
  for (const Var& param : func->params) {
    Param entry;
    Buffer buffer = func->BufferFor(param);
    if (!buffer.defined()) {
      entry.scalar = ScalarParam{param->name_hint, compiler.VarSlot(param.get()), param->dtype};
      params_.push_back(std::move(entry));
      continue;
    }
    if (!LoadFnFor(buffer->dtype)) {
      compiler.Fail(fmt::format("buffer {} has unsupported dtype {}", buffer->name, buffer->dtype.ToString()));
    }
    BufferParam bp{buffer->name, buffer->dtype, buffer->shape, compiler.BufferSlot(buffer.get()),
                   compiler.StorageSlot(buffer->data.get()), {}};
    for (size_t d = 0; d < buffer->shape.size(); ++d) {
      bp.rules.push_back(MakeRule(compiler, buffer->shape[d], Rule::Kind::kDim, d));
    }
    for (size_t d = 0; d < buffer->strides.size(); ++d) {
      bp.rules.push_back(MakeRule(compiler, buffer->strides[d], Rule::Kind::kStride, d));
    }
    if (buffer->elem_offset.defined()) bp.rules.push_back(MakeRule(compiler, buffer->elem_offset, Rule::Kind::kOffset, 0));
    compiler.DefineStorage(buffer->data.get());
    compiler.DeclareBufferInScope(buffer.get());
    entry.buffer = std::move(bp);
    params_.push_back(std::move(entry));
  }
  if (!func->body.defined()) compiler.Fail("the function has no body");
  body_ = compiler.CompileStmt(func->body);
  num_vars_ = compiler.num_vars();
  num_storages_ = compiler.num_storages();
  num_buffers_ = compiler.num_buffers();
}

void CompiledFunc::BindScalar(const ScalarParam& param, const ArgValue& arg, size_t index, Binding& binding) const {
  auto fail = [&](const std::string& message) {
    ThrowError(span_, fmt::format("argument {} ({}): {}", index, param.name, message));
  };
  if (arg.is_tensor()) fail(fmt::format("expected a {} scalar, got a tensor", param.dtype.ToString()));
  Value value;
  if (param.dtype.is_floating()) {
    double v = arg.is_int() ? static_cast<double>(arg.int_value()) : arg.float_value();
    value = Value::Float(RoundFloat(v, param.dtype));
  } else {
    if (arg.is_float()) fail(fmt::format("expected a {} scalar, got the float {}", param.dtype.ToString(), arg.float_value()));
    int64_t v = arg.int_value();
    if (WrapInt(v, param.dtype) != v) fail(fmt::format("{} does not fit in {}", v, param.dtype.ToString()));
    value = param.dtype.is_bool() ? Value::Bool(v != 0) : Value::Int(v);
  }
  binding.frame.vars[param.slot] = value;
  binding.defined[param.slot] = 1;
  binding.origin[param.slot] = "parameter " + param.name;
}

void CompiledFunc::BindBuffer(const BufferParam& param, const ArgValue& arg, size_t index, Binding& binding) const {
  auto fail = [&](const std::string& message) {
    ThrowError(span_, fmt::format("argument {} (buffer {}): {}", index, param.name, message));
  };
  HostTensor* tensor = arg.tensor();
  if (!arg.is_tensor()) fail("expected a tensor, got a scalar");
  if (tensor == nullptr) fail("expected a tensor, got a null pointer");
  if (tensor->dtype != param.dtype) {
    fail(fmt::format("expected dtype {}, got {}", param.dtype.ToString(), tensor->dtype.ToString()));
  }
  if (tensor->shape.size() != param.shape.size()) {
    fail(fmt::format("expected {} dimensions {}, got {} dimensions {}", param.shape.size(),
                     ir::ShapeToString(param.shape), tensor->shape.size(), ShapeText(tensor->shape)));
  }
  int64_t elements = NumElements(tensor->shape, "argument " + param.name, span_);
  if (static_cast<int64_t>(tensor->data.size()) != elements * param.dtype.bytes()) {
    fail(fmt::format("the tensor holds {} bytes, but shape {} needs {}", tensor->data.size(), ShapeText(tensor->shape),
                     elements * param.dtype.bytes()));
  }
  Frame& f = binding.frame;
  f.storages[param.storage_slot] = Storage{tensor->data.data(), static_cast<int64_t>(tensor->data.size())};
  BufferState& state = f.buffers[param.slot];
  state.base = tensor->data.data();
  state.capacity = elements;
  state.elem_offset = 0;
  state.shape = tensor->shape;
  state.strides.assign(tensor->shape.size(), 1);
  for (size_t d = tensor->shape.size(); d-- > 1;) state.strides[d - 1] = state.strides[d] * tensor->shape[d];
  for (const Rule& rule : param.rules) {
    int64_t actual = rule.kind == Rule::Kind::kDim      ? tensor->shape[rule.index]
                     : rule.kind == Rule::Kind::kStride ? state.strides[rule.index]
                                                        : 0;
    ApplyRule(param, rule, actual, binding, /*last_chance=*/false);
  }
}

void CompiledFunc::ApplyRule(const BufferParam& param, const Rule& rule, int64_t actual, Binding& binding,
                             bool last_chance) const {
  Frame& f = binding.frame;
  if (rule.bare_slot >= 0 && !binding.defined[rule.bare_slot]) {
    f.vars[rule.bare_slot] = Value::Int(actual);
    binding.defined[rule.bare_slot] = 1;
    binding.origin[rule.bare_slot] = fmt::format("buffer {} {}", param.name, rule.what);
    return;
  }
  for (const auto& [slot, name] : rule.vars) {
    if (binding.defined[slot]) continue;
    if (!last_chance) {
      binding.pending.push_back({&param, &rule, actual});
      return;
    }
    ThrowError(span_, fmt::format("buffer {}: cannot check {} ({}): no parameter and no bare buffer "
                                  "dimension defines {}",
                                  param.name, rule.what, rule.text, name));
  }
  int64_t expected = rule.eval(f).i;
  if (expected == actual) return;
  std::string why;
  if (rule.bare_slot >= 0) {
    why = fmt::format(" ({}, from {})", rule.text, binding.origin[rule.bare_slot]);
  } else if (!rule.vars.empty()) {
    std::vector<std::string> values;
    for (const auto& [slot, name] : rule.vars) values.push_back(fmt::format("{} = {}", name, f.vars[slot].i));
    why = fmt::format(" ({} with {})", rule.text, fmt::join(values, ", "));
  }
  ThrowError(span_, fmt::format("buffer {}: expected {} to be {}{}, got {}", param.name, rule.what, expected, why, actual));
}

void CompiledFunc::Run(const std::vector<ArgValue>& args) const {
  if (args.size() != params_.size()) {
    ThrowError(span_, fmt::format("the function takes {} arguments, got {}", params_.size(), args.size()));
  }
  Frame frame;
  frame.vars.resize(num_vars_);
  frame.storages.resize(num_storages_);
  frame.buffers.resize(num_buffers_);
  Binding binding{frame, std::vector<char>(num_vars_, 0), std::vector<std::string>(num_vars_), {}};
  for (size_t i = 0; i < params_.size(); ++i) {
    if (params_[i].scalar) BindScalar(*params_[i].scalar, args[i], i, binding);
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    if (params_[i].buffer) BindBuffer(*params_[i].buffer, args[i], i, binding);
  }
  std::vector<Binding::Pending> pending = std::move(binding.pending);
  for (const Binding::Pending& item : pending) ApplyRule(*item.param, *item.rule, item.actual, binding, true);
  body_(frame);
}

}  // namespace interp

// ---------------------------------------------------------------- public API

Interpreter::Interpreter(const PrimFunc& func) : compiled_(std::make_unique<interp::CompiledFunc>(func)) {}
Interpreter::~Interpreter() = default;
void Interpreter::Run(const std::vector<ArgValue>& args) const { compiled_->Run(args); }

void RunPrimFunc(const PrimFunc& func, const std::vector<ArgValue>& args) { Interpreter(func).Run(args); }

}  // namespace rlx::tir
