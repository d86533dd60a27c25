/*
 * A recorder on AUHAL, written the way the input side of portable audio libraries' CoreAudio
 * back ends is: enable input on element 1 and disable output on element 0, point the unit at the
 * HAL's default input device, set the application's format on the output scope of element 1,
 * and fetch each cycle with AudioUnitRender(bus 1) from the input callback into an AudioBufferList
 * of its own. The callback only copies into a ring buffer; the main thread writes the ring to a
 * WAVE file with ExtAudioFile.
 *
 *   auhal_capture FRAMES OUT.wav own|unit
 *
 * records FRAMES frames, 16-bit interleaved at the device's rate and channel count. With "own"
 * the program turns kAudioUnitProperty_ShouldAllocateBuffer off and renders into its own memory;
 * with "unit" it leaves the property alone and passes NULL buffers, rendering into the unit's.
 * Prints "device UID rate R channels C", "input times ok" when every cycle's sample time follows
 * the last one's frames, and "wrote N".
 */
#define _DEFAULT_SOURCE 1
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudio/CoreAudio.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RING_FRAMES (1u << 18)

typedef struct {
    AudioUnit unit;
    int ownBuffers;
    UInt32 channels;
    UInt32 maxFrames;
    AudioBufferList *list;     /* one interleaved buffer */
    SInt16 *memory;            /* the list's data with "own" */
    /* Frames from the callback to the writer: a single-producer, single-consumer ring. */
    SInt16 *ring;
    atomic_uint written;       /* frames the callback has put in */
    atomic_uint read;          /* frames the writer has taken */
    atomic_uint dropped;
    atomic_int renderError;
    /* Sample time continuity. */
    Float64 nextSampleTime;
    int cycles;
    atomic_int timeErrors;
} Recorder;

static void check(OSStatus status, const char *what) {
    if (status == noErr) return;
    fprintf(stderr, "error: %s failed (%d)\n", what, (int)status);
    exit(1);
}

static OSStatus inputArrived(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                             UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    Recorder *r = (Recorder *)inRefCon;
    (void)ioData;
    if (inNumberFrames > r->maxFrames) {
        atomic_store(&r->renderError, -50);
        return noErr;
    }
    if (r->cycles++ > 0 && inTimeStamp->mSampleTime != r->nextSampleTime) atomic_fetch_add(&r->timeErrors, 1);
    r->nextSampleTime = inTimeStamp->mSampleTime + inNumberFrames;

    r->list->mNumberBuffers = 1;
    r->list->mBuffers[0].mNumberChannels = r->channels;
    r->list->mBuffers[0].mDataByteSize = inNumberFrames * r->channels * sizeof(SInt16);
    r->list->mBuffers[0].mData = r->ownBuffers ? r->memory : NULL;
    OSStatus status = AudioUnitRender(r->unit, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, r->list);
    if (status != noErr) {
        atomic_store(&r->renderError, status);
        return status;
    }
    const SInt16 *samples = (const SInt16 *)r->list->mBuffers[0].mData;
    UInt32 written = atomic_load(&r->written);
    if (written - atomic_load(&r->read) + inNumberFrames > RING_FRAMES) {
        atomic_fetch_add(&r->dropped, inNumberFrames);
        return noErr;
    }
    for (UInt32 f = 0; f < inNumberFrames; f++) {
        UInt32 slot = (written + f) % RING_FRAMES;
        memcpy(r->ring + (size_t)slot * r->channels, samples + (size_t)f * r->channels, r->channels * sizeof(SInt16));
    }
    atomic_store(&r->written, written + inNumberFrames);
    return noErr;
}

static AudioDeviceID defaultInputDevice(void) {
    AudioObjectPropertyAddress address = { kAudioHardwarePropertyDefaultInputDevice, kAudioObjectPropertyScopeGlobal,
                                           kAudioObjectPropertyElementMain };
    AudioDeviceID device = kAudioObjectUnknown;
    UInt32 size = sizeof(device);
    check(AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, 0, NULL, &size, &device), "getting the default input device");
    return device;
}

