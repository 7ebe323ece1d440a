// ImportOnnx: ModelProto -> IRModule with the Relax function `main`.
//
// Steps:
//   1. Parse the file with protobuf (ParseFromString; a failure, e.g. a
//      truncated file, is a CompileError naming it) and find the default
//      domain's opset.
//   2. Walk every node once and collect the op types no converter handles at
//      that opset (or from another domain); report all of them, with their
//      node names, in one CompileError before converting anything.
//   3. Make the parameters: each graph input that is not an initializer (nor
//      bound to a value by OnnxImportOptions::input_values) becomes a Var with Tensor struct info; a dim_value is an integer, a
//      dim_param a symbolic variable of that name (one variable per name),
//      an unknown dim a fresh `dN`; --input-shape entries override them.
//      Initializers become host values (constants), or extra parameters.
//   4. Convert the nodes in order (ONNX graphs are topologically sorted)
//      inside one dataflow block, each converter receiving its inputs as
//      tracked values (converter.h) and producing one value per output.
//   5. The graph outputs, materialized as tensors, are the block's outputs;
//      `main` returns one tensor or a tuple.
#include "rlx/frontend/onnx.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_map>

#include "frontend/onnx/converter.h"
#include "rlx/graph/struct_info_analysis.h"
#include "rlx/op/op.h"
#include "rlx/support/diagnostic.h"
#include "rlx/support/logging.h"

namespace rlx::frontend {

using namespace onnx_impl;

namespace onnx_impl {

const ConverterTable& GetConverterTable() {
  static const ConverterTable table = [] {
    ConverterTable t;
    RegisterElementwiseConverters(t);
    RegisterShapeConverters(t);
    RegisterManipulateConverters(t);
    RegisterNNConverters(t);
    RegisterReduceConverters(t);
    RegisterCompositeConverters(t);
    RegisterRecurrentConverters(t);
    for (auto& [name, entries] : t) {
      std::sort(entries.begin(), entries.end(),
                [](const ConverterEntry& a, const ConverterEntry& b) { return a.since_version < b.since_version; });
    }
    return t;
  }();
  return table;
}

const Converter* FindConverter(const std::string& op_type, int opset) {
  const ConverterTable& table = GetConverterTable();
  auto it = table.find(op_type);
  if (it == table.end()) return nullptr;
  const Converter* found = nullptr;
  for (const ConverterEntry& entry : it->second) {
    if (entry.since_version <= opset) found = &entry.convert;
  }
  return found;
}

}  // namespace onnx_impl

std::string SanitizeOnnxName(const std::string& name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "_" + out;
  return out;
}

void ParseInputShapeOption(const std::string& text, OnnxImportOptions& options) {
  size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0) {
    ThrowError(Span{}, "--input-shape '" + text + "': expected NAME=DIM,DIM,... (e.g. x=1,3,h,w)");
  }
  std::vector<std::string> dims;
  std::stringstream stream(text.substr(eq + 1));
  std::string dim;
  while (std::getline(stream, dim, ',')) {
    bool is_int = !dim.empty() && std::all_of(dim.begin(), dim.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    bool is_name = !dim.empty() && (std::isalpha(static_cast<unsigned char>(dim[0])) || dim[0] == '_') &&
                   std::all_of(dim.begin(), dim.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!is_int && !is_name) {
      ThrowError(Span{}, "--input-shape '" + text + "': dimension '" + dim +
                             "' is neither a non-negative integer nor an identifier");
    }
    dims.push_back(dim);
  }
  options.input_shapes[text.substr(0, eq)] = dims;
}

namespace {

class OnnxImporter {
 public:
  OnnxImporter(const onnx::ModelProto& model, std::string name, std::string model_dir,
               const OnnxImportOptions& options)
      : model_(model), name_(std::move(name)), model_dir_(std::move(model_dir)), options_(options) {}

