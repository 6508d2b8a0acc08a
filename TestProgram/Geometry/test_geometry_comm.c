/* test_geometry_comm.c -- halo exchange, loop macros and global reductions on the process
 * grid given on the command line (run under mpirun by run_grid.sh), for two lattices, with
 * and without a halo forced in every direction:
 *   after an exchange every halo and copy site of glattice / glat_even / glat_odd holds the
 *   value of the site whose global coordinates it stands for (spinor-like fields of 1 and 24
 *   doubles per site, link fields of 4x2 doubles encoding the direction too), nothing
 *   outside the exchanged ranges is written; several exchanges may be in flight at once;
 *   a hopping sum computed inner-while-in-flight / boundary-after equals its analytic value
 *   (full and even/odd); the four diagonal edge links x+-mu+-nu reached through iup / idn
 *   carry the right values; reductions (double, complex, max, int, broadcast) over the
 *   master sites equal the analytic sums; serial and OpenMP macros agree. */
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "geo_test.h"
#include "halo_exchange.h"

static const double PI = 3.14159265358979323846;

/* Test fields, shaped like the real ones: `ptr` to the site type, `type` the geometry. */
typedef struct { double c[24]; } spinor_like;
typedef struct { double c[2]; } link_like;
typedef struct { double *ptr; const geometry_descriptor *type; } scalar_field;
typedef struct { spinor_like *ptr; const geometry_descriptor *type; } spinor_field_t;
typedef struct { link_like *ptr; const geometry_descriptor *type; } link_field_t;

/* Value of component c of site ix (link mu, or -1 for site fields). */
static double site_value(int ix, int mu, int c) {
  int g[4];
  global_coordinates(g, ix);
  return geo_code(g) * 256. + (mu + 1) * 32. + c;
}

static const double SENTINEL = -12345.;
/* Sites beyond the field that must stay untouched. */
#define GUARD_SITES 16

/* Indices an exchange of g with layout must write or leave valid (1), others (0). */
static int *valid_after_exchange(const geometry_descriptor *g, hr_layout layout) {
  int total = geometry_total_sites();
  int *v = calloc((size_t)total, sizeof(int));
  int npieces = layout == HR_LAYOUT_GAUGE ? g->total_gauge_master_pieces : g->total_spinor_master_pieces;
  for (int p = 0; p < npieces; p++)
    for (int ix = g->master_start[p]; ix <= g->master_end[p]; ix++) v[ix] = 1;
  for (int c = 0; c < geometry_ncopies(g, layout); c++)
    for (int j = 0; j < g->copy_len[c]; j++) v[g->copy_to[c] + j] = 1;
  return v;
}

/* Exchange a field of `dpl` doubles per site (gauge layout: 4 links of dpl/4) on g and check
 * every site of the field. `concurrent` starts a second exchange on another field first. */
