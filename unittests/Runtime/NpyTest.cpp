//===- NpyTest.cpp - NumPy .npy reading and writing -----------------------===//
//
// Round trips for every dtype and rank, the exact bytes NumPy writes, hostile
// and damaged files (each a clear InvalidArgumentError), and a mutation loop
// over valid files: every mutant loads as a tensor of its claimed shape or
// throws tfc::Error, nothing else.
//
//===----------------------------------------------------------------------===//

#include "TestTempDir.h"
#include "TestUtil.h"

#include "tfc/runtime/Error.h"
#include "tfc/runtime/Npy.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace tfc;
using namespace tfc::test;
namespace fs = std::filesystem;

namespace {

using tfc::test_support::TempDir;

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(f.good());
}

std::string readBytes(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

/// A .npy file with `dict` as its header (padded to 64 bytes with a final
/// '\n' when `pad`), then `data`.
std::string npy(const std::string &dict, const std::string &data, int major = 1,
                bool pad = true) {
  std::string header = dict;
  size_t prefix = major == 1 ? 10 : 12;
  if (pad) {
    header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
    header.push_back('\n');
  }
  std::string out = "\x93NUMPY";
  out.push_back(static_cast<char>(major));
  out.push_back('\0');
  size_t len = header.size();
  for (size_t i = 0; i < prefix - 8; ++i)
    out.push_back(static_cast<char>((len >> (8 * i)) & 0xff));
  return out + header + data;
}

std::string dictFor(const std::string &descr, const std::string &shape,
                    const std::string &fortran = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran +
         ", 'shape': " + shape + ", }";
}

template <class T> std::string raw(const std::vector<T> &v) {
  return std::string(reinterpret_cast<const char *>(v.data()),
                     v.size() * sizeof(T));
}

/// A tensor of `dtype` and `shape` with varied values (negative, fractional,
/// both bools).
Tensor sample(DType dtype, const std::vector<int64_t> &shape) {
  Tensor t = Tensor::empty(dtype, shape);
  int64_t n = t.numel();
  for (int64_t i = 0; i < n; ++i) {
    switch (dtype) {
    case DType::Bool:
      t.data<bool>()[i] = i % 3 == 1;
      break;
    case DType::Int32:
      t.data<int32_t>()[i] = static_cast<int32_t>(i * 7919 - 40000);
      break;
    case DType::Int64:
      t.data<int64_t>()[i] = (i - 5) * 3000000000LL;
      break;
    case DType::Float32:
      t.data<float>()[i] = static_cast<float>(i) * -0.3f + 1e-3f;
      break;
    case DType::Float64:
      t.data<double>()[i] = static_cast<double>(i) / 7.0 - 1e300 * (i == 2);
      break;
    }
  }
  return t;
}

void expectSameTensor(const Tensor &a, const Tensor &b) {
  ASSERT_EQ(a.dtype(), b.dtype());
  ASSERT_EQ(a.shape(), b.shape());
  ASSERT_EQ(a.nbytes(), b.nbytes());
  if (a.nbytes()) {
    EXPECT_EQ(std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()), 0);
  }
}

/// decode_npy(bytes) and load_npy of the same bytes on disk both throw
/// InvalidArgumentError whose message contains `expected`.
void expectRejected(const TempDir &dir, const std::string &bytes,
                    const std::string &expected) {
  SCOPED_TRACE(expected);
  try {
    decode_npy(bytes, "mem.npy");
    ADD_FAILURE() << "decode_npy accepted a bad file";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("'mem.npy'"), std::string::npos)
        << e.what();
  }
  std::string path = dir.file("bad.npy");
  writeBytes(path, bytes);
  try {
    load_npy(path);
    ADD_FAILURE() << "load_npy accepted a bad file";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
        << e.what();
  }
}

const DType kDTypes[] = {DType::Bool, DType::Int32, DType::Int64,
                         DType::Float32, DType::Float64};

