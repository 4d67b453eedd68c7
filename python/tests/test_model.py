"""gpusfm.Model against the text model's own lines, and gpusfm.Database against the model."""
import numpy as np
import pytest

import gpusfm


def text_rows(path):
    return [line.split() for line in path.read_text().splitlines() if line and not line.startswith("#")]


def test_model_arrays_are_what_the_text_model_says(reconstruction, scratch):
    model = gpusfm.Model.read(str(scratch / "out" / "model"))
    folder = scratch / "out" / "model"
    cameras = text_rows(folder / "cameras.txt")
    assert sorted(model.cameras) == [int(row[0]) for row in cameras]
    for row in cameras:
        camera = model.cameras[int(row[0])]
        assert (camera.model, camera.width, camera.height) == (row[1], int(row[2]), int(row[3]))
        np.testing.assert_array_equal(camera.params, [float(v) for v in row[4:]])
    images = text_rows(folder / "images.txt")  # two lines per image
    assert sorted(model.images) == [int(row[0]) for row in images[0::2]]
    for pose, points in zip(images[0::2], images[1::2]):
        image = model.images[int(pose[0])]
        assert image.name == pose[9] and image.camera_id == int(pose[8])
        np.testing.assert_array_equal(image.cam_from_world.rotation, [float(v) for v in pose[1:5]])
        np.testing.assert_array_equal(image.cam_from_world.translation, [float(v) for v in pose[5:8]])
        observations = np.array(points, dtype=float).reshape(-1, 3)
        np.testing.assert_array_equal(image.points2D, observations[:, :2])
        np.testing.assert_array_equal(image.point3D_ids, observations[:, 2].astype(np.int64))
    points = text_rows(folder / "points3D.txt")
    np.testing.assert_array_equal(model.point3D_ids(), [int(row[0]) for row in points])
    np.testing.assert_array_equal(model.xyz(), [[float(v) for v in row[1:4]] for row in points])
    np.testing.assert_array_equal(model.rgb(), [[int(v) for v in row[4:7]] for row in points])
    np.testing.assert_array_equal(model.errors(), [float(row[7]) for row in points])
    for row in points[:50]:
        point = model.points3D[int(row[0])]
        np.testing.assert_array_equal(point.track, np.array(row[8:], dtype=np.int64).reshape(-1, 2))
        np.testing.assert_array_equal(point.xyz, [float(v) for v in row[1:4]])


def test_views_share_the_models_memory(reconstruction):
    model = gpusfm.Model.read(str(reconstruction[0].output + "/model"))
    point_id = int(model.point3D_ids()[0])
    xyz = model.points3D[point_id].xyz
    xyz[:] = [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(model.points3D[point_id].xyz, [1.0, 2.0, 3.0])
    image = next(iter(model.images.values()))
    pose = gpusfm.Rigid3d([1, 0, 0, 0], [0, 0, 5])
    image.cam_from_world = pose
    np.testing.assert_array_equal(image.center, [0, 0, -5])
    del model  # the views keep the model alive
    assert xyz.sum() == 6.0 and image.name


def test_database_arrays(reconstruction):
    result, _ = reconstruction
    model = result.model
    with gpusfm.Database(result.database) as db:
        images = db.images()
        assert len(images) == len(model.images)
        names = {image.name: image_id for image_id, image in images.items()}
        for image in model.images.values():
            keypoints = db.keypoints(names[image.name])
            assert keypoints.dtype == np.float32 and keypoints.shape == (len(image.points2D), 4)
            np.testing.assert_array_equal(keypoints[:, :2], image.points2D)
            assert db.descriptors(names[image.name]).shape == (len(keypoints), 128)
        geometries = db.two_view_geometries()
        assert len(geometries) > 0 and set(geometries) <= set(db.matched_pairs())
        (id1, id2), geometry = next(iter(geometries.items()))
        matches = db.matches(id1, id2)
        assert matches.dtype == np.uint32 and matches.shape[1] == 2
        inliers = {tuple(row) for row in geometry.inlier_matches}
        assert inliers and inliers <= {tuple(row) for row in matches}
        assert geometry.F.shape == (3, 3)
    with pytest.raises(gpusfm.InputError, match="closed"):
        db.images()


def test_a_bad_database_or_model_raises_input_error(scratch):
    (scratch / "not_a_database.db").write_text("hello")
    with pytest.raises(gpusfm.InputError, match="not_a_database.db"):
        gpusfm.Database(str(scratch / "not_a_database.db"))
    with pytest.raises(gpusfm.InputError, match="no_model_here"):
        gpusfm.Model.read(str(scratch / "no_model_here"))
