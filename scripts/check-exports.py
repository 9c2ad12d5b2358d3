#!/usr/bin/env python3
"""Checks that libtfc.so exports the public C++ API and nothing else.

The public API is what the installed headers declare. For every symbol in
libtfc.so's dynamic table that belongs to namespace tfc (functions, data,
vtables, typeinfo), each component of its qualified name must be declared
in those headers: a namespace they open, or an identifier they use outside
comments. A compiler internal (tfc::bridge, tfc::interpreter, the JIT's
helpers, the shared MLIRContext) is declared only in the compiler's own
headers, which are not installed, so it fails the check.

Every other exported symbol must be one of the function-local statics of
MLIR's and LLVM's inline code (libtfc.map says why they stay global).

usage: check-exports.py NM_DEMANGLED NM_MANGLED INCLUDE_DIR
  NM_DEMANGLED: `llvm-nm -DC --defined-only libtfc.so` output
  NM_MANGLED:   `llvm-nm -D --defined-only libtfc.so` output (same order)
  INCLUDE_DIR:  the installed include directory (<prefix>/include)
Prints one line per offending symbol and exits 1 if there is any.
"""

import os
import re
import sys

# Exported mangled names that are not part of namespace tfc but must stay
# global (libtfc.map): MLIR/LLVM function-local statics and TypeID resolvers.
RUNTIME_STATICS = ("_ZZN4mlir", "_ZGVZN4mlir", "_ZN4mlir6detail14TypeIDResolver",
                   "_ZZN4llvm", "_ZGVZN4llvm")
TFC_MANGLED = ("_ZN3tfc", "_ZNK3tfc", "_ZTVN3tfc", "_ZTIN3tfc", "_ZTSN3tfc",
               "_ZGVN3tfc", "_ZThn")
PREFIXES = ("typeinfo name for ", "typeinfo for ", "vtable for ",
            "guard variable for ", "non-virtual thunk to ")


def strip_comments_and_strings(text):
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    return re.sub(r"'(\\.|[^'\\])*'", "''", text)


def public_declarations(include_dir):
    """Namespaces opened (as full paths) and identifiers used by the headers."""
    namespaces, identifiers = set(), set()
    for root, _, files in os.walk(include_dir):
        for name in files:
            if not name.endswith(".h"):
                continue
            with open(os.path.join(root, name), encoding="utf-8") as f:
                text = strip_comments_and_strings(f.read())
            text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
            identifiers.update(re.findall(r"[A-Za-z_]\w*", text))
            stack = []  # one entry per open brace: namespace path or None
            for m in re.finditer(r"namespace\s+([\w:]+)\s*\{|\{|\}", text):
                if m.group(1):
                    outer = next((s for s in reversed(stack) if s), "")
                    path = (outer + "::" if outer else "") + m.group(1)
                    namespaces.add(path)
                    stack.append(path)
                elif m.group(0) == "{":
                    stack.append(None if not stack else stack[-1])
                elif stack:
                    stack.pop()
    return namespaces, identifiers


def qualified_components(demangled):
    """tfc::jit::CompiledModule::call(...) const -> [tfc, jit, CompiledModule,
    call]: the name before its parameter list, without a template function's
    return type and without template arguments, split at '::'."""
    name = demangled
    for p in PREFIXES:
        if name.startswith(p):
            name = name[len(p):]
    # Drop template arguments and everything from the parameter list on.
    head, depth = "", 0
    for i, c in enumerate(name):
        if c == "<" and not name.startswith("operator", max(0, i - 8)):
            depth += 1
        elif c == ">" and depth:
            depth -= 1
        elif c == "(" and depth == 0:
            break
        elif depth == 0:
            head += c
    if " " in head and not head.rsplit(" ", 1)[0].endswith("operator"):
        head = head.rsplit(" ", 1)[1]  # "bool tfc::Tensor::item"
    cleaned = []
    for p in head.split("::"):
        p = re.sub(r"\[abi:\w+\]", "", p).strip()
        p = re.sub(r"^operator.*", "operator", p)
        cleaned.append(p.lstrip("~"))
    return cleaned


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        demangled = [l.split(None, 2)[2] for l in f if len(l.split(None, 2)) == 3]
    with open(sys.argv[2]) as f:
        mangled = [l.split(None, 2)[2].strip() for l in f
                   if len(l.split(None, 2)) == 3]
    if len(demangled) != len(mangled):
        print("check-exports: the two symbol lists differ in length")
        return 2
    namespaces, identifiers = public_declarations(sys.argv[3])
    bad = []
    for pretty, raw in zip(demangled, mangled):
        pretty = pretty.strip()
        if raw.startswith(RUNTIME_STATICS):
            continue
        if not raw.startswith(TFC_MANGLED):
            bad.append(f"{pretty}: not in namespace tfc")
            continue
        parts = qualified_components(pretty)
        path = ""
        for component in parts:
            path = path + "::" + component if path else component
            if path in namespaces or component == "operator":
                continue
            if component not in identifiers:
                bad.append(f"{pretty}: '{path}' is not declared in the "
                           "public headers")
                break
    for line in bad:
        print(line)
    print(f"check-exports: {len(mangled)} exported symbols, "
          f"{len(bad)} outside the public API")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