  ir::IRModule Run() {
    opset_ = FindOpset();
    CheckSupported();
    const onnx::GraphProto& graph = model_.graph();
    std::set<std::string> initializer_names;
    for (const auto& init : graph.initializer()) initializer_names.insert(init.name());
    CheckInputShapeOptions(graph, initializer_names);
    std::vector<graph::Var> params;
    for (const auto& input : graph.input()) {
      if (initializer_names.count(input.name())) continue;
      auto bound = options_.input_values.find(input.name());
      if (bound != options_.input_values.end()) {
        values_[input.name()] = OnnxValue::Host(bound->second);
        continue;
      }
      graph::Var var = MakeInputVar(input);
      params.push_back(var);
      values_[input.name()] = OnnxValue::Tensor(var);
    }
    size_t num_input = params.size();
    for (const auto& init : graph.initializer()) {
      graph::TensorDataPtr data = TensorFromProto(init, model_dir_, name_);
      if (options_.keep_params_in_input) {
        std::vector<PrimExpr> dims;
        for (int64_t d : data->shape) dims.push_back(Int64(d));
        graph::Var var = graph::MakeVar(SanitizeOnnxName(init.name()), graph::TensorSInfo(dims, data->dtype));
        params.push_back(var);
        values_[init.name()] = OnnxValue::Tensor(var);
      } else {
        values_[init.name()] = OnnxValue::Host(data);
      }
    }
    graph::Function func = BuildFunction(graph, params, num_input);
    // main, then the PrimFuncs converters added (the recurrence kernels).
    std::vector<ir::IRModuleNode::Entry> functions{{"main", func}};
    functions.insert(functions.end(), kernels_.begin(), kernels_.end());
    return make<ir::IRModuleNode>(std::move(functions), ir::Dict());
  }

 private:
  [[noreturn]] void Fail(const std::string& message) const { ThrowError(Span{}, name_ + ": " + message); }

  int FindOpset() const {
    for (const auto& opset : model_.opset_import()) {
      if (opset.domain().empty() || opset.domain() == "ai.onnx") return static_cast<int>(opset.version());
    }
    return 0;  // no default-domain opset: every node is unsupported
  }

  void CheckSupported() const {
    std::map<std::string, std::vector<std::string>> unsupported;
    int index = 0;
    for (const auto& node : model_.graph().node()) {
      std::string op = node.domain().empty() || node.domain() == "ai.onnx" ? node.op_type()
                                                                            : node.domain() + "." + node.op_type();
      bool known = (node.domain().empty() || node.domain() == "ai.onnx") && FindConverter(node.op_type(), opset_);
      if (!known) {
        unsupported[op].push_back(node.name().empty() ? "#" + std::to_string(index) : node.name());
      }
      ++index;
    }
    if (unsupported.empty()) return;
    std::string message = "unsupported ONNX operator" + std::string(unsupported.size() > 1 ? "s" : "") +
                          " (opset " + std::to_string(opset_) + "):";
    for (const auto& [op, nodes] : unsupported) {
      message += "\n  " + op + " (node" + (nodes.size() > 1 ? "s " : " ");
      for (size_t i = 0; i < nodes.size(); ++i) message += (i ? ", " : "") + nodes[i];
      message += ")";
    }
    Fail(message);
  }

  void CheckInputShapeOptions(const onnx::GraphProto& graph, const std::set<std::string>& initializers) const {
    for (const auto& [name, dims] : options_.input_shapes) {
      bool found = false;
      for (const auto& input : graph.input()) {
        if (input.name() == name && !initializers.count(name)) found = true;
      }
      if (!found) {
        std::string inputs;
        for (const auto& input : graph.input()) {
          if (!initializers.count(input.name())) inputs += (inputs.empty() ? "" : ", ") + input.name();
        }
        Fail("--input-shape names '" + name + "', which is not a graph input (inputs: " + inputs + ")");
      }
    }
  }

  ir::Var SymbolicVar(const std::string& name) {
    auto it = sym_vars_.find(name);
    if (it != sym_vars_.end()) return it->second;
    ir::Var var = ir::MakeVar(name);
    sym_vars_[name] = var;
    return var;
  }

  std::string FreshDimName() {
    while (true) {
      std::string name = "d" + std::to_string(fresh_dim_counter_++);
      if (!sym_vars_.count(name)) return name;
    }
  }

