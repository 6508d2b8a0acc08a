/* test_geometry_layout.c -- invariants of the geometry layout on the process grid given on
 * the command line (run under mpirun by run_grid.sh), for two lattices, with and without a
 * halo forced in every direction and with two path-blocking sizes:
 *   every global site is a master site of exactly one process, every local site exactly
 *   once; pieces do not overlap, carry one parity, even block before odd block,
 *   glat_odd.master_shift = first odd index; glat_even/glat_odd hold the even/odd sites of
 *   glattice; inner sites need no halo, bulk in path-blocked order; every send buffer is one
 *   range holding exactly the sites its partner needs (checked against sets computed here),
 *   partners from the grid coordinates of every rank, receive buffers match; copies stand
 *   for their masters and cover every non-master send-buffer site; iup / idn agree with
 *   global coordinates, halo included; fuse_mask lists the sites as documented. */
#include "geo_test.h"

/* Case parameters, as the test sees them (independent of the library's tables). */
static int halo[4], glb_case[4], np_case[4], pb_case[4];
static int L[4];
/* Grid coordinates of every rank, by the row-major rule of MPI_Cart_create. */
static void rank_coords(int rank, int c[4]) {
  for (int mu = 3; mu >= 0; mu--) {
    c[mu] = rank % np_case[mu];
    rank /= np_case[mu];
  }
}
static int coords_rank(const int c[4]) {
  int r = 0;
  for (int mu = 0; mu < 4; mu++) r = r * np_case[mu] + ((c[mu] % np_case[mu]) + np_case[mu]) % np_case[mu];
  return r;
}

static int parity4(const int x[4]) { return (((x[0] + x[1] + x[2] + x[3]) % 2) + 2) % 2; }
static int is_local(const int x[4]) {
  for (int mu = 0; mu < 4; mu++)
    if (x[mu] < 0 || x[mu] >= L[mu]) return 0;
  return 1;
}
static int lex(const int x[4]) { return ((x[0] * L[1] + x[1]) * L[2] + x[2]) * L[3] + x[3]; }

/* Whether local site x is in the send set of displacement d. */
static int in_send_set(const int x[4], const int d[4]) {
  for (int a = 0; a < 4; a++) {
    if (d[a] == 1 && x[a] != 0) return 0;
    if (d[a] == -1 && x[a] != L[a] - 1) return 0;
  }
  return 1;
}

/* Expected displacements: faces, then edges (as sets; the order is the library's). */
static int n_exp_faces, n_exp_edges;
static int exp_disp[32][4];
static void expected_displacements(void) {
  int n = 0;
  for (int mu = 0; mu < 4; mu++)
    if (halo[mu])
      for (int s = -1; s <= 1; s += 2) {
        memset(exp_disp[n], 0, sizeof exp_disp[n]);
        exp_disp[n++][mu] = s;
      }
  n_exp_faces = n;
  for (int mu = 0; mu < 4; mu++)
    for (int nu = mu + 1; nu < 4; nu++)
      if (halo[mu] && halo[nu])
        for (int s1 = -1; s1 <= 1; s1 += 2)
          for (int s2 = -1; s2 <= 1; s2 += 2) {
            memset(exp_disp[n], 0, sizeof exp_disp[n]);
            exp_disp[n][mu] = s1;
            exp_disp[n++][nu] = s2;
          }
  n_exp_edges = n - n_exp_faces;
}
static int find_disp(const int *d, int first, int last) {
  for (int k = first; k < last; k++)
    if (memcmp(exp_disp[k], d, 4 * sizeof(int)) == 0) return k;
  return -1;
}

static int *master_flag; /* 1 for indices in master pieces of glattice */

