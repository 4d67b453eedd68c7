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

// A k-d tree over the reference points: indices reordered so that each subtree is a range,
// split at the median of the widest axis.
function buildKdTree(xyz) {
  const n = xyz.length / 3;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; ++i) order[i] = i;
  const nodes = [];  // {begin, end, axis, split, left, right}; leaves have axis -1
  const build = (begin, end) => {
    const node = { begin, end, axis: -1, split: 0, left: -1, right: -1 };
    const id = nodes.push(node) - 1;
    if (end - begin <= 16) return id;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let j = begin; j < end; ++j) {
      for (let k = 0; k < 3; ++k) {
        const v = xyz[3 * order[j] + k];
        if (v < lo[k]) lo[k] = v;
        if (v > hi[k]) hi[k] = v;
      }
    }
    const axis = [0, 1, 2].reduce((a, k) => (hi[k] - lo[k] > hi[a] - lo[a] ? k : a), 0);
    const slice = Array.from(order.subarray(begin, end)).sort((a, b) => xyz[3 * a + axis] - xyz[3 * b + axis]);
    order.set(slice, begin);
    const mid = (begin + end) >> 1;
    node.axis = axis;
    node.split = xyz[3 * order[mid] + axis];
    node.left = build(begin, mid);
    node.right = build(mid, end);
    return id;
  };
  build(0, n);
  return { nodes, order };
}

// Distance to the nearest reference point, and that point's index.
function nearest(tree, xyz, p) {
  let best = Infinity, bestIndex = -1;
  const visit = (id) => {
    const node = tree.nodes[id];
    if (node.axis < 0) {
      for (let j = node.begin; j < node.end; ++j) {
        const i = tree.order[j];
        const d = Math.hypot(xyz[3 * i] - p[0], xyz[3 * i + 1] - p[1], xyz[3 * i + 2] - p[2]);
        if (d < best) {
          best = d;
          bestIndex = i;
        }
      }
      return;
    }
    const delta = p[node.axis] - node.split;
    const [near, far] = delta < 0 ? [node.left, node.right] : [node.right, node.left];
    visit(near);
    if (Math.abs(delta) < best) visit(far);
  };
  visit(0);
  return [best, bestIndex];
}

const ours = await readPoints(oursPath);
const reference = await readPoints(referencePath);
if (ours.header.epsg !== reference.header.epsg) {
  console.error(`CRS differ: ours EPSG:${ours.header.epsg}, reference EPSG:${reference.header.epsg}`);
  process.exit(1);
}
const tree = buildKdTree(reference.xyz);
const distances = [];
const n = ours.xyz.length / 3;
const offset = [0, 0, 0];  // mean of (nearest reference point - our point): a systematic shift
for (let i = 0; i < n; ++i) {
  const p = [ours.xyz[3 * i], ours.xyz[3 * i + 1], ours.xyz[3 * i + 2]];
  const [d, j] = nearest(tree, reference.xyz, p);
  distances.push(d);
  for (let k = 0; k < 3; ++k) offset[k] += (reference.xyz[3 * j + k] - p[k]) / n;
}
const finite = distances.sort((a, b) => a - b);
const quantile = (q) => finite[Math.min(finite.length - 1, Math.floor(q * finite.length))];
const within = (d) => finite.filter((v) => v <= d).length / Math.max(1, n);
console.log(JSON.stringify({
  crs: `EPSG:${ours.header.epsg}`,
  our_points: n,
  reference_points: reference.xyz.length / 3,
  c2c_median_m: +quantile(0.5).toFixed(3),
  c2c_p90_m: +quantile(0.9).toFixed(3),
  c2c_mean_m: +(finite.reduce((a, b) => a + b, 0) / finite.length).toFixed(3),
  within_0_5_m: +within(0.5).toFixed(3),
  within_1_m: +within(1).toFixed(3),
  within_2_m: +within(2).toFixed(3),
  mean_offset_to_reference_m: offset.map((v) => +v.toFixed(3)),
}));
