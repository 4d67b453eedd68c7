// Reads a LAS file with readers that share no code with ours: copc.js (Hobu's LAS/COPC
// reader: header, VLRs, point views) over laz-perf (LASzip's reader compiled to WebAssembly,
// the decoder PDAL and QGIS use). Prints, one per line, for tests/io/las_interop_test.cc:
//   header NAME VALUE...      version, point format and record length, count, scale, offset,
//                             min, max, system identifier
//   vlr USER_ID RECORD_ID
//   geokey ID VALUE           the GeoTIFF keys of the LASF_Projection records (citations as text)
//   point X Y Z R G B         every point, in CRS units, colours 16-bit
//   node las_independent_read.mjs FILE.las NODE_MODULES_DIR
import fs from 'fs';
import { createRequire } from 'module';

const [path, modules] = process.argv.slice(2);
if (!path || !modules) {
  console.error('usage: node las_independent_read.mjs FILE.las NODE_MODULES_DIR');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const { Las } = require(`${modules}/copc`);

const file = new Uint8Array(fs.readFileSync(path));
const header = Las.Header.parse(file);
const vlrs = await Las.Vlr.walk(async (begin, end) => file.subarray(begin, end), header);
const content = (vlr) => file.subarray(vlr.contentOffset, vlr.contentOffset + vlr.contentLength);

// GeoKeyDirectoryTag (34735): header (version, revision, minor, count), then 4 shorts per key;
// keys stored in GeoAsciiParamsTag (34737) are (offset, count) into its text, '|'-terminated.
const keys = {};
const directory = Las.Vlr.find(vlrs, 'LASF_Projection', 34735);
const asciiVlr = Las.Vlr.find(vlrs, 'LASF_Projection', 34737);
const ascii = asciiVlr ? Buffer.from(content(asciiVlr)).toString('latin1') : '';
if (directory) {
  const bytes = content(directory);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint16(6, true);
  for (let k = 0; k < count; ++k) {
    const [id, location, n, value] = [0, 2, 4, 6].map((o) => view.getUint16(8 + 8 * k + o, true));
    keys[id] = location === 0 ? value : location === 34737 ? ascii.substr(value, n).replace(/\|$/, '') : null;
  }
}

const points = await Las.PointData.decompressFile(file);
const pointView = Las.View.create(points, header);
const get = ['X', 'Y', 'Z', 'Red', 'Green', 'Blue'].map((name) => pointView.getter(name));
const xyzrgb = [];
for (let i = 0; i < pointView.pointCount; ++i) xyzrgb.push(get.map((g) => g(i)));

const lines = [
  `header version ${header.majorVersion}.${header.minorVersion}`,
  `header point_format ${header.pointDataRecordFormat} ${header.pointDataRecordLength}`,
  `header point_count ${header.pointCount}`,
  `header scale ${header.scale.join(' ')}`,
  `header offset ${header.offset.join(' ')}`,
  `header min ${header.min.join(' ')}`,
  `header max ${header.max.join(' ')}`,
  `header system_identifier ${header.systemIdentifier}`,
  ...vlrs.map((v) => `vlr ${v.userId} ${v.recordId}`),
  ...Object.entries(keys).map(([id, value]) => `geokey ${id} ${value}`),
  ...xyzrgb.map((p) => `point ${p.join(' ')}`),
];
process.stdout.write(lines.join('\n') + '\n');
