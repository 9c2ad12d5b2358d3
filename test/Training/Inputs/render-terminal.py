"""Shows what a terminal would show for a program's raw output.

  render-terminal.py FILE           the screen at the end, line by line
  render-terminal.py --frames FILE  every finished line ("line: ...") and
                                    every redraw of the current line
                                    ("frame: ...", at each ESC[K)
  render-terminal.py --plain FILE   the text itself, failing on any carriage
                                    return or escape code (output to a file)

Understands what the progress bar writes: printable text, "\\n", "\\r"
(back to column 0) and ESC[K (erase to the end of the line). Anything else
(another escape or control code) is an error, so a new code in the bar's
output is noticed.
"""
import sys


def fail(msg):
    sys.stderr.write("render-terminal.py: " + msg + "\n")
    sys.exit(1)


def main(argv):
    mode = "screen"
    if len(argv) == 3 and argv[1] in ("--frames", "--plain"):
        mode, path = argv[1][2:], argv[2]
    elif len(argv) == 2:
        path = argv[1]
    else:
        fail("usage: render-terminal.py [--frames | --plain] FILE")
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    if mode == "plain":
        for code, name in (("\r", "a carriage return"), ("\033", "an escape")):
            if code in text:
                fail("%s in output meant for a file, at offset %d" %
                     (name, text.index(code)))
        sys.stdout.write(text)
        return
    screen, line, col, i = [], [], 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "\n":
            if mode == "frames":
                print("line: " + "".join(line).rstrip())
            screen.append("".join(line).rstrip())
            line, col = [], 0
        elif ch == "\r":
            col = 0
        elif ch == "\033":
            if text.startswith("\033[K", i):
                del line[col:]
                if mode == "frames":
                    print("frame: " + "".join(line).rstrip())
                i += 3
                continue
            fail("unexpected escape sequence %r at offset %d" %
                 (text[i:i + 8], i))
        elif ch < " " and ch != "\t":
            fail("unexpected control code %r at offset %d" % (ch, i))
        else:
            if col < len(line):
                line[col] = ch
            else:
                line.append(ch)
            col += 1
        i += 1
    if line:
        screen.append("".join(line).rstrip())
        if mode == "frames":
            print("line: " + screen[-1])
    if mode == "screen":
        print("\n".join(screen))


if __name__ == "__main__":
    main(sys.argv)
