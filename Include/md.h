/* md.h -- molecular dynamics of the HMC: momenta, their kinetic energy, the link update and
 * the convention every force of LibHR follows (Doc/hmc.md).
 *
 * Conventions (any SU(N); generators T^a Hermitian with tr(T^a T^b) = delta^ab / 2):
 *   momenta   P(x,mu) = i p^a(x,mu) T^a, stored as the algebra vector p (suNg_av_field on
 *             glattice); the heatbath draws p^a standard normal (gaussian_momenta,
 *             random_fields.h), i.e. the distribution exp(-K) with
 *   kinetic   K = 1/2 sum_{x,mu,a} p^a(x,mu)^2  (= sum tr(P^+ P));
 *   links     U(x,mu) <- exp(eps P(x,mu)) U(x,mu)  (left multiplication, md_update_links);
 *   force     of an action S: the derivative along that update,
 *               F^a(x,mu) = d/dw S[ exp(i w T^a) U(x,mu) ] at w = 0,
 *             so that the equations of motion dU/dt = P U, dp/dt = -F conserve H = K + S.
 * Every force routine of LibHR takes the momenta and a step and does p^a -= eps F^a
 * ("force update"); with p = 0 and eps = -1 it returns the force itself (the tests' use).
 * Nothing inside a trajectory reunitarises the links: exp(eps P) is in SU(N) to rounding, and
 * a projection would break reversibility. Reunitarisation, when wanted, happens between
 * trajectories (md_reunitarize_links).
 * Implemented in: Update/md.c, Update/md_gpu.c. */
#ifndef MD_H
#define MD_H

#include "fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* K = 1/2 sum p^a p^a over all links of all processes (the reduction policy of LibHR: the
 * same bits for any thread count, process grid and backend). */
double md_kinetic_energy(const suNg_av_field *p);
/* U(x,mu) <- exp(eps P(x,mu)) U(x,mu) on every link of every master site; the links get a
 * new version and their gauge halo is exchanged. Runs where hr_backend_current() says. */
void md_update_links(suNg_field *u, const suNg_av_field *p, double eps);
/* Project every link back to SU(N) (between trajectories only); returns the largest
 * deviation |U^+ U - 1| found before. */
double md_reunitarize_links(suNg_field *u);

#ifdef __cplusplus
}
#endif

#endif
