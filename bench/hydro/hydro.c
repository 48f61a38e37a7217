/* hydro.c - a Lagrangian shock-hydrodynamics run in the style of LULESH.
 *
 * Written for this benchmark after LULESH's published description (a
 * staggered-grid leapfrog scheme: nodal kinematics, then element
 * thermodynamics, then the next time step), not from its source. Each step:
 *
 *   1. forces: each element's pressure plus artificial viscosity acts on its
 *      8 nodes through the gradient of the element's volume, and a viscous
 *      hourglass force damps the non-linear velocity modes; the element's
 *      forces are scattered to the nodes through the connectivity list;
 *   2. nodes: acceleration = force / mass, zeroed normal to the symmetry
 *      planes, then velocity (with a cut-off) and position;
 *   3. elements: new volume from the 8 corners, characteristic length,
 *      volume strain rate, a linear + quadratic artificial viscosity in
 *      compression, and a predictor-corrector energy update with an ideal-gas
 *      equation of state p = (gamma - 1) e / v, with LULESH-style floors and
 *      cut-offs;
 *   4. time step: the minimum over elements of the Courant and the
 *      volume-change constraints, limited in growth.
 *
 * HYDRO_API is empty for the plain build and `static` where hydro_ad.c
 * includes this file to differentiate it.
 */
#include "hydro.h"

#include <math.h>
#include <stdlib.h>

/* Cut-offs and limits (LULESH's values). */
static const double kUCut = 1e-7;   /* velocities below are zero */
static const double kECut = 1e-7;   /* energies below are zero */
static const double kPCut = 1e-7;   /* pressures below are zero */
static const double kQCut = 1e-7;   /* viscosities below are zero */
static const double kVCut = 1e-10;  /* relative volumes this close to 1 are 1 */
static const double kEMin = -1e15;  /* energy floor */
static const double kPMin = 0;      /* pressure floor */
static const double kEosVMax = 1e9; /* no pressure above this expansion */
static const double kRefDens = 1;   /* reference density */
static const double kQLin = 0.5;    /* linear viscosity coefficient */
static const double kQQuad = 2.0 / 3;   /* quadratic viscosity coefficient */
static const double kQQC2 = 64 * 2 * 2; /* Courant: 64 qqc^2, qqc = 2 */
static const double kDvovMax = 0.1;     /* largest volume change per step */
static const double kHourglass = 3.0;   /* hourglass coefficient */
static const double kDtMax = 1e-2;
static const double kDtGrowLow = 1.1;  /* keep dt if it would grow less */
static const double kDtGrowHigh = 1.2; /* never grow dt by more */

typedef struct {
  int s, nnode, nelem, nsymm;
  int *nodelist;              /* 8 node indices per element */
  int *symm;                  /* nodes on x = 0, then y = 0, then z = 0 */
  double *x, *y, *z;          /* node positions */
  double *xd, *yd, *zd;       /* node velocities */
  double *xdd, *ydd, *zdd;    /* node accelerations */
  double *fx, *fy, *fz;       /* node forces */
  double *nmass;              /* node masses */
  double *e, *p, *q;          /* element energy, pressure, viscosity */
  double *v, *volo, *emass;   /* relative volume, reference volume, mass */
  double *vdov, *arealg, *ss; /* strain rate, length, sound speed */
  double gamma;
} Domain;

/* Corner c of the element at (i, j, k): bottom face counter-clockwise, then
 * the top face above it. */
