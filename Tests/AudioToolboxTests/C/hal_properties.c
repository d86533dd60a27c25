/*
 * The device layer of a portable audio library's macOS back-end, written the way such back-ends
 * read the HAL (PortAudio's, RtAudio's, miniaudio's, cubeb's, OpenAL Soft's): it enumerates the
 * devices, reads each one's names, channels, rates, buffer sizes, latencies, streams and their
 * formats, sets the buffer size and rate it wants, listens for changes, and cross-checks what it
 * read (a stream's channels against the stream configuration, the nominal rate against the list
 * of rates, the buffer size against its range, the calls before AudioObject against the
 * AudioObject calls). It then feeds every property any object answers sizes that are wrong on
 * purpose (zero, one byte, odd sizes, one byte short, one byte over, twice over) and checks that
 * each read or set ends in a result code, never writes past the size it was given, and changes
 * nothing it refused.
 *
 * HardwareTests.swift compiles it with HAL_SELECTORS naming a header it writes from
 * <CoreAudio/AudioHardware*.h>: X(name) for every property selector those headers declare, so
 * that every selector is tried on every object: one answered but missing from the table below is
 * a failure, and so is one in the table that nothing answers.
 *
 * With --shared (a sound server other programs use meanwhile) the system's defaults are not set.
 * Prints "device UID: N output, M input channels" for each device, "FAIL …" lines, and "checked D
 * devices, S streams, P properties"; exits 1 on a failure.
 */
#define _DEFAULT_SOURCE 1
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudio/CoreAudio.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures = 0, propertiesChecked = 0;
/* --shared: the sound server is shared with other programs that set its defaults meanwhile, so
   the defaults are not set, not even to what they are (a set racing theirs would undo it). */
static int shared = 0;
/* --shared PREFIX: the server's devices that are the test's own (PulseAudio sinks whose names
   start with PREFIX, and their monitors); the others' settings are not changed, as other tests
   add and remove their own sinks meanwhile and play through the server's. */
static const char *ownPrefix = NULL;

/* Whether another program may change the property's value between two reads: the defaults of a
   shared server. */
static Boolean changesMeanwhile(AudioObjectID object, AudioObjectPropertySelector selector) {
    return shared && object == kAudioObjectSystemObject &&
           (selector == kAudioHardwarePropertyDefaultInputDevice || selector == kAudioHardwarePropertyDefaultOutputDevice ||
            selector == kAudioHardwarePropertyDefaultSystemOutputDevice);
}

/* Failures are held while a device is checked: other programs add and remove devices of the
   sound server meanwhile, and what a device that went away answered is not held against it. */
static char *held = NULL;
static size_t heldLength = 0, heldCapacity = 0;
static int heldFailures = 0;

static void hold(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void hold(const char *format, ...) {
    char line[1024];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof line, format, args);
    va_end(args);
    if (n < 0) return;
    size_t length = strlen(line);
    if (heldLength + length + 1 > heldCapacity) {
        heldCapacity = 2 * (heldLength + length + 1);
        held = realloc(held, heldCapacity);
    }
    memcpy(held + heldLength, line, length + 1);
    heldLength += length;
}

/* Prints the held failures (keep) or drops them. */
static void release(Boolean keep) {
    if (keep && heldLength > 0) fputs(held, stdout);
    if (keep) failures += heldFailures;
    heldLength = 0;
    heldFailures = 0;
    if (held) held[0] = 0;
}

#define FAIL(...) do { heldFailures++; hold("FAIL %s:%d: ", __FILE__, __LINE__); hold(__VA_ARGS__); hold("\n"); } while (0)
#define CHECK(cond, ...) do { if (!(cond)) FAIL(__VA_ARGS__); } while (0)

static const char *code(OSStatus status, char *text) {
    UInt32 big = (UInt32)status;
    char c[4] = { (char)(big >> 24), (char)(big >> 16), (char)(big >> 8), (char)big };
    if (c[0] >= 32 && c[0] < 127 && c[1] >= 32 && c[1] < 127 && c[2] >= 32 && c[2] < 127 && c[3] >= 32 && c[3] < 127)
        snprintf(text, 16, "'%c%c%c%c'", c[0], c[1], c[2], c[3]);
    else
        snprintf(text, 16, "%d", (int)status);
    return text;
}

/* ------------------------------------------------------------------------------------------- */
/* Every selector the headers declare. */

typedef struct {
    AudioObjectPropertySelector selector;
    const char *name;
} Named;

static const Named declared[] = {
#define X(name) { (AudioObjectPropertySelector)(name), #name },
#include HAL_SELECTORS
#undef X
};

/* ------------------------------------------------------------------------------------------- */
/* The properties this back-end expects each kind of object to answer, and their shapes. */

enum { SYS = 1, DEV = 2, STR = 4, CHN = 8 };
typedef enum {
    FIXED,       /* a fixed-size value: a smaller buffer is '!siz' */
    POINTER,     /* a CFStringRef (or another pointer-sized value): fixed, a string released after reading */
    ARRAY,       /* whole elements of `element` bytes, as many as fit */
    CSTRING,     /* NUL-terminated, cut to the buffer */
    QUALIFIED,   /* a UInt32 that needs a CFStringRef qualifier (a pid_t one for 'id2p') */
    TRANSLATION  /* an AudioValueTranslation the caller fills */
} Shape;

typedef struct {
    AudioObjectPropertySelector selector;
    const char *name;
    int kinds;
    Shape shape;
    Boolean settable;
    UInt32 element;
    int seen;
} Entry;

#define E(sel, kinds, shape, settable, element) { sel, #sel, kinds, shape, settable, element, 0 }

