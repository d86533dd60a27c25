#ifndef CAVCODEC_SHIM_H
#define CAVCODEC_SHIM_H
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>

/* AVERROR(EAGAIN) and AVERROR_EOF are macros Swift does not import. */
static inline int cavcodec_error_again(void) { return AVERROR(EAGAIN); }
static inline int cavcodec_error_eof(void) { return AVERROR_EOF; }

/* Lowers libavutil's log level to errors when it is still the library's default (info), so that
 * encoders do not print their statistics ("Qavg") to standard error; a level the program set
 * itself is kept. */
static inline void cavcodec_quiet_default_log(void) {
    if (av_log_get_level() == AV_LOG_INFO) av_log_set_level(AV_LOG_ERROR);
}

/* Opens libavcodec's native AAC-LC encoder for planar float input at `rate` Hz, `channels`
 * channels (libavcodec's default layout for the count, but 3.0 for three channels, so that the
 * stream has channel configuration 3) and `bitRate` bits per second, with the
 * AudioSpecificConfig in extradata. NULL when the encoder is missing or refuses. */
static inline AVCodecContext *cavcodec_open_aac(int rate, int channels, int64_t bitRate) {
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_AAC);
    if (!codec) return NULL;
    AVCodecContext *context = avcodec_alloc_context3(codec);
    if (!context) return NULL;
    context->sample_fmt = AV_SAMPLE_FMT_FLTP;
    context->sample_rate = rate;
    if (channels == 3) {
        AVChannelLayout surround = AV_CHANNEL_LAYOUT_SURROUND;
        context->ch_layout = surround;
    } else {
        av_channel_layout_default(&context->ch_layout, channels);
    }
    context->bit_rate = bitRate;
    context->profile = FF_PROFILE_AAC_LOW;
    context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (avcodec_open2(context, codec, NULL) < 0 || context->frame_size != 1024) {
        avcodec_free_context(&context);
        return NULL;
    }
    return context;
}

/* A frame of `context`'s format, layout and rate with room for 1024 samples per channel. */
static inline AVFrame *cavcodec_frame(const AVCodecContext *context) {
    AVFrame *frame = av_frame_alloc();
    if (!frame) return NULL;
    frame->format = context->sample_fmt;
    frame->sample_rate = context->sample_rate;
    frame->nb_samples = 1024;
    if (av_channel_layout_copy(&frame->ch_layout, &context->ch_layout) < 0 || av_frame_get_buffer(frame, 0) < 0) {
        av_frame_free(&frame);
        return NULL;
    }
    return frame;
}
#endif
