/*
 * media_output.c — an audio output module in the style of the macOS back-ends of C media and
 * streaming libraries: it enumerates output devices through the HAL (scope Output, element
 * wildcard), finds the one whose UID it was given (or takes the default), makes an output
 * queue with no run loop, moves it to that device by UID, sets a channel bitmap layout, and
 * then pushes PCM into a ring of queue buffers marked in use with atomics, starting the queue
 * once enough is queued and waiting for the buffers to drain at the end.
 *
 *   media_output --list                 one line per output device: UID, tab, name, tab, channels
 *   media_output UID|default RAW RATE   plays RAW (interleaved 16-bit little-endian stereo)
 */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudio/CoreAudio.h>
#include <stdatomic.h>
#include <unistd.h>

#define AUDIO_BUFS 16
#define AUDIO_HW_ERROR(e) ((e) != kAudioHardwareNoError)
#define AUDIO_SV_ERROR(e) ((e) != kAudioServicesNoError)

typedef struct Output {
    AudioQueueRef q;
    AudioQueueBufferRef buf[AUDIO_BUFS];
    atomic_int in_use[AUDIO_BUFS];
    bool playing;
    UInt32 buffer_size;
} Output;

static void queue_callback(void *opaque, AudioQueueRef q, AudioQueueBufferRef buf) {
    Output *ctx = (Output *)opaque;
    (void)q;
    atomic_store(&ctx->in_use[(uintptr_t)buf->mUserData], 0);
    buf->mAudioDataByteSize = 0;
}

static char *copy_cstring(CFStringRef s) {
    CFIndex size = CFStringGetMaximumSizeForEncoding(CFStringGetLength(s), kCFStringEncodingUTF8) + 1;
    char *text = (char *)calloc(1, (size_t)size);
    if (!CFStringGetCString(s, text, size, kCFStringEncodingUTF8)) {
        free(text);
        return NULL;
    }
    return text;
}

static OSStatus device_string(AudioObjectID device, AudioObjectPropertySelector selector, char **out, CFStringRef *out_cf) {
    AudioObjectPropertyAddress addr = {selector, kAudioObjectPropertyScopeOutput, kAudioObjectPropertyElementWildcard};
    CFStringRef value = NULL;
    UInt32 size = sizeof(CFStringRef);
    OSStatus e = AudioObjectGetPropertyData(device, &addr, 0, NULL, &size, &value);
    if (AUDIO_HW_ERROR(e)) return e;
    *out = copy_cstring(value);
    if (out_cf) *out_cf = value;
    else CFRelease(value);
    return *out ? kAudioHardwareNoError : kAudioHardwareBadDeviceError;
}

static UInt32 output_channels(AudioObjectID device) {
    AudioObjectPropertyAddress addr = {kAudioDevicePropertyStreamConfiguration, kAudioObjectPropertyScopeOutput,
                                       kAudioObjectPropertyElementMaster};
    UInt32 size = 0;
    if (AudioObjectGetPropertyDataSize(device, &addr, 0, NULL, &size) != noErr || size == 0) return 0;
    AudioBufferList *list = (AudioBufferList *)malloc(size);
    UInt32 channels = 0;
    if (AudioObjectGetPropertyData(device, &addr, 0, NULL, &size, list) == noErr) {
        for (UInt32 i = 0; i < list->mNumberBuffers; i++) channels += list->mBuffers[i].mNumberChannels;
    }
    free(list);
    return channels;
}

static AudioObjectID *devices(bool default_only, UInt32 *count) {
    AudioObjectPropertyAddress addr = {default_only ? kAudioHardwarePropertyDefaultOutputDevice : kAudioHardwarePropertyDevices,
                                       kAudioObjectPropertyScopeOutput, kAudioObjectPropertyElementWildcard};
    UInt32 size = 0;
    *count = 0;
    if (AUDIO_HW_ERROR(AudioObjectGetPropertyDataSize(kAudioObjectSystemObject, &addr, 0, NULL, &size)) || size == 0) return NULL;
    AudioObjectID *ids = (AudioObjectID *)calloc(1, size);
    if (AUDIO_HW_ERROR(AudioObjectGetPropertyData(kAudioObjectSystemObject, &addr, 0, NULL, &size, ids))) {
        free(ids);
        return NULL;
    }
    *count = size / sizeof(AudioObjectID);
    return ids;
}