static void exchange_and_check(const geometry_descriptor *g, hr_layout layout, int dpl,
                               int concurrent) {
  int size = geometry_field_size(g, layout);
  size_t n = (size_t)(size + GUARD_SITES) * (size_t)dpl;
  double *f = malloc(n * sizeof(double)), *f2 = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; i++) f[i] = f2[i] = SENTINEL;
  int links = layout == HR_LAYOUT_GAUGE;
  int per_link = links ? dpl / 4 : dpl;
  _OMP_MASTER_FOR(g, ix) {
    double *s = f + (size_t)(ix - g->master_shift) * dpl;
    double *s2 = f2 + (size_t)(ix - g->master_shift) * dpl;
    for (int i = 0; i < dpl; i++) {
      s[i] = site_value(ix, links ? i / per_link : -1, i % per_link);
      s2[i] = -s[i];
    }
  }
  hr_comm_request *r2 = concurrent ? start_sendrecv_field(g, layout, f2, (size_t)dpl * sizeof(double)) : NULL;
  hr_comm_request *r = start_sendrecv_field(g, layout, f, (size_t)dpl * sizeof(double));
  complete_sendrecv(r);
  complete_sendrecv(r2);
  int *valid = valid_after_exchange(g, layout);
  for (int k = 0; k < size + GUARD_SITES; k++) {
    int ix = k + g->master_shift;
    int ok = 1, ok2 = 1;
    for (int i = 0; i < dpl; i++) {
      double want = (k < size && valid[ix]) ? site_value(ix, links ? i / per_link : -1, i % per_link) : SENTINEL;
      ok &= f[(size_t)k * dpl + i] == want;
      ok2 &= f2[(size_t)k * dpl + i] == (want == SENTINEL ? SENTINEL : -want);
    }
    CHECK(ok, "layout %d parity %d: index %d (%s) holds %g", (int)layout, g->parity, ix,
          k >= size ? "guard" : valid[ix] ? "exchanged" : "untouched", f[(size_t)k * dpl]);
    if (concurrent) CHECK(ok2, "concurrent exchange: index %d holds %g", ix, f2[(size_t)k * dpl]);
  }
  free(valid);
  free(f);
  free(f2);
}

/* f(g) = sum_mu a_mu cos(k_mu g_mu), k_mu = 2 pi / GLB_mu. */
static double wave(const int g[4]) {
  double s = 0;
  for (int mu = 0; mu < 4; mu++) s += (mu + 1) * cos(2 * PI * g[mu] / GLB_SIZE[mu]);
  return s;
}
/* sum_mu [f(x+mu) + f(x-mu)] = sum_nu a_nu cos(k_nu g_nu) (2 cos k_nu + 6). */
static double hopping_exact(const int g[4]) {
  double s = 0;
  for (int nu = 0; nu < 4; nu++) {
    double k = 2 * PI / GLB_SIZE[nu];
    s += (nu + 1) * cos(k * g[nu]) * (2 * cos(k) + 6);
  }
  return s;
}

/* Hopping sum out(x) = sum_mu in(x+mu) + in(x-mu) on the sites of `out_g`, reading `in` of
 * geometry in_g: inner pieces while the halo is in flight, boundary pieces after. */
static void check_hopping(const geometry_descriptor *out_g, const geometry_descriptor *in_g) {
  scalar_field in = {calloc((size_t)in_g->gsize_spinor, sizeof(double)), in_g};
  scalar_field out = {calloc((size_t)out_g->gsize_spinor, sizeof(double)), out_g};
  _OMP_MASTER_FOR(in_g, ix) {
    int g[4];
    global_coordinates(g, ix);
    *_FIELD_AT(&in, ix) = wave(g);
  }
  hr_comm_request *r = start_sendrecv_site_field(in_g, in.ptr, 1);
  _OMP_INNER_FOR(out_g, ix) {
    double s = 0;
    for (int mu = 0; mu < 4; mu++) s += *_FIELD_AT(&in, iup(ix, mu)) + *_FIELD_AT(&in, idn(ix, mu));
    *_FIELD_AT(&out, ix) = s;
  }
  complete_sendrecv(r);
  _OMP_BOUNDARY_FOR(out_g, ix) {
    double s = 0;
    for (int mu = 0; mu < 4; mu++) s += *_FIELD_AT(&in, iup(ix, mu)) + *_FIELD_AT(&in, idn(ix, mu));
    *_FIELD_AT(&out, ix) = s;
  }
  double maxdev = 0;
  _MASTER_FOR(out_g, ix) {
    int g[4];
    global_coordinates(g, ix);
    double dev = fabs(*_FIELD_AT(&out, ix) - hopping_exact(g));
    if (dev > maxdev) maxdev = dev;
  }
  global_max(&maxdev, 1);
  CHECK(maxdev < 1e-12, "hopping sum on parity %d deviates by %g", out_g->parity, maxdev);
  free(in.ptr);
  free(out.ptr);
}

