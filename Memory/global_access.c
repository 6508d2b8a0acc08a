/* global_access.c -- queued store / add / fetch of field elements at global sites from any
 * process, completed by one collective sync: requests are bucketed by owner rank and sent
 * with two MPI_Alltoallv (requests + payload, then the fetched values back). Without MPI the
 * same code runs with one process. See global_access.h. */
#include "global_access.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "halo_exchange.h"
#include "hr_error.h"

enum { GA_STORE = 0, GA_ADD = 1, GA_FETCH = 2 };

/* One queued request. */
typedef struct {
  long long gsite;
  int op, mu, owner;
  size_t payload; /* offset of the value in a->payload (store/add) */
  void *dest;     /* where a fetched value goes */
} ga_request;

struct hr_global_access {
  hr_ga_target t;
  ga_request *req;
  long nreq, capreq;
  unsigned char *payload;
  size_t npay, cappay;
};

static void *ga_grow(void *p, size_t *cap, size_t need, size_t unit) {
  if (need <= *cap) return p;
  size_t c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  void *q = realloc(p, c * unit);
  if (q == NULL) hr_error_code(HR_EXIT_SETUP, "global access: out of memory (%zu bytes)", c * unit);
  *cap = c;
  return q;
}

hr_global_access *global_access_new(const hr_ga_target *t) {
  hr_global_access *a = calloc(1, sizeof *a);
  if (a == NULL) hr_error_code(HR_EXIT_SETUP, "global access: out of memory");
  a->t = *t;
  if (t->nlinks != 1 && t->nlinks != 4)
    hr_error("global access: nlinks must be 1 or 4, not %d", t->nlinks);
  if (t->real_bytes != 4 && t->real_bytes != 8)
    hr_error("global access: real_bytes must be 4 or 8");
  return a;
}

void global_access_free(hr_global_access *a) {
  if (a == NULL) return;
  free(a->req);
  free(a->payload);
  free(a);
}

long long ga_site_index(const int g[4]) {
  long long s = 0;
  for (int mu = 0; mu < 4; mu++) {
    const int x = ((g[mu] % GLB_SIZE[mu]) + GLB_SIZE[mu]) % GLB_SIZE[mu];
    s = s * GLB_SIZE[mu] + x;
  }
  return s;
}

void ga_site_coordinates(int g[4], long long gsite) {
  for (int mu = 3; mu >= 0; mu--) {
    g[mu] = (int)(gsite % GLB_SIZE[mu]);
    gsite /= GLB_SIZE[mu];
  }
}

int ga_site_owner(long long gsite) {
  int g[4], r = 0;
  ga_site_coordinates(g, gsite);
  for (int mu = 0; mu < 4; mu++) r = r * NP_SIZE[mu] + g[mu] / LOC_SIZE[mu];
  return r;
}

int ga_site_is_local(long long gsite) { return ga_site_owner(gsite) == CART_RANK; }

int ga_site_local_index(long long gsite) {
  if (gsite < 0 || gsite >= GLB_VOLUME || !ga_site_is_local(gsite)) return -1;
  int g[4];
  ga_site_coordinates(g, gsite);
  return ipt(g[0] - ZERO_COORD[0], g[1] - ZERO_COORD[1], g[2] - ZERO_COORD[2],
             g[3] - ZERO_COORD[3]);
}

static void ga_check(const hr_global_access *a, long long gsite, int mu) {
  if (gsite < 0 || gsite >= GLB_VOLUME)
    hr_error("global access: site %lld outside the lattice (0..%lld)", gsite,
             GLB_VOLUME - 1);
  if (mu < 0 || mu >= a->t.nlinks)
    hr_error("global access: direction %d of a field with %d element(s) per site",
             mu, a->t.nlinks);
  if (a->t.g->parity != HR_PARITY_BOTH) {
    int g[4];
    ga_site_coordinates(g, gsite);
    if ((g[0] + g[1] + g[2] + g[3]) % 2 != a->t.g->parity)
      hr_error("global access: site %lld has not the parity of the field", gsite);
  }
}

