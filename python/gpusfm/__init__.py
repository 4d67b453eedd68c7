"""gpusfm: Structure-from-Motion from Python, the `sfm` program's pipeline in this process.

    import gpusfm
    result = gpusfm.reconstruct("photos/", "out/", device="cpu", max_image_size=2000)
    for image_id, image in result.model.images.items():
        print(image_id, image.name, image.center)

reconstruct, extract, match and map take the options of `sfm reconstruct`, `sfm extract`, ...
as keyword arguments: the option's long name with '_' for '-' (`max_image_size=2000` is
`--max-image-size 2000`), True or False for a flag (`single_camera=True`) and for an on|off
option (`loop_closure=False`), a list for a list (`gpus=[0, 2]`), None for the default. The
program's own definitions parse them: same defaults, same checks, same messages (`sfm
reconstruct --help` lists them). quiet=True / verbose=True set the log level of the call.

`progress`, when given, is called as progress(stage, done, total) from the worker threads
(with the GIL held) as each unit of work finishes: stage is e.g. "extracting features".
Raising in it stops the run at its next checkpoint and the exception propagates.

Errors: TypeError for an unknown option, ValueError for a bad value (CLI11's message),
gpusfm.InputError for bad input (a missing folder, fewer than two usable images, a database
in use, ...), gpusfm.NoModelError when no model could be built, gpusfm.SuspectModelError when
the model failed its quality checks (it is written; accept_suspect_model=True returns it, as
`--accept-suspect-model` makes the program exit 0), gpusfm.Error otherwise; the
messages are those `sfm` prints. Ctrl-C stops the run at its next checkpoint, as in `sfm`,
and raises KeyboardInterrupt; calling again with the same arguments resumes.
The GIL is released while a command runs.
"""
import os as _os
from typing import Any, Callable, Optional, Union


from ._gpusfm import (Camera, Database, DatabaseImage, Error, Image, InputError, Model,
                      NoModelError, Point3D, Result, Rigid3d, SuspectModelError, TwoViewGeometry,
                      _run)

_Path = Union[str, "_os.PathLike[str]"]
_Progress = Optional[Callable[[str, int, int], Any]]

__all__ = ["reconstruct", "extract", "match", "map", "Model", "Camera", "Image", "Point3D",
           "Rigid3d", "Database", "DatabaseImage", "TwoViewGeometry", "Result", "Error",
           "InputError", "NoModelError", "SuspectModelError"]


def reconstruct(images: _Path, output: _Path, *, progress: _Progress = None, **options: Any) -> Result:
    """`sfm reconstruct IMAGES -o OUTPUT [options]`: extraction, matching and mapping.

    images: a folder of photos and videos, or one video. Writes what the program writes into
    `output` and returns a Result whose .model is the reconstruction."""
    return _run("reconstruct", [_os.fspath(images), "--output", _os.fspath(output)], options, progress)


def extract(images: _Path, database: _Path, *, progress: _Progress = None, **options: Any) -> Result:
    """`sfm extract IMAGES --database DATABASE [options]`: features into the scene database."""
    return _run("extract", [_os.fspath(images), "--database", _os.fspath(database)], options, progress)


def match(database: _Path, *, progress: _Progress = None, **options: Any) -> Result:
    """`sfm match --database DATABASE [options]`: matches and two-view geometries."""
    return _run("match", ["--database", _os.fspath(database)], options, progress)


def map(database: _Path, output: _Path, *, progress: _Progress = None,  # noqa: A001 (sfm map)
        **options: Any) -> Result:
    """`sfm map --database DATABASE -o OUTPUT [options]`: the model from the verified pairs.

    image_path="photos/" colours the points (grey without it)."""
    return _run("map", ["--database", _os.fspath(database), "--output", _os.fspath(output)], options,
                progress)
