/* momentum.c -- Measure/momentum: momentum-space measurements on stored configurations.
 * Usage: momentum -i input_file [-o logfile] CONFIG... For each configuration (any format
 * archive.h recognises) it prints (every number with 15 significant digits or more)
 *   conf=<file> polyakov r2=<r^2> C=<Re C>        the Polyakov-loop correlator (unfixed links)
 *   conf=<file> gaugefix iterations=<n> theta=<value> functional=<value>   (gf:type != none)
 *   conf=<file> gluon p2=<p^2> D=<value>           (gf:type = landau)
 *   conf=<file> quark n=<t,x,y,z> p2=<p^2> B=<re,im> V0=<re,im> ... V3=<re,im>
 *                                                  (quark:mass given)
 * and saves the fixed configuration when gf:save is given. Keys (Doc/momentum_space.md):
 * lattice (GLB_*), grid (NP_*), boundary conditions (bc_*, theta_*), gf:type, gf:tolerance,
 * gf:maxiter, gf:fourier, gf:method, gf:alpha, gf:omega, gf:save, gluon:cylinder,
 * quark:mass, quark:csw, quark:precision, quark:maxiter, quark:momenta. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive.h"
#include "boundary_conditions.h"
#include "communications.h"
#include "dirac.h"
#include "fourier.h"
#include "gamma.h"
#include "gauge_fixing.h"
#include "geometry.h"
#include "gpu.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "inverters.h"
#include "logger.h"
#include "propagator.h"

#define PI 3.14159265358979323846

typedef struct {
  gauge_fixing_params gf;
  char save[INPUT_STRING_MAX];
  double cylinder;
  int quark; /* quark propagator requested (quark:mass given) */
  double m0, csw, precision;
  int maxiter, nmom;
} momentum_input;