static ga_request *ga_push(hr_global_access *a, long long gsite, int mu, int op) {
  ga_check(a, gsite, mu);
  size_t cap = (size_t)a->capreq;
  a->req = ga_grow(a->req, &cap, (size_t)a->nreq + 1, sizeof(ga_request));
  a->capreq = (long)cap;
  ga_request *r = &a->req[a->nreq++];
  r->gsite = gsite;
  r->mu = mu;
  r->op = op;
  r->owner = ga_site_owner(gsite);
  r->dest = NULL;
  r->payload = 0;
  return r;
}

static void ga_push_value(hr_global_access *a, ga_request *r, const void *value) {
  a->payload = ga_grow(a->payload, &a->cappay, a->npay + a->t.elem_bytes, 1);
  memcpy(a->payload + a->npay, value, a->t.elem_bytes);
  r->payload = a->npay;
  a->npay += a->t.elem_bytes;
}

void global_store(hr_global_access *a, long long gsite, int mu, const void *value) {
  ga_push_value(a, ga_push(a, gsite, mu, GA_STORE), value);
}

void global_add(hr_global_access *a, long long gsite, int mu, const void *value) {
  ga_push_value(a, ga_push(a, gsite, mu, GA_ADD), value);
}

void global_fetch(void *dest, hr_global_access *a, long long gsite, int mu) {
  ga_push(a, gsite, mu, GA_FETCH)->dest = dest;
}

void global_fetch_many(void *dest, hr_global_access *a, long n, const long long *gsites,
                       const int *mus) {
  for (long i = 0; i < n; i++)
    global_fetch((unsigned char *)dest + (size_t)i * a->t.elem_bytes, a, gsites[i],
                 mus ? mus[i] : 0);
}

long global_access_pending(const hr_global_access *a) { return a->nreq; }

/* Address of element (ix, mu) of the target. */
static unsigned char *ga_elem(const hr_global_access *a, int ix, int mu) {
  return (unsigned char *)a->t.field +
         ((size_t)(ix - a->t.g->master_shift) * a->t.nlinks + mu) * a->t.elem_bytes;
}

static void ga_add_values(const hr_global_access *a, unsigned char *to, const unsigned char *v) {
  if (a->t.real_bytes == 8) {
    double *d = (double *)to;
    const double *s = (const double *)v;
    for (size_t k = 0; k < a->t.elem_bytes / 8; k++) d[k] += s[k];
  } else {
    float *d = (float *)to;
    const float *s = (const float *)v;
    for (size_t k = 0; k < a->t.elem_bytes / 4; k++) d[k] += s[k];
  }
}

/* Exchange of variable-size byte blocks between all processes (plain copy without MPI). */
static void ga_alltoallv(const void *sbuf, const int *scount, const int *sdisp, void *rbuf,
                         const int *rcount, const int *rdisp) {
#if HR_WITH_MPI
  MPI_Alltoallv(sbuf, scount, sdisp, MPI_BYTE, rbuf, rcount, rdisp, MPI_BYTE, hr_cart_comm);
#else
  if (scount[0] > 0) memcpy((char *)rbuf + rdisp[0], (const char *)sbuf + sdisp[0], (size_t)scount[0]);
  (void)rcount;
#endif
}

/* Wire format of one request: op + 4 mu, global site; payload after all headers. */
typedef struct {
  long long code, gsite;
} ga_wire;

