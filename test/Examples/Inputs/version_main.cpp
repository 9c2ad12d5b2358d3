// Built by install-pkg-config.test with nothing but
// `pkg-config --cflags --libs tfc` against an installed prefix: the version
// macros, tfc::version(), an eager op and the reference interpreter.
#include <tfc/tfc.h>

#include <iostream>

int main() {
  std::cout << "headers " << TFC_VERSION_MAJOR << "." << TFC_VERSION_MINOR
            << "." << TFC_VERSION_PATCH << " " << TFC_VERSION_STRING << "\n";
  std::cout << "library " << tfc::version() << "\n";
  std::cout << tfc::matmul(tfc::constant({{2.f}}), tfc::constant({{2.f}}))
            << "\n";
  auto out = tfc::jit::interpret(R"mlir(
    func.func @sq(%x: tensor<3xf32>) -> tensor<3xf32> {
      %0 = tfc.mul %x, %x : tensor<3xf32>
      return %0 : tensor<3xf32>
    })mlir",
                                 "sq", {tfc::constant({1.f, 2.f, 3.f})});
  std::cout << "interpreted " << out[0] << "\n";
  try {
    tfc::jit::interpret("func.func @f(", "f", {});
  } catch (const tfc::CompileError &e) {
    std::cout << "caught CompileError\n";
  }
  return 0;
}
