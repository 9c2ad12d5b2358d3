#!/usr/bin/env python3
"""Cross-checks tfc's .npy files with NumPy (test/Execution/npy-numpy.mlir).
  npy_numpy.py write DIR   numpy.save the inputs x0.npy ... x6.npy
  npy_numpy.py check DIR   numpy.load tfc-run's y.0.npy ... y.6.npy and
                           compare them with what the function computes
"""
import os
import sys

import numpy as np

d = sys.argv[2]
rng = np.random.default_rng(7)
inputs = [
    rng.standard_normal((2, 3)).astype('<f4'),
    np.array(-9000000000, dtype='<i8'),                   # rank 0
    np.array([True, False, True, True]),                  # |b1
    np.zeros((0, 3), dtype='<f8'),                        # empty
    rng.integers(-2**31, 2**31, (2, 1, 2, 2)).astype('<i4'),  # rank 4
    np.array([1.5, -2.25, 1e30], dtype='>f4'),            # big-endian
    rng.standard_normal((3, 2)).astype('<f8'),
]
if sys.argv[1] == 'write':
    for i, x in enumerate(inputs):
        np.save(os.path.join(d, 'x%d.npy' % i), x)
    # Header version 2.0 for the last one (tfc reads 1.0, 2.0 and 3.0).
    with open(os.path.join(d, 'x6.npy'), 'wb') as f:
        np.lib.format.write_array(f, inputs[6], version=(2, 0))
    # NumPy writes Fortran order for a transposed array: tfc rejects it.
    np.save(os.path.join(d, 'fortran.npy'), np.asfortranarray(inputs[6]))
else:
    expected = [
        inputs[0] * 2,
        inputs[1],
        ~inputs[2],
        inputs[3],
        inputs[4],
        inputs[5].astype('<f4'),
        inputs[6],
    ]
    for i, want in enumerate(expected):
        path = os.path.join(d, 'y.%d.npy' % i)
        with open(path, 'rb') as f:
            assert np.lib.format.read_magic(f) == (1, 0), path
            f.seek(0)
            raw = f.read()
        header_len = int.from_bytes(raw[8:10], 'little')
        assert (10 + header_len) % 64 == 0 and raw[10 + header_len - 1] == 10
        got = np.load(path)
        assert got.dtype == want.dtype, (path, got.dtype, want.dtype)
        assert got.shape == want.shape, (path, got.shape, want.shape)
        assert np.array_equal(got, want), (path, got, want)
        assert got.flags.c_contiguous
    print('numpy read all %d files back' % len(expected))
