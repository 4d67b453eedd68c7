// Decompresses a LAZ file to an uncompressed LAS file of the same version, point format,
// points and VLRs (less LASzip's own), so that our C++ tools (io/las_file.h ReadLasFile,
// bench/dense_cloud_accuracy) read a reference cloud such as a drone flight's model.laz.
// LAZ is decompressed with laz-perf (LASzip compiled to WebAssembly, from the npm registry:
// PDAL and LASzip are not Debian 12 packages); an uncompressed input is copied as it is.
//   node laz_to_las.mjs INPUT.laz OUTPUT.las LAZ_PERF_DIR
// LAS 1.0-1.3 (no extended VLRs); prints the point count.
import fs from 'fs';
import { createRequire } from 'module';

const [inputPath, outputPath, lazPerfDir] = process.argv.slice(2);
if (!inputPath || !outputPath || !lazPerfDir) {
  console.error('usage: node laz_to_las.mjs INPUT.laz OUTPUT.las LAZ_PERF_DIR');
  process.exit(2);
}

const bytes = new Uint8Array(fs.readFileSync(inputPath));
const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
if (bytes.length < 227 || String.fromCharCode(...bytes.subarray(0, 4)) !== 'LASF') {
  console.error(`${inputPath}: not a LAS file`);
  process.exit(1);
}
if (view.getUint8(25) > 3) {
  console.error(`${inputPath}: LAS 1.${view.getUint8(25)} is not supported (1.0-1.3 only)`);
  process.exit(1);
}
const headerSize = view.getUint16(94, true);
const pointOffset = view.getUint32(96, true);
const numVlrs = view.getUint32(100, true);
const format = view.getUint8(104);
const recordLength = view.getUint16(105, true);
const count = view.getUint32(107, true);
if ((format & 0x80) === 0) {
  fs.copyFileSync(inputPath, outputPath);
  console.log(count);
  process.exit(0);
}

// The VLRs to keep: all but LASzip's ("laszip encoded", record 22204).
const vlrs = [];
let at = headerSize;
for (let v = 0; v < numVlrs; ++v) {
  const userId = String.fromCharCode(...bytes.subarray(at + 2, at + 18)).replace(/\0+$/, '');
  const length = view.getUint16(at + 20, true);
  if (!(userId === 'laszip encoded' && view.getUint16(at + 18, true) === 22204)) {
    vlrs.push(bytes.subarray(at, at + 54 + length));
  }
  at += 54 + length;
}
const vlrBytes = vlrs.reduce((n, v) => n + v.length, 0);
const output = new Uint8Array(headerSize + vlrBytes + count * recordLength);
output.set(bytes.subarray(0, headerSize), 0);
const out = new DataView(output.buffer);
out.setUint32(96, headerSize + vlrBytes, true);
out.setUint32(100, vlrs.length, true);
out.setUint8(104, format & 0x7f);
let offset = headerSize;
for (const v of vlrs) {
  output.set(v, offset);
  offset += v.length;
}

const require = createRequire(import.meta.url);
const { createLazPerf } = require(`${lazPerfDir}/node_modules/laz-perf`);
const laz = await createLazPerf();
const file = laz._malloc(bytes.length);
laz.HEAPU8.set(bytes, file);
const reader = new laz.LASZip();
reader.open(file, bytes.length);
if (reader.getPointLength() !== recordLength) {
  console.error(`${inputPath}: laz-perf gives ${reader.getPointLength()}-byte points, the header says ${recordLength}`);
  process.exit(1);
}
const point = laz._malloc(recordLength);
for (let i = 0; i < count; ++i) {
  reader.getPoint(point);
  output.set(laz.HEAPU8.subarray(point, point + recordLength), offset);
  offset += recordLength;
}
reader.delete();
laz._free(point);
laz._free(file);
fs.writeFileSync(outputPath, output);
console.log(count);
