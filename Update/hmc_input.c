/* hmc_input.c -- the HMC part of an input file (hmc.h, Doc/hmc.md): the top-level `tlen`,
 * the `monomial { type = gauge | hmc | hasenbusch | rhmc ... }` blocks (built by the constructors of
 * hmc_monomials.c) and the `integrator { level = .. type = lf|omf2|omf4 steps = .. }` blocks,
 * checked before any work with file:line: key messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmc.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#include "rhmc_monomial.h"

/* Stop with "file: block n: what" (input error). */
#define HMC_INPUT_FAIL(in, ...)                                                                \
  do {                                                                                         \
    char msg_[512];                                                                            \
    snprintf(msg_, sizeof msg_, __VA_ARGS__);                                                  \
    hr_fatal(HR_EXIT_INPUT, "%s: %s", input_filename(in), msg_);                               \
  } while (0)

/* Read one block with `keys` or stop with the reader's message. */
static void read_block(input_file *in, const char *block, int index, const input_key *keys) {
  char err[1024];
  if (input_read_block_keys(in, block, index, keys, err, sizeof err) != 0)
    hr_fatal(HR_EXIT_INPUT, "%s", err);
}

/* The specification of an rhmc monomial (block `index`). */
static hmc_monomial_spec read_rhmc(input_file *in, int index) {
  hmc_monomial_spec sp;
  memset(&sp, 0, sizeof sp);
  int type = 3;
  char range[INPUT_STRING_MAX] = "";
  const input_key keys[] = {
      {"type", INPUT_CHOICE, &type, NULL, "gauge|hmc|hasenbusch|rhmc", "kind of monomial"},
      {"nf", INPUT_INT, &sp.nf, NULL, ">=1", "flavours: 1, 2 or 3"},
      {"mass", INPUT_DOUBLE, &sp.mass, NULL, NULL, "bare mass m0"},
      {"level", INPUT_INT, &sp.level, NULL, ">=0", "integrator level (0: outermost)"},
      {"range", INPUT_STRING, range, NULL, NULL,
       "lmin lmax: spectral range of Q^2 of the rational approximations"},
      {"degree", INPUT_INT, &sp.degree, "0", ">=0 <=64",
       "degree of the approximation of x^(-nf/2) (0: the smallest meeting precision)"},
      {"precision", INPUT_DOUBLE, &sp.precision, "0", ">=0 <1",
       "maximal relative error of the approximation (0: 1e-10 without degree, no check with)"},
      {"mt_prec", INPUT_DOUBLE, &sp.mt_prec, "1e-14", ">0 <1",
       "relative residual of the solves of the heatbath and the action"},
      {"force_prec", INPUT_DOUBLE, &sp.force_prec, "1e-10", ">0 <1",
       "relative residual of the solves of the force"},
      {"meas freq", INPUT_INT, &sp.meas_freq, "1", ">=0",
       "spectral range of Q^2 checked every n trajectories (0: at the start only)"},
      {"strict", INPUT_BOOL, &sp.strict, "false", NULL,
       "stop the run when the spectrum leaves the range"},
      {"cache", INPUT_STRING, sp.cache, "", NULL,
       "cache file of the rational approximations (empty: $HR_RATIONAL_CACHE or "
       "rational_approx.cache)"},
      INPUT_KEYS_END};
  read_block(in, "monomial", index, keys);
  sp.type = 3;
  char *end = NULL;
  sp.lmin = strtod(range, &end);
  const char *rest = end;
  sp.lmax = strtod(rest, &end);
  while (end != NULL && (*end == ' ' || *end == '\t')) end++;
  if (end == rest || rest == range || end == NULL || *end != '\0' || !(sp.lmin > 0) ||
      !(sp.lmax > sp.lmin))
    input_fail_block(in, "monomial", index, "range",
                     "'%s': give two numbers 0 < lmin < lmax (the spectral range of Q^2)", range);
  if (sp.nf > 3)
    input_fail_block(in, "monomial", index, "nf",
                     "nf = %d: one rhmc monomial takes nf = 1, 2 or 3 (powers of Q^2 with a "
                     "partial-fraction form); stack several monomials (e.g. 5 = 2 + 3)",
                     sp.nf);
  if (sp.degree == 0 && sp.precision == 0) sp.precision = 1e-10;
  return sp;
}

