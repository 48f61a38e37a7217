/* gpt2_model.c - GPT-2 as a chain of the layers in gpt2_layers.c: buffer
 * layouts, the forward pass (mean loss) and its handwritten backward.
 *
 * Parameters and activations each live in one flat float buffer; the layouts
 * below give every tensor's offset. gpt2_forward takes only flat pointers,
 * ints and a config of ints, so that __ad_autodiff can differentiate it with
 * the parameter buffer dup (gradient buffer as shadow), the activation
 * buffer dup (a zeroed buffer of the same layout as shadow), and the rest
 * const (gpt2_ad.c).
 */
#include "gpt2.h"

GPT2_API void gpt2_param_layout(const GPT2Config *cfg,
                                GPT2ParamLayout *layout) {
  size_t maxT = cfg->maxT, Vp = cfg->Vp, L = cfg->L, C = cfg->C;
  size_t sizes[GPT2_NUM_PARAM_TENSORS] = {
      [GPT2_WTE] = Vp * C,
      [GPT2_WPE] = maxT * C,
      [GPT2_LN1W] = L * C,
      [GPT2_LN1B] = L * C,
      [GPT2_QKVW] = L * 3 * C * C,
      [GPT2_QKVB] = L * 3 * C,
      [GPT2_ATTPROJW] = L * C * C,
      [GPT2_ATTPROJB] = L * C,
      [GPT2_LN2W] = L * C,
      [GPT2_LN2B] = L * C,
      [GPT2_FCW] = L * 4 * C * C,
      [GPT2_FCB] = L * 4 * C,
      [GPT2_FCPROJW] = L * C * 4 * C,
      [GPT2_FCPROJB] = L * C,
      [GPT2_LNFW] = C,
      [GPT2_LNFB] = C,
  };
  layout->off[0] = 0;
  for (int i = 0; i < GPT2_NUM_PARAM_TENSORS; i++)
    layout->off[i + 1] = layout->off[i] + sizes[i];
}

GPT2_API void gpt2_act_layout(const GPT2Config *cfg, int B, int T,
                              GPT2ActLayout *layout) {
  size_t L = cfg->L, NH = cfg->NH, C = cfg->C, Vp = cfg->Vp;
  size_t BT = (size_t)B * T;
  size_t sizes[GPT2_NUM_ACT_TENSORS] = {
      [GPT2_ENCODED] = BT * C,
      [GPT2_LN1] = L * BT * C,
      [GPT2_LN1_MEAN] = L * BT,
      [GPT2_LN1_RSTD] = L * BT,
      [GPT2_QKV] = L * BT * 3 * C,
      [GPT2_ATTY] = L * BT * C,
      [GPT2_PREATT] = L * BT * NH * T,
      [GPT2_ATT] = L * BT * NH * T,
      [GPT2_ATTPROJ] = L * BT * C,
      [GPT2_RESIDUAL2] = L * BT * C,
      [GPT2_LN2] = L * BT * C,
      [GPT2_LN2_MEAN] = L * BT,
      [GPT2_LN2_RSTD] = L * BT,
      [GPT2_FCH] = L * BT * 4 * C,
      [GPT2_FCH_GELU] = L * BT * 4 * C,
      [GPT2_FCPROJ] = L * BT * C,
      [GPT2_RESIDUAL3] = L * BT * C,
      [GPT2_LNF] = BT * C,
      [GPT2_LNF_MEAN] = BT,
      [GPT2_LNF_RSTD] = BT,
      [GPT2_LOGITS] = BT * Vp,
      [GPT2_PROBS] = BT * Vp,
      [GPT2_LOSSES] = BT,
  };
  layout->off[0] = 0;
  for (int i = 0; i < GPT2_NUM_ACT_TENSORS; i++)
    layout->off[i + 1] = layout->off[i] + sizes[i];
}

