/* gpt2_verify.c - is each GPT-2 gradient right?
 *
 * Two comparisons, both normwise: err = max|got - want| / max|want| over a
 * buffer, which does not blow up on entries that are zero or tiny.
 *
 *  ad: the plugin's gradient against the handwritten one, at tolerance 1e-5.
 *      Both are float computations of the same derivative, so they differ
 *      only by rounding. The AD call must also leave the primal output a
 *      plain forward call leaves, and reset the output's seed to zero.
 *  fd: the handwritten gradient against central finite differences of the
 *      forward function, at tolerance 2e-2, so that a wrong handwritten
 *      backward cannot make the ad comparison pass by agreeing with a wrong
 *      AD gradient. The forward runs in float, as everywhere else; only the
 *      scalar objective <seed, out> is summed in double, so that its
 *      rounding does not swamp the small differences.
 *
 * A reference buffer that is all zero fails (the comparison would assert
 * nothing), and so does any NaN or infinity.
 */
#include "gpt2_verify.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AD_TOL 1e-5f
#define FD_TOL 2e-2f
#define FD_STEP 1e-2f
/* Finite differences perturb at most this many entries of a layer's input
 * (evenly spaced) and of each parameter tensor of the model. */
#define FD_LAYER_SAMPLES 512
#define FD_MODEL_SAMPLES 24

/* ---- Random numbers: xorshift32, so every run sees the same inputs. ---- */

typedef struct {
  uint32_t state;
} Rng;

static float rng_uniform(Rng *rng, float lo, float hi) {
  uint32_t x = rng->state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  rng->state = x;
  return lo + (hi - lo) * (float)(x >> 8) / 16777216.0f;
}

static int rng_below(Rng *rng, int n) {
  return (int)(rng_uniform(rng, 0.0f, 1.0f) * n) % n;
}

/* ---- Reporting ---- */

static int report(const char *check, const char *layer, const char *buffer,
                  float err, const char *problem, int verbose) {
  /* Verbose output is one report, on stdout; otherwise only failures. */
  if (verbose || problem)
    fprintf(verbose ? stdout : stderr, "%s %-13s %-10s %.3e%s%s\n", check,
            layer, buffer, err, problem ? "  FAIL: " : "",
            problem ? problem : "");
  return problem != NULL;
}

/* Normwise relative error of got against want; returns 1 on failure. */
static int compare(const char *check, const char *layer, const char *buffer,
                   const float *got, const float *want, size_t n, float tol,
                   int verbose) {
  float max_diff = 0.0f, max_want = 0.0f;
  int finite = 1;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(got[i]) || !isfinite(want[i]))
      finite = 0;
    max_diff = fmaxf(max_diff, fabsf(got[i] - want[i]));
    max_want = fmaxf(max_want, fabsf(want[i]));
  }
  float err = max_want > 0.0f ? max_diff / max_want : INFINITY;
  const char *problem = !finite            ? "not finite"
                        : max_want == 0.0f ? "reference is all zero"
                        : err > tol        ? "too large"
                                           : NULL;
  return report(check, layer, buffer, err, problem, verbose);
}

/* The API promises the seed of an overwritten output is zero after the call. */
static int expect_zero(const char *layer, const char *buffer, const float *got,
                       size_t n, int verbose) {
  float max_abs = 0.0f;
  for (size_t i = 0; i < n; i++)
    max_abs = fmaxf(max_abs, isnan(got[i]) ? INFINITY : fabsf(got[i]));
  return report("ad", layer, buffer, max_abs,
                max_abs != 0.0f ? "seed not reset to zero" : NULL, verbose);
}

/* ---- One layer: its buffers and how to run it three ways. ---- */

enum { MAX_INPUTS = 3, MAX_SAVED = 2, MAX_ALLOCS = 32 };

/* A differentiable input, its handwritten gradient and its AD gradient. */
typedef struct {
  const char *name;
  float *x, *d_hw, *d_ad;
  size_t n;
} Input;

