# -*- Python -*-
# Runs every GoogleTest binary in <build>/unittests; each TEST is one lit test,
# so `lit` reports lit and GoogleTest results in one count.
import os

import lit.formats

config.name = "TFC-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.tfc_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
for var in ["HOME", "TMP", "TEMP", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
            "OMP_NUM_THREADS", "TFC_DIFFTEST_COUNT",
            "TFC_DIFFTEST_GRAD_COUNT"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.environment["TFC_SOURCE_DIR"] = config.tfc_src_root
# The JIT's persistent compile cache: never the user's real cache directory.
config.environment["TFC_CACHE_DIR"] = os.path.join(config.tfc_obj_root,
                                                   "unittests", "tfc-cache")
config.environment["TFC_BINARY_DIR"] = config.tfc_obj_root