GPT2_API float gpt2_forward(const float *restrict params, float *restrict acts,
                            const int *restrict inputs,
                            const int *restrict targets, int B, int T,
                            const GPT2Config *restrict cfg) {
  int V = cfg->V, Vp = cfg->Vp, L = cfg->L, NH = cfg->NH, C = cfg->C;
  GPT2ParamLayout p;
  GPT2ActLayout a;
  gpt2_param_layout(cfg, &p);
  gpt2_act_layout(cfg, B, T, &a);
  size_t BTC = (size_t)B * T * C, BT = (size_t)B * T;
  size_t NHTT = (size_t)NH * T * T, CC = (size_t)C * C;

  encoder_forward(acts + a.off[GPT2_ENCODED], inputs, params + p.off[GPT2_WTE],
                  params + p.off[GPT2_WPE], B, T, C);
  for (int l = 0; l < L; l++) {
    const float *residual = l == 0
                                ? acts + a.off[GPT2_ENCODED]
                                : acts + a.off[GPT2_RESIDUAL3] + (l - 1) * BTC;
    float *ln1 = acts + a.off[GPT2_LN1] + l * BTC;
    float *ln1_mean = acts + a.off[GPT2_LN1_MEAN] + l * BT;
    float *ln1_rstd = acts + a.off[GPT2_LN1_RSTD] + l * BT;
    float *qkv = acts + a.off[GPT2_QKV] + l * BTC * 3;
    float *atty = acts + a.off[GPT2_ATTY] + l * BTC;
    float *preatt = acts + a.off[GPT2_PREATT] + l * B * NHTT;
    float *att = acts + a.off[GPT2_ATT] + l * B * NHTT;
    float *attproj = acts + a.off[GPT2_ATTPROJ] + l * BTC;
    float *residual2 = acts + a.off[GPT2_RESIDUAL2] + l * BTC;
    float *ln2 = acts + a.off[GPT2_LN2] + l * BTC;
    float *ln2_mean = acts + a.off[GPT2_LN2_MEAN] + l * BT;
    float *ln2_rstd = acts + a.off[GPT2_LN2_RSTD] + l * BT;
    float *fch = acts + a.off[GPT2_FCH] + l * BTC * 4;
    float *fch_gelu = acts + a.off[GPT2_FCH_GELU] + l * BTC * 4;
    float *fcproj = acts + a.off[GPT2_FCPROJ] + l * BTC;
    float *residual3 = acts + a.off[GPT2_RESIDUAL3] + l * BTC;

    layernorm_forward(ln1, ln1_mean, ln1_rstd, residual,
                      params + p.off[GPT2_LN1W] + l * C,
                      params + p.off[GPT2_LN1B] + l * C, B, T, C);
    matmul_forward(qkv, ln1, params + p.off[GPT2_QKVW] + l * 3 * CC,
                   params + p.off[GPT2_QKVB] + l * 3 * C, B, T, C, 3 * C);
    attention_forward(atty, preatt, att, qkv, B, T, C, NH);
    matmul_forward(attproj, atty, params + p.off[GPT2_ATTPROJW] + l * CC,
                   params + p.off[GPT2_ATTPROJB] + l * C, B, T, C, C);
    residual_forward(residual2, residual, attproj, BTC);
    layernorm_forward(ln2, ln2_mean, ln2_rstd, residual2,
                      params + p.off[GPT2_LN2W] + l * C,
                      params + p.off[GPT2_LN2B] + l * C, B, T, C);
    matmul_forward(fch, ln2, params + p.off[GPT2_FCW] + l * 4 * CC,
                   params + p.off[GPT2_FCB] + l * 4 * C, B, T, C, 4 * C);
    gelu_forward(fch_gelu, fch, BTC * 4);
    matmul_forward(fcproj, fch_gelu, params + p.off[GPT2_FCPROJW] + l * 4 * CC,
                   params + p.off[GPT2_FCPROJB] + l * C, B, T, 4 * C, C);
    residual_forward(residual3, residual2, fcproj, BTC);
  }

  const float *residual = acts + a.off[GPT2_RESIDUAL3] + (L - 1) * BTC;
  float *lnf = acts + a.off[GPT2_LNF];
  layernorm_forward(
      lnf, acts + a.off[GPT2_LNF_MEAN], acts + a.off[GPT2_LNF_RSTD], residual,
      params + p.off[GPT2_LNFW], params + p.off[GPT2_LNFB], B, T, C);
  /* Weight tying: the language-model head is wte, without a bias. */
  float *logits = acts + a.off[GPT2_LOGITS];
  matmul_forward_nobias(logits, lnf, params + p.off[GPT2_WTE], B, T, C, Vp);
  float *losses = acts + a.off[GPT2_LOSSES];
  crossentropy_forward(losses, acts + a.off[GPT2_PROBS], logits, targets, B, T,
                       V, Vp);

  float mean_loss = 0.0f;
  for (size_t i = 0; i < BT; i++)
    mean_loss += losses[i];
  return mean_loss / BT;
}

/* The forward pass read bottom-up. Each activation gradient is complete
 * before the layer that produced it is reversed, because grad_acts starts at
 * zero and every layer's backward accumulates into its inputs' gradients. */
