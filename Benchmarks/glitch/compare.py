#!/usr/bin/env python3
"""Counts the 1024-frame blocks of a source that did not arrive intact and in place.

    compare.py SOURCE RECORDING

SOURCE and RECORDING are WAVE files (16-bit integer or 32-bit float PCM, the same channel
count); float samples are scaled by 32768 and compared as integers, so a 16-bit source played
at unity gain through a float path must come back exactly. The recording may start late (a
monitor misses the first milliseconds of a stream) and run on after the source ends.

The walk: find the first source block that appears exactly in the recording; from there each
block must follow the one before it at once, sample for sample. A block that does not is counted
as differing (lost, damaged, or moved by silence inserted or audio dropped before it); the walk
then finds it again anywhere in the recording (by its first frames) and goes on from there.
Prints one JSON object: blocks, differing, missing_at_start (blocks before the first one found,
which a monitor can miss), not_found (differing blocks found nowhere), and the frames the
recording holds between the first and the last block found beyond the source's (inserted > 0:
silence or repeats added; < 0: audio dropped).
"""
import json
import struct
import sys

import numpy as np

BLOCK = 1024


def read_wave(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] not in (b"RIFF", b"RF64") or data[8:12] != b"WAVE":
        sys.exit(f"{path}: not a WAVE file")
    pos, fmt, samples = 12, None, None
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if cid == b"fmt ":
            tag, channels, _rate, _bps, _align, bits = struct.unpack("<HHIIHH", body[:16])
            if tag == 0xFFFE and len(body) >= 26:
                tag = struct.unpack("<H", body[24:26])[0]
            fmt = (tag, channels, bits)
        elif cid == b"data":
            if size == 0xFFFFFFFF or pos + 8 + size > len(data):
                body = data[pos + 8:]
            samples = body
            break
        pos += 8 + size + (size & 1)
    if fmt is None or samples is None:
        sys.exit(f"{path}: no fmt or data chunk")
    tag, channels, bits = fmt
    if tag == 1 and bits == 16:
        a = np.frombuffer(samples[: len(samples) // 2 * 2], dtype="<i2").astype(np.int32)
    elif tag == 3 and bits == 32:
        f = np.frombuffer(samples[: len(samples) // 4 * 4], dtype="<f4").astype(np.float64)
        a = np.clip(np.round(f * 32768.0), -32768, 32767).astype(np.int32)
    else:
        sys.exit(f"{path}: format tag {tag}, {bits} bits: only 16-bit integer and 32-bit float PCM")
    frames = len(a) // channels
    return a[: frames * channels].reshape(frames, channels)


def main():
    source, recording = read_wave(sys.argv[1]), read_wave(sys.argv[2])
    if source.shape[1] != recording.shape[1]:
        sys.exit("the source and the recording have different channel counts")
    channels = source.shape[1]
    blocks = len(source) // BLOCK
    # An index of the recording by its frames' first two samples packed into one key: where
    # each block could start.
    flat = recording.astype(np.int64)
    keys = ((flat[:, 0] & 0xFFFF) << 16) | (flat[:, min(1, channels - 1)] & 0xFFFF)
    if len(keys) > 1:
        keys = (keys[:-1] << 32) | keys[1:]
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]

    def key_of(block):
        b = source[block * BLOCK: block * BLOCK + 2].astype(np.int64)
        k0 = ((b[0, 0] & 0xFFFF) << 16) | (b[0, min(1, channels - 1)] & 0xFFFF)
        k1 = ((b[1, 0] & 0xFFFF) << 16) | (b[1, min(1, channels - 1)] & 0xFFFF)
        return (k0 << 32) | k1

    def find(block, after):
        """Where block starts intact in the recording, at or after `after`; None when nowhere."""
        want = source[block * BLOCK:(block + 1) * BLOCK]
        k = key_of(block)
        lo, hi = np.searchsorted(sorted_keys, k, "left"), np.searchsorted(sorted_keys, k, "right")
        for at in sorted(order[lo:hi]):
            if at >= after and at + BLOCK <= len(recording) and np.array_equal(recording[at:at + BLOCK], want):
                return int(at)
        return None

    def intact(block, at):
        return at + BLOCK <= len(recording) and np.array_equal(recording[at:at + BLOCK], source[block * BLOCK:(block + 1) * BLOCK])

    first, start = None, None
    for b in range(blocks):
        # Silent blocks match anywhere: the walk starts at a block with something in it.
        if not source[b * BLOCK:(b + 1) * BLOCK].any():
            continue
        at = find(b, 0)
        if at is not None:
            first, start = b, at
            break
    if first is None:
        print(json.dumps({"blocks": blocks, "differing": blocks, "missing_at_start": blocks, "not_found": blocks, "inserted_frames": 0}))
        return
    differing, not_found = 0, 0
    at, last_block, last_at = start + BLOCK, first, start
    for b in range(first + 1, blocks):
        if intact(b, at):
            last_block, last_at = b, at
            at += BLOCK
            continue
        differing += 1
        found = find(b, 0)
        if found is None:
            not_found += 1
            at += BLOCK
        else:
            last_block, last_at = b, found
            at = found + BLOCK
    inserted = (last_at - start) - (last_block - first) * BLOCK
    print(json.dumps({
        "blocks": blocks - first, "differing": differing, "missing_at_start": first,
        "not_found": not_found, "inserted_frames": int(inserted)}))


if __name__ == "__main__":
    main()
