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
#endif
