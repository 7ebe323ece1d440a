// The vm.builtin.* functions, with TVM's names, argument order and
// MatchShapeCode / MakeShapeCode protocol (after TVM's
// src/runtime/vm/builtin.cc, our own code).
//
// Checks that fail at run time (check_tensor_info, match_shape, ...) raise a
// RuntimeError that starts with the err_ctx string the compiler passed
// (VMShapeLower names the function, the parameter and the annotation, e.g.
// "ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 784),
// dtype=\"float32\"))") followed by what differs, including the actual shape.
#include <atomic>
#include <cstring>
#include <mutex>

#include "rlx/runtime/error.h"
#include "rlx/runtime/contrib/dnnl.h"
#include "rlx/runtime/memory_debug.h"
#include "rlx/runtime/vm/vm.h"

namespace rlx::runtime::vm {
namespace {

// The err_ctx argument: a string, or null.
std::string ErrCtx(const Args& args, int64_t i) {
  if (i >= args.size()) return "";
  const Value& value = args[i];
  if (value.kind() == Value::Kind::kString) return value.AsString();
  return "";
}

// A dtype passed as a dtype value or as its string ("float32").
DataType GetDtypeLoose(const Args& args, int64_t i) {
  const Value& value = args[i];
  if (value.kind() == Value::Kind::kString) return DataType::FromString(value.AsString());
  return args.GetDtype(i);
}

// The shape of a tensor or shape argument.
ShapeTuple GetShapeOfTensorOrShape(const Args& args, int64_t i) {
  const Value& value = args[i];
  if (value.kind() == Value::Kind::kNDArray) return value.AsNDArray().shape();
  if (value.kind() == Value::Kind::kShape) return value.AsShape();
  args.ThrowTypeMismatch(i, "NDArray or shape");
}

// The shape heap argument: int64 slots (none when no heap was allocated).
struct ShapeHeap {
  int64_t* data = nullptr;
  int64_t size = 0;
};

ShapeHeap GetHeap(const Args& args, int64_t i) {
  const Value& value = args[i];
  if (value.is_null()) return {};
  const NDArray& heap = args.GetNDArray(i);
  if (heap.dtype() != DataType::Int(64) || heap.ndim() != 1) {
    throw RuntimeError(StrCat("'", args.func_name(), "': the shape heap must be a 1-d int64 array, got ",
                              heap.ToString()));
  }
  return {static_cast<int64_t*>(heap.data()), heap.shape()[0]};
}

int64_t& HeapSlot(const ShapeHeap& heap, const Args& args, int64_t slot) {
  if (slot < 0 || slot >= heap.size) {
    throw RuntimeError(StrCat("'", args.func_name(), "': shape heap slot ", slot, " outside the heap of size ",
                              heap.size));
  }
  return heap.data[slot];
}

Value AllocShapeHeap(const Args& args) {
  args.CheckCount(2);
  VirtualMachine* vm = VirtualMachine::FromContext(args[0], args.func_name());
  int64_t size = args.GetInt(1);
  if (size < 0) throw RuntimeError(StrCat("'", args.func_name(), "': negative size ", size));
  // The heap's size is fixed by the instruction: the VM keeps it across calls.
  auto nbytes = static_cast<size_t>(size) * sizeof(int64_t);
  return NDArray::FromStorage(vm->AllocSiteStorage(nbytes), 0, {size}, DataType::Int(64));
}

// match_shape(input, heap, size, code_0, value_0, ..., err_ctx)
Value MatchShape(const Args& args) {
  ShapeTuple input = GetShapeOfTensorOrShape(args, 0);
  ShapeHeap heap = GetHeap(args, 1);
  int64_t size = args.GetInt(2);
  constexpr int64_t kBeginCode = 3;
  if (size < 0 || args.size() < kBeginCode + 2 * size) {
    throw RuntimeError(StrCat("'", args.func_name(), "' got ", args.size(), " arguments for ", size, " dimensions"));
  }
  std::string err_ctx = ErrCtx(args, kBeginCode + 2 * size);
  if (static_cast<int64_t>(input.size()) != size) {
    throw RuntimeError(StrCat(err_ctx, " match_cast shape size mismatch: expected ", size, " dimensions, got shape ",
                              ShapeToString(input)));
  }
  for (int64_t i = 0; i < size; ++i) {
    auto code = static_cast<MatchShapeCode>(args.GetInt(kBeginCode + 2 * i));
    int64_t value = args.GetInt(kBeginCode + 2 * i + 1);
    switch (code) {
      case MatchShapeCode::kNoOp:
        break;
      case MatchShapeCode::kAssertEqualToImm:
        if (input[i] != value) {
          throw RuntimeError(StrCat(err_ctx, " match_cast error, shape[", i, "] mismatch to specified constant: expected ",
                                    value, ", got shape ", ShapeToString(input)));
        }
        break;
      case MatchShapeCode::kStoreToHeap:
        HeapSlot(heap, args, value) = input[i];
        break;
      case MatchShapeCode::kAssertEqualToLoad: {
        int64_t expected = HeapSlot(heap, args, value);
        if (input[i] != expected) {
          throw RuntimeError(StrCat(err_ctx, " match_cast error, shape[", i,
                                    "] mismatch to a previous populated value: expected ", expected, ", got shape ",
                                    ShapeToString(input)));
        }
        break;
      }
      default:
        throw RuntimeError(StrCat("'", args.func_name(), "': unknown match shape code ", static_cast<int>(code)));
    }
  }
  return Value();
}

// match_prim_value(value, heap, code, reg, err_ctx)
Value MatchPrimValue(const Args& args) {
  int64_t input = args.GetInt(0);
  ShapeHeap heap = GetHeap(args, 1);
  auto code = static_cast<MatchShapeCode>(args.GetInt(2));
  int64_t value = args.GetInt(3);
  std::string err_ctx = ErrCtx(args, 4);
  switch (code) {
    case MatchShapeCode::kNoOp:
      break;
    case MatchShapeCode::kAssertEqualToImm:
      if (input != value) {
        throw RuntimeError(StrCat(err_ctx, " match_cast error, PrimExpr mismatch to specified constant: expected ", value,
                                  ", got ", input));
      }
      break;
    case MatchShapeCode::kStoreToHeap:
      HeapSlot(heap, args, value) = input;
      break;
    case MatchShapeCode::kAssertEqualToLoad: {
      int64_t expected = HeapSlot(heap, args, value);
      if (input != expected) {
        throw RuntimeError(StrCat(err_ctx, " match_cast error, PrimExpr mismatch to a previous populated value: expected ",
                                  expected, ", got ", input));
      }
      break;
    }
    default:
      throw RuntimeError(StrCat("'", args.func_name(), "': unknown match shape code ", static_cast<int>(code)));
  }
  return Value();
}

// make_shape(heap, size, code_0, value_0, ...)
Value MakeShape(const Args& args) {
  ShapeHeap heap = GetHeap(args, 0);
  int64_t size = args.GetInt(1);
  constexpr int64_t kBeginCode = 2;
  if (size < 0 || args.size() != kBeginCode + 2 * size) {
    throw RuntimeError(StrCat("'", args.func_name(), "' got ", args.size(), " arguments for ", size, " dimensions"));
  }
  ShapeTuple shape(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) {
    auto code = static_cast<MakeShapeCode>(args.GetInt(kBeginCode + 2 * i));
    int64_t value = args.GetInt(kBeginCode + 2 * i + 1);
    if (code == MakeShapeCode::kUseImm) {
      shape[i] = value;
    } else if (code == MakeShapeCode::kLoadShape) {
      shape[i] = HeapSlot(heap, args, value);
    } else {
      throw RuntimeError(StrCat("'", args.func_name(), "': unknown make shape code ", static_cast<int>(code)));
    }
  }
  return Value(std::move(shape));
}

// make_prim_value(heap, code, value)
Value MakePrimValue(const Args& args) {
  args.CheckCount(3);
  ShapeHeap heap = GetHeap(args, 0);
  auto code = static_cast<MakeShapeCode>(args.GetInt(1));
  int64_t value = args.GetInt(2);
  if (code == MakeShapeCode::kUseImm) return Value(value);
  if (code == MakeShapeCode::kLoadShape) return Value(HeapSlot(heap, args, value));
  throw RuntimeError(StrCat("'", args.func_name(), "': unknown make shape code ", static_cast<int>(code)));
}

// check_tensor_info(arg, ndim, [dtype], err_ctx)
Value CheckTensorInfo(const Args& args) {
  if (args.size() != 3 && args.size() != 4) args.CheckCount(4);
  const Value& arg = args[0];
  int64_t ndim = args.GetInt(1);
  std::string err_ctx = ErrCtx(args, args.size() - 1);
  if (arg.kind() != Value::Kind::kNDArray) {
    throw RuntimeError(StrCat(err_ctx, " expect a Tensor but get ", arg.type_name()));
  }
  const NDArray& tensor = arg.AsNDArray();
  if (ndim != -1 && tensor.ndim() != ndim) {
    throw RuntimeError(StrCat(err_ctx, " expect Tensor with ndim ", ndim, " but get ", tensor.ndim(), " (shape ",
                              ShapeToString(tensor.shape()), ")"));
  }
  if (args.size() == 4 && !args[2].is_null()) {
    DataType dtype = GetDtypeLoose(args, 2);
    if (tensor.dtype() != dtype) {
      throw RuntimeError(StrCat(err_ctx, " expect Tensor with dtype ", dtype.ToString(), " but get ",
                                tensor.dtype().ToString(), " (shape ", ShapeToString(tensor.shape()), ")"));
    }
  }
  return Value();
}

// check_shape_info(arg, ndim, err_ctx)
Value CheckShapeInfo(const Args& args) {
  const Value& arg = args[0];
  int64_t ndim = args.GetInt(1);
  std::string err_ctx = ErrCtx(args, 2);
  if (arg.kind() != Value::Kind::kShape) throw RuntimeError(StrCat(err_ctx, " expect a Shape but get ", arg.type_name()));
  if (ndim != -1 && static_cast<int64_t>(arg.AsShape().size()) != ndim) {
    throw RuntimeError(StrCat(err_ctx, " expect Shape with ndim ", ndim, " but get ", arg.AsShape().size(), " (",
                              ShapeToString(arg.AsShape()), ")"));
  }
  return Value();
}

// check_tuple_info(arg, size, err_ctx)
Value CheckTupleInfo(const Args& args) {
  const Value& arg = args[0];
  int64_t size = args.GetInt(1);
  std::string err_ctx = ErrCtx(args, 2);
  if (arg.kind() != Value::Kind::kArray) throw RuntimeError(StrCat(err_ctx, " expect a Tuple but get ", arg.type_name()));
  if (static_cast<int64_t>(arg.AsArray().size()) != size) {
    throw RuntimeError(StrCat(err_ctx, " expect a Tuple with ", size, " elements, but get a Tuple with ",
                              arg.AsArray().size(), " elements"));
  }
  return Value();
}

// check_prim_value_info(arg, dtype, err_ctx)
Value CheckPrimValueInfo(const Args& args) {
  const Value& arg = args[0];
  std::string err_ctx = ErrCtx(args, 2);
  DataType dtype = GetDtypeLoose(args, 1);
  bool ok = false;
  switch (dtype.code()) {
    case DataType::kBool:
      ok = arg.kind() == Value::Kind::kBool || arg.kind() == Value::Kind::kInt;
      break;
    case DataType::kInt:
    case DataType::kUInt:
      ok = arg.kind() == Value::Kind::kInt || arg.kind() == Value::Kind::kBool;
      break;
    case DataType::kFloat:
      ok = arg.kind() == Value::Kind::kFloat || arg.kind() == Value::Kind::kInt;
      break;
    default:
      ok = !arg.is_null();
      break;
  }
  if (!ok) {
    throw RuntimeError(StrCat(err_ctx, ", expected a ", dtype.ToString(), " value, but received ", arg.type_name()));
  }
  return Value();
}

// check_func_info(arg, err_ctx)
Value CheckFuncInfo(const Args& args) {
  const Value& arg = args[0];
  bool is_func = arg.kind() == Value::Kind::kFunc;
  if (arg.kind() == Value::Kind::kObject) is_func = std::dynamic_pointer_cast<VMClosure>(arg.AsObject()) != nullptr;
  if (!is_func) throw RuntimeError(StrCat(ErrCtx(args, 1), " expect a Function but get ", arg.type_name()));
  return Value();
}

// alloc_storage(vm, size: shape, device_index, dtype_hint, storage_scope)
Value AllocStorage(const Args& args) {
  VirtualMachine* vm = VirtualMachine::FromContext(args[0], args.func_name());
  const ShapeTuple& size = args.GetShape(1);
  int64_t device_index = args.GetInt(2);
  DataType dtype_hint = GetDtypeLoose(args, 3);
  if (device_index != 0 && device_index != -1) {
    throw RuntimeError(StrCat("'", args.func_name(), "': device index ", device_index, " is not available (cpu only)"));
  }
  int64_t elements = 1;
  for (int64_t dim : size) {
    if (dim < 0) throw RuntimeError(StrCat("'", args.func_name(), "': negative size ", ShapeToString(size)));
    elements *= dim;
  }
  auto nbytes = static_cast<size_t>(elements * dtype_hint.bytes());
  return Value(vm->AllocStorage(nbytes));
}

// alloc_tensor(storage, offset, shape, dtype[, scope])
Value AllocTensor(const Args& args) {
  if (args.size() != 4 && args.size() != 5) args.CheckCount(4);
  auto storage = args.GetObjectAs<Storage>(0);
  int64_t offset = args.GetInt(1);
  const ShapeTuple& shape = args.GetShape(2);
  DataType dtype = GetDtypeLoose(args, 3);
  if (offset < 0) throw RuntimeError(StrCat("'", args.func_name(), "': negative offset ", offset));
  NDArray tensor = NDArray::FromStorage(storage, static_cast<uint64_t>(offset), shape, dtype);
  if (MemoryDebugEnabled()) memory_debug::OnTensorPlaced(tensor);
  return Value(std::move(tensor));
}

Value MakeClosure(const Args& args) {
  if (args.size() < 1) args.CheckCount(1);
  const Value& func = args[0];
  std::vector<Value> saved(args.values().begin() + 1, args.values().end());
  std::string name;
  PackedFunc impl;
  if (func.kind() == Value::Kind::kFunc) {
    impl = func.AsFunc();
    name = impl.name();
  } else {
    auto closure = args.GetObjectAs<VMClosure>(0);
    impl = closure->impl;
    name = closure->func_name;
  }
  if (saved.empty()) return Value(std::make_shared<VMClosure>(name, impl));
  PackedFunc bound(name, [impl, saved](const Args& call_args) {
    std::vector<Value> all(call_args.values().begin(), call_args.values().end());
    all.insert(all.end(), saved.begin(), saved.end());
    return impl.CallPacked(all);
  });
  return Value(std::make_shared<VMClosure>(name, bound));
}

// invoke_closure(vm, closure, args...)
Value InvokeClosure(const Args& args) {
  if (args.size() < 2) args.CheckCount(2);
  VirtualMachine* vm = VirtualMachine::FromContext(args[0], args.func_name());
  return vm->InvokeClosure(args[1], args.values().subspan(2));
}

// call_tir_dyn(func, tensors..., shape_to_unpack)
Value CallTIRDyn(const Args& args) {
  if (args.size() < 2) args.CheckCount(2);
  const PackedFunc& func = args.GetFunc(0);
  const ShapeTuple& to_unpack = args.GetShape(args.size() - 1);
  std::vector<Value> call_args(args.values().begin() + 1, args.values().end() - 1);
  for (int64_t dim : to_unpack) call_args.emplace_back(dim);
  return func.CallPacked(call_args);
}

Value ShapeOf(const Args& args) {
  args.CheckCount(1);
  return Value(args.GetNDArray(0).shape());
}

Value Reshape(const Args& args) {
  args.CheckCount(2);
  const NDArray& data = args.GetNDArray(0);
  const ShapeTuple& shape = args.GetShape(1);
  int64_t elements = 1;
  for (int64_t dim : shape) elements *= dim;
  if (elements != data.NumElements()) {
    throw RuntimeError(StrCat("'", args.func_name(), "': cannot reshape ", ShapeToString(data.shape()), " to ",
                              ShapeToString(shape)));
  }
  NDArray view = data.CreateView(shape, data.dtype());
  if (MemoryDebugEnabled()) memory_debug::OnViewCreated(data, view);
  return Value(std::move(view));
}

Value ReadIfCond(const Args& args) {
  args.CheckCount(1);
  const Value& cond = args[0];
  if (cond.kind() == Value::Kind::kBool) return Value(cond.AsBool());
  if (cond.kind() == Value::Kind::kInt) return Value(cond.AsInt() != 0);
  const NDArray& array = args.GetNDArray(0);
  DataType dtype = array.dtype();
  if (array.NumElements() != 1 || (dtype.code() != DataType::kInt && dtype.code() != DataType::kUInt &&
                                   dtype.code() != DataType::kBool)) {
    throw RuntimeError(StrCat("'", args.func_name(), "': the condition must be one integer or bool, got ",
                              array.ToString()));
  }
  int64_t value = 0;
  const auto* data = static_cast<const char*>(array.data());
  switch (dtype.bits()) {
    case 1:
    case 8:
      value = static_cast<int8_t>(data[0]);
      break;
    case 16: {
      int16_t v;
      std::memcpy(&v, data, sizeof(v));
      value = v;
      break;
    }
    case 32: {
      int32_t v;
      std::memcpy(&v, data, sizeof(v));
      value = v;
      break;
    }
    case 64:
      std::memcpy(&value, data, sizeof(value));
      break;
    default:
      throw RuntimeError(StrCat("'", args.func_name(), "': unsupported condition dtype ", dtype.ToString()));
  }
  return Value(value != 0);
}

Value TupleGetItem(const Args& args) {
  args.CheckCount(2);
  const auto& tuple = args.GetArray(0);
  int64_t index = args.GetInt(1);
  if (index < 0 || index >= static_cast<int64_t>(tuple.size())) {
    throw RuntimeError(StrCat("'", args.func_name(), "': index ", index, " out of range for a tuple of ", tuple.size(),
                              " elements"));
  }
  return tuple[index];
}

Value MakeTuple(const Args& args) { return Value(std::vector<Value>(args.values().begin(), args.values().end())); }

Value TensorToShape(const Args& args) {
  args.CheckCount(1);
  const NDArray& data = args.GetNDArray(0);
  if (data.ndim() != 1 || data.dtype().code() != DataType::kInt) {
    throw RuntimeError(StrCat("'", args.func_name(), "' expects a 1-d integer tensor, got ", data.ToString()));
  }
  ShapeTuple shape;
  if (data.dtype().bits() == 64) {
    shape = data.ToVector<int64_t>();
  } else if (data.dtype().bits() == 32) {
    for (int32_t v : data.ToVector<int32_t>()) shape.push_back(v);
  } else {
    throw RuntimeError(StrCat("'", args.func_name(), "': unsupported dtype ", data.dtype().ToString()));
  }
  return Value(std::move(shape));
}

void RegisterAll() {
  auto reg = [](const std::string& name, PackedFunc::Body body) { Registry::Register(name, std::move(body), true); };
  reg("vm.builtin.alloc_shape_heap", AllocShapeHeap);
  reg("vm.builtin.match_shape", MatchShape);
  reg("vm.builtin.match_prim_value", MatchPrimValue);
  reg("vm.builtin.make_shape", MakeShape);
  reg("vm.builtin.make_prim_value", MakePrimValue);
  reg("vm.builtin.check_tensor_info", CheckTensorInfo);
  reg("vm.builtin.check_shape_info", CheckShapeInfo);
  reg("vm.builtin.check_tuple_info", CheckTupleInfo);
  reg("vm.builtin.check_prim_value_info", CheckPrimValueInfo);
  reg("vm.builtin.check_func_info", CheckFuncInfo);
  reg("vm.builtin.alloc_storage", AllocStorage);
  reg("vm.builtin.alloc_tensor", AllocTensor);
  reg("vm.builtin.make_closure", MakeClosure);
  reg("vm.builtin.invoke_closure", InvokeClosure);
  reg("vm.builtin.call_tir_dyn", CallTIRDyn);
  reg("vm.builtin.shape_of", ShapeOf);
  reg("vm.builtin.copy", [](const Args& args) {
    args.CheckCount(1);
    return args[0];
  });
  reg("vm.builtin.reshape", Reshape);
  reg("vm.builtin.null_value", [](const Args& args) {
    args.CheckCount(0);
    return Value();
  });
  reg("vm.builtin.read_if_cond", ReadIfCond);
  reg("vm.builtin.tuple_getitem", TupleGetItem);
  reg("vm.builtin.make_tuple", MakeTuple);
  reg("vm.builtin.tensor_to_shape", TensorToShape);
  contrib::RegisterDnnlFunctions();  // library functions of dispatch-library (rlx.dnnl.*)
}

}  // namespace

void RegisterBuiltins() {
  static std::once_flag once;
  std::call_once(once, RegisterAll);
}

}  // namespace rlx::runtime::vm
