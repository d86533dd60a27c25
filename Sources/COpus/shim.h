#ifndef COPUS_SHIM_H
#define COPUS_SHIM_H
#include <opus.h>
#include <opus_multistream.h>

/* The decoder controls are variadic macros, which Swift cannot call: one function each. */
static inline int copus_ms_set_gain(OpusMSDecoder *decoder, opus_int32 gain) {
    return opus_multistream_decoder_ctl(decoder, OPUS_SET_GAIN(gain));
}

static inline int copus_ms_reset(OpusMSDecoder *decoder) {
    return opus_multistream_decoder_ctl(decoder, OPUS_RESET_STATE);
}

/* The encoder controls, likewise. */
static inline int copus_mse_set_bitrate(OpusMSEncoder *encoder, opus_int32 bitrate) {
    return opus_multistream_encoder_ctl(encoder, OPUS_SET_BITRATE(bitrate));
}

static inline int copus_mse_set_complexity(OpusMSEncoder *encoder, opus_int32 complexity) {
    return opus_multistream_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(complexity));
}

static inline int copus_mse_set_vbr(OpusMSEncoder *encoder, opus_int32 vbr, opus_int32 constrained) {
    int rc = opus_multistream_encoder_ctl(encoder, OPUS_SET_VBR(vbr));
    if (rc != OPUS_OK) return rc;
    return opus_multistream_encoder_ctl(encoder, OPUS_SET_VBR_CONSTRAINT(constrained));
}

static inline int copus_mse_get_lookahead(OpusMSEncoder *encoder, opus_int32 *lookahead) {
    return opus_multistream_encoder_ctl(encoder, OPUS_GET_LOOKAHEAD(lookahead));
}

static inline int copus_mse_reset(OpusMSEncoder *encoder) {
    return opus_multistream_encoder_ctl(encoder, OPUS_RESET_STATE);
}
#endif