static Entry table[] = {
    E(kAudioObjectPropertyClass, SYS | DEV | STR, FIXED, false, 0),
    E(kAudioObjectPropertyBaseClass, SYS | DEV | STR, FIXED, false, 0),
    E(kAudioObjectPropertyOwner, SYS | DEV | STR, FIXED, false, 0),
    E(kAudioObjectPropertyName, SYS | DEV | STR, POINTER, false, 0),
    E(kAudioObjectPropertyManufacturer, SYS | DEV, POINTER, false, 0),
    E(kAudioObjectPropertyOwnedObjects, SYS | DEV | STR, ARRAY, false, 4),
    E(kAudioHardwarePropertyDevices, SYS, ARRAY, false, 4),
    E(kAudioHardwarePropertyDefaultOutputDevice, SYS, FIXED, true, 0),
    E(kAudioHardwarePropertyDefaultInputDevice, SYS, FIXED, true, 0),
    E(kAudioHardwarePropertyDefaultSystemOutputDevice, SYS, FIXED, true, 0),
    E(kAudioHardwarePropertyRunLoop, SYS, FIXED, true, 0),
    E(kAudioHardwarePropertyTranslateUIDToDevice, SYS, QUALIFIED, false, 0),
    E(kAudioHardwarePropertyTranslateBundleIDToPlugIn, SYS, QUALIFIED, false, 0),
    E(kAudioHardwarePropertyTranslateBundleIDToTransportManager, SYS, QUALIFIED, false, 0),
    E(kAudioHardwarePropertyTranslateUIDToBox, SYS, QUALIFIED, false, 0),
    E(kAudioHardwarePropertyTranslateUIDToClockDevice, SYS, QUALIFIED, false, 0),
    E(kAudioHardwarePropertyTranslateUIDToTap, SYS, QUALIFIED, false, 0),
    E(kAudioHardwarePropertyTranslatePIDToProcessObject, SYS, QUALIFIED, false, 0),
    E(kAudioHardwarePropertyDeviceForUID, SYS, TRANSLATION, false, 0),
    E(kAudioHardwarePropertyPlugInForBundleID, SYS, TRANSLATION, false, 0),
    E(kAudioHardwarePropertyPlugInList, SYS, ARRAY, false, 4),
    E(kAudioHardwarePropertyTransportManagerList, SYS, ARRAY, false, 4),
    E(kAudioHardwarePropertyBoxList, SYS, ARRAY, false, 4),
    E(kAudioHardwarePropertyClockDeviceList, SYS, ARRAY, false, 4),
    E(kAudioHardwarePropertyProcessObjectList, SYS, ARRAY, false, 4),
    E(kAudioHardwarePropertyTapList, SYS, ARRAY, false, 4),
    E(kAudioHardwarePropertyMixStereoToMono, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyIsInitingOrExiting, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyUserIDChanged, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyProcessInputMute, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyServiceRestarted, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyPowerHint, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyProcessIsMain, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyProcessIsMaster, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyProcessIsAudible, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertySleepingIsAllowed, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyUnloadingIsAllowed, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyHogModeIsAllowed, SYS, FIXED, false, 0),
    E(kAudioHardwarePropertyUserSessionIsActiveOrHeadless, SYS, FIXED, false, 0),

    E(kAudioObjectPropertyModelName, DEV, POINTER, false, 0),
    E(kAudioDevicePropertyDeviceName, DEV, CSTRING, false, 0),
    E(kAudioDevicePropertyDeviceManufacturer, DEV, CSTRING, false, 0),
    E(kAudioDevicePropertyDeviceUID, DEV, POINTER, false, 0),
    E(kAudioDevicePropertyModelUID, DEV, POINTER, false, 0),
    E(kAudioDevicePropertyTransportType, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyRelatedDevices, DEV, ARRAY, false, 4),
    E(kAudioDevicePropertyClockDomain, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyIsHidden, DEV, FIXED, false, 0),
    E(kAudioObjectPropertyControlList, DEV, ARRAY, false, 4),
    E(kAudioDevicePropertyDeviceCanBeDefaultDevice, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyDeviceCanBeDefaultSystemDevice, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyDeviceIsAlive, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyDeviceIsRunning, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyDeviceIsRunningSomewhere, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyDeviceHasChanged, DEV, FIXED, false, 0),
    E(kAudioDeviceProcessorOverload, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyIOStoppedAbnormally, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyHogMode, DEV, FIXED, false, 0),
    E(kAudioDevicePropertySupportsMixing, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyIOCycleUsage, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyNominalSampleRate, DEV, FIXED, true, 0),
    E(kAudioDevicePropertyActualSampleRate, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyAvailableNominalSampleRates, DEV, ARRAY, false, sizeof(AudioValueRange)),
    E(kAudioDevicePropertyBufferFrameSize, DEV, FIXED, true, 0),
    E(kAudioDevicePropertyBufferFrameSizeRange, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyLatency, DEV | STR, FIXED, false, 0),
    E(kAudioDevicePropertySafetyOffset, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyStreamConfiguration, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyStreams, DEV, ARRAY, false, 4),
    E(kAudioDevicePropertyPreferredChannelsForStereo, DEV, FIXED, false, 0),
    E(kAudioDevicePropertyPreferredChannelLayout, DEV, FIXED, false, 0),
    /* 'sfmt' is a device's kAudioDevicePropertyStreamFormat and a stream's kAudioStreamPropertyVirtualFormat. */
    E(kAudioDevicePropertyStreamFormat, DEV | CHN | STR, FIXED, true, 0),
    E(kAudioDevicePropertyStreamFormats, DEV | CHN, ARRAY, false, sizeof(AudioStreamBasicDescription)),
    E(kAudioDevicePropertyBufferSize, DEV, FIXED, true, 0),
    E(kAudioDevicePropertyBufferSizeRange, DEV, FIXED, false, 0),
    E(kAudioObjectPropertyElementName, CHN, POINTER, false, 0),
    E(kAudioObjectPropertyElementNumberName, CHN, POINTER, false, 0),
    E(kAudioDevicePropertyChannelName, CHN, CSTRING, false, 0),
    E(kAudioDevicePropertyChannelNumberName, CHN, CSTRING, false, 0),

    E(kAudioStreamPropertyIsActive, STR, FIXED, false, 0),
    E(kAudioStreamPropertyDirection, STR, FIXED, false, 0),
    E(kAudioStreamPropertyTerminalType, STR, FIXED, false, 0),
    E(kAudioStreamPropertyStartingChannel, STR, FIXED, false, 0),
    E(kAudioStreamPropertyPhysicalFormat, STR, FIXED, true, 0),
    E(kAudioStreamPropertyAvailableVirtualFormats, STR, ARRAY, false, sizeof(AudioStreamRangedDescription)),
    E(kAudioStreamPropertyAvailablePhysicalFormats, STR, ARRAY, false, sizeof(AudioStreamRangedDescription)),
    E(kAudioStreamPropertyPhysicalFormats, STR, ARRAY, false, sizeof(AudioStreamBasicDescription)),
};
#define TABLE_COUNT (sizeof table / sizeof table[0])

static Entry *entryFor(AudioObjectPropertySelector selector, int kind) {
    for (size_t i = 0; i < TABLE_COUNT; i++)
        if (table[i].selector == selector && (table[i].kinds & kind)) return &table[i];
    return NULL;
}

/* ------------------------------------------------------------------------------------------- */
/* Wrong sizes on purpose. */

#define SLACK 64
#define FILL 0xA5

static const char *where(AudioObjectID object, const AudioObjectPropertyAddress *a, const Entry *e, char *text) {
    char scope[16];
    snprintf(text, 160, "%s of object %u (scope %s, element %u)", e->name, (unsigned)object, code((OSStatus)a->mScope, scope),
             (unsigned)a->mElement);
    return text;
}

/* Whether bytes [from, to) of buffer still hold FILL. */
static int untouched(const unsigned char *buffer, UInt32 from, UInt32 to) {
    for (UInt32 i = from; i < to; i++)
        if (buffer[i] != FILL) return 0;
    return 1;
}

static void releaseIfString(const Entry *e, const unsigned char *buffer) {
    if (e->shape != POINTER || e->selector == kAudioHardwarePropertyRunLoop) return;
    CFTypeRef value;
    memcpy(&value, buffer, sizeof value);
    if (value) CFRelease(value);
}

