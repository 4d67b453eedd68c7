"""Fixtures of the gpusfm tests: a small synthetic scene (`sfm synth`) reconstructed once.

CTest (python/CMakeLists.txt) sets PYTHONPATH to the built package, SFM_BINARY to the built
sfm program and PROJ_TEST_TMP to a scratch folder.
"""
import os
import pathlib
import shutil
import subprocess

import pytest

import gpusfm

NUM_IMAGES = 12
# Features of 640x480 and at most 2000 per image: fast on two cores, and every view registers.
OPTIONS = dict(device="cpu", threads=2, quiet=True, max_image_size=640, max_features=2000)


def sfm_binary():
    path = os.environ.get("SFM_BINARY")
    if not path:
        pytest.fail("SFM_BINARY is not set: run the tests through ctest (python_test)")
    return path


def run_sfm(*arguments):
    """Runs the sfm program; returns (exit code, stdout, stderr)."""
    done = subprocess.run([sfm_binary(), *map(str, arguments)], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="session")
def scratch():
    root = pathlib.Path(os.environ.get("PROJ_TEST_TMP", "/tmp")) / "gpusfm_python_test"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    return root


@pytest.fixture(scope="session")
def scene(scratch):
    """The synthetic ring: 12 views of 1280x960, 30 degrees apart."""
    code, _, err = run_sfm("synth", scratch / "scene", "--num-images", NUM_IMAGES)
    assert code == 0, err
    return scratch / "scene"


@pytest.fixture(scope="session")
def reconstruction(scene, scratch):
    """gpusfm.reconstruct on the scene with OPTIONS, and the progress calls it made."""
    calls = []
    result = gpusfm.reconstruct(scene / "images", scratch / "out", **OPTIONS,
                                progress=lambda stage, done, total: calls.append((stage, done, total)))
    return result, calls
