#include "cavcodec.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>

/* libavcodec's functions as found in the library opened (libavutil's through libavcodec's
 * dependencies, which dlsym searches too). */
static struct {
    __typeof__(&avcodec_find_encoder) find_encoder;
    __typeof__(&avcodec_find_decoder) find_decoder;
    __typeof__(&avcodec_find_decoder_by_name) find_decoder_by_name;
    __typeof__(&av_mallocz) mallocz;
    __typeof__(&avcodec_send_packet) send_packet;
    __typeof__(&avcodec_receive_frame) receive_frame;
    __typeof__(&avcodec_flush_buffers) flush_buffers;
    __typeof__(&av_frame_unref) frame_unref;
    __typeof__(&avcodec_alloc_context3) alloc_context3;
    __typeof__(&avcodec_open2) open2;
    __typeof__(&avcodec_free_context) free_context;
    __typeof__(&avcodec_send_frame) send_frame;
    __typeof__(&avcodec_receive_packet) receive_packet;
    __typeof__(&av_channel_layout_default) channel_layout_default;
    __typeof__(&av_channel_layout_copy) channel_layout_copy;
    __typeof__(&av_frame_alloc) frame_alloc;
    __typeof__(&av_frame_get_buffer) frame_get_buffer;
    __typeof__(&av_frame_free) frame_free;
    __typeof__(&av_frame_make_writable) frame_make_writable;
    __typeof__(&av_packet_alloc) packet_alloc;
    __typeof__(&av_packet_free) packet_free;
    __typeof__(&av_packet_unref) packet_unref;
    __typeof__(&av_log_get_level) log_get_level;
    __typeof__(&av_log_set_level) log_set_level;
} av;
static int loaded;
static char load_error[512];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    static const char name[] = "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR);
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : name);
        return;
    }
    int missing = 0;
