/* global_access.h -- store, fetch and add of the value of any field at any global site (and
 * link direction) from any process: requests are queued and completed together by one
 * collective call, global_access_sync (batched all-to-all exchange; serial builds apply
 * them locally). Device fields are staged through their host copy. Doc/momentum_space.md.
 *
 * Global site index: gsite = ((t GLB_X + x) GLB_Y + y) GLB_Z + z of the global coordinates.
 * Within one sync all stores are applied first (when several processes store to the same
 * element, one of them wins, which one is not promised), then all adds (every add lands),
 * then fetches are answered: a fetch sees the values after the stores and adds of its sync.
 * After a sync that wrote anything, the halo and copies of the field are refreshed (on every
 * process) and the field has a new version.
 * Implemented in: Memory/global_access.c. */
#ifndef GLOBAL_ACCESS_H
#define GLOBAL_ACCESS_H

#include <stddef.h>

#include "fields.h"
#include "geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a global-access handle works on: host memory of a field and how to read it. */
typedef struct {
  void *field;                  /* host memory: element 0 = site g->master_shift */
  const geometry_descriptor *g; /* geometry of the field */
  hr_layout layout;             /* halo layout (for the halo refresh after writes) */
  size_t elem_bytes;            /* bytes of one element (a site value or one link) */
  int nlinks;                   /* elements per site: 1 or 4 */
  int real_bytes;               /* 8: elements are arrays of doubles, 4: of floats (adds) */
  void (*before_read)(void *ctx);  /* make the host copy current (may be NULL) */
  void (*before_write)(void *ctx); /* make it current and mark the device copy stale */
  void *ctx;                       /* argument of the two hooks (the field struct) */
} hr_ga_target;

/* A queue of requests on one field (opaque). */
typedef struct hr_global_access hr_global_access;

/* New handle on the target t (copied); free it with global_access_free. */
hr_global_access *global_access_new(const hr_ga_target *t);
/* Free a handle (pending requests are dropped; NULL is ignored). */
void global_access_free(hr_global_access *a);

/* Global index of global coordinates g[4] (each taken modulo the lattice extent). */
long long ga_site_index(const int g[4]);
/* Global coordinates g[4] of a global index. */
void ga_site_coordinates(int g[4], long long gsite);
/* Rank of the process that owns a global site. */
int ga_site_owner(long long gsite);
/* 1 when the global site lives on this process, else 0. */
int ga_site_is_local(long long gsite);
/* Local index ix (a master site) of a global site of this process, or -1 if not local. */
int ga_site_local_index(long long gsite);

/* Queue: element (gsite, mu) = *value (value is copied now; mu = 0 for site fields). */
void global_store(hr_global_access *a, long long gsite, int mu, const void *value);
/* Queue: element (gsite, mu) += *value, componentwise (value copied now). */
void global_add(hr_global_access *a, long long gsite, int mu, const void *value);
/* Queue: *dest = element (gsite, mu); dest is written by the next global_access_sync. */
void global_fetch(void *dest, hr_global_access *a, long long gsite, int mu);
/* Queue n fetches: dest[i] = element (gsites[i], mus ? mus[i] : 0) (elem_bytes apart). */
void global_fetch_many(void *dest, hr_global_access *a, long n, const long long *gsites,
                       const int *mus);
/* Complete every queued request of every process (collective: all processes call it). */
void global_access_sync(hr_global_access *a);
/* Requests queued on this process and not yet synced. */
long global_access_pending(const hr_global_access *a);

/* Per field kind: global_access_<kind>(f), a handle on field f (host copy, staged). */
#define HR_GA_HOOKS_(kind, site, nlinks_, layout_, unit, alg_)                                 \
  static inline void hr_ga_read_##kind(void *f) { sync_host_##kind((kind *)f); }                \
  static inline void hr_ga_write_##kind(void *f) { host_write_##kind((kind *)f); }              \
  static inline hr_global_access *global_access_##kind(kind *f) {                              \
    hr_ga_target t;                                                                            \
    t.field = f->ptr;                                                                          \
    t.g = f->type;                                                                             \
    t.layout = layout_;                                                                        \
    t.elem_bytes = sizeof(site);                                                               \
    t.nlinks = nlinks_;                                                                        \
    t.real_bytes = (int)(hr_kind_##kind.unit_bytes / (size_t)hr_kind_##kind.unit_reals);       \
    t.before_read = hr_ga_read_##kind;                                                         \
    t.before_write = hr_ga_write_##kind;                                                       \
    t.ctx = f;                                                                                 \
    return global_access_new(&t);                                                              \
  }
HR_FIELD_KINDS(HR_GA_HOOKS_)
#undef HR_GA_HOOKS_

#ifdef __cplusplus
}
#endif

#endif