static void check_master_sites(void) {
  int total = geometry_total_sites();
  CHECK(VOLUME == L[0] * L[1] * L[2] * L[3], "VOLUME %d", VOLUME);
  CHECK(LOC_T == L[0] && LOC_X == L[1] && LOC_Y == L[2] && LOC_Z == L[3], "local sizes %d %d %d %d", LOC_T, LOC_X, LOC_Y, LOC_Z);
  int *count = calloc((size_t)VOLUME, sizeof(int));
  master_flag = calloc((size_t)total, sizeof(int));
  int n = 0;
  _MASTER_FOR(&glattice, ix) {
    int x[4];
    local_coordinates(x, ix);
    CHECK(is_local(x), "master %d at (%d,%d,%d,%d) outside the local lattice", ix, x[0], x[1], x[2], x[3]);
    if (!is_local(x)) continue;
    count[lex(x)]++;
    CHECK(ipt(x[0], x[1], x[2], x[3]) == ix, "ipt of master %d is %d", ix, ipt(x[0], x[1], x[2], x[3]));
    CHECK(master_index(ix) == ix, "master %d has master_index %d", ix, master_index(ix));
    master_flag[ix]++;
    n++;
  }
  CHECK(n == VOLUME, "%d master sites, volume %d", n, VOLUME);
  CHECK(glattice.master_sites == VOLUME, "master_sites %d", glattice.master_sites);
  for (int i = 0; i < VOLUME; i++) CHECK(count[i] == 1, "local site %d is master %d times", i, count[i]);
  free(count);

  /* Every global site is a master site of exactly one process. */
  int *owner = calloc((size_t)GLB_VOLUME, sizeof(int));
  _MASTER_FOR(&glattice, ix) {
    int g[4], x[4];
    global_coordinates(g, ix);
    local_coordinates(x, ix);
    int c[4];
    rank_coords(hr_rank(), c);
    for (int mu = 0; mu < 4; mu++)
      CHECK(g[mu] == c[mu] * L[mu] + x[mu], "global coordinate %d of %d is %d", mu, ix, g[mu]);
    owner[(long)geo_code(g)]++;
  }
  global_sum_int(owner, (int)GLB_VOLUME);
  for (long i = 0; i < GLB_VOLUME; i++) CHECK(owner[i] == 1, "global site %ld owned %d times", i, owner[i]);
  free(owner);
}

/* Pieces of g: one parity each, no overlap with each other or with copies; the sets of
 * glat_even / glat_odd equal the even / odd sites of glattice. */
static void check_pieces(const geometry_descriptor *g, int par) {
  int total = geometry_total_sites();
  int *cover = calloc((size_t)total, sizeof(int));
  CHECK(g->parity == par, "parity %d", g->parity);
  int nparities = par == HR_PARITY_BOTH ? 2 : 1;
  CHECK(g->inner_master_pieces == nparities, "inner pieces %d", g->inner_master_pieces);
  CHECK(g->local_master_pieces % nparities == 0, "local pieces %d", g->local_master_pieces);
  for (int p = 0; p < g->total_gauge_master_pieces; p++) {
    int want = par == HR_PARITY_BOTH ? p % 2 : par;
    CHECK(g->master_end[p] >= g->master_start[p] - 1, "piece %d range %d..%d", p, g->master_start[p], g->master_end[p]);
    for (int ix = g->master_start[p]; ix <= g->master_end[p]; ix++) {
      CHECK(ix >= 0 && ix < total, "piece %d index %d", p, ix);
      if (ix < 0 || ix >= total) break;
      CHECK(site_parity(ix) == want, "piece %d site %d has parity %d", p, ix, site_parity(ix));
      cover[ix]++;
      CHECK(master_index(ix) == ix, "piece %d holds copy %d", p, ix);
      int is_master_piece = p < g->local_master_pieces;
      CHECK(master_flag[ix] == is_master_piece, "site %d master flag %d in piece %d", ix, master_flag[ix], p);
      int lim = p < g->total_spinor_master_pieces ? g->gsize_spinor : g->gsize_gauge;
      CHECK(ix - g->master_shift >= 0 && ix - g->master_shift < lim, "piece %d site %d outside the field", p, ix);
    }
  }
  for (int c = 0; c < g->ncopies_gauge; c++)
    for (int j = 0; j < g->copy_len[c]; j++) {
      int to = g->copy_to[c] + j, from = g->copy_from[c] + j;
      CHECK(to >= 0 && to < total && from >= 0 && from < total, "copy %d range", c);
      if (to < 0 || to >= total || from < 0 || from >= total) break;
      cover[to]++;
      CHECK(master_flag[from] == 1, "copy %d source %d is not a master site", c, from);
      CHECK(master_index(to) == from, "copy %d site %d has master %d, not %d", c, to, master_index(to), from);
      int a[4], b[4];
      local_coordinates(a, to);
      local_coordinates(b, from);
      CHECK(memcmp(a, b, sizeof a) == 0, "copy %d site %d at other coordinates than %d", c, to, from);
      int lim = c < g->ncopies_spinor ? g->gsize_spinor : g->gsize_gauge;
      CHECK(to - g->master_shift >= 0 && to - g->master_shift < lim, "copy %d site %d outside the field", c, to);
      if (par != HR_PARITY_BOTH) CHECK(site_parity(to) == par, "copy %d parity", c);
    }
  for (int ix = 0; ix < total; ix++) {
    int mine = par == HR_PARITY_BOTH || site_parity(ix) == par;
    CHECK(cover[ix] == mine, "index %d covered %d times (parity %d)", ix, cover[ix], site_parity(ix));
  }
  free(cover);
  /* Master sets by parity. */
  if (par != HR_PARITY_BOTH) {
    int n = 0;
    _MASTER_FOR(g, ix) {
      CHECK(master_flag[ix] == 1 && site_parity(ix) == par, "site %d of the parity geometry", ix);
      n++;
    }
    CHECK(n == VOLUME / 2 && g->master_sites == VOLUME / 2, "%d sites of parity %d", n, par);
  }
}

