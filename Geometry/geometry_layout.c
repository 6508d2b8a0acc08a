/* geometry_layout.c -- the memory layout of fields: assigns an index to every site (inner
 * sites in path-blocked order, boundary sites with copies so that each send buffer is one
 * range, receive buffers), builds glattice / glat_even / glat_odd and the ipt / iup / idn and
 * coordinate tables. Doc/geometry.md describes the result. */
#include "geometry_internal.h"
#include "host_memory.h"
#include "hr_error.h"

#include <stdlib.h>
#include <string.h>

geometry_descriptor glattice, glat_even, glat_odd;
int *hr_iup = NULL, *hr_idn = NULL, *hr_ipt = NULL;

/* Local (extended) coordinates of every index, 4 per index, and the master of every index. */
static int *site_coord = NULL;
static int *site_master = NULL;
static int n_sites = 0;
/* Index of every site of the extended box (halo included), -1 when not stored. */
static int *ext_table = NULL;
static int ext_lo[4], ext_len[4];

/* ------------------------------------------------------------------ small helpers */

/* A growable array of ints. */
typedef struct {
  int *v;
  int n, cap;
} int_list;

static void list_push(int_list *l, int x) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->v = realloc(l->v, (size_t)l->cap * sizeof(int));
    if (l->v == NULL) hr_error("out of memory building the lattice geometry");
  }
  l->v[l->n++] = x;
}

static void list_free(int_list *l) {
  free(l->v);
  l->v = NULL;
  l->n = l->cap = 0;
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (p == NULL) hr_error("out of memory building the lattice geometry (%zu bytes)", n * size);
  return p;
}

/* Position of local extended coordinates in ext_table, -1 outside the extended box. */
static int ext_pos(const int x[4]) {
  int pos = 0;
  for (int mu = 0; mu < 4; mu++) {
    int c = x[mu] - ext_lo[mu];
    if (c < 0 || c >= ext_len[mu]) return -1;
    pos = pos * ext_len[mu] + c;
  }
  return pos;
}

static int coord_parity(const int x[4]) {
  int s = x[0] + x[1] + x[2] + x[3];
  return ((s % 2) + 2) % 2;
}

/* ------------------------------------------------------------------ buffers and copies */

/* A halo region: displacement d of the neighbour that owns it; gauge_only for edges. */
typedef struct {
  int d[4];
  int gauge_only;
} halo_dir;

static halo_dir dirs[32];
static int n_dirs = 0, n_faces = 0;

static void list_halo_dirs(void) {
  n_dirs = 0;
  for (int mu = 0; mu < 4; mu++) {
    if (!HALO_DIR[mu]) continue;
    for (int s = 1; s >= -1; s -= 2) {
      halo_dir h = {{0, 0, 0, 0}, 0};
      h.d[mu] = s;
      dirs[n_dirs++] = h;
    }
  }
  n_faces = n_dirs;
  for (int mu = 0; mu < 4; mu++)
    for (int nu = mu + 1; nu < 4; nu++) {
      if (!HALO_DIR[mu] || !HALO_DIR[nu]) continue;
      for (int s1 = 1; s1 >= -1; s1 -= 2)
        for (int s2 = 1; s2 >= -1; s2 -= 2) {
          halo_dir h = {{0, 0, 0, 0}, 1};
          h.d[mu] = s1;
          h.d[nu] = s2;
          dirs[n_dirs++] = h;
        }
    }
}

/* The sites of this process that the process at -d needs for its halo region d, of one
 * parity, in lexicographic order (4 coordinates per site). */
static void send_set(int_list *out, const int d[4], int parity) {
  int lo[4], hi[4];
  for (int a = 0; a < 4; a++) {
    lo[a] = d[a] == 1 ? 0 : d[a] == -1 ? LOC_SIZE[a] - 1 : 0;
    hi[a] = d[a] == 1 ? 0 : d[a] == -1 ? LOC_SIZE[a] - 1 : LOC_SIZE[a] - 1;
  }
  int x[4];
  for (x[0] = lo[0]; x[0] <= hi[0]; x[0]++)
    for (x[1] = lo[1]; x[1] <= hi[1]; x[1]++)
      for (x[2] = lo[2]; x[2] <= hi[2]; x[2]++)
        for (x[3] = lo[3]; x[3] <= hi[3]; x[3]++)
          if (coord_parity(x) == parity)
            for (int a = 0; a < 4; a++) list_push(out, x[a]);
}