TEST(Npy, RoundTripEveryDTypeAndRank) {
  TempDir dir;
  const std::vector<std::vector<int64_t>> shapes = {
      {},  {5},    {2, 3},    {2, 1, 3},   {2, 3, 1, 2}, // ranks 0..4
      {0}, {2, 0}, {0, 3, 0}, {1, 1, 1, 0}};             // empty
  for (DType dtype : kDTypes) {
    for (const auto &shape : shapes) {
      SCOPED_TRACE(std::string(to_string(dtype)) + " " +
                   shape_to_string(shape));
      Tensor t = sample(dtype, shape);
      std::string path = dir.file("t.npy");
      save_npy(path, t);
      Tensor back = load_npy(path);
      expectSameTensor(back, t);
      // The file is exactly encode_npy's bytes, and they decode the same.
      std::string bytes = readBytes(path);
      EXPECT_EQ(bytes, encode_npy(t));
      expectSameTensor(decode_npy(bytes), t);
      // Version 1.0, header padded so the data starts 64-byte aligned.
      ASSERT_GE(bytes.size(), 10u);
      EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
      size_t headerLen = static_cast<unsigned char>(bytes[8]) |
                         static_cast<unsigned char>(bytes[9]) << 8;
      EXPECT_EQ((10 + headerLen) % 64, 0u);
      EXPECT_EQ(bytes[10 + headerLen - 1], '\n');
      EXPECT_EQ(bytes.size(), 10 + headerLen + t.nbytes());
    }
  }
  // Only the saved file remains: the temporary one was renamed over it.
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"t.npy"});
}

TEST(Npy, BytesAsNumPyWritesThem) {
  // numpy.save of np.zeros((2, 3), '<f4'): this header, padded to 118 bytes.
  std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  std::string header = dict + std::string(118 - 1 - dict.size(), ' ') + "\n";
  std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + header +
                         std::string(24, '\0');
  Tensor zeros = Tensor::empty(DType::Float32, {2, 3});
  std::memset(zeros.raw_data(), 0, zeros.nbytes());
  EXPECT_EQ(encode_npy(zeros), expected);
  // Scalars and 1-d shapes are Python tuples: () and (3,).
  EXPECT_NE(encode_npy(scalar<int64_t>(1)).find("'shape': (), }"),
            std::string::npos);
  EXPECT_NE(encode_npy(make<bool>({true, false, true}, {3}))
                .find("{'descr': '|b1', 'fortran_order': False, "
                      "'shape': (3,), }"),
            std::string::npos);
}

TEST(Npy, AcceptedVariants) {
  std::string data = raw(std::vector<float>{1.5f, -2.f});
  // Double quotes, keys in another order, no trailing comma, no padding.
  expectEq<float>(decode_npy(npy("{\"shape\": (2,), \"fortran_order\": False, "
                                 "\"descr\": \"<f4\"}",
                                 data, 1, false)),
                  {2}, {1.5f, -2.f});
  // Header versions 2.0 and 3.0 (4-byte header length).
  expectEq<float>(decode_npy(npy(dictFor("<f4", "(2,)"), data, 2)), {2},
                  {1.5f, -2.f});
  expectEq<float>(decode_npy(npy(dictFor("<f4", "(2,)"), data, 3)), {2},
                  {1.5f, -2.f});
  // Big-endian data is converted.
  std::string be = {'\x3f', '\xc0', '\0', '\0', '\xc0', '\0', '\0', '\0'};
  expectEq<float>(decode_npy(npy(dictFor(">f4", "(2,)"), be)), {2},
                  {1.5f, -2.f});
  std::string be64(16, '\0');
  be64[7] = 1;
  be64[8] = '\xff';
  be64[15] = '\xfe';
  Tensor i64 = decode_npy(npy(dictFor(">i8", "(1, 2)"), be64));
  expectEq<int64_t>(i64, {1, 2},
                    {1, static_cast<int64_t>(0xff000000000000feULL)});
  std::string bei4 = {'\0', '\0', '\x01', '\x02'};
  expectEq<int32_t>(decode_npy(npy(dictFor(">i4", "()"), bei4)), {}, {258});
  std::string bef8 = {'\x40', '\x19', '\0', '\0', '\0', '\0', '\0', '\0'};
  expectEq<double>(decode_npy(npy(dictFor(">f8", "()"), bef8)), {}, {6.25});
  // Bool bytes other than 0 and 1 read as true.
  expectEq<bool>(
      decode_npy(npy(dictFor("|b1", "(3,)"), std::string("\x02\x00\x01", 3))),
      {3}, {true, false, true});
  // Spaces inside the tuple; a 0-size shape whose non-zero dims are large.
  expectEq<int32_t>(decode_npy(npy(dictFor("<i4", "( 0 , 4000000000 )"), "")),
                    {0, 4000000000}, {});
}

