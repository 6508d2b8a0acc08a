/* geometry_print.c -- human-readable description of a geometry descriptor (pieces, buffers,
 * copies) and a map of the indices of a lattice plane, for print_geometry and debugging. */
#include "geometry_internal.h"

#include <stdio.h>

/* "+T", "-X+Y", ... for a displacement. */
static void disp_name(const int *d, char *out, size_t len) {
  static const char dir_name[4] = {'T', 'X', 'Y', 'Z'};
  size_t n = 0;
  out[0] = '\0';
  for (int mu = 0; mu < 4 && n + 3 < len; mu++)
    if (d[mu] != 0) {
      out[n++] = d[mu] > 0 ? '+' : '-';
      out[n++] = dir_name[mu];
      out[n] = '\0';
    }
}

static const char *parity_name(int ix) { return site_parity(ix) ? "odd" : "even"; }

void geometry_fprint_descriptor(FILE *f, const char *name, const geometry_descriptor *g) {
  fprintf(f, "%s: parity %s, master_shift %d, %d master sites, %d inner\n", name,
          g->parity == HR_PARITY_BOTH ? "both" : g->parity == HR_PARITY_EVEN ? "even" : "odd",
          g->master_shift, g->master_sites, g->fuse_inner_counter);
  fprintf(f, "  field sizes: spinor layout %d sites (indices %d..%d), gauge layout %d sites "
             "(indices %d..%d)\n",
          g->gsize_spinor, g->master_shift, g->master_shift + g->gsize_spinor - 1,
          g->gsize_gauge, g->master_shift, g->master_shift + g->gsize_gauge - 1);
  fprintf(f, "  pieces: %d inner, %d local, %d spinor total, %d gauge total\n",
          g->inner_master_pieces, g->local_master_pieces, g->total_spinor_master_pieces,
          g->total_gauge_master_pieces);
  for (int p = 0; p < g->total_gauge_master_pieces; p++) {
    int s = g->master_start[p], e = g->master_end[p];
    const char *kind = p < g->inner_master_pieces                  ? "inner"
                       : p < g->local_master_pieces                ? "boundary"
                       : p < g->total_spinor_master_pieces         ? "receive buffer (spinor)"
                                                                   : "receive buffer (gauge)";
    if (e >= s)
      fprintf(f, "    piece %2d: %5d..%-5d (%4d sites, %s) %s\n", p, s, e, e - s + 1,
              parity_name(s), kind);
    else
      fprintf(f, "    piece %2d: empty (0 sites) %s\n", p, kind);
  }
  fprintf(f, "  buffers: %d spinor, %d gauge\n", g->nbuffers_spinor, g->nbuffers_gauge);
  for (int i = 0; i < g->nbuffers_gauge; i++) {
    char dn[16];
    disp_name(g->buf_disp + 4 * i, dn, sizeof dn);
    fprintf(f,
            "    buffer %2d %-5s %-4s: receive %5d..%-5d from rank %d, send %5d..%-5d to rank "
            "%d (%d sites, tag %d)%s\n",
            i, dn, parity_name(g->sbuf_start[i]), g->rbuf_start[i],
            g->rbuf_start[i] + g->rbuf_len[i] - 1, g->rbuf_from_proc[i], g->sbuf_start[i],
            g->sbuf_start[i] + g->sbuf_len[i] - 1, g->sbuf_to_proc[i], g->sbuf_len[i],
            g->buf_tag[i], i >= g->nbuffers_spinor ? " gauge only" : "");
  }
  fprintf(f, "  copies: %d ranges for the spinor layout, %d for the gauge layout\n",
          g->ncopies_spinor, g->ncopies_gauge);
  for (int i = 0; i < g->ncopies_gauge; i++)
    fprintf(f, "    copy %2d: %5d..%-5d <- %5d..%-5d (%d sites)%s\n", i, g->copy_to[i],
            g->copy_to[i] + g->copy_len[i] - 1, g->copy_from[i],
            g->copy_from[i] + g->copy_len[i] - 1, g->copy_len[i],
            i >= g->ncopies_spinor ? " gauge only" : "");
}

void geometry_fprint_plane(FILE *f, int mu, int nu, const int at[4]) {
  static const char dir_name[4] = {'t', 'x', 'y', 'z'};
  int lo_mu = HALO_DIR[mu] ? -1 : 0, hi_mu = LOC_SIZE[mu] + (HALO_DIR[mu] ? 0 : -1);
  int lo_nu = HALO_DIR[nu] ? -1 : 0, hi_nu = LOC_SIZE[nu] + (HALO_DIR[nu] ? 0 : -1);
  fprintf(f, "  plane %c (rows) x %c (columns), other coordinates", dir_name[mu], dir_name[nu]);
  for (int a = 0; a < 4; a++)
    if (a != mu && a != nu) fprintf(f, " %c=%d", dir_name[a], at[a]);
  fprintf(f, "\n  %5s", "");
  for (int c = lo_nu; c <= hi_nu; c++) fprintf(f, " %5d", c);
  fprintf(f, "\n");
  for (int r = lo_mu; r <= hi_mu; r++) {
    fprintf(f, "  %5d", r);
    for (int c = lo_nu; c <= hi_nu; c++) {
      int x[4] = {at[0], at[1], at[2], at[3]};
      x[mu] = r;
      x[nu] = c;
      int ix = ipt_ext(x);
      if (ix < 0)
        fprintf(f, " %5s", ".");
      else
        fprintf(f, " %5d", ix);
    }
    fprintf(f, "\n");
  }
}
