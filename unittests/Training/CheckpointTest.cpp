//===- CheckpointTest.cpp - safetensors files, checkpoints, the manager ---===//
//
// safetensors: round trips of every dtype, the exact bytes of a small file
// built by hand from the spec, every rejection rule with a crafted file,
// every truncation and header byte flip of a valid file. Checkpoints: the
// key scheme, save/restore, all-or-nothing restores, the manager's
// numbering, deletion and rescanning.
//
//===----------------------------------------------------------------------===//

#include "tfc/train/Checkpoint.h"
#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Ops.h"
#include "tfc/keras/Layer.h"
#include "tfc/keras/Layers.h"
#include "tfc/keras/Model.h"
#include "tfc/keras/Optimizers.h"
#include "tfc/runtime/Error.h"
#include "tfc/train/SafeTensors.h"

#include "TestTempDir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace tfc;
using namespace tfc::train;
namespace fs = std::filesystem;

namespace {

using test_support::TempDir;

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

std::string readBytes(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

/// 8-byte little-endian n, then `json`, then `data`: a file by hand.
std::string craft(const std::string &json, const std::string &data = "",
                  uint64_t n = UINT64_MAX) {
  if (n == UINT64_MAX)
    n = json.size();
  std::string out(8, '\0');
  for (int k = 0; k < 8; ++k)
    out[k] = char((n >> (8 * k)) & 0xFF);
  return out + json + data;
}

/// The message of the tfc::Error that `f` throws ("" if it throws none).
template <class F> std::string errorOf(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

/// Expects `bytes` to be rejected, as a file and as bytes, with a message
/// naming the file and containing `what`.
void expectRejected(const std::string &bytes, const std::string &what) {
  TempDir dir;
  std::string path = dir.file("bad.safetensors");
  writeBytes(path, bytes);
  std::string msg = errorOf([&] { load_safetensors(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find(what), std::string::npos)
      << "expected '" << what << "' in: " << msg;
  std::string fromBytes = errorOf([&] { decode_safetensors(bytes, "mem"); });
  EXPECT_NE(fromBytes.find(what), std::string::npos) << fromBytes;
}

/// A one-tensor header for `entry`, e.g. R"("dtype":"F32",...)".
std::string oneEntry(const std::string &entry) {
  return R"({"x":{)" + entry + "}}";
}

/// The bytes of a small valid file: F32 [2] {1, -2}, I32 scalar 7, metadata
/// {"k": "v"}, written out from the spec by hand.
std::string handBuiltFile() {
  std::string json = R"({"__metadata__":{"k":"v"},)"
                     R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                     R"("b":{"dtype":"I32","shape":[],"data_offsets":[8,12]}})";
  EXPECT_EQ(json.size(), 132u);
  std::string bytes("\x88\0\0\0\0\0\0\0", 8); // 136 = 132 + 4 spaces
  bytes += json + "    ";
  bytes += std::string("\x00\x00\x80\x3f", 4); // 1.0f
  bytes += std::string("\x00\x00\x00\xc0", 4); // -2.0f
  bytes += std::string("\x07\x00\x00\x00", 4); // 7
  return bytes;
}

//===----------------------------------------------------------------------===//
// safetensors
//===----------------------------------------------------------------------===//

TEST(SafeTensors, RoundTripEveryDtypeAndShape) {
  TempDir dir;
  std::string path = dir.file("all.safetensors");
  std::vector<std::pair<std::string, Tensor>> in = {
      {"f32", constant({{1.5f, -2.f, 3.f}, {4.f, 5.f, 6.25f}})},
      {"f64", constant({1e300, -0.5, 3.0, 1e-300})},
      {"i32", constant(int32_t(-7))},
      {"i64", constant({int64_t(1) << 40, int64_t(-3)})},
      {"bool", constant({true, false, true})},
      {"empty_f32", zeros({0}, DType::Float32)},
      {"empty_i64", zeros({2, 0, 3}, DType::Int64)},
      {"scalar_f64", constant(2.5)},
      {"z", constant({{{1.f}}})},
  };
  std::map<std::string, std::string> meta = {
      {"plain", "v"},
      {"escapes", "q\"b\\s/n\nt\tc\x01"},
      {"unicode", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"},
      {"", ""}};
  save_safetensors(path, in, meta);
  SafeTensorsFile out = load_safetensors(path);
  EXPECT_EQ(out.metadata, meta);
  // File order is sorted name order (the writer lays data out that way).
  std::vector<std::string> names;
  for (const auto &[n, t] : out.tensors)
    names.push_back(n);
  EXPECT_EQ(names,
            (std::vector<std::string>{"bool", "empty_f32", "empty_i64", "f32",
                                      "f64", "i32", "i64", "scalar_f64", "z"}));
  std::map<std::string, Tensor> got(out.tensors.begin(), out.tensors.end());
  for (const auto &[name, t] : in) {
    SCOPED_TRACE(name);
    const Tensor &g = got.at(name);
    EXPECT_EQ(g.dtype(), t.dtype());
    EXPECT_EQ(g.shape(), t.shape());
    EXPECT_TRUE(g.device().is_cpu());
  }
  EXPECT_EQ(got["f32"].to_vector<float>(),
            (std::vector<float>{1.5f, -2.f, 3.f, 4.f, 5.f, 6.25f}));
  EXPECT_EQ(got["f64"].to_vector<double>(),
            (std::vector<double>{1e300, -0.5, 3.0, 1e-300}));
  EXPECT_EQ(got["i32"].item<int32_t>(), -7);
  EXPECT_EQ(got["i64"].to_vector<int64_t>(),
            (std::vector<int64_t>{int64_t(1) << 40, -3}));
  EXPECT_EQ(got["bool"].to_vector<bool>(),
            (std::vector<bool>{true, false, true}));
  EXPECT_EQ(got["empty_f32"].numel(), 0);
  EXPECT_EQ(got["empty_i64"].shape(), (std::vector<int64_t>{2, 0, 3}));
  EXPECT_EQ(got["scalar_f64"].item<double>(), 2.5);
  EXPECT_EQ(got["z"].to_vector<float>(), std::vector<float>{1.f});
  // The header is padded to a multiple of 8.
  std::string bytes = readBytes(path);
  uint64_t n = 0;
  for (int k = 7; k >= 0; --k)
    n = (n << 8) | static_cast<unsigned char>(bytes[k]);
  EXPECT_EQ(n % 8, 0u);
  EXPECT_EQ(bytes, encode_safetensors(in, meta));
}

TEST(SafeTensors, EmptyFile) {
  std::string bytes = encode_safetensors({});
  EXPECT_EQ(bytes, craft("{}      ")); // "{}" padded to 8
  SafeTensorsFile f = decode_safetensors(bytes);
  EXPECT_TRUE(f.tensors.empty());
  EXPECT_TRUE(f.metadata.empty());
}

TEST(SafeTensors, ExactBytesOfAHandBuiltFile) {
  std::string expected = handBuiltFile();
  std::vector<std::pair<std::string, Tensor>> tensors = {
      {"b", constant(int32_t(7))}, {"a", constant({1.f, -2.f})}};
  EXPECT_EQ(encode_safetensors(tensors, {{"k", "v"}}), expected);
  TempDir dir;
  std::string path = dir.file("small.safetensors");
  save_safetensors(path, tensors, {{"k", "v"}});
  EXPECT_EQ(readBytes(path), expected);

  SafeTensorsFile f = decode_safetensors(expected);
  ASSERT_EQ(f.tensors.size(), 2u);
  EXPECT_EQ(f.tensors[0].first, "a");
  EXPECT_EQ(f.tensors[0].second.to_vector<float>(),
            (std::vector<float>{1.f, -2.f}));
  EXPECT_EQ(f.tensors[1].first, "b");
  EXPECT_EQ(f.tensors[1].second.item<int32_t>(), 7);
  EXPECT_EQ(f.metadata, (std::map<std::string, std::string>{{"k", "v"}}));
}

TEST(SafeTensors, ReadsOtherWritersLayouts) {
  // Keys out of offset order, whitespace between tokens, escapes, trailing
  // space padding and an unaligned header size: all allowed by the spec.
  std::string json = "{ \"z\\u00e9\\ud83d\\ude00\" : {\"shape\" : [ 1 ],\n"
                     "\"data_offsets\":[4,12],\"dtype\":\"F64\"},\r\n"
                     "\t\"a\\\"\\/\":{\"dtype\":\"I32\",\"shape\":[],"
                     "\"data_offsets\":[0,4]}}   ";
  std::string data("\x05\x00\x00\x00", 4);
  data += std::string("\x00\x00\x00\x00\x00\x00\xf0\x3f", 8); // 1.0
  SafeTensorsFile f = decode_safetensors(craft(json, data));
  ASSERT_EQ(f.tensors.size(), 2u);
  EXPECT_EQ(f.tensors[0].first, "a\"/"); // data order
  EXPECT_EQ(f.tensors[0].second.item<int32_t>(), 5);
  EXPECT_EQ(f.tensors[1].first, "z\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(f.tensors[1].second.to_vector<double>(), std::vector<double>{1.0});
  // Zero-size tensors may share an offset with their neighbours.
  std::string zeros =
      R"({"e":{"dtype":"F32","shape":[0,5],"data_offsets":[4,4]},)"
      R"("f":{"dtype":"BOOL","shape":[4],"data_offsets":[0,4]},)"
      R"("g":{"dtype":"I64","shape":[0],"data_offsets":[0,0]}})";
  f = decode_safetensors(craft(zeros, std::string("\x01\x00\x01\x01", 4)));
  ASSERT_EQ(f.tensors.size(), 3u);
  EXPECT_EQ(f.tensors[0].first, "g");
  EXPECT_EQ(f.tensors[1].first, "f");
  EXPECT_EQ(f.tensors[1].second.to_vector<bool>(),
            (std::vector<bool>{true, false, true, true}));
  EXPECT_EQ(f.tensors[2].first, "e");
  EXPECT_EQ(f.tensors[2].second.shape(), (std::vector<int64_t>{0, 5}));
}

TEST(SafeTensors, RejectsBadSizes) {
  expectRejected("", "too short for the 8-byte header size");
  expectRejected(std::string("\x02\0\0", 3), "too short");
  expectRejected(craft("{}", "", 0), "empty header");
  expectRejected(craft("{}", "", 3), "exceeds the file");
  expectRejected(craft("{}", "", 200'000'000), "exceeds the limit of 100 MB");
  expectRejected(craft("{}", "", UINT64_MAX - 1), "exceeds the limit");
  expectRejected(craft("{}", "x"), "1 bytes after the last tensor's data");
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":[1],"data_offsets":[0,4])"),
            "abc"),
      "lies beyond the 3-byte data buffer");
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":[1],"data_offsets":[0,4])"),
            "abcdefgh"),
      "4 bytes after the last tensor's data");
}

TEST(SafeTensors, RejectsMalformedJson) {
  expectRejected(craft("[]"), "must be a JSON object starting with '{'");
  expectRejected(craft(" {}"), "starting with '{'");
  expectRejected(craft("{}x"), "unexpected bytes after the header object");
  expectRejected(craft("{}\n"), "unexpected bytes after the header object");
  expectRejected(craft("{}{}"), "unexpected bytes after");
  expectRejected(craft("{"), "expected a string key");
  expectRejected(craft(R"({"a")"), "expected ':', found the end");
  expectRejected(craft(R"({"a":)"), "expected a value, found the end");
  expectRejected(craft(R"({"a":{},})"), "expected a string key");
  expectRejected(craft(R"({"a":{} "b":{}})"), "expected '}'");
  expectRejected(craft(R"({"a":[1 2]})"), "expected ']'");
  expectRejected(craft(R"({"a":{},"a":{}})"), "duplicate key \"a\"");
  expectRejected(craft(R"({"__metadata__":{"k":"1","k":"2"}})"),
                 "duplicate key \"k\"");
  expectRejected(craft(R"({"a":"unterminated)"), "unterminated string");
  expectRejected(craft(R"({"a\x":{}})"), "unknown escape '\\x'");
  expectRejected(craft(R"({"\u12":{}})"), "bad hex digit");
  expectRejected(craft(R"({"\ud800":{}})"), "unpaired high surrogate");
  expectRejected(craft(R"({"\ud800\u0041":{}})"), "unpaired high surrogate");
  expectRejected(craft(R"({"\udc00":{}})"), "unpaired low surrogate");
  expectRejected(craft("{\"a\xff\":{}}"), "invalid UTF-8");
  expectRejected(craft("{\"a\xc0\x80\":{}}"), "invalid UTF-8");    // overlong
  expectRejected(craft("{\"\xed\xa0\x80\":{}}"), "invalid UTF-8"); // surrogate
  expectRejected(craft("{\"a\nb\":{}}"), "control character");
  expectRejected(craft(R"({"a":-1})"), "negative numbers are not allowed");
  expectRejected(craft(R"({"a":1.5})"), "only integers");
  expectRejected(craft(R"({"a":1e3})"), "only integers");
  expectRejected(craft(R"({"a":01})"), "leading zero");
  expectRejected(craft(R"({"a":99999999999999999999})"), "integer too large");
  expectRejected(craft(R"({"a":true})"), "unsupported JSON value");
  expectRejected(craft(R"({"a":null})"), "unsupported JSON value");
  // Depth: the header object is level 1; 8 levels parse, 9 do not.
  std::string eight = R"({"a":[[[[[[[]]]]]]]})";
  std::string nine = R"({"a":[[[[[[[[]]]]]]]]})";
  expectRejected(craft(eight), "tensor 'a' must be an object");
  expectRejected(craft(nine), "nested deeper than 8 levels");
  std::string deep = "{\"a\":" + std::string(100000, '[');
  expectRejected(craft(deep), "nested deeper than 8 levels");
}

TEST(SafeTensors, RejectsBadEntries) {
  expectRejected(craft(R"({"x":[]})"), "tensor 'x' must be an object");
  expectRejected(craft(oneEntry(R"("dtype":"F32","shape":[])")),
                 "tensor 'x' lacks the field 'data_offsets'");
  expectRejected(craft(oneEntry(R"("shape":[],"data_offsets":[0,0])")),
                 "lacks the field 'dtype'");
  expectRejected(
      craft(oneEntry(
                R"("dtype":"F32","shape":[],"data_offsets":[0,4],"extra":1)"),
            "abcd"),
      "unknown field 'extra'");
  expectRejected(
      craft(oneEntry(R"("dtype":5,"shape":[],"data_offsets":[0,0])")),
      "dtype must be a string, not an integer");
  expectRejected(
      craft(oneEntry(R"("dtype":"F16","shape":[1],"data_offsets":[0,2])"),
            "ab"),
      "dtype 'F16' is not supported");
  expectRejected(
      craft(oneEntry(R"("dtype":"BF16","shape":[1],"data_offsets":[0,2])"),
            "ab"),
      "dtype 'BF16' is not supported");
  expectRejected(
      craft(oneEntry(R"("dtype":"f32","shape":[],"data_offsets":[0,4])"),
            "abcd"),
      "dtype 'f32' is not supported");
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":1,"data_offsets":[0,4])")),
      "shape must be an array of integers, not an integer");
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":["1"],"data_offsets":[0,4])")),
      "shape must be an array of integers, but holds a string");
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":[-1],"data_offsets":[0,4])")),
      "negative numbers are not allowed");
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":[1],"data_offsets":[0,4,8])")),
      "data_offsets must hold 2 integers, not 3");
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":[1],"data_offsets":[0])")),
      "data_offsets must hold 2 integers, not 1");
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":[1],"data_offsets":{})")),
      "data_offsets must be an array of integers, not an object");
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":[0],"data_offsets":[4,0])"),
            "abcd"),
      "run backwards");
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":[2],"data_offsets":[0,4])"),
            "abcd"),
      "span 4 bytes, but F32 (2,) needs 8");
  expectRejected(
      craft(oneEntry(R"("dtype":"I64","shape":[1],"data_offsets":[0,4])"),
            "abcd"),
      "needs 8");
  // Byte sizes that overflow 64 bits, or an int64, are caught.
  expectRejected(
      craft(oneEntry(R"("dtype":"F32","shape":[4611686018427387904,4],)"
                     R"("data_offsets":[0,0])")),
      "the shape's byte size overflows");
  expectRejected(
      craft(oneEntry(R"("dtype":"F64","shape":[18446744073709551615],)"
                     R"("data_offsets":[0,0])")),
      "dimension 18446744073709551615 is too large");
  expectRejected(
      craft(oneEntry(R"("dtype":"F64","shape":[2305843009213693952],)"
                     R"("data_offsets":[0,0])")),
      "overflows");
  std::string rank65 = "[" + std::string(64 * 2, ' ');
  for (int i = 0; i < 65; ++i)
    rank65 += i ? ",1" : "1";
  rank65 += "]";
  expectRejected(craft(oneEntry(R"("dtype":"F32","shape":)" + rank65 +
                                R"(,"data_offsets":[0,4])"),
                       "abcd"),
                 "rank 65 exceeds 64");
  expectRejected(craft(R"({"__metadata__":[]})"),
                 "__metadata__ must be an object, not an array");
  expectRejected(craft(R"({"__metadata__":{"k":1}})"),
                 "__metadata__ value of 'k' must be a string, not an integer");
  expectRejected(
      craft(oneEntry(R"("dtype":"BOOL","shape":[3],"data_offsets":[0,3])"),
            std::string("\x01\x02\x00", 3)),
      "BOOL tensor 'x' holds byte 2 at element 1");
}

