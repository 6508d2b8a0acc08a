/* fields.h -- field types of LibHR and their memory: allocation (aligned, n fields at once),
 * host and device copies with current-copy tracking, layout conversion, halo exchange. All
 * of it is generated from the one list of field kinds in field_kinds.h; the per-kind
 * functions are named <verb>_<kind>, e.g. alloc_spinor_field, copy_to_gpu_suNg_field.
 * HiRep-style names (alloc_spinor_field_f, alloc_gfield, ...) are provided at the end.
 * Doc/fields_and_backends.md describes the model.
 *
 * A field struct (one per kind, e.g. spinor_field with site type suNf_spinor) has
 *   ptr       host copy, array of structures: site ix at _FIELD_AT(f, ix) (_4FIELD_AT for
 *             links), indices of f->type (master sites, copies, halo)
 *   gpu_ptr   device copy in the structure-of-arrays layout of gpu.h (NULL in CPU builds)
 *   type      the geometry (glattice, glat_even or glat_odd)
 *   n         the number of fields allocated together with this one (alloc_<kind>(n, g)
 *             returns an array of n structs sharing one allocation)
 *   current   which copies hold the field's value: HR_COPY_HOST | HR_COPY_GPU
 *   version   changes whenever the field's value may change (see below)
 *
 * Current-copy rule (GPU builds). Every operation brings the copy it works on up to date
 * first (copying from the other side when only that one is current) and, when it writes,
 * marks the other copy stale. User code follows the same rule through these calls:
 *   sync_host_<kind>(f) / sync_gpu_<kind>(f)   make that copy current (before reading it)
 *   host_write_<kind>(f) / gpu_write_<kind>(f) the same, and mark the other copy stale
 *                                              (before writing it); return ptr / gpu_ptr
 * In CPU builds the host copy is always current and these calls only return f->ptr.
 *
 * Versions. Every call that may change a field's value (host_write_*, gpu_write_*, copy_*
 * into it, zero_*, the linear algebra and every library update of the links) gives the field
 * a fresh version from one global counter, so (field, version) never repeats. What is derived
 * from a field (represented links, packed and single-precision links, the clover term and its
 * inverse, see dirac.h) records the version it was built from and is rebuilt on its next use
 * when the version differs. A program that changes a field's values through the pointer
 * itself calls host_write_<kind>(f) (or gpu_write_<kind>(f)) before it writes: that one call
 * is the whole contract.
 * Implemented in: Memory/fields.c, Memory/field_layout.c, Memory/field_exchange.c. */
#ifndef FIELDS_H
#define FIELDS_H

#include <stddef.h>

#include "field_kinds.h"
#include "geometry.h"
#include "host_memory.h"
#include "hr_build_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bits of a field's `current`. */
enum { HR_COPY_HOST = 1, HR_COPY_GPU = 2 };

/* Alignment in bytes of every field's host and device memory (hr_host_alloc's). */
#define HR_FIELD_ALIGN HR_HOST_ALIGN_BYTES

/* Static description of a field kind. */
typedef struct {
  const char *name;  /* e.g. "spinor_field" */
  size_t elem_bytes; /* bytes of one element (site type) */
  int nlinks;        /* elements per site (1 or 4) */
  hr_layout layout;  /* halo layout */
  size_t unit_bytes; /* bytes of one device component unit */
  int unit_reals;    /* real numbers per unit: 2 (complex unit) or 1 */
  int units;         /* units per element */
} hr_field_kind_info;

/* Per-allocation bookkeeping (opaque): device exchange tables and buffers. */
struct hr_field_memory;
/* State of one field's halo exchange (opaque). */
struct hr_field_exchange;

#define HR_FIELD_STRUCT_(kind, site, nlinks, layout, unit, alg_)                               \
  typedef struct kind {                                                                        \
    site *ptr;                           /* host copy */                                       \
    site *gpu_ptr;                       /* device copy (NULL in CPU builds) */                \
    const geometry_descriptor *type;     /* geometry */                                        \
    int n;                               /* fields allocated together */                       \
    int current;                         /* HR_COPY_HOST | HR_COPY_GPU */                      \
    unsigned long version;               /* changes with every write (hr_field_new_version) */ \
    struct hr_field_memory *mem;         /* shared allocation record */                        \
    struct hr_field_exchange *exchange;  /* this field's halo-exchange state */                \
  } kind;
HR_FIELD_KINDS(HR_FIELD_STRUCT_)
#undef HR_FIELD_STRUCT_

/* Per kind:
 *   alloc_<kind>(n, g)        n fields on geometry g, zeroed, both copies current; stops
 *                             the program when out of memory
 *   free_<kind>(f)            free what alloc_<kind> returned (NULL is ignored)
 *   copy_<kind>(dst, src)     dst = src, every stored site (master, copies, halo); same
 *                             geometry; done on the device in GPU builds
 *   zero_<kind>(f)            f = 0 at every stored site
 *   copy_to_gpu_<kind>(f)     host copy -> device copy (layout conversion); both current
 *   copy_from_gpu_<kind>(f)   device copy -> host copy (layout conversion, copies synced);
 *                             both current
 *   sync_host_<kind>(f), sync_gpu_<kind>(f), host_write_<kind>(f), gpu_write_<kind>(f)
 *                             current-copy control, see above (sync_* accept const fields:
 *                             bringing a copy up to date does not change the field's value;
 *                             the *_write_* calls give the field a new version)
 *   start_sendrecv_<kind>(f)  start the halo exchange of f (on the device when the device
 *                             copy is current in a GPU build, else on the host)
 *   complete_sendrecv_<kind>(f)  wait for it; afterwards the halo (receive pieces and
 *                             copies) holds the neighbours' values on that side only
 *   sendrecv_<kind>(f)        both
 *   hr_kind_<kind>            the kind's hr_field_kind_info */