/* Reads with `size` bytes and checks the answer against the shape; returns the status. */
static OSStatus readWithSize(AudioObjectID object, const AudioObjectPropertyAddress *a, const Entry *e, UInt32 full, UInt32 size) {
    char text[160], got[16];
    unsigned char *buffer = malloc(size + SLACK);
    memset(buffer, FILL, size + SLACK);
    UInt32 io = size;
    OSStatus status = AudioObjectGetPropertyData(object, a, 0, NULL, &io, buffer);
    switch (e->shape) {
    case FIXED:
    case POINTER:
        if (size < full) {
            CHECK(status == kAudioHardwareBadPropertySizeError, "%s read with %u of %u bytes: %s, expected '!siz'", where(object, a, e, text),
                  (unsigned)size, (unsigned)full, code(status, got));
            CHECK(untouched(buffer, 0, size + SLACK), "%s: a refused read of %u bytes wrote into the buffer", where(object, a, e, text), (unsigned)size);
        } else {
            CHECK(status == noErr && io == full, "%s read with %u bytes: %s, %u bytes, expected %u", where(object, a, e, text), (unsigned)size,
                  code(status, got), (unsigned)io, (unsigned)full);
            if (status == noErr) releaseIfString(e, buffer);
        }
        break;
    case ARRAY: {
        /* Whole elements, as many as fit. The device list may change meanwhile (other programs
           add and remove sinks): when the list was shorter than the buffer before or after the
           read, any whole number of elements up to what fits is right. */
        UInt32 fit = size / e->element * e->element, after = 0;
        AudioObjectGetPropertyDataSize(object, a, 0, NULL, &after);
        UInt32 shortest = full < after ? full : after;
        CHECK(status == noErr && io % e->element == 0 && io <= fit && (fit > shortest || io == fit),
              "%s read with %u bytes: %s, %u bytes, %u fit", where(object, a, e, text), (unsigned)size, code(status, got), (unsigned)io, (unsigned)fit);
        break;
    }
    case CSTRING:
        if (size == 0) {
            CHECK(status == kAudioHardwareBadPropertySizeError, "%s read with 0 bytes: %s", where(object, a, e, text), code(status, got));
        } else {
            CHECK(status == noErr && io >= 1 && io <= size && io <= full && buffer[io - 1] == 0, "%s read with %u bytes: %s, %u bytes",
                  where(object, a, e, text), (unsigned)size, code(status, got), (unsigned)io);
        }
        break;
    default:
        break;
    }
    CHECK(untouched(buffer, size, size + SLACK), "%s: a read of %u bytes wrote past them", where(object, a, e, text), (unsigned)size);
    free(buffer);
    return status;
}

static void checkQualified(AudioObjectID object, const AudioObjectPropertyAddress *a, const Entry *e) {
    char text[160], got[16];
    AudioObjectID value = 0;
    UInt32 io = sizeof value;
    OSStatus status = AudioObjectGetPropertyData(object, a, 0, NULL, &io, &value);
    CHECK(status == kAudioHardwareBadPropertySizeError, "%s without its qualifier: %s", where(object, a, e, text), code(status, got));
    char odd[3] = { 0, 0, 0 };
    io = sizeof value;
    status = AudioObjectGetPropertyData(object, a, sizeof odd, odd, &io, &value);
    CHECK(status == kAudioHardwareBadPropertySizeError, "%s with a 3-byte qualifier: %s", where(object, a, e, text), code(status, got));
    io = sizeof value;
    if (e->selector == kAudioHardwarePropertyTranslatePIDToProcessObject) {
        pid_t pid = getpid();
        status = AudioObjectGetPropertyData(object, a, sizeof pid, &pid, &io, &value);
    } else {
        CFStringRef nosuch = CFSTR("nosuch:thing");
        status = AudioObjectGetPropertyData(object, a, sizeof nosuch, &nosuch, &io, &value);
    }
    CHECK(status == noErr && value == kAudioObjectUnknown, "%s of something unknown: %s, %u", where(object, a, e, text), code(status, got),
          (unsigned)value);
    for (UInt32 size = 0; size < sizeof value; size++) {
        CFStringRef nosuch = CFSTR("nosuch:thing");
        pid_t pid = getpid();
        Boolean byPID = e->selector == kAudioHardwarePropertyTranslatePIDToProcessObject;
        io = size;
        status = AudioObjectGetPropertyData(object, a, byPID ? (UInt32)sizeof pid : (UInt32)sizeof nosuch, byPID ? (const void *)&pid : (const void *)&nosuch,
                                            &io, &value);
        CHECK(status == kAudioHardwareBadPropertySizeError, "%s read with %u bytes: %s", where(object, a, e, text), (unsigned)size, code(status, got));
    }
}

static void checkTranslation(AudioObjectID object, const AudioObjectPropertyAddress *a, const Entry *e, CFStringRef uid, AudioObjectID expected) {
    char text[160], got[16];
    AudioObjectID out = 0xFFFF;
    AudioValueTranslation t = { &uid, sizeof uid, &out, sizeof out };
    UInt32 sizes[] = { 0, 1, (UInt32)sizeof t - 1 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        UInt32 io = sizes[i];
        OSStatus status = AudioObjectGetPropertyData(object, a, 0, NULL, &io, &t);
        CHECK(status == kAudioHardwareBadPropertySizeError, "%s read with %u bytes: %s", where(object, a, e, text), (unsigned)sizes[i], code(status, got));
    }
    AudioValueTranslation shortOutput = { &uid, sizeof uid, &out, 2 };
    UInt32 io = sizeof shortOutput;
    OSStatus status = AudioObjectGetPropertyData(object, a, 0, NULL, &io, &shortOutput);
    CHECK(status == kAudioHardwareBadPropertySizeError, "%s with a 2-byte output: %s", where(object, a, e, text), code(status, got));
    AudioValueTranslation nullInput = { NULL, sizeof uid, &out, sizeof out };
    io = sizeof nullInput;
    status = AudioObjectGetPropertyData(object, a, 0, NULL, &io, &nullInput);
    CHECK(status != noErr, "%s with a NULL input: %s", where(object, a, e, text), code(status, got));
    io = sizeof t;
    status = AudioObjectGetPropertyData(object, a, 0, NULL, &io, &t);
    CHECK(status == noErr && out == expected, "%s: %s, %u, expected %u", where(object, a, e, text), code(status, got), (unsigned)out,
          (unsigned)expected);
}

/* Sets with wrong sizes (refused, nothing changed), then the value it has (accepted). */
static void checkSets(AudioObjectID object, const AudioObjectPropertyAddress *a, const Entry *e, UInt32 full) {
    char text[160], got[16];
    Boolean settable = 2;
    OSStatus status = AudioObjectIsPropertySettable(object, a, &settable);
    CHECK(status == noErr && settable == e->settable, "%s: settable %d (%s), expected %d", where(object, a, e, text), (int)settable,
          code(status, got), (int)e->settable);
    unsigned char *current = calloc(1, 2 * full + 8), *after = calloc(1, 2 * full + 8);
    UInt32 io = full;
    if (AudioObjectGetPropertyData(object, a, 0, NULL, &io, current) != noErr) {
        FAIL("%s cannot be read back", where(object, a, e, text));
        free(current);
        free(after);
        return;
    }
    if (!e->settable) {
        status = AudioObjectSetPropertyData(object, a, 0, NULL, full, current);
        CHECK(status == kAudioHardwareIllegalOperationError, "%s (read-only) set: %s", where(object, a, e, text), code(status, got));
        status = AudioObjectSetPropertyData(object, a, 0, NULL, 1, current);
        CHECK(status != noErr, "%s (read-only) set with 1 byte: %s", where(object, a, e, text), code(status, got));
        free(current);
        free(after);
        return;
    }
    UInt32 sizes[] = { 0, 1, 3, full - 1, full + 1, full + 3, 2 * full };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (sizes[i] == full) continue;
        status = AudioObjectSetPropertyData(object, a, 0, NULL, sizes[i], current);
        CHECK(status == kAudioHardwareBadPropertySizeError, "%s set with %u of %u bytes: %s", where(object, a, e, text), (unsigned)sizes[i],
              (unsigned)full, code(status, got));
        io = full;
        CHECK(AudioObjectGetPropertyData(object, a, 0, NULL, &io, after) == noErr &&
              (changesMeanwhile(object, a->mSelector) || memcmp(current, after, full) == 0),
              "%s changed by a refused set of %u bytes", where(object, a, e, text), (unsigned)sizes[i]);
    }
    AudioObjectID none = kAudioObjectUnknown;
    Boolean isDefault = a->mSelector != kAudioHardwarePropertyRunLoop && object == kAudioObjectSystemObject;
    Boolean noDefault = isDefault && (shared || memcmp(current, &none, sizeof none) == 0);
    if (!noDefault) {
        status = AudioObjectSetPropertyData(object, a, 0, NULL, full, current);
        CHECK(status == noErr, "%s set to the value it has: %s", where(object, a, e, text), code(status, got));
    }
    free(current);
    free(after);
}