/* Copy ranges by category: [parity][gauge_only], 3 ints (from, to, len) per range. */
static int_list copies[2][2];

static void add_copy(int parity, int gauge_only, int to, int from) {
  int_list *l = &copies[parity][gauge_only];
  if (l->n > 0) {
    int *last = l->v + l->n - 3;
    if (last[1] + last[2] == to && last[0] + last[2] == from) {
      last[2]++;
      return;
    }
  }
  list_push(l, from);
  list_push(l, to);
  list_push(l, 1);
}

/* New index for coordinates x; master < 0 makes it its own master. */
static int_list coord_list, master_list;
static int emit_site(const int x[4], int master) {
  int ix = n_sites++;
  for (int a = 0; a < 4; a++) list_push(&coord_list, x[a]);
  list_push(&master_list, master < 0 ? ix : master);
  return ix;
}

/* Sort helper: (master index, position) pairs. */
typedef struct {
  int master, pos;
} master_pos;

static int cmp_master_pos(const void *a, const void *b) {
  const master_pos *p = a, *q = b;
  return (p->master > q->master) - (p->master < q->master);
}

/* Where each buffer went: [parity][dir]. */
typedef struct {
  int sstart, slen, rstart, rlen;
} buffer_place;
static buffer_place place[2][32];
/* Send order of each buffer (4 coordinates per site): [parity][dir]. */
static int_list send_order[2][32];

/* Lay out the send buffer of direction k for `parity`: copies of already placed sites
 * (ordered by master index), then new master sites. Returns the first new master index and
 * sets *n_new. */
static int layout_send_buffer(int parity, int k, int *n_new) {
  int_list set = {0};
  send_set(&set, dirs[k].d, parity);
  int n = set.n / 4;
  master_pos *old = xcalloc((size_t)n, sizeof *old);
  int n_old = 0;
  for (int s = 0; s < n; s++) {
    int m = ext_table[ext_pos(set.v + 4 * s)];
    if (m >= 0) old[n_old++] = (master_pos){m, s};
  }
  qsort(old, (size_t)n_old, sizeof *old, cmp_master_pos);
  place[parity][k].sstart = n_sites;
  place[parity][k].slen = n;
  int_list *order = &send_order[parity][k];
  for (int o = 0; o < n_old; o++) {
    const int *x = set.v + 4 * old[o].pos;
    int to = emit_site(x, old[o].master);
    add_copy(parity, dirs[k].gauge_only, to, old[o].master);
    for (int a = 0; a < 4; a++) list_push(order, x[a]);
  }
  int first_new = n_sites;
  for (int s = 0; s < n; s++) {
    const int *x = set.v + 4 * s;
    int pos = ext_pos(x);
    if (ext_table[pos] >= 0) continue;
    ext_table[pos] = emit_site(x, -1);
    for (int a = 0; a < 4; a++) list_push(order, x[a]);
  }
  *n_new = n - n_old;
  hr_assert(!dirs[k].gauge_only || *n_new == 0,
            "gauge-only send buffer with sites outside the spinor send buffers");
  free(old);
  list_free(&set);
  return first_new;
}

/* Lay out the receive buffer of direction k for `parity`: the halo sites in the order in
 * which the partner (same layout) sends them. */
static void layout_recv_buffer(int parity, int k) {
  const int_list *order = &send_order[parity][k];
  place[parity][k].rstart = n_sites;
  place[parity][k].rlen = order->n / 4;
  for (int s = 0; s < order->n / 4; s++) {
    int h[4];
    for (int a = 0; a < 4; a++) h[a] = order->v[4 * s + a] + dirs[k].d[a] * LOC_SIZE[a];
    int pos = ext_pos(h);
    hr_assert(pos >= 0 && ext_table[pos] < 0, "halo site stored twice or outside the halo");
    ext_table[pos] = emit_site(h, -1);
  }
}

/* Inner sites of one parity in path-blocked order: blocks of PB_SIZE over the inner box,
 * blocks and the sites inside a block in lexicographic order (t slowest). */
