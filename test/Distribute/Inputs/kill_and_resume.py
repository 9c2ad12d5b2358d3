"""Kills one of two replicas in the middle of an epoch, then resumes.

  kill_and_resume.py <mpirun command...> -- <fashion_mnist_distributed> <tmp>

1. An uninterrupted 2-replica run (3 epochs of 12,000 images): its test
   accuracy is the reference.
2. The same run with checkpoints; once epoch 1's checkpoint exists, replica
   1 is killed (SIGKILL) in epoch 2. The job must end within 60 s with a
   non-zero status and a message naming the lost rank (never hang).
3. From a copy of the last checkpoint, the run is finished by 1 replica and
   by 2 replicas: the 2-replica resume must reach the reference accuracy
   exactly (same seed, same order, one thread), the 1-replica one within
   0.005 (the same global batch, summed in another order).
Prints what it measured; exits 1 on any failure.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sep = sys.argv.index("--")
mpirun = sys.argv[1:sep]
program, tmp = sys.argv[sep + 1], sys.argv[sep + 2]
args = ["--epochs=3", "--train-rows=12000"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(np, *extra):
    cmd = mpirun + ["-np", str(np), program] + args + list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        fail("%s exited %d:\n%s%s" % (cmd, p.returncode, p.stdout, p.stderr))
    m = re.search(r"test accuracy ([0-9.]+)", p.stdout)
    if not m:
        fail("no test accuracy in:\n" + p.stdout)
    return float(m.group(1)), p.stdout


shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
reference, _ = run(2)
print("uninterrupted, 2 replicas: test accuracy %.4f" % reference)

ckpt, pids = os.path.join(tmp, "ckpt"), os.path.join(tmp, "pids")
os.makedirs(pids)
cmd = mpirun + ["-np", "2", program] + args + ["--ckpt=" + ckpt,
                                               "--pid-dir=" + pids]
job = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
first = os.path.join(ckpt, "ckpt-1.safetensors")
deadline = time.time() + 240
while not os.path.exists(first):
    if job.poll() is not None or time.time() > deadline:
        fail("epoch 1's checkpoint never appeared")
    time.sleep(0.02)
time.sleep(0.1)  # into epoch 2
with open(os.path.join(pids, "1.pid")) as f:
    victim = int(f.read())
os.kill(victim, signal.SIGKILL)
killed = time.time()
try:
    out, _ = job.communicate(timeout=60)
except subprocess.TimeoutExpired:
    job.kill()
    fail("the surviving replica did not stop within 60 s of the kill")
elapsed = time.time() - killed
print("killed rank 1 in epoch 2: the job ended in %.1f s with status %d"
      % (elapsed, job.returncode))
if job.returncode == 0:
    fail("the job reported success after losing a replica")
lost = [l for l in out.splitlines() if re.search(r"rank 1\b", l)]
if not lost:
    fail("no message names the lost rank:\n" + out)
print("message: " + lost[0].strip())
if "epoch 3:" in out:
    fail("the kill came too late: epoch 3 had finished")
saved = sorted(n for n in os.listdir(ckpt) if n.endswith(".safetensors"))
print("checkpoints left: " + " ".join(saved))

for np in (1, 2):
    copy = os.path.join(tmp, "resume%d" % np)
    shutil.copytree(ckpt, copy)
    acc, out = run(np, "--ckpt=" + copy)
    start = re.search(r"resumed from \S+ at epoch (\d+)", out)
    if not start:
        fail("the %d-replica run did not resume:\n%s" % (np, out))
    print("resumed at epoch %s with %d replica(s): test accuracy %.4f"
          % (start.group(1), np, acc))
    tolerance = 0.0 if np == 2 else 0.005
    if abs(acc - reference) > tolerance:
        fail("%.4f is not within %.3f of %.4f" % (acc, tolerance, reference))
print("PASS")