TEST(SafeTensors, RejectsBuffersThatDoNotTile) {
  auto entry = [](const char *name, int begin, int end) {
    return std::string("\"") + name +
           R"(":{"dtype":"I32","shape":[1],"data_offsets":[)" +
           std::to_string(begin) + "," + std::to_string(end) + "]}";
  };
  // Overlap: both tensors on bytes 0..4.
  expectRejected(
      craft("{" + entry("a", 0, 4) + "," + entry("b", 0, 4) + "}", "abcd"),
      "overlap the previous tensor's data");
  expectRejected(
      craft("{" + entry("a", 0, 4) + "," + entry("b", 2, 6) + "}", "abcdef"),
      "overlap");
  // Hole: bytes 4..8 belong to no tensor.
  expectRejected(craft("{" + entry("a", 0, 4) + "," + entry("b", 8, 12) + "}",
                       "abcdefghijkl"),
                 "tensor 'b': data starts at byte 8, leaving a hole after "
                 "byte 4");
  expectRejected(craft("{" + entry("a", 4, 8) + "}", "abcdefgh"),
                 "data starts at byte 4");
  // Offsets beyond the buffer.
  expectRejected(
      craft("{" + entry("a", 0, 4) + "," + entry("b", 4, 8) + "}", "abcd"),
      "tensor 'b': data_offsets end 8 lies beyond");
}

TEST(SafeTensors, RejectsMissingFilesAndDirectories) {
  TempDir dir;
  std::string missing = dir.file("missing.safetensors");
  std::string msg = errorOf([&] { load_safetensors(missing); });
  EXPECT_NE(msg.find("cannot open"), std::string::npos) << msg;
  EXPECT_NE(msg.find(missing), std::string::npos) << msg;
  msg = errorOf([&] { load_safetensors(dir.path.string()); });
  EXPECT_NE(msg.find("not a regular file"), std::string::npos) << msg;
}

TEST(SafeTensors, EveryTruncationThrows) {
  std::string bytes =
      encode_safetensors({{"w", constant({{1.f, 2.f}, {3.f, 4.f}})},
                          {"n", constant(int64_t(9))},
                          {"m", constant({true, false})}},
                         {{"format", "test"}});
  ASSERT_NO_THROW(decode_safetensors(bytes));
  TempDir dir;
  std::string path = dir.file("t.safetensors");
  for (size_t len = 0; len < bytes.size(); ++len) {
    SCOPED_TRACE(len);
    EXPECT_THROW(decode_safetensors(bytes.substr(0, len)), Error);
    writeBytes(path, bytes.substr(0, len));
    EXPECT_THROW(load_safetensors(path), Error);
  }
}

TEST(SafeTensors, EveryHeaderByteFlipThrowsOrLoadsConsistently) {
  std::string bytes =
      encode_safetensors({{"w", constant({{1.f, 2.f}, {3.f, 4.f}})},
                          {"n", constant(int64_t(9))},
                          {"m", constant({true, false})},
                          {"e", zeros({0, 3})}},
                         {{"k", "v"}});
  uint64_t n = 0;
  for (int k = 7; k >= 0; --k)
    n = (n << 8) | static_cast<unsigned char>(bytes[k]);
  ASSERT_LT(8 + n, bytes.size());
  size_t loaded = 0, rejected = 0;
  for (size_t i = 0; i < 8 + n; ++i) {
    for (unsigned mask : {0x01u, 0x02u, 0x10u, 0x20u, 0x80u, 0xFFu}) {
      std::string mutant = bytes;
      mutant[i] = char(static_cast<unsigned char>(mutant[i]) ^ mask);
      try {
        SafeTensorsFile f = decode_safetensors(mutant);
        ++loaded;
        // Self-consistent: the tensors' bytes fill the data buffer, each
        // tensor holds what its shape says, names are unique.
        uint64_t mn = 0;
        for (int k = 7; k >= 0; --k)
          mn = (mn << 8) | static_cast<unsigned char>(mutant[k]);
        size_t total = 0;
        std::set<std::string> names;
        for (const auto &[name, t] : f.tensors) {
          EXPECT_TRUE(names.insert(name).second);
          int64_t numel = 1;
          for (int64_t d : t.shape())
            numel *= d;
          EXPECT_EQ(t.numel(), numel);
          total += t.nbytes();
        }
        EXPECT_EQ(8 + mn + total, mutant.size()) << "byte " << i;
      } catch (const Error &) {
        ++rejected;
      }
    }
  }
  EXPECT_GT(rejected, 0u);
  EXPECT_GT(loaded, 0u); // e.g. a flipped letter of a name still loads
}

TEST(SafeTensors, SaveRejectsBadInput) {
  TempDir dir;
  std::string path = dir.file("x.safetensors");
  Tensor one = constant(1.f);
  std::string msg = errorOf([&] {
    save_safetensors(path, {{"a", one}, {"b", one}, {"a", one}});
  });
  EXPECT_NE(msg.find("duplicate tensor name 'a'"), std::string::npos) << msg;
  EXPECT_THROW(save_safetensors(path, {{"a", one}, {"a", one}}),
               InvalidArgumentError);
  msg = errorOf([&] { save_safetensors(path, {{"__metadata__", one}}); });
  EXPECT_NE(msg.find("reserved"), std::string::npos) << msg;
  msg = errorOf([&] { save_safetensors(path, {{"u", Tensor()}}); });
  EXPECT_NE(msg.find("tensor 'u' is undefined"), std::string::npos) << msg;
  msg = errorOf([&] { save_safetensors(path, {{"bad\xff", one}}); });
  EXPECT_NE(msg.find("not valid UTF-8"), std::string::npos) << msg;
  msg = errorOf([&] { save_safetensors(path, {}, {{"k", "\xc3"}}); });
  EXPECT_NE(msg.find("metadata entry 'k' is not valid UTF-8"),
            std::string::npos)
      << msg;
  EXPECT_TRUE(dir.entries().empty());
  msg = errorOf(
      [&] { save_safetensors(dir.file("no/such/dir/x.safetensors"), {}); });
  EXPECT_NE(msg.find("cannot write"), std::string::npos) << msg;
}

TEST(SafeTensors, AtomicWriteLeavesNoTemporaryFiles) {
  TempDir dir;
  std::string path = dir.file("w.safetensors");
  save_safetensors(path, {{"a", constant({1.f})}});
  save_safetensors(path, {{"a", constant({2.f, 3.f})}});
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"w.safetensors"});
  EXPECT_EQ(load_safetensors(path).tensors[0].second.to_vector<float>(),
            (std::vector<float>{2.f, 3.f}));
  // A failed rename (the target is a non-empty directory) removes the
  // temporary file and leaves the target alone.
  fs::create_directories(dir.path / "target" / "inside");
  std::string msg = errorOf([&] {
    save_safetensors(dir.file("target"), {{"a", constant(1.f)}});
  });
  EXPECT_NE(msg.find("save_safetensors: cannot write"), std::string::npos)
      << msg;
  EXPECT_EQ(dir.entries(),
            (std::vector<std::string>{"target", "w.safetensors"}));
  EXPECT_EQ(dir.entries("target"), std::vector<std::string>{"inside"});
}

