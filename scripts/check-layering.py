#!/usr/bin/env python3
"""Checks that no dependency in tfc points "up" the architecture's layers.

Two graphs are checked against the layer tables below (bottom to top:
runtime, ops, dialect, bridge, transforms, conversion, pipelines,
registration, execution core, JIT targets, frontend, tools):

(a) The CMake link graph, read from the JSON that cmake/LinkGraph.cmake
    writes (tfc_write_link_graph, called at the end of the top-level
    CMakeLists.txt: <build>/link-graph.json). A target's dependencies are its
    LINK_LIBRARIES and INTERFACE_LINK_LIBRARIES. Violations:
      - a target links a target of a higher layer, or one of its own layer
        that SAME_LAYER_ALLOWED does not list;
      - any dependency cycle;
      - a library target of the project that is neither in LAYERS nor in
        EXTERNAL_TARGETS (new libraries must be placed deliberately);
      - a target of an MLIR-free layer (MLIR_FREE_LAYERS) that links MLIR or
        LLVM, directly or transitively;
      - a target that links, directly or transitively, one that
        FORBIDDEN_LINKS forbids it (tfc-opt must not link libtfc or the JIT).
    Transitive means through every dependency edge (private ones included:
    code a static or shared library links privately still ends up in the
    process). Targets of LAYERS that do not exist are skipped; executables
    not named in LAYERS are tools (the top layer); custom targets
    (UTILITY) are ignored.

(b) The include graph: every C/C++ file under SCANNED_DIRS of the source
    tree. A file's layer comes from FILE_LAYERS (first matching pattern),
    except that the sources of the targets in FILE_LAYER_FROM_TARGETS take
    their target's layer; a file no pattern matches takes the layer of the
    target that lists it in SOURCES. Each `#include "tfc/..."` (or <tfc/...>)
    is mapped by HEADER_LAYERS (first matching pattern). Violations:
      - a file includes a header of a higher layer (a header with the same
        stem as the file, its "own family", e.g. Foo.cpp -> Foo.h or
        Foo.h -> Foo.h.inc, is always allowed);
      - a file of an MLIR-free layer includes mlir/..., llvm/..., mlir-c/...
        or llvm-c/...;
      - a file includes a tfc/ header that HEADER_LAYERS does not map, or a
        file has no layer at all.

Adding a library: give it a layer by adding its name to the right entry of
LAYERS (if it may link a target of its own layer, add the pair to
SAME_LAYER_ALLOWED); if it has new headers or directories, add their
patterns to HEADER_LAYERS and FILE_LAYERS. An imported library (from
find_package) needs nothing: imported targets are external. A library the
project defines that stands for a third-party one (like tfc_openmp) goes
into EXTERNAL_TARGETS.

Usage:
  check-layering.py --link-graph <build>/link-graph.json --source-dir <src>
  check-layering.py --self-test
Prints one line per violation and exits 1 if there is any; else prints
"layering: N targets, N edges, N files checked, 0 violations" and exits 0.
Exit status 2: unreadable input.
"""

import argparse
import fnmatch
import io
import json
import os
import re
import sys
import tempfile
from collections import deque

# --------------------------------------------------------------------------
# Layer tables. A layer's index is its position in LAYERS (bottom first).
# --------------------------------------------------------------------------

