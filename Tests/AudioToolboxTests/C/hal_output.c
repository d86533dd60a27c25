/*
 * An audio output module of the kind media players carry for macOS (libao's, cmus's, mpd's):
 * it lists the output devices through the HAL, picks one by name, and plays through an Audio
 * Queue set to that device's UID. Run by HardwareTests.swift:
 *   hal_output list             one line per device: "device ID|name|UID|out channels|in channels|rate|alive",
 *                               then "default-output UID" and "default-input UID"
 *   hal_output play NAME        plays a 0.3 s tone to the device called NAME ("default": the
 *                               default output); prints "playing UID" with the queue's device
 *   hal_output setdefault NAME  sets the default output to the device called NAME; prints the status
 *   hal_output listen SINK [runloop]
 *                               listens to the default output, runs `pactl set-default-sink SINK`,
 *                               and prints "changed UID" when the listener has been called; with
 *                               "runloop", on the main thread's run loop (kAudioHardwarePropertyRunLoop),
 *                               which it runs, and prints "on the run loop's thread" when it was
 */
#define _DEFAULT_SOURCE 1
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudio/AudioHardware.h>
#include <pthread.h>
#include <unistd.h>

static void copyString(CFStringRef s, char *out, size_t size) {
    out[0] = 0;
    if (s) {
        CFStringGetCString(s, out, (CFIndex)size, kCFStringEncodingUTF8);
        CFRelease(s);
    }
}

/* A device's CFString property, as a C string. */
static OSStatus stringProperty(AudioDeviceID device, AudioObjectPropertySelector selector, char *out, size_t size) {
    AudioObjectPropertyAddress address = { selector, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMaster };
    CFStringRef value = NULL;
    UInt32 dataSize = sizeof(value);
    OSStatus status = AudioObjectGetPropertyData(device, &address, 0, NULL, &dataSize, &value);
    copyString(status == noErr ? value : NULL, out, size);
    return status;
}

/* The channels of a device in one scope, from its stream configuration. */
static UInt32 channels(AudioDeviceID device, AudioObjectPropertyScope scope) {
    AudioObjectPropertyAddress address = { kAudioDevicePropertyStreamConfiguration, scope, kAudioObjectPropertyElementMaster };
    UInt32 size = 0;
    if (AudioObjectGetPropertyDataSize(device, &address, 0, NULL, &size) != noErr) return 0;
    AudioBufferList *list = malloc(size);
    UInt32 total = 0;
    if (AudioObjectGetPropertyData(device, &address, 0, NULL, &size, list) == noErr) {
        for (UInt32 i = 0; i < list->mNumberBuffers; i++) total += list->mBuffers[i].mNumberChannels;
    }
    free(list);
    return total;
}

static AudioDeviceID defaultDevice(AudioObjectPropertySelector selector) {
    AudioObjectPropertyAddress address = { selector, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMaster };
    AudioDeviceID device = kAudioObjectUnknown;
    UInt32 size = sizeof(device);
    if (AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, 0, NULL, &size, &device) != noErr) return kAudioObjectUnknown;
    return device;
}

/* Every device: an array the caller frees. */
static AudioDeviceID *devices(UInt32 *count) {
    AudioObjectPropertyAddress address = { kAudioHardwarePropertyDevices, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMaster };
    UInt32 size = 0;
    if (AudioObjectGetPropertyDataSize(kAudioObjectSystemObject, &address, 0, NULL, &size) != noErr) { *count = 0; return NULL; }
    AudioDeviceID *ids = malloc(size ? size : 1);
    if (AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, 0, NULL, &size, ids) != noErr) size = 0;
    *count = size / sizeof(AudioDeviceID);
    return ids;
}

