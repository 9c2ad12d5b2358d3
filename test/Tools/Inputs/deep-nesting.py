"""Writes MLIR (or a tfc-run literal) nested DEPTH deep, for the nesting-limit
tests (test/Tools/nesting-limit.test).

  deep-nesting.py attr DEPTH    an array attribute [[[...]]] on a function
  deep-nesting.py if DEPTH      DEPTH nested tfc.if; @main(p, x) returns
                                x + DEPTH when p holds, else x
  deep-nesting.py dense DEPTH   a tfc.constant dense<[[[...]]]> literal
  deep-nesting.py literal DEPTH CMD...
                                runs CMD --arg=[[[...1...]]]:f32 (no shell
                                in between), exits with its status
"""
import subprocess
import sys

kind, depth = sys.argv[1], int(sys.argv[2])
out = sys.stdout
if kind == "attr":
    out.write("func.func @f() attributes {deep = " + "[" * depth + "1" +
              "]" * depth + "} {\n  return\n}\n")
elif kind == "if":
    out.write("func.func @main(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {\n")
    out.write("  %one = tfc.constant dense<1.0> : tensor<f32>\n")
    # Level k (0-based) yields r(k+1) + 1 when p holds; the innermost
    # level yields x + 1: so the outermost yields x + depth.
    for k in range(depth):
        out.write("  " * (k + 1) + "%%r%d = tfc.if %%p -> (tensor<f32>) {\n" % k)
    out.write("  " * (depth + 1) + "%s = tfc.add %x, %one : tensor<f32>\n")
    out.write("  " * (depth + 1) + "tfc.yield %s : tensor<f32>\n")
    for k in reversed(range(depth)):
        ind = "  " * (k + 1)
        if k == depth - 1:
            out.write(ind + "} else {\n")
        else:
            out.write(ind + "  %%a%d = tfc.add %%r%d, %%one : tensor<f32>\n" % (k, k + 1))
            out.write(ind + "  tfc.yield %%a%d : tensor<f32>\n" % k)
            out.write(ind + "} else {\n")
        out.write(ind + "  tfc.yield %x : tensor<f32>\n")
        out.write(ind + "}\n")
    out.write("  return %r0 : tensor<f32>\n}\n")
elif kind == "dense":
    out.write("func.func @main() -> tensor<" + "1x" * depth + "f32> {\n")
    out.write("  %c = tfc.constant dense<" + "[" * depth + "1.0" + "]" * depth +
              "> : tensor<" + "1x" * depth + "f32>\n")
    out.write("  return %c : tensor<" + "1x" * depth + "f32>\n}\n")
elif kind == "literal":
    arg = "--arg=" + "[" * depth + "1" + "]" * depth + ":f32"
    sys.exit(subprocess.call(sys.argv[3:] + [arg]))
else:
    sys.exit("unknown kind " + kind)