LAYERS = [
    # [0] MLIR-free buffers, tensors, kernels, printing, and the dlopen'd
    # CUDA driver (runtime/).
    ("runtime", ["tfc_cuda_runtime", "tfc_runtime", "tfc_tensor"]),
    # [1] The MLIR-free eager ops, creation, gradients, Variables and
    # control flow on the runtime (the public tfc/frontend/*.h but Function.h).
    ("ops", ["tfc_ops"]),
    # [2] The tfc MLIR dialect: types, ops, interfaces.
    ("dialect", ["TfcDialect"]),
    # [3] Between runtime ops and the dialect: op decoding, IR traces.
    ("bridge", ["TfcBridge"]),
    # [4] tfc-to-tfc passes (fusion, variable promotion, runtime checks).
    ("transforms", ["TfcTransforms"]),
    # [5] Lowerings out of tfc (linalg, loops, runtime calls) and the GPU passes.
    ("conversion", ["TfcConversion", "TfcGPU"]),
    # [6] The pass pipelines (CPU and GPU).
    ("pipelines", ["TfcPipelines"]),
    # [7] Dialect and pass registration shared by every tool.
    ("registration", ["TfcRegistration"]),
    # [8] Executing tfc IR: the reference interpreter and the JIT core.
    ("execution core", ["TfcInterpreter", "TfcJITCore"]),
    # [9] JIT targets: CPU (TfcJIT) and CUDA (TfcGPUJIT).
    ("JIT targets", ["TfcGPUJIT", "TfcJIT"]),
    # [10] The user-facing C++ API, the shared library libtfc.so.
    ("frontend", ["tfc", "tfc_frontend", "tfc_static"]),
    # [11] The training stack (training/): keras, data, train, on the public
    # API. Its objects go into libtfc.so (TARGET_OBJECTS, not a link edge).
    ("training", ["tfc_training"]),
    # [12] Collective-library bindings (distribute/): libtfc_distribute on
    # Open MPI, above libtfc.so, so that libtfc.so does not load MPI.
    ("distribute", ["tfc_distribute"]),
    # [13] Tools, tests, benchmarks, examples: every executable not named
    # above is here. Libraries must still be named: these are the
    # differential testers' support libraries (tools/tfc-fuzz) and the
    # hand-written reference loops of bench/ (TFC_BUILD_BENCHMARKS=ON).
    # The libtorch comparisons' own translation units (only where libtorch
    # is installed) are here too.
    ("tools", ["TfcProgramGenerator", "TfcGradientDiff",
               "tfc-bench-fusion-ref", "tfc-bench-torch-cases",
               "tfc-bench-conv-torch-cases", "tfc-bench-pool-torch-cases",
               "tfc-bench-gather-torch-cases", "tfc-bench-fit-torch-cases",
               "tfc-torch-side"]),
]

# (linking target, linked target) pairs, fnmatch patterns, that may be of the
# same layer. Any other same-layer link is a violation.
SAME_LAYER_ALLOWED = [
    ("tfc_runtime", "tfc_cuda_runtime"),
    ("tfc_runtime", "tfc_tensor"),
    ("TfcJIT", "TfcGPUJIT"),  # not the reverse
    # Tools and tests link the tools layer's support libraries.
    ("*", "TfcProgramGenerator"),
    ("*", "TfcGradientDiff"),
    ("*", "tfc-bench-fusion-ref"),
    ("*", "tfc-bench-torch-cases"),
    ("*", "tfc-bench-conv-torch-cases"),
    ("*", "tfc-bench-pool-torch-cases"),
    ("*", "tfc-bench-gather-torch-cases"),
    ("*", "tfc-bench-fit-torch-cases"),
    ("*", "tfc-torch-side"),
]

# Third-party targets any layer may link (fnmatch patterns). Every imported
# target (find_package) is external as well; this list is what matters for
# project-defined stand-ins such as tfc_openmp.
EXTERNAL_TARGETS = [
    "MLIR", "LLVM", "MLIR*", "LLVM*", "Eigen3::Eigen", "BLAS::BLAS",
    "GTest::*", "tfc_openmp", "benchmark::*", "Threads::Threads",
    "OpenMP::*", "Python3::*", "ZLIB::*", "MPI::*",
]

# What counts as MLIR or LLVM among link items: target names (fnmatch) and
# regular expressions for plain strings (library files, -l flags).
MLIR_LLVM_TARGETS = ["MLIR", "LLVM", "MLIR*", "LLVM*", "mlir_*"]
MLIR_LLVM_STRINGS = [r"(^|/)lib(MLIR|LLVM)[^/]*\.(so|a)(\.[0-9.]+)?$",
                     r"^-l(MLIR|LLVM)"]

# Layers whose targets must not link MLIR/LLVM and whose files must not
# include MLIR/LLVM headers.
MLIR_FREE_LAYERS = [0, 1]
MLIR_LLVM_INCLUDE_PREFIXES = ("mlir/", "llvm/", "mlir-c/", "llvm-c/")

