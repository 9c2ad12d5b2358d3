// RUN: tfc-opt %s --split-input-file --tfc-openmp-num-threads --verify-diagnostics | FileCheck %s

// Each team without a size gets one read from the runtime just before it
// starts (so a changed setting applies to the next region); a team that
// names its size keeps it.
// CHECK-LABEL: module
// CHECK: func.func private @tfc_rt_num_threads() -> i32
// CHECK-LABEL: func.func @two
// CHECK: %[[N0:.*]] = call @tfc_rt_num_threads() : () -> i32
// CHECK-NEXT: omp.parallel num_threads(%[[N0]] : i32)
// CHECK: %[[N1:.*]] = func.call @tfc_rt_num_threads() : () -> i32
// CHECK-NEXT: omp.parallel num_threads(%[[N1]] : i32)
// CHECK-LABEL: func.func @fixed
// CHECK-NOT: call
// CHECK: omp.parallel num_threads(%{{.*}} : i32)
module {
  func.func @two(%m: memref<64xf32>) {
    omp.parallel {
      omp.terminator
    }
    scf.execute_region {
      omp.parallel {
        omp.terminator
      }
      scf.yield
    }
    return
  }
  func.func @fixed() {
    %c4 = arith.constant 4 : i32
    omp.parallel num_threads(%c4 : i32) {
      omp.terminator
    }
    return
  }
}

// -----

// Without parallel regions nothing is declared.
// CHECK-LABEL: func.func @none
// CHECK-NOT: tfc_rt_num_threads
func.func @none() {
  return
}

// -----

// The runtime's name is reserved.
// expected-error @+1 {{'tfc_rt_num_threads' is reserved for the runtime's thread count (() -> i32), found '(i64) -> i32'}}
func.func private @tfc_rt_num_threads(i64) -> i32
func.func @user() {
  omp.parallel {
    omp.terminator
  }
  return
}
