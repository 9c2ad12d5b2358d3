// Compiled code refuses what the interpreter refuses (issue 13): dynamic
// dims that disagree at run time, integer division by zero and negative
// integer powers, reductions over zero elements. Each case runs in both
// modes; both fail, name the op and the user's line, and print no result.
// The JIT's messages come from tfc-insert-runtime-checks, the
// interpreter's from the eager kernels.

// RUN: not tfc-run %s --mode=interpret --entry=add --arg="[1,2,3]:f32" --arg="[10,20,30,40]:f32" 2>&1 | FileCheck %s --check-prefix=ADD
// RUN: not tfc-run %s --mode=jit --entry=add --arg="[1,2,3]:f32" --arg="[10,20,30,40]:f32" 2>&1 | FileCheck %s --check-prefix=ADD
// RUN: not tfc-run %s --mode=jit --entry=add --arg="[1,2]:f32" --arg="[5,5,5,5,5]:f32" 2>&1 | FileCheck %s --check-prefix=ADD2
// RUN: tfc-run %s --mode=interpret --entry=add --arg="[1,2,3]:f32" --arg="[10,20,30]:f32" | FileCheck %s --check-prefix=ADD-OK
// RUN: tfc-run %s --mode=jit --entry=add --arg="[1,2,3]:f32" --arg="[10,20,30]:f32" | FileCheck %s --check-prefix=ADD-OK
// ADD: tfc-run: error: tfc.add: operand shapes (3,) and (4,) differ at run time{{.*}} (at {{.*}}:[[# @LINE + 6]])
// ADD-NOT: tfc.Tensor
// ADD2: tfc-run: error: tfc.add: operand shapes (2,) and (5,) differ at run time
// ADD-OK: tfc.Tensor([11. 22. 33.], shape=(3,), dtype=float32)
// ADD-OK-NOT: error
func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tfc.add %a, %b : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// A mismatch deep in a fused chain is still caught (the check reads the
// dims before the fusion group).
// RUN: not tfc-run %s --mode=interpret --entry=chain --arg="[1,2,3]:f32" --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=CHAIN
// RUN: not tfc-run %s --mode=jit --entry=chain --arg="[1,2,3]:f32" --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=CHAIN
// RUN: tfc-run %s --mode=jit --entry=chain --arg="[1,2,3]:f32" --arg="[1,2,3]:f32" | FileCheck %s --check-prefix=CHAIN-OK
// CHAIN: tfc-run: error: tfc.mul: operand shapes (3,) and (2,) differ at run time{{.*}}:[[# @LINE + 6]])
// CHAIN-NOT: tfc.Tensor
// CHAIN-OK: tfc.Tensor([ 2.  8. 18.], shape=(3,), dtype=float32)
func.func @chain(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %e = tfc.exp %a : tensor<?xf32>
  %s = tfc.add %a, %a : tensor<?xf32>
  %m = tfc.mul %s, %b : tensor<?xf32>
  %n = tfc.neg %e : tensor<?xf32>
  %r = tfc.add %m, %n : tensor<?xf32>
  %z = tfc.sub %r, %n : tensor<?xf32>
  return %z : tensor<?xf32>
}

