"""gpusfm.reconstruct and the stage commands: the model returned is the one written, options
are the program's, errors carry the program's messages, progress and Ctrl-C reach Python."""
import shutil
import signal

import numpy as np
import pytest

import gpusfm
from conftest import NUM_IMAGES, OPTIONS, run_sfm


def test_reconstruct_returns_the_model_it_wrote(reconstruction, scratch):
    result, _ = reconstruction
    model = result.model
    assert result.output == str(scratch / "out")
    assert result.summary.startswith(f"registered {NUM_IMAGES}/{NUM_IMAGES} images")
    assert model.num_registered_images == NUM_IMAGES
    assert len(model.points3D) > 500
    # Written again from Python: the same files, byte for byte, as the run wrote.
    model.write_text(scratch / "python_model")
    for name in ("cameras.txt", "images.txt", "points3D.txt"):
        written = (scratch / "python_model" / name).read_bytes()
        assert written == (scratch / "out" / "model" / name).read_bytes(), name
    # Read back (text and binary): the same numbers.
    for folder in (scratch / "out" / "model", scratch / "python_model"):
        read = gpusfm.Model.read(str(folder))
        assert_same_model(read, model)


def test_binary_round_trip(reconstruction, scratch):
    model = reconstruction[0].model
    model.write_binary(str(scratch / "binary_model"))
    assert_same_model(gpusfm.Model.read(str(scratch / "binary_model")), model)


def assert_same_model(a, b):
    assert a.cameras.keys() == b.cameras.keys()
    for camera_id, camera in a.cameras.items():
        assert camera.model == b.cameras[camera_id].model
        np.testing.assert_array_equal(camera.params, b.cameras[camera_id].params)
    assert a.images.keys() == b.images.keys()
    for image_id, image in a.images.items():
        other = b.images[image_id]
        assert image.name == other.name
        np.testing.assert_allclose(image.cam_from_world.matrix(), other.cam_from_world.matrix(), atol=1e-15)
        np.testing.assert_array_equal(image.points2D, other.points2D)
        np.testing.assert_array_equal(image.point3D_ids, other.point3D_ids)
    np.testing.assert_array_equal(a.point3D_ids(), b.point3D_ids())
    np.testing.assert_array_equal(a.xyz(), b.xyz())
    np.testing.assert_array_equal(a.rgb(), b.rgb())
    np.testing.assert_array_equal(a.errors(), b.errors())


def test_progress_reaches_the_callback(reconstruction):
    _, calls = reconstruction
    stages = {stage for stage, _, _ in calls}
    assert {"extracting features", "matching", "verifying pairs", "registering images"} <= stages
    assert ("extracting features", NUM_IMAGES, NUM_IMAGES) in calls
    extraction = [done for stage, done, _ in calls if stage == "extracting features"]
    assert extraction == sorted(extraction)


def test_stage_commands_reuse_the_database_and_map_the_same_model(reconstruction, scene, scratch):
    result, _ = reconstruction
    extracted = gpusfm.extract(scene / "images", result.database, **OPTIONS)
    assert extracted.summary.startswith(f"extracted 0 images, reused {NUM_IMAGES}")
    assert extracted.model is None
    matched = gpusfm.match(result.database, device="cpu", quiet=True)
    assert matched.summary.startswith("matched 0 pairs")
    mapped = gpusfm.map(result.database, scratch / "mapped", image_path=scene / "images", quiet=True)
    assert_same_model(mapped.model, result.model)


def test_a_missing_folder_raises_the_programs_message(scratch):
    missing = scratch / "no_such_folder"
    with pytest.raises(gpusfm.InputError) as raised:
        gpusfm.reconstruct(missing, scratch / "missing_out", device="cpu")
    assert str(missing) in str(raised.value)
    code, _, err = run_sfm("reconstruct", missing, "-o", scratch / "missing_out", "--device", "cpu")
    assert code == 2
    assert f"error: {raised.value}" in err


def test_no_model_raises_the_programs_reason(scene, scratch):
    apart = scratch / "opposite_views"  # 180 degrees apart: nothing in common
    apart.mkdir()
    for name in ("0000.jpg", "0006.jpg"):
        shutil.copy(scene / "images" / name, apart / name)
    with pytest.raises(gpusfm.NoModelError, match="no model could be built: ") as raised:
        gpusfm.reconstruct(apart, scratch / "no_model", **OPTIONS)
    code, _, err = run_sfm("reconstruct", apart, "-o", scratch / "no_model_cli", "--device", "cpu",
                           "--max-image-size", 640, "--max-features", 2000)
    assert code == 1
    assert f"error: {raised.value}" in err


def test_options_are_parsed_by_the_program(scratch):
    with pytest.raises(TypeError, match="--no-such-option"):
        gpusfm.reconstruct(scratch, scratch / "o", no_such_option=3)
    with pytest.raises(ValueError, match="--device: 'tpu' is not one of auto\\|cpu\\|gpu"):
        gpusfm.reconstruct(scratch, scratch / "o", device="tpu")
    with pytest.raises(TypeError, match="--single-camera is a flag"):
        gpusfm.reconstruct(scratch, scratch / "o", single_camera="yes")


def test_ctrl_c_stops_the_run_at_a_checkpoint(scene, scratch):
    database = scratch / "interrupted.db"

    def interrupt(stage, done, total):
        if stage == "extracting features" and done == 1:
            signal.raise_signal(signal.SIGINT)

    with pytest.raises(KeyboardInterrupt, match="run the same command again to resume"):
        gpusfm.extract(scene / "images", database, device="cpu", threads=1, quiet=True, progress=interrupt)
    with gpusfm.Database(str(database)) as db:
        extracted = [i for i in db.images() if db.keypoints(i).shape[0] > 0]
    assert 1 <= len(extracted) < NUM_IMAGES


def test_an_exception_in_the_callback_stops_the_run(scene, scratch):
    def fail(stage, done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        gpusfm.extract(scene / "images", scratch / "failed.db", device="cpu", threads=1, quiet=True,
                       progress=fail)


def test_a_suspect_model_raises_unless_accepted(scratch):
    # A flight geotagged with a clock offset: the model disagrees with its GPS (sfm exits 3).
    flight = scratch / "offset_flight"
    code, _, err = run_sfm("synth", flight, "--flight", "--num-images", 12, "--width", 512, "--height", 384,
                           "--gcps", 0, "--gps-fault", "time-offset")
    assert code == 0, err
    with pytest.raises(gpusfm.SuspectModelError, match="the model failed its quality checks") as raised:
        gpusfm.reconstruct(flight / "images", scratch / "suspect", device="cpu", threads=2, quiet=True,
                           no_gps_rebuild=True)
    assert isinstance(raised.value, gpusfm.Error)
    assert (scratch / "suspect" / "model").is_dir()  # written all the same
    result = gpusfm.map(scratch / "suspect" / "database.db", scratch / "accepted", threads=2, quiet=True,
                        no_gps_rebuild=True, accept_suspect_model=True)
    assert "model quality: failed" in result.summary
    assert result.model is not None