typedef struct LayerCase LayerCase;
struct LayerCase {
  const char *name;
  int B, T, C, OC, NH, V, Vp, N;
  int *ids; /* tokens (encoder) or targets (crossentropy) */
  Input in[MAX_INPUTS];
  int nin;
  /* The output whose gradient is given (seed), and its gradient buffer. */
  float *out, *dout, *seed;
  size_t nout;
  /* Activations forward saves for backward, and their gradient buffers. */
  float *saved[MAX_SAVED], *dsaved[MAX_SAVED];
  size_t nsaved[MAX_SAVED];
  int nsav;
  void (*forward)(LayerCase *);
  void (*backward)(LayerCase *); /* handwritten; needs forward's results */
  void (*grad_ad)(LayerCase *);
  void *allocs[MAX_ALLOCS];
  int nallocs;
  Rng *rng;
};

static void *case_alloc(LayerCase *c, size_t bytes) {
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p || c->nallocs == MAX_ALLOCS) {
    fprintf(stderr, "gpt2_verify: out of memory\n");
    exit(2);
  }
  c->allocs[c->nallocs++] = p;
  return p;
}

static float *case_random(LayerCase *c, size_t n, float lo, float hi) {
  float *p = case_alloc(c, n * sizeof(float));
  for (size_t i = 0; i < n; i++)
    p[i] = rng_uniform(c->rng, lo, hi);
  return p;
}

static void add_input(LayerCase *c, const char *name, size_t n, float lo,
                      float hi) {
  Input *in = &c->in[c->nin++];
  in->name = name;
  in->n = n;
  in->x = case_random(c, n, lo, hi);
  in->d_hw = case_alloc(c, n * sizeof(float));
  in->d_ad = case_alloc(c, n * sizeof(float));
}

static void set_output(LayerCase *c, size_t n) {
  c->nout = n;
  c->out = case_alloc(c, n * sizeof(float));
  c->dout = case_alloc(c, n * sizeof(float));
  c->seed = case_random(c, n, -1.0f, 1.0f);
}

static void add_saved(LayerCase *c, size_t n) {
  c->nsaved[c->nsav] = n;
  c->saved[c->nsav] = case_alloc(c, n * sizeof(float));
  c->dsaved[c->nsav] = case_alloc(c, n * sizeof(float));
  c->nsav++;
}

static int *case_ids(LayerCase *c, size_t n, int below) {
  int *ids = case_alloc(c, n * sizeof(int));
  for (size_t i = 0; i < n; i++)
    ids[i] = rng_below(c->rng, below);
  return ids;
}

/* ---- The layers ---- */

#define IN(k) (c->in[k].x)
#define DHW(k) (c->in[k].d_hw)
#define DAD(k) (c->in[k].d_ad)

static void encoder_fwd(LayerCase *c) {
  encoder_forward(c->out, c->ids, IN(0), IN(1), c->B, c->T, c->C);
}
static void encoder_bwd(LayerCase *c) {
  encoder_backward(DHW(0), DHW(1), c->dout, c->ids, c->B, c->T, c->C);
}
static void encoder_ad(LayerCase *c) {
  encoder_grad_ad(c->out, c->dout, c->ids, IN(0), DAD(0), IN(1), DAD(1), c->B,
                  c->T, c->C);
}

static void layernorm_fwd(LayerCase *c) {
  layernorm_forward(c->out, c->saved[0], c->saved[1], IN(0), IN(1), IN(2), c->B,
                    c->T, c->C);
}
static void layernorm_bwd(LayerCase *c) {
  layernorm_backward(DHW(0), DHW(1), DHW(2), c->dout, IN(0), IN(1), c->saved[0],
                     c->saved[1], c->B, c->T, c->C);
}
static void layernorm_ad(LayerCase *c) {
  layernorm_grad_ad(c->out, c->dout, c->saved[0], c->dsaved[0], c->saved[1],
                    c->dsaved[1], IN(0), DAD(0), IN(1), DAD(1), IN(2), DAD(2),
                    c->B, c->T, c->C);
}

static void matmul_fwd(LayerCase *c) {
  matmul_forward(c->out, IN(0), IN(1), IN(2), c->B, c->T, c->C, c->OC);
}
static void matmul_bwd(LayerCase *c) {
  matmul_backward(DHW(0), DHW(1), DHW(2), c->dout, IN(0), IN(1), c->B, c->T,
                  c->C, c->OC);
}
static void matmul_ad(LayerCase *c) {
  matmul_grad_ad(c->out, c->dout, IN(0), DAD(0), IN(1), DAD(1), IN(2), DAD(2),
                 c->B, c->T, c->C, c->OC);
}