static const int kCorner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                  {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

/* The volume is the mean over the 4 long diagonals of the 6 tetrahedra
 * around each: the mean keeps the cube's symmetries, which one diagonal
 * alone would break. kTet holds them, positively oriented. */
static const int kTet[24][4] = {
    {0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6}, {0, 7, 4, 6}, {0, 4, 5, 6},
    {0, 5, 1, 6}, {1, 2, 3, 7}, {1, 3, 0, 7}, {1, 0, 4, 7}, {1, 4, 5, 7},
    {1, 5, 6, 7}, {1, 6, 2, 7}, {2, 3, 0, 4}, {2, 0, 1, 4}, {2, 1, 5, 4},
    {2, 5, 6, 4}, {2, 6, 7, 4}, {2, 7, 3, 4}, {3, 0, 1, 5}, {3, 1, 2, 5},
    {3, 2, 6, 5}, {3, 6, 7, 5}, {3, 7, 4, 5}, {3, 4, 0, 5}};

/* The 6 faces, each counter-clockwise seen from outside. */
static const int kFace[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

/* Flanagan and Belytschko's hourglass base vectors: orthogonal to the
 * constant and linear fields of the reference cube. */
static const double kGamma[4][8] = {{1, 1, -1, -1, -1, -1, 1, 1},
                                    {1, -1, -1, 1, -1, 1, 1, -1},
                                    {1, -1, 1, -1, 1, -1, 1, -1},
                                    {-1, 1, -1, 1, 1, -1, 1, -1}};

static inline void sub3(const double a[3], const double b[3], double out[3]) {
  out[0] = a[0] - b[0], out[1] = a[1] - b[1], out[2] = a[2] - b[2];
}

static inline void cross3(const double a[3], const double b[3], double out[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static inline double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The element's volume; with grad non-null, also its gradient with respect
 * to each corner (the "B matrix" that turns a pressure into nodal forces). */
static inline double hex_volume(const double X[8][3], double grad[8][3]) {
  double vol = 0;
  if (grad)
    for (int c = 0; c < 8; c++)
      grad[c][0] = grad[c][1] = grad[c][2] = 0;
  for (int t = 0; t < 24; t++) {
    const int *n = kTet[t];
    double u[3], v[3], w[3], vw[3];
    sub3(X[n[1]], X[n[0]], u);
    sub3(X[n[2]], X[n[0]], v);
    sub3(X[n[3]], X[n[0]], w);
    cross3(v, w, vw);
    vol += dot3(u, vw) / 24;
    if (!grad)
      continue;
    double wu[3], uv[3];
    cross3(w, u, wu);
    cross3(u, v, uv);
    for (int d = 0; d < 3; d++) {
      grad[n[1]][d] += vw[d] / 24;
      grad[n[2]][d] += wu[d] / 24;
      grad[n[3]][d] += uv[d] / 24;
      grad[n[0]][d] -= (vw[d] + wu[d] + uv[d]) / 24;
    }
  }
  return vol;
}

/* Volume over the largest face area (a quadrilateral's area is half the
 * cross product of its diagonals). */
static inline double char_length(const double X[8][3], double vol) {
  double largest = 0;
  for (int f = 0; f < 6; f++) {
    const int *n = kFace[f];
    double d1[3], d2[3], c[3];
    sub3(X[n[2]], X[n[0]], d1);
    sub3(X[n[3]], X[n[1]], d2);
    cross3(d1, d2, c);
    double area2 = 0.25 * dot3(c, c);
    if (area2 > largest)
      largest = area2;
  }
  return vol / sqrt(largest);
}

static inline void gather(const Domain *d, const double *ax, const double *ay,
                          const double *az, int elem, double out[8][3]) {
  const int *nodes = &d->nodelist[8 * elem];
  for (int c = 0; c < 8; c++) {
    out[c][0] = ax[nodes[c]];
    out[c][1] = ay[nodes[c]];
    out[c][2] = az[nodes[c]];
  }
}

/* Step 1: pressure, viscosity and hourglass forces, scattered to nodes. */
static void calc_forces(Domain *d) {
  for (int n = 0; n < d->nnode; n++)
    d->fx[n] = d->fy[n] = d->fz[n] = 0;
  for (int k = 0; k < d->nelem; k++) {
    double X[8][3], U[8][3], B[8][3], F[8][3];
    gather(d, d->x, d->y, d->z, k, X);
    gather(d, d->xd, d->yd, d->zd, k, U);
    double vol = hex_volume(X, B);
    double sigma = d->p[k] + d->q[k];
    /* Viscous hourglass damping, scaled as LULESH scales its own. */
    double hg = -kHourglass * 0.01 * d->ss[k] * d->emass[k] / cbrt(vol);
    for (int c = 0; c < 8; c++)
      for (int a = 0; a < 3; a++)
        F[c][a] = sigma * B[c][a];
    for (int m = 0; m < 4; m++) {
      double h[3] = {0, 0, 0};
      for (int c = 0; c < 8; c++)
        for (int a = 0; a < 3; a++)
          h[a] += kGamma[m][c] * U[c][a];
      for (int c = 0; c < 8; c++)
        for (int a = 0; a < 3; a++)
          F[c][a] += hg * kGamma[m][c] * h[a];
    }
    const int *nodes = &d->nodelist[8 * k];
    for (int c = 0; c < 8; c++) {
      d->fx[nodes[c]] += F[c][0];
      d->fy[nodes[c]] += F[c][1];
      d->fz[nodes[c]] += F[c][2];
    }
  }
}

/* Step 2: accelerations, symmetry planes, velocities and positions. */
static void update_nodes(Domain *d, double dt) {
  for (int n = 0; n < d->nnode; n++) {
    d->xdd[n] = d->fx[n] / d->nmass[n];
    d->ydd[n] = d->fy[n] / d->nmass[n];
    d->zdd[n] = d->fz[n] / d->nmass[n];
  }
  int plane = d->nsymm / 3;
  for (int i = 0; i < plane; i++) {
    d->xdd[d->symm[i]] = 0;
    d->ydd[d->symm[plane + i]] = 0;
    d->zdd[d->symm[2 * plane + i]] = 0;
  }
  for (int n = 0; n < d->nnode; n++) {
    double u = d->xd[n] + d->xdd[n] * dt;
    double v = d->yd[n] + d->ydd[n] * dt;
    double w = d->zd[n] + d->zdd[n] * dt;
    if (fabs(u) < kUCut)
      u = 0;
    if (fabs(v) < kUCut)
      v = 0;
    if (fabs(w) < kUCut)
      w = 0;
    d->xd[n] = u, d->yd[n] = v, d->zd[n] = w;
    d->x[n] += u * dt;
    d->y[n] += v * dt;
    d->z[n] += w * dt;
  }
}

/* Ideal gas with LULESH's cut-offs. */
static inline double eos_pressure(double e, double v, double gamma) {
  double p = (gamma - 1) * e / v;
  if (fabs(p) < kPCut)
    p = 0;
  if (v >= kEosVMax)
    p = 0;
  if (p < kPMin)
    p = kPMin;
  return p;
}

/* Step 3 for one element: kinematics, viscosity, energy and pressure. */
static void update_element(Domain *d, int k, double dt) {
  double X[8][3];
  gather(d, d->x, d->y, d->z, k, X);
  double vol = hex_volume(X, 0);
  double length = char_length(X, vol);
  double vnew = vol / d->volo[k];
  if (fabs(vnew - 1) < kVCut)
    vnew = 1;
  double vold = d->v[k];
  double delv = vnew - vold;
  double vdov = delv / (dt * 0.5 * (vnew + vold));

  double qnew = 0;
  if (vdov < 0) {
    double jump = length * vdov; /* velocity jump across the element */
    qnew = kRefDens / vnew * (kQQuad * jump * jump - kQLin * d->ss[k] * jump);
  }
  if (fabs(qnew) < kQCut)
    qnew = 0;

  /* Predictor-corrector: half the work at the old pressure and viscosity,
   * half at the predicted pressure and the new viscosity. */
  double gamma = d->gamma;
  double ehalf = d->e[k] - 0.5 * delv * (d->p[k] + d->q[k]);
  if (ehalf < kEMin)
    ehalf = kEMin;
  double phalf = eos_pressure(ehalf, vnew, gamma);
  double enew = ehalf - 0.5 * delv * (phalf + qnew);
  if (fabs(enew) < kECut)
    enew = 0;
  if (enew < kEMin)
    enew = kEMin;
  double pnew = eos_pressure(enew, vnew, gamma);

  double ssc = gamma * pnew * vnew / kRefDens;
  d->ss[k] = ssc <= 1.111111e-36 ? 3.333333e-18 : sqrt(ssc);
  d->e[k] = enew, d->p[k] = pnew, d->q[k] = qnew;
  d->v[k] = vnew, d->vdov[k] = vdov, d->arealg[k] = length;
}

/* Step 4: the next time step from the Courant and volume-change limits of
 * every element that is deforming. */
static double next_dt(const Domain *d, double dt) {
  double courant = 1e20, hydro = 1e20;
  for (int k = 0; k < d->nelem; k++) {
    double vdov = d->vdov[k];
    if (vdov == 0)
      continue;
    double len = d->arealg[k];
    double speed2 = d->ss[k] * d->ss[k];
    if (vdov < 0)
      speed2 += kQQC2 * len * len * vdov * vdov;
    double dtc = len / sqrt(speed2);
    if (dtc < courant)
      courant = dtc;
    double dth = kDvovMax / (fabs(vdov) + 1e-20);
    if (dth < hydro)
      hydro = dth;
  }
  double limit = courant / 2;
  if (hydro * 2 / 3 < limit)
    limit = hydro * 2 / 3;
  double ratio = limit / dt;
  double newdt = limit;
  if (ratio >= 1) {
    if (ratio < kDtGrowLow)
      newdt = dt;
    else if (ratio > kDtGrowHigh)
      newdt = dt * kDtGrowHigh;
  }
  if (newdt > kDtMax)
    newdt = kDtMax;
  return newdt;
}

static void *checked_malloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p)
    abort();
  return p;
}

static double *new_field(int n) {
  return (double *)checked_malloc(sizeof(double) * (size_t)n);
}

static void domain_alloc(Domain *d, int s) {
  int s1 = s + 1;
  d->s = s, d->nnode = s1 * s1 * s1, d->nelem = s * s * s;
  d->nsymm = 3 * s1 * s1;
  d->nodelist = (int *)checked_malloc(sizeof(int) * 8 * (size_t)d->nelem);
  d->symm = (int *)checked_malloc(sizeof(int) * (size_t)d->nsymm);
  double **node_fields[] = {&d->x,  &d->y,   &d->z,    &d->xd,  &d->yd,
                            &d->zd, &d->xdd, &d->ydd,  &d->zdd, &d->fx,
                            &d->fy, &d->fz,  &d->nmass};
  for (size_t f = 0; f < sizeof node_fields / sizeof *node_fields; f++)
    *node_fields[f] = new_field(d->nnode);
  double **elem_fields[] = {&d->e,     &d->p,    &d->q,      &d->v, &d->volo,
                            &d->emass, &d->vdov, &d->arealg, &d->ss};
  for (size_t f = 0; f < sizeof elem_fields / sizeof *elem_fields; f++)
    *elem_fields[f] = new_field(d->nelem);
}

static void domain_free(Domain *d) {
  double *fields[] = {d->x,     d->y,    d->z,      d->xd, d->yd, d->zd,
                      d->xdd,   d->ydd,  d->zdd,    d->fx, d->fy, d->fz,
                      d->nmass, d->e,    d->p,      d->q,  d->v,  d->volo,
                      d->emass, d->vdov, d->arealg, d->ss};
  for (size_t f = 0; f < sizeof fields / sizeof *fields; f++)
    free(fields[f]);
  free(d->nodelist);
  free(d->symm);
}

/* Connectivity, symmetry planes, and the state at rest. */
static void domain_init(Domain *d, const double *params) {
  int s = d->s, s1 = s + 1, nn = d->nnode;
  for (int k = 0; k < s; k++)
    for (int j = 0; j < s; j++)
      for (int i = 0; i < s; i++) {
        int elem = i + s * (j + s * k);
        for (int c = 0; c < 8; c++)
          d->nodelist[8 * elem + c] =
              (i + kCorner[c][0]) +
              s1 * ((j + kCorner[c][1]) + s1 * (k + kCorner[c][2]));
      }
  int plane = s1 * s1;
  for (int b = 0; b < s1; b++)
    for (int a = 0; a < s1; a++) {
      d->symm[a + s1 * b] = s1 * (a + s1 * b);       /* i = 0 */
      d->symm[plane + a + s1 * b] = a + s1 * s1 * b; /* j = 0 */
      d->symm[2 * plane + a + s1 * b] = a + s1 * b;  /* k = 0 */
    }
  d->gamma = params[1];
  for (int n = 0; n < nn; n++) {
    d->x[n] = params[2 + n];
    d->y[n] = params[2 + nn + n];
    d->z[n] = params[2 + 2 * nn + n];
    d->xd[n] = d->yd[n] = d->zd[n] = 0;
    d->nmass[n] = 0;
  }
  for (int k = 0; k < d->nelem; k++) {
    double X[8][3];
    gather(d, d->x, d->y, d->z, k, X);
    double vol = hex_volume(X, 0);
    d->volo[k] = vol;
    d->emass[k] = kRefDens * vol;
    d->v[k] = 1;
    d->e[k] = d->p[k] = d->q[k] = 0;
    d->vdov[k] = 0;
    d->arealg[k] = char_length(X, vol);
    d->ss[k] = 0;
    const int *nodes = &d->nodelist[8 * k];
    for (int c = 0; c < 8; c++)
      d->nmass[nodes[c]] += d->emass[k] / 8;
  }
  d->e[0] = params[0]; /* the Sedov blast */
}

HYDRO_API double hydro_run(const double *params, int s, int steps) {
  Domain d;
  domain_alloc(&d, s);
  domain_init(&d, params);
  /* LULESH's first step: half the cube root of the blast element's volume
   * over the speed its energy gives. */
  double dt = 0.5 * cbrt(d.volo[0]) / sqrt(2 * params[0]);
  for (int step = 0; step < steps; step++) {
    calc_forces(&d);
    update_nodes(&d, dt);
    for (int k = 0; k < d.nelem; k++)
      update_element(&d, k, dt);
    dt = next_dt(&d, dt);
  }
  double result = d.e[0];
  domain_free(&d);
  return result;
}