/* The specification of the monomial of block `index`. */
static hmc_monomial_spec read_monomial(input_file *in, int index) {
  hmc_monomial_spec sp;
  memset(&sp, 0, sizeof sp);
  int type = 0, level = 0;
  const input_key type_key[] = {
      {"type", INPUT_CHOICE, &type, NULL, "gauge|hmc|hasenbusch|rhmc", "kind of monomial"},
      INPUT_KEYS_END};
  read_block(in, "monomial", index, type_key);
  if (type == 0) {
    double beta = 0, c1 = 0;
    const input_key keys[] = {
        {"type", INPUT_CHOICE, &type, NULL, "gauge|hmc|hasenbusch|rhmc", "kind of monomial"},
        {"beta", INPUT_DOUBLE, &beta, NULL, ">=0", "gauge coupling beta"},
        {"c1", INPUT_DOUBLE, &c1, "0", NULL,
         "rectangle coefficient: 0 Wilson, -0.083333 tree-level Symanzik, -0.331 Iwasaki"},
        {"level", INPUT_INT, &level, NULL, ">=0", "integrator level (0: outermost)"},
        INPUT_KEYS_END};
    read_block(in, "monomial", index, keys);
    sp.type = 0;
    sp.level = level;
    sp.beta = beta;
    sp.c1 = c1;
    return sp;
  }
  if (type == 3) return read_rhmc(in, index);
  double mass = 0, dm = 0, mt_prec = 0, force_prec = 0;
  int chrono = 0;
  const input_key keys[] = {
      {"type", INPUT_CHOICE, &type, NULL, "gauge|hmc|hasenbusch|rhmc", "kind of monomial"},
      {"mass", INPUT_DOUBLE, &mass, NULL, NULL, "bare mass m0"},
      {"dm", INPUT_DOUBLE, &dm, type == 2 ? NULL : "0", type == 2 ? ">0" : NULL,
       "hasenbusch: mass shift of the heavier operator (m0 + dm)"},
      {"level", INPUT_INT, &level, NULL, ">=0", "integrator level (0: outermost)"},
      {"mt_prec", INPUT_DOUBLE, &mt_prec, "1e-14", ">0 <1",
       "relative residual of the solves of the action (start and end of a trajectory)"},
      {"force_prec", INPUT_DOUBLE, &force_prec, "1e-10", ">0 <1",
       "relative residual of the solves of the force"},
      {"chrono", INPUT_INT, &chrono, "0", ">=0 <=8",
       "chronological initial guess of the force solves from the last n solutions (0: off)"},
      INPUT_KEYS_END};
  read_block(in, "monomial", index, keys);
  sp.type = type;
  sp.level = level;
  sp.mass = mass;
  sp.dm = dm;
  sp.mt_prec = mt_prec;
  sp.force_prec = force_prec;
  sp.chrono = chrono;
  return sp;
}

