/* test_fields.c -- fields of every kind (HR_FIELD_KINDS) on glattice, glat_even and glat_odd,
 * on the process grid given on the command line (run by run_grids.sh), for two lattices,
 * with and without a halo forced in every direction:
 *   allocation: n fields, aligned, disjoint, zeroed, every stored site writable;
 *   device layout (GPU builds): after copy_to_gpu, unit u of element e of site ix of piece
 *     ixp is at block[(e*units + u)*stride + ix - start] of the raw device buffer (checked
 *     with that formula, for master and receive pieces); copy_from_gpu after zeroing the
 *     host copy restores every piece and copy site (the round trip is the identity);
 *   current copy: a host write is seen on the device after sync_gpu, a device write on the
 *     host after sync_host, and the bits say which copy is current;
 *   copy_<kind> and zero_<kind> give the source / zero on the host whatever copy was current;
 *   halo exchange on the host and (GPU builds) on the device: afterwards every receive-piece
 *     and copy site holds the value of the site whose global coordinates it stands for.
 * Values encode global coordinates, element, unit and real part, exact in float. */
#include "field_test.h"

/* ------------------------------------------------------------------ kinds, generically */

/* Per-kind operations behind void pointers, generated from the master list. */
typedef struct {
  const hr_field_kind_info *k;
  void *(*alloc)(int n, const geometry_descriptor *g);
  void (*free)(void *f);
  void *(*at)(void *f, int i);
  void *(*host)(void *f);
  void *(*gpu)(void *f);
  int *(*current)(void *f);
  int (*count)(void *f);
  const geometry_descriptor *(*geom)(void *f);
  void (*copy_to_gpu)(void *f), (*copy_from_gpu)(void *f), (*sync_host)(void *f),
      (*sync_gpu)(void *f), (*host_write)(void *f), (*gpu_write)(void *f),
      (*sendrecv)(void *f), (*zero)(void *f);
  void (*copy)(void *dst, void *src);
} ft_kind;

#define FT_KIND_FNS_(kind, site, nlinks, layout, unit, alg_)                                   \
  static void *ft_alloc_##kind(int n, const geometry_descriptor *g) { return alloc_##kind(n, g); } \
  static void ft_free_##kind(void *f) { free_##kind((kind *)f); }                             \
  static void *ft_at_##kind(void *f, int i) { return (kind *)f + i; }                         \
  static void *ft_host_##kind(void *f) { return ((kind *)f)->ptr; }                           \
  static void *ft_gpu_##kind(void *f) { return ((kind *)f)->gpu_ptr; }                        \
  static int *ft_current_##kind(void *f) { return &((kind *)f)->current; }                    \
  static int ft_count_##kind(void *f) { return ((kind *)f)->n; }                              \
  static const geometry_descriptor *ft_geom_##kind(void *f) { return ((kind *)f)->type; }     \
  static void ft_c2g_##kind(void *f) { copy_to_gpu_##kind((kind *)f); }                       \
  static void ft_cfg_##kind(void *f) { copy_from_gpu_##kind((kind *)f); }                     \
  static void ft_sh_##kind(void *f) { sync_host_##kind((kind *)f); }                          \
  static void ft_sg_##kind(void *f) { sync_gpu_##kind((kind *)f); }                           \
  static void ft_hw_##kind(void *f) { host_write_##kind((kind *)f); }                         \
  static void ft_gw_##kind(void *f) { gpu_write_##kind((kind *)f); }                          \
  static void ft_sr_##kind(void *f) { sendrecv_##kind((kind *)f); }                           \
  static void ft_zero_##kind(void *f) { zero_##kind((kind *)f); }                             \
  static void ft_copy_##kind(void *d, void *s) { copy_##kind((kind *)d, (kind *)s); }
HR_FIELD_KINDS(FT_KIND_FNS_)

