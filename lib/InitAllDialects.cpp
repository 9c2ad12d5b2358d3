//===- InitAll.cpp - Registration shared by all tfc tools -------*- C++ -*-===//
#include "tfc/InitAllDialects.h"
#include "tfc/Conversion/Passes.h"
#include "tfc/Dialect/Tfc/IR/TfcDialect.h"
#include "tfc/Dialect/Tfc/Transforms/Autodiff.h"
#include "tfc/Dialect/Tfc/Transforms/Passes.h"
#include "tfc/Pipelines/Pipelines.h"
#include "tfc/SharedContext.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

void mlir::tfc::registerAllDialects(DialectRegistry &registry) {
  registry.insert<tfc::TfcDialect, affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                  NVVM::NVVMDialect, linalg::LinalgDialect, math::MathDialect,
                  memref::MemRefDialect, omp::OpenMPDialect, scf::SCFDialect,
                  tensor::TensorDialect, vector::VectorDialect>();
  // Bufferization, tiling and LLVM-conversion interfaces live in extensions;
  // registering all of upstream's keeps the tools and the JIT in step.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
}

void mlir::tfc::registerAllPasses() {
  // Upstream transforms used in tfc pipelines (canonicalize, cse, inline...).
  registerTransformsPasses();
  registerConversionPasses();
  bufferization::registerBufferizationPasses();
  registerLinalgPasses();
  memref::registerMemRefPasses();
  bufferization::registerBufferizationPipelines();
  registerTfcConversionPasses();
  registerTfcPasses();
  registerTfcAutodiffPasses();
  registerTfcPipelines();
}

mlir::MLIRContext & ::tfc::sharedContext() {
  static mlir::MLIRContext *ctx = [] {
    mlir::DialectRegistry registry;
    mlir::tfc::registerAllDialects(registry);
    mlir::registerBuiltinDialectTranslation(registry);
    mlir::registerLLVMDialectTranslation(registry);
    // Parallel loops become omp.* ops (tfc-linalg-to-loops).
    mlir::registerOpenMPDialectTranslation(registry);
    auto *c =
        new mlir::MLIRContext(registry, mlir::MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    return c;
  }();
  return *ctx;
}

std::recursive_mutex & ::tfc::contextMutex() {
  static std::recursive_mutex m;
  return m;
}