/* Even block before odd block; glat_odd.master_shift is the first odd index. */
static void check_blocks(void) {
  int max_even = -1, min_odd = geometry_total_sites();
  _MASTER_FOR(&glattice, ix) {
    if (site_parity(ix) == 0 && ix > max_even) max_even = ix;
    if (site_parity(ix) == 1 && ix < min_odd) min_odd = ix;
  }
  for (int i = 0; i < glattice.nbuffers_spinor; i++)
    if (site_parity(glattice.rbuf_start[i]) == 0) {
      int e = glattice.rbuf_start[i] + glattice.rbuf_len[i] - 1;
      if (e > max_even) max_even = e;
    }
  CHECK(max_even < min_odd, "even index %d after odd index %d", max_even, min_odd);
  CHECK(glat_odd.master_shift == min_odd, "glat_odd.master_shift %d, first odd %d", glat_odd.master_shift, min_odd);
  CHECK(glat_even.master_shift == 0 && glattice.master_shift == 0, "shifts %d %d", glat_even.master_shift, glattice.master_shift);
  CHECK(glattice.gsize_spinor == glat_odd.master_shift + glat_odd.gsize_spinor, "spinor sizes");
  CHECK(glattice.gsize_gauge == geometry_total_sites(), "gauge size");
  CHECK(glat_even.gsize_spinor == glat_odd.master_shift, "even spinor size %d", glat_even.gsize_spinor);
}

/* Inner pieces need no halo and follow the path-blocked order; boundary sites do. */
static void check_inner(const geometry_descriptor *g) {
  int inner = 0;
  long prev_block = -1;
  for (int p = 0; p < g->inner_master_pieces; p++) {
    prev_block = -1;
    _SITE_FOR(g, p, ix) {
      int x[4];
      local_coordinates(x, ix);
      long block = 0;
      for (int mu = 0; mu < 4; mu++) {
        int lo = halo[mu] ? 1 : 0;
        CHECK(!halo[mu] || (x[mu] >= 1 && x[mu] <= L[mu] - 2), "inner site %d on the boundary", ix);
        block = block * 1000 + (x[mu] - lo) / pb_case[mu];
        CHECK(iup(ix, mu) >= 0 && master_flag[iup(ix, mu)], "inner site %d: up %d not local", ix, mu);
        CHECK(idn(ix, mu) >= 0 && master_flag[idn(ix, mu)], "inner site %d: down %d not local", ix, mu);
      }
      CHECK(block >= prev_block, "inner site %d breaks the path-blocked order", ix);
      prev_block = block;
      CHECK(g->fuse_mask[inner] == ix, "fuse_mask[%d] = %d, inner site %d", inner, g->fuse_mask[inner], ix);
      inner++;
    }
  }
  CHECK(g->fuse_inner_counter == inner, "fuse_inner_counter %d, inner sites %d", g->fuse_inner_counter, inner);
  int n = inner;
  _BOUNDARY_FOR(g, ix) {
    int x[4], on_boundary = 0;
    local_coordinates(x, ix);
    for (int mu = 0; mu < 4; mu++)
      if (halo[mu] && (x[mu] == 0 || x[mu] == L[mu] - 1)) on_boundary = 1;
    CHECK(on_boundary, "boundary site %d is not on the boundary", ix);
    CHECK(g->fuse_mask[n] == ix, "fuse_mask[%d] = %d, boundary site %d", n, g->fuse_mask[n], ix);
    n++;
  }
  CHECK(n == g->master_sites, "master sites %d %d", n, g->master_sites);
  int h = 0;
  for (int i = 0; i < g->nbuffers_gauge; i++) h += g->rbuf_len[i];
  CHECK(g->fuse_gauge_size == g->master_sites + h, "fuse_gauge_size %d", g->fuse_gauge_size);
  int hs = 0;
  for (int i = 0; i < g->nbuffers_spinor; i++) hs += g->rbuf_len[i];
  CHECK(g->fuse_spinor_size == g->master_sites + hs, "fuse_spinor_size %d", g->fuse_spinor_size);
}

