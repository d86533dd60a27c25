/*
 * A stream whose data format changes (MP3 files of other rates joined end to end) through the
 * C API, run by StreamAPITests.swift:
 *   stream_format_change FILE PIECE   parses FILE in PIECE-byte pieces and prints, for each
 *                                     kAudioFileStreamProperty_ReadyToProducePackets, a line
 *                                     "format RATE CHANNELS PACKETS" with the data format read in
 *                                     the listener and the packets delivered under it, then
 *                                     "total PACKETS" and "order" with the properties as announced.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    double rate[16];
    UInt32 channels[16];
    long packets[16];
    int formats;
    long total;
    char order[256];
    int orderLength;
    int failed;
} Log;

static void onProperty(void *ud, AudioFileStreamID stream, AudioFileStreamPropertyID id, AudioFileStreamPropertyFlags *flags) {
    Log *log = ud;
    (void)flags;
    if (log->orderLength < 250) {
        for (int shift = 24; shift >= 0; shift -= 8) log->order[log->orderLength++] = (char)((id >> shift) & 0xFF);
        log->order[log->orderLength++] = ' ';
    }
    if (id == kAudioFileStreamProperty_ReadyToProducePackets && log->formats < 16) {
        AudioStreamBasicDescription f;
        UInt32 size = sizeof f;
        if (AudioFileStreamGetProperty(stream, kAudioFileStreamProperty_DataFormat, &size, &f) != noErr) log->failed = 1;
        log->rate[log->formats] = f.mSampleRate;
        log->channels[log->formats] = f.mChannelsPerFrame;
        log->packets[log->formats] = 0;
        log->formats++;
    }
}

static void onPackets(void *ud, UInt32 bytes, UInt32 packets, const void *data, AudioStreamPacketDescription *descriptions) {
    Log *log = ud;
    (void)bytes;
    (void)data;
    if (descriptions == NULL || log->formats == 0) log->failed = 1;
    if (log->formats > 0) log->packets[log->formats - 1] += packets;
    log->total += packets;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    FILE *file = fopen(argv[1], "rb");
    if (!file) return 2;
    long piece = atol(argv[2]);
    unsigned char *buffer = malloc((size_t)piece);
    Log log = {0};
    AudioFileStreamID stream = NULL;
    if (AudioFileStreamOpen(&log, onProperty, onPackets, 0, &stream) != noErr) return 1;
    size_t n;
    while ((n = fread(buffer, 1, (size_t)piece, file)) > 0) {
        OSStatus status = AudioFileStreamParseBytes(stream, (UInt32)n, buffer, 0);
        if (status != noErr) {
            printf("parse failed: %d\n", (int)status);
            return 1;
        }
    }
    if (AudioFileStreamParseBytes(stream, 0, NULL, 0) != noErr) return 1;
    AudioFileStreamClose(stream);
    fclose(file);
    free(buffer);
    for (int i = 0; i < log.formats; i++) printf("format %.0f %u %ld\n", log.rate[i], (unsigned)log.channels[i], log.packets[i]);
    printf("total %ld\norder %.*s\n", log.total, log.orderLength, log.order);
    return log.failed;
}