# target -> targets it must not link, directly or transitively.
FORBIDDEN_LINKS = {
    # The compiler driver stays a compiler: no libtfc.so, no JIT.
    "tfc-opt": ["tfc", "TfcJIT", "TfcJITCore", "TfcInterpreter", "TfcGPUJIT"],
}

# Directories (relative to the source root) whose files the include check
# reads; missing ones are skipped.
SCANNED_DIRS = ["runtime", "lib", "include", "python-free-frontend", "ops",
                "training", "distribute", "tools"]
SOURCE_EXTENSIONS = (".h", ".hh", ".hpp", ".hxx", ".c", ".cc", ".cpp", ".cxx",
                     ".cu", ".cuh", ".inc", ".def")

_OPS_HEADERS = ["Dispatch", "Ops", "Creation", "Gradients", "Variable",
                "ControlFlow", "Random", "Distribute"]

# Included header (the path after #include, fnmatch; '*' crosses '/') ->
# layer. First match wins.
HEADER_LAYERS = [
    ("tfc/runtime/*", 0),
    # Generated from include/tfc/Version.h.in: version macros only.
    ("tfc/Version.h", 0),
    *[("tfc/frontend/%s.h" % h, 1) for h in _OPS_HEADERS],
    ("tfc/Dialect/Tfc/IR/*", 2),
    ("tfc/Bridge/*", 3),
    ("tfc/Dialect/Tfc/Transforms/*", 4),
    ("tfc/Conversion/*", 5),
    ("tfc/GPU/Passes.h*", 5),  # and the generated Passes.h.inc
    ("tfc/Pipelines/*", 6),
    ("tfc/InitAllDialects.h", 7),
    # Guarded parsing, beside registration in TfcRegistration.
    ("tfc/SourceLimits.h", 7),
    ("tfc/SharedContext.h", 7),
    # tfc/JIT/CompiledModule.h is public and MLIR-free: still layer 8, so
    # the frontend (10) and tools include it; see INCLUDE_EXCEPTIONS.
    ("tfc/Interpreter/*", 8),
    ("tfc/JIT/*", 8),
    ("tfc/GPU/CudaJIT.h", 9),
    ("tfc/frontend/Function.h", 10),
    ("tfc/keras/*", 11), ("tfc/data/*", 11), ("tfc/train/*", 11),
    ("tfc/saved_model/*", 11), ("tfc/distribute/Strategy.h", 11),
    ("tfc/distribute/Mpi.h", 12),
    # The umbrella header includes the training stack too.
    ("tfc/tfc.h", 11),
]

# Header -> lowest layer that may include it, where that differs from its
# own layer (none today: the frontend is above the JIT headers anyway).
INCLUDE_EXCEPTIONS = {
    "tfc/JIT/CompiledModule.h": 8,
}

# File path relative to the source root (fnmatch; '*' crosses '/') ->
# layer. First match wins.
FILE_LAYERS = [
    ("runtime/*", 0),
    ("ops/*", 1),
    *[("python-free-frontend/include/tfc/frontend/%s.h" % h, 1)
      for h in _OPS_HEADERS],
    ("include/tfc/Dialect/Tfc/IR/*", 2), ("lib/Dialect/Tfc/IR/*", 2),
    ("include/tfc/Bridge/*", 3), ("lib/Bridge/*", 3),
    ("include/tfc/Dialect/Tfc/Transforms/*", 4),
    ("lib/Dialect/Tfc/Transforms/*", 4),
    ("include/tfc/Conversion/*", 5), ("lib/Conversion/*", 5),
    ("lib/GPU/GpuPasses.cpp", 5), ("include/tfc/GPU/Passes.h", 5),
    ("include/tfc/Pipelines/*", 6), ("lib/Pipelines/*", 6),
    ("lib/InitAllDialects.cpp", 7), ("include/tfc/InitAllDialects.h", 7),
    ("lib/SourceLimits.cpp", 7), ("include/tfc/SourceLimits.h", 7),
    ("include/tfc/SharedContext.h", 7),
    # TfcJIT's target selection, above the JIT core beside it.
    ("lib/JIT/Compile.cpp", 9),
    ("include/tfc/Interpreter/*", 8), ("lib/Interpreter/*", 8),
    ("include/tfc/JIT/*", 8), ("lib/JIT/*", 8),
    ("lib/GPU/CudaJIT.cpp", 9), ("include/tfc/GPU/CudaJIT.h", 9),
    ("python-free-frontend/*", 10), ("include/tfc/tfc.h", 11),
    ("training/*", 11),
    ("distribute/*", 12),
    ("tools/*", 13),
]

