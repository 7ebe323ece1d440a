// Private to the ONNX importer: the value table and the converter interface.
//
// Every ONNX value is tracked as one of
//   kTensor    a run-time Relax expression (a Var bound by the BlockBuilder,
//              a parameter, or a Constant),
//   kHost      host data known at import time (an initializer, a Constant
//              node, a folded computation), kept as a TensorData,
//   kShape     a 0-D or 1-D int64 tensor whose elements are symbolic
//              PrimExprs (the result of Shape, and of Gather / Slice /
//              Concat / arithmetic on it), simplified with the analyzer,
//   kNone      an absent optional input ("" in the node's input list).
// Converters read their inputs in the form they need: as a Relax tensor
// (host data becomes a Constant, a shape vector is materialized), as
// integers known at import time, or as shape values (PrimExprs). So a
// Reshape whose shape input is `Concat(Shape(x)[0:1], [-1])` gets the
// ShapeExpr (n, 768) and a precise struct info.
//
// Converters are found by op type and the model's opset: the entry with the
// largest since-version not above the opset (ONNX's own versioning, as TVM's
// onnx frontend dispatches `_impl_vN`).
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rlx/arith/analyzer.h"
#include "rlx/graph/block_builder.h"
#include "rlx/graph/expr.h"

namespace rlx::frontend::onnx_impl {

using graph::Expr;
using ir::PrimExpr;

struct OnnxValue {
  enum class Kind { kNone, kTensor, kHost, kShape };
  Kind kind = Kind::kNone;
  Expr expr;                          // kTensor
  graph::TensorDataPtr host;          // kHost
  std::vector<PrimExpr> shape;        // kShape: the elements
  bool shape_is_scalar = false;       // kShape: 0-D (one element)

  static OnnxValue Tensor(Expr expr);
  static OnnxValue Host(graph::TensorDataPtr data);
  static OnnxValue ShapeValues(std::vector<PrimExpr> values, bool is_scalar = false);
  bool IsNone() const { return kind == Kind::kNone; }
};

// ONNX element type -> DataType (a CompileError naming `where` if unknown).
DataType DataTypeFromOnnx(int onnx_type, const std::string& where);
// TensorProto -> host data; external data is read relative to `model_dir`.
graph::TensorDataPtr TensorFromProto(const onnx::TensorProto& proto, const std::string& model_dir,
                                     const std::string& where);
// Host data as doubles / int64s (any numeric dtype).
std::vector<double> HostAsDoubles(const graph::TensorData& data);
std::vector<int64_t> HostAsInts(const graph::TensorData& data);
// Host data of `dtype` and `shape` from doubles (converted per element).
graph::TensorDataPtr MakeHost(DataType dtype, std::vector<int64_t> shape, const std::vector<double>& values);
graph::TensorDataPtr MakeHostInts(DataType dtype, std::vector<int64_t> shape, const std::vector<int64_t>& values);

class ConvertContext;
using Converter = std::function<std::vector<OnnxValue>(ConvertContext&)>;

struct ConverterEntry {
  int since_version;
  Converter convert;
};
using ConverterTable = std::map<std::string, std::vector<ConverterEntry>>;

// The converters of every supported op type (built once).
const ConverterTable& GetConverterTable();
// The converter for `op_type` at `opset`, or nullptr.
const Converter* FindConverter(const std::string& op_type, int opset);

// Per-family registration (ops_*.cc).
void RegisterElementwiseConverters(ConverterTable& table);
void RegisterShapeConverters(ConverterTable& table);
void RegisterManipulateConverters(ConverterTable& table);
void RegisterNNConverters(ConverterTable& table);
void RegisterReduceConverters(ConverterTable& table);
void RegisterCompositeConverters(ConverterTable& table);
void RegisterRecurrentConverters(ConverterTable& table);

// What a converter sees of the node being converted.
class ConvertContext {
 public:
  ConvertContext(graph::BlockBuilder& builder, const onnx::NodeProto& node, int opset,
                 std::vector<OnnxValue> inputs, const std::string& model_name, const std::string& model_dir)
      : builder_(builder), node_(node), opset_(opset), inputs_(std::move(inputs)), model_name_(model_name),
        model_dir_(model_dir) {}

  const onnx::NodeProto& node() const { return node_; }
  int opset() const { return opset_; }
  graph::BlockBuilder& builder() { return builder_; }
  arith::Analyzer& analyzer() { return builder_.analyzer(); }
  size_t NumOutputs() const { return static_cast<size_t>(node_.output_size()); }