/* The calls before AudioObject answer the same size, settability and (for a fixed-size value
   that is not a new CFString) the same bytes as the AudioObject calls. */
static void checkOlderCalls(AudioObjectID object, const AudioObjectPropertyAddress *a, const Entry *e, int kind, UInt32 full) {
    char text[160], got[16];
    UInt32 size = 0xFFFF;
    Boolean writable = 2;
    OSStatus status;
    Boolean input = a->mScope == kAudioObjectPropertyScopeInput;
    if (kind == SYS) status = AudioHardwareGetPropertyInfo(a->mSelector, &size, &writable);
    else if (kind == STR) status = AudioStreamGetPropertyInfo(object, a->mElement, a->mSelector, &size, &writable);
    else if (a->mScope == kAudioObjectPropertyScopeGlobal) return; /* AudioDevice… calls have only input and output */
    else status = AudioDeviceGetPropertyInfo(object, a->mElement, input, a->mSelector, &size, &writable);
    CHECK(status == noErr && size == full && writable == e->settable, "%s: the older info call says %s, %u bytes, writable %d", where(object, a, e, text),
          code(status, got), (unsigned)size, (int)writable);
    if (e->shape != FIXED || full > 256) return;
    unsigned char mine[256], older[256];
    UInt32 mineSize = full, olderSize = full;
    if (AudioObjectGetPropertyData(object, a, 0, NULL, &mineSize, mine) != noErr) return;
    if (kind == SYS) status = AudioHardwareGetProperty(a->mSelector, &olderSize, older);
    else if (kind == STR) status = AudioStreamGetProperty(object, a->mElement, a->mSelector, &olderSize, older);
    else status = AudioDeviceGetProperty(object, a->mElement, input, a->mSelector, &olderSize, older);
    CHECK(status == noErr && olderSize == mineSize && (changesMeanwhile(object, a->mSelector) || memcmp(mine, older, mineSize) == 0),
          "%s: the older call reads %s, %u bytes, not the same value",
          where(object, a, e, text), code(status, got), (unsigned)olderSize);
}

/* Every size check of one answered property. */
static void checkProperty(AudioObjectID object, const AudioObjectPropertyAddress *a, Entry *e, int kind, CFStringRef uid, AudioObjectID device) {
    char text[160], got[16];
    e->seen++;
    propertiesChecked++;
    if (e->shape == QUALIFIED) { checkQualified(object, a, e); return; }
    if (e->shape == TRANSLATION) { checkTranslation(object, a, e, uid, e->selector == kAudioHardwarePropertyDeviceForUID ? device : kAudioObjectUnknown); return; }
    UInt32 full = 0;
    OSStatus status = AudioObjectGetPropertyDataSize(object, a, 0, NULL, &full);
    if (status != noErr) { FAIL("%s: its size is %s", where(object, a, e, text), code(status, got)); return; }
    UInt32 sizes[] = { 0, 1, 3, full > 0 ? full - 1 : 0, full, full + 1, full + 3, 2 * full + 1 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) readWithSize(object, a, e, full, sizes[i]);
    if (full > 0) checkSets(object, a, e, full);
    checkOlderCalls(object, a, e, kind, full);
}

/* Tries every declared selector on one object at one address; checks what it answers. */
static void probe(AudioObjectID object, int kind, AudioObjectPropertyScope scope, AudioObjectPropertyElement element, CFStringRef uid, AudioObjectID device) {
    for (size_t i = 0; i < sizeof declared / sizeof declared[0]; i++) {
        AudioObjectPropertyAddress a = { declared[i].selector, scope, element };
        if (!AudioObjectHasProperty(object, &a)) continue;
        Entry *e = entryFor(declared[i].selector, kind);
        if (!e) {
            FAIL("%s is answered by object %u (kind %d, element %u) but is not in the table", declared[i].name, (unsigned)object, kind, (unsigned)element);
            continue;
        }
        checkProperty(object, &a, e, kind, uid, device);
    }
}

/* ------------------------------------------------------------------------------------------- */
/* The back-end: what it reads of each device and stream, and what it checks. */

static OSStatus get(AudioObjectID object, AudioObjectPropertySelector selector, AudioObjectPropertyScope scope, UInt32 element, UInt32 size, void *out) {
    AudioObjectPropertyAddress a = { selector, scope, element };
    UInt32 io = size;
    OSStatus status = AudioObjectGetPropertyData(object, &a, 0, NULL, &io, out);
    if (status == noErr && io != size) return kAudioHardwareBadPropertySizeError;
    return status;
}

static OSStatus setValue(AudioObjectID object, AudioObjectPropertySelector selector, AudioObjectPropertyScope scope, UInt32 size, const void *data) {
    AudioObjectPropertyAddress a = { selector, scope, kAudioObjectPropertyElementMain };
    return AudioObjectSetPropertyData(object, &a, 0, NULL, size, data);
}

static UInt32 *array(AudioObjectID object, AudioObjectPropertySelector selector, AudioObjectPropertyScope scope, UInt32 *count) {
    AudioObjectPropertyAddress a = { selector, scope, kAudioObjectPropertyElementMain };
    UInt32 size = 0;
    *count = 0;
    if (AudioObjectGetPropertyDataSize(object, &a, 0, NULL, &size) != noErr) return NULL;
    UInt32 *ids = malloc(size + 4);
    if (AudioObjectGetPropertyData(object, &a, 0, NULL, &size, ids) != noErr) { free(ids); return NULL; }
    *count = size / 4;
    return ids;
}

static void text(CFStringRef s, char *out, size_t size) {
    out[0] = 0;
    if (s) CFStringGetCString(s, out, (CFIndex)size, kCFStringEncodingUTF8);
}

static UInt32 configurationChannels(AudioDeviceID device, AudioObjectPropertyScope scope) {
    AudioObjectPropertyAddress a = { kAudioDevicePropertyStreamConfiguration, scope, kAudioObjectPropertyElementMain };
    UInt32 size = 0, total = 0;
    if (AudioObjectGetPropertyDataSize(device, &a, 0, NULL, &size) != noErr) return 0;
    AudioBufferList *list = malloc(size);
    if (AudioObjectGetPropertyData(device, &a, 0, NULL, &size, list) == noErr)
        for (UInt32 i = 0; i < list->mNumberBuffers; i++) total += list->mBuffers[i].mNumberChannels;
    free(list);
    return total;
}

static volatile int objectCalls = 0, deviceCalls = 0;

static OSStatus heardObject(AudioObjectID object, UInt32 count, const AudioObjectPropertyAddress *addresses, void *data) {
    (void)object; (void)data;
    for (UInt32 i = 0; i < count; i++)
        if (addresses[i].mSelector == kAudioDevicePropertyBufferFrameSize) __atomic_add_fetch(&objectCalls, 1, __ATOMIC_SEQ_CST);
    return noErr;
}

static OSStatus heardDevice(AudioDeviceID device, UInt32 channel, Boolean isInput, AudioDevicePropertyID selector, void *data) {
    (void)device; (void)channel; (void)isInput; (void)data;
    if (selector == kAudioDevicePropertyBufferFrameSize) __atomic_add_fetch(&deviceCalls, 1, __ATOMIC_SEQ_CST);
    return noErr;
}

static OSStatus heardNothing(AudioObjectID object, UInt32 count, const AudioObjectPropertyAddress *addresses, void *data) {
    (void)object; (void)count; (void)addresses; (void)data;
    return noErr;
}