TEST(Npy, HostileFiles) {
  TempDir dir;
  std::string f32x2 = raw(std::vector<float>{1, 2});
  std::string good = npy(dictFor("<f4", "(2,)"), f32x2);
  expectSameTensor(decode_npy(good), make<float>({1, 2}, {2}));

  // The prefix.
  expectRejected(dir, "", "not a .npy file (missing the \\x93NUMPY magic)");
  expectRejected(dir, "\x93NUM", "missing the \\x93NUMPY magic");
  std::string badMagic = good;
  badMagic[5] = 'Z';
  expectRejected(dir, badMagic, "missing the \\x93NUMPY magic");
  std::string v4 = good;
  v4[6] = 4;
  expectRejected(dir, v4, "unsupported format version 4.0");
  std::string v11 = good;
  v11[7] = 1;
  expectRejected(dir, v11, "unsupported format version 1.1");
  expectRejected(dir, good.substr(0, 9), "truncated header");
  expectRejected(dir, npy(dictFor("<f4", "(2,)"), f32x2, 2).substr(0, 11),
                 "truncated header");
  // Header lengths past the end of the file.
  std::string longHeader = good;
  longHeader[8] = '\xff';
  longHeader[9] = '\xff';
  expectRejected(dir, longHeader, "truncated header (it claims 65535 bytes");
  std::string v2 = npy(dictFor("<f4", "(2,)"), f32x2, 2);
  v2[8] = v2[9] = v2[10] = v2[11] = '\xff';
  expectRejected(dir, v2, "truncated header (it claims 4294967295 bytes");
  expectRejected(dir, good.substr(0, 40), "truncated header");
  // A header that fits in the file but is absurdly long (version 2.0).
  expectRejected(
      dir, npy(dictFor("<f4", "(2,)") + std::string(1 << 20, ' '), f32x2, 2),
      "the header of 1048692 bytes is too long (at most 1048576)");

  // The dict's syntax.
  expectRejected(dir, npy("hello", ""), "malformed header: expected '{'");
  expectRejected(dir,
                 npy("{'descr': '<f4', 'fortran_order': False, "
                     "'shape': (2,)",
                     f32x2),
                 "malformed header: expected ',' or '}'");
  expectRejected(dir,
                 npy("{'descr: '<f4', 'fortran_order': False, "
                     "'shape': (2,), }",
                     f32x2),
                 "malformed header");
  expectRejected(dir,
                 npy("{'descr' '<f4', 'fortran_order': False, "
                     "'shape': (2,), }",
                     f32x2),
                 "malformed header: expected ':' after 'descr'");
  expectRejected(dir, npy(dictFor("<f4", "(2,)") + " x", f32x2),
                 "malformed header: text after the closing '}'");
  expectRejected(dir,
                 npy("{'descr': '<f\\x34', 'fortran_order': False, "
                     "'shape': (2,), }",
                     f32x2),
                 "unsupported character in a string");
  expectRejected(dir,
                 npy(dictFor("<f\xe9"
                             "4",
                             "(2,)"),
                     f32x2),
                 "unsupported character in a string");
  expectRejected(dir, npy(std::string("{'descr': '<f4'\0, ", 18), f32x2),
                 "malformed header");
  expectRejected(dir, npy("{'descr': '<f4', 'shape': (2,), }", f32x2),
                 "the header has no 'fortran_order' entry");
  expectRejected(dir, npy("{'descr': '<f4', 'fortran_order': False}", f32x2),
                 "the header has no 'shape' entry");
  expectRejected(dir,
                 npy("{'descr': '<f4', 'fortran_order': False, "
                     "'shape': (2,), 'extra': 1}",
                     f32x2),
                 "unexpected key 'extra'");
  expectRejected(dir,
                 npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': "
                     "False, 'shape': (2,)}",
                     f32x2),
                 "the header has 'descr' twice");
  expectRejected(dir, npy(dictFor("<f4", "(2,)", "1"), f32x2),
                 "'fortran_order' is not True or False");

  // What the dict says.
  expectRejected(dir, npy(dictFor("<f4", "(2, 2)", "True"), f32x2 + f32x2),
                 "Fortran-order arrays are not supported");
  expectRejected(dir, npy(dictFor("|u1", "(2,)"), "ab"),
                 "unsupported dtype '|u1'");
  expectRejected(dir, npy(dictFor("<f2", "(2,)"), "abcd"),
                 "unsupported dtype '<f2'");
  expectRejected(dir, npy(dictFor("<U3", "(2,)"), f32x2),
                 "unsupported dtype '<U3'");
  expectRejected(dir,
                 npy("{'descr': [('a', '<f4')], 'fortran_order': False, "
                     "'shape': (2,), }",
                     f32x2),
                 "structured dtypes");
  expectRejected(dir, npy(dictFor("<f4", "(-2,)"), f32x2),
                 "'shape' has a negative dim");
  expectRejected(dir, npy(dictFor("<f4", "2"), f32x2),
                 "'shape' is not a tuple");
  expectRejected(dir, npy(dictFor("<f4", "(2)"), f32x2),
                 "a 1-d shape is written (2,)");
  expectRejected(dir, npy(dictFor("<f4", "(2,,)"), f32x2),
                 "'shape' holds something other than non-negative integers");
  expectRejected(dir, npy(dictFor("<f4", "(2.5,)"), f32x2),
                 "',' or ')' in 'shape'");
  expectRejected(dir, npy(dictFor("<f4", "(99999999999999999999,)"), f32x2),
                 "a dim of 'shape' is too large");
  expectRejected(dir, npy(dictFor("<f4", "(4294967296, 4294967296)"), f32x2),
                 "the shape (4294967296, 4294967296) of float32 is too large");
  std::string rank65 = "(";
  for (int i = 0; i < 65; ++i)
    rank65 += "1, ";
  expectRejected(dir, npy(dictFor("<f4", rank65 + ")"), f32x2),
                 "'shape' has more than 64 dims");
  // A claimed 100 GB with 8 bytes of data: rejected before any allocation.
  expectRejected(dir, npy(dictFor("<f4", "(25000000000,)"), f32x2),
                 "the data has 8 bytes, but float32 (25000000000,) needs "
                 "100000000000 (the file is truncated)");

  // The data's size.
  expectRejected(dir, good.substr(0, good.size() - 1),
                 "the data has 7 bytes, but float32 (2,) needs 8 (the file is "
                 "truncated)");
  expectRejected(dir, good + "x",
                 "the data has 9 bytes, but float32 (2,) needs 8 (trailing "
                 "bytes after the data)");
  expectRejected(dir, npy(dictFor("<f4", "()"), ""),
                 "the data has 0 bytes, but float32 () needs 4");
}

