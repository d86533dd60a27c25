/* Compares two AAC-LC encoders on the same source: libavcodec's native `aac` encoder and
 * VisualOn's libvo-aacenc.
 *
 *   aacbench encode avcodec|vo BITRATE CHANNELS RATE in.f32 out.aac
 *       encodes interleaved little-endian Float32 into ADTS and prints the CPU seconds spent
 *       in the encoder's calls;
 *   aacbench snr CHANNELS source.f32 decoded.f32
 *       finds the lag (0..8192 frames) at which the decode best matches the source, and prints
 *       the lag and the SNR over the source's length in dB.
 */
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vo-aacenc/cmnMemory.h>
#include <vo-aacenc/voAAC.h>

static float *read_floats(const char *path, size_t *count) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    float *data = malloc((size_t)size);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) { fprintf(stderr, "read %s\n", path); exit(1); }
    fclose(f);
    *count = (size_t)size / 4;
    return data;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const int rates[] = {96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350};

/* An ADTS header (ISO/IEC 13818-7, 6.2) for one AAC-LC frame of `payload` bytes. */
static void write_adts(FILE *out, int rate, int channels, int payload) {
    int index = 0;
    while (rates[index] != rate) index++;
    int length = payload + 7;
    unsigned char h[7] = {
        0xFF, 0xF1, (unsigned char)((1 << 6) | (index << 2) | (channels >> 2)),
        (unsigned char)(((channels & 3) << 6) | (length >> 11)), (unsigned char)((length >> 3) & 0xFF),
        (unsigned char)(((length & 7) << 5) | 0x1F), 0xFC};
    fwrite(h, 1, 7, out);
}

static double encode_avcodec(const float *src, size_t frames, int channels, int rate, int bitrate, FILE *out) {
    double spent = 0, t = cpu_seconds();
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_AAC);
    AVCodecContext *ctx = avcodec_alloc_context3(codec);
    ctx->sample_fmt = AV_SAMPLE_FMT_FLTP;
    ctx->sample_rate = rate;
    av_channel_layout_default(&ctx->ch_layout, channels);
    ctx->bit_rate = bitrate;
    if (avcodec_open2(ctx, codec, NULL) < 0) { fprintf(stderr, "avcodec_open2 failed\n"); exit(1); }
    AVFrame *frame = av_frame_alloc();
    AVPacket *pkt = av_packet_alloc();
    spent += cpu_seconds() - t;
    for (size_t start = 0;; start += 1024) {
        t = cpu_seconds();
        int sent;
        if (start < frames) {
            int n = frames - start < 1024 ? (int)(frames - start) : 1024;
            frame->nb_samples = n;
            frame->format = AV_SAMPLE_FMT_FLTP;
            av_channel_layout_copy(&frame->ch_layout, &ctx->ch_layout);
            frame->sample_rate = rate;
            av_frame_get_buffer(frame, 0);
            for (int c = 0; c < channels; c++) {
                float *plane = (float *)frame->extended_data[c];
                for (int i = 0; i < n; i++) plane[i] = src[(start + (size_t)i) * (size_t)channels + (size_t)c];
            }
            sent = avcodec_send_frame(ctx, frame);
            av_frame_unref(frame);
        } else {
            sent = avcodec_send_frame(ctx, NULL);
        }
        if (sent < 0 && sent != AVERROR_EOF) { fprintf(stderr, "send_frame failed\n"); exit(1); }
        int r;
        while ((r = avcodec_receive_packet(ctx, pkt)) == 0) {
            spent += cpu_seconds() - t;
            write_adts(out, rate, channels, pkt->size);
            fwrite(pkt->data, 1, (size_t)pkt->size, out);
            av_packet_unref(pkt);
            t = cpu_seconds();
        }
        spent += cpu_seconds() - t;
        if (r == AVERROR_EOF) break;
    }
    fprintf(stderr, "avcodec initial_padding %d\n", ctx->initial_padding);
    av_packet_free(&pkt);
    av_frame_free(&frame);
    avcodec_free_context(&ctx);
    return spent;
}

