/*
 * A device menu of the kind a player's preferences window shows: the HAL's device list, read
 * again after another program adds a sink. Run by HALDeviceListTests.swift:
 *   hal_devices list             one line per device: "device ID|name|UID|out channels|in channels|rate",
 *                                then "default-output UID"
 *   hal_devices next SINK DESC   lists the devices, loads a null sink SINK described as DESC with
 *                                pactl (printing "module N"), and lists them again at once:
 *                                "listing 1" and "listing 2", each followed by its device lines
 *   hal_devices uid UID          the device kAudioHardwarePropertyTranslateUIDToDevice gives for UID:
 *                                "translated ID|name" (ID 0: none)
 *   hal_devices heard SINK DESC  listens to the device list, lists it, loads the sink as above, and
 *                                waits (up to 10 s) for a call after which the list has the sink's
 *                                UID: prints "heard UID" then, else "not heard"
 */
#define _DEFAULT_SOURCE 1
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudio/AudioHardware.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void stringProperty(AudioDeviceID device, AudioObjectPropertySelector selector, char *out, size_t size) {
    AudioObjectPropertyAddress address = { selector, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    CFStringRef value = NULL;
    UInt32 dataSize = sizeof(value);
    out[0] = 0;
    if (AudioObjectGetPropertyData(device, &address, 0, NULL, &dataSize, &value) == noErr && value) {
        CFStringGetCString(value, out, (CFIndex)size, kCFStringEncodingUTF8);
        CFRelease(value);
    }
}

static UInt32 channels(AudioDeviceID device, AudioObjectPropertyScope scope) {
    AudioObjectPropertyAddress address = { kAudioDevicePropertyStreamConfiguration, scope, kAudioObjectPropertyElementMain };
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

/* Prints the device list; returns whether it has a device with UID `wanted` (NULL: none). */
static int list(const char *wanted) {
    AudioObjectPropertyAddress address = { kAudioHardwarePropertyDevices, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    UInt32 size = 0;
    if (AudioObjectGetPropertyDataSize(kAudioObjectSystemObject, &address, 0, NULL, &size) != noErr) return 0;
    AudioDeviceID *ids = malloc(size ? size : 1);
    if (AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, 0, NULL, &size, ids) != noErr) size = 0;
    int found = 0;
    for (UInt32 i = 0; i < size / sizeof(AudioDeviceID); i++) {
        char name[256], uid[512];
        stringProperty(ids[i], kAudioObjectPropertyName, name, sizeof name);
        stringProperty(ids[i], kAudioDevicePropertyDeviceUID, uid, sizeof uid);
        AudioObjectPropertyAddress rateAddress = { kAudioDevicePropertyNominalSampleRate, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
        Float64 rate = 0;
        UInt32 rateSize = sizeof(rate);
        AudioObjectGetPropertyData(ids[i], &rateAddress, 0, NULL, &rateSize, &rate);
        printf("device %u|%s|%s|%u|%u|%.0f\n", (unsigned)ids[i], name, uid, (unsigned)channels(ids[i], kAudioObjectPropertyScopeOutput),
               (unsigned)channels(ids[i], kAudioObjectPropertyScopeInput), rate);
        if (wanted && strcmp(uid, wanted) == 0) found = 1;
    }
    free(ids);
    return found;
}

/* Loads a null sink with pactl; prints "module N". */
static int load(const char *sink, const char *description) {
    char command[512];
    snprintf(command, sizeof command, "pactl load-module module-null-sink 'sink_name=%s' 'sink_properties=device.description=%s'", sink, description);
    FILE *pactl = popen(command, "r");
    if (!pactl) return 0;
    char line[64] = "";
    if (!fgets(line, sizeof line, pactl)) line[0] = 0;
    int status = pclose(pactl);
    line[strcspn(line, "\n")] = 0;
    printf("module %s\n", line);
    return status == 0 && line[0] != 0;
}

static int calls;

static OSStatus devicesChanged(AudioObjectID object, UInt32 count, const AudioObjectPropertyAddress *addresses, void *data) {
    (void)data;
    if (object == kAudioObjectSystemObject && count == 1 && addresses[0].mSelector == kAudioHardwarePropertyDevices)
        __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
    return noErr;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        list(NULL);
        AudioObjectPropertyAddress address = { kAudioHardwarePropertyDefaultOutputDevice, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
        AudioDeviceID device = kAudioObjectUnknown;
        UInt32 size = sizeof(device);
        char uid[512] = "";
        if (AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, 0, NULL, &size, &device) == noErr) stringProperty(device, kAudioDevicePropertyDeviceUID, uid, sizeof uid);
        printf("default-output %s\n", uid);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "uid") == 0) {
        AudioObjectPropertyAddress address = { kAudioHardwarePropertyTranslateUIDToDevice, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
        CFStringRef uid = CFStringCreateWithCString(NULL, argv[2], kCFStringEncodingUTF8);
        AudioDeviceID device = kAudioObjectUnknown;
        UInt32 size = sizeof(device);
        OSStatus status = AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, sizeof uid, &uid, &size, &device);
        CFRelease(uid);
        char name[256] = "";
        if (device != kAudioObjectUnknown) stringProperty(device, kAudioObjectPropertyName, name, sizeof name);
        printf("translated %u|%s\n", (unsigned)device, name);
        return status == noErr ? 0 : 1;
    }
    if (argc == 4 && strcmp(argv[1], "next") == 0) {
        printf("listing 1\n");
        list(NULL);
        if (!load(argv[2], argv[3])) return 1;
        printf("listing 2\n");
        list(NULL);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "heard") == 0) {
        char wanted[512];
        snprintf(wanted, sizeof wanted, "pulse:%s", argv[2]);
        AudioObjectPropertyAddress address = { kAudioHardwarePropertyDevices, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
        OSStatus status = AudioObjectAddPropertyListener(kAudioObjectSystemObject, &address, devicesChanged, NULL);
        if (status != noErr) { printf("AudioObjectAddPropertyListener: %d\n", (int)status); return 1; }
        list(NULL);
        if (!load(argv[2], argv[3])) return 1;
        int seen = 0, heard = 0;
        for (int i = 0; i < 500 && !heard; i++) {
            int now = __atomic_load_n(&calls, __ATOMIC_SEQ_CST);
            if (now != seen) {
                seen = now;
                heard = list(wanted);
            } else {
                usleep(20000);
            }
        }
        AudioObjectRemovePropertyListener(kAudioObjectSystemObject, &address, devicesChanged, NULL);
        printf(heard ? "heard %s\n" : "not heard\n", wanted);
        return heard ? 0 : 1;
    }
    fprintf(stderr, "usage: hal_devices list | uid UID | next SINK DESCRIPTION | heard SINK DESCRIPTION\n");
    return 2;
}