static void matmul_nobias_fwd(LayerCase *c) {
  matmul_forward_nobias(c->out, IN(0), IN(1), c->B, c->T, c->C, c->OC);
}
static void matmul_nobias_bwd(LayerCase *c) {
  matmul_backward(DHW(0), DHW(1), NULL, c->dout, IN(0), IN(1), c->B, c->T,
                  c->C, c->OC);
}
static void matmul_nobias_ad(LayerCase *c) {
  matmul_nobias_grad_ad(c->out, c->dout, IN(0), DAD(0), IN(1), DAD(1), c->B,
                        c->T, c->C, c->OC);
}

static void attention_fwd(LayerCase *c) {
  attention_forward(c->out, c->saved[0], c->saved[1], IN(0), c->B, c->T, c->C,
                    c->NH);
}
static void attention_bwd(LayerCase *c) {
  attention_backward(DHW(0), c->dsaved[0], c->dsaved[1], c->dout, IN(0),
                     c->saved[1], c->B, c->T, c->C, c->NH);
}
static void attention_ad(LayerCase *c) {
  attention_grad_ad(c->out, c->dout, c->saved[0], c->dsaved[0], c->saved[1],
                    c->dsaved[1], IN(0), DAD(0), c->B, c->T, c->C, c->NH);
}

static void gelu_fwd(LayerCase *c) { gelu_forward(c->out, IN(0), c->N); }
static void gelu_bwd(LayerCase *c) {
  gelu_backward(DHW(0), IN(0), c->dout, c->N);
}
static void gelu_ad(LayerCase *c) {
  gelu_grad_ad(c->out, c->dout, IN(0), DAD(0), c->N);
}

static void residual_fwd(LayerCase *c) {
  residual_forward(c->out, IN(0), IN(1), c->N);
}
static void residual_bwd(LayerCase *c) {
  residual_backward(DHW(0), DHW(1), c->dout, c->N);
}
static void residual_ad(LayerCase *c) {
  residual_grad_ad(c->out, c->dout, IN(0), DAD(0), IN(1), DAD(1), c->N);
}

static void crossentropy_fwd(LayerCase *c) {
  crossentropy_forward(c->out, c->saved[0], IN(0), c->ids, c->B, c->T, c->V,
                       c->Vp);
}
static void crossentropy_bwd(LayerCase *c) {
  crossentropy_backward(DHW(0), c->dout, c->saved[0], c->ids, c->B, c->T, c->V,
                        c->Vp);
}
static void crossentropy_ad(LayerCase *c) {
  crossentropy_grad_ad(c->out, c->dout, c->saved[0], c->dsaved[0], IN(0),
                       DAD(0), c->ids, c->B, c->T, c->V, c->Vp);
}

#undef IN
#undef DHW
#undef DAD