//===----------------------------------------------------------------------===//
// save_variables / load_variables
//===----------------------------------------------------------------------===//

TEST(Variables, SaveLoadRoundTrip) {
  TempDir dir;
  std::string path = dir.file("v.safetensors");
  Variable a(constant({{1.f, 2.f}, {3.f, 4.f}})), b(constant(int64_t(5)));
  Variable c(constant({true, false}));
  save_variables(path, {{"layer/a", a}, {"b", b}, {"c", c}});
  Variable a2(zeros({2, 2})), b2(constant(int64_t(0)));
  Variable c2(constant({false, false}));
  load_variables(path, {{"c", c2}, {"layer/a", a2}, {"b", b2}});
  EXPECT_EQ(a2.value().to_vector<float>(),
            (std::vector<float>{1.f, 2.f, 3.f, 4.f}));
  EXPECT_EQ(b2.value().item<int64_t>(), 5);
  EXPECT_EQ(c2.value().to_vector<bool>(), (std::vector<bool>{true, false}));
  EXPECT_THROW(save_variables(path, {{"a", a}, {"a", b}}),
               InvalidArgumentError);
  EXPECT_THROW(load_variables(path, {{"b", a2}, {"b", b2}}),
               InvalidArgumentError);
}

TEST(Variables, MismatchChangesNothing) {
  TempDir dir;
  std::string path = dir.file("v.safetensors");
  save_variables(path, {{"a", Variable(constant({1.f, 2.f}))},
                        {"b", Variable(constant(int32_t(3)))},
                        {"extra", Variable(constant(0.5))}});
  Variable a(constant({9.f, 9.f})), b(constant(int32_t(9)));
  Variable wrongShape(constant({9.f, 9.f, 9.f}));
  Variable wrongDtype(constant({9.0, 9.0}));
  Variable notThere(constant(9.f));
  auto unchanged = [&] {
    EXPECT_EQ(a.value().to_vector<float>(), (std::vector<float>{9.f, 9.f}));
    EXPECT_EQ(b.value().item<int32_t>(), 9);
    EXPECT_EQ(wrongShape.value().numel(), 3);
  };
  // Unexpected entry "extra".
  std::string msg = errorOf([&] {
    load_variables(path, {{"a", a}, {"b", b}});
  });
  EXPECT_NE(msg.find("unexpected: extra"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_EQ(msg.find("missing"), std::string::npos) << msg;
  unchanged();
  // Missing entry.
  msg = errorOf([&] {
    load_variables(path, {{"a", a},
                          {"b", b},
                          {"extra", Variable(constant(0.))},
                          {"gone", notThere}});
  });
  EXPECT_NE(msg.find("missing: gone"), std::string::npos) << msg;
  unchanged();
  // Shape and dtype mismatches name both sides.
  msg = errorOf([&] {
    load_variables(
        path, {{"a", wrongShape}, {"b", b}, {"extra", Variable(constant(0.))}});
  });
  EXPECT_NE(msg.find("mismatched: a (file: float32 (2,), variable: float32 "
                     "(3,))"),
            std::string::npos)
      << msg;
  unchanged();
  msg = errorOf([&] {
    load_variables(
        path, {{"a", wrongDtype}, {"b", b}, {"extra", Variable(constant(0.))}});
  });
  EXPECT_NE(msg.find("variable: float64 (2,)"), std::string::npos) << msg;
  EXPECT_EQ(wrongDtype.value().to_vector<double>(),
            (std::vector<double>{9.0, 9.0}));
  // Many problems: the first few are listed, then a count.
  std::vector<std::pair<std::string, Variable>> many;
  for (int i = 0; i < 8; ++i)
    many.emplace_back("m" + std::to_string(i), notThere);
  msg = errorOf([&] { load_variables(path, many); });
  EXPECT_NE(msg.find("missing: m0, m1, m2, m3, m4 (and 3 more)"),
            std::string::npos)
      << msg;
  EXPECT_EQ(notThere.value().item<float>(), 9.f);
}

//===----------------------------------------------------------------------===//
// Checkpoint
//===----------------------------------------------------------------------===//

/// x @ kernel + bias, `units` wide; kernel starts at `init`.
class Cell : public keras::LayerBase {
public:
  explicit Cell(int64_t units = 2, double init = 1)
      : units(units), init(init) {}
  void build(const keras::Shape &in) override {
    kernel = add_weight("kernel", {in.back(), units},
                        keras::initializers::constant(init));
    bias = add_weight("bias", {units}, keras::initializers::zeros());
  }
  Tensor call(const Tensor &x, bool) override {
    return add(matmul(x, kernel->value()), bias->value());
  }
  int64_t units;
  double init;
  std::optional<Variable> kernel, bias;
};

/// scale * second(first(x)): own weight plus two tracked sublayers of one
/// class (paths "cell" and "cell_1").
class Net : public keras::LayerBase {
public:
  explicit Net(int64_t units = 2) {
    first = track(keras::make_layer<Cell>(units, 1.0));
    second = track(keras::make_layer<Cell>(2, 0.5));
  }
  void build(const keras::Shape &) override {
    scale = add_weight("scale", {}, keras::initializers::constant(2));
  }
  Tensor call(const Tensor &x, bool training) override {
    return mul(second(first(x, training), training), scale->value());
  }
  keras::Layer first, second;
  std::optional<Variable> scale;
};

keras::Layer builtNet(int64_t units = 2) {
  keras::Layer net = keras::make_layer<Net>(units);
  net(ones({1, 3}));
  return net;
}

std::vector<std::string> keysOf(const Checkpoint &c) {
  std::vector<std::string> out;
  for (const auto &[k, v] : c.named_variables())
    out.push_back(k);
  return out;
}

/// Every variable's values, flattened to doubles, for "changed nothing".
std::vector<std::vector<double>> snapshot(const Checkpoint &c) {
  std::vector<std::vector<double>> out;
  for (const auto &[k, v] : c.named_variables())
    out.push_back(cast(v.value(), DType::Float64).to_vector<double>());
  return out;
}

TEST(Checkpoint, KeysFollowObjectNamesAndLayerPaths) {
  keras::Layer net = builtNet();
  Variable step(constant(int64_t(0)), "step", false);
  Checkpoint ckpt({{"model", net}, {"step", step}});
  EXPECT_EQ(keysOf(ckpt),
            (std::vector<std::string>{"model/scale", "model/cell/kernel",
                                      "model/cell/bias", "model/cell_1/kernel",
                                      "model/cell_1/bias", "step"}));
  // A variable reached twice keeps its first key.
  Variable kernel = net.named_variables()[1].second;
  Checkpoint twice({{"model", net}, {"alias", kernel}});
  EXPECT_EQ(keysOf(twice).size(), 5u);
}

TEST(Checkpoint, ConstructorRejectsBadNames) {
  Variable v(constant(1.f));
  EXPECT_THROW(Checkpoint({{"", v}}), InvalidArgumentError);
  EXPECT_THROW(Checkpoint({{"a", v}, {"a", Variable(constant(2.f))}}),
               InvalidArgumentError);
  EXPECT_THROW(Checkpoint({{"__metadata__", v}}), InvalidArgumentError);
  EXPECT_THROW(Checkpoint({{"m", keras::Layer()}}), InvalidArgumentError);
  EXPECT_THROW(Checkpoint({{"o", keras::Optimizer()}}), InvalidArgumentError);
  // Keys that collide ("a/b" twice) are caught when the keys are made.
  keras::Layer net = builtNet();
  Checkpoint clash({{"model", net}, {"model/scale", v}});
  std::string msg = errorOf([&] { clash.named_variables(); });
  EXPECT_NE(msg.find("two variables have the key 'model/scale'"),
            std::string::npos)
      << msg;
}

TEST(Checkpoint, SaveWritesNumberedFilesWithMetadata) {
  TempDir dir;
  keras::Layer net = builtNet();
  Variable step(constant(int64_t(42)), "step", false);
  Checkpoint ckpt({{"model", net}, {"step", step}});
  EXPECT_EQ(ckpt.save_counter(), 0);
  std::string prefix = dir.file("sub/ckpt");
  std::string p1 = ckpt.save(prefix);
  EXPECT_EQ(p1, prefix + "-1.safetensors");
  EXPECT_EQ(ckpt.save_counter(), 1);
  std::string p2 = ckpt.save(prefix);
  EXPECT_EQ(p2, prefix + "-2.safetensors");
  EXPECT_EQ(
      dir.entries("sub"),
      (std::vector<std::string>{"ckpt-1.safetensors", "ckpt-2.safetensors"}));
  SafeTensorsFile f = load_safetensors(p2);
  EXPECT_EQ(f.metadata,
            (std::map<std::string, std::string>{
                {"format", "tfc.train.Checkpoint"}, {"save_counter", "2"}}));
  std::map<std::string, Tensor> t(f.tensors.begin(), f.tensors.end());
  EXPECT_EQ(t.size(), 6u);
  EXPECT_EQ(t.at("step").item<int64_t>(), 42);
  EXPECT_EQ(t.at("model/scale").item<float>(), 2.f);
  EXPECT_EQ(t.at("model/cell/kernel").shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(t.at("model/cell_1/kernel").to_vector<float>(),
            (std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f}));
  // A copy of the handle shares the counter.
  Checkpoint copy = ckpt;
  EXPECT_EQ(copy.save(prefix), prefix + "-3.safetensors");
  EXPECT_EQ(ckpt.save_counter(), 3);
}

TEST(Checkpoint, RestoreRoundTrip) {
  TempDir dir;
  keras::Layer net = builtNet();
  Variable step(constant(int64_t(7)), "step", false);
  Checkpoint ckpt({{"model", net}, {"step", step}});
  ckpt.save(dir.file("a"));
  std::string path = ckpt.save(dir.file("a"));
  std::vector<std::vector<double>> saved = snapshot(ckpt);

  // Change everything, then restore the same objects.
  for (const auto &[k, v] : ckpt.named_variables()) {
    Variable var = v;
    var.assign(add(var.value(), cast(constant(3), var.dtype())));
  }
  ckpt.save(dir.file("b")); // counter 3
  EXPECT_NE(snapshot(ckpt), saved);
  ckpt.restore(path);
  EXPECT_EQ(snapshot(ckpt), saved);
  EXPECT_EQ(step.value().item<int64_t>(), 7);
  EXPECT_EQ(ckpt.save_counter(), 2);

  // A fresh model of the same structure (built) gets the same values and
  // computes the same outputs.
  keras::Layer other = builtNet();
  Variable step2(constant(int64_t(0)), "step", false);
  Checkpoint fresh({{"model", other}, {"step", step2}});
  fresh.restore(path);
  EXPECT_EQ(snapshot(fresh), saved);
  EXPECT_EQ(fresh.save_counter(), 2);
  Tensor x = constant({{1.f, -2.f, 0.5f}});
  EXPECT_EQ(other(x).to_vector<float>(), net(x).to_vector<float>());
}

TEST(Checkpoint, RestoreMismatchChangesNothing) {
  TempDir dir;
  keras::Layer net = builtNet();
  Variable step(constant(int64_t(7)), "step", false);
  std::string path =
      Checkpoint({{"model", net}, {"step", step}}).save(dir.file("ckpt"));

  // Another width: cell/kernel (3, 4) vs (3, 2) and more.
  keras::Layer wide = builtNet(4);
  Variable step2(constant(int64_t(-1)), "step", false);
  Checkpoint mismatched({{"model", wide}, {"step", step2}});
  std::vector<std::vector<double>> before = snapshot(mismatched);
  std::string msg = errorOf([&] { mismatched.restore(path); });
  EXPECT_NE(msg.find("Checkpoint::restore"), std::string::npos) << msg;
  EXPECT_NE(msg.find("nothing was restored"), std::string::npos) << msg;
  EXPECT_NE(msg.find("model/cell/kernel (file: float32 (3, 2), variable: "
                     "float32 (3, 4))"),
            std::string::npos)
      << msg;
  EXPECT_EQ(snapshot(mismatched), before); // step too, though it matched
  EXPECT_EQ(mismatched.save_counter(), 0);

  // Missing and unexpected keys.
  keras::Layer same = builtNet();
  Variable extra(constant(1.f), "extra");
  Checkpoint more({{"model", same}, {"step", step2}, {"extra", extra}});
  before = snapshot(more);
  msg = errorOf([&] { more.restore(path); });
  EXPECT_NE(msg.find("missing: extra"), std::string::npos) << msg;
  EXPECT_EQ(snapshot(more), before);
  Checkpoint fewer({{"model", same}});
  before = snapshot(fewer);
  msg = errorOf([&] { fewer.restore(path); });
  EXPECT_NE(msg.find("unexpected: step"), std::string::npos) << msg;
  EXPECT_EQ(snapshot(fewer), before);

  // A damaged file changes nothing either.
  std::string bytes = readBytes(path);
  writeBytes(path, bytes.substr(0, bytes.size() - 1));
  Checkpoint ok({{"model", same}, {"step", step2}});
  before = snapshot(ok);
  EXPECT_THROW(ok.restore(path), InvalidArgumentError);
  EXPECT_EQ(snapshot(ok), before);

  // Metadata with a bad save counter is rejected before anything changes.
  writeBytes(path, bytes);
  SafeTensorsFile f = load_safetensors(path);
  save_safetensors(path, f.tensors, {{"save_counter", "x1"}});
  msg = errorOf([&] { ok.restore(path); });
  EXPECT_NE(msg.find("save_counter 'x1' is not a non-negative integer"),
            std::string::npos)
      << msg;
  EXPECT_EQ(snapshot(ok), before);
}

TEST(Checkpoint, UnbuiltLayersCannotBeSavedOrRestored) {
  TempDir dir;
  std::string path = Checkpoint({{"model", builtNet()}}).save(dir.file("ckpt"));
  keras::Layer unbuilt = keras::make_layer<Net>();
  Checkpoint ckpt({{"model", unbuilt}});
  std::string msg = errorOf([&] { ckpt.restore(path); });
  EXPECT_NE(msg.find("layer 'model'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("is not built yet"), std::string::npos) << msg;
  EXPECT_NE(msg.find("call it on an input"), std::string::npos) << msg;
  msg = errorOf([&] { ckpt.save(dir.file("other")); });
  EXPECT_NE(msg.find("Checkpoint::save: layer 'model'"), std::string::npos)
      << msg;
  EXPECT_EQ(ckpt.save_counter(), 0);
  unbuilt(ones({2, 3}));
  ckpt.restore(path);
  EXPECT_EQ(ckpt.save_counter(), 1);
}

//===----------------------------------------------------------------------===//
// Checkpoints with optimizers
//===----------------------------------------------------------------------===//

/// One update of every trainable variable of `net` with gradients of ones.
void step(keras::Optimizer &opt, const keras::Layer &net) {
  std::vector<Variable> vars = net.trainable_variables();
  std::vector<Tensor> grads;
  for (const Variable &v : vars)
    grads.push_back(ones(v.shape()));
  opt.apply_gradients(grads, vars);
}

TEST(CheckpointOptimizer, SlotsAreKeyedByTheirVariables) {
  keras::Layer net = builtNet();
  keras::Optimizer opt = keras::optimizers::Adam({.learning_rate = 0.1});
  Checkpoint ckpt({{"optimizer", opt}, {"model", net}});
  std::vector<std::string> keys = keysOf(ckpt);
  EXPECT_EQ(keys.size(), 6u); // the model's 5, then iterations
  EXPECT_EQ(keys.back(), "optimizer/iterations");
  step(opt, net);
  keys = keysOf(ckpt);
  ASSERT_EQ(keys.size(), 16u); // + m and v of 5 variables
  for (const char *key :
       {"optimizer/m/model/scale", "optimizer/v/model/scale",
        "optimizer/m/model/cell/kernel", "optimizer/v/model/cell/bias",
        "optimizer/m/model/cell_1/kernel", "optimizer/v/model/cell_1/bias"})
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
  // Each slot key names the slot's own variable.
  std::map<std::string, Variable> byKey;
  for (const auto &[k, v] : ckpt.named_variables())
    byKey.emplace(k, v);
  for (const keras::SlotVariable &s : opt.slot_variables()) {
    std::string ofKey;
    for (const auto &[path, v] : net.named_variables())
      if (v.id() == s.of.id())
        ofKey = "model/" + path;
    EXPECT_EQ(byKey.at("optimizer/" + s.slot + "/" + ofKey).id(), s.value.id());
  }
}

TEST(CheckpointOptimizer, SlotsOfVariablesOutsideTheCheckpointAreUnnamed) {
  Variable w(constant({1.f, 2.f}), "w"), u(constant(3.f), "u");
  keras::Optimizer opt = keras::optimizers::SGD({.momentum = 0.9});
  opt.apply_gradients({ones({2}), ones({})}, {w, u});
  Checkpoint ckpt({{"optimizer", opt}});
  EXPECT_EQ(keysOf(ckpt),
            (std::vector<std::string>{"optimizer/iterations",
                                      "optimizer/momentum/unnamed_0",
                                      "optimizer/momentum/unnamed_1"}));
  Checkpoint withU({{"optimizer", opt}, {"u", u}});
  EXPECT_EQ(keysOf(withU),
            (std::vector<std::string>{"u", "optimizer/iterations",
                                      "optimizer/momentum/unnamed_0",
                                      "optimizer/momentum/u"}));
}

TEST(CheckpointOptimizer, ResumingReproducesTraining) {
  TempDir dir;
  keras::Layer net = builtNet();
  keras::Optimizer opt = keras::optimizers::Adam({.learning_rate = 0.1});
  Checkpoint ckpt({{"model", net}, {"optimizer", opt}});
  step(opt, net);
  step(opt, net);
  std::string path = ckpt.save(dir.file("ckpt"));
  std::vector<std::vector<double>> saved = snapshot(ckpt);

  // A fresh model and an optimizer without slots: restoring creates the
  // slots (deferred, as tf.train.Checkpoint does) and fills them.
  keras::Layer net2 = builtNet();
  keras::Optimizer opt2 = keras::optimizers::Adam({.learning_rate = 0.1});
  Checkpoint ckpt2({{"model", net2}, {"optimizer", opt2}});
  ckpt2.restore(path);
  EXPECT_EQ(opt2.iterations().value().item<int64_t>(), 2);
  EXPECT_EQ(opt2.slot_variables().size(), 10u);
  EXPECT_EQ(snapshot(ckpt2), saved);
  EXPECT_EQ(keysOf(ckpt2), keysOf(ckpt));
  // The next step is the same on both.
  step(opt, net);
  step(opt2, net2);
  EXPECT_EQ(snapshot(ckpt2), snapshot(ckpt));
}

TEST(CheckpointOptimizer, MismatchedOptimizerChangesNoValue) {
  TempDir dir;
  keras::Layer net = builtNet();
  keras::Optimizer adam = keras::optimizers::Adam();
  step(adam, net);
  std::string path =
      Checkpoint({{"model", net}, {"optimizer", adam}}).save(dir.file("c"));

  // Another model shape: nothing is built, nothing assigned.
  keras::Layer wide = builtNet(4);
  keras::Optimizer fresh = keras::optimizers::Adam();
  Checkpoint bad({{"model", wide}, {"optimizer", fresh}});
  std::vector<std::vector<double>> before = snapshot(bad);
  std::string msg = errorOf([&] { bad.restore(path); });
  EXPECT_NE(msg.find("mismatched: model/cell/kernel"), std::string::npos)
      << msg;
  EXPECT_TRUE(fresh.slot_variables().empty());
  EXPECT_EQ(snapshot(bad), before);

  // Another optimizer: SGD's momentum slots are not Adam's m and v.
  keras::Layer same = builtNet();
  keras::Optimizer sgd = keras::optimizers::SGD({.momentum = 0.5});
  Checkpoint other({{"model", same}, {"optimizer", sgd}});
  Checkpoint modelOnly({{"model", same}});
  before = snapshot(modelOnly);
  msg = errorOf([&] { other.restore(path); });
  EXPECT_NE(msg.find("missing: optimizer/momentum/model/"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("unexpected: optimizer/m/model/"), std::string::npos)
      << msg;
  EXPECT_EQ(sgd.iterations().value().item<int64_t>(), 0);
  EXPECT_EQ(snapshot(modelOnly), before);
  // Its slots were created (as fit() would) but hold their initial zeros.
  for (const keras::SlotVariable &s : sgd.slot_variables())
    EXPECT_EQ(reduce_sum(abs(s.value.value())).item<float>(), 0.f);
}

TEST(CheckpointOptimizer, SequentialModelAndItsOptimizer) {
  TempDir dir;
  keras::Model model =
      keras::Sequential({keras::layers::Dense(3), keras::layers::Dense(1)});
  model(ones({2, 4}));
  keras::Optimizer opt = keras::optimizers::SGD({.momentum = 0.9});
  step(opt, model);
  Checkpoint ckpt({{"model", model}, {"optimizer", opt}});
  EXPECT_EQ(keysOf(ckpt),
            (std::vector<std::string>{
                "model/dense/kernel", "model/dense/bias",
                "model/dense_1/kernel", "model/dense_1/bias",
                "optimizer/iterations", "optimizer/momentum/model/dense/kernel",
                "optimizer/momentum/model/dense/bias",
                "optimizer/momentum/model/dense_1/kernel",
                "optimizer/momentum/model/dense_1/bias"}));
  std::string path = ckpt.save(dir.file("seq"));
  std::vector<std::vector<double>> saved = snapshot(ckpt);
  step(opt, model);
  EXPECT_NE(snapshot(ckpt), saved);
  ckpt.restore(path);
  EXPECT_EQ(snapshot(ckpt), saved);
}

//===----------------------------------------------------------------------===//
// CheckpointManager
//===----------------------------------------------------------------------===//

TEST(CheckpointManager, KeepsTheNewestAndDeletesTheRest) {
  TempDir dir;
  std::string d = dir.file("run");
  Variable step(constant(int64_t(0)), "step", false);
  Checkpoint ckpt({{"step", step}});
  CheckpointManager manager(ckpt, d, 2);
  EXPECT_EQ(manager.latest_checkpoint(), std::nullopt);
  EXPECT_TRUE(manager.checkpoints().empty());
  auto at = [&](int n) {
    return (fs::path(d) / ("ckpt-" + std::to_string(n) + ".safetensors"))
        .string();
  };
  for (int i = 1; i <= 3; ++i) {
    step.assign(constant(int64_t(10 * i)));
    EXPECT_EQ(manager.save(), at(i));
  }
  EXPECT_EQ(manager.checkpoints(), (std::vector<std::string>{at(2), at(3)}));
  EXPECT_EQ(manager.latest_checkpoint(), at(3));
  EXPECT_EQ(
      dir.entries("run"),
      (std::vector<std::string>{"ckpt-2.safetensors", "ckpt-3.safetensors"}));
  EXPECT_EQ(ckpt.save_counter(), 3);
  ckpt.restore(at(2));
  EXPECT_EQ(step.value().item<int64_t>(), 20);
  EXPECT_EQ(ckpt.save_counter(), 2);
  // Numbering continues past the highest file even after the restore.
  EXPECT_EQ(manager.save(), at(4));
  EXPECT_EQ(manager.checkpoints(), (std::vector<std::string>{at(3), at(4)}));
}

TEST(CheckpointManager, ANewManagerFindsExistingCheckpoints) {
  TempDir dir;
  std::string d = dir.path.string();
  Variable step(constant(int64_t(0)), "step", false);
  {
    CheckpointManager first(Checkpoint({{"step", step}}), d, 5);
    for (int i = 0; i < 3; ++i)
      first.save();
  }
  // Files the manager does not own are ignored.
  for (const char *name :
       {"ckpt-01.safetensors", "ckpt-x.safetensors", "ckpt-.safetensors",
        "ckpt-9.safetensors.tmp-1-abc", "other.txt", "ckpt-0.safetensors"})
    writeBytes(dir.file(name), "junk");
  fs::create_directory(dir.path / "ckpt-50.safetensors");
  Checkpoint fresh({{"step", step}});
  CheckpointManager second(fresh, d, 2);
  EXPECT_EQ(second.checkpoints(),
            (std::vector<std::string>{dir.file("ckpt-1.safetensors"),
                                      dir.file("ckpt-2.safetensors"),
                                      dir.file("ckpt-3.safetensors")}));
  EXPECT_EQ(second.latest_checkpoint(), dir.file("ckpt-3.safetensors"));
  EXPECT_EQ(second.save(), dir.file("ckpt-4.safetensors"));
  EXPECT_EQ(fresh.save_counter(), 4);
  EXPECT_EQ(second.checkpoints(),
            (std::vector<std::string>{dir.file("ckpt-3.safetensors"),
                                      dir.file("ckpt-4.safetensors")}));
  EXPECT_FALSE(fs::exists(dir.file("ckpt-1.safetensors")));
  EXPECT_FALSE(fs::exists(dir.file("ckpt-2.safetensors")));
  EXPECT_TRUE(fs::exists(dir.file("ckpt-01.safetensors")));

  // Numbers sort numerically (10 after 9), and a restored counter above the
  // highest file wins.
  TempDir other;
  for (int n : {9, 10, 2})
    writeBytes(other.file("ckpt-" + std::to_string(n) + ".safetensors"), "");
  Checkpoint ahead({{"step", step}});
  CheckpointManager third(ahead, other.path.string(), 5);
  EXPECT_EQ(third.latest_checkpoint(), other.file("ckpt-10.safetensors"));
  ahead.restore(dir.file("ckpt-4.safetensors"));
  EXPECT_EQ(ahead.save_counter(), 4);
  EXPECT_EQ(third.save(), other.file("ckpt-11.safetensors"));
  TempDir empty;
  CheckpointManager fourth(ahead, empty.path.string());
  EXPECT_EQ(fourth.save(), empty.file("ckpt-12.safetensors"));
}

TEST(CheckpointManager, RejectsBadArguments) {
  TempDir dir;
  Checkpoint ckpt({{"v", Variable(constant(1.f))}});
  EXPECT_THROW(CheckpointManager(ckpt, dir.path.string(), 0),
               InvalidArgumentError);
  EXPECT_THROW(CheckpointManager(ckpt, ""), InvalidArgumentError);
  writeBytes(dir.file("file"), "x");
  std::string msg = errorOf([&] { CheckpointManager(ckpt, dir.file("file")); });
  EXPECT_NE(msg.find("is not a directory"), std::string::npos) << msg;
}

} // namespace