TEST(Npy, FileErrors) {
  TempDir dir;
  EXPECT_THROW(
      {
        try {
          load_npy(dir.file("missing.npy"));
        } catch (const InvalidArgumentError &e) {
          EXPECT_NE(std::string(e.what()).find("cannot open '"),
                    std::string::npos);
          EXPECT_NE(std::string(e.what()).find("No such file"),
                    std::string::npos);
          throw;
        }
      },
      InvalidArgumentError);
  EXPECT_THROW(load_npy(dir.path.string()), InvalidArgumentError);
  EXPECT_THROW(load_npy("/dev/null"), InvalidArgumentError);

  // save_npy: bad tensors and unwritable paths, leaving nothing behind.
  EXPECT_THROW(save_npy(dir.file("u.npy"), Tensor()), InvalidArgumentError);
  EXPECT_THROW(encode_npy(Tensor()), InvalidArgumentError);
  try {
    save_npy(dir.file("no/such/dir/x.npy"), scalar<float>(1));
    ADD_FAILURE() << "save_npy into a missing directory succeeded";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find("save_npy: cannot write '"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(dir.entries().empty());
  // Renaming onto a directory fails; the temporary file is removed.
  fs::create_directory(dir.path / "d.npy");
  EXPECT_THROW(save_npy(dir.file("d.npy"), scalar<float>(1)),
               InvalidArgumentError);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"d.npy"});

  // Overwriting replaces the whole file.
  std::string path = dir.file("w.npy");
  save_npy(path, sample(DType::Float64, {100}));
  save_npy(path, scalar<int32_t>(7));
  expectEq<int32_t>(load_npy(path), {}, {7});
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"d.npy", "w.npy"}));
}

