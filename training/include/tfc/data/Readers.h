//===- Readers.h - IDX and CSV files into tensors ---------------*- C++ -*-===//
//
// File readers for input pipelines (docs/data.md, "Reading files"):
//
//   Tensor images = data::read_idx("train-images-idx3-ubyte.gz");
//   std::vector<Tensor> cols = data::read_csv("iris.csv");
//
// Files are untrusted: every size a header states is checked against the
// data actually present before anything of that size is allocated, and a
// damaged file is an InvalidArgumentError naming the file and the problem.
// Both readers take plain or gzip-compressed files (told apart by the gzip
// magic bytes 1f 8b, not by the name). NumPy's .npy files are read and
// written by tfc::load_npy / tfc::save_npy (tfc/runtime/Npy.h).
//
//===----------------------------------------------------------------------===//
#ifndef TFC_DATA_READERS_H
#define TFC_DATA_READERS_H

#include "tfc/runtime/Tensor.h"

#include <string>
#include <vector>

namespace tfc::data {

/// Reads an IDX file (the MNIST format: bytes 00 00 <type> <ndims>, ndims
/// big-endian int32 dims, then the elements big-endian, row-major). Types:
/// 0x08 unsigned byte, 0x09 signed byte, 0x0B int16 and 0x0C int32 give an
/// Int32 tensor; 0x0D float32 gives Float32; 0x0E float64 gives Float64.
/// Throws InvalidArgumentError for a file that cannot be opened, a bad
/// magic, an unknown type, ndims 0 or > 8, negative dims, dims whose byte
/// count overflows, data shorter or longer than the dims say, and corrupt
/// or truncated gzip data.
Tensor read_idx(const std::string &path);

struct CsvOptions {
  char delimiter = ',';
  /// The first line names the columns (it is skipped, and sets the column
  /// count when column_dtypes is empty).
  bool header = true;
  /// One dtype per column; empty: every column Float32.
  std::vector<DType> column_dtypes;
};

/// Reads a delimited text file of numbers into one 1-D tensor per column.
/// Empty lines are skipped; fields may have spaces around them; Bool
/// columns take true/false/1/0. Throws InvalidArgumentError naming the
/// file, line and column for a row with the wrong number of fields, an
/// empty field, a field that is not a number of the column's dtype, or one
/// out of its range.
std::vector<Tensor> read_csv(const std::string &path, CsvOptions options = {});

} // namespace tfc::data

#endif // TFC_DATA_READERS_H