/* Send and receive buffers of g against the sets and partners computed here. */
static void check_buffers(const geometry_descriptor *g, int par) {
  int nparities = par == HR_PARITY_BOTH ? 2 : 1;
  CHECK(g->nbuffers_spinor == nparities * n_exp_faces, "spinor buffers %d", g->nbuffers_spinor);
  CHECK(g->nbuffers_gauge == nparities * (n_exp_faces + n_exp_edges), "gauge buffers %d", g->nbuffers_gauge);
  CHECK(g->total_spinor_master_pieces == g->local_master_pieces + g->nbuffers_spinor, "spinor pieces");
  CHECK(g->total_gauge_master_pieces == g->local_master_pieces + g->nbuffers_gauge, "gauge pieces");
  int seen[32][2] = {{0}};
  int total = geometry_total_sites();
  int *in_copy[2];
  for (int l = 0; l < 2; l++) {
    in_copy[l] = calloc((size_t)total, sizeof(int));
    int nc = l ? g->ncopies_gauge : g->ncopies_spinor;
    for (int c = 0; c < nc; c++)
      for (int j = 0; j < g->copy_len[c]; j++) in_copy[l][g->copy_to[c] + j] = 1;
  }
  int me[4];
  rank_coords(hr_rank(), me);
  for (int i = 0; i < g->nbuffers_gauge; i++) {
    const int *d = g->buf_disp + 4 * i;
    int spinor = i < g->nbuffers_spinor;
    int k = spinor ? find_disp(d, 0, n_exp_faces) : find_disp(d, n_exp_faces, n_exp_faces + n_exp_edges);
    CHECK(k >= 0, "buffer %d has unexpected displacement (%d,%d,%d,%d)", i, d[0], d[1], d[2], d[3]);
    if (k < 0) continue;
    int p = site_parity(g->sbuf_start[i]);
    if (par != HR_PARITY_BOTH) CHECK(p == par, "buffer %d parity", i);
    seen[k][p]++;
    CHECK(g->master_start[g->local_master_pieces + i] == g->rbuf_start[i] &&
              g->master_end[g->local_master_pieces + i] == g->rbuf_start[i] + g->rbuf_len[i] - 1,
          "buffer %d is not piece %d", i, g->local_master_pieces + i);
    /* Partners. */
    int c[4];
    for (int mu = 0; mu < 4; mu++) c[mu] = me[mu] - d[mu];
    CHECK(g->sbuf_to_proc[i] == coords_rank(c), "buffer %d sends to %d", i, g->sbuf_to_proc[i]);
    for (int mu = 0; mu < 4; mu++) c[mu] = me[mu] + d[mu];
    CHECK(g->rbuf_from_proc[i] == coords_rank(c), "buffer %d receives from %d", i, g->rbuf_from_proc[i]);
    /* Send set: exactly the sites of parity p with in_send_set. */
    int expected = 0, x[4];
    for (x[0] = 0; x[0] < L[0]; x[0]++)
      for (x[1] = 0; x[1] < L[1]; x[1]++)
        for (x[2] = 0; x[2] < L[2]; x[2]++)
          for (x[3] = 0; x[3] < L[3]; x[3]++)
            if (in_send_set(x, d) && parity4(x) == p) expected++;
    CHECK(g->sbuf_len[i] == expected && g->rbuf_len[i] == expected, "buffer %d: %d/%d sites, expected %d", i, g->sbuf_len[i], g->rbuf_len[i], expected);
    int *mark = calloc((size_t)VOLUME, sizeof(int));
    for (int j = 0; j < g->sbuf_len[i] && j < g->rbuf_len[i]; j++) {
      int s = g->sbuf_start[i] + j, r = g->rbuf_start[i] + j;
      int xs[4], xr[4];
      local_coordinates(xs, s);
      local_coordinates(xr, r);
      CHECK(is_local(xs) && in_send_set(xs, d) && parity4(xs) == p, "buffer %d send site %d", i, s);
      if (is_local(xs)) CHECK(mark[lex(xs)]++ == 0, "buffer %d sends site %d twice", i, s);
      CHECK(master_flag[s] || in_copy[spinor ? 0 : 1][s], "buffer %d send site %d neither master nor synced copy", i, s);
      for (int mu = 0; mu < 4; mu++)
        CHECK(xr[mu] == xs[mu] + d[mu] * L[mu], "buffer %d receive site %d does not match send site %d", i, r, s);
      CHECK(master_index(r) == r && !master_flag[r], "receive site %d is local", r);
      CHECK(r - g->master_shift < (spinor ? g->gsize_spinor : g->gsize_gauge), "receive site %d outside the field", r);
    }
    free(mark);
  }
  for (int k = 0; k < n_exp_faces + n_exp_edges; k++)
    for (int p = 0; p < 2; p++) {
      int want = par == HR_PARITY_BOTH || par == p;
      CHECK(seen[k][p] == want, "displacement %d parity %d seen %d times", k, p, seen[k][p]);
    }
  free(in_copy[0]);
  free(in_copy[1]);
}