void hmc_read_input(input_file *in, hmc_params *h) {
  memset(h, 0, sizeof *h);
  const input_key top[] = {
      {"tlen", INPUT_DOUBLE, &h->tlen, "1.0", ">0", "trajectory length"},
      {"cG", INPUT_DOUBLE, &h->cg, "1", NULL,
       "bc_t = open: weight cG/2 of the spatial plaquettes/rectangles in the slices 0, T-1"},
      INPUT_KEYS_END};
  input_read(in, NULL, top);
  const int nmon = input_count_blocks(in, "monomial");
  const int nint = input_count_blocks(in, "integrator");
  if (nmon < 1) HMC_INPUT_FAIL(in, "no monomial { ... } block: the action needs at least one");
  if (nmon > HMC_MAX_MONOMIALS)
    HMC_INPUT_FAIL(in, "%d monomial blocks (at most %d)", nmon, HMC_MAX_MONOMIALS);
  if (nint < 1) HMC_INPUT_FAIL(in, "no integrator { level = 0 type = .. steps = .. } block");
  if (nint > HMC_MAX_LEVELS)
    HMC_INPUT_FAIL(in, "%d integrator blocks (at most %d levels)", nint, HMC_MAX_LEVELS);
  int seen[HMC_MAX_LEVELS] = {0};
  for (int i = 0; i < nint; i++) {
    int level = 0, type = 0, steps = 0;
    const input_key keys[] = {
        {"level", INPUT_INT, &level, NULL, NULL, "level 0 (outermost) .. number of levels - 1"},
        {"type", INPUT_CHOICE, &type, NULL, "lf|omf2|omf4", "integrator of the level"},
        {"steps", INPUT_INT, &steps, NULL, ">=1", "steps over the time of the level"},
        INPUT_KEYS_END};
    read_block(in, "integrator", i, keys);
    if (level < 0 || level >= nint)
      input_fail_block(in, "integrator", i, "level",
                       "level %d: the %d integrator blocks must be levels 0 to %d", level, nint,
                       nint - 1);
    if (seen[level]++)
      input_fail_block(in, "integrator", i, "level", "level %d given twice", level);
    h->level[level].type = (hmc_integrator_type)type;
    h->level[level].steps = steps;
  }
  h->nlevels = nint;
  for (int i = 0; i < nmon; i++) {
    h->spec[i] = read_monomial(in, i);
    h->nspecs = i + 1;
    if (h->spec[i].level < 0 || h->spec[i].level >= nint)
      input_fail_block(in, "monomial", i, "level",
                       "level %d, but the integrator blocks give levels 0 to %d",
                       h->spec[i].level, nint - 1);
  }
}

void hmc_build_monomials(hmc_params *h, const hmc_fermion_setup *fs) {
  h->open_t = fs->bc.kind[0] == HR_BC_OPEN;
  const gauge_boundary gb = {h->open_t, h->open_t ? h->cg : 1.0};
  for (int i = 0; i < h->nspecs; i++) {
    const hmc_monomial_spec *sp = &h->spec[i];
    hmc_fermion_params fp;
    fp.mass = sp->mass;
    fp.dm = sp->dm;
    fp.mt_prec = sp->mt_prec;
    fp.force_prec = sp->force_prec;
    fp.chrono = sp->chrono;
    hmc_monomial *m;
    if (sp->type == 3) {
      rhmc_monomial_params rp;
      rhmc_monomial_params_default(&rp);
      rp.nf = sp->nf;
      rp.m0 = sp->mass;
      rp.lmin = sp->lmin;
      rp.lmax = sp->lmax;
      rp.degree = sp->degree;
      rp.precision = sp->precision;
      rp.mt_prec = sp->mt_prec;
      rp.force_prec = sp->force_prec;
      rp.meas_freq = sp->meas_freq;
      rp.strict = sp->strict;
      memcpy(rp.cache, sp->cache, sizeof rp.cache);
      m = hmc_monomial_stout(hmc_monomial_rhmc(fs, &rp, sp->level), &fs->smear);
    } else {
      m = sp->type == 0   ? hmc_monomial_gauge_bc(sp->beta, sp->c1, &gb, sp->level)
          : sp->type == 1 ? hmc_monomial_hmc(fs, &fp, sp->level)
                          : hmc_monomial_hasenbusch(fs, &fp, sp->level);
      if (sp->type != 0) m = hmc_monomial_stout(m, &fs->smear);
    }
    h->monomial[h->nmonomials++] = m;
  }
  h->nspecs = 0;
  hmc_check_params(h);
}

void hmc_print_params(const hmc_params *h) {
  lprintf("HMC", 10, "trajectory length %g, %d integrator level(s)\n", h->tlen, h->nlevels);
  for (int l = 0; l < h->nlevels; l++)
    lprintf("HMC", 10, "  level %d: %s, %d steps\n", l, hmc_integrator_name(h->level[l].type),
            h->level[l].steps);
  for (int i = 0; i < h->nmonomials; i++)
    lprintf("HMC", 10, "  monomial %d: %s on level %d\n", i + 1, h->monomial[i]->name,
            h->monomial[i]->level);
}