static void layout_inner(int parity) {
  int lo[4], hi[4], nb[4];
  for (int mu = 0; mu < 4; mu++) {
    lo[mu] = HALO_DIR[mu] ? 1 : 0;
    hi[mu] = HALO_DIR[mu] ? LOC_SIZE[mu] - 2 : LOC_SIZE[mu] - 1;
    int len = hi[mu] - lo[mu] + 1;
    if (len <= 0) return;
    nb[mu] = (len + PB_SIZE[mu] - 1) / PB_SIZE[mu];
  }
  int b[4], x[4];
  for (b[0] = 0; b[0] < nb[0]; b[0]++)
    for (b[1] = 0; b[1] < nb[1]; b[1]++)
      for (b[2] = 0; b[2] < nb[2]; b[2]++)
        for (b[3] = 0; b[3] < nb[3]; b[3]++) {
          int s[4], e[4];
          for (int mu = 0; mu < 4; mu++) {
            s[mu] = lo[mu] + b[mu] * PB_SIZE[mu];
            e[mu] = s[mu] + PB_SIZE[mu] - 1;
            if (e[mu] > hi[mu]) e[mu] = hi[mu];
          }
          for (x[0] = s[0]; x[0] <= e[0]; x[0]++)
            for (x[1] = s[1]; x[1] <= e[1]; x[1]++)
              for (x[2] = s[2]; x[2] <= e[2]; x[2]++)
                for (x[3] = s[3]; x[3] <= e[3]; x[3]++)
                  if (coord_parity(x) == parity) ext_table[ext_pos(x)] = emit_site(x, -1);
        }
}

/* ------------------------------------------------------------------ descriptors */

static void free_descriptor(geometry_descriptor *g) {
  int **arrays[] = {&g->master_start, &g->master_end,     &g->copy_from,  &g->copy_to,
                    &g->copy_len,     &g->rbuf_len,       &g->sbuf_len,   &g->rbuf_from_proc,
                    &g->rbuf_start,   &g->sbuf_to_proc,   &g->sbuf_start, &g->fuse_mask,
                    &g->buf_tag,      &g->buf_disp};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(*arrays[i]);
  memset(g, 0, sizeof *g);
}

/* Pieces (start, end) of each parity: inner, boundary groups. */
static int inner_piece[2][2];
static int_list groups[2];
/* End of the spinor block of each parity and of its gauge-only tail. */
static int spinor_block_end[2], gauge_tail_end[2];

