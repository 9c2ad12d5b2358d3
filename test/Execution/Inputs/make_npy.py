#!/usr/bin/env python3
"""Writes the .npy inputs of test/Execution (NumPy format 1.0/2.0) without
needing NumPy: python3 make_npy.py, run in this folder."""
import struct


def npy(path, descr, shape, data, version=1, fortran=False, trunc=0):
    if not shape:
        sh = '()'
    elif len(shape) == 1:
        sh = '(%d,)' % shape[0]
    else:
        sh = '(' + ', '.join(str(d) for d in shape) + ')'
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, 'True' if fortran else 'False', sh)
    prefix = 10 if version == 1 else 12
    pad = (64 - (prefix + len(header) + 1) % 64) % 64
    header += ' ' * pad + '\n'
    out = b'\x93NUMPY' + bytes([version, 0])
    out += struct.pack('<H' if version == 1 else '<I', len(header))
    out += header.encode('latin1') + data
    if trunc:
        out = out[:-trunc]
    with open(path, 'wb') as f:
        f.write(out)


npy('f32_2x3.npy', '<f4', (2, 3), struct.pack('<6f', 1, 2.5, 3, 4, 5, -6))
npy('i64_3.npy', '<i8', (3,), struct.pack('<3q', -1, 0, 9000000000), version=2)
npy('b1_3.npy', '|b1', (3,), bytes([1, 0, 1]))
npy('f64_scalar.npy', '<f8', (), struct.pack('<d', 2.5))
npy('i32_empty.npy', '<i4', (0,), b'')
# Big-endian data, converted on reading.
npy('big_endian.npy', '>f4', (2,), struct.pack('>2f', 1, 2))
# Inputs tfc-run must reject with a clear message.
npy('fortran.npy', '<f4', (2, 2), struct.pack('<4f', 1, 2, 3, 4), fortran=True)
npy('truncated.npy', '<f4', (2, 3), struct.pack('<6f', 1, 2, 3, 4, 5, 6), trunc=4)
npy('uint16.npy', '<u2', (2,), struct.pack('<2H', 1, 2))
with open('not_npy.npy', 'wb') as f:
    f.write(b'hello, this is not a numpy file\n')