  // CompileError "<model>: node '<name>' (<OpType>): <message>".
  [[noreturn]] void Fail(const std::string& message) const;

  // Inputs.
  size_t NumInputs() const { return inputs_.size(); }
  bool HasInput(size_t index) const { return index < inputs_.size() && !inputs_[index].IsNone(); }
  const OnnxValue& Input(size_t index) const;
  // A Relax tensor (host data as a Constant, shape values materialized).
  Expr TensorInput(size_t index);
  // The input's values known at import time as integers, or nullopt.
  std::optional<std::vector<int64_t>> ConstInts(size_t index) const;
  std::optional<std::vector<double>> ConstDoubles(size_t index) const;
  // As above, but a CompileError when not known at import time.
  std::vector<int64_t> RequireInts(size_t index, const std::string& what) const;
  // The input as shape values (host integers or kShape), or nullopt.
  std::optional<std::vector<PrimExpr>> ShapeValues(size_t index) const;
  // A data-dependent shape: a run-time 1-D integer tensor of static length
  // becomes fresh symbolic variables through
  //   s = R.call_pure_packed("vm.builtin.tensor_to_shape", t, sinfo_args=R.Shape(ndim=k))
  //   s1 = R.match_cast(s, R.Shape([d0, d1, ...]))
  // (a CompileError when the length is not static).
  std::vector<PrimExpr> ShapeFromTensor(const Expr& tensor);
  // Sets how fresh symbolic variables are named (unique per import).
  void SetFreshVarMaker(std::function<ir::Var()> maker) { fresh_var_ = std::move(maker); }

  // The static struct info of a tensor input.
  DataType InputDType(size_t index);
  int InputRank(size_t index);
  // The dims of a tensor input (a CompileError if unknown).
  std::vector<PrimExpr> InputShape(size_t index);

  // Attributes.
  bool HasAttr(const std::string& name) const;
  int64_t AttrInt(const std::string& name, int64_t default_value) const;
  double AttrFloat(const std::string& name, double default_value) const;
  std::string AttrString(const std::string& name, const std::string& default_value) const;
  std::optional<std::vector<int64_t>> AttrInts(const std::string& name) const;
  std::optional<std::vector<double>> AttrFloats(const std::string& name) const;
  const onnx::TensorProto* AttrTensor(const std::string& name) const;
  graph::TensorDataPtr AttrTensorData(const std::string& name) const;

  // Emission: normalizes and binds `call`, returning the bound variable.
  Expr Emit(const Expr& call);
  // `tensor` match_cast to `dims`, keeping its dtype (a run-time shape check
  // binding the aligned dims), returning the new variable.
  Expr MatchCastToDims(const Expr& tensor, std::vector<PrimExpr> dims);
  // Simplifies a shape expression with the analyzer.
  PrimExpr Simplify(const PrimExpr& expr) { return analyzer().Simplify(expr); }
  // A Constant for host data.
  static Expr ConstantOf(const graph::TensorDataPtr& data);
  // A Relax tensor for any value (host -> Constant, shape -> materialized).
  Expr Materialize(const OnnxValue& value);

 private:
  graph::BlockBuilder& builder_;
  const onnx::NodeProto& node_;
  int opset_;
  std::vector<OnnxValue> inputs_;
  const std::string& model_name_;
  const std::string& model_dir_;
  std::function<ir::Var()> fresh_var_;
};

// Struct-info helpers shared by converters.
std::optional<std::vector<PrimExpr>> ShapeOf(const Expr& expr);
int RankOf(const Expr& expr);
DataType DTypeOf(const Expr& expr);
// Normalizes a possibly negative axis against `rank` (a CompileError via ctx).
int64_t NormalizeAxis(ConvertContext& ctx, int64_t axis, int64_t rank);
PrimExpr Int64(int64_t value);
using ir::AsConstInt;  // the value of an integer constant, or nullopt
// Product of dims[begin:end] (simplified by the caller).
PrimExpr Product(const std::vector<PrimExpr>& dims, size_t begin, size_t end);
// A 0-D constant of `dtype` holding `value`.
Expr ScalarConstant(DataType dtype, double value);
// A ShapeExpr of `dims`.
Expr ShapeExprOf(std::vector<PrimExpr> dims);
// x rounded to the nearest integer, halves to even (ONNX's Round), as Relax
// calls (ops_elementwise.cc).
Expr RoundHalfToEven(ConvertContext& ctx, const Expr& x);

}  // namespace rlx::frontend::onnx_impl