static void printUID(AudioDeviceID device) {
    AudioObjectPropertyAddress address = { kAudioDevicePropertyDeviceUID, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    CFStringRef uid = NULL;
    UInt32 size = sizeof(uid);
    char text[512] = "?";
    if (AudioObjectGetPropertyData(device, &address, 0, NULL, &size, &uid) == noErr && uid) {
        CFStringGetCString(uid, text, sizeof(text), kCFStringEncodingUTF8);
        CFRelease(uid);
    }
    printf("device %s ", text);
}

int main(int argc, char **argv) {
    if (argc < 4 || (strcmp(argv[3], "own") != 0 && strcmp(argv[3], "unit") != 0)) {
        fprintf(stderr, "usage: %s FRAMES OUT.wav own|unit\n", argv[0]);
        return 2;
    }
    static Recorder recorder;
    Recorder *r = &recorder;
    UInt32 wanted = (UInt32)strtoul(argv[1], NULL, 10);
    r->ownBuffers = strcmp(argv[3], "own") == 0;

    AudioComponentDescription desc = { kAudioUnitType_Output, kAudioUnitSubType_HALOutput, kAudioUnitManufacturer_Apple, 0, 0 };
    AudioComponent component = AudioComponentFindNext(NULL, &desc);
    if (!component) {
        fprintf(stderr, "error: no AUHAL\n");
        return 1;
    }
    check(AudioComponentInstanceNew(component, &r->unit), "AudioComponentInstanceNew");

    UInt32 enable = 1, disable = 0;
    check(AudioUnitSetProperty(r->unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &enable, sizeof(enable)), "enabling input");
    check(AudioUnitSetProperty(r->unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &disable, sizeof(disable)),
          "disabling output");

    AudioDeviceID device = defaultInputDevice();
    check(AudioUnitSetProperty(r->unit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &device, sizeof(device)),
          "setting the current device");

    AudioStreamBasicDescription deviceFormat;
    UInt32 size = sizeof(deviceFormat);
    check(AudioUnitGetProperty(r->unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, &deviceFormat, &size),
          "getting the device's format");
    printUID(device);
    printf("rate %.0f channels %u\n", deviceFormat.mSampleRate, (unsigned)deviceFormat.mChannelsPerFrame);
    r->channels = deviceFormat.mChannelsPerFrame;

    AudioStreamBasicDescription format;
    memset(&format, 0, sizeof(format));
    format.mSampleRate = deviceFormat.mSampleRate;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    format.mChannelsPerFrame = r->channels;
    format.mBitsPerChannel = 16;
    format.mFramesPerPacket = 1;
    format.mBytesPerFrame = r->channels * sizeof(SInt16);
    format.mBytesPerPacket = format.mBytesPerFrame;
    check(AudioUnitSetProperty(r->unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &format, sizeof(format)),
          "setting the recording format");

    if (r->ownBuffers) {
        UInt32 allocate = 0;
        check(AudioUnitSetProperty(r->unit, kAudioUnitProperty_ShouldAllocateBuffer, kAudioUnitScope_Output, 1, &allocate, sizeof(allocate)),
              "turning ShouldAllocateBuffer off");
    }

    AURenderCallbackStruct callback = { inputArrived, r };
    check(AudioUnitSetProperty(r->unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &callback, sizeof(callback)),
          "setting the input callback");

    size = sizeof(r->maxFrames);
    check(AudioUnitGetProperty(r->unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &r->maxFrames, &size),
          "getting the maximum frames per slice");
    r->list = calloc(1, offsetof(AudioBufferList, mBuffers) + sizeof(AudioBuffer));
    r->memory = calloc((size_t)r->maxFrames * r->channels, sizeof(SInt16));
    r->ring = calloc((size_t)RING_FRAMES * r->channels, sizeof(SInt16));

    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[2], (CFIndex)strlen(argv[2]), false);
    ExtAudioFileRef file;
    check(ExtAudioFileCreateWithURL(url, kAudioFileWAVEType, &format, NULL, kAudioFileFlags_EraseFile, &file), "ExtAudioFileCreateWithURL");
    CFRelease(url);
    check(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof(format), &format), "setting the client format");

    check(AudioUnitInitialize(r->unit), "AudioUnitInitialize");
    check(AudioOutputUnitStart(r->unit), "AudioOutputUnitStart");

    /* Write what arrives until the file holds FRAMES frames (at most a minute). */
    UInt32 done = 0;
    SInt16 *chunk = malloc(4096 * (size_t)r->channels * sizeof(SInt16));
    for (int idle = 0; done < wanted && idle < 6000 && atomic_load(&r->renderError) == noErr;) {
        UInt32 available = atomic_load(&r->written) - atomic_load(&r->read);
        if (available == 0) {
            usleep(10000);
            idle++;
            continue;
        }
        UInt32 n = available < 4096 ? available : 4096;
        if (n > wanted - done) n = wanted - done;
        UInt32 start = atomic_load(&r->read);
        for (UInt32 f = 0; f < n; f++) {
            memcpy(chunk + (size_t)f * r->channels, r->ring + (size_t)((start + f) % RING_FRAMES) * r->channels, r->channels * sizeof(SInt16));
        }
        atomic_store(&r->read, start + n);
        AudioBufferList list;
        list.mNumberBuffers = 1;
        list.mBuffers[0].mNumberChannels = r->channels;
        list.mBuffers[0].mDataByteSize = n * r->channels * sizeof(SInt16);
        list.mBuffers[0].mData = chunk;
        check(ExtAudioFileWrite(file, n, &list), "ExtAudioFileWrite");
        done += n;
    }

    check(AudioOutputUnitStop(r->unit), "AudioOutputUnitStop");
    check(ExtAudioFileDispose(file), "ExtAudioFileDispose");
    check(AudioUnitUninitialize(r->unit), "AudioUnitUninitialize");
    check(AudioComponentInstanceDispose(r->unit), "AudioComponentInstanceDispose");

    if (atomic_load(&r->renderError) != noErr) printf("AudioUnitRender: %d\n", atomic_load(&r->renderError));
    if (atomic_load(&r->dropped)) printf("dropped %u\n", atomic_load(&r->dropped));
    if (r->cycles > 1 && atomic_load(&r->timeErrors) == 0) printf("input times ok\n");
    printf("wrote %u\n", (unsigned)done);
    free(chunk);
    free(r->ring);
    free(r->memory);
    free(r->list);
    return done == wanted ? 0 : 1;
}