void global_access_sync(hr_global_access *a) {
  const int np = NP_SIZE[0] * NP_SIZE[1] * NP_SIZE[2] * NP_SIZE[3];
  const size_t eb = a->t.elem_bytes;
  int *cnt = calloc((size_t)np * 8, sizeof(int));
  if (cnt == NULL) hr_error_code(HR_EXIT_SETUP, "global access: out of memory");
  int *scnt = cnt, *sdsp = cnt + np, *rcnt = cnt + 2 * np, *rdsp = cnt + 3 * np;
  int *nwr_s = cnt + 4 * np, *nwr_r = cnt + 5 * np; /* stores/adds per partner */
  int *nf_s = cnt + 6 * np, *nf_r = cnt + 7 * np;   /* fetches per partner */
  /* order: requests sorted by owner (stable), so each partner gets one block */
  long *order = malloc(sizeof(long) * (size_t)(a->nreq + 1));
  int *start = calloc((size_t)np + 1, sizeof(int));
  if (order == NULL || start == NULL) hr_error_code(HR_EXIT_SETUP, "global access: out of memory");
  for (long i = 0; i < a->nreq; i++) {
    start[a->req[i].owner + 1]++;
    if (a->req[i].op == GA_FETCH)
      nf_s[a->req[i].owner]++;
    else
      nwr_s[a->req[i].owner]++;
  }
  for (int r = 0; r < np; r++) start[r + 1] += start[r];
  {
    int *pos = malloc(sizeof(int) * (size_t)np);
    memcpy(pos, start, sizeof(int) * (size_t)np);
    for (long i = 0; i < a->nreq; i++) order[pos[a->req[i].owner]++] = i;
    free(pos);
  }
  /* counts of both kinds to every partner */
  {
    int *both_s = calloc(2 * (size_t)np, sizeof(int)), *both_r = calloc(2 * (size_t)np, sizeof(int));
    if (both_s == NULL || both_r == NULL) hr_error_code(HR_EXIT_SETUP, "global access: out of memory");
    for (int r = 0; r < np; r++) {
      both_s[2 * r] = nwr_s[r];
      both_s[2 * r + 1] = nf_s[r];
    }
#if HR_WITH_MPI
    MPI_Alltoall(both_s, 2, MPI_INT, both_r, 2, MPI_INT, hr_cart_comm);
#else
    memcpy(both_r, both_s, sizeof(int) * 2);
#endif
    for (int r = 0; r < np; r++) {
      nwr_r[r] = both_r[2 * r];
      nf_r[r] = both_r[2 * r + 1];
    }
    free(both_s);
    free(both_r);
  }
  /* send block to r: headers of its requests (writes then fetches, as queued), then payload */
  size_t stot = 0, rtot = 0;
  for (int r = 0; r < np; r++) {
    scnt[r] = (int)((size_t)(nwr_s[r] + nf_s[r]) * sizeof(ga_wire) + (size_t)nwr_s[r] * eb);
    rcnt[r] = (int)((size_t)(nwr_r[r] + nf_r[r]) * sizeof(ga_wire) + (size_t)nwr_r[r] * eb);
    sdsp[r] = (int)stot;
    rdsp[r] = (int)rtot;
    stot += (size_t)scnt[r];
    rtot += (size_t)rcnt[r];
  }
  unsigned char *sbuf = malloc(stot + 1), *rbuf = malloc(rtot + 1);
  if (sbuf == NULL || rbuf == NULL) hr_error_code(HR_EXIT_SETUP, "global access: out of memory");
  for (int r = 0; r < np; r++) {
    ga_wire *w = (ga_wire *)(sbuf + sdsp[r]);
    unsigned char *pay = sbuf + sdsp[r] + (size_t)(nwr_s[r] + nf_s[r]) * sizeof(ga_wire);
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
      for (int j = start[r]; j < start[r + 1]; j++) {
        const ga_request *q = &a->req[order[j]];
        if ((q->op == GA_FETCH) != pass) continue;
        w[k].code = q->op * 4 + q->mu;
        w[k].gsite = q->gsite;
        if (q->op != GA_FETCH) memcpy(pay + (size_t)k * eb, a->payload + q->payload, eb);
        k++;
      }
  }
  ga_alltoallv(sbuf, scnt, sdsp, rbuf, rcnt, rdsp);

  /* any writes anywhere? then every process renews its version and refreshes the halo */
  int any[2] = {0, 0};
  for (int r = 0; r < np; r++) {
    any[0] += nwr_r[r];
    any[1] += nf_r[r];
  }
  int anyw = any[0] > 0;
#if HR_WITH_MPI
  MPI_Allreduce(MPI_IN_PLACE, &anyw, 1, MPI_INT, MPI_MAX, hr_cart_comm);
#endif
  if (anyw) {
    if (a->t.before_write) a->t.before_write(a->t.ctx);
  } else if (any[1] > 0 && a->t.before_read) {
    a->t.before_read(a->t.ctx);
  }
  /* apply stores, then adds, partner by partner */
  for (int pass = 0; pass < 2; pass++)
    for (int r = 0; r < np; r++) {
      const ga_wire *w = (const ga_wire *)(rbuf + rdsp[r]);
      const unsigned char *pay = rbuf + rdsp[r] + (size_t)(nwr_r[r] + nf_r[r]) * sizeof(ga_wire);
      for (int k = 0; k < nwr_r[r]; k++) {
        const int op = (int)(w[k].code / 4), mu = (int)(w[k].code % 4);
        if (op != (pass == 0 ? GA_STORE : GA_ADD)) continue;
        const int ix = ga_site_local_index(w[k].gsite);
        if (ix < 0) hr_error("global access: site %lld sent to the wrong process", w[k].gsite);
        if (op == GA_STORE)
          memcpy(ga_elem(a, ix, mu), pay + (size_t)k * eb, eb);
        else
          ga_add_values(a, ga_elem(a, ix, mu), pay + (size_t)k * eb);
      }
    }
  if (anyw) sendrecv_field(a->t.g, a->t.layout, a->t.field, eb * (size_t)a->t.nlinks);

  /* answer the fetches: values in the order the partner sent its fetches */
  size_t atot = 0, btot = 0;
  for (int r = 0; r < np; r++) {
    atot += (size_t)nf_r[r] * eb;
    btot += (size_t)nf_s[r] * eb;
  }
  unsigned char *abuf = malloc(atot + 1), *bbuf = malloc(btot + 1);
  if (abuf == NULL || bbuf == NULL) hr_error_code(HR_EXIT_SETUP, "global access: out of memory");
  {
    size_t o = 0;
    for (int r = 0; r < np; r++) {
      const ga_wire *w = (const ga_wire *)(rbuf + rdsp[r]) + nwr_r[r];
      for (int k = 0; k < nf_r[r]; k++) {
        const int ix = ga_site_local_index(w[k].gsite);
        if (ix < 0) hr_error("global access: site %lld sent to the wrong process", w[k].gsite);
        memcpy(abuf + o, ga_elem(a, ix, (int)(w[k].code % 4)), eb);
        o += eb;
      }
    }
    size_t oa = 0, ob = 0;
    for (int r = 0; r < np; r++) {
      scnt[r] = (int)((size_t)nf_r[r] * eb);
      sdsp[r] = (int)oa;
      oa += (size_t)scnt[r];
      rcnt[r] = (int)((size_t)nf_s[r] * eb);
      rdsp[r] = (int)ob;
      ob += (size_t)rcnt[r];
    }
  }
  ga_alltoallv(abuf, scnt, sdsp, bbuf, rcnt, rdsp);
  for (int r = 0; r < np; r++) {
    int k = 0;
    for (int j = start[r]; j < start[r + 1]; j++) {
      const ga_request *q = &a->req[order[j]];
      if (q->op != GA_FETCH) continue;
      memcpy(q->dest, bbuf + rdsp[r] + (size_t)k * eb, eb);
      k++;
    }
  }
  free(abuf);
  free(bbuf);
  free(sbuf);
  free(rbuf);
  free(order);
  free(start);
  free(cnt);
  a->nreq = 0;
  a->npay = 0;
}
