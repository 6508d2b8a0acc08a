/* field_pack.h -- the device side of a halo exchange, shared by Memory/field_exchange.c and
 * the kernel file Memory/field_gpu_kernels.c (compiled by nvcc in CUDA builds, so this header
 * needs nothing beyond the C/C++ common subset): the table of send sites and the packing
 * kernel's launcher. */
#ifndef FIELD_PACK_H
#define FIELD_PACK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One site of a device send buffer: where to read it (a master site: offset of its piece in
 * sites, index inside the piece, piece length) and where to write it in the packed send
 * area (offset of its buffer in sites, index inside the buffer, buffer length). */
typedef struct {
  int src_off, src_in, src_stride;
  int dst_off, dst_in, dst_stride;
} hr_pack_entry;

/* Gather the nsend send sites listed in `pack` (device memory) from the device copy `gpu` of
 * a field with `units_per_site` units of `unit_bytes` bytes (4, 8 or 16) into the packed
 * send area `send` (device memory; buffer b is a piece-like block of its own length). */
void hr_field_gpu_pack(const hr_pack_entry *pack, int nsend, int units_per_site,
                       size_t unit_bytes, const void *gpu, void *send);

#ifdef __cplusplus
}
#endif

#endif