# Targets whose SOURCES take the target's layer, before FILE_LAYERS.
FILE_LAYER_FROM_TARGETS = ["tfc_ops"]

# --------------------------------------------------------------------------

LIBRARY_TYPES = {"STATIC_LIBRARY", "SHARED_LIBRARY", "OBJECT_LIBRARY",
                 "INTERFACE_LIBRARY", "MODULE_LIBRARY", "UNKNOWN_LIBRARY"}
TOP_LAYER = len(LAYERS) - 1
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def layer_name(layer):
    return LAYERS[layer][0]


def matches(name, patterns):
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def first_match(path, table):
    for pattern, layer in table:
        if fnmatch.fnmatchcase(path, pattern):
            return layer
    return None


class Graph:
    """The link graph of one link-graph.json."""

    def __init__(self, data):
        self.targets = data.get("targets", {})
        self.source_dir = data.get("source_dir")
        self.deps = {}
        for name, info in self.targets.items():
            seen = []
            for item in (info.get("link_libraries", []) +
                         info.get("interface_link_libraries", [])):
                if item not in seen:
                    seen.append(item)
            self.deps[name] = seen
        self.table_layer = {}
        for index, (_, names) in enumerate(LAYERS):
            for n in names:
                self.table_layer[n] = index

    def is_target(self, name):
        return name in self.targets

    def is_project(self, name):
        """A target the project builds (not imported, not a custom target)."""
        info = self.targets.get(name)
        return (info is not None and not info.get("imported") and
                info.get("type") != "UTILITY")

    def is_external(self, name):
        info = self.targets.get(name)
        if info is not None and info.get("imported"):
            return True
        return matches(name, EXTERNAL_TARGETS)

    def is_mlir_llvm(self, item):
        if matches(item, MLIR_LLVM_TARGETS):
            return True
        return (not self.is_target(item) and
                any(re.search(p, item) for p in MLIR_LLVM_STRINGS))

    def path_to(self, start, goal):
        """Shortest dependency path start -> ... -> x with goal(x), or None."""
        parent = {start: None}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for dep in self.deps.get(node, []):
                if dep in parent:
                    continue
                parent[dep] = node
                if goal(dep):
                    path = [dep]
                    while parent[path[-1]] is not None:
                        path.append(parent[path[-1]])
                    return list(reversed(path))
                queue.append(dep)
        return None


def target_layers(graph, violations):
    """Layer of every project target (None: unknown library)."""
    layers = {}
    for name in sorted(graph.targets):
        if not graph.is_project(name) or graph.is_external(name):
            continue
        info = graph.targets[name]
        if name in graph.table_layer:
            layers[name] = graph.table_layer[name]
        elif info.get("type") in LIBRARY_TYPES:
            violations.append(
                "unknown library target %s (%s in %s): give it a layer in "
                "scripts/check-layering.py" %
                (name, info.get("type"), info.get("source_dir") or "?"))
            layers[name] = None
        else:
            layers[name] = TOP_LAYER
    return layers


def inferred_layer(graph, name):
    """Layer an unplaced library would get from its sources' paths."""
    found = [first_match(s, FILE_LAYERS)
             for s in graph.targets[name].get("sources", [])]
    found = [l for l in found if l is not None]
    return max(found) if found else None