/* Fills c with layer `which` at the model's sizes; returns 0 past the last. */
static int setup_layer(LayerCase *c, int which, const GPT2Config *cfg, int B,
                       int T) {
  size_t BT = (size_t)B * T, C = cfg->C;
  c->B = B, c->T = T, c->C = cfg->C, c->NH = cfg->NH, c->V = cfg->V,
  c->Vp = cfg->Vp;
  switch (which) {
  case 0:
    c->name = "encoder";
    c->ids = case_ids(c, BT, cfg->V);
    add_input(c, "dwte", (size_t)cfg->Vp * C, -1.0f, 1.0f);
    add_input(c, "dwpe", (size_t)cfg->maxT * C, -1.0f, 1.0f);
    set_output(c, BT * C);
    c->forward = encoder_fwd, c->backward = encoder_bwd,
    c->grad_ad = encoder_ad;
    return 1;
  case 1:
    c->name = "layernorm";
    add_input(c, "dinp", BT * C, -2.0f, 2.0f);
    add_input(c, "dweight", C, 0.5f, 1.5f);
    add_input(c, "dbias", C, -0.5f, 0.5f);
    set_output(c, BT * C);
    add_saved(c, BT); /* mean */
    add_saved(c, BT); /* rstd */
    c->forward = layernorm_fwd, c->backward = layernorm_bwd,
    c->grad_ad = layernorm_ad;
    return 1;
  case 2:
    c->name = "matmul";
    c->OC = 3 * cfg->C;
    add_input(c, "dinp", BT * C, -1.0f, 1.0f);
    add_input(c, "dweight", (size_t)c->OC * C, -0.5f, 0.5f);
    add_input(c, "dbias", c->OC, -0.5f, 0.5f);
    set_output(c, BT * c->OC);
    c->forward = matmul_fwd, c->backward = matmul_bwd, c->grad_ad = matmul_ad;
    return 1;
  case 3:
    c->name = "matmul_nobias";
    c->OC = cfg->Vp;
    add_input(c, "dinp", BT * C, -1.0f, 1.0f);
    add_input(c, "dweight", (size_t)c->OC * C, -0.5f, 0.5f);
    set_output(c, BT * c->OC);
    c->forward = matmul_nobias_fwd, c->backward = matmul_nobias_bwd,
    c->grad_ad = matmul_nobias_ad;
    return 1;
  case 4:
    c->name = "attention";
    add_input(c, "dinp", BT * 3 * C, -1.0f, 1.0f);
    set_output(c, BT * C);
    add_saved(c, BT * cfg->NH * T); /* preatt */
    add_saved(c, BT * cfg->NH * T); /* att */
    c->forward = attention_fwd, c->backward = attention_bwd,
    c->grad_ad = attention_ad;
    return 1;
  case 5:
    c->name = "gelu";
    c->N = (int)(BT * 4 * C);
    add_input(c, "dinp", c->N, -3.0f, 3.0f);
    set_output(c, c->N);
    c->forward = gelu_fwd, c->backward = gelu_bwd, c->grad_ad = gelu_ad;
    return 1;
  case 6:
    c->name = "residual";
    c->N = (int)(BT * C);
    add_input(c, "dinp1", c->N, -1.0f, 1.0f);
    add_input(c, "dinp2", c->N, -1.0f, 1.0f);
    set_output(c, c->N);
    c->forward = residual_fwd, c->backward = residual_bwd,
    c->grad_ad = residual_ad;
    return 1;
  case 7:
    c->name = "crossentropy";
    c->ids = case_ids(c, BT, cfg->V);
    add_input(c, "dlogits", BT * cfg->Vp, -2.0f, 2.0f);
    set_output(c, BT);          /* losses */
    add_saved(c, BT * cfg->Vp); /* probs */
    c->forward = crossentropy_fwd, c->backward = crossentropy_bwd,
    c->grad_ad = crossentropy_ad;
    return 1;
  default:
    return 0;
  }
}

static void zero_floats(float *p, size_t n) { memset(p, 0, n * sizeof(float)); }

/* <seed, out> after a forward call: the scalar whose gradient backward
 * computes when dout = seed. */
static double layer_objective(LayerCase *c) {
  c->forward(c);
  double j = 0.0;
  for (size_t k = 0; k < c->nout; k++)
    j += (double)c->seed[k] * c->out[k];
  return j;
}

/* Central difference of f at x[j] with a step relative to |x[j]|; the step
 * actually taken is what float rounding made of it. */
#define CENTRAL_DIFFERENCE(result, xj, f)                                      \
  do {                                                                         \
    float x0_ = (xj), h_ = FD_STEP * fmaxf(1.0f, fabsf(x0_));                  \
    float xp_ = x0_ + h_, xm_ = x0_ - h_;                                      \
    (xj) = xp_;                                                                \
    double fp_ = (f);                                                          \
    (xj) = xm_;                                                                \
    double fm_ = (f);                                                          \
    (xj) = x0_;                                                                \
    (result) = (float)((fp_ - fm_) / ((double)xp_ - (double)xm_));             \
  } while (0)

static int fd_check_input(LayerCase *c, Input *in, int verbose) {
  size_t stride = (in->n + FD_LAYER_SAMPLES - 1) / FD_LAYER_SAMPLES;
  size_t m = 0, cap = in->n / stride + 1;
  float *fd = malloc(cap * sizeof(float)), *hw = malloc(cap * sizeof(float));
  for (size_t j = 0; j < in->n; j += stride, m++) {
    CENTRAL_DIFFERENCE(fd[m], in->x[j], layer_objective(c));
    hw[m] = in->d_hw[j];
  }
  int failed = compare("fd", c->name, in->name, hw, fd, m, FD_TOL, verbose);
  free(fd);
  free(hw);
  return failed;
}