static int list(void) {
    UInt32 count;
    AudioDeviceID *ids = devices(&count);
    for (UInt32 i = 0; i < count; i++) {
        char name[256], uid[512];
        stringProperty(ids[i], kAudioDevicePropertyDeviceNameCFString, name, sizeof name);
        stringProperty(ids[i], kAudioDevicePropertyDeviceUID, uid, sizeof uid);
        AudioObjectPropertyAddress rateAddress = { kAudioDevicePropertyNominalSampleRate, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMaster };
        Float64 rate = 0;
        UInt32 size = sizeof(rate);
        AudioObjectGetPropertyData(ids[i], &rateAddress, 0, NULL, &size, &rate);
        AudioObjectPropertyAddress aliveAddress = { kAudioDevicePropertyDeviceIsAlive, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMaster };
        UInt32 alive = 0;
        size = sizeof(alive);
        AudioObjectGetPropertyData(ids[i], &aliveAddress, 0, NULL, &size, &alive);
        printf("device %u|%s|%s|%u|%u|%.0f|%u\n", (unsigned)ids[i], name, uid, (unsigned)channels(ids[i], kAudioObjectPropertyScopeOutput),
               (unsigned)channels(ids[i], kAudioObjectPropertyScopeInput), rate, (unsigned)alive);
    }
    free(ids);
    char uid[512] = "";
    AudioDeviceID out = defaultDevice(kAudioHardwarePropertyDefaultOutputDevice);
    if (out != kAudioObjectUnknown) stringProperty(out, kAudioDevicePropertyDeviceUID, uid, sizeof uid);
    printf("default-output %s\n", uid);
    uid[0] = 0;
    AudioDeviceID in = defaultDevice(kAudioHardwarePropertyDefaultInputDevice);
    if (in != kAudioObjectUnknown) stringProperty(in, kAudioDevicePropertyDeviceUID, uid, sizeof uid);
    printf("default-input %s\n", uid);
    return 0;
}

/* The output device called `wanted`, as a media player's "device name" option picks it. */
static AudioDeviceID findOutput(const char *wanted) {
    if (strcmp(wanted, "default") == 0) return defaultDevice(kAudioHardwarePropertyDefaultOutputDevice);
    UInt32 count;
    AudioDeviceID *ids = devices(&count), found = kAudioObjectUnknown;
    for (UInt32 i = 0; i < count && found == kAudioObjectUnknown; i++) {
        char name[256];
        if (stringProperty(ids[i], kAudioObjectPropertyName, name, sizeof name) == noErr && strcmp(name, wanted) == 0
            && channels(ids[i], kAudioObjectPropertyScopeOutput) > 0) found = ids[i];
    }
    free(ids);
    return found;
}

static int setDefault(const char *wanted) {
    AudioDeviceID device = findOutput(wanted);
    if (device == kAudioObjectUnknown) { printf("no output device called %s\n", wanted); return 1; }
    AudioObjectPropertyAddress address = { kAudioHardwarePropertyDefaultOutputDevice, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMaster };
    OSStatus status = AudioObjectSetPropertyData(kAudioObjectSystemObject, &address, 0, NULL, sizeof device, &device);
    printf("status %d\n", (int)status);
    return status == noErr ? 0 : 1;
}

static UInt32 buffersDone;

static void callback(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer) {
    (void)userData; (void)queue; (void)buffer;
    __atomic_add_fetch(&buffersDone, 1, __ATOMIC_SEQ_CST);
}

static int play(const char *wanted) {
    AudioDeviceID device = findOutput(wanted);
    if (device == kAudioObjectUnknown) { printf("no output device called %s\n", wanted); return 1; }
    char uid[512];
    AudioObjectPropertyAddress uidAddress = { kAudioDevicePropertyDeviceUID, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMaster };
    CFStringRef uidString = NULL;
    UInt32 size = sizeof(uidString);
    if (AudioObjectGetPropertyData(device, &uidAddress, 0, NULL, &size, &uidString) != noErr) { printf("no UID\n"); return 1; }

    AudioStreamBasicDescription format = {0};
    format.mSampleRate = 44100;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    format.mChannelsPerFrame = 2;
    format.mBitsPerChannel = 16;
    format.mBytesPerFrame = format.mBytesPerPacket = 4;
    format.mFramesPerPacket = 1;
    AudioQueueRef queue = NULL;
    OSStatus status = AudioQueueNewOutput(&format, callback, NULL, NULL, NULL, 0, &queue);
    if (status != noErr) { printf("AudioQueueNewOutput: %d\n", (int)status); return 1; }
    status = AudioQueueSetProperty(queue, kAudioQueueProperty_CurrentDevice, &uidString, sizeof(uidString));
    CFRelease(uidString);
    if (status != noErr) { printf("setting kAudioQueueProperty_CurrentDevice: %d\n", (int)status); return 1; }

    enum { frames = 4410, buffers = 3 };
    for (int b = 0; b < buffers; b++) {
        AudioQueueBufferRef buffer;
        AudioQueueAllocateBuffer(queue, frames * 4, &buffer);
        SInt16 *samples = buffer->mAudioData;
        for (int i = 0; i < frames; i++) {
            SInt16 v = (SInt16)(8000 * sin(2 * M_PI * 440 * (b * frames + i) / 44100.0));
            samples[2 * i] = samples[2 * i + 1] = v;
        }
        buffer->mAudioDataByteSize = frames * 4;
        AudioQueueEnqueueBuffer(queue, buffer, 0, NULL);
    }
    status = AudioQueueStart(queue, NULL);
    if (status != noErr) { printf("AudioQueueStart: %d\n", (int)status); return 1; }
    CFStringRef current = NULL;
    size = sizeof(current);
    AudioQueueGetProperty(queue, kAudioQueueProperty_CurrentDevice, &current, &size);
    copyString(current, uid, sizeof uid);
    printf("playing %s\n", uid);
    for (int i = 0; i < 200 && __atomic_load_n(&buffersDone, __ATOMIC_SEQ_CST) < buffers; i++) usleep(20000);
    /* Plays out what it has, then stops: wait for that before disposing of the queue. */
    AudioQueueStop(queue, false);
    UInt32 running = 1;
    for (int i = 0; i < 250 && running; i++) {
        size = sizeof(running);
        if (AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size) != noErr) break;
        if (running) usleep(20000);
    }
    AudioQueueDispose(queue, true);
    printf("buffers played %u\n", (unsigned)__atomic_load_n(&buffersDone, __ATOMIC_SEQ_CST));
    return __atomic_load_n(&buffersDone, __ATOMIC_SEQ_CST) == buffers ? 0 : 1;
}

