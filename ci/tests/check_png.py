#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a screenshot is a real picture, not an empty page.

Usage: ci/tests/check_png.py PNG WIDTH HEIGHT

Wants a PNG signature, an IHDR of WIDTH x HEIGHT, image data that inflates,
and in it more than 16 distinct byte values with none above 99.5% of the
bytes (a blank or one-colour page fails; rendered text and coloured table
cells pass).
"""
import struct
import sys
import zlib
from collections import Counter

import tsv_truth


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[2])
    path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        tsv_truth.finish([str(e)], path)
    problems = []
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        tsv_truth.finish(["no PNG signature"], path)
    pos, idat, size = 8, b"", None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if size != (width, height):
        problems.append(f"size {size}, want {(width, height)}")
    try:
        pixels = zlib.decompress(idat)
    except zlib.error as e:
        tsv_truth.finish(problems + [f"image data: {e}"], path)
    counts = Counter(pixels)
    top = counts.most_common(1)[0][1] / len(pixels) if pixels else 1
    if len(counts) <= 16 or top > 0.995:
        problems.append(f"{len(counts)} distinct bytes, top one {top:.1%}: "
                        "looks blank")
    tsv_truth.finish(problems, path)


if __name__ == "__main__":
    main()