  graph::Var MakeInputVar(const onnx::ValueInfoProto& input) {
    const auto& type = input.type();
    if (!type.has_tensor_type()) Fail("input '" + input.name() + "' is not a tensor");
    const auto& tensor = type.tensor_type();
    DataType dtype = DataTypeFromOnnx(tensor.elem_type(), name_ + ": input '" + input.name() + "'");
    std::string var_name = SanitizeOnnxName(input.name());
    auto option = options_.input_shapes.find(input.name());
    if (!tensor.has_shape()) {
      if (option == options_.input_shapes.end()) return graph::MakeVar(var_name, graph::TensorSInfo(dtype, -1));
    }
    std::vector<PrimExpr> dims;
    int rank = tensor.shape().dim_size();
    if (option != options_.input_shapes.end() && tensor.has_shape() && static_cast<int>(option->second.size()) != rank) {
      Fail("--input-shape gives " + std::to_string(option->second.size()) + " dimensions for input '" + input.name() +
           "' of rank " + std::to_string(rank));
    }
    if (option != options_.input_shapes.end()) rank = static_cast<int>(option->second.size());
    for (int i = 0; i < rank; ++i) {
      std::optional<int64_t> known;
      if (tensor.has_shape() && tensor.shape().dim(i).has_dim_value()) known = tensor.shape().dim(i).dim_value();
      if (option != options_.input_shapes.end()) {
        const std::string& spec = option->second[static_cast<size_t>(i)];
        if (std::isdigit(static_cast<unsigned char>(spec[0]))) {
          int64_t pinned = std::stoll(spec);
          if (known && *known != pinned) {
            Fail("--input-shape pins dimension " + std::to_string(i) + " of input '" + input.name() + "' to " + spec +
                 ", but the model says " + std::to_string(*known));
          }
          dims.push_back(Int64(pinned));
        } else {
          if (known) {
            Fail("--input-shape names dimension " + std::to_string(i) + " of input '" + input.name() + "' '" + spec +
                 "', but the model fixes it to " + std::to_string(*known));
          }
          dims.push_back(SymbolicVar(spec));
        }
        continue;
      }
      if (known) {
        dims.push_back(Int64(*known));
      } else if (tensor.shape().dim(i).has_dim_param() && !tensor.shape().dim(i).dim_param().empty()) {
        dims.push_back(SymbolicVar(SanitizeOnnxName(tensor.shape().dim(i).dim_param())));
      } else {
        dims.push_back(SymbolicVar(FreshDimName()));
      }
    }
    return graph::MakeVar(var_name, graph::TensorSInfo(dims, dtype));
  }

  std::vector<OnnxValue> NodeInputs(const onnx::NodeProto& node) const {
    std::vector<OnnxValue> inputs;
    for (const std::string& input : node.input()) {
      if (input.empty()) {
        inputs.emplace_back();
        continue;
      }
      auto it = values_.find(input);
      if (it == values_.end()) {
        Fail("node '" + node.name() + "' (" + node.op_type() + ") reads '" + input + "', which no node defines");
      }
      inputs.push_back(it->second);
    }
    return inputs;
  }

  void ConvertNode(graph::BlockBuilder& builder, const onnx::NodeProto& node) {
    ConvertContext ctx(builder, node, opset_, NodeInputs(node), name_, model_dir_);
    ctx.SetFreshVarMaker([this] { return SymbolicVar(FreshDimName()); });
    const Converter* convert = FindConverter(node.op_type(), opset_);
    RLX_ICHECK(convert != nullptr) << "no converter for " << node.op_type();
    std::vector<OnnxValue> outputs = (*convert)(ctx);
    for (int i = 0; i < node.output_size(); ++i) {
      if (node.output(i).empty()) continue;
      if (static_cast<size_t>(i) >= outputs.size() || outputs[static_cast<size_t>(i)].IsNone()) {
        ctx.Fail("output #" + std::to_string(i) + " ('" + node.output(i) + "') is not supported");
      }
      values_[node.output(i)] = outputs[static_cast<size_t>(i)];
    }
  }

