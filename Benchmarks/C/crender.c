/*
 * crender FILE: plays FILE through an output queue rendered offline, with the C API, as fast as
 * it goes: the guide's callback reading packets with AudioFileReadPacketData, three buffers of
 * 64 KiB, 4096-frame renders into 32-bit float. Prints the frames rendered and a checksum, which
 * must equal swiftrender's (Sources/swiftrender, the same through the Swift API).
 */
#include <AudioToolbox/AudioToolbox.h>

typedef struct {
    AudioFileID file;
    SInt64 packet;
    UInt32 packetsPerBuffer;
    AudioStreamPacketDescription *descriptions;
    int done;
} State;

static void callback(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer) {
    State *s = userData;
    if (s->done) return;
    UInt32 bytes = buffer->mAudioDataBytesCapacity, packets = s->packetsPerBuffer;
    AudioFileReadPacketData(s->file, false, &bytes, s->descriptions, s->packet, &packets, buffer->mAudioData);
    if (packets == 0) {
        s->done = 1;
        AudioQueueStop(queue, false);
        return;
    }
    buffer->mAudioDataByteSize = bytes;
    AudioQueueEnqueueBuffer(queue, buffer, s->descriptions ? packets : 0, s->descriptions);
    s->packet += packets;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: crender FILE\n"); return 2; }
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
    State s = {0};
    if (AudioFileOpenURL(url, kAudioFileReadPermission, 0, &s.file) != noErr) { fprintf(stderr, "cannot open\n"); return 1; }
    CFRelease(url);
    AudioStreamBasicDescription format;
    UInt32 size = sizeof format;
    AudioFileGetProperty(s.file, kAudioFilePropertyDataFormat, &size, &format);
    UInt32 maxPacket = 0;
    size = sizeof maxPacket;
    AudioFileGetProperty(s.file, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacket);
    const UInt32 bufferBytes = 65536;
    s.packetsPerBuffer = bufferBytes / (maxPacket ? maxPacket : 1);
    if (format.mBytesPerPacket == 0) s.descriptions = malloc(s.packetsPerBuffer * sizeof *s.descriptions);
    AudioQueueRef queue;
    if (AudioQueueNewOutput(&format, callback, &s, NULL, NULL, 0, &queue) != noErr) { fprintf(stderr, "no queue\n"); return 1; }
    if (AudioFileGetPropertyInfo(s.file, kAudioFilePropertyMagicCookieData, &size, NULL) == noErr && size > 0) {
        void *cookie = malloc(size);
        AudioFileGetProperty(s.file, kAudioFilePropertyMagicCookieData, &size, cookie);
        AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, cookie, size);
        free(cookie);
    }
    AudioStreamBasicDescription out = {0};
    out.mSampleRate = format.mSampleRate;
    out.mFormatID = kAudioFormatLinearPCM;
    out.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked;
    out.mChannelsPerFrame = format.mChannelsPerFrame;
    out.mBitsPerChannel = 32;
    out.mBytesPerFrame = out.mBytesPerPacket = 4 * format.mChannelsPerFrame;
    out.mFramesPerPacket = 1;
    AudioQueueSetOfflineRenderFormat(queue, &out, NULL);
    for (int i = 0; i < 3; i++) {
        AudioQueueBufferRef buffer;
        AudioQueueAllocateBuffer(queue, bufferBytes, &buffer);
        callback(&s, queue, buffer);
    }
    AudioQueueStart(queue, NULL);
    AudioQueueBufferRef rendered;
    AudioQueueAllocateBuffer(queue, 4096 * out.mBytesPerFrame, &rendered);
    AudioTimeStamp time = {0};
    time.mFlags = kAudioTimeStampSampleTimeValid;
    AudioQueueOfflineRender(queue, &time, rendered, 0);
    long long frames = 0;
    double checksum = 0;
    for (;;) {
        if (AudioQueueOfflineRender(queue, &time, rendered, 4096) != noErr) break;
        UInt32 n = rendered->mAudioDataByteSize / out.mBytesPerFrame;
        const float *samples = rendered->mAudioData;
        for (UInt32 i = 0; i < n * out.mChannelsPerFrame; i += 64) checksum += samples[i];
        frames += n;
        time.mSampleTime += n;
        if (n < 4096) break;
    }
    printf("%lld frames, checksum %.6f\n", frames, checksum);
    AudioQueueDispose(queue, true);
    AudioFileClose(s.file);
    free(s.descriptions);
    return 0;
}
