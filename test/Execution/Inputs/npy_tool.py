#!/usr/bin/env python3
"""Helpers for the tfc-run .npy tests, without NumPy.
  npy_tool.py range OUT N   writes int32 0..N-1 as OUT (.npy version 1.0)
  npy_tool.py ints N        reads tfc-run's printed tensor on stdin; prints
                            'ints 0..N-1 in order' if exactly those appear
"""
import re
import struct
import sys

if sys.argv[1] == 'range':
    n = int(sys.argv[3])
    header = "{'descr': '<i4', 'fortran_order': False, 'shape': (%d,), }" % n
    header += ' ' * ((64 - (10 + len(header) + 1) % 64) % 64) + '\n'
    with open(sys.argv[2], 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)))
        f.write(header.encode('latin1'))
        f.write(struct.pack('<%di' % n, *range(n)))
elif sys.argv[1] == 'ints':
    n = int(sys.argv[2])
    text = sys.stdin.read()
    data = text[text.index('(') + 1:text.rindex(', shape=')]
    if '...' in data:
        sys.exit('summarised: ' + data[:200])
    got = [int(x) for x in re.findall(r'-?\d+', data)]
    if got != list(range(n)):
        sys.exit('got %d ints: %s ...' % (len(got), got[:10]))
    print('ints 0..%d in order' % (n - 1))