/// Every mutant of a valid file loads as a tensor whose data matches its
/// claimed shape, or throws tfc::Error; any other outcome (another
/// exception type, a crash, a sanitizer report) fails.
TEST(Npy, MutationLoop) {
  TempDir dir;
  std::vector<std::string> seeds = {
      encode_npy(sample(DType::Float32, {3, 4})),
      encode_npy(sample(DType::Int64, {})),
      encode_npy(sample(DType::Bool, {2, 0, 3})),
      npy(dictFor(">i4", "(2, 2)"), std::string(16, '\x01'), 2),
      npy("{\"shape\": (5,), \"descr\": \"|b1\", \"fortran_order\": False}",
          std::string("\x01\x00\x01\x01\x00", 5), 3, false),
  };
  std::mt19937 rng(20240521);
  auto pick = [&](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  int loaded = 0, rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string bytes = seeds[iter % seeds.size()];
    int kind = static_cast<int>(pick(5));
    if (kind == 0) { // Flip 1 to 4 random bits or bytes.
      for (size_t k = pick(4) + 1; k-- > 0;)
        bytes[pick(bytes.size())] ^= static_cast<char>(1u << pick(8));
    } else if (kind == 1) { // Truncate.
      bytes.resize(pick(bytes.size()));
    } else if (kind == 2) { // Overwrite a byte with a header-ish character.
      static const char chars[] = "{}():,' \"\n0123456789-<>|fibuTF\x93\xff";
      bytes[pick(bytes.size())] = chars[pick(sizeof chars - 1)];
    } else if (kind == 3) { // Insert or delete a byte.
      size_t at = pick(bytes.size());
      if (pick(2))
        bytes.insert(bytes.begin() + static_cast<ptrdiff_t>(at),
                     static_cast<char>(pick(256)));
      else
        bytes.erase(at, 1);
    } else { // A random header length.
      bytes[8] = static_cast<char>(pick(256));
      bytes[9] = static_cast<char>(pick(256));
    }
    auto check = [&](const Tensor &t) {
      ASSERT_TRUE(t.defined());
      ASSERT_EQ(t.numel(), shape_numel(t.shape()));
      ASSERT_LE(t.nbytes(), bytes.size());
    };
    try {
      // Every tenth mutant also goes through the file path.
      if (iter % 10 == 0) {
        std::string path = dir.file("m.npy");
        writeBytes(path, bytes);
        check(load_npy(path));
      }
      check(decode_npy(bytes, "mutant"));
      ++loaded;
    } catch (const Error &) {
      ++rejected;
    } catch (const std::exception &e) {
      FAIL() << "iteration " << iter << ": not a tfc::Error: " << e.what();
    }
  }
  RecordProperty("loaded", loaded);
  RecordProperty("rejected", rejected);
  // Both outcomes occur: the loop exercises more than the first check.
  EXPECT_GT(loaded, 50);
  EXPECT_GT(rejected, 1000);
}

} // namespace
