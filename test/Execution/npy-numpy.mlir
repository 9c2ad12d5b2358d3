// .npy files against NumPy itself: numpy.save writes the inputs (5 dtypes,
// ranks 0 to 4, an empty array, big-endian data, a version 2.0 header),
// tfc-run reads them (tfc::load_npy), writes its results (tfc::save_npy)
// and numpy.load reads those back and compares. Needs python3 with NumPy.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python %S/Inputs/npy_numpy.py write %t
// RUN: tfc-run %s --arg=%t/x0.npy --arg=%t/x1.npy --arg=%t/x2.npy --arg=%t/x3.npy --arg=%t/x4.npy --arg=%t/x5.npy --arg=%t/x6.npy -o %t/y > /dev/null
// RUN: %numpy_python %S/Inputs/npy_numpy.py check %t | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg=%t/x0.npy --arg=%t/x1.npy --arg=%t/x2.npy --arg=%t/x3.npy --arg=%t/x4.npy --arg=%t/x5.npy --arg=%t/x6.npy -o %t/y > /dev/null
// RUN: %numpy_python %S/Inputs/npy_numpy.py check %t | FileCheck %s
// CHECK: numpy read all 7 files back
//
// RUN: not tfc-run %s --arg=%t/fortran.npy --arg=%t/x1.npy --arg=%t/x2.npy --arg=%t/x3.npy --arg=%t/x4.npy --arg=%t/x5.npy --arg=%t/x6.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: fortran.npy' as .npy: Fortran-order arrays are not supported

func.func @main(%a: tensor<2x3xf32>, %b: tensor<i64>, %c: tensor<4xi1>, %d: tensor<0x3xf64>, %e: tensor<2x1x2x2xi32>, %f: tensor<3xf32>, %g: tensor<3x2xf64>) -> (tensor<2x3xf32>, tensor<i64>, tensor<4xi1>, tensor<0x3xf64>, tensor<2x1x2x2xi32>, tensor<3xf32>, tensor<3x2xf64>) {
  %a2 = tfc.add %a, %a : tensor<2x3xf32>
  %nc = tfc.logical_not %c : tensor<4xi1>
  return %a2, %b, %nc, %d, %e, %f, %g : tensor<2x3xf32>, tensor<i64>, tensor<4xi1>, tensor<0x3xf64>, tensor<2x1x2x2xi32>, tensor<3xf32>, tensor<3x2xf64>
}
