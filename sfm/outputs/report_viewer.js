// The interactive 3D view of report.html: the model's points and camera frustums with
// three.js (bundled into the page through its import map), orbit controls, the initial
// viewpoint of the static picture. The model comes from the page's #model-data element:
//   origin: [x, y, z]        world point subtracted from every position (float32 precision)
//   points: base64 Float32Array x, y, z per point; colors: base64 Uint8Array r, g, b
//   frustums: base64 Float32Array, line segments (two x, y, z end points each)
//   view: {position, target, up: [x, y, z], fov_deg}
//   dense (only after the dense stage): {points_total, points, colors}, every k-th point of
//     the dense cloud in the same frame and encoding; then the view shows the dense points,
//     and two check boxes below it switch between them and the sparse points
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

function decodeBase64(text, ArrayType) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return new ArrayType(bytes.buffer);
}

function vector(values) {
  return new THREE.Vector3(values[0], values[1], values[2]);
}

function main() {
  const container = document.getElementById('viewer');
  const status = document.getElementById('viewer-status');
  const data = JSON.parse(document.getElementById('model-data').textContent);

  // Point colours are the photos' sRGB values: shown as stored, without colour management.
  THREE.ColorManagement.enabled = false;
  let renderer;
  try {
    // preserveDrawingBuffer: the canvas keeps its picture for screenshots and copying.
    renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  } catch (error) {
    status.textContent = 'The 3D view needs WebGL, which this browser does not provide; ' +
        'the picture below shows the model.';
    return;
  }
  renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  container.appendChild(renderer.domElement);

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x181a1f);
  const points = new THREE.BufferGeometry();
  points.setAttribute('position', new THREE.BufferAttribute(decodeBase64(data.points, Float32Array), 3));
  points.setAttribute('color', new THREE.BufferAttribute(decodeBase64(data.colors, Uint8Array), 3, true));
  const pointMaterial = new THREE.PointsMaterial({ size: 2, vertexColors: true, sizeAttenuation: false });
  const sparseCloud = new THREE.Points(points, pointMaterial);
  scene.add(sparseCloud);
  let denseCloud = null;
  if (data.dense) {
    const dense = new THREE.BufferGeometry();
    dense.setAttribute('position', new THREE.BufferAttribute(decodeBase64(data.dense.points, Float32Array), 3));
    dense.setAttribute('color', new THREE.BufferAttribute(decodeBase64(data.dense.colors, Uint8Array), 3, true));
    denseCloud = new THREE.Points(dense, new THREE.PointsMaterial({ size: 1.5, vertexColors: true, sizeAttenuation: false }));
    scene.add(denseCloud);
    sparseCloud.visible = false;
  }
  const frustums = new THREE.BufferGeometry();
  frustums.setAttribute('position', new THREE.BufferAttribute(decodeBase64(data.frustums, Float32Array), 3));
  scene.add(new THREE.LineSegments(frustums, new THREE.LineBasicMaterial({ color: 0xeb4034 })));

  const origin = vector(data.origin);
  const target = vector(data.view.target).sub(origin);
  const position = vector(data.view.position).sub(origin);
  const distance = position.distanceTo(target);
  const camera = new THREE.PerspectiveCamera(data.view.fov_deg, 1, distance / 1000, distance * 100);
  camera.up.copy(vector(data.view.up));
  camera.position.copy(position);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.copy(target);
  controls.update();

  const render = () => renderer.render(scene, camera);
  if (denseCloud) addCloudSwitches(status, [[denseCloud, 'dense cloud'], [sparseCloud, 'sparse points']], render);
  const resize = () => {
    const width = container.clientWidth;
    const height = container.clientHeight;
    renderer.setSize(width, height);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    render();
  };
  controls.addEventListener('change', render);
  window.addEventListener('resize', resize);
  resize();

  // Where the canvas is on the page, for tests that check its pixels in a screenshot.
  const box = renderer.domElement.getBoundingClientRect();
  renderer.domElement.id = 'viewer-canvas';
  renderer.domElement.dataset.rect = [box.left + window.scrollX, box.top + window.scrollY,
                                      box.width, box.height].map(Math.round).join(',');
  const count = points.getAttribute('position').count;
  let text = `${count.toLocaleString('en')} points` +
      (data.points_total > count ? ` of ${data.points_total.toLocaleString('en')}` : '');
  if (denseCloud) {
    const shown = denseCloud.geometry.getAttribute('position').count;
    text = `dense cloud: ${compact(data.dense.points_total)} points, ${compact(shown)} shown; sparse: ${text}`;
  }
  status.textContent = text + `, ${data.num_cameras} cameras. Drag to turn, right-drag to move, scroll to zoom.`;
}

// "2.7 M", "450k", "950"
function compact(count) {
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)} M`;
  if (count >= 1e4) return `${Math.round(count / 1e3)}k`;
  return count.toLocaleString('en');
}

// Check boxes after `status` that show or hide each [object, label]; each starts as the
// object's visibility.
function addCloudSwitches(status, clouds, render) {
  const line = document.createElement('p');
  line.id = 'viewer-switches';
  for (const [object, label] of clouds) {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = object.visible;
    box.addEventListener('change', () => { object.visible = box.checked; render(); });
    const tag = document.createElement('label');
    tag.style.marginRight = '16px';
    tag.append(box, ` ${label}`);
    line.append(tag);
  }
  status.after(line);
}

main();