/* Fill `g` for the parities p0 .. p1 (0..1 full lattice, 0..0 even, 1..1 odd). */
static void build_descriptor(geometry_descriptor *g, int p0, int p1) {
  free_descriptor(g);
  int np = p1 - p0 + 1;
  int n_groups = groups[0].n / 2;
  g->parity = np == 2 ? HR_PARITY_BOTH : p0;
  g->inner_master_pieces = np;
  g->local_master_pieces = np * (1 + n_groups);
  g->nbuffers_spinor = np * n_faces;
  g->nbuffers_gauge = np * n_dirs;
  g->total_spinor_master_pieces = g->local_master_pieces + g->nbuffers_spinor;
  g->total_gauge_master_pieces = g->local_master_pieces + g->nbuffers_gauge;
  int npieces = g->total_gauge_master_pieces;
  g->master_start = xcalloc((size_t)npieces, sizeof(int));
  g->master_end = xcalloc((size_t)npieces, sizeof(int));
  int ip = 0;
  for (int p = p0; p <= p1; p++, ip++) {
    g->master_start[ip] = inner_piece[p][0];
    g->master_end[ip] = inner_piece[p][1];
  }
  for (int k = 0; k < n_groups; k++)
    for (int p = p0; p <= p1; p++, ip++) {
      g->master_start[ip] = groups[p].v[2 * k];
      g->master_end[ip] = groups[p].v[2 * k + 1];
    }
  int nb = g->nbuffers_gauge;
  g->rbuf_len = xcalloc((size_t)nb, sizeof(int));
  g->sbuf_len = xcalloc((size_t)nb, sizeof(int));
  g->rbuf_from_proc = xcalloc((size_t)nb, sizeof(int));
  g->rbuf_start = xcalloc((size_t)nb, sizeof(int));
  g->sbuf_to_proc = xcalloc((size_t)nb, sizeof(int));
  g->sbuf_start = xcalloc((size_t)nb, sizeof(int));
  g->buf_tag = xcalloc((size_t)nb, sizeof(int));
  g->buf_disp = xcalloc((size_t)nb * 4, sizeof(int));
  int ib = 0;
  for (int k = 0; k < n_dirs; k++) {
    int minus_d[4], code = 0;
    for (int a = 0; a < 4; a++) {
      minus_d[a] = -dirs[k].d[a];
      code = 3 * code + dirs[k].d[a] + 1;
    }
    int from = geometry_rank_at(dirs[k].d), to = geometry_rank_at(minus_d);
    for (int p = p0; p <= p1; p++, ib++) {
      g->rbuf_start[ib] = place[p][k].rstart;
      g->rbuf_len[ib] = place[p][k].rlen;
      g->sbuf_start[ib] = place[p][k].sstart;
      g->sbuf_len[ib] = place[p][k].slen;
      g->rbuf_from_proc[ib] = from;
      g->sbuf_to_proc[ib] = to;
      g->buf_tag[ib] = 2 * code + p;
      for (int a = 0; a < 4; a++) g->buf_disp[4 * ib + a] = dirs[k].d[a];
      g->master_start[g->local_master_pieces + ib] = place[p][k].rstart;
      g->master_end[g->local_master_pieces + ib] = place[p][k].rstart + place[p][k].rlen - 1;
    }
  }
  /* Copies: spinor (face) ranges of each parity, then gauge-only (edge) ranges. */
  int ncopies = 0;
  for (int gauge = 0; gauge < 2; gauge++)
    for (int p = p0; p <= p1; p++) ncopies += copies[p][gauge].n / 3;
  g->copy_from = xcalloc((size_t)ncopies, sizeof(int));
  g->copy_to = xcalloc((size_t)ncopies, sizeof(int));
  g->copy_len = xcalloc((size_t)ncopies, sizeof(int));
  int ic = 0;
  for (int gauge = 0; gauge < 2; gauge++) {
    for (int p = p0; p <= p1; p++)
      for (int c = 0; c < copies[p][gauge].n / 3; c++, ic++) {
        g->copy_from[ic] = copies[p][gauge].v[3 * c];
        g->copy_to[ic] = copies[p][gauge].v[3 * c + 1];
        g->copy_len[ic] = copies[p][gauge].v[3 * c + 2];
      }
    if (gauge == 0) g->ncopies_spinor = ic;
  }
  g->ncopies_gauge = ic;
  /* Sizes: the spinor blocks of both parities are adjacent, the gauge tails follow. */
  g->master_shift = p0 == 0 ? 0 : spinor_block_end[0];
  g->copy_shift = g->master_shift;
  g->gsize_spinor = spinor_block_end[p1] - g->master_shift;
  g->gsize_gauge = gauge_tail_end[p1] - g->master_shift;
  /* fuse_mask: master sites (inner first), spinor halo, gauge-only halo. */
  int total = 0;
  for (int i = 0; i < npieces; i++) total += g->master_end[i] - g->master_start[i] + 1;
  g->fuse_mask = xcalloc((size_t)total, sizeof(int));
  int n = 0;
  for (int i = 0; i < npieces; i++) {
    for (int ix = g->master_start[i]; ix <= g->master_end[i]; ix++) g->fuse_mask[n++] = ix;
    if (i == g->inner_master_pieces - 1) g->fuse_inner_counter = n;
    if (i == g->local_master_pieces - 1) g->master_sites = n;
    if (i == g->total_spinor_master_pieces - 1) g->fuse_spinor_size = n;
  }
  g->fuse_gauge_size = n;
}

/* ------------------------------------------------------------------ tables */

/* Index of the neighbour of local extended coordinates x one step `step` in direction mu. */
static int neighbour(const int x[4], int mu, int step) {
  int y[4] = {x[0], x[1], x[2], x[3]};
  y[mu] += step;
  if (!HALO_DIR[mu]) y[mu] = (y[mu] + LOC_SIZE[mu]) % LOC_SIZE[mu];
  int pos = ext_pos(y);
  return pos < 0 ? -1 : ext_table[pos];
}

void geometry_layout_free(void) {
  free_descriptor(&glattice);
  free_descriptor(&glat_even);
  free_descriptor(&glat_odd);
  hr_host_free(hr_iup);
  hr_host_free(hr_idn);
  free(hr_ipt);
  free(site_coord);
  free(site_master);
  free(ext_table);
  hr_iup = hr_idn = hr_ipt = site_coord = site_master = ext_table = NULL;
  n_sites = 0;
}