  graph::Function BuildFunction(const onnx::GraphProto& graph, const std::vector<graph::Var>& params,
                                size_t num_input) {
    graph::BlockBuilder builder;
    builder.BeginScope(params);
    builder.BeginDataflowBlock();
    for (const auto& node : graph.node()) ConvertNode(builder, node);
    std::vector<graph::Expr> outputs;
    for (const auto& output : graph.output()) {
      auto it = values_.find(output.name());
      if (it == values_.end()) Fail("graph output '" + output.name() + "' is not computed by any node");
      std::vector<OnnxValue> none;
      onnx::NodeProto dummy;
      dummy.set_name(output.name());
      dummy.set_op_type("output");
      ConvertContext ctx(builder, dummy, opset_, {it->second}, name_, model_dir_);
      outputs.push_back(ctx.TensorInput(0));
    }
    graph::Expr result = outputs.size() == 1 ? outputs[0] : graph::Expr(make<graph::TupleNode>(outputs));
    graph::Var out = builder.EmitOutput(result, "gv");
    graph::BindingBlock block = builder.EndBlock();
    builder.EndScope();
    if (ir::IRModule added = builder.GetContextModule(); added.defined()) kernels_ = added->functions;
    // The result may mention dims a match_cast defined inside the body
    // (data-dependent shapes): the function's return keeps only what the
    // parameters define.
    std::set<const ir::VarNode*> defined;
    for (const graph::Var& param : params) {
      for (const ir::Var& var : graph::DefinableTIRVarsInStructInfo(graph::GetStructInfo(param))) defined.insert(var.get());
    }
    graph::StructInfo ret = graph::EraseToWellDefined(graph::GetStructInfo(out),
                                                      [&](const ir::Var& var) { return defined.count(var.get()) > 0; });
    auto body = make<graph::SeqExprNode>(std::vector<graph::BindingBlock>{block}, out);
    graph::UpdateStructInfo(body, ret);
    ir::Dict attrs = ir::DictWith(ir::Dict(), "global_symbol", ir::MakeString("main"));
    if (options_.keep_params_in_input) {
      attrs = ir::DictWith(attrs, "num_input", ir::MakeInt(static_cast<int64_t>(num_input)));
    }
    return make<graph::FunctionNode>(params, body, ret, true, attrs);
  }

  const onnx::ModelProto& model_;
  std::string name_;
  std::string model_dir_;
  const OnnxImportOptions& options_;
  int opset_ = 1;
  std::unordered_map<std::string, OnnxValue> values_;
  std::vector<ir::IRModuleNode::Entry> kernels_;  // PrimFuncs the converters added
  std::map<std::string, ir::Var> sym_vars_;
  int fresh_dim_counter_ = 0;
};

}  // namespace

ir::IRModule ImportOnnxFromBytes(const std::string& bytes, const std::string& name, const std::string& model_dir,
                                 const OnnxImportOptions& options) {
  op::RegisterAllOps();
  onnx::ModelProto model;
  if (bytes.empty() || !model.ParseFromString(bytes)) {
    ThrowError(Span{}, name + ": not a valid ONNX model (the protobuf message is malformed or truncated)");
  }
  if (!model.has_graph()) ThrowError(Span{}, name + ": the ONNX model has no graph");
  return OnnxImporter(model, name, model_dir, options).Run();
}

graph::TensorDataPtr ReadOnnxTensorFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) ThrowError(Span{}, path + ": cannot open the tensor file");
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes)) ThrowError(Span{}, path + ": not a valid serialized ONNX TensorProto");
  std::string dir = std::filesystem::path(path).parent_path().string();
  return TensorFromProto(proto, dir.empty() ? "." : dir, path);
}

ir::IRModule ImportOnnx(const std::string& path, const OnnxImportOptions& options) {
  std::ifstream file(path, std::ios::binary);
  if (!file) ThrowError(Span{}, path + ": cannot open the ONNX model");
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::string dir = std::filesystem::path(path).parent_path().string();
  return ImportOnnxFromBytes(bytes, path, dir.empty() ? "." : dir, options);
}

}  // namespace rlx::frontend