// RUN: not tfc-run %s --mode=interpret --entry=slice --arg="[1,2,3]:f32" 2>&1 | FileCheck %s --check-prefix=SLICE
// RUN: not tfc-run %s --mode=jit --entry=slice --arg="[1,2,3]:f32" 2>&1 | FileCheck %s --check-prefix=SLICE
// RUN: tfc-run %s --mode=jit --entry=slice --arg="[1,2,3,4]:f32" | FileCheck %s --check-prefix=SLICE-OK
// SLICE: tfc-run: error: {{.*}}slice: {{.*}}out of bounds for shape (3,){{.*}}:[[# @LINE + 4]])
// SLICE-NOT: tfc.Tensor
// SLICE-OK: tfc.Tensor([2. 3. 4.], shape=(3,), dtype=float32)
func.func @slice(%a: tensor<?xf32>) -> tensor<3xf32> {
  %0 = tfc.slice %a, begin = [1], size = [3] : tensor<?xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// RUN: not tfc-run %s --mode=interpret --entry=reshape --arg="[1,2,3]:f32" 2>&1 | FileCheck %s --check-prefix=RESHAPE
// RUN: not tfc-run %s --mode=jit --entry=reshape --arg="[1,2,3]:f32" 2>&1 | FileCheck %s --check-prefix=RESHAPE
// RESHAPE: tfc-run: error: {{.*}}reshape{{.*}} (3,){{.*}}:[[# @LINE + 3]])
// RESHAPE-NOT: tfc.Tensor
func.func @reshape(%a: tensor<?xf32>) -> tensor<2x2xf32> {
  %0 = tfc.reshape %a : tensor<?xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// RUN: not tfc-run %s --mode=interpret --entry=broadcast --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=BCAST
// RUN: not tfc-run %s --mode=jit --entry=broadcast --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=BCAST
// RUN: tfc-run %s --mode=jit --entry=broadcast --arg="[7]:f32" | FileCheck %s --check-prefix=BCAST-OK
// BCAST: tfc-run: error: {{.*}}broadcast{{.*}} (2,){{.*}}:[[# @LINE + 6]])
// BCAST-NOT: tfc.Tensor
// BCAST-OK: tfc.Tensor(
// BCAST-OK-NEXT: {{\[\[}}7. 7. 7.]
// BCAST-OK-NEXT: [7. 7. 7.]], shape=(2, 3), dtype=float32)
func.func @broadcast(%a: tensor<?xf32>) -> tensor<2x3xf32> {
  %0 = tfc.broadcast_to %a : tensor<?xf32> to tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// RUN: not tfc-run %s --mode=interpret --entry=matmul --arg="[[1,2]]:f32" --arg="[[1,2,3]]:f32" 2>&1 | FileCheck %s --check-prefix=MATMUL
// RUN: not tfc-run %s --mode=jit --entry=matmul --arg="[[1,2]]:f32" --arg="[[1,2,3]]:f32" 2>&1 | FileCheck %s --check-prefix=MATMUL
// MATMUL: tfc-run: error: {{.*}}matmul: inner {{.*}}(1, 2) and (1, 3){{.*}}:[[# @LINE + 3]])
// MATMUL-NOT: tfc.Tensor
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = tfc.matmul %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// RUN: not tfc-run %s --mode=interpret --entry=argmax --arg="[[],[]]:f32" 2>&1 | FileCheck %s --check-prefix=ARGMAX
// RUN: not tfc-run %s --mode=jit --entry=argmax --arg="[[],[]]:f32" 2>&1 | FileCheck %s --check-prefix=ARGMAX
// ARGMAX: tfc-run: error: {{.*}}argmax{{.*}} size 0 {{.*}}:[[# @LINE + 3]])
// ARGMAX-NOT: tfc.Tensor
func.func @argmax(%a: tensor<?x?xf32>) -> tensor<?xi64> {
  %0 = tfc.argmax %a, axis = 1 : tensor<?x?xf32> -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// RUN: not tfc-run %s --mode=interpret --entry=rmax --arg="[]:f32" 2>&1 | FileCheck %s --check-prefix=RMAX
// RUN: not tfc-run %s --mode=jit --entry=rmax --arg="[]:f32" 2>&1 | FileCheck %s --check-prefix=RMAX
// RMAX: tfc-run: error: {{.*}}reduce_max: cannot reduce over zero elements (shape (0,){{.*}}:[[# @LINE + 3]])
// RMAX-NOT: tfc.Tensor
func.func @rmax(%a: tensor<?xf32>) -> tensor<f32> {
  %0 = tfc.reduce_max %a, axes = [0], keepdims = false : tensor<?xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// A static empty shape: the check folds to false and stays.
// RUN: not tfc-run %s --mode=interpret --entry=rmax_static --arg="[]:f32" 2>&1 | FileCheck %s --check-prefix=RMAXS
// RUN: not tfc-run %s --mode=jit --entry=rmax_static --arg="[]:f32" 2>&1 | FileCheck %s --check-prefix=RMAXS
// RMAXS: tfc-run: error: {{.*}}reduce_max: cannot reduce over zero elements (shape (0,){{.*}}:[[# @LINE + 2]])
func.func @rmax_static(%a: tensor<0xf32>) -> tensor<f32> {
  %0 = tfc.reduce_max %a, axes = [0], keepdims = false : tensor<0xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// RUN: not tfc-run %s --mode=interpret --entry=floordiv --arg="[1,8]:i32" --arg="[1,0]:i32" 2>&1 | FileCheck %s --check-prefix=FDIV
// RUN: not tfc-run %s --mode=jit --entry=floordiv --arg="[1,8]:i32" --arg="[1,0]:i32" 2>&1 | FileCheck %s --check-prefix=FDIV
// RUN: tfc-run %s --mode=jit --entry=floordiv --arg="[7,-8]:i32" --arg="[2,3]:i32" | FileCheck %s --check-prefix=FDIV-OK
// FDIV: tfc-run: error: {{.*}}floor_div{{.*}}division by zero{{.*}}:[[# @LINE + 4]])
// FDIV-NOT: tfc.Tensor
// FDIV-OK: tfc.Tensor([ 3 -3], shape=(2,), dtype=int32)
func.func @floordiv(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = tfc.floor_div %a, %b : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// RUN: not tfc-run %s --mode=interpret --entry=mod --arg="[1,8]:i64" --arg="[0,3]:i64" 2>&1 | FileCheck %s --check-prefix=MOD
// RUN: not tfc-run %s --mode=jit --entry=mod --arg="[1,8]:i64" --arg="[0,3]:i64" 2>&1 | FileCheck %s --check-prefix=MOD
// MOD: tfc-run: error: {{.*}}mod{{.*}}division by zero{{.*}}:[[# @LINE + 3]])
// MOD-NOT: tfc.Tensor
func.func @mod(%a: tensor<?xi64>, %b: tensor<?xi64>) -> tensor<?xi64> {
  %0 = tfc.mod %a, %b : tensor<?xi64>
  return %0 : tensor<?xi64>
}

// RUN: not tfc-run %s --mode=interpret --entry=ipow --arg="2:i32" --arg="-1:i32" 2>&1 | FileCheck %s --check-prefix=IPOW
// RUN: not tfc-run %s --mode=jit --entry=ipow --arg="2:i32" --arg="-1:i32" 2>&1 | FileCheck %s --check-prefix=IPOW
// RUN: tfc-run %s --mode=jit --entry=ipow --arg="2:i32" --arg="10:i32" | FileCheck %s --check-prefix=IPOW-OK
// IPOW: tfc-run: error: {{.*}}pow{{.*}}negative integer powers{{.*}}:[[# @LINE + 4]])
// IPOW-NOT: tfc.Tensor
// IPOW-OK: tfc.Tensor(1024, shape=(), dtype=int32)
func.func @ipow(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = tfc.pow %a, %b : tensor<i32>
  return %0 : tensor<i32>
}

// A failed allocation is an error, not a null pointer written through. (The
// compiled code asks for 64 bytes more: its alignment padding.)
// RUN: not tfc-run %s --mode=interpret --entry=huge --arg="1:f32" 2>&1 | FileCheck %s --check-prefix=OOM
// RUN: not tfc-run %s --mode=jit --entry=huge --arg="1:f32" 2>&1 | FileCheck %s --check-prefix=OOM
// OOM: tfc-run: error: allocator: out of memory allocating 4000000000{{[0-9][0-9]}} bytes
// OOM-NOT: tfc.Tensor
func.func @huge(%a: tensor<f32>) -> tensor<100000000000xf32> {
  %0 = tfc.broadcast_to %a : tensor<f32> to tensor<100000000000xf32>
  return %0 : tensor<100000000000xf32>
}

// Empty tensors: concat and slice of a 0x3 tensor compile and run.
// RUN: tfc-run %s --mode=interpret --entry=empty --arg="[]:f32" | FileCheck %s --check-prefix=EMPTY
// RUN: tfc-run %s --mode=jit --entry=empty --arg="[]:f32" | FileCheck %s --check-prefix=EMPTY
// EMPTY: tfc.Tensor([], shape=(0, 6), dtype=float32)
// EMPTY-NEXT: tfc.Tensor([], shape=(0, 2), dtype=float32)
func.func @empty(%a: tensor<0xf32>) -> (tensor<0x6xf32>, tensor<0x2xf32>) {
  %x = tfc.reshape %a : tensor<0xf32> -> tensor<0x3xf32>
  %c = tfc.concat %x, %x axis = 1 : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<0x6xf32>
  %s = tfc.slice %x, begin = [0, 1], size = [0, 2] : tensor<0x3xf32> -> tensor<0x2xf32>
  return %c, %s : tensor<0x6xf32>, tensor<0x2xf32>
}
