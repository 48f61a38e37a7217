// A 2-D grid of 2-D blocks (dim3): a tiled matrix transpose through a
// __shared__ tile, on a matrix whose sides are not multiples of the tile;
// and a 3-D launch that writes each thread's indices, checked against the
// CUDA formulas for threadIdx, blockIdx, blockDim and gridDim.
// REQUIRES: cuda
// RUN: %cuda_host_run %s -O2 | FileCheck %s
// RUN: %cuda_host_run %s -O0 | FileCheck %s
// RUN: %clang_cuda_gpu --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -O2 -c %s -o %t.o
// CHECK: grid_2d: 0 failures

#include "Inputs/check.h"

const int Tile = 16;

__global__ void transpose(const double *in, double *out, int rows, int cols) {
  __shared__ double tile[Tile][Tile + 1];
  int c = blockIdx.x * Tile + threadIdx.x, r = blockIdx.y * Tile + threadIdx.y;
  if (r < rows && c < cols)
    tile[threadIdx.y][threadIdx.x] = in[r * cols + c];
  __syncthreads();
  // The block's tile, written transposed: thread (x, y) writes out's row
  // blockIdx.x * Tile + y.
  int orow = blockIdx.x * Tile + threadIdx.y, ocol = blockIdx.y * Tile + threadIdx.x;
  if (orow < cols && ocol < rows)
    out[orow * rows + ocol] = tile[threadIdx.x][threadIdx.y];
}

struct Ids {
  unsigned tx, ty, tz, bx, by, bz, dx, dy, dz, gx, gy, gz;
};

__global__ void indices(Ids *out) {
  unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  out[block * blockDim.x * blockDim.y * blockDim.z + thread] =
      Ids{threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y,
          blockIdx.z,  blockDim.x,  blockDim.y,  blockDim.z, gridDim.x,
          gridDim.y,   gridDim.z};
}

int main() {
  const int rows = 37, cols = 50;
  double host[rows * cols], result[rows * cols], *in, *out;
  for (int i = 0; i < rows * cols; ++i)
    host[i] = i * 0.25;
  CUDA_OK(cudaMalloc(&in, sizeof host));
  CUDA_OK(cudaMalloc(&out, sizeof host));
  CUDA_OK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
  dim3 block(Tile, Tile), grid((cols + Tile - 1) / Tile, (rows + Tile - 1) / Tile);
  transpose<<<grid, block>>>(in, out, rows, cols);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      check_close("transpose", c * rows + r, result[c * rows + r],
                  host[r * cols + c], 0);

  dim3 g3(3, 2, 2), b3(4, 3, 2);
  const int total = 3 * 2 * 2 * 4 * 3 * 2;
  Ids *ids, hids[total];
  CUDA_OK(cudaMalloc(&ids, sizeof hids));
  indices<<<g3, b3>>>(ids);
  LAUNCH_OK();
  CUDA_OK(cudaMemcpy(hids, ids, sizeof hids, cudaMemcpyDeviceToHost));
  for (int i = 0; i < total; ++i) {
    int t = i % 24, b = i / 24;
    const Ids &d = hids[i];
    check_equal("tx", i, d.tx, t % 4);
    check_equal("ty", i, d.ty, t / 4 % 3);
    check_equal("tz", i, d.tz, t / 12);
    check_equal("bx", i, d.bx, b % 3);
    check_equal("by", i, d.by, b / 3 % 2);
    check_equal("bz", i, d.bz, b / 6);
    check_equal("blockDim", i, d.dx * 100 + d.dy * 10 + d.dz, 432);
    check_equal("gridDim", i, d.gx * 100 + d.gy * 10 + d.gz, 322);
  }
  return report("grid_2d");
}
