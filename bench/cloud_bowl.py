#!/usr/bin/env python3
"""Benchmark helper (not a test): how a cloud bends against a reference cloud.

Aligns OURS.las onto REFERENCE.las by a rigid point-to-plane ICP (from the median height
difference, no scale), then fits the signed distances along the reference's normals with
a + b x + c y + k r^2 (r: horizontal distance from the reference's centroid) and prints k r^2
at 50 m: the depth of a bowl (or dome, when negative) that a nadir survey with a wrong lens
model bends into. Also the median point-to-point and point-to-plane distances after the fit
and the share of the reference within 0.25 m of ours. Uncompressed LAS only (model.laz:
bench/laz_to_las.mjs). Needs Debian's python3-numpy and python3-scipy.
  bench/cloud_bowl.py REFERENCE.las OURS.las [OURS2.las ...]
"""
import struct
import sys

import numpy as np
from scipy.spatial import cKDTree


def read_las(path):
    data = open(path, "rb").read()
    offset = struct.unpack_from("<I", data, 96)[0]
    record_length = struct.unpack_from("<H", data, 105)[0]
    count = struct.unpack_from("<I", data, 107)[0] or struct.unpack_from("<Q", data, 247)[0]
    scale_offset = np.array(struct.unpack_from("<6d", data, 131))
    raw = np.frombuffer(data, np.uint8, count * record_length, offset).reshape(count, record_length)
    xyz = raw[:, :12].copy().view("<i4").astype(np.float64)
    return xyz * scale_offset[:3] + scale_offset[3:]


def normals_of(points, tree, k=12):
    _, neighbours = tree.query(points, k=k)
    local = points[neighbours] - points[neighbours].mean(1, keepdims=True)
    _, vectors = np.linalg.eigh(np.einsum("nki,nkj->nij", local, local))
    return vectors[:, :, 0]


def fit(reference, normals, tree, ours, iterations=40):
    sample = ours[np.random.default_rng(0).choice(len(ours), min(200000, len(ours)), replace=False)]
    rotation, shift = np.eye(3), np.array([0, 0, np.median(reference[:, 2]) - np.median(ours[:, 2])])
    for it in range(iterations):
        moved = sample @ rotation.T + shift
        distance, nearest = tree.query(moved)
        keep = distance < (max(0.5, 3 * np.median(distance)) if it > 5 else 3.0)
        n, p, q = normals[nearest[keep]], moved[keep], reference[nearest[keep]]
        step = np.linalg.lstsq(np.hstack([np.cross(p, n), n]), np.einsum("ij,ij->i", q - p, n), rcond=None)[0]
        w = step[:3]
        skew = np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])
        u, _, vt = np.linalg.svd(np.eye(3) + skew + 0.5 * skew @ skew)
        rotation, shift = u @ vt @ rotation, u @ vt @ shift + step[3:]
    return rotation, shift


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    reference = read_las(sys.argv[1])
    centre = reference.mean(0)
    reference -= centre
    tree = cKDTree(reference)
    normals = normals_of(reference, tree)
    for path in sys.argv[2:]:
        ours = read_las(path) - centre
        rotation, shift = fit(reference, normals, tree, ours)
        moved = ours @ rotation.T + shift
        distance, nearest = tree.query(moved)
        n = normals[nearest]
        signed = np.einsum("ij,ij->i", moved - reference[nearest], n) * np.sign(n[:, 2])
        near = distance < 2
        design = np.c_[np.ones(len(moved)), moved[:, :2], (moved[:, :2] ** 2).sum(1)]
        bowl = np.linalg.lstsq(design[near], signed[near], rcond=None)[0][3] * 50**2
        covered, _ = cKDTree(moved).query(reference, distance_upper_bound=0.25)
        angle = np.degrees(np.arccos(min(1.0, (np.trace(rotation) - 1) / 2)))
        print(f"{path}: {len(ours)} points; fit shift {np.round(shift, 2)} m, {angle:.2f} deg; "
              f"after it median {np.median(distance):.3f} m (p90 {np.percentile(distance, 90):.3f}), "
              f"point-to-plane {np.median(np.abs(signed)):.3f} m; bowl {bowl:+.2f} m at 50 m; "
              f"reference within 0.25 m {100 * np.mean(np.isfinite(covered)):.1f}%")


if __name__ == "__main__":
    main()
