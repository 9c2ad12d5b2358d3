"""expect-timeout.py SECONDS CMD...: runs CMD and succeeds only if it is still
running after SECONDS (then kills it), printing "still running after S s";
if CMD ends earlier its output and exit status are printed and this fails.
For loops that must not end (test/Execution/while-nonterminating.mlir)."""
import subprocess
import sys

seconds = float(sys.argv[1])
proc = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT)
try:
    out, _ = proc.communicate(timeout=seconds)
except subprocess.TimeoutExpired:
    proc.kill()
    proc.communicate()
    print("still running after %g s" % seconds)
    sys.exit(0)
sys.stdout.write(out.decode(errors="replace"))
print("exited with status %d" % proc.returncode)
sys.exit(1)