static OSStatus create(Output *ctx, const char *uid, Float64 rate) {
    UInt32 n = 0;
    bool default_dev = strcmp(uid, "default") == 0;
    AudioObjectID *ids = devices(default_dev, &n);
    CFStringRef selected_uid = NULL;
    bool found = false;
    OSStatus e = kAudioHardwareNoError;
    if (!ids) return kAudioHardwareBadDeviceError;
    if (default_dev) {
        found = n == 1;
    } else {
        for (UInt32 i = 0; !found && i < n; i++) {
            char *text = NULL;
            CFStringRef text_cf = NULL;
            if (AUDIO_HW_ERROR(device_string(ids[i], kAudioDevicePropertyDeviceUID, &text, &text_cf))) continue;
            if (strcmp(text, uid) == 0) {
                found = true;
                selected_uid = text_cf;
            } else {
                CFRelease(text_cf);
            }
            free(text);
        }
    }
    free(ids);
    if (!found) return kAudioHardwareBadDeviceError;

    AudioStreamBasicDescription format = {0};
    format.mSampleRate = rate;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    format.mFramesPerPacket = 1;
    format.mChannelsPerFrame = 2;
    format.mBitsPerChannel = 16;
    format.mBytesPerPacket = 4;
    format.mBytesPerFrame = 4;
    e = AudioQueueNewOutput(&format, queue_callback, ctx, NULL, NULL, 0, &ctx->q);
    if (AUDIO_SV_ERROR(e)) goto except;
    if (selected_uid) {
        e = AudioQueueSetProperty(ctx->q, kAudioQueueProperty_CurrentDevice, (const void *)&selected_uid, sizeof(CFStringRef));
        if (AUDIO_SV_ERROR(e)) goto except;
    }
    {
        AudioChannelLayout layout;
        memset(&layout, 0, sizeof layout);
        layout.mChannelLayoutTag = kAudioChannelLayoutTag_UseChannelBitmap;
        layout.mChannelBitmap = kAudioChannelBit_Left | kAudioChannelBit_Right;
        e = AudioQueueSetProperty(ctx->q, kAudioQueueProperty_ChannelLayout, (const void *)&layout, sizeof(AudioChannelLayout));
        if (AUDIO_SV_ERROR(e)) goto except;
    }
    ctx->buffer_size = (UInt32)(rate / 50) * 4; /* 20 ms */
    for (int x = 0; x < AUDIO_BUFS; x++) {
        e = AudioQueueAllocateBuffer(ctx->q, ctx->buffer_size, &ctx->buf[x]);
        if (AUDIO_SV_ERROR(e)) goto except;
    }
except:
    if (selected_uid) CFRelease(selected_uid);
    return e;
}

static UInt32 queued_buffers(Output *ctx) {
    UInt32 queued = 0;
    for (int x = 0; x < AUDIO_BUFS; x++) queued += (UInt32)atomic_load(&ctx->in_use[x]);
    return queued;
}

/* Queues `size` bytes, waiting for a free buffer; starts playing once half the ring is full. */
static void push(Output *ctx, const UInt8 *frames, UInt32 size) {
    while (1) {
        for (int x = 0; x < AUDIO_BUFS; x++) {
            if (atomic_load(&ctx->in_use[x]) == 0) {
                AudioQueueBufferRef buf = ctx->buf[x];
                memcpy(buf->mAudioData, frames, size);
                buf->mAudioDataByteSize = size;
                buf->mUserData = (void *)(uintptr_t)x;
                atomic_store(&ctx->in_use[x], 1);
                OSStatus e = AudioQueueEnqueueBuffer(ctx->q, buf, 0, NULL);
                if (AUDIO_SV_ERROR(e)) {
                    atomic_store(&ctx->in_use[x], 0);
                    fprintf(stderr, "AudioQueueEnqueueBuffer failed: %d\n", (int)e);
                    exit(1);
                }
                if (!ctx->playing && queued_buffers(ctx) >= AUDIO_BUFS / 2) {
                    if (!AUDIO_SV_ERROR(AudioQueueStart(ctx->q, NULL))) ctx->playing = true;
                }
                return;
            }
        }
        usleep(2000);
    }
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        UInt32 n = 0;
        AudioObjectID *ids = devices(false, &n);
        for (UInt32 i = 0; i < n; i++) {
            char *uid = NULL, *name = NULL;
            if (AUDIO_HW_ERROR(device_string(ids[i], kAudioDevicePropertyDeviceUID, &uid, NULL))) continue;
            if (AUDIO_HW_ERROR(device_string(ids[i], kAudioObjectPropertyName, &name, NULL))) name = strdup("?");
            printf("%s\t%s\t%u\n", uid, name, (unsigned)output_channels(ids[i]));
            free(uid);
            free(name);
        }
        free(ids);
        return 0;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: %s --list | UID|default RAW RATE\n", argv[0]);
        return 2;
    }
    FILE *raw = fopen(argv[2], "rb");
    if (!raw) { perror(argv[2]); return 1; }
    Output ctx;
    memset(&ctx, 0, sizeof ctx);
    OSStatus e = create(&ctx, argv[1], atof(argv[3]));
    if (e != noErr) {
        fprintf(stderr, "cannot open output %s: %d\n", argv[1], (int)e);
        return 1;
    }
    UInt8 *chunk = (UInt8 *)malloc(ctx.buffer_size);
    size_t got;
    while ((got = fread(chunk, 1, ctx.buffer_size, raw)) > 0) push(&ctx, chunk, (UInt32)(got & ~(size_t)3));
    if (!ctx.playing) AudioQueueStart(ctx.q, NULL);
    while (queued_buffers(&ctx) > 0) usleep(5000);
    /* Drain: stop after what is queued has played, and wait until the queue says it stopped. */
    AudioQueueStop(ctx.q, false);
    UInt32 running = 1, size = sizeof running;
    while (AudioQueueGetProperty(ctx.q, kAudioQueueProperty_IsRunning, &running, &size) == noErr && running) usleep(10000);
    AudioQueueDispose(ctx.q, true);
    free(chunk);
    fclose(raw);
    return 0;
}
