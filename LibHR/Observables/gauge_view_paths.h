/* gauge_view_paths.h -- (internal) clover_leaf_template.h for the suNg links of a gauge_view:
 * the clover-leaf F_mu,nu by its independent parts (gauge_view_antiherm, gauge_view_clover_F,
 * leaves made in place) and gauge_view_antiherm_re_trace_mul. Used by the gauge observables. */
#ifndef GAUGE_VIEW_PATHS_H
#define GAUGE_VIEW_PATHS_H

#include "gauge_view.h"
#include "hr_complex.h"
#include "hr_inline.h"
#include "suN.h"

#define CLT_NAME(x) gauge_view_##x
#define CLT_MAT suNg
#define CLT_DIM NG
#define CLT_M_(op) suNg##op
#define CLT_VIEW gauge_view
#define CLT_LINK(out, v, ix, mu) gauge_view_link(out, v, ix, mu)
#define CLT_LINK_ENTRY(v, ix, mu, k) gauge_view_link_entry(v, ix, mu, k)
#define CLT_UP(v, ix, mu) gauge_view_up(v, ix, mu)
#define CLT_DN(v, ix, mu) gauge_view_dn(v, ix, mu)
#include "clover_leaf_template.h"

#endif