def find_cycles(graph, nodes):
    """One cycle (as a closed path) per strongly connected component."""
    index, low, on_stack, stack, sccs = {}, {}, set(), [], []
    counter = [0]

    def strongconnect(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.deps.get(v, []):
            if w not in nodes:
                continue
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            sccs.append(component)

    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 10 * len(nodes) + 100))
    try:
        for v in sorted(nodes):
            if v not in index:
                strongconnect(v)
    finally:
        sys.setrecursionlimit(old_limit)

    cycles = []
    for component in sccs:
        members = set(component)
        start = min(component)
        if len(component) == 1 and start not in graph.deps.get(start, []):
            continue
        # Shortest way back to start inside the component.
        parent = {}
        queue = deque([start])
        found = None
        while queue and found is None:
            node = queue.popleft()
            for dep in sorted(graph.deps.get(node, [])):
                if dep not in members:
                    continue
                if dep == start:
                    found = node
                    break
                if dep not in parent:
                    parent[dep] = node
                    queue.append(dep)
        # found -> start closes the cycle; walk the BFS parents back.
        back = []
        node = found
        while node != start:
            back.append(node)
            node = parent[node]
        path = [start] + list(reversed(back)) + [start]
        cycles.append((path, sorted(members)))
    return cycles


def check_link_graph(graph):
    violations = []
    layers = target_layers(graph, violations)
    edges = 0

    def describe(name):
        layer = layers.get(name)
        if layer is not None:
            return layer_name(layer)
        guess = inferred_layer(graph, name)
        if guess is None:
            return "no layer"
        return "unplaced; %s by its sources" % layer_name(guess)

    for name in sorted(layers):
        own = layers[name]
        if own is None:
            own = inferred_layer(graph, name)
        for dep in graph.deps[name]:
            if graph.is_target(dep):
                edges += 1
            if dep not in layers or own is None:
                continue  # external, plain string, or nothing to compare
            theirs = layers[dep]
            if theirs is None:
                theirs = inferred_layer(graph, dep)
                if theirs is None:
                    continue
            if theirs > own:
                violations.append("upward dependency: %s (%s) links %s (%s)" %
                                  (name, describe(name), dep, describe(dep)))
            elif theirs == own and not any(
                    fnmatch.fnmatchcase(name, a) and fnmatch.fnmatchcase(dep, b)
                    for a, b in SAME_LAYER_ALLOWED):
                violations.append(
                    "same-layer dependency: %s (%s) links %s (%s), not listed "
                    "in SAME_LAYER_ALLOWED" %
                    (name, describe(name), dep, describe(dep)))

    for path, members in find_cycles(graph, set(layers)):
        line = "dependency cycle: " + " -> ".join(path)
        if len(members) > len(path) - 1:
            line += " (strongly connected: %s)" % ", ".join(members)
        violations.append(line)

    for name in sorted(layers):
        if layers[name] in MLIR_FREE_LAYERS:
            path = graph.path_to(name, graph.is_mlir_llvm)
            if path:
                violations.append(
                    "MLIR-free target %s (%s) links %s: %s" %
                    (name, layer_name(layers[name]), path[-1],
                     " -> ".join(path)))

    for name, forbidden in sorted(FORBIDDEN_LINKS.items()):
        if name not in graph.targets:
            continue
        for bad in forbidden:
            path = graph.path_to(name, lambda x, bad=bad: x == bad)
            if path:
                violations.append("%s must not link %s: %s" %
                                  (name, bad, " -> ".join(path)))

    return violations, len(layers), edges


def file_layers_from_targets(graph):
    """Source file -> layer for FILE_LAYER_FROM_TARGETS, and every project
    target's sources -> its table layer (the fallback)."""
    forced, owner = {}, {}
    for name, info in graph.targets.items():
        if not graph.is_project(name):
            continue
        layer = graph.table_layer.get(name)
        if layer is None and info.get("type") not in LIBRARY_TYPES:
            layer = TOP_LAYER
        for src in info.get("sources", []):
            if name in FILE_LAYER_FROM_TARGETS and layer is not None:
                forced[src] = layer
            if layer is not None:
                owner[src] = max(owner.get(src, layer), layer)
    return forced, owner


def scan_files(source_dir):
    files = []
    for top in SCANNED_DIRS:
        root = os.path.join(source_dir, top)
        if not os.path.isdir(root):
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for f in sorted(filenames):
                if f.endswith(SOURCE_EXTENSIONS):
                    full = os.path.join(dirpath, f)
                    files.append(os.path.relpath(full, source_dir)
                                 .replace(os.sep, "/"))
    return files


def stem(path):
    return os.path.basename(path).split(".", 1)[0]


