# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "TFC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tfc_obj_root, "test")
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py"]

llvm_config.with_system_environment(["HOME", "TMP", "TEMP", "ASAN_OPTIONS",
                                     "UBSAN_OPTIONS", "LSAN_OPTIONS"])
llvm_config.use_default_substitutions()
# The JIT's persistent compile cache: never the user's real cache directory.
config.environment["TFC_CACHE_DIR"] = os.path.join(config.tfc_obj_root, "test",
                                                   "tfc-cache")
# `not` and FileCheck live in the installed LLVM's bin dir; put it on PATH so
# they are found anywhere in a RUN line, not only after a pipe.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [os.path.join(config.tfc_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tfc-opt", "tfc-run"], tool_dirs)
config.substitutions.append(("%tfc_src_root", config.tfc_src_root))
config.substitutions.append(("%tfc_obj_root", config.tfc_obj_root))
config.substitutions.append(("%tfc_bin", os.path.join(config.tfc_obj_root, "bin")))
config.substitutions.append(("%tfc_version", config.tfc_version))
config.substitutions.append(("%tfc_soversion", config.tfc_soversion))
# The C++ compiler tfc was built with, for tests that compile programs
# against the build tree or an installed prefix (test/Examples).
config.substitutions.append(("%cxx", config.cxx_compiler))

if config.tfc_sanitize:
    config.available_features.add("asan")
if config.tfc_slow_tests:
    config.available_features.add("slow")
# Fashion-MNIST from the Debian package dataset-fashion-mnist (scripts/setup.sh
# installs it): the main demo's training run needs it.
if os.path.isfile("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"):
    config.available_features.add("fashion-mnist")
# NVIDIA GPU (docs/gpu.md). `ptxas`: PTX can be assembled here (CUDA
# toolkit at /usr/local/cuda/bin or on PATH); tests that assemble the
# generated PTX need it. `cuda-runtime`: a CUDA driver with a device, so
# compiled kernels can run.
import shutil
ptxas = config.ptxas if config.ptxas and os.path.isfile(config.ptxas) else ""
if not ptxas and os.path.isfile("/usr/local/cuda/bin/ptxas"):
    ptxas = "/usr/local/cuda/bin/ptxas"
if not ptxas:
    ptxas = shutil.which("ptxas") or ""
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("ptxas not found (/usr/local/cuda/bin, PATH): PTX "
                    "assembly tests are UNSUPPORTED")


def cuda_device_usable():
    try:
        import ctypes
        cuda = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        return (cuda.cuInit(0) == 0 and
                cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and
                count.value > 0)
    except OSError:
        return False


if cuda_device_usable():
    config.available_features.add("cuda-runtime")
else:
    lit_config.note("no CUDA driver with a device (libcuda.so.1): GPU "
                    "execution tests are UNSUPPORTED")
# Installing and using tfc through pkg-config (scripts/setup.sh installs it).
# Distributed tests: Open MPI's mpirun and libtfc_distribute's test binary.
# Two replicas on this machine, over the loopback interface only (TCP, no
# shared memory), as root too (CI runs as root).
mpirun = shutil.which("mpirun")
if mpirun and os.path.exists(os.path.join(config.tfc_obj_root, "unittests",
                                          "TfcDistributedTests")):
    config.available_features.add("mpi")
    config.substitutions.append(
        ("%mpirun", mpirun + " --oversubscribe --mca btl self,tcp"
         " --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo"))
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"

if shutil.which("pkg-config"):
    config.available_features.add("pkg-config")
else:
    lit_config.note("pkg-config not found: the pkg-config install test is "
                    "UNSUPPORTED")
if not any(name == "%python" for name, _ in config.substitutions):
    config.substitutions.append(
        ("%python", shutil.which("python3") or "python3"))

# A python3 with NumPy (PATH's, else the system's): tests that cross-check
# .npy files with NumPy itself run it as %numpy_python.
import subprocess


def python_with_numpy():
    for candidate in (shutil.which("python3"), "/usr/bin/python3"):
        if not candidate or not os.path.isfile(candidate):
            continue
        try:
            if subprocess.run([candidate, "-c", "import numpy"],
                              capture_output=True).returncode == 0:
                return candidate
        except OSError:
            pass
    return None


numpy_python = python_with_numpy()
if numpy_python:
    config.available_features.add("numpy")
    config.substitutions.append(("%numpy_python", numpy_python))
else:
    lit_config.note("no python3 with NumPy: NumPy cross-checks are "
                    "UNSUPPORTED")
