#!/usr/bin/env python3
"""Extracts the PTX of every gpu.binary in the output of tfc-cuda-pipeline
and assembles each with ptxas.

usage: assemble-ptx.py PTXAS ARCH INPUT.mlir OUTDIR

Prints "ptxas ok: <binary> (<n> entries)" per binary, in order; exits 1 on
the first failure (ptxas's message on stderr) or when there is no binary.
"""
import os
import re
import subprocess
import sys


def unescape(text):
    # MLIR prints non-printable bytes of string attributes as \XX.
    return re.sub(r"\\([0-9A-Fa-f]{2})",
                  lambda m: chr(int(m.group(1), 16)), text)


def main():
    ptxas, arch, path, outdir = sys.argv[1:5]
    os.makedirs(outdir, exist_ok=True)
    text = open(path).read()
    found = 0
    for m in re.finditer(
            r'gpu\.binary @(\w+)[^\n]*?assembly = "((?:[^"\\]|\\.)*)"', text):
        name, ptx = m.group(1), unescape(m.group(2))
        ptx_path = os.path.join(outdir, name + ".ptx")
        with open(ptx_path, "w") as f:
            f.write(ptx)
        result = subprocess.run(
            [ptxas, "-arch=" + arch, ptx_path, "-o", ptx_path + ".cubin"],
            capture_output=True, text=True)
        if result.returncode != 0:
            sys.stderr.write("ptxas failed on %s:\n%s%s" %
                             (name, result.stdout, result.stderr))
            return 1
        entries = len(re.findall(r"\.entry\s", ptx))
        print("ptxas ok: %s (%d entries)" % (name, entries))
        found += 1
    if not found:
        sys.stderr.write("no gpu.binary with PTX in %s\n" % path)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
