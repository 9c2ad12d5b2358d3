#!/usr/bin/env python3
"""Prints the median of each benchmark from Google Benchmark JSON output.

    build/bin/tfc-bench-eager --benchmark_repetitions=5 \
        --benchmark_out=eager.json --benchmark_out_format=json
    bench/medians.py eager.json

One line per benchmark: name, the timer the benchmark reports (real or CPU
time, as registered), both times, and its counters, all medians over the
repetitions. docs/performance.md's tables come from this output.
"""
import json
import sys


def main(path):
    with open(path) as f:
        data = json.load(f)
    ctx = data["context"]
    print(f"# {ctx.get('date')}  {ctx.get('host_name')}  "
          f"{ctx.get('num_cpus')} cpus @ {ctx.get('mhz_per_cpu')} MHz  "
          f"load {ctx.get('load_avg')}")
    skip = {"name", "family_index", "per_family_instance_index", "run_name",
            "run_type", "repetitions", "repetition_index", "threads",
            "iterations", "real_time", "cpu_time", "time_unit",
            "aggregate_name", "aggregate_unit"}
    medians = [b for b in data["benchmarks"]
               if b.get("run_type") == "aggregate"
               and b.get("aggregate_name") == "median"]
    # Registration order (random interleaving shuffles the output).
    medians.sort(key=lambda b: (b["family_index"],
                                b["per_family_instance_index"]))
    for b in medians:
        unit = b["time_unit"]
        counters = "  ".join(
            f"{k}={v:.4g}" for k, v in b.items()
            if k not in skip and isinstance(v, (int, float)))
        print(f"{b['run_name']:<40} real {b['real_time']:>12.4g} {unit}  "
              f"cpu {b['cpu_time']:>12.4g} {unit}  {counters}")


if __name__ == "__main__":
    main(sys.argv[1])