static int check_layer(LayerCase *c, int finite_differences, int verbose) {
  int failures = 0;
  size_t out_bytes = c->nout * sizeof(float);

  /* Handwritten: forward, then backward from dout = seed. */
  c->forward(c);
  float *out_ref = malloc(out_bytes);
  memcpy(out_ref, c->out, out_bytes);
  memcpy(c->dout, c->seed, out_bytes);
  for (int k = 0; k < c->nsav; k++)
    zero_floats(c->dsaved[k], c->nsaved[k]);
  c->backward(c);

  /* AD: one call from the same seed; NaN in out shows if it is not written. */
  for (size_t k = 0; k < c->nout; k++)
    c->out[k] = NAN;
  memcpy(c->dout, c->seed, out_bytes);
  for (int k = 0; k < c->nsav; k++)
    zero_floats(c->dsaved[k], c->nsaved[k]);
  c->grad_ad(c);

  failures +=
      compare("ad", c->name, "out", c->out, out_ref, c->nout, AD_TOL, verbose);
  failures += expect_zero(c->name, "dout", c->dout, c->nout, verbose);
  for (int k = 0; k < c->nin; k++)
    failures += compare("ad", c->name, c->in[k].name, c->in[k].d_ad,
                        c->in[k].d_hw, c->in[k].n, AD_TOL, verbose);
  if (finite_differences)
    for (int k = 0; k < c->nin; k++)
      failures += fd_check_input(c, &c->in[k], verbose);
  free(out_ref);
  return failures;
}

/* ---- The whole model ---- */

static const char *const param_names[GPT2_NUM_PARAM_TENSORS] = {
    "dwte",      "dwpe",      "dln1w", "dln1b", "dqkvw", "dqkvb",
    "dattprojw", "dattprojb", "dln2w", "dln2b", "dfcw",  "dfcb",
    "dfcprojw",  "dfcprojb",  "dlnfw", "dlnfb"};

/* Weights scaled by 1/sqrt(fan-in) and layer norms near identity keep every
 * activation O(1), where float finite differences are accurate. */
static void init_params(float *params, const GPT2ParamLayout *p,
                        const GPT2Config *cfg, Rng *rng) {
  float w = 1.0f / sqrtf((float)cfg->C), w4 = 0.5f / sqrtf((float)cfg->C);
  for (int t = 0; t < GPT2_NUM_PARAM_TENSORS; t++) {
    float lo = -0.1f, hi = 0.1f;
    if (t == GPT2_LN1W || t == GPT2_LN2W || t == GPT2_LNFW)
      lo = 0.8f, hi = 1.2f;
    else if (t == GPT2_WTE || t == GPT2_WPE)
      lo = -1.0f, hi = 1.0f;
    else if (t == GPT2_QKVW || t == GPT2_ATTPROJW || t == GPT2_FCW)
      lo = -w, hi = w;
    else if (t == GPT2_FCPROJW)
      lo = -w4, hi = w4;
    for (size_t i = p->off[t]; i < p->off[t + 1]; i++)
      params[i] = rng_uniform(rng, lo, hi);
  }
}

typedef struct {
  const GPT2Config *cfg;
  int B, T;
  const float *params;
  float *acts;
  const int *inputs, *targets;
  size_t losses_off;
} ModelRun;

/* The mean loss, summed in double from the per-position losses. */
static double model_objective(const ModelRun *run) {
  gpt2_forward(run->params, run->acts, run->inputs, run->targets, run->B,
               run->T, run->cfg);
  size_t BT = (size_t)run->B * run->T;
  double sum = 0.0;
  for (size_t i = 0; i < BT; i++)
    sum += run->acts[run->losses_off + i];
  return sum / BT;
}