#define HR_FIELD_DECLS_(kind, site, nlinks, layout, unit, alg_)                                \
  kind *alloc_##kind(int n, const geometry_descriptor *g);                                     \
  void free_##kind(kind *f);                                                                   \
  void copy_##kind(kind *dst, const kind *src);                                                \
  void zero_##kind(kind *f);                                                                   \
  void copy_to_gpu_##kind(kind *f);                                                            \
  void copy_from_gpu_##kind(kind *f);                                                          \
  site *sync_host_##kind(const kind *f);                                                       \
  site *sync_gpu_##kind(const kind *f);                                                        \
  site *host_write_##kind(kind *f);                                                            \
  site *gpu_write_##kind(kind *f);                                                             \
  void start_sendrecv_##kind(kind *f);                                                         \
  void complete_sendrecv_##kind(kind *f);                                                      \
  void sendrecv_##kind(kind *f);                                                               \
  extern const hr_field_kind_info hr_kind_##kind;
HR_FIELD_KINDS(HR_FIELD_DECLS_)
#undef HR_FIELD_DECLS_

/* A fresh version number (global counter, never reused), for a field about to change. */
unsigned long hr_field_new_version(void);

/* Stop with an error naming `what` if the field whose exchange state is `ex` (f->exchange)
 * has a halo exchange in flight (its memory must not be touched until it completes). */
void hr_field_check_idle(const struct hr_field_exchange *ex, const char *what);

/* Bytes of memory of one field of kind k on geometry g (each copy), before alignment. */
size_t field_bytes(const hr_field_kind_info *k, const geometry_descriptor *g);

/* ------------------------------------------------------------------ HiRep-style names */

/* n spinor fields (double / single precision) on g. */
static inline spinor_field *alloc_spinor_field_f(int n, const geometry_descriptor *g) {
  return alloc_spinor_field(n, g);
}
static inline spinor_field_flt *alloc_spinor_field_f_flt(int n, const geometry_descriptor *g) {
  return alloc_spinor_field_flt(n, g);
}
/* Gauge field (suNg links), represented gauge field (suNf links), single-precision twins. */
static inline suNg_field *alloc_gfield(const geometry_descriptor *g) {
  return alloc_suNg_field(1, g);
}
static inline suNf_field *alloc_gfield_f(const geometry_descriptor *g) {
  return alloc_suNf_field(1, g);
}
static inline suNg_field_flt *alloc_gfield_flt(const geometry_descriptor *g) {
  return alloc_suNg_field_flt(1, g);
}
static inline suNf_field_flt *alloc_gfield_f_flt(const geometry_descriptor *g) {
  return alloc_suNf_field_flt(1, g);
}
/* Momenta / forces (algebra vectors per link). */
static inline suNg_av_field *alloc_avfield(const geometry_descriptor *g) {
  return alloc_suNg_av_field(1, g);
}
/* Clover term. */
static inline clover_field *alloc_clover_term(const geometry_descriptor *g) {
  return alloc_clover_field(1, g);
}
/* n scalar (double) fields. */
static inline scalar_field *alloc_sfield(int n, const geometry_descriptor *g) {
  return alloc_scalar_field(n, g);
}
static inline void free_spinor_field_f(spinor_field *f) { free_spinor_field(f); }
static inline void free_spinor_field_f_flt(spinor_field_flt *f) { free_spinor_field_flt(f); }
static inline void free_gfield(suNg_field *f) { free_suNg_field(f); }
static inline void free_gfield_f(suNf_field *f) { free_suNf_field(f); }
static inline void free_gfield_flt(suNg_field_flt *f) { free_suNg_field_flt(f); }
static inline void free_gfield_f_flt(suNf_field_flt *f) { free_suNf_field_flt(f); }
static inline void free_avfield(suNg_av_field *f) { free_suNg_av_field(f); }
static inline void free_clover_term(clover_field *f) { free_clover_field(f); }
static inline void free_sfield(scalar_field *f) { free_scalar_field(f); }
/* Explicit copies between host and device (HiRep names). */
static inline void copy_to_gpu_spinor_field_f(spinor_field *f) { copy_to_gpu_spinor_field(f); }
static inline void copy_from_gpu_spinor_field_f(spinor_field *f) {
  copy_from_gpu_spinor_field(f);
}
static inline void copy_to_gpu_spinor_field_f_flt(spinor_field_flt *f) {
  copy_to_gpu_spinor_field_flt(f);
}
static inline void copy_from_gpu_spinor_field_f_flt(spinor_field_flt *f) {
  copy_from_gpu_spinor_field_flt(f);
}
static inline void copy_to_gpu_gfield(suNg_field *f) { copy_to_gpu_suNg_field(f); }
static inline void copy_from_gpu_gfield(suNg_field *f) { copy_from_gpu_suNg_field(f); }
static inline void copy_to_gpu_gfield_f(suNf_field *f) { copy_to_gpu_suNf_field(f); }
static inline void copy_from_gpu_gfield_f(suNf_field *f) { copy_from_gpu_suNf_field(f); }

#ifdef __cplusplus
}
#endif

#endif