static Boolean sameFormat(const AudioStreamBasicDescription *a, const AudioStreamBasicDescription *b) {
    return a->mSampleRate == b->mSampleRate && a->mFormatID == b->mFormatID && a->mFormatFlags == b->mFormatFlags &&
           a->mBytesPerPacket == b->mBytesPerPacket && a->mFramesPerPacket == b->mFramesPerPacket && a->mBytesPerFrame == b->mBytesPerFrame &&
           a->mChannelsPerFrame == b->mChannelsPerFrame && a->mBitsPerChannel == b->mBitsPerChannel;
}

/* A stream as the back-end opens it: its direction, channels and format. */
static void checkStream(AudioDeviceID device, AudioStreamID stream, AudioObjectPropertyScope scope, UInt32 channels, Float64 rate) {
    UInt32 direction = 9, owner = 0, starting = 0, terminal = 0, latency = 99;
    AudioStreamBasicDescription virtualFormat, physicalFormat, deprecatedFormat;
    CHECK(get(stream, kAudioStreamPropertyDirection, kAudioObjectPropertyScopeGlobal, 0, 4, &direction) == noErr &&
          direction == (scope == kAudioObjectPropertyScopeInput ? 1u : 0u), "stream %u direction %u", (unsigned)stream, (unsigned)direction);
    CHECK(get(stream, kAudioObjectPropertyOwner, kAudioObjectPropertyScopeGlobal, 0, 4, &owner) == noErr && owner == device, "stream %u owner %u",
          (unsigned)stream, (unsigned)owner);
    CHECK(get(stream, kAudioStreamPropertyStartingChannel, kAudioObjectPropertyScopeGlobal, 0, 4, &starting) == noErr && starting == 1,
          "stream %u starting channel %u", (unsigned)stream, (unsigned)starting);
    CHECK(get(stream, kAudioStreamPropertyTerminalType, kAudioObjectPropertyScopeGlobal, 0, 4, &terminal) == noErr &&
          terminal == (scope == kAudioObjectPropertyScopeInput ? kAudioStreamTerminalTypeMicrophone : kAudioStreamTerminalTypeSpeaker),
          "stream %u terminal type %08x", (unsigned)stream, (unsigned)terminal);
    CHECK(get(stream, kAudioStreamPropertyLatency, kAudioObjectPropertyScopeGlobal, 0, 4, &latency) == noErr, "stream %u latency", (unsigned)stream);
    CHECK(get(stream, kAudioStreamPropertyVirtualFormat, kAudioObjectPropertyScopeGlobal, 0, sizeof virtualFormat, &virtualFormat) == noErr &&
          get(stream, kAudioStreamPropertyPhysicalFormat, kAudioObjectPropertyScopeGlobal, 0, sizeof physicalFormat, &physicalFormat) == noErr,
          "stream %u formats", (unsigned)stream);
    CHECK(virtualFormat.mChannelsPerFrame == channels, "stream %u: %u channels, the stream configuration says %u", (unsigned)stream,
          (unsigned)virtualFormat.mChannelsPerFrame, (unsigned)channels);
    CHECK(virtualFormat.mSampleRate == rate, "stream %u at %.0f Hz, the device at %.0f", (unsigned)stream, virtualFormat.mSampleRate, rate);
    CHECK(virtualFormat.mFormatID == kAudioFormatLinearPCM && virtualFormat.mBytesPerFrame == virtualFormat.mChannelsPerFrame * virtualFormat.mBitsPerChannel / 8,
          "stream %u: an inconsistent format", (unsigned)stream);
    CHECK(sameFormat(&virtualFormat, &physicalFormat), "stream %u: virtual and physical formats differ", (unsigned)stream);
    /* The calls before AudioObject: the stream's, and the device's per-direction format. */
    UInt32 size = sizeof deprecatedFormat;
    CHECK(AudioStreamGetProperty(stream, 0, kAudioStreamPropertyVirtualFormat, &size, &deprecatedFormat) == noErr &&
          sameFormat(&virtualFormat, &deprecatedFormat), "AudioStreamGetProperty's format of stream %u", (unsigned)stream);
    size = sizeof deprecatedFormat;
    CHECK(AudioDeviceGetProperty(device, 0, scope == kAudioObjectPropertyScopeInput, kAudioDevicePropertyStreamFormat, &size, &deprecatedFormat) == noErr &&
          sameFormat(&virtualFormat, &deprecatedFormat), "AudioDeviceGetProperty's stream format of device %u", (unsigned)device);
    size = sizeof deprecatedFormat;
    CHECK(AudioDeviceGetProperty(device, channels, scope == kAudioObjectPropertyScopeInput, kAudioDevicePropertyStreamFormat, &size, &deprecatedFormat) == noErr &&
          sameFormat(&virtualFormat, &deprecatedFormat), "the stream format of device %u's last channel", (unsigned)device);
    size = sizeof deprecatedFormat;
    CHECK(AudioDeviceGetProperty(device, channels + 1, scope == kAudioObjectPropertyScopeInput, kAudioDevicePropertyStreamFormat, &size, &deprecatedFormat) ==
          kAudioHardwareUnknownPropertyError, "a channel past device %u's last has a format", (unsigned)device);
    /* The available formats include the current one. */
    AudioObjectPropertyAddress a = { kAudioStreamPropertyAvailableVirtualFormats, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    UInt32 bytes = 0;
    int found = 0;
    if (AudioObjectGetPropertyDataSize(stream, &a, 0, NULL, &bytes) == noErr && bytes > 0) {
        AudioStreamRangedDescription *formats = malloc(bytes);
        if (AudioObjectGetPropertyData(stream, &a, 0, NULL, &bytes, formats) == noErr)
            for (UInt32 i = 0; i < bytes / sizeof *formats; i++)
                if (sameFormat(&formats[i].mFormat, &virtualFormat) && formats[i].mSampleRateRange.mMinimum <= rate &&
                    formats[i].mSampleRateRange.mMaximum >= rate) found = 1;
        free(formats);
    }
    CHECK(found, "stream %u: its format is not among its available formats", (unsigned)stream);
}

/* Sets what the back-end wants (a buffer size, a rate, a format) and reads it back; restores. */
static void checkSettings(AudioDeviceID device, AudioObjectPropertyScope scope, AudioStreamID stream) {
    char got[16];
    AudioValueRange range;
    UInt32 frames = 0, back = 0;
    CHECK(get(device, kAudioDevicePropertyBufferFrameSizeRange, kAudioObjectPropertyScopeGlobal, 0, sizeof range, &range) == noErr &&
          get(device, kAudioDevicePropertyBufferFrameSize, kAudioObjectPropertyScopeGlobal, 0, 4, &frames) == noErr, "device %u buffer size", (unsigned)device);
    CHECK(frames >= range.mMinimum && frames <= range.mMaximum, "device %u: buffer size %u outside %.0f-%.0f", (unsigned)device, (unsigned)frames,
          range.mMinimum, range.mMaximum);
    UInt32 wanted = frames == 256 ? 1024 : 256;
    if (wanted < range.mMinimum || wanted > range.mMaximum) wanted = (UInt32)range.mMinimum;
    __atomic_store_n(&objectCalls, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&deviceCalls, 0, __ATOMIC_SEQ_CST);
    AudioObjectPropertyAddress fsiz = { kAudioDevicePropertyBufferFrameSize, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    CHECK(AudioObjectAddPropertyListener(device, &fsiz, heardObject, NULL) == noErr, "a buffer size listener");
    CHECK(AudioDeviceAddPropertyListener(device, 0, false, kAudioDevicePropertyBufferFrameSize, heardDevice, NULL) == noErr, "a device listener");
    OSStatus status = setValue(device, kAudioDevicePropertyBufferFrameSize, kAudioObjectPropertyScopeGlobal, 4, &wanted);
    CHECK(status == noErr && get(device, kAudioDevicePropertyBufferFrameSize, kAudioObjectPropertyScopeGlobal, 0, 4, &back) == noErr && back == wanted,
          "device %u: buffer size %u set (%s), read back %u", (unsigned)device, (unsigned)wanted, code(status, got), (unsigned)back);
    UInt32 size = 4, deprecated = 0;
    CHECK(AudioDeviceGetProperty(device, 0, false, kAudioDevicePropertyBufferFrameSize, &size, &deprecated) == noErr && deprecated == wanted,
          "AudioDeviceGetProperty's buffer size %u", (unsigned)deprecated);
    for (int i = 0; i < 500 && (__atomic_load_n(&objectCalls, __ATOMIC_SEQ_CST) == 0 || __atomic_load_n(&deviceCalls, __ATOMIC_SEQ_CST) == 0); i++) usleep(10000);
    CHECK(objectCalls > 0 && deviceCalls > 0, "device %u: the buffer size listeners were called %d and %d times", (unsigned)device, objectCalls, deviceCalls);
    CHECK(AudioObjectRemovePropertyListener(device, &fsiz, heardObject, NULL) == noErr, "removing the listener");
    CHECK(AudioDeviceRemovePropertyListener(device, 0, false, kAudioDevicePropertyBufferFrameSize, heardDevice) == noErr, "removing the device listener");
    UInt32 tooLarge = (UInt32)range.mMaximum + 1;
    status = setValue(device, kAudioDevicePropertyBufferFrameSize, kAudioObjectPropertyScopeGlobal, 4, &tooLarge);
    CHECK(status != noErr, "device %u: a buffer size past the range was accepted", (unsigned)device);
    /* The size in bytes of the stream's buffer (the calls before 10.5), set through the old call. */
    AudioStreamBasicDescription format;
    CHECK(get(stream, kAudioStreamPropertyVirtualFormat, kAudioObjectPropertyScopeGlobal, 0, sizeof format, &format) == noErr, "format");
    UInt32 bytes = 0;
    CHECK(get(device, kAudioDevicePropertyBufferSize, scope, 0, 4, &bytes) == noErr && bytes == wanted * format.mBytesPerFrame,
          "device %u: %u buffer bytes for %u frames of %u bytes", (unsigned)device, (unsigned)bytes, (unsigned)wanted, (unsigned)format.mBytesPerFrame);
    bytes = frames * format.mBytesPerFrame;
    CHECK(AudioDeviceSetProperty(device, NULL, 0, scope == kAudioObjectPropertyScopeInput, kAudioDevicePropertyBufferSize, 4, &bytes) == noErr &&
          get(device, kAudioDevicePropertyBufferFrameSize, kAudioObjectPropertyScopeGlobal, 0, 4, &back) == noErr && back == frames,
          "device %u: the buffer size in bytes set back to %u frames (%u)", (unsigned)device, (unsigned)frames, (unsigned)back);

    /* The rate: another one of the list, through the nominal rate and through the stream. */
    Float64 rate = 0, actual = 0;
    CHECK(get(device, kAudioDevicePropertyNominalSampleRate, kAudioObjectPropertyScopeGlobal, 0, 8, &rate) == noErr, "rate");
    UInt32 count = 0;
    AudioObjectPropertyAddress nsr = { kAudioDevicePropertyAvailableNominalSampleRates, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    UInt32 listSize = 0;
    AudioValueRange *rates = NULL;
    if (AudioObjectGetPropertyDataSize(device, &nsr, 0, NULL, &listSize) == noErr && listSize > 0) {
        rates = malloc(listSize);
        if (AudioObjectGetPropertyData(device, &nsr, 0, NULL, &listSize, rates) == noErr) count = listSize / sizeof *rates;
    }
    Float64 other = 0;
    for (UInt32 i = 0; i < count; i++)
        if (rates[i].mMinimum != rate && (other == 0 || rates[i].mMinimum == 48000 || rates[i].mMinimum == 44100)) other = rates[i].mMinimum;
    free(rates);
    CHECK(other > 0, "device %u: no second rate to choose", (unsigned)device);
    if (other > 0) {
        CHECK(setValue(device, kAudioDevicePropertyNominalSampleRate, kAudioObjectPropertyScopeGlobal, 8, &other) == noErr, "set rate %.0f", other);
        AudioStreamBasicDescription after;
        CHECK(get(stream, kAudioStreamPropertyVirtualFormat, kAudioObjectPropertyScopeGlobal, 0, sizeof after, &after) == noErr && after.mSampleRate == other,
              "device %u: the stream at %.0f Hz after the device was set to %.0f", (unsigned)device, after.mSampleRate, other);
        CHECK(get(device, kAudioDevicePropertyActualSampleRate, kAudioObjectPropertyScopeGlobal, 0, 8, &actual) == noErr && actual == other,
              "device %u: actual rate %.0f", (unsigned)device, actual);
        /* Back through the stream's virtual format, as back-ends that set the format do. */
        AudioStreamBasicDescription wantedFormat = format;
        CHECK(setValue(stream, kAudioStreamPropertyVirtualFormat, kAudioObjectPropertyScopeGlobal, sizeof wantedFormat, &wantedFormat) == noErr &&
              get(device, kAudioDevicePropertyNominalSampleRate, kAudioObjectPropertyScopeGlobal, 0, 8, &actual) == noErr && actual == rate,
              "device %u: the rate after setting the stream's format back: %.0f, expected %.0f", (unsigned)device, actual, rate);
    }
    Float64 odd = 12345;
    status = setValue(device, kAudioDevicePropertyNominalSampleRate, kAudioObjectPropertyScopeGlobal, 8, &odd);
    CHECK(status == kAudioDeviceUnsupportedFormatError, "device %u: 12345 Hz set: %s", (unsigned)device, code(status, got));
    AudioStreamBasicDescription integer = format;
    integer.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
    integer.mBitsPerChannel = 16;
    integer.mBytesPerFrame = integer.mBytesPerPacket = 2 * integer.mChannelsPerFrame;
    status = setValue(stream, kAudioStreamPropertyVirtualFormat, kAudioObjectPropertyScopeGlobal, sizeof integer, &integer);
    CHECK(status == kAudioDeviceUnsupportedFormatError, "device %u: a 16-bit format set: %s", (unsigned)device, code(status, got));
}

static void checkDevice(AudioDeviceID device, int *streamsChecked) {
    char name[256], cname[256], uidText[256], got[16];
    CFStringRef nameString = NULL, uid = NULL, deprecatedName = NULL;
    CHECK(get(device, kAudioObjectPropertyName, kAudioObjectPropertyScopeGlobal, 0, sizeof nameString, &nameString) == noErr, "device %u name", (unsigned)device);
    CHECK(get(device, kAudioDevicePropertyDeviceUID, kAudioObjectPropertyScopeGlobal, 0, sizeof uid, &uid) == noErr, "device %u UID", (unsigned)device);
    text(nameString, name, sizeof name);
    text(uid, uidText, sizeof uidText);
    printf("device %s: %u output, %u input channels\n", uidText, (unsigned)configurationChannels(device, kAudioObjectPropertyScopeOutput),
           (unsigned)configurationChannels(device, kAudioObjectPropertyScopeInput));
    UInt32 size = sizeof cname;
    CHECK(AudioDeviceGetProperty(device, 0, false, kAudioDevicePropertyDeviceName, &size, cname) == noErr && strcmp(cname, name) == 0,
          "device %u: C name \"%s\", CFString name \"%s\"", (unsigned)device, cname, name);
    size = sizeof deprecatedName;
    CHECK(AudioDeviceGetProperty(device, 0, false, kAudioDevicePropertyDeviceNameCFString, &size, &deprecatedName) == noErr && deprecatedName &&
          CFStringCompare(deprecatedName, nameString, 0) == kCFCompareEqualTo, "device %u: the older CFString name", (unsigned)device);
    if (deprecatedName) CFRelease(deprecatedName);

    /* The UID leads back to the device, both ways. */
    AudioDeviceID translated = 0;
    AudioValueTranslation t = { &uid, sizeof uid, &translated, sizeof translated };
    size = sizeof t;
    CHECK(AudioHardwareGetProperty(kAudioHardwarePropertyDeviceForUID, &size, &t) == noErr && translated == device,
          "device %u: DeviceForUID(%s) = %u", (unsigned)device, uidText, (unsigned)translated);

    UInt32 alive = 0, hog = 0, running = 9;
    CHECK(get(device, kAudioDevicePropertyDeviceIsAlive, kAudioObjectPropertyScopeGlobal, 0, 4, &alive) == noErr && alive == 1, "device %u alive", (unsigned)device);
    CHECK(get(device, kAudioDevicePropertyHogMode, kAudioObjectPropertyScopeGlobal, 0, 4, &hog) == noErr && (pid_t)hog == -1, "device %u hog mode %d",
          (unsigned)device, (int)hog);
    CHECK(get(device, kAudioDevicePropertyDeviceIsRunning, kAudioObjectPropertyScopeGlobal, 0, 4, &running) == noErr && running <= 1, "running");

    Float64 rate = 0;
    CHECK(get(device, kAudioDevicePropertyNominalSampleRate, kAudioObjectPropertyScopeGlobal, 0, 8, &rate) == noErr && rate > 0, "device %u rate", (unsigned)device);
    AudioObjectPropertyAddress nsr = { kAudioDevicePropertyAvailableNominalSampleRates, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    UInt32 listSize = 0;
    int listed = 0;
    if (AudioObjectGetPropertyDataSize(device, &nsr, 0, NULL, &listSize) == noErr && listSize > 0) {
        AudioValueRange *rates = malloc(listSize);
        if (AudioObjectGetPropertyData(device, &nsr, 0, NULL, &listSize, rates) == noErr)
            for (UInt32 i = 0; i < listSize / sizeof *rates; i++)
                if (rates[i].mMinimum <= rate && rate <= rates[i].mMaximum) listed = 1;
        free(rates);
    }
    CHECK(listed, "device %u: its rate %.0f is not among its available rates", (unsigned)device, rate);
    Float64 deprecatedRate = 0;
    size = 8;
    CHECK(AudioDeviceGetProperty(device, 0, false, kAudioDevicePropertyNominalSampleRate, &size, &deprecatedRate) == noErr && deprecatedRate == rate,
          "AudioDeviceGetProperty's rate %.0f", deprecatedRate);
    UInt32 infoSize = 0;
    Boolean writable = 0;
    CHECK(AudioDeviceGetPropertyInfo(device, 0, false, kAudioDevicePropertyBufferFrameSize, &infoSize, &writable) == noErr && infoSize == 4 && writable,
          "AudioDeviceGetPropertyInfo of the buffer size: %u bytes, writable %d", (unsigned)infoSize, (int)writable);

    /* Unsupported on purpose: no volume or source controls, no workgroup, no overload reports. */
    AudioObjectPropertyAddress volume = { kAudioDevicePropertyVolumeScalar, kAudioObjectPropertyScopeOutput, kAudioObjectPropertyElementMain };
    AudioObjectPropertyAddress source = { kAudioDevicePropertyDataSource, kAudioObjectPropertyScopeOutput, kAudioObjectPropertyElementMain };
    CHECK(!AudioObjectHasProperty(device, &volume) && !AudioObjectHasProperty(device, &source), "device %u: a volume or data source", (unsigned)device);
    UInt32 workgroup[4];
    OSStatus status = get(device, kAudioDevicePropertyIOThreadOSWorkgroup, kAudioObjectPropertyScopeGlobal, 0, 8, workgroup);
    CHECK(status == kAudioHardwareUnknownPropertyError, "device %u: the I/O thread's workgroup: %s", (unsigned)device, code(status, got));
    AudioObjectPropertyAddress overload = { kAudioDeviceProcessorOverload, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    CHECK(AudioObjectAddPropertyListener(device, &overload, heardNothing, NULL) == noErr &&
          AudioObjectRemovePropertyListener(device, &overload, heardNothing, NULL) == noErr, "an overload listener");

    UInt32 streamCount = 0;
    UInt32 *all = array(device, kAudioDevicePropertyStreams, kAudioObjectPropertyScopeGlobal, &streamCount);
    UInt32 owned = 0;
    AudioClassID streamClass = kAudioStreamClassID, deviceClass = kAudioDeviceClassID;
    AudioObjectPropertyAddress ownd = { kAudioObjectPropertyOwnedObjects, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    UInt32 ownedIDs[8];
    size = sizeof ownedIDs;
    CHECK(AudioObjectGetPropertyData(device, &ownd, sizeof streamClass, &streamClass, &size, ownedIDs) == noErr && (owned = size / 4) == streamCount,
          "device %u: %u streams owned, %u listed", (unsigned)device, (unsigned)owned, (unsigned)streamCount);
    size = sizeof ownedIDs;
    CHECK(AudioObjectGetPropertyData(device, &ownd, sizeof deviceClass, &deviceClass, &size, ownedIDs) == noErr && size == 0,
          "device %u owns devices", (unsigned)device);
    free(all);

    AudioObjectPropertyScope scopes[2] = { kAudioObjectPropertyScopeOutput, kAudioObjectPropertyScopeInput };
    Boolean settingsChecked = false;
    for (int s = 0; s < 2; s++) {
        UInt32 channels = configurationChannels(device, scopes[s]), count = 0;
        UInt32 *streams = array(device, kAudioDevicePropertyStreams, scopes[s], &count);
        CHECK((channels == 0) == (count == 0), "device %u: %u channels in %u streams", (unsigned)device, (unsigned)channels, (unsigned)count);
        for (UInt32 i = 0; i < count; i++) {
            checkStream(device, streams[i], scopes[s], channels, rate);
            (*streamsChecked)++;
        }
        if (channels > 0) {
            UInt32 stereo[2] = { 0, 0 };
            CHECK(get(device, kAudioDevicePropertyPreferredChannelsForStereo, scopes[s], 0, sizeof stereo, stereo) == noErr && stereo[0] >= 1 &&
                  stereo[0] <= channels && stereo[1] >= 1 && stereo[1] <= channels, "device %u: stereo channels %u %u", (unsigned)device,
                  (unsigned)stereo[0], (unsigned)stereo[1]);
            AudioObjectPropertyAddress layoutAddress = { kAudioDevicePropertyPreferredChannelLayout, scopes[s], kAudioObjectPropertyElementMain };
            UInt32 layoutSize = 0;
            if (AudioObjectGetPropertyDataSize(device, &layoutAddress, 0, NULL, &layoutSize) == noErr) {
                AudioChannelLayout *layout = malloc(layoutSize);
                CHECK(AudioObjectGetPropertyData(device, &layoutAddress, 0, NULL, &layoutSize, layout) == noErr &&
                      layout->mChannelLayoutTag == kAudioChannelLayoutTag_UseChannelDescriptions && layout->mNumberChannelDescriptions == channels,
                      "device %u: a channel layout of %u descriptions for %u channels", (unsigned)device, (unsigned)layout->mNumberChannelDescriptions,
                      (unsigned)channels);
                free(layout);
            } else {
                FAIL("device %u: no channel layout", (unsigned)device);
            }
            for (UInt32 c = 1; c <= channels; c++) {
                CFStringRef element = NULL;
                char elementText[128], channelText[128];
                CHECK(get(device, kAudioObjectPropertyElementName, scopes[s], c, sizeof element, &element) == noErr && element, "device %u channel %u name",
                      (unsigned)device, (unsigned)c);
                text(element, elementText, sizeof elementText);
                if (element) CFRelease(element);
                size = sizeof channelText;
                CHECK(AudioDeviceGetProperty(device, c, scopes[s] == kAudioObjectPropertyScopeInput, kAudioDevicePropertyChannelName, &size, channelText) == noErr &&
                      strcmp(channelText, elementText) == 0, "device %u channel %u: \"%s\" and \"%s\"", (unsigned)device, (unsigned)c, channelText, elementText);
            }
            UInt32 latency = 99, offset = 99;
            CHECK(get(device, kAudioDevicePropertyLatency, scopes[s], 0, 4, &latency) == noErr &&
                  get(device, kAudioDevicePropertySafetyOffset, scopes[s], 0, 4, &offset) == noErr, "device %u latency and safety offset", (unsigned)device);
            Boolean others = ownPrefix && strncmp(uidText, "pulse:", 6) == 0 && strncmp(uidText + 6, ownPrefix, strlen(ownPrefix)) != 0;
            if (!settingsChecked && count > 0 && !others) {
                checkSettings(device, scopes[s], streams[0]);
                settingsChecked = true;
            }
        }
        free(streams);
    }

    /* The size checks, on every selector the headers declare, in every scope and on channel 1. */
    probe(device, DEV, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain, uid, device);
    for (int s = 0; s < 2; s++) {
        probe(device, DEV, scopes[s], kAudioObjectPropertyElementMain, uid, device);
        if (configurationChannels(device, scopes[s]) > 0) probe(device, CHN, scopes[s], 1, uid, device);
        UInt32 count = 0;
        UInt32 *streams = array(device, kAudioDevicePropertyStreams, scopes[s], &count);
        for (UInt32 i = 0; i < count; i++) probe(streams[i], STR, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain, uid, device);
        free(streams);
    }
    if (nameString) CFRelease(nameString);
    if (uid) CFRelease(uid);
}

int main(int argc, char **argv) {
    char got[16];
    shared = argc > 1 && strcmp(argv[1], "--shared") == 0;
    if (shared && argc > 2) ownPrefix = argv[2];
    UInt32 count = 0;
    AudioDeviceID *devices = array(kAudioObjectSystemObject, kAudioHardwarePropertyDevices, kAudioObjectPropertyScopeGlobal, &count);
    CHECK(devices && count > 0, "no devices");

    /* The system object, through AudioObject and through the calls before it. */
    AudioDeviceID output = 0, deprecatedOutput = 0;
    UInt32 size = 4;
    CHECK(get(kAudioObjectSystemObject, kAudioHardwarePropertyDefaultOutputDevice, kAudioObjectPropertyScopeGlobal, 0, 4, &output) == noErr &&
          AudioHardwareGetProperty(kAudioHardwarePropertyDefaultOutputDevice, &size, &deprecatedOutput) == noErr &&
          (changesMeanwhile(kAudioObjectSystemObject, kAudioHardwarePropertyDefaultOutputDevice) || output == deprecatedOutput),
          "default output %u, %u the older way", (unsigned)output, (unsigned)deprecatedOutput);
    UInt32 infoSize = 0;
    Boolean writable = 0;
    CHECK(AudioHardwareGetPropertyInfo(kAudioHardwarePropertyDevices, &infoSize, &writable) == noErr && infoSize == 4 * count && !writable,
          "AudioHardwareGetPropertyInfo of the devices: %u bytes, writable %d", (unsigned)infoSize, (int)writable);
    OSStatus status = AudioHardwareSetProperty(kAudioHardwarePropertyDefaultOutputDevice, 3, &output);
    CHECK(status == kAudioHardwareBadPropertySizeError, "AudioHardwareSetProperty of the default output with 3 bytes: %s", code(status, got));
    if (!shared) {
        status = AudioHardwareSetProperty(kAudioHardwarePropertyDefaultOutputDevice, 4, &output);
        CHECK(status == noErr, "AudioHardwareSetProperty of the default output to itself: %s", code(status, got));
    }
    AudioClassID deviceClass = kAudioDeviceClassID;
    AudioObjectPropertyAddress ownd = { kAudioObjectPropertyOwnedObjects, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    UInt32 ownedSize = 0;
    CHECK(AudioObjectGetPropertyDataSize(kAudioObjectSystemObject, &ownd, sizeof deviceClass, &deviceClass, &ownedSize) == noErr && ownedSize == 4 * count,
          "the system object owns %u bytes of devices", (unsigned)ownedSize);
    char oddQualifier[3] = { 0, 0, 0 };
    status = AudioObjectGetPropertyDataSize(kAudioObjectSystemObject, &ownd, sizeof oddQualifier, oddQualifier, &ownedSize);
    CHECK(status == kAudioHardwareBadPropertySizeError, "OwnedObjects with a 3-byte qualifier: %s", code(status, got));
    CHECK(AudioHardwareUnload() == noErr, "AudioHardwareUnload");
    AudioObjectID aggregate = 7;
    CFStringRef key = CFSTR(kAudioAggregateDeviceUIDKey);
    status = AudioHardwareCreateAggregateDevice((CFDictionaryRef)key, &aggregate);
    CHECK(status == kAudioHardwareUnsupportedOperationError && aggregate == kAudioObjectUnknown, "AudioHardwareCreateAggregateDevice: %s", code(status, got));
    AudioObjectPropertyAddress restarted = { kAudioHardwarePropertyServiceRestarted, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    CHECK(AudioObjectAddPropertyListener(kAudioObjectSystemObject, &restarted, heardNothing, NULL) == noErr &&
          AudioObjectRemovePropertyListener(kAudioObjectSystemObject, &restarted, heardNothing, NULL) == noErr, "a service-restarted listener");

    release(true);
    int streams = 0;
    for (UInt32 i = 0; i < count; i++) {
        checkDevice(devices[i], &streams);
        AudioObjectPropertyAddress alive = { kAudioDevicePropertyDeviceIsAlive, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
        Boolean stillThere = AudioObjectHasProperty(devices[i], &alive);
        if (!stillThere) printf("device %u went away while it was checked\n", (unsigned)devices[i]);
        release(stillThere);
    }
    CFStringRef firstUID = NULL;
    if (count > 0) get(devices[0], kAudioDevicePropertyDeviceUID, kAudioObjectPropertyScopeGlobal, 0, sizeof firstUID, &firstUID);
    probe(kAudioObjectSystemObject, SYS, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain, firstUID, count > 0 ? devices[0] : 0);
    if (firstUID) CFRelease(firstUID);
    for (size_t i = 0; i < TABLE_COUNT; i++) CHECK(table[i].seen > 0, "%s is in the table but nothing answered it", table[i].name);
    release(true);
    free(devices);
    printf("checked %u devices, %d streams, %d properties\n", (unsigned)count, streams, propertiesChecked);
    return failures ? 1 : 0;
}
