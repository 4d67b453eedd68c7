# sfm in a container: Debian 12, built from this folder for the CPU (no CUDA), installed from
# its Debian package so the runtime image has only the shared libraries it needs.
#   docker build -t sfm .
#   docker run --rm -v "$PWD/photos:/data/photos:ro" -v "$PWD/out:/data/out" sfm \
#       reconstruct /data/photos -o /data/out
FROM debian:12 AS build
WORKDIR /src
COPY . .
# scripts/package.sh installs the build packages (scripts/setup.sh, npm for three.js),
# builds sfm and makes build-package/gpusfm_<version>_<arch>.deb. PROJ_CPU_ARCH is empty so
# the program runs on any x86-64 host, not only those with AVX2.
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ca-certificates \
 && PROJ_CMAKE_ARGS="-DPROJ_CPU_ARCH=" bash scripts/package.sh \
 && mkdir /deb && cp build-package/gpusfm_*.deb /deb/

FROM debian:12-slim
COPY --from=build /deb /deb
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /deb/gpusfm_*.deb \
 && rm -rf /deb /var/lib/apt/lists/*
WORKDIR /data
ENTRYPOINT ["sfm"]
CMD ["--help"]
