// Cloud-to-cloud comparison of our georeferenced sparse cloud with a reference LAS/LAZ cloud
// of the same site (bench/drone_cloud_compare.sh). For every point of OURS, the distance to
// its nearest neighbour in REFERENCE, in the CRS both files declare (they must agree; no
// alignment is done). LAZ is decompressed with laz-perf (LASzip compiled to WebAssembly, from
// the npm registry: PDAL and LASzip are not Debian 12 packages).
//   node drone_cloud_compare.mjs OURS.las REFERENCE.laz LAZ_PERF_DIR
// Prints one JSON object: counts, CRS, median / p90 / mean distances (metres) and the share of
// our points within 0.5, 1 and 2 m.
import fs from 'fs';
import { createRequire } from 'module';

const [oursPath, referencePath, lazPerfDir] = process.argv.slice(2);
if (!oursPath || !referencePath || !lazPerfDir) {
  console.error('usage: node drone_cloud_compare.mjs OURS.las REFERENCE.laz LAZ_PERF_DIR');
  process.exit(2);
}

// Header fields and the EPSG code of the GeoTIFF ProjectedCSTypeGeoKey (3072), if any.
function readHeader(bytes, path) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 227 || String.fromCharCode(...bytes.subarray(0, 4)) !== 'LASF') {
    throw new Error(`${path}: not a LAS file`);
  }
  const header = {
    headerSize: view.getUint16(94, true),
    pointOffset: view.getUint32(96, true),
    numVlrs: view.getUint32(100, true),
    format: view.getUint8(104),
    recordLength: view.getUint16(105, true),
    count: view.getUint32(107, true),
    scale: [0, 1, 2].map((k) => view.getFloat64(131 + 8 * k, true)),
    offset: [0, 1, 2].map((k) => view.getFloat64(155 + 8 * k, true)),
    epsg: 0,
  };
  let at = header.headerSize;
  for (let v = 0; v < header.numVlrs; ++v) {
    const recordId = view.getUint16(at + 18, true);
    const length = view.getUint16(at + 20, true);
    if (recordId === 34735) {
      const keys = view.getUint16(at + 54 + 6, true);
      for (let k = 0; k < keys; ++k) {
        const key = at + 54 + 8 + 8 * k;
        if (view.getUint16(key, true) === 3072) header.epsg = view.getUint16(key + 6, true);
      }
    }
    at += 54 + length;
  }
  return header;
}

// XYZ of every point as a Float64Array (x0, y0, z0, x1, ...).
async function readPoints(path) {
  const bytes = new Uint8Array(fs.readFileSync(path));
  const header = readHeader(bytes, path);
  const xyz = new Float64Array(3 * header.count);
  const decode = (record, i) => {
    for (let k = 0; k < 3; ++k) {
      xyz[3 * i + k] = record.getInt32(4 * k, true) * header.scale[k] + header.offset[k];
    }
  };
  if ((header.format & 0x80) === 0) {
    for (let i = 0; i < header.count; ++i) {
      decode(new DataView(bytes.buffer, header.pointOffset + i * header.recordLength, 12), i);
    }
    return { header, xyz };
  }
  const require = createRequire(import.meta.url);
  const { createLazPerf } = require(`${lazPerfDir}/node_modules/laz-perf`);
  const laz = await createLazPerf();
  const file = laz._malloc(bytes.length);
  laz.HEAPU8.set(bytes, file);
  const reader = new laz.LASZip();
  reader.open(file, bytes.length);
  const length = reader.getPointLength();
  const point = laz._malloc(length);
  for (let i = 0; i < header.count; ++i) {
    reader.getPoint(point);
    decode(new DataView(laz.HEAPU8.buffer, point, 12), i);
  }
  reader.delete();
  laz._free(point);
  laz._free(file);
  return { header, xyz };
}