GPT2_API void gpt2_backward(const float *restrict params, float *restrict grads,
                            const float *restrict acts,
                            float *restrict grad_acts,
                            const int *restrict inputs,
                            const int *restrict targets, int B, int T,
                            const GPT2Config *restrict cfg) {
  int V = cfg->V, Vp = cfg->Vp, L = cfg->L, NH = cfg->NH, C = cfg->C;
  GPT2ParamLayout p;
  GPT2ActLayout a;
  gpt2_param_layout(cfg, &p);
  gpt2_act_layout(cfg, B, T, &a);
  size_t BTC = (size_t)B * T * C, BT = (size_t)B * T;
  size_t NHTT = (size_t)NH * T * T, CC = (size_t)C * C;
#define ACT(name, l, stride)                                                   \
  (acts + a.off[GPT2_##name] + (size_t)(l) * (stride))
#define DACT(name, l, stride)                                                  \
  (grad_acts + a.off[GPT2_##name] + (size_t)(l) * (stride))
#define PARAM(name, l, stride)                                                 \
  (params + p.off[GPT2_##name] + (size_t)(l) * (stride))
#define DPARAM(name, l, stride)                                                \
  (grads + p.off[GPT2_##name] + (size_t)(l) * (stride))

  /* d(mean loss) / d(loss of one position) */
  float *dlosses = DACT(LOSSES, 0, 0);
  for (size_t i = 0; i < BT; i++)
    dlosses[i] = 1.0f / BT;

  crossentropy_backward(DACT(LOGITS, 0, 0), dlosses, ACT(PROBS, 0, 0), targets,
                        B, T, V, Vp);
  matmul_backward(DACT(LNF, 0, 0), DPARAM(WTE, 0, 0), NULL, DACT(LOGITS, 0, 0),
                  ACT(LNF, 0, 0), PARAM(WTE, 0, 0), B, T, C, Vp);
  layernorm_backward(DACT(RESIDUAL3, L - 1, BTC), DPARAM(LNFW, 0, 0),
                     DPARAM(LNFB, 0, 0), DACT(LNF, 0, 0),
                     ACT(RESIDUAL3, L - 1, BTC), PARAM(LNFW, 0, 0),
                     ACT(LNF_MEAN, 0, 0), ACT(LNF_RSTD, 0, 0), B, T, C);

  for (int l = L - 1; l >= 0; l--) {
    const float *residual =
        l == 0 ? ACT(ENCODED, 0, 0) : ACT(RESIDUAL3, l - 1, BTC);
    float *dresidual =
        l == 0 ? DACT(ENCODED, 0, 0) : DACT(RESIDUAL3, l - 1, BTC);

    residual_backward(DACT(RESIDUAL2, l, BTC), DACT(FCPROJ, l, BTC),
                      DACT(RESIDUAL3, l, BTC), BTC);
    matmul_backward(DACT(FCH_GELU, l, 4 * BTC), DPARAM(FCPROJW, l, 4 * CC),
                    DPARAM(FCPROJB, l, C), DACT(FCPROJ, l, BTC),
                    ACT(FCH_GELU, l, 4 * BTC), PARAM(FCPROJW, l, 4 * CC), B, T,
                    4 * C, C);
    gelu_backward(DACT(FCH, l, 4 * BTC), ACT(FCH, l, 4 * BTC),
                  DACT(FCH_GELU, l, 4 * BTC), 4 * BTC);
    matmul_backward(DACT(LN2, l, BTC), DPARAM(FCW, l, 4 * CC),
                    DPARAM(FCB, l, 4 * C), DACT(FCH, l, 4 * BTC),
                    ACT(LN2, l, BTC), PARAM(FCW, l, 4 * CC), B, T, C, 4 * C);
    layernorm_backward(DACT(RESIDUAL2, l, BTC), DPARAM(LN2W, l, C),
                       DPARAM(LN2B, l, C), DACT(LN2, l, BTC),
                       ACT(RESIDUAL2, l, BTC), PARAM(LN2W, l, C),
                       ACT(LN2_MEAN, l, BT), ACT(LN2_RSTD, l, BT), B, T, C);
    residual_backward(dresidual, DACT(ATTPROJ, l, BTC), DACT(RESIDUAL2, l, BTC),
                      BTC);
    matmul_backward(DACT(ATTY, l, BTC), DPARAM(ATTPROJW, l, CC),
                    DPARAM(ATTPROJB, l, C), DACT(ATTPROJ, l, BTC),
                    ACT(ATTY, l, BTC), PARAM(ATTPROJW, l, CC), B, T, C, C);
    attention_backward(DACT(QKV, l, 3 * BTC), DACT(PREATT, l, B * NHTT),
                       DACT(ATT, l, B * NHTT), DACT(ATTY, l, BTC),
                       ACT(QKV, l, 3 * BTC), ACT(ATT, l, B * NHTT), B, T, C,
                       NH);
    matmul_backward(DACT(LN1, l, BTC), DPARAM(QKVW, l, 3 * CC),
                    DPARAM(QKVB, l, 3 * C), DACT(QKV, l, 3 * BTC),
                    ACT(LN1, l, BTC), PARAM(QKVW, l, 3 * CC), B, T, C, 3 * C);
    layernorm_backward(dresidual, DPARAM(LN1W, l, C), DPARAM(LN1B, l, C),
                       DACT(LN1, l, BTC), residual, PARAM(LN1W, l, C),
                       ACT(LN1_MEAN, l, BT), ACT(LN1_RSTD, l, BT), B, T, C);
  }
  encoder_backward(DPARAM(WTE, 0, 0), DPARAM(WPE, 0, 0), DACT(ENCODED, 0, 0),
                   inputs, B, T, C);
#undef ACT
#undef DACT
#undef PARAM
#undef DPARAM
}
