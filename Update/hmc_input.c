/* hmc_input.c -- the HMC part of an input file (hmc.h, Doc/hmc.md): the top-level `tlen`,
 * the `monomial { type = gauge | hmc | hasenbusch | rhmc ... }` blocks (the type here, the other
 * keys by the read function of the kind, table of hmc_monomials.c) and the
 * `integrator { level = .. type = lf|omf2|omf4 steps = .. }` blocks, checked before any work
 * with file:line: key messages; the monomials built from them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmc.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"

/* Stop with "file: block n: what" (input error). */
#define HMC_INPUT_FAIL(in, ...)                                                                \
  do {                                                                                         \
    char msg_[512];                                                                            \
    snprintf(msg_, sizeof msg_, __VA_ARGS__);                                                  \
    hr_fatal(HR_EXIT_INPUT, "%s: %s", input_filename(in), msg_);                               \
  } while (0)

void hmc_read_block_keys(input_file *in, const char *block, int index, const input_key *keys) {
  char err[1024];
  if (input_read_block_keys(in, block, index, keys, err, sizeof err) != 0)
    hr_fatal(HR_EXIT_INPUT, "%s", err);
}

/* The parameters of the monomial of block `index`: its type, then the keys of its kind. */
static hmc_monomial_params read_monomial(input_file *in, int index) {
  int type = 0;
  const input_key type_key[] = {
      {"type", INPUT_CHOICE, &type, NULL, hmc_monomial_kind_names(), "kind of monomial"},
      INPUT_KEYS_END};
  hmc_read_block_keys(in, "monomial", index, type_key);
  hmc_monomial_params p;
  hmc_monomial_params_init(&p, hmc_monomial_kind_at(type)->name);
  p.kind->read(in, index, &p);
  return p;
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
    hmc_read_block_keys(in, "integrator", i, keys);
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
  for (int i = 0; i < h->nspecs; i++) {
    hmc_monomial_params *p = &h->spec[i];
    p->gauge_bc.open = h->open_t;
    p->gauge_bc.cg = h->open_t ? h->cg : 1.0;
    p->csw = fs->csw;
    p->bc = fs->bc;
    hmc_monomial *m = hmc_monomial_new(p);
    if (p->kind->fermion) m = hmc_monomial_stout(m, &fs->smear);
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