#define FIND(field, symbol) \
    if (!(*(void **)&av.field = dlsym(library, #symbol)) && !missing) { \
        missing = 1; \
        snprintf(load_error, sizeof load_error, "%s has no %s", name, #symbol); \
    }
    FIND(find_encoder, avcodec_find_encoder)
    FIND(find_decoder, avcodec_find_decoder)
    FIND(find_decoder_by_name, avcodec_find_decoder_by_name)
    FIND(mallocz, av_mallocz)
    FIND(send_packet, avcodec_send_packet)
    FIND(receive_frame, avcodec_receive_frame)
    FIND(flush_buffers, avcodec_flush_buffers)
    FIND(frame_unref, av_frame_unref)
    FIND(alloc_context3, avcodec_alloc_context3)
    FIND(open2, avcodec_open2)
    FIND(free_context, avcodec_free_context)
    FIND(send_frame, avcodec_send_frame)
    FIND(receive_packet, avcodec_receive_packet)
    FIND(channel_layout_default, av_channel_layout_default)
    FIND(channel_layout_copy, av_channel_layout_copy)
    FIND(frame_alloc, av_frame_alloc)
    FIND(frame_get_buffer, av_frame_get_buffer)
    FIND(frame_free, av_frame_free)
    FIND(frame_make_writable, av_frame_make_writable)
    FIND(packet_alloc, av_packet_alloc)
    FIND(packet_free, av_packet_free)
    FIND(packet_unref, av_packet_unref)
    FIND(log_get_level, av_log_get_level)
    FIND(log_set_level, av_log_set_level)
#undef FIND
    if (missing) {
        dlclose(library);
        return;
    }
    loaded = 1;
}

int cavcodec_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *cavcodec_load_error(void) {
    return cavcodec_load() ? NULL : load_error;
}

void cavcodec_quiet_default_log(void) {
    if (!cavcodec_load()) return;
    if (av.log_get_level() == AV_LOG_INFO) av.log_set_level(AV_LOG_ERROR);
}

void cavcodec_quiet_decoder_log(void) {
    if (!cavcodec_load()) return;
    int level = av.log_get_level();
    if (level == AV_LOG_INFO || level == AV_LOG_ERROR) av.log_set_level(AV_LOG_FATAL);
}

AVCodecContext *cavcodec_open_decoder(const char *name, const uint8_t *extradata, int extradataSize, int channels, int rate) {
    if (!cavcodec_load() || extradataSize < 0) return NULL;
    const AVCodec *codec = av.find_decoder_by_name(name);
    if (!codec) return NULL;
    AVCodecContext *context = av.alloc_context3(codec);
    if (!context) return NULL;
    context->request_sample_fmt = AV_SAMPLE_FMT_FLTP;
    if (channels > 0) av.channel_layout_default(&context->ch_layout, channels);
    if (rate > 0) context->sample_rate = rate;
    if (extradata && extradataSize > 0) {
        /* libavcodec owns extradata (freed with the context) and reads past its end in
         * padding-sized steps: zeroed padding follows the bytes. */
        context->extradata = av.mallocz((size_t)extradataSize + AV_INPUT_BUFFER_PADDING_SIZE);
        if (!context->extradata) {
            av.free_context(&context);
            return NULL;
        }
        memcpy(context->extradata, extradata, (size_t)extradataSize);
        context->extradata_size = extradataSize;
    }
    if (av.open2(context, codec, NULL) < 0) {
        av.free_context(&context);
        return NULL;
    }
    return context;
}

int cavcodec_has_decoder(const char *name) {
    return cavcodec_load() && av.find_decoder_by_name(name) ? 1 : 0;
}

int cavcodec_send_bytes(AVCodecContext *context, AVPacket *packet, const uint8_t *data, int size) {
    if (!cavcodec_load()) return AVERROR(ENOSYS);
    if (!data) return av.send_packet(context, NULL);
    packet->data = (uint8_t *)data;
    packet->size = size;
    int status = av.send_packet(context, packet);
    packet->data = NULL;
    packet->size = 0;
    return status;
}

int cavcodec_receive_frame(AVCodecContext *context, AVFrame *frame) {
    return cavcodec_load() ? av.receive_frame(context, frame) : AVERROR(ENOSYS);
}

void cavcodec_flush_buffers(AVCodecContext *context) {
    if (cavcodec_load()) av.flush_buffers(context);
}

AVFrame *cavcodec_frame_alloc(void) {
    return cavcodec_load() ? av.frame_alloc() : NULL;
}

void cavcodec_frame_unref(AVFrame *frame) {
    if (cavcodec_load()) av.frame_unref(frame);
}

int cavcodec_frame_channel_count(const AVFrame *frame) {
    return frame->ch_layout.nb_channels;
}

uint64_t cavcodec_frame_channel_mask(const AVFrame *frame) {
    return frame->ch_layout.order == AV_CHANNEL_ORDER_NATIVE ? frame->ch_layout.u.mask : 0;
}

AVCodecContext *cavcodec_open_aac(int rate, int channels, int64_t bitRate) {
    if (!cavcodec_load()) return NULL;
    const AVCodec *codec = av.find_encoder(AV_CODEC_ID_AAC);
    if (!codec) return NULL;
    AVCodecContext *context = av.alloc_context3(codec);
    if (!context) return NULL;
    context->sample_fmt = AV_SAMPLE_FMT_FLTP;
    context->sample_rate = rate;
    if (channels == 3) {
        AVChannelLayout surround = AV_CHANNEL_LAYOUT_SURROUND;
        context->ch_layout = surround;
    } else {
        av.channel_layout_default(&context->ch_layout, channels);
    }
    context->bit_rate = bitRate;
    context->profile = FF_PROFILE_AAC_LOW;
    context->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (av.open2(context, codec, NULL) < 0 || context->frame_size != 1024) {
        av.free_context(&context);
        return NULL;
    }
    return context;
}

void cavcodec_free_context(AVCodecContext **context) {
    if (cavcodec_load()) av.free_context(context);
}

int cavcodec_send_frame(AVCodecContext *context, const AVFrame *frame) {
    return cavcodec_load() ? av.send_frame(context, frame) : AVERROR(ENOSYS);
}

int cavcodec_receive_packet(AVCodecContext *context, AVPacket *packet) {
    return cavcodec_load() ? av.receive_packet(context, packet) : AVERROR(ENOSYS);
}

AVFrame *cavcodec_frame(const AVCodecContext *context) {
    if (!cavcodec_load()) return NULL;
    AVFrame *frame = av.frame_alloc();
    if (!frame) return NULL;
    frame->format = context->sample_fmt;
    frame->sample_rate = context->sample_rate;
    frame->nb_samples = 1024;
    if (av.channel_layout_copy(&frame->ch_layout, &context->ch_layout) < 0 || av.frame_get_buffer(frame, 0) < 0) {
        av.frame_free(&frame);
        return NULL;
    }
    return frame;
}

void cavcodec_frame_free(AVFrame **frame) {
    if (cavcodec_load()) av.frame_free(frame);
}

int cavcodec_frame_make_writable(AVFrame *frame) {
    return cavcodec_load() ? av.frame_make_writable(frame) : AVERROR(ENOSYS);
}

AVPacket *cavcodec_packet_alloc(void) {
    return cavcodec_load() ? av.packet_alloc() : NULL;
}

void cavcodec_packet_free(AVPacket **packet) {
    if (cavcodec_load()) av.packet_free(packet);
}

void cavcodec_packet_unref(AVPacket *packet) {
    if (cavcodec_load()) av.packet_unref(packet);
}
