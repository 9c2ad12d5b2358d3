// A program embedding tfc: eager ops, a traced function with a Variable, and
// the JIT embedding API and the interpreter on hand-written tfc IR.
#include <tfc/tfc.h>

#include <iostream>

int main() {
  using namespace tfc;
  // Eager.
  std::cout << matmul(constant({{2.f}}), constant({{2.f}})) << "\n";

  // Traced and compiled; the variable is updated by compiled code.
  Variable step(constant(0));
  auto train_step = function([&](const Tensor &x) {
    step.assign_add(1);
    return reduce_sum(tanh(x) * 2.f);
  });
  Tensor x = constant({0.5f, -0.25f, 1.f});
  for (int i = 0; i < 3; ++i)
    std::cout << "loss " << train_step(x).item<float>() << "\n";
  std::cout << "steps " << step.value().item<int32_t>() << ", traces "
            << train_step.tracing_count() << "\n";

  // The JIT embedding API, and the reference interpreter on the same IR.
  const char *axpy = R"mlir(
    func.func @axpy(%a: tensor<f32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
      %ab = tfc.broadcast_to %a : tensor<f32> to tensor<4xf32>
      %0 = tfc.mul %ab, %x : tensor<4xf32>
      %1 = tfc.add %0, %y : tensor<4xf32>
      return %1 : tensor<4xf32>
    })mlir";
  std::vector<Tensor> args = {constant(2.f), constant({1.f, 2.f, 3.f, 4.f}),
                              ones({4})};
  auto module = jit::CompiledModule::from_source(axpy);
  std::cout << module.call("axpy", args)[0] << "\n";
  std::cout << "interpreted " << jit::interpret(axpy, "axpy", args)[0] << "\n";
  std::cout << "tfc " << version() << "\n";

  // Errors are exceptions, never aborts.
  try {
    add(ones({2}), ones({3}));
  } catch (const InvalidArgumentError &e) {
    std::cout << "caught: " << e.what() << "\n";
  }
  return 0;
}