static double encode_vo(const float *src, size_t frames, int channels, int rate, int bitrate, FILE *out) {
    double spent = 0, t = cpu_seconds();
    VO_AUDIO_CODECAPI api;
    VO_MEM_OPERATOR mem = {.Alloc = cmnMemAlloc, .Free = cmnMemFree, .Set = cmnMemSet, .Copy = cmnMemCopy, .Check = cmnMemCheck};
    VO_CODEC_INIT_USERDATA user = {.memflag = VO_IMF_USERMEMOPERATOR, .memData = &mem};
    VO_HANDLE handle = NULL;
    voGetAACEncAPI(&api);
    if (api.Init(&handle, VO_AUDIO_CodingAAC, &user) != VO_ERR_NONE) { fprintf(stderr, "vo Init failed\n"); exit(1); }
    AACENC_PARAM param = {rate, bitrate, (short)channels, 1};
    if (api.SetParam(handle, VO_PID_AAC_ENCPARAM, &param) != VO_ERR_NONE) { fprintf(stderr, "vo SetParam failed\n"); exit(1); }
    spent += cpu_seconds() - t;
    size_t block = 1024 * (size_t)channels;
    int16_t *pcm = malloc(block * 2);
    unsigned char outbuf[20480];
    /* One more block of silence than the source has, so the encoder's delay comes out. */
    for (size_t start = 0; start < frames + 2048; start += 1024) {
        for (size_t i = 0; i < block; i++) {
            size_t at = start * (size_t)channels + i;
            float v = at < frames * (size_t)channels ? src[at] * 32768.0f : 0;
            pcm[i] = (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : lrintf(v));
        }
        t = cpu_seconds();
        VO_CODECBUFFER input = {(VO_PBYTE)pcm, (VO_U32)(block * 2), 0};
        api.SetInputData(handle, &input);
        VO_CODECBUFFER output = {outbuf, sizeof outbuf, 0};
        VO_AUDIO_OUTPUTINFO info;
        while (api.GetOutputData(handle, &output, &info) == VO_ERR_NONE) {
            spent += cpu_seconds() - t;
            fwrite(outbuf, 1, output.Length, out);
            output.Length = sizeof outbuf;
            t = cpu_seconds();
        }
        spent += cpu_seconds() - t;
    }
    api.Uninit(handle);
    free(pcm);
    return spent;
}

static int snr(int channels, const char *source, const char *decoded) {
    size_t ns, nd;
    float *s = read_floats(source, &ns), *d = read_floats(decoded, &nd);
    size_t fs = ns / (size_t)channels, fd = nd / (size_t)channels;
    int best = -1;
    double bestError = INFINITY, signal = 0;
    for (size_t i = 0; i < ns; i++) signal += (double)s[i] * s[i];
    /* The lag: the best match over the first 10 seconds' worth of samples at a coarse check. */
    for (int lag = 0; lag <= 8192; lag++) {
        if ((size_t)lag + fs > fd) break;
        double error = 0;
        size_t n = fs < 441000 ? fs : 441000;
        for (size_t i = 0; i < n * (size_t)channels && error < bestError; i++) {
            double e = (double)d[(size_t)lag * (size_t)channels + i] - s[i];
            error += e * e;
        }
        if (error < bestError) { bestError = error; best = lag; }
    }
    if (best < 0) { fprintf(stderr, "decode too short: %zu frames for %zu\n", fd, fs); return 1; }
    double error = 0;
    for (size_t i = 0; i < ns; i++) {
        double e = (double)d[(size_t)best * (size_t)channels + i] - s[i];
        error += e * e;
    }
    printf("lag %d snr %.2f\n", best, 10 * log10(signal / error));
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "snr") == 0) return snr(atoi(argv[2]), argv[3], argv[4]);
    if (argc != 8 || strcmp(argv[1], "encode") != 0) {
        fprintf(stderr, "usage: aacbench encode avcodec|vo BITRATE CHANNELS RATE in.f32 out.aac\n"
                        "       aacbench snr CHANNELS source.f32 decoded.f32\n");
        return 2;
    }
    int bitrate = atoi(argv[3]), channels = atoi(argv[4]), rate = atoi(argv[5]);
    size_t count;
    float *src = read_floats(argv[6], &count);
    FILE *out = fopen(argv[7], "wb");
    if (!out) { perror(argv[7]); return 1; }
    size_t frames = count / (size_t)channels;
    double spent = strcmp(argv[2], "vo") == 0 ? encode_vo(src, frames, channels, rate, bitrate, out)
                                              : encode_avcodec(src, frames, channels, rate, bitrate, out);
    fclose(out);
    printf("encode %.3f s cpu\n", spent);
    free(src);
    return 0;
}
