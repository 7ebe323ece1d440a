// Test helper: builds small ONNX models with the protobuf API and writes
// them to temporary files for rlx::frontend::ImportOnnx.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <string>
#include <variant>
#include <vector>

namespace rlx::frontend::testing {

// A dimension: an integer, a dim_param name, or "" for an unknown one.
using Dim = std::variant<int64_t, std::string>;

class OnnxModelBuilder {
 public:
  explicit OnnxModelBuilder(int opset = 13) {
    model_.set_ir_version(8);
    auto* op = model_.add_opset_import();
    op->set_domain("");
    op->set_version(opset);
    model_.mutable_graph()->set_name("test");
  }

  void Input(const std::string& name, std::vector<Dim> dims, int elem_type = onnx::TensorProto::FLOAT) {
    AddValueInfo(model_.mutable_graph()->add_input(), name, dims, elem_type);
  }
  void Output(const std::string& name, int elem_type = onnx::TensorProto::FLOAT) {
    auto* info = model_.mutable_graph()->add_output();
    info->set_name(name);
    info->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
  }

  onnx::TensorProto* Initializer(const std::string& name, std::vector<int64_t> dims, const std::vector<float>& values) {
    onnx::TensorProto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims) t->add_dims(d);
    for (float v : values) t->add_float_data(v);
    return t;
  }
  void InitializerInts(const std::string& name, std::vector<int64_t> dims, const std::vector<int64_t>& values) {
    onnx::TensorProto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    for (int64_t d : dims) t->add_dims(d);
    for (int64_t v : values) t->add_int64_data(v);
  }

  onnx::NodeProto* Node(const std::string& op, std::vector<std::string> inputs, std::vector<std::string> outputs,
                        const std::string& name = "") {
    onnx::NodeProto* node = model_.mutable_graph()->add_node();
    node->set_op_type(op);
    node->set_name(name.empty() ? outputs[0] + "_node" : name);
    for (const auto& i : inputs) node->add_input(i);
    for (const auto& o : outputs) node->add_output(o);
    return node;
  }
  // A Constant node holding an int64 vector (or scalar when `scalar`).
  void ConstInts(const std::string& output, const std::vector<int64_t>& values, bool scalar = false) {
    onnx::NodeProto* node = Node("Constant", {}, {output});
    onnx::AttributeProto* attr = node->add_attribute();
    attr->set_name("value");
    attr->set_type(onnx::AttributeProto::TENSOR);
    onnx::TensorProto* t = attr->mutable_t();
    t->set_data_type(onnx::TensorProto::INT64);
    if (!scalar) t->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values) t->add_int64_data(v);
  }

  static void AttrInt(onnx::NodeProto* node, const std::string& name, int64_t value) {
    auto* a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
  }
  static void AttrFloat(onnx::NodeProto* node, const std::string& name, float value) {
    auto* a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(value);
  }
  static void AttrInts(onnx::NodeProto* node, const std::string& name, const std::vector<int64_t>& values) {
    auto* a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : values) a->add_ints(v);
  }
  static void AttrString(onnx::NodeProto* node, const std::string& name, const std::string& value) {
    auto* a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(value);
  }

  onnx::ModelProto& model() { return model_; }

  // Writes the model to a fresh file under the temp directory.
  std::string Write(const std::string& stem) const {
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("rlx_onnx_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::filesystem::path path = dir / (stem + ".onnx");
    std::ofstream file(path, std::ios::binary);
    model_.SerializeToOstream(&file);
    return path.string();
  }

 private:
  static void AddValueInfo(onnx::ValueInfoProto* info, const std::string& name, const std::vector<Dim>& dims,
                           int elem_type) {
    info->set_name(name);
    auto* tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(elem_type);
    auto* shape = tensor->mutable_shape();
    for (const Dim& dim : dims) {
      auto* d = shape->add_dim();
      if (std::holds_alternative<int64_t>(dim)) d->set_dim_value(std::get<int64_t>(dim));
      else if (!std::get<std::string>(dim).empty()) d->set_dim_param(std::get<std::string>(dim));
    }
  }

  onnx::ModelProto model_;
};

}  // namespace rlx::frontend::testing
