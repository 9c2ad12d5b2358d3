#!/usr/bin/env python3
"""Mutation campaign against tfc's tools (docs/testing.md, "Mutation campaign").

Two kinds of trials, each run in a child process so that a crash is seen
rather than suffered:

  opt  a test file of the repository, mutated (bytes, tokens, numbers, types,
       dims, truncation, deep nesting), through `tfc-opt` with a random pass
       pipeline. Accepted: exit 0, or exit 1 with a diagnostic on stderr.
  run  a `tfc-run %s ... --arg=...` line of test/Execution, with its module or
       its arguments mutated, run by the interpreter and by the JIT.
       Accepted: both succeed, or both fail with an error message.
       A one-sided result (one computes, the other errors) is a finding.

A crash is a signal, an exit code other than 0/1, or a crash banner on
stderr (LLVM's stack dump, an assertion, a sanitizer report). Every finding
is written to --out as a reproducer. Exit status: 0 when nothing was found.

  tfc-mutate.py --bin build/bin --tests test --opt 5000 --run 1000 --seed 1
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time

CRASH_MARKS = ("PLEASE submit a bug report", "Stack dump", "Assertion",
               "AddressSanitizer", "UndefinedBehaviorSanitizer",
               "runtime error:", "LLVM ERROR", "terminate called",
               "Segmentation fault", "double free", "corrupted")

INTERESTING_NUMBERS = ["0", "1", "-1", "2", "3", "7", "64", "1000",
                       "2147483647", "-2147483648", "4294967296",
                       "9223372036854775807", "-9223372036854775808",
                       "99999999999999999999", "1.0e308", "-0.0", "1.5",
                       "0x7FC00000", "100000000000"]
TYPES = ["f32", "f64", "i32", "i64", "i1", "i8", "f16", "index"]
PIPELINES = [[], ["--canonicalize"], ["--cse"], ["--tfc-autodiff"],
             ["--tfc-fuse-elementwise"], ["--tfc-promote-variables"],
             ["--convert-tfc-to-linalg"], ["--tfc-cpu-pipeline"],
             ["--tfc-autodiff", "--tfc-cpu-pipeline"]]


def mutate_text(rng, text):
    """One random mutation of MLIR text."""
    kind = rng.randrange(11)
    if not text:
        return "}" * rng.randrange(1, 4)
    if kind == 0:  # a random byte
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("{}()[]<>%@:=,x?0123456789-\"#^!\n ") + text[i + 1:]
    if kind == 1:  # delete a span
        i = rng.randrange(len(text))
        return text[:i] + text[i + rng.randrange(1, 40):]
    if kind == 2:  # duplicate or drop a line
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        if rng.random() < 0.5:
            lines.insert(i, lines[rng.randrange(len(lines))])
        else:
            del lines[i]
        return "\n".join(lines)
    if kind == 3:  # swap two lines
        lines = text.split("\n")
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == 4:  # replace a number
        nums = list(re.finditer(r"-?\d+(\.\d+)?(e[+-]?\d+)?", text))
        if nums:
            m = rng.choice(nums)
            return text[:m.start()] + rng.choice(INTERESTING_NUMBERS) + text[m.end():]
    if kind == 5:  # change an element type
        ts = list(re.finditer(r"\b(f32|f64|i32|i64|i1)\b", text))
        if ts:
            m = rng.choice(ts)
            return text[:m.start()] + rng.choice(TYPES) + text[m.end():]
    if kind == 6:  # change a dim of a tensor type
        ds = list(re.finditer(r"(?<=[<x])(\d+|\?)(?=x)", text))
        if ds:
            m = rng.choice(ds)
            return text[:m.start()] + rng.choice(["?", "0", "1", "3", "1000000000000", "2"]) + text[m.end():]
    if kind == 7:  # truncate
        return text[:rng.randrange(len(text))]
    if kind == 8:  # swap two SSA names
        names = list(re.finditer(r"%[A-Za-z0-9_#]+", text))
        if len(names) > 1:
            a, b = rng.sample(names, 2)
            if a.start() > b.start():
                a, b = b, a
            return (text[:a.start()] + b.group() + text[a.end():b.start()] +
                    a.group() + text[b.end():])
    if kind == 9:  # deep nesting
        depth = rng.choice([100, 1000, 5000, 20000])
        i = rng.randrange(len(text))
        opener = rng.choice(["[", "{", "(", "<", "dense<["])
        closer = {"[": "]", "{": "}", "(": ")", "<": ">", "dense<[": "]>"}[opener]
        return text[:i] + opener * depth + "1" + closer * depth + text[i:]
    # kind 10: splice a random chunk of the text elsewhere
    i, j = sorted(rng.randrange(len(text)) for _ in range(2))
    k = rng.randrange(len(text))
    return text[:k] + text[i:j] + text[k:]


def mutate_literal(rng, lit):
    """Mutates one tfc-run --arg literal VALUE:DTYPE."""
    value, _, dtype = lit.rpartition(":")
    kind = rng.randrange(7)
    if kind == 0:
        dtype = rng.choice(["f32", "f64", "i32", "i64", "i1", "u8", ""])
    elif kind == 1:  # drop an element
        parts = value.split(",")
        if len(parts) > 1:
            del parts[rng.randrange(len(parts))]
            value = ",".join(parts)
    elif kind == 2:  # add an element
        i = value.find("]")
        if i > 0:
            value = value[:i] + (",1" if value[i - 1] != "[" else "1") + value[i:]
    elif kind == 3:
        value = rng.choice(["[]", "[[]]", "0", "-0", "nan", "inf", "1e400",
                            "9223372036854775807", "[0,0,0]", "[[1,2],[3]]",
                            "[" * 50 + "1" + "]" * 50])
    elif kind == 4:  # a zero somewhere (division)
        nums = list(re.finditer(r"-?\d+(\.\d+)?", value))
        if nums:
            m = rng.choice(nums)
            value = value[:m.start()] + "0" + value[m.end():]
    elif kind == 5:  # wrap one more level
        value = "[" + value + "]"
    else:
        value = mutate_text(rng, value)
    return value + ":" + dtype if dtype else value


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def crashed(rc, err):
    if rc == "timeout":
        return False
    return rc not in (0, 1) or any(m in err for m in CRASH_MARKS)


def collect_run_lines(tests):
    """(file, [args]) from `tfc-run %s ...` RUN lines of test/Execution."""
    out = []
    exe = os.path.join(tests, "Execution")
    for name in sorted(os.listdir(exe)):
        if not name.endswith(".mlir"):
            continue
        path = os.path.join(exe, name)
        with open(path) as f:
            for line in f:
                m = re.search(r"RUN: (?:not )?tfc-run %s (.*?)(?:2>&1)?\s*\|", line)
                if not m or "--mode=interpret" not in m.group(1):
                    continue
                args = re.findall(r'(--(?:arg|var|entry)=(?:"[^"]*"|\S+))', m.group(1))
                args = [a.replace('"', "") for a in args]
                out.append((path, args))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="directory of tfc-opt, tfc-run")
    ap.add_argument("--tests", required=True, help="the repository's test/ dir")
    ap.add_argument("--opt", type=int, default=200, help="tfc-opt mutants")
    ap.add_argument("--run", type=int, default=50, help="tfc-run trials")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--out", default="", help="where reproducers go")
    ap.add_argument("--time-budget", type=float, default=0,
                    help="stop starting trials after this many seconds")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    opt_bin = os.path.join(a.bin, "tfc-opt")
    run_bin = os.path.join(a.bin, "tfc-run")
    out = a.out or tempfile.mkdtemp(prefix="tfc-mutate-")
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="tfc-mutate-work-")
    start = time.time()
    findings = []

    def over_budget(fraction=1.0):
        return a.time_budget and time.time() - start > a.time_budget * fraction

    corpus = []
    for root, _, files in os.walk(a.tests):
        for f in sorted(files):
            if f.endswith(".mlir") and "Inputs" not in root:
                with open(os.path.join(root, f), errors="replace") as fh:
                    corpus.append((os.path.join(root, f), fh.read()))
    corpus.sort()

    stats = {"opt": 0, "opt_ok": 0, "opt_diag": 0, "opt_timeout": 0,
             "run": 0, "run_both_ok": 0, "run_both_err": 0,
             "run_timeout": 0, "run_mismatch": 0}

    def record(kind, text, cmd, detail):
        n = len(findings)
        path = os.path.join(out, "finding-%d.mlir" % n)
        with open(path, "w") as f:
            f.write(text)
        findings.append((kind, path, " ".join(cmd), detail[:2000]))

    for i in range(a.opt):
        if over_budget(0.5):  # the other half is for tfc-run
            break
        src, text = rng.choice(corpus)
        for _ in range(rng.randrange(1, 4)):
            text = mutate_text(rng, text)
        path = os.path.join(work, "opt.mlir")
        with open(path, "w") as f:
            f.write(text)
        cmd = [opt_bin, path] + rng.choice(PIPELINES) + ["-o", os.devnull]
        rc, _, err = run(cmd, a.timeout)
        stats["opt"] += 1
        if crashed(rc, err):
            record("opt-crash rc=%s (from %s)" % (rc, src), text, cmd, err)
        elif rc == "timeout":
            stats["opt_timeout"] += 1
        elif rc == 0:
            stats["opt_ok"] += 1
        elif "error" not in err:
            record("opt-exit1-without-diagnostic (from %s)" % src, text, cmd, err)
        else:
            stats["opt_diag"] += 1

    lines = collect_run_lines(a.tests)
    for i in range(a.run):
        if over_budget() or not lines:
            break
        src, args = rng.choice(lines)
        with open(src) as f:
            text = f.read()
        args = list(args)
        choice = rng.random()
        if choice < 0.35:
            text = mutate_text(rng, text)
        else:
            lits = [j for j, x in enumerate(args) if x.startswith(("--arg=", "--var="))]
            if lits:
                j = rng.choice(lits)
                flag, _, lit = args[j].partition("=")
                args[j] = flag + "=" + mutate_literal(rng, lit)
            elif choice < 0.7:
                text = mutate_text(rng, text)
        path = os.path.join(work, "run.mlir")
        with open(path, "w") as f:
            f.write(text)
        results = {}
        for mode in ("interpret", "jit"):
            cmd = [run_bin, path, "--mode=" + mode] + args
            results[mode] = (cmd,) + run(cmd, a.timeout)
        stats["run"] += 1
        (ci, ri, oi, ei), (cj, rj, oj, ej) = results["interpret"], results["jit"]
        if crashed(ri, ei) or crashed(rj, ej):
            bad = ci if crashed(ri, ei) else cj
            record("run-crash (from %s)" % src, text, bad, ei + ej)
        elif ri == "timeout" or rj == "timeout":
            # An interpreted loop that runs long while compiled code finishes
            # (or the reverse) is only a finding if the other side errored.
            stats["run_timeout"] += 1
        elif (ri == 0) != (rj == 0):
            record("run-one-sided interpret=%s jit=%s (from %s)" % (ri, rj, src),
                   text, cj, "interpret:\n" + oi + ei + "\njit:\n" + oj + ej)
        elif ri == 0:
            stats["run_both_ok"] += 1
            if oi != oj:
                stats["run_mismatch"] += 1
        else:
            stats["run_both_err"] += 1

    took = time.time() - start
    print("tfc-mutate: seed %d, %.0f s" % (a.seed, took))
    print("  tfc-opt: %(opt)d mutants: %(opt_ok)d accepted, %(opt_diag)d "
          "diagnosed, %(opt_timeout)d timed out" % stats)
    print("  tfc-run: %(run)d trials: %(run_both_ok)d both computed "
          "(%(run_mismatch)d printed differently), %(run_both_err)d both "
          "errored, %(run_timeout)d timed out" % stats)
    for kind, path, cmd, detail in findings:
        print("FINDING %s\n  reproducer: %s\n  command: %s\n  %s" %
              (kind, path, cmd, detail.strip().replace("\n", "\n  ")))
    print("%d findings" % len(findings))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