/* Links at the four diagonal neighbours x +- mu +- nu of every master site. */
static void check_edges(void) {
  link_field_t u = {malloc((size_t)glattice.gsize_gauge * 4 * sizeof(link_like)), &glattice};
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++)
      for (int c = 0; c < 2; c++) _4FIELD_AT(&u, ix, mu)->c[c] = site_value(ix, mu, c);
  }
  sendrecv_link_field(&glattice, (double *)u.ptr, 2);
  long bad = 0, seen = 0;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    for (int mu = 0; mu < 4; mu++)
      for (int nu = 0; nu < 4; nu++) {
        if (nu == mu) continue;
        for (int s1 = -1; s1 <= 1; s1 += 2)
          for (int s2 = -1; s2 <= 1; s2 += 2) {
            int a = s1 > 0 ? iup(ix, mu) : idn(ix, mu);
            int b = s2 > 0 ? iup(a, nu) : idn(a, nu);
            int h[4] = {g[0], g[1], g[2], g[3]};
            h[mu] = (h[mu] + s1 + GLB_SIZE[mu]) % GLB_SIZE[mu];
            h[nu] = (h[nu] + s2 + GLB_SIZE[nu]) % GLB_SIZE[nu];
            seen++;
            if (b < 0) { bad++; continue; }
            for (int rho = 0; rho < 4; rho++)
              for (int c = 0; c < 2; c++)
                if (_4FIELD_AT(&u, b, rho)->c[c] != geo_code(h) * 256. + (rho + 1) * 32. + c) bad++;
          }
      }
  }
  CHECK(bad == 0, "%ld wrong diagonal links out of %ld sites", bad, seen);
  free(u.ptr);
}