static int calls, offThread;
static pthread_t mainThread;

static OSStatus defaultChanged(AudioObjectID object, UInt32 count, const AudioObjectPropertyAddress *addresses, void *data) {
    if (object == kAudioObjectSystemObject && count == 1 && addresses[0].mSelector == kAudioHardwarePropertyDefaultOutputDevice
        && data == (void *)&calls) __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
    if (!pthread_equal(pthread_self(), mainThread)) __atomic_add_fetch(&offThread, 1, __ATOMIC_SEQ_CST);
    return noErr;
}

static int listen(const char *sink, int onRunLoop) {
    mainThread = pthread_self();
    AudioObjectPropertyAddress address = { kAudioHardwarePropertyDefaultOutputDevice, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMaster };
    AudioObjectPropertyAddress loopAddress = { kAudioHardwarePropertyRunLoop, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMaster };
    CFRunLoopRef loop = onRunLoop ? CFRunLoopGetCurrent() : NULL;
    if (AudioObjectSetPropertyData(kAudioObjectSystemObject, &loopAddress, 0, NULL, sizeof loop, &loop) != noErr) {
        printf("setting kAudioHardwarePropertyRunLoop failed\n");
        return 1;
    }
    OSStatus status = AudioObjectAddPropertyListener(kAudioObjectSystemObject, &address, defaultChanged, &calls);
    if (status != noErr) { printf("AudioObjectAddPropertyListener: %d\n", (int)status); return 1; }
    char command[512];
    snprintf(command, sizeof command, "pactl set-default-sink '%s'", sink);
    if (system(command) != 0) { printf("%s failed\n", command); return 1; }
    for (int i = 0; i < 500 && __atomic_load_n(&calls, __ATOMIC_SEQ_CST) == 0; i++) {
        if (onRunLoop) CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.02, true); else usleep(20000);
    }
    AudioObjectRemovePropertyListener(kAudioObjectSystemObject, &address, defaultChanged, &calls);
    loop = NULL;
    AudioObjectSetPropertyData(kAudioObjectSystemObject, &loopAddress, 0, NULL, sizeof loop, &loop);
    if (onRunLoop && __atomic_load_n(&offThread, __ATOMIC_SEQ_CST) == 0) printf("on the run loop's thread\n");
    if (__atomic_load_n(&calls, __ATOMIC_SEQ_CST) == 0) { printf("the listener was not called\n"); return 1; }
    char uid[512] = "";
    AudioDeviceID device = defaultDevice(kAudioHardwarePropertyDefaultOutputDevice);
    if (device != kAudioObjectUnknown) stringProperty(device, kAudioDevicePropertyDeviceUID, uid, sizeof uid);
    printf("changed %s\n", uid);
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 2 && strcmp(argv[1], "list") == 0) return list();
    if (argc == 3 && strcmp(argv[1], "play") == 0) return play(argv[2]);
    if (argc == 3 && strcmp(argv[1], "setdefault") == 0) return setDefault(argv[2]);
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "listen") == 0) return listen(argv[2], argc == 4 && strcmp(argv[3], "runloop") == 0);
    fprintf(stderr, "usage: hal_output list | play NAME | setdefault NAME | listen SINK [runloop]\n");
    return 2;
}