// Uniform grid over the reference points (cell indices sorted by counting), for nearest
// neighbour queries by growing shells of cells.
function buildGrid(xyz, cell) {
  const n = xyz.length / 3;
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; ++i) {
    for (let k = 0; k < 3; ++k) {
      min[k] = Math.min(min[k], xyz[3 * i + k]);
      max[k] = Math.max(max[k], xyz[3 * i + k]);
    }
  }
  const dims = [0, 1, 2].map((k) => Math.floor((max[k] - min[k]) / cell) + 1);
  const cellOf = (x, y, z) => {
    const c = [x, y, z].map((v, k) => Math.floor((v - min[k]) / cell));
    return c;
  };
  const index = (c) => (c[2] * dims[1] + c[1]) * dims[0] + c[0];
  const numCells = dims[0] * dims[1] * dims[2];
  const start = new Uint32Array(numCells + 1);
  const cellIds = new Uint32Array(n);
  for (let i = 0; i < n; ++i) {
    cellIds[i] = index(cellOf(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]));
    ++start[cellIds[i] + 1];
  }
  for (let c = 0; c < numCells; ++c) start[c + 1] += start[c];
  const fill = start.slice(0, numCells);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; ++i) order[fill[cellIds[i]]++] = i;
  return { min, dims, cell, start, order, cellOf, index };
}

function nearestDistance(grid, xyz, p, maxShell) {
  const c = grid.cellOf(p[0], p[1], p[2]);
  let best = Infinity;
  for (let shell = 0; shell <= maxShell; ++shell) {
    // Cells at Chebyshev distance `shell`; any point there is at least (shell - 1) cells away.
    if (best <= (shell - 1) * grid.cell) break;
    for (let dz = -shell; dz <= shell; ++dz) {
      for (let dy = -shell; dy <= shell; ++dy) {
        for (let dx = -shell; dx <= shell; ++dx) {
          if (Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz)) !== shell) continue;
          const q = [c[0] + dx, c[1] + dy, c[2] + dz];
          if (q.some((v, k) => v < 0 || v >= grid.dims[k])) continue;
          const cell = grid.index(q);
          for (let j = grid.start[cell]; j < grid.start[cell + 1]; ++j) {
            const i = grid.order[j];
            const d = Math.hypot(xyz[3 * i] - p[0], xyz[3 * i + 1] - p[1], xyz[3 * i + 2] - p[2]);
            if (d < best) best = d;
          }
        }
      }
    }
  }
  return best;
}

const ours = await readPoints(oursPath);
const reference = await readPoints(referencePath);
if (ours.header.epsg !== reference.header.epsg) {
  console.error(`CRS differ: ours EPSG:${ours.header.epsg}, reference EPSG:${reference.header.epsg}`);
  process.exit(1);
}
const grid = buildGrid(reference.xyz, 0.5);
const distances = [];
const n = ours.xyz.length / 3;
for (let i = 0; i < n; ++i) {
  const p = [ours.xyz[3 * i], ours.xyz[3 * i + 1], ours.xyz[3 * i + 2]];
  distances.push(nearestDistance(grid, reference.xyz, p, 200));  // up to 100 m
}
const finite = distances.filter(Number.isFinite).sort((a, b) => a - b);
const quantile = (q) => finite[Math.min(finite.length - 1, Math.floor(q * finite.length))];
const within = (d) => finite.filter((v) => v <= d).length / Math.max(1, n);
console.log(JSON.stringify({
  crs: `EPSG:${ours.header.epsg}`,
  our_points: n,
  reference_points: reference.xyz.length / 3,
  beyond_100_m: n - finite.length,
  c2c_median_m: +quantile(0.5).toFixed(3),
  c2c_p90_m: +quantile(0.9).toFixed(3),
  c2c_mean_m: +(finite.reduce((a, b) => a + b, 0) / finite.length).toFixed(3),
  within_0_5_m: +within(0.5).toFixed(3),
  within_1_m: +within(1).toFixed(3),
  within_2_m: +within(2).toFixed(3),
}));