#define FT_KIND_ENTRY_(kind, site, nlinks, layout, unit, alg_)                                 \
  {&hr_kind_##kind, ft_alloc_##kind, ft_free_##kind,  ft_at_##kind,    ft_host_##kind,          \
   ft_gpu_##kind,   ft_current_##kind, ft_count_##kind, ft_geom_##kind, ft_c2g_##kind,          \
   ft_cfg_##kind,   ft_sh_##kind,    ft_sg_##kind,    ft_hw_##kind,    ft_gw_##kind,            \
   ft_sr_##kind,    ft_zero_##kind,  ft_copy_##kind},
static const ft_kind kinds[] = {HR_FIELD_KINDS(FT_KIND_ENTRY_)};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

/* ------------------------------------------------------------------ values */

static int reals_per_site(const hr_field_kind_info *k) {
  return k->nlinks * k->units * k->unit_reals;
}
static int real_bytes(const hr_field_kind_info *k) { return (int)k->unit_bytes / k->unit_reals; }
static double get_real(const hr_field_kind_info *k, const void *base, size_t i) {
  return real_bytes(k) == 4 ? (double)((const float *)base)[i] : ((const double *)base)[i];
}
static void set_real(const hr_field_kind_info *k, void *base, size_t i, double v) {
  if (real_bytes(k) == 4)
    ((float *)base)[i] = (float)v;
  else
    ((double *)base)[i] = v;
}

#if HR_GPU_ENABLED
/* Real number i of a device copy, read and written through the copy functions of gpu.h (on
 * the real device its memory is not addressable from the host). */
static double get_dev_real(const hr_field_kind_info *k, const void *dev, size_t i) {
  const size_t rb = (size_t)real_bytes(k);
  double d = 0.0;
  float f = 0.0f;
  hr_gpu_copy_to_host_at(rb == 4 ? (void *)&f : (void *)&d, (const char *)dev + i * rb, rb,
                         "test_fields");
  return rb == 4 ? (double)f : d;
}
static void set_dev_real(const hr_field_kind_info *k, void *dev, size_t i, double v) {
  const size_t rb = (size_t)real_bytes(k);
  const double d = v;
  const float f = (float)v;
  hr_gpu_copy_to_device_at((char *)dev + i * rb, rb == 4 ? (const void *)&f : (const void *)&d,
                           rb, "test_fields");
}
#endif

/* Value of real number q (= (element * units + unit) * reals + real part) of the site with
 * global code `code`, in field number `which` of an allocation (sign). Exact in float. */
static double value_of(const hr_field_kind_info *k, long long code, int q, int which) {
  const double v = (double)(code * reals_per_site(k) + q + 1);
  return which % 2 ? -v : v;
}

/* Write the value of index ix (host layout) / compare it. */
static void fill_site(const hr_field_kind_info *k, const geometry_descriptor *g, void *host,
                      int ix, int which) {
  const int R = reals_per_site(k);
  const long long code = ft_global_code(ix);
  for (int q = 0; q < R; q++)
    set_real(k, host, (size_t)(ix - g->master_shift) * R + q, value_of(k, code, q, which));
}
static int site_ok(const hr_field_kind_info *k, const geometry_descriptor *g, const void *host,
                   int ix, int which) {
  const int R = reals_per_site(k);
  const long long code = ft_global_code(ix);
  for (int q = 0; q < R; q++)
    if (get_real(k, host, (size_t)(ix - g->master_shift) * R + q) != value_of(k, code, q, which))
      return 0;
  return 1;
}
static void fill_site_const(const hr_field_kind_info *k, const geometry_descriptor *g,
                            void *host, int ix, double v) {
  const int R = reals_per_site(k);
  for (int q = 0; q < R; q++) set_real(k, host, (size_t)(ix - g->master_shift) * R + q, v);
}

static int npieces_of(const hr_field_kind_info *k, const geometry_descriptor *g) {
  return k->layout == HR_LAYOUT_GAUGE ? g->total_gauge_master_pieces
                                      : g->total_spinor_master_pieces;
}

/* ------------------------------------------------------------------ cases */

static void test_allocation(const ft_kind *fk, const geometry_descriptor *g) {
  const hr_field_kind_info *k = fk->k;
  const int n = 3;
  void *f = fk->alloc(n, g);
  const size_t bytes = field_bytes(k, g);
  const int size = geometry_field_size(g, k->layout);
  CHECK(bytes == (size_t)size * k->nlinks * k->elem_bytes, "%s: field_bytes %zu", k->name, bytes);
  for (int i = 0; i < n; i++) {
    void *fi = fk->at(f, i);
    char *h = (char *)fk->host(fi);
    CHECK(fk->count(fi) == n && fk->geom(fi) == g, "%s: field %d: n %d", k->name, i, fk->count(fi));
    CHECK((uintptr_t)h % HR_FIELD_ALIGN == 0, "%s: field %d host copy not aligned", k->name, i);
    if (HR_GPU_ENABLED) {
      CHECK(fk->gpu(fi) != NULL && (uintptr_t)fk->gpu(fi) % HR_FIELD_ALIGN == 0,
            "%s: field %d device copy missing or not aligned", k->name, i);
      CHECK(*fk->current(fi) == (HR_COPY_HOST | HR_COPY_GPU), "%s: current %d", k->name,
            *fk->current(fi));
    } else {
      CHECK(fk->gpu(fi) == NULL && *fk->current(fi) == HR_COPY_HOST, "%s: CPU build state",
            k->name);
    }
    if (i > 0) {
      const char *prev = (const char *)fk->host(fk->at(f, i - 1));
      CHECK(h >= prev + bytes, "%s: fields %d and %d overlap", k->name, i - 1, i);
    }
    int zero = 1;
    for (size_t b = 0; b < bytes; b++) zero &= h[b] == 0;
    CHECK(zero, "%s: field %d not zeroed", k->name, i);
    /* Every stored site is writable and keeps its value. */
    for (int ix = g->master_shift; ix < g->master_shift + size; ix++) fill_site(k, g, h, ix, i);
  }
  for (int i = 0; i < n; i++) {
    int ok = 1;
    for (int ix = g->master_shift; ix < g->master_shift + size; ix++)
      ok &= site_ok(k, g, fk->host(fk->at(f, i)), ix, i);
    CHECK(ok, "%s: field %d lost values written to its sites", k->name, i);
  }
  fk->free(f);
}

/* Raw device buffer of a field (copied to the host whole) against the layout formula. */
static void check_device_layout(const hr_field_kind_info *k, const geometry_descriptor *g,
                                const void *dev_copy, int which) {
#if HR_GPU_ENABLED
  const size_t bytes = field_bytes(k, g);
  void *dev = malloc(bytes);
  CHECK(dev != NULL, "%s: no host memory for the device copy", k->name);
  if (dev == NULL) return;
  hr_gpu_copy_to_host_at(dev, dev_copy, bytes, "test_fields");
  const int units_site = k->nlinks * k->units, reals = k->unit_reals;
  const int R = reals_per_site(k);
  for (int p = 0; p < npieces_of(k, g); p++) {
    const int start = g->master_start[p], len = _PIECE_LENGTH(g, p);
    const size_t off = (size_t)(start - g->master_shift);
    int ok = 1;
    for (int s = 0; s < len && ok; s++) {
      const long long code = ft_global_code(start + s);
      for (int e = 0; e < k->nlinks; e++)
        for (int u = 0; u < k->units; u++)
          for (int r = 0; r < reals; r++) {
            const size_t unit_index = off * units_site + (size_t)(e * k->units + u) * len + s;
            const int q = (e * k->units + u) * reals + r;
            ok &= get_real(k, dev, unit_index * reals + r) == value_of(k, code, q, which);
          }
    }
    CHECK(ok, "%s: device layout of piece %d (%d sites) differs from block[c*stride+ix]",
          k->name, p, len);
    (void)R;
  }
  free(dev);
#else
  (void)k, (void)g, (void)dev_copy, (void)which;
#endif
}

static void test_device_roundtrip(const ft_kind *fk, const geometry_descriptor *g) {
  const hr_field_kind_info *k = fk->k;
  void *f = fk->alloc(2, g);
  const int size = geometry_field_size(g, k->layout);
  const int np = npieces_of(k, g);
  const int nc = geometry_ncopies(g, k->layout);
  for (int i = 0; i < 2; i++) {
    void *fi = fk->at(f, i);
    fk->host_write(fi);
    for (int ix = g->master_shift; ix < g->master_shift + size; ix++)
      fill_site(k, g, fk->host(fi), ix, i);
    fk->copy_to_gpu(fi);
    CHECK(*fk->current(fi) == (HR_GPU_ENABLED ? HR_COPY_HOST | HR_COPY_GPU : HR_COPY_HOST),
          "%s: current %d after copy_to_gpu", k->name, *fk->current(fi));
    check_device_layout(k, g, fk->gpu(fi), i);
    if (HR_GPU_ENABLED) memset(fk->host(fi), 0, field_bytes(k, g));
    fk->copy_from_gpu(fi);
  }
  for (int i = 0; i < 2; i++) {
    int ok = 1;
    for (int ix = g->master_shift; ix < g->master_shift + size; ix++)
      if (ft_in_pieces(g, np, ix) || ft_is_copy(g, nc, ix))
        ok &= site_ok(k, g, fk->host(fk->at(f, i)), ix, i);
    CHECK(ok, "%s: field %d: host -> device -> host is not the identity", k->name, i);
  }
  fk->free(f);
}

static void test_current_copy(const ft_kind *fk, const geometry_descriptor *g) {
  const hr_field_kind_info *k = fk->k;
  void *f = fk->alloc(1, g);
  const int ix = g->master_start[0];
  const size_t R = (size_t)reals_per_site(k);
  fk->host_write(f);
  CHECK(*fk->current(f) == HR_COPY_HOST, "%s: host_write leaves current %d", k->name,
        *fk->current(f));
  set_real(k, fk->host(f), (size_t)(ix - g->master_shift) * R, 7.0);
#if HR_GPU_ENABLED
  /* The first unit of site ix is at the start of piece 0's block. */
  const size_t dev_index = (size_t)(ix - g->master_shift) * k->nlinks * k->units * k->unit_reals;
  CHECK(get_dev_real(k, fk->gpu(f), dev_index) == 0.0, "%s: device copy changed early", k->name);
  fk->sync_gpu(f);
  CHECK(*fk->current(f) == (HR_COPY_HOST | HR_COPY_GPU), "%s: current %d after sync_gpu",
        k->name, *fk->current(f));
  CHECK(get_dev_real(k, fk->gpu(f), dev_index) == 7.0, "%s: host write not seen on the device",
        k->name);
  fk->gpu_write(f);
  CHECK(*fk->current(f) == HR_COPY_GPU, "%s: gpu_write leaves current %d", k->name,
        *fk->current(f));
  set_dev_real(k, fk->gpu(f), dev_index, -3.0);
  CHECK(get_real(k, fk->host(f), (size_t)(ix - g->master_shift) * R) == 7.0,
        "%s: host copy changed early", k->name);
  fk->sync_host(f);
  CHECK(get_real(k, fk->host(f), (size_t)(ix - g->master_shift) * R) == -3.0,
        "%s: device write not seen on the host after sync_host", k->name);
  CHECK(*fk->current(f) == (HR_COPY_HOST | HR_COPY_GPU), "%s: current %d after sync_host",
        k->name, *fk->current(f));
  /* sync when already current copies nothing: a raw change on the device stays invisible. */
  set_dev_real(k, fk->gpu(f), dev_index, 11.0);
  fk->sync_host(f);
  CHECK(get_real(k, fk->host(f), (size_t)(ix - g->master_shift) * R) == -3.0,
        "%s: sync_host copied although the host copy was current", k->name);
#else
  fk->sync_gpu(f);
  fk->sync_host(f);
  CHECK(get_real(k, fk->host(f), (size_t)(ix - g->master_shift) * R) == 7.0 &&
            *fk->current(f) == HR_COPY_HOST,
        "%s: CPU build: host copy must stay current", k->name);
#endif
  fk->free(f);
}

static void test_copy_zero(const ft_kind *fk, const geometry_descriptor *g) {
  const hr_field_kind_info *k = fk->k;
  void *f = fk->alloc(2, g);
  void *src = fk->at(f, 0), *dst = fk->at(f, 1);
  fk->host_write(src);
  _MASTER_FOR(g, ix) fill_site(k, g, fk->host(src), ix, 0);
  fk->gpu_write(dst); /* the destination's current copy on the device (GPU builds) */
  fk->copy(dst, src);
  fk->sync_host(dst);
  int ok = 1;
  _MASTER_FOR(g, ix) ok &= site_ok(k, g, fk->host(dst), ix, 0);
  CHECK(ok, "%s: copy_%s differs from its source", k->name, k->name);
  fk->zero(dst);
  fk->sync_host(dst);
  ok = 1;
  const size_t R = (size_t)reals_per_site(k);
  _MASTER_FOR(g, ix) {
    for (size_t q = 0; q < R; q++)
      ok &= get_real(k, fk->host(dst), (size_t)(ix - g->master_shift) * R + q) == 0.0;
  }
  CHECK(ok, "%s: zero_%s left non-zero values", k->name, k->name);
  fk->free(f);
}

/* Exchange with the host copy current (on_device = 0) or the device copy (1). */
static void test_exchange(const ft_kind *fk, const geometry_descriptor *g, int on_device) {
  const hr_field_kind_info *k = fk->k;
  void *f = fk->alloc(2, g);
  const int size = geometry_field_size(g, k->layout);
  const int np = npieces_of(k, g);
  const int nc = geometry_ncopies(g, k->layout);
  for (int i = 0; i < 2; i++) {
    void *fi = fk->at(f, i);
    fk->host_write(fi);
    for (int ix = g->master_shift; ix < g->master_shift + size; ix++)
      fill_site_const(k, g, fk->host(fi), ix, -7.0);
    _MASTER_FOR(g, ix) fill_site(k, g, fk->host(fi), ix, i);
    if (on_device) {
      fk->gpu_write(fi); /* device copy current (brought there), host stale */
      for (int ix = g->master_shift; ix < g->master_shift + size; ix++)
        fill_site_const(k, g, fk->host(fi), ix, -9.0);
    }
  }
  for (int i = 0; i < 2; i++) fk->sendrecv(fk->at(f, i));
  for (int i = 0; i < 2; i++) {
    void *fi = fk->at(f, i);
    if (on_device)
      CHECK(*fk->current(fi) == HR_COPY_GPU, "%s: device exchange leaves current %d", k->name,
            *fk->current(fi));
    fk->sync_host(fi);
    int ok = 1, bad = -1;
    for (int ix = g->master_shift; ix < g->master_shift + size; ix++)
      if (ft_in_pieces(g, np, ix) || ft_is_copy(g, nc, ix))
        if (!site_ok(k, g, fk->host(fi), ix, i)) ok = 0, bad = ix;
    CHECK(ok, "%s: %s exchange: index %d does not hold the value of its global site", k->name,
          on_device ? "device" : "host", bad);
  }
  fk->free(f);
}

int main(int argc, char **argv) {
  int np[4];
  ft_start(&argc, &argv, np);
  char name[256], cname[512];
  for (int l = 0; l < FT_NLATTICES; l++)
    for (int force = 0; force <= 15; force += 15) {
      if (!ft_setup(ft_lattices[l], np, force, name, sizeof name)) continue;
      for (int gi = 0; gi < 3; gi++) {
        const geometry_descriptor *g = ft_geometries[gi];
        const char *gn = ft_geometry_names[gi];
        for (int kk = 0; kk < NKINDS; kk++) test_allocation(&kinds[kk], g);
        snprintf(cname, sizeof cname, "allocation of every kind, %s, %s", gn, name);
        tc_case_end(cname);
        for (int kk = 0; kk < NKINDS; kk++) test_device_roundtrip(&kinds[kk], g);
        snprintf(cname, sizeof cname, "device layout and round trip, %s, %s", gn, name);
        tc_case_end(cname);
        for (int kk = 0; kk < NKINDS; kk++) test_current_copy(&kinds[kk], g);
        snprintf(cname, sizeof cname, "current-copy tracking, %s, %s", gn, name);
        tc_case_end(cname);
        for (int kk = 0; kk < NKINDS; kk++) test_copy_zero(&kinds[kk], g);
        snprintf(cname, sizeof cname, "copy and zero, %s, %s", gn, name);
        tc_case_end(cname);
        for (int kk = 0; kk < NKINDS; kk++) test_exchange(&kinds[kk], g, 0);
        snprintf(cname, sizeof cname, "host halo exchange, %s, %s", gn, name);
        tc_case_end(cname);
        if (HR_GPU_ENABLED) {
          for (int kk = 0; kk < NKINDS; kk++) test_exchange(&kinds[kk], g, 1);
          snprintf(cname, sizeof cname, "device halo exchange, %s, %s", gn, name);
          tc_case_end(cname);
        }
      }
    }
  return ft_finish("test_fields");
}