static int fd_check_model(float *params, const float *grads_hw,
                          const GPT2ParamLayout *p, ModelRun *run,
                          int verbose) {
  int failures = 0;
  float fd[FD_MODEL_SAMPLES + 1], hw[FD_MODEL_SAMPLES + 1];
  for (int t = 0; t < GPT2_NUM_PARAM_TENSORS; t++) {
    size_t n = p->off[t + 1] - p->off[t];
    size_t stride = (n + FD_MODEL_SAMPLES - 1) / FD_MODEL_SAMPLES;
    /* Odd offsets within the stride, so the samples are not all column 0. */
    size_t m = 0;
    for (size_t j = (stride / 2) % n; j < n; j += stride, m++) {
      CENTRAL_DIFFERENCE(fd[m], params[p->off[t] + j], model_objective(run));
      hw[m] = grads_hw[p->off[t] + j];
    }
    failures +=
        compare("fd", "model", param_names[t], hw, fd, m, FD_TOL, verbose);
  }
  return failures;
}

static int check_model(const GPT2Config *cfg, int B, int T, Rng *rng,
                       int finite_differences, int verbose) {
  GPT2ParamLayout p;
  GPT2ActLayout a;
  gpt2_param_layout(cfg, &p);
  gpt2_act_layout(cfg, B, T, &a);
  size_t np = p.off[GPT2_NUM_PARAM_TENSORS], na = a.off[GPT2_NUM_ACT_TENSORS];
  size_t BT = (size_t)B * T;

  float *params = malloc(np * sizeof(float));
  float *grads_hw = calloc(np, sizeof(float)),
        *grads_ad = calloc(np, sizeof(float));
  float *acts_hw = calloc(na, sizeof(float)),
        *acts_ad = calloc(na, sizeof(float));
  float *grad_acts_hw = calloc(na, sizeof(float));
  float *grad_acts_ad = calloc(na, sizeof(float));
  int *inputs = malloc(BT * sizeof(int)), *targets = malloc(BT * sizeof(int));
  if (!params || !grads_hw || !grads_ad || !acts_hw || !acts_ad ||
      !grad_acts_hw || !grad_acts_ad || !inputs || !targets) {
    fprintf(stderr, "gpt2_verify: out of memory\n");
    exit(2);
  }
  init_params(params, &p, cfg, rng);
  for (size_t i = 0; i < BT; i++) {
    inputs[i] = rng_below(rng, cfg->V);
    targets[i] = rng_below(rng, cfg->V);
  }

  gpt2_forward(params, acts_hw, inputs, targets, B, T, cfg);
  gpt2_backward(params, grads_hw, acts_hw, grad_acts_hw, inputs, targets, B, T,
                cfg);
  gpt2_grad_ad(params, grads_ad, acts_ad, grad_acts_ad, inputs, targets, B, T,
               cfg);

  int failures = 0;
  failures += compare("ad", "model", "losses", acts_ad + a.off[GPT2_LOSSES],
                      acts_hw + a.off[GPT2_LOSSES], BT, AD_TOL, verbose);
  failures += expect_zero("model", "grad_acts", grad_acts_ad, na, verbose);
  for (int t = 0; t < GPT2_NUM_PARAM_TENSORS; t++)
    failures +=
        compare("ad", "model", param_names[t], grads_ad + p.off[t],
                grads_hw + p.off[t], p.off[t + 1] - p.off[t], AD_TOL, verbose);
  if (finite_differences) {
    ModelRun run = {.cfg = cfg,
                    .B = B,
                    .T = T,
                    .params = params,
                    .acts = acts_hw,
                    .inputs = inputs,
                    .targets = targets,
                    .losses_off = a.off[GPT2_LOSSES]};
    failures += fd_check_model(params, grads_hw, &p, &run, verbose);
  }

  free(params), free(grads_hw), free(grads_ad), free(acts_hw), free(acts_ad);
  free(grad_acts_hw), free(grad_acts_ad), free(inputs), free(targets);
  return failures;
}

int gpt2_verify(const GPT2Config *cfg, int B, int T, int finite_differences,
                int verbose) {
  Rng rng = {0x9e3779b9u};
  int failures = 0;
  for (int which = 0;; which++) {
    LayerCase c;
    memset(&c, 0, sizeof c);
    c.rng = &rng;
    if (!setup_layer(&c, which, cfg, B, T))
      break;
    failures += check_layer(&c, finite_differences, verbose);
    for (int k = 0; k < c.nallocs; k++)
      free(c.allocs[k]);
  }
  failures += check_model(cfg, B, T, &rng, finite_differences, verbose);
  return failures;
}