def check_includes(graph, source_dir):
    violations = []
    forced, owner = file_layers_from_targets(graph)
    files = scan_files(source_dir)
    for rel in files:
        layer = forced.get(rel)
        if layer is None:
            layer = first_match(rel, FILE_LAYERS)
        if layer is None:
            layer = owner.get(rel)
        if layer is None:
            violations.append("file without a layer: %s: add a pattern to "
                              "FILE_LAYERS in scripts/check-layering.py" % rel)
            continue
        try:
            with open(os.path.join(source_dir, rel), encoding="utf-8",
                      errors="replace") as f:
                lines = f.readlines()
        except OSError as e:
            violations.append("cannot read %s: %s" % (rel, e.strerror))
            continue
        for number, text in enumerate(lines, 1):
            m = INCLUDE_RE.match(text)
            if not m:
                continue
            header = m.group(2).strip()
            where = "%s:%d (%s)" % (rel, number, layer_name(layer))
            if header.startswith(MLIR_LLVM_INCLUDE_PREFIXES):
                if layer in MLIR_FREE_LAYERS:
                    violations.append("MLIR/LLVM include in an MLIR-free "
                                      "layer: %s includes %s" % (where, header))
                continue
            if not header.startswith("tfc/"):
                continue
            theirs = first_match(header, HEADER_LAYERS)
            if theirs is None:
                violations.append(
                    "unknown header: %s includes %s: give it a layer in "
                    "HEADER_LAYERS in scripts/check-layering.py" %
                    (where, header))
                continue
            lowest_includer = INCLUDE_EXCEPTIONS.get(header, theirs)
            if layer >= lowest_includer or stem(header) == stem(rel):
                continue
            violations.append("upward include: %s includes %s (%s)" %
                              (where, header, layer_name(theirs)))
    return violations, len(files)


