/*
 * kAudioQueueProperty_ChannelAssignments by Apple's names: a stereo Float32 queue whose
 * channels go to device channels 3 and 4, rendered offline into a four-channel format (channels
 * 1 and 2 silent, 3 and 4 the queue's), and a mono queue on the right channel of a stereo
 * render. Prints "N passed, M failed".
 */
#include <AudioToolbox/AudioToolbox.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int passed, failed;
#define EXPECT(cond, ...) do { if (cond) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)
#define EXPECT_STATUS(call, expected) do { OSStatus s_ = (call); EXPECT(s_ == (OSStatus)(expected), "%s = %d, expected %d", #call, (int)s_, (int)(expected)); } while (0)

enum { kFrames = 4800 };

static AudioStreamBasicDescription floatFormat(UInt32 channels) {
    AudioStreamBasicDescription f;
    memset(&f, 0, sizeof f);
    f.mSampleRate = 48000;
    f.mFormatID = kAudioFormatLinearPCM;
    f.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked;
    f.mBytesPerPacket = f.mBytesPerFrame = 4 * channels;
    f.mFramesPerPacket = 1;
    f.mChannelsPerFrame = channels;
    f.mBitsPerChannel = 32;
    return f;
}

static void noCallback(void *ud, AudioQueueRef q, AudioQueueBufferRef b) { (void)ud; (void)q; (void)b; }

static float tone(double hz, int frame) { return (float)(0.5 * sin(2 * 3.14159265358979323846 * hz * frame / 48000)); }

/* A queue of `channels` (channel c carries a tone of 300 + 200 c Hz) assigned to `numbers` of a
   device of `deviceChannels`, rendered offline; checks every sample of every device channel. */
static void renderAssigned(UInt32 channels, const UInt32 *numbers, UInt32 deviceChannels) {
    AudioStreamBasicDescription f = floatFormat(channels), wide = floatFormat(deviceChannels);
    AudioQueueRef q = NULL;
    EXPECT_STATUS(AudioQueueNewOutput(&f, noCallback, NULL, NULL, NULL, 0, &q), noErr);
    if (!q) return;
    AudioQueueChannelAssignment assignments[8];
    for (UInt32 c = 0; c < channels; c++) {
        assignments[c].mDeviceUID = CFSTR("null:null");
        assignments[c].mChannelNumber = numbers[c];
    }
    EXPECT_STATUS(AudioQueueSetProperty(q, kAudioQueueProperty_ChannelAssignments, assignments,
                                        channels * (UInt32)sizeof(AudioQueueChannelAssignment)), noErr);
    /* The queue moved to the device the assignments name. */
    CFStringRef uid = NULL;
    UInt32 size = sizeof uid;
    EXPECT_STATUS(AudioQueueGetProperty(q, kAudioQueueProperty_CurrentDevice, &uid, &size), noErr);
    char name[64] = "";
    if (uid) {
        CFStringGetCString(uid, name, sizeof name, kCFStringEncodingUTF8);
        CFRelease(uid);
    }
    EXPECT(strcmp(name, "null:null") == 0, "the current device is '%s'", name);
    EXPECT_STATUS(AudioQueueSetOfflineRenderFormat(q, &wide, NULL), noErr);

    AudioQueueBufferRef in = NULL, out = NULL;
    EXPECT_STATUS(AudioQueueAllocateBuffer(q, kFrames * f.mBytesPerFrame, &in), noErr);
    EXPECT_STATUS(AudioQueueAllocateBuffer(q, kFrames * wide.mBytesPerFrame, &out), noErr);
    if (!in || !out) return;
    float *samples = in->mAudioData;
    for (int i = 0; i < kFrames; i++)
        for (UInt32 c = 0; c < channels; c++) samples[i * channels + c] = tone(300 + 200 * c, i);
    in->mAudioDataByteSize = kFrames * f.mBytesPerFrame;
    EXPECT_STATUS(AudioQueueEnqueueBuffer(q, in, 0, NULL), noErr);
    EXPECT_STATUS(AudioQueueStart(q, NULL), noErr);
    AudioTimeStamp t;
    memset(&t, 0, sizeof t);
    t.mFlags = kAudioTimeStampSampleTimeValid;
    EXPECT_STATUS(AudioQueueOfflineRender(q, &t, out, kFrames), noErr);
    EXPECT(out->mAudioDataByteSize == kFrames * wide.mBytesPerFrame, "%u bytes rendered", (unsigned)out->mAudioDataByteSize);
    const float *rendered = out->mAudioData;
    int wrong = 0;
    for (int i = 0; i < kFrames; i++) {
        for (UInt32 d = 0; d < deviceChannels; d++) {
            float expected = 0;
            for (UInt32 c = 0; c < channels; c++)
                if (numbers[c] == d + 1) expected = tone(300 + 200 * c, i);
            if (rendered[i * deviceChannels + d] != expected) wrong++;
        }
    }
    EXPECT(wrong == 0, "%d samples out of place", wrong);
    EXPECT_STATUS(AudioQueueDispose(q, true), noErr);
}

int main(void) {
    const UInt32 threeFour[] = {3, 4}, right[] = {2};
    renderAssigned(2, threeFour, 4);
    renderAssigned(1, right, 2);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
