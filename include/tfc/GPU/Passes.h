//===- Passes.h - tfc passes of the NVIDIA GPU path -------------*- C++ -*-===//
//
// The passes tfc adds to upstream's GPU lowering; the pipeline that uses
// them is buildTfcCudaPipeline (tfc/Pipelines/Pipelines.h).
//
//===----------------------------------------------------------------------===//
#ifndef TFC_GPU_PASSES_H
#define TFC_GPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfc {

#define GEN_PASS_DECL
#include "tfc/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tfc/GPU/Passes.h.inc"

} // namespace mlir::tfc

#endif // TFC_GPU_PASSES_H