/* iup / idn of every stored index against global coordinates; -1 exactly when the
 * neighbour lies outside the stored region. */
static void check_neighbours(void) {
  int total = geometry_total_sites();
  for (int ix = 0; ix < total; ix++) {
    int x[4], g[4];
    local_coordinates(x, ix);
    global_coordinates(g, ix);
    for (int mu = 0; mu < 4; mu++)
      for (int s = -1; s <= 1; s += 2) {
        int n = s > 0 ? iup(ix, mu) : idn(ix, mu);
        int y[4] = {x[0], x[1], x[2], x[3]};
        y[mu] += s;
        if (!halo[mu]) y[mu] = (y[mu] + L[mu]) % L[mu];
        int outside = 0, beyond = 0;
        for (int a = 0; a < 4; a++) {
          if (y[a] < 0 || y[a] >= L[a]) outside++;
          if (y[a] < -1 || y[a] > L[a]) beyond = 1;
        }
        int stored = !beyond && outside <= 2;
        CHECK((n >= 0) == stored, "site %d dir %d step %d: neighbour %d, stored %d", ix, mu, s, n, stored);
        if (n < 0) continue;
        int gn[4];
        global_coordinates(gn, n);
        for (int a = 0; a < 4; a++) {
          int want = a == mu ? (g[a] + s + GLB_SIZE[a]) % GLB_SIZE[a] : g[a];
          CHECK(gn[a] == want, "site %d dir %d step %d: neighbour %d has global %d = %d, not %d", ix, mu, s, n, a, gn[a], want);
        }
        if (is_local(y)) CHECK(master_flag[n], "neighbour %d of %d is not a master site", n, ix);
        if (is_local(x) && master_index(ix) != ix)
          CHECK(n == (s > 0 ? iup(master_index(ix), mu) : idn(master_index(ix), mu)), "copy %d neighbours", ix);
      }
    int i2 = ipt_ext(x);
    CHECK(i2 == master_index(ix), "ipt_ext of site %d gives %d", ix, i2);
  }
}

int main(int argc, char **argv) {
  int np[4];
  geo_test_start(&argc, &argv, np);
  const int pbs[2][4] = {{2, 2, 2, 2}, {1, 3, 2, 1}};
  for (int lat = 0; lat < GEO_NLATTICES; lat++)
    for (int variant = 0; variant < 3; variant++) {
      int force = variant == 1 ? 15 : 0;
      const int *pb = pbs[variant == 2];
      char name[256];
      if (!geo_setup(geo_lattices[lat], np, pb, force, name, sizeof name)) continue;
      for (int mu = 0; mu < 4; mu++) {
        glb_case[mu] = geo_lattices[lat][mu];
        np_case[mu] = np[mu];
        pb_case[mu] = pb[mu];
        halo[mu] = np[mu] > 1 || ((force >> mu) & 1);
        L[mu] = glb_case[mu] / np[mu];
      }
      expected_displacements();
      check_master_sites();
      check_blocks();
      check_pieces(&glattice, HR_PARITY_BOTH);
      check_pieces(&glat_even, HR_PARITY_EVEN);
      check_pieces(&glat_odd, HR_PARITY_ODD);
      check_inner(&glattice);
      check_inner(&glat_even);
      check_inner(&glat_odd);
      check_buffers(&glattice, HR_PARITY_BOTH);
      check_buffers(&glat_even, HR_PARITY_EVEN);
      check_buffers(&glat_odd, HR_PARITY_ODD);
      check_neighbours();
      free(master_flag);
      char full[300];
      snprintf(full, sizeof full, "layout: %s", name);
      tc_case_end(full);
    }
  return geo_test_finish("test_geometry_layout");
}