void geometry_layout_build(void) {
  geometry_layout_free();
  list_halo_dirs();
  int ext_volume = 1;
  for (int mu = 0; mu < 4; mu++) {
    ext_lo[mu] = HALO_DIR[mu] ? -1 : 0;
    ext_len[mu] = LOC_SIZE[mu] + (HALO_DIR[mu] ? 2 : 0);
    ext_volume *= ext_len[mu];
  }
  ext_table = xcalloc((size_t)ext_volume, sizeof(int));
  for (int i = 0; i < ext_volume; i++) ext_table[i] = -1;

  /* Spinor blocks: per parity inner, boundary (copies + masters per face), face halos. */
  for (int p = 0; p < 2; p++) {
    inner_piece[p][0] = n_sites;
    layout_inner(p);
    inner_piece[p][1] = n_sites - 1;
    for (int k = 0; k < n_faces; k++) {
      int n_new;
      int first = layout_send_buffer(p, k, &n_new);
      if (n_new > 0) {
        list_push(&groups[p], first);
        list_push(&groups[p], first + n_new - 1);
      }
    }
    for (int k = 0; k < n_faces; k++) layout_recv_buffer(p, k);
    spinor_block_end[p] = n_sites;
  }
  hr_assert(groups[0].n == groups[1].n, "even and odd boundaries differ in their pieces");
  /* Gauge-only tails: per parity the edge send buffers (all copies), then the edge halos. */
  for (int p = 0; p < 2; p++) {
    for (int k = n_faces; k < n_dirs; k++) {
      int n_new;
      layout_send_buffer(p, k, &n_new);
    }
    for (int k = n_faces; k < n_dirs; k++) layout_recv_buffer(p, k);
    gauge_tail_end[p] = n_sites;
  }

  site_coord = coord_list.v;
  site_master = master_list.v;
  coord_list = (int_list){0};
  master_list = (int_list){0};

  build_descriptor(&glattice, 0, 1);
  build_descriptor(&glat_even, 0, 0);
  build_descriptor(&glat_odd, 1, 1);

  /* the neighbour tables are read by every sweep of the Dirac operators: on huge pages */
  hr_iup = hr_host_alloc((size_t)n_sites * 4 * sizeof(int), "the neighbour table (up)");
  hr_idn = hr_host_alloc((size_t)n_sites * 4 * sizeof(int), "the neighbour table (down)");
  for (int ix = 0; ix < n_sites; ix++)
    for (int mu = 0; mu < 4; mu++) {
      hr_iup[4 * ix + mu] = neighbour(site_coord + 4 * ix, mu, +1);
      hr_idn[4 * ix + mu] = neighbour(site_coord + 4 * ix, mu, -1);
    }
  hr_ipt = xcalloc((size_t)VOLUME, sizeof(int));
  int x[4], n = 0;
  for (x[0] = 0; x[0] < LOC_T; x[0]++)
    for (x[1] = 0; x[1] < LOC_X; x[1]++)
      for (x[2] = 0; x[2] < LOC_Y; x[2]++)
        for (x[3] = 0; x[3] < LOC_Z; x[3]++) hr_ipt[n++] = ext_table[ext_pos(x)];

  for (int p = 0; p < 2; p++) {
    list_free(&groups[p]);
    for (int g = 0; g < 2; g++) list_free(&copies[p][g]);
    for (int k = 0; k < n_dirs; k++) list_free(&send_order[p][k]);
  }
}

/* ------------------------------------------------------------------ queries */

int ipt_ext(const int x[4]) {
  int pos = ext_pos(x);
  return pos < 0 ? -1 : ext_table[pos];
}

void local_coordinates(int x[4], int ix) {
  hr_assert(ix >= 0 && ix < n_sites, "index %d outside 0..%d", ix, n_sites - 1);
  for (int mu = 0; mu < 4; mu++) x[mu] = site_coord[4 * ix + mu];
}

void global_coordinates(int g[4], int ix) {
  local_coordinates(g, ix);
  for (int mu = 0; mu < 4; mu++)
    g[mu] = ((ZERO_COORD[mu] + g[mu]) % GLB_SIZE[mu] + GLB_SIZE[mu]) % GLB_SIZE[mu];
}

int site_parity(int ix) {
  int g[4];
  global_coordinates(g, ix);
  return coord_parity(g);
}

int master_index(int ix) {
  hr_assert(ix >= 0 && ix < n_sites, "index %d outside 0..%d", ix, n_sites - 1);
  return site_master[ix];
}

int geometry_total_sites(void) { return n_sites; }

const geometry_descriptor *geometry_of_parity(int parity) {
  switch (parity) {
  case HR_PARITY_EVEN: return &glat_even;
  case HR_PARITY_ODD: return &glat_odd;
  default: return &glattice;
  }
}
