//===- Functional.h - the functional API's graph (internal) ----*- C++ -*-===//
//
// Input() returns a placeholder (zeros with a batch of 1) registered on this
// thread; layer calls and tfc ops applied to placeholders are recorded, and
// functional() replays the recorded graph as a network.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_TRAINING_KERAS_FUNCTIONAL_H
#define TFC_TRAINING_KERAS_FUNCTIONAL_H

#include "tfc/keras/Layer.h"

#include <functional>

// Internal to libtfc.so (libtfc.map exports every tfc name).
#pragma GCC visibility push(hidden)
namespace tfc::keras::recorder {

/// True when `x` is an Input or was computed from one on this thread.
bool is_symbolic(const Tensor &x);
/// Runs `run` (the layer on the placeholder) with op recording off, and
/// records one node: `layer` applied to `x`.
Tensor record_layer_call(const Layer &layer, const Tensor &x, bool training,
                         const std::function<Tensor()> &run);

} // namespace tfc::keras::recorder
#pragma GCC visibility pop

#endif // TFC_TRAINING_KERAS_FUNCTIONAL_H