static void read_momentum_input(input_file *in, momentum_input *m) {
  int type, method;
  gauge_fixing_params_default(&m->gf);
  m->save[0] = '\0';
  const input_key keys[] = {
      {"gf:type", INPUT_CHOICE, &type, "landau", "none|landau|coulomb", "gauge to fix"},
      {"gf:tolerance", INPUT_DOUBLE, &m->gf.tolerance, "1e-12", ">0 <1",
       "stop when theta = (1/(N V)) sum tr[Delta Delta^+] is below this"},
      {"gf:maxiter", INPUT_INT, &m->gf.maxiter, "20000", ">=1", "iteration limit"},
      {"gf:fourier", INPUT_BOOL, &m->gf.fourier, "true", NULL,
       "Fourier acceleration of the steepest ascent"},
      {"gf:method", INPUT_CHOICE, &method, "steepest", "steepest|overrelax",
       "steepest ascent or over-relaxation"},
      {"gf:alpha", INPUT_DOUBLE, &m->gf.alpha, "0.08", ">0 <1", "steepest-ascent step"},
      {"gf:omega", INPUT_DOUBLE, &m->gf.omega, "1.7", ">=1 <2", "over-relaxation parameter"},
      {"gf:print every", INPUT_INT, &m->gf.print_every, "1", ">=0",
       "log theta and F (topic GAUGEFIX, level 10) every this many iterations (0: never)"},
      {"gf:save", INPUT_STRING, m->save, "", NULL,
       "path of the fixed configuration (HiRep format; several CONFIGs: _<n> appended)"},
      {"gluon:cylinder", INPUT_DOUBLE, &m->cylinder, "-1", NULL,
       "cylinder cut radius in units of 2 pi / L (negative: all momenta)"},
      {"quark:csw", INPUT_DOUBLE, &m->csw, "0", NULL, "clover coefficient"},
      {"quark:precision", INPUT_DOUBLE, &m->precision, "1e-12", ">0 <1",
       "relative residual of every solve"},
      {"quark:maxiter", INPUT_INT, &m->maxiter, "20000", ">=1", "iteration limit of a solve"},
      {"quark:momenta", INPUT_INT, &m->nmom, "4", ">=1",
       "momenta n = (k,k,k,k), k = 0 .. quark:momenta-1"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  m->quark = input_has_key(in, NULL, "quark:mass");
  input_declare_key(in, NULL, "quark:mass");
  if (m->quark) {
    const input_key mk[] = {{"quark:mass", INPUT_DOUBLE, &m->m0, NULL, NULL, "bare mass m0"},
                            INPUT_KEYS_END};
    input_read(in, NULL, mk);
  }
  m->gf.kind = (hr_gauge_kind)type;
  m->gf.method = method == 1 ? HR_GF_OVERRELAX : HR_GF_STEEPEST;
  if (m->gf.kind != HR_GF_NONE && m->gf.fourier && m->gf.method == HR_GF_STEEPEST &&
      !fft_available())
    input_fail(in, NULL, "gf:fourier", "this build has no FFTW: set gf:fourier = false or "
               "install libfftw3-dev and reconfigure");
  if (m->save[0] != '\0' && m->gf.kind == HR_GF_NONE)
    input_fail(in, NULL, "gf:save", "nothing to save with gf:type = none");
}

/* The file of gf:save for configuration `index` of `nconf`: the name itself for one
 * configuration, "<name>_<index+1>" for several. */
static void save_path(char *path, size_t len, const char *save, int index, int nconf) {
  if (nconf == 1)
    snprintf(path, len, "%s", save);
  else
    snprintf(path, len, "%s_%d", save, index + 1);
}

/* The momentum-space quark propagator S(p) = sum_x exp(-i p.x) S(x, 0) (Landau gauge when
 * fixed) at n = (k,k,k,k): B = tr S / (4 NF), V_mu = tr[gamma_mu S] / (4 NF). */
static void quark_propagator(const char *conf, const momentum_input *m, const suNg_field *u,
                             const dirac_bc *bc) {
  const int nc = 4 * NF;
  spinor_field *prop = alloc_spinor_field(nc, &glattice);
  const int origin[4] = {0, 0, 0, 0};
  hr_solver_params sp;
  solver_params_default(&sp);
  sp.tol = m->precision;
  sp.max_iter = m->maxiter;
  const dirac_op D = dirac_op_make(u, m->m0, m->csw, bc);
  const hr_solver_status s = propagator_point(prop, &D, origin, 1, &sp, NULL);
  if (s != HR_SOLVER_CONVERGED)
    hr_fatal(HR_EXIT_NUMERICS, "momentum: %s: the quark propagator did not converge (%s); "
             "raise quark:maxiter or check quark:mass", conf, solver_status_name(s));
  double twist[4];
  for (int mu = 0; mu < 4; mu++)
    twist[mu] = (bc->kind[mu] == HR_BC_ANTIPERIODIC ? PI : 0) + PI * bc->theta[mu];
  /* plain[k] = column k (source spin b, colour c: k = b NF + c) in momentum space */
  hr_complex *cols = malloc(sizeof(hr_complex) * (size_t)VOLUME * nc * nc);
  hr_complex *p = fft_alloc(nc);
  for (int k = 0; k < nc; k++) {
    fft_pack_spinor_field(p, &prop[k]);
    fft_plain_twisted(p, nc, HR_FFT_ALL, HR_FFT_FORWARD, twist);
    for (long i = 0; i < (long)VOLUME; i++)
      for (int r = 0; r < nc; r++) cols[((size_t)i * nc + r) * nc + k] = p[(size_t)i * nc + r];
  }
  hr_complex gm[4][16];
  for (int mu = 0; mu < 4; mu++) hr_gamma_matrix(gm[mu], mu);
  for (int kk = 0; kk < m->nmom; kk++) {
    int n[4], x[4], local = 1;
    double out[10] = {0}, p2 = 0;
    for (int mu = 0; mu < 4; mu++) {
      n[mu] = kk % GLB_SIZE[mu];
      x[mu] = n[mu] - ZERO_COORD[mu];
      local &= x[mu] >= 0 && x[mu] < LOC_SIZE[mu];
      const double pm = (2 * PI * n[mu] + twist[mu]) / GLB_SIZE[mu];
      p2 += 4 * sin(pm / 2) * sin(pm / 2);
    }
    if (local) {
      const hr_complex *S = cols + (size_t)fft_local_index(x) * nc * nc;
      hr_complex b = 0, v[4] = {0, 0, 0, 0};
      for (int a = 0; a < 4; a++)
        for (int c = 0; c < NF; c++) {
          b += S[(a * NF + c) * nc + a * NF + c];
          for (int mu = 0; mu < 4; mu++)
            for (int e = 0; e < 4; e++) v[mu] += gm[mu][e * 4 + a] * S[(a * NF + c) * nc + e * NF + c];
        }
      out[0] = hr_creal(b) / nc;
      out[1] = hr_cimag(b) / nc;
      for (int mu = 0; mu < 4; mu++) {
        out[2 + 2 * mu] = hr_creal(v[mu]) / nc;
        out[3 + 2 * mu] = hr_cimag(v[mu]) / nc;
      }
    }
    global_sum(out, 10); /* one process holds the momentum, the others add zeros */
    lprintf("MAIN", 0, "conf=%s quark n=%d,%d,%d,%d p2=%.16e B=%.16e,%.16e V0=%.16e,%.16e "
            "V1=%.16e,%.16e V2=%.16e,%.16e V3=%.16e,%.16e\n", conf, n[0], n[1], n[2], n[3], p2,
            out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8], out[9]);
  }
  fft_free(p);
  free(cols);
  free_spinor_field(prop);
}

static void measure_configuration(const char *conf, int index, int nconf,
                                  const momentum_input *m, const dirac_bc *bc, suNg_field *u) {
  char err[1024];
  if (archive_read_checked(u, conf, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err) != 0)
    hr_fatal(HR_EXIT_IO, "momentum: %s", err);
  double *c;
  int *r2, nb;
  polyakov_correlator(&c, &r2, &nb, u);
  for (int b = 0; b < nb; b++)
    lprintf("MAIN", 0, "conf=%s polyakov r2=%d C=%.16e\n", conf, r2[b], c[b]);
  free(c);
  free(r2);
  if (m->gf.kind != HR_GF_NONE) {
    const gauge_fixing_result r = gauge_fix(u, &m->gf);
    lprintf("MAIN", 0, "conf=%s gaugefix iterations=%d theta=%.16e functional=%.16e\n", conf,
            r.iterations, r.theta, r.functional);
    if (!r.converged)
      hr_fatal(HR_EXIT_NUMERICS, "momentum: %s: %s gauge fixing did not reach theta < %.3g in "
               "%d iterations (theta = %.3e): raise gf:maxiter", conf,
               gauge_kind_name(m->gf.kind), m->gf.tolerance, m->gf.maxiter, r.theta);
    if (m->save[0] != '\0') {
      char path[INPUT_STRING_MAX + 32];
      save_path(path, sizeof path, m->save, index, nconf);
      if (archive_write_checked(path, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_AUTO, u, err, sizeof err) != 0)
        hr_fatal(HR_EXIT_IO, "momentum: %s", err);
      lprintf("MAIN", 0, "conf=%s saved the fixed configuration as %s\n", conf, path);
    }
  }
  if (m->gf.kind == HR_GF_LANDAU) {
    double *d, *p2;
    gluon_propagator(&d, &p2, &nb, u, m->cylinder);
    for (int b = 0; b < nb; b++)
      lprintf("MAIN", 0, "conf=%s gluon p2=%.16e D=%.16e\n", conf, p2[b], d[b]);
    free(d);
    free(p2);
  }
  if (m->quark) quark_propagator(conf, m, u, bc);
}

/* Before any work: the folder of gf:save must be writable and no file it names may exist
 * (saved files are never overwritten). */
static void check_save_targets(const input_file *in, const char *save, int nconf) {
  char dir[INPUT_STRING_MAX], err[1024];
  hr_parent_dir(dir, sizeof dir, save);
  if (hr_check_output_dir(dir, err, sizeof err) != 0)
    input_fail(in, NULL, "gf:save", "%s: choose a folder where files can be written", err);
  for (int i = 0; i < nconf; i++) {
    char path[INPUT_STRING_MAX + 32];
    save_path(path, sizeof path, save, i, nconf);
    if (access(path, F_OK) == 0)
      input_fail(in, NULL, "gf:save", "%s exists: saved files are not overwritten; remove it or "
                 "choose another gf:save", path);
  }
}

int main(int argc, char **argv) {
  int nconf = 0;
  char **confs = NULL;
  input_file *in = hr_setup_with_names(argc, argv, NULL, &nconf, &confs);
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  if (!fft_available())
    hr_fatal(HR_EXIT_SETUP, "momentum: this build of LibHR has no FFTW, which every measurement "
             "of this program needs: install libfftw3-dev (bash Make/deps.sh) and reconfigure");
  geometry_params gp;
  geometry_read_input(&gp, in);
  dirac_bc bc;
  dirac_bc_read_input(&bc, in);
  momentum_input m;
  read_momentum_input(in, &m);
  if (m.quark && dirac_bc_open_t(&bc))
    input_fail(in, NULL, "bc_t", "the quark propagator has its point source at the origin, "
               "t = 0, an outer time slice of open boundaries, where the quark fields vanish "
               "(Doc/dirac.md): use bc_t = antiperiodic or periodic (the zero links U_0(T-1) of "
               "an open-boundary configuration still cut the time direction)");
  input_finish(in);
  if (nconf == 0)
    hr_fatal(HR_EXIT_INPUT, "momentum: no configuration given\nusage: momentum -i INPUT_FILE "
             "[-o LOG_FILE] CONFIG...");
  for (int i = 0; i < nconf; i++) {
    hr_archive_info info;
    char err[1024];
    if (archive_probe(&info, confs[i], err, sizeof err) != 0)
      hr_fatal(HR_EXIT_IO, "momentum: configuration %d of %d: %s", i + 1, nconf, err);
  }
  if (m.save[0] != '\0') check_save_targets(in, m.save, nconf);
  geometry_init(&gp);
  lprintf("MAIN", 0, "momentum: SU(%d), lattice %dx%dx%dx%d, gauge %s (%s%s, tolerance %.3g)\n",
          NG, GLB_T, GLB_X, GLB_Y, GLB_Z, gauge_kind_name(m.gf.kind),
          m.gf.method == HR_GF_OVERRELAX ? "over-relaxation" : "steepest ascent",
          m.gf.method == HR_GF_STEEPEST && m.gf.fourier ? ", Fourier accelerated" : "",
          m.gf.tolerance);
  suNg_field *u = alloc_gfield(&glattice);
  for (int i = 0; i < nconf; i++) measure_configuration(confs[i], i, nconf, &m, &bc, u);
  free_gfield(u);
  dirac_finalize();
  hr_finalize();
  return 0;
}