/* Reductions over master sites against analytic sums; serial and parallel macros. */
static void check_reductions(void) {
  double V = (double)GLB_VOLUME;
  double s = 0;
  _OMP_MASTER_FOR_SUM(&glattice, ix, s) {
    int g[4];
    global_coordinates(g, ix);
    s += geo_code(g);
  }
  double s_serial = 0;
  _PIECE_FOR(&glattice, ixp) {
    _SITE_FOR(&glattice, ixp, ix) {
      int g[4];
      global_coordinates(g, ix);
      s_serial += geo_code(g);
    }
  }
  CHECK(fabs(s - s_serial) <= 1e-9 * fabs(s_serial), "OpenMP sum %.17g, serial %.17g", s, s_serial);
  global_sum(&s, 1);
  CHECK(s == V * (V - 1) / 2, "global sum of codes %.17g, expected %.17g", s, V * (V - 1) / 2);

  hr_complex z = 0;
  _OMP_MASTER_FOR_SUM_COMPLEX(&glattice, ix, z) {
    int g[4];
    global_coordinates(g, ix);
    z += hr_cmplx(g[0], (double)g[3] * g[3]);
  }
  global_sum((double *)&z, 2);
  double GT = GLB_T, GZ = GLB_Z;
  double re = V * (GT - 1) / 2, im = V / GZ * (GZ - 1) * GZ * (2 * GZ - 1) / 6;
  CHECK(hr_creal(z) == re && hr_cimag(z) == im, "complex sum %g%+gi, expected %g%+gi", hr_creal(z), hr_cimag(z), re, im);

  for (int par = 0; par < 2; par++) {
    const geometry_descriptor *g = geometry_of_parity(par);
    double count = 0, wrong = 0;
    _OMP_MASTER_FOR_SUM(g, ix, count) { count += 1; }
    _OMP_PIECE_RANGE_FOR_SUM(g, 0, g->local_master_pieces, ix, wrong) { wrong += site_parity(ix) != par; }
    int icount = 0;
    _INNER_FOR(g, ix) { icount++; }
    _BOUNDARY_FOR(g, ix) { icount++; }
    global_sum(&count, 1);
    global_sum(&wrong, 1);
    global_sum_int(&icount, 1);
    CHECK(count == V / 2 && icount == V / 2 && wrong == 0, "parity %d: %g sites (%d), %g of the wrong parity", par, count, icount, wrong);
  }

  /* Slow bodies, so that threads overlap and a lost update would show; every site is
   * visited once, and with several threads more than one thread works. */
  double slow = 0;
  hr_complex zslow = 0;
  int worked[64] = {0};
  _OMP_MASTER_FOR_SUM(&glattice, ix, slow) {
    for (volatile int w = 0; w < 2000; w++) continue;
    slow += 1;
#ifdef _OPENMP
    worked[omp_get_thread_num() % 64] = 1;
#endif
  }
  _OMP_MASTER_FOR_SUM_COMPLEX(&glattice, ix, zslow) {
    for (volatile int w = 0; w < 2000; w++) continue;
    zslow += hr_cmplx(1, -2);
  }
  int nworked = 0;
  for (int t = 0; t < 64; t++) nworked += worked[t];
  CHECK(slow == VOLUME, "slow sum %g, volume %d", slow, VOLUME);
  CHECK(hr_creal(zslow) == VOLUME && hr_cimag(zslow) == -2. * VOLUME, "slow complex sum %g%+gi", hr_creal(zslow), hr_cimag(zslow));
#ifdef _OPENMP
  CHECK(omp_get_max_threads() == 1 || nworked > 1, "%d of %d threads worked", nworked, omp_get_max_threads());
#else
  CHECK(nworked == 0, "threads recorded without OpenMP");
#endif

  double mx = -1;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    if (geo_code(g) > mx) mx = geo_code(g);
  }
  global_max(&mx, 1);
  CHECK(mx == V - 1, "global max %g", mx);
  double mn = -mx;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    if (-geo_code(g) > mn) mn = -geo_code(g);
  }
  mn = -mn;
  global_min(&mn, 1);
  CHECK(mn == 0, "global min %g", mn);
  long long vol = VOLUME;
  global_sum_long(&vol, 1);
  CHECK(vol == GLB_VOLUME, "sum of local volumes %lld", vol);
  int mxr = hr_rank();
  global_max_int(&mxr, 1);
  CHECK(mxr == hr_nranks() - 1, "max rank %d", mxr);
  double b[2] = {hr_rank() == 0 ? 3.25 : -1, hr_rank() == 0 ? -7.5 : 0};
  int bi = hr_rank() == 0 ? 42 : hr_rank();
  bcast(b, 2);
  bcast_int(&bi, 1);
  CHECK(b[0] == 3.25 && b[1] == -7.5 && bi == 42, "broadcast gave %g %g %d", b[0], b[1], bi);
  global_barrier();
}

int main(int argc, char **argv) {
  int np[4];
  geo_test_start(&argc, &argv, np);
  const int pb[4] = {2, 2, 2, 2};
  for (int lat = 0; lat < GEO_NLATTICES; lat++)
    for (int force = 0; force <= 15; force += 15) {
      char name[256];
      if (!geo_setup(geo_lattices[lat], np, pb, force, name, sizeof name)) continue;
      for (int par = 0; par < 3; par++) {
        const geometry_descriptor *g = geometry_of_parity(par == 2 ? HR_PARITY_BOTH : par);
        exchange_and_check(g, HR_LAYOUT_SPINOR, 1, 0);
        exchange_and_check(g, HR_LAYOUT_SPINOR, 24, par == 2);
        exchange_and_check(g, HR_LAYOUT_GAUGE, 8, par == 0);
      }
      check_hopping(&glattice, &glattice);
      check_hopping(&glat_even, &glat_odd);
      check_hopping(&glat_odd, &glat_even);
      check_edges();
      check_reductions();
      char full[300];
      snprintf(full, sizeof full, "exchange and reductions: %s", name);
      tc_case_end(full);
    }
  return geo_test_finish("test_geometry_comm");
}