def run(link_graph_path, source_dir, out):
    try:
        with open(link_graph_path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print("check-layering: cannot read the link graph %s: %s (it is "
              "written by tfc_write_link_graph, cmake/LinkGraph.cmake, at "
              "configure time)" % (link_graph_path, e), file=out)
        return 2
    graph = Graph(data)
    source_dir = source_dir or graph.source_dir
    if not source_dir or not os.path.isdir(source_dir):
        print("check-layering: no source directory %r" % source_dir, file=out)
        return 2
    link_violations, ntargets, nedges = check_link_graph(graph)
    include_violations, nfiles = check_includes(graph, source_dir)
    violations = link_violations + include_violations
    for v in violations:
        print(v, file=out)
    print("layering: %d targets, %d edges, %d files checked, %d violations" %
          (ntargets, nedges, nfiles, len(violations)), file=out)
    return 1 if violations else 0


# --------------------------------------------------------------------------
# --self-test: a synthetic link graph and source tree in a temp dir.
# --------------------------------------------------------------------------

def _target(type_, links=(), iface=(), sources=(), imported=False):
    return {"type": type_, "imported": imported, "source_dir": "",
            "sources": list(sources), "link_libraries": list(links),
            "interface_link_libraries": list(iface)}


def _clean_graph():
    S, E, I = "STATIC_LIBRARY", "EXECUTABLE", "INTERFACE_LIBRARY"
    return {
        "MLIR": _target("SHARED_LIBRARY", imported=True),
        "LLVM": _target("SHARED_LIBRARY", imported=True),
        "Eigen3::Eigen": _target(I, imported=True),
        "tfc_openmp": _target(I, iface=["/usr/lib/libomp.so"]),
        "tfc_cuda_runtime": _target(S, ["dl"], ["dl"],
                                    ["runtime/cuda/Cuda.cpp"]),
        "tfc_runtime": _target(S, ["Eigen3::Eigen", "tfc_openmp",
                                   "tfc_cuda_runtime"],
                               sources=["runtime/lib/Tensor.cpp"]),
        "tfc_ops": _target(S, ["tfc_runtime"],
                           sources=["python-free-frontend/lib/Ops.cpp"]),
        "TfcDialect": _target(S, ["MLIR", "LLVM"],
                              sources=["lib/Dialect/Tfc/IR/TfcOps.cpp"]),
        "TfcTransforms": _target(S, ["TfcDialect", "MLIR"]),
        "TfcConversion": _target(S, ["TfcDialect"]),
        "TfcPipelines": _target(S, ["TfcTransforms", "TfcConversion"]),
        "TfcRegistration": _target(S, ["TfcPipelines"]),
        "TfcJITCore": _target(S, ["TfcRegistration", "tfc_runtime"]),
        "TfcGPUJIT": _target(S, ["TfcJITCore"]),
        "TfcJIT": _target(S, ["TfcJITCore", "TfcGPUJIT"]),
        "tfc": _target("SHARED_LIBRARY", ["TfcJIT", "tfc_ops"]),
        "TfcProgramGenerator": _target(S, ["TfcJIT"]),
        "tfc-opt": _target(E, ["TfcRegistration", "MLIR"]),
        "tfc-run": _target(E, ["TfcJIT", "TfcProgramGenerator"]),
        "TfcOpsIncGen": _target("UTILITY"),
    }


_CLEAN_FILES = {
    "runtime/lib/Tensor.cpp": '#include "tfc/runtime/Tensor.h"\n',
    "runtime/include/tfc/runtime/Tensor.h": "#include <vector>\n",
    "python-free-frontend/include/tfc/frontend/Ops.h":
        '#include "tfc/runtime/Tensor.h"\n',
    "python-free-frontend/lib/Ops.cpp":
        '#include "tfc/frontend/Ops.h"\n#include "tfc/runtime/Tensor.h"\n',
    "python-free-frontend/lib/Tracing.cpp":
        '#include "tfc/Dialect/Tfc/IR/TfcOps.h"\n#include "mlir/IR/Builders.h"\n',
    "include/tfc/Dialect/Tfc/IR/TfcOps.h":
        '#include "mlir/IR/OpDefinition.h"\n'
        '#include "tfc/Dialect/Tfc/IR/TfcOps.h.inc"\n',
    "lib/Dialect/Tfc/IR/TfcOps.cpp":
        '#include "tfc/Dialect/Tfc/IR/TfcOps.h"\n',
    "lib/JIT/JIT.cpp": '#include "tfc/JIT/JIT.h"\n'
                       '#include "tfc/Pipelines/Pipelines.h"\n',
    "tools/tfc-opt/tfc-opt.cpp": '#include "tfc/InitAllDialects.h"\n',
}


def _run_case(tmp, name, targets, files):
    root = os.path.join(tmp, name)
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    graph_path = os.path.join(tmp, name + ".json")
    with open(graph_path, "w", encoding="utf-8") as f:
        json.dump({"version": 1, "source_dir": root, "targets": targets}, f)
    out = io.StringIO()
    rc = run(graph_path, root, out)
    return rc, out.getvalue().splitlines()


def self_test():
    failures = []
    checks = 0

    def expect(condition, what, lines):
        nonlocal checks
        checks += 1
        if condition:
            print("self-test: ok: %s" % what)
        else:
            failures.append(what)
            print("self-test: FAILED: %s; the checker printed:" % what)
            for line in lines:
                print("    " + line)

    with tempfile.TemporaryDirectory(prefix="check-layering-") as tmp:
        rc, lines = _run_case(tmp, "clean", _clean_graph(), _CLEAN_FILES)
        expect(rc == 0 and len(lines) == 1 and
               re.fullmatch(r"layering: 15 targets, 24 edges, 9 files "
                            r"checked, 0 violations", lines[0]),
               "a clean graph and tree pass", lines)

        targets = _clean_graph()
        # A link edge up (no cycle: nothing links TfcBridge).
        targets["TfcBridge"] = _target("STATIC_LIBRARY", ["TfcDialect", "tfc"])
        # A same-layer edge in the wrong direction.
        targets["TfcGPUJIT"]["link_libraries"].append("TfcJIT")
        # A cycle no layer rule sees: both are tools-layer support libraries.
        targets["TfcGradientDiff"] = _target("STATIC_LIBRARY",
                                             ["TfcProgramGenerator"])
        targets["TfcProgramGenerator"]["link_libraries"].append(
            "TfcGradientDiff")
        # MLIR reached from the runtime through an unplaced library.
        targets["tfc_tensor"] = _target("STATIC_LIBRARY", ["TfcHelpers"],
                                        sources=["runtime/lib/Helpers.cpp"])
        targets["TfcHelpers"] = _target("STATIC_LIBRARY", iface=["LLVM"])
        # tfc-opt reaching the JIT.
        targets["tfc-opt"]["link_libraries"].append("TfcProgramGenerator")
        files = dict(_CLEAN_FILES)
        # An include edge up, an MLIR include in the runtime and in the
        # ops layer (a tfc_ops source), an unknown header.
        files["lib/Dialect/Tfc/IR/TfcOps.cpp"] += \
            '#include "tfc/Pipelines/Pipelines.h"\n'
        files["runtime/lib/Tensor.cpp"] += '#include "mlir/IR/Builders.h"\n'
        files["python-free-frontend/lib/Ops.cpp"] += \
            '#include "llvm/ADT/SmallVector.h"\n' \
            '#include <tfc/frontend/Function.h>\n'
        files["lib/JIT/JIT.cpp"] += '#include "tfc/Nowhere/New.h"\n'
        rc, lines = _run_case(tmp, "dirty", targets, files)
        expected = [
            "upward dependency: TfcBridge (bridge) links tfc (frontend)",
            "same-layer dependency: TfcGPUJIT (JIT targets) links TfcJIT "
            "(JIT targets), not listed in SAME_LAYER_ALLOWED",
            "dependency cycle: TfcGradientDiff -> TfcProgramGenerator -> "
            "TfcGradientDiff",
            "dependency cycle: TfcGPUJIT -> TfcJIT -> TfcGPUJIT",
            "unknown library target TfcHelpers (STATIC_LIBRARY in ?): give "
            "it a layer in scripts/check-layering.py",
            "MLIR-free target tfc_tensor (runtime) links LLVM: tfc_tensor -> "
            "TfcHelpers -> LLVM",
            "tfc-opt must not link TfcJIT: tfc-opt -> TfcProgramGenerator -> "
            "TfcJIT",
            "tfc-opt must not link TfcJITCore: tfc-opt -> TfcProgramGenerator "
            "-> TfcJIT -> TfcJITCore",
            "tfc-opt must not link TfcGPUJIT: tfc-opt -> TfcProgramGenerator "
            "-> TfcJIT -> TfcGPUJIT",
            "upward include: lib/Dialect/Tfc/IR/TfcOps.cpp:2 (dialect) "
            "includes tfc/Pipelines/Pipelines.h (pipelines)",
            "MLIR/LLVM include in an MLIR-free layer: runtime/lib/Tensor.cpp:2"
            " (runtime) includes mlir/IR/Builders.h",
            "MLIR/LLVM include in an MLIR-free layer: "
            "python-free-frontend/lib/Ops.cpp:3 (ops) includes "
            "llvm/ADT/SmallVector.h",
            "upward include: python-free-frontend/lib/Ops.cpp:4 (ops) includes"
            " tfc/frontend/Function.h (frontend)",
            "unknown header: lib/JIT/JIT.cpp:3 (execution core) includes "
            "tfc/Nowhere/New.h",
        ]
        for e in expected:
            expect(any(line.startswith(e) for line in lines),
                   "reported: " + e, lines)
        expect(rc == 1, "exit status 1 with violations", lines)
        expect(bool(lines) and lines[-1].endswith(
            ", %d violations" % (len(lines) - 1)),
            "the summary counts every printed violation", lines)
        expect(len(lines) - 1 == len(expected),
               "nothing else reported (%d expected)" % len(expected), lines)

    if failures:
        print("self-test: %d of %d checks FAILED" % (len(failures), checks))
        return 1
    print("self-test: passed (%d checks)" % checks)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Check that no link or include points up tfc's layers.")
    parser.add_argument("--link-graph", metavar="FILE",
                        help="link-graph.json written by tfc_write_link_graph")
    parser.add_argument("--source-dir", metavar="DIR",
                        help="the source tree (default: the one recorded in "
                             "the link graph)")
    parser.add_argument("--self-test", action="store_true",
                        help="check the checker on synthetic inputs")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.link_graph:
        parser.error("--link-graph is required (or --self-test)")
    return run(args.link_graph, args.source_dir, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
