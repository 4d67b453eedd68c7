// numpy arrays over the project's data: views that share memory with an owner (writes go
// to the model) and copies of Eigen matrices (row-major, as numpy prints them).
#pragma once

#include <vector>

#include <Eigen/Core>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace proj::python {

namespace py = pybind11;

// A C-contiguous view of `shape` over `data`, which `owner` keeps alive.
template <typename T>
py::array_t<T> View(T* data, std::vector<py::ssize_t> shape, py::handle owner) {
  return py::array_t<T>(shape, data, owner);
}

// A copy of `matrix` with its shape (rows x cols; a vector is 1-D).
template <typename Derived>
py::array_t<typename Derived::Scalar> Copy(const Eigen::MatrixBase<Derived>& matrix) {
  using Scalar = typename Derived::Scalar;
  const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = matrix;
  if (matrix.cols() == 1) {
    py::array_t<Scalar> vector(matrix.rows());
    std::copy(rows.data(), rows.data() + rows.size(), vector.mutable_data());
    return vector;
  }
  py::array_t<Scalar> array({matrix.rows(), matrix.cols()});
  std::copy(rows.data(), rows.data() + rows.size(), array.mutable_data());
  return array;
}

// A (count, columns) array filled row by row by fill(row, out) writing `columns` values.
template <typename T, typename Fill>
py::array_t<T> Rows(py::ssize_t count, py::ssize_t columns, Fill fill) {
  py::array_t<T> array({count, columns});
  T* out = array.mutable_data();
  for (py::ssize_t row = 0; row < count; ++row) fill(row, out + row * columns);
  return array;
}

}  // namespace proj::python
