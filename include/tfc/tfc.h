//===- tfc.h - The tfc public API: include this one header ------*- C++ -*-===//
//
// tfc brings TensorFlow 2's programming model to C++ without Python:
//
//   #include <tfc/tfc.h>
//   using namespace tfc;
//   Tensor a = constant({{1.f, 2.f}, {3.f, 4.f}});
//   std::cout << matmul(a, a) + 1;   // eager: runs now
//
// The contract is docs/api.md; docs/user-guide.md walks through it. This header
// gathers the runtime's value types (Tensor, DType, the Error classes) and the
// frontend: creating tensors, ops, Variables, control flow, print, gradients.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_TFC_H
#define TFC_TFC_H

// TFC_VERSION_* macros and tfc::version().
#include "tfc/Version.h"

// Values: Tensor, DType, errors, printing, .npy files, wrapping memory,
// CUDA availability (runtime, MLIR-free).
#include "tfc/runtime/CudaInfo.h"
#include "tfc/runtime/DType.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Interop.h"
#include "tfc/runtime/Npy.h"
#include "tfc/runtime/Print.h"
#include "tfc/runtime/Tensor.h"

// The eager API and the funnel that tracing and gradient tapes hook into.
#include "tfc/frontend/ControlFlow.h"
#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/frontend/Distribute.h"
#include "tfc/frontend/Gradients.h"
#include "tfc/frontend/Ops.h"
#include "tfc/frontend/Random.h"
#include "tfc/frontend/Variable.h"

// Traced functions and the JIT embedding API.
#include "tfc/JIT/CompiledModule.h"
#include "tfc/frontend/Function.h"

// The training stack: Keras-style models, datasets, checkpoints.
#include "tfc/data/Dataset.h"
#include "tfc/data/Readers.h"
#include "tfc/distribute/Strategy.h"
#include "tfc/keras/Callbacks.h"
#include "tfc/keras/Datasets.h"
#include "tfc/keras/Layer.h"
#include "tfc/keras/Layers.h"
#include "tfc/keras/Losses.h"
#include "tfc/keras/Metrics.h"
#include "tfc/keras/Model.h"
#include "tfc/keras/Optimizers.h"
#include "tfc/saved_model/SavedModel.h"
#include "tfc/train/Checkpoint.h"
#include "tfc/train/SafeTensors.h"

#endif // TFC_TFC_H
