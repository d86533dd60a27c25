/*
 * Result codes of misuse of the HAL subset (<CoreAudio/AudioHardware.h>) and Audio Hardware
 * Services (<AudioToolbox/AudioServices.h>), run by api_checks' "errors" mode (linked into it).
 * NULL pointers are kAudioHardwareIllegalOperationError ('nope'), an unknown object
 * kAudioHardwareBadObjectError ('!obj'), a property the object lacks
 * kAudioHardwareUnknownPropertyError ('who?'), a wrong size kAudioHardwareBadPropertySizeError
 * ('!siz'); never a crash.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudio/AudioHardware.h>

#define EXPECT(cond, ...) do { if (cond) (*passed)++; else { (*failed)++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)
#define EXPECT_STATUS(call, expected) do { OSStatus s_ = (call); EXPECT(s_ == (OSStatus)(expected), "%s = %d, expected %s = %d", #call, (int)s_, #expected, (int)(expected)); } while (0)

static OSStatus noteChange(AudioObjectID o, UInt32 n, const AudioObjectPropertyAddress *a, void *d) {
    (void)o; (void)n; (void)a; (void)d;
    return noErr;
}

static OSStatus noteSystemChange(AudioHardwarePropertyID selector, void *data) {
    (void)selector; (void)data;
    return noErr;
}

static OSStatus noteDeviceChange(AudioDeviceID device, UInt32 channel, Boolean isInput, AudioDevicePropertyID selector, void *data) {
    (void)device; (void)channel; (void)isInput; (void)selector; (void)data;
    return noErr;
}

static OSStatus noteStreamChange(AudioStreamID stream, UInt32 channel, AudioDevicePropertyID selector, void *data) {
    (void)stream; (void)channel; (void)selector; (void)data;
    return noErr;
}

void halErrors(int *passed, int *failed);

void halErrors(int *passed, int *failed) {
    const AudioObjectID system = kAudioObjectSystemObject, bogus = 0x7FFFFF00;
    AudioObjectPropertyAddress devices = { kAudioHardwarePropertyDevices, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMaster };
    AudioObjectPropertyAddress defaultOut = { kAudioHardwarePropertyDefaultOutputDevice, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    AudioObjectPropertyAddress unknown = { 0x7A7A7A7A, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    AudioObjectPropertyAddress badScope = { kAudioHardwarePropertyDevices, 0x7A7A7A7A, kAudioObjectPropertyElementMain };
    AudioObjectPropertyAddress volume = { kAudioHardwareServiceDeviceProperty_VirtualMasterVolume, kAudioObjectPropertyScopeOutput, kAudioObjectPropertyElementMaster };
    AudioObjectPropertyAddress translate = { kAudioHardwarePropertyTranslateUIDToDevice, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    AudioObjectPropertyAddress runLoop = { kAudioHardwarePropertyRunLoop, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    Boolean settable = 2;
    UInt32 size = 0, value = 0;

    /* AudioObjectHasProperty */
    EXPECT(AudioObjectHasProperty(system, &devices), "the system object has kAudioHardwarePropertyDevices");
    EXPECT(!AudioObjectHasProperty(system, NULL), "NULL address: false");
    EXPECT(!AudioObjectHasProperty(bogus, &devices), "unknown object: false");
    EXPECT(!AudioObjectHasProperty(kAudioObjectUnknown, &devices), "kAudioObjectUnknown: false");
    EXPECT(!AudioObjectHasProperty(system, &unknown), "unknown selector: false");
    EXPECT(!AudioObjectHasProperty(system, &badScope), "unknown scope: false");

    /* AudioObjectIsPropertySettable */
    EXPECT_STATUS(AudioObjectIsPropertySettable(system, NULL, &settable), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectIsPropertySettable(system, &devices, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectIsPropertySettable(bogus, &devices, &settable), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioObjectIsPropertySettable(system, &unknown, &settable), kAudioHardwareUnknownPropertyError);
    EXPECT_STATUS(AudioObjectIsPropertySettable(system, &devices, &settable), kAudioHardwareNoError);
    EXPECT(settable == 0, "kAudioHardwarePropertyDevices is read-only");
    EXPECT_STATUS(AudioObjectIsPropertySettable(system, &defaultOut, &settable), kAudioHardwareNoError);
    EXPECT(settable == 1, "the default output device is settable");

    /* AudioObjectGetPropertyDataSize */
    EXPECT_STATUS(AudioObjectGetPropertyDataSize(system, NULL, 0, NULL, &size), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectGetPropertyDataSize(system, &devices, 0, NULL, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectGetPropertyDataSize(bogus, &devices, 0, NULL, &size), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioObjectGetPropertyDataSize(system, &unknown, 0, NULL, &size), kAudioHardwareUnknownPropertyError);
    EXPECT_STATUS(AudioObjectGetPropertyDataSize(system, &badScope, 0, NULL, &size), kAudioHardwareUnknownPropertyError);
    EXPECT_STATUS(AudioObjectGetPropertyDataSize(system, &defaultOut, 0, NULL, &size), kAudioHardwareNoError);
    EXPECT(size == sizeof(AudioObjectID), "default output size %u", (unsigned)size);

    /* AudioObjectGetPropertyData */
    size = sizeof value;
    EXPECT_STATUS(AudioObjectGetPropertyData(system, NULL, 0, NULL, &size, &value), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectGetPropertyData(system, &defaultOut, 0, NULL, NULL, &value), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectGetPropertyData(system, &defaultOut, 0, NULL, &size, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectGetPropertyData(bogus, &defaultOut, 0, NULL, &size, &value), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioObjectGetPropertyData(system, &unknown, 0, NULL, &size, &value), kAudioHardwareUnknownPropertyError);
    size = 2;
    EXPECT_STATUS(AudioObjectGetPropertyData(system, &defaultOut, 0, NULL, &size, &value), kAudioHardwareBadPropertySizeError);
    size = sizeof value;
    EXPECT_STATUS(AudioObjectGetPropertyData(system, &defaultOut, 0, NULL, &size, &value), kAudioHardwareNoError);
    AudioDeviceID device = value;
    EXPECT(device != kAudioObjectUnknown && AudioObjectHasProperty(device, &volume) == false,
           "a default output (%u), without the service's volume through AudioObject", (unsigned)device);
    /* The UID to translate comes as the qualifier: the property exists, but reading it without
       one is a wrong size. */
    EXPECT(AudioObjectHasProperty(system, &translate), "the system object has kAudioHardwarePropertyTranslateUIDToDevice");
    size = sizeof value;
    EXPECT_STATUS(AudioObjectGetPropertyData(system, &translate, 0, NULL, &size, &value), kAudioHardwareBadPropertySizeError);
    CFStringRef nosuch = CFSTR("nosuch:device");
    EXPECT_STATUS(AudioObjectGetPropertyData(system, &translate, sizeof nosuch, &nosuch, &size, &value), kAudioHardwareNoError);
    EXPECT(value == kAudioObjectUnknown, "an unknown UID translates to kAudioObjectUnknown, not %u", (unsigned)value);

    /* AudioObjectSetPropertyData */
    value = device;
    EXPECT_STATUS(AudioObjectSetPropertyData(system, NULL, 0, NULL, sizeof value, &value), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectSetPropertyData(system, &defaultOut, 0, NULL, sizeof value, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectSetPropertyData(bogus, &defaultOut, 0, NULL, sizeof value, &value), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioObjectSetPropertyData(system, &unknown, 0, NULL, sizeof value, &value), kAudioHardwareUnknownPropertyError);
    EXPECT_STATUS(AudioObjectSetPropertyData(system, &devices, 0, NULL, sizeof value, &value), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectSetPropertyData(system, &defaultOut, 0, NULL, 2, &value), kAudioHardwareBadPropertySizeError);
    EXPECT_STATUS(AudioObjectSetPropertyData(system, &defaultOut, 0, NULL, sizeof value, &value), kAudioHardwareNoError);
    value = bogus;
    EXPECT_STATUS(AudioObjectSetPropertyData(system, &defaultOut, 0, NULL, sizeof value, &value), kAudioHardwareBadDeviceError);
    CFRunLoopRef loop = (CFRunLoopRef)(void *)nosuch; /* not a run loop */
    EXPECT_STATUS(AudioObjectSetPropertyData(system, &runLoop, 0, NULL, sizeof loop, &loop), kAudioHardwareIllegalOperationError);
    loop = NULL;
    EXPECT_STATUS(AudioObjectSetPropertyData(system, &runLoop, 0, NULL, sizeof loop, &loop), kAudioHardwareNoError);

    /* AudioObjectAddPropertyListener / AudioObjectRemovePropertyListener */
    EXPECT_STATUS(AudioObjectAddPropertyListener(system, NULL, noteChange, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectAddPropertyListener(system, &devices, NULL, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectAddPropertyListener(bogus, &devices, noteChange, NULL), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioObjectRemovePropertyListener(system, NULL, noteChange, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectRemovePropertyListener(system, &devices, NULL, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioObjectRemovePropertyListener(system, &devices, noteChange, NULL), kAudioHardwareNoError);
    EXPECT_STATUS(AudioObjectAddPropertyListener(system, &devices, noteChange, NULL), kAudioHardwareNoError);
    EXPECT_STATUS(AudioObjectRemovePropertyListener(system, &devices, noteChange, NULL), kAudioHardwareNoError);
    AudioObjectShow(bogus); /* says so on standard error */

    /* Audio Hardware Services: the same codes, and the virtual main volume. */
    EXPECT(!AudioHardwareServiceHasProperty(system, NULL), "NULL address: false");
    EXPECT(!AudioHardwareServiceHasProperty(bogus, &devices), "unknown object: false");
    EXPECT(AudioHardwareServiceHasProperty(device, &volume), "the default output has a virtual main volume");
    EXPECT_STATUS(AudioHardwareServiceIsPropertySettable(system, NULL, &settable), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareServiceIsPropertySettable(bogus, &devices, &settable), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioHardwareServiceIsPropertySettable(system, &unknown, &settable), kAudioHardwareUnknownPropertyError);
    EXPECT_STATUS(AudioHardwareServiceGetPropertyDataSize(system, NULL, 0, NULL, &size), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareServiceGetPropertyDataSize(bogus, &devices, 0, NULL, &size), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioHardwareServiceGetPropertyDataSize(device, &volume, 0, NULL, &size), kAudioHardwareNoError);
    EXPECT(size == sizeof(Float32), "volume size %u", (unsigned)size);
    Float32 level = -1;
    size = 2;
    EXPECT_STATUS(AudioHardwareServiceGetPropertyData(device, &volume, 0, NULL, &size, &level), kAudioHardwareBadPropertySizeError);
    size = sizeof level;
    EXPECT_STATUS(AudioHardwareServiceGetPropertyData(system, &defaultOut, 0, NULL, NULL, &value), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareServiceGetPropertyData(bogus, &volume, 0, NULL, &size, &level), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioHardwareServiceGetPropertyData(device, &volume, 0, NULL, &size, &level), kAudioHardwareNoError);
    EXPECT(level >= 0 && level <= 1, "volume %f", (double)level);
    EXPECT_STATUS(AudioHardwareServiceSetPropertyData(system, NULL, 0, NULL, sizeof level, &level), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareServiceSetPropertyData(bogus, &volume, 0, NULL, sizeof level, &level), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioHardwareServiceSetPropertyData(device, &volume, 0, NULL, sizeof level, &level), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareServiceAddPropertyListener(system, NULL, noteChange, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareServiceAddPropertyListener(bogus, &devices, noteChange, NULL), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioHardwareServiceRemovePropertyListener(system, &devices, NULL, NULL), kAudioHardwareIllegalOperationError);

    /* The calls before AudioObject. */
    EXPECT_STATUS(AudioHardwareGetProperty(kAudioHardwarePropertyDevices, NULL, &value), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareGetProperty(0x7A7A7A7A, &size, &value), kAudioHardwareUnknownPropertyError);
    EXPECT_STATUS(AudioHardwareGetPropertyInfo(0x7A7A7A7A, &size, NULL), kAudioHardwareUnknownPropertyError);
    EXPECT_STATUS(AudioHardwareGetPropertyInfo(kAudioHardwarePropertyDevices, NULL, NULL), kAudioHardwareNoError);
    size = sizeof value;
    EXPECT_STATUS(AudioDeviceGetProperty(bogus, 0, false, kAudioDevicePropertyDeviceIsAlive, &size, &value), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioDeviceGetProperty(device, 0, false, kAudioDevicePropertyDeviceIsAlive, NULL, &value), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioDeviceGetProperty(device, 0, false, kAudioDevicePropertyDeviceIsAlive, &size, &value), kAudioHardwareNoError);
    EXPECT(value == 1, "the default output is alive");
    EXPECT_STATUS(AudioDeviceGetPropertyInfo(bogus, 0, true, kAudioDevicePropertyStreamConfiguration, &size, NULL), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioDeviceGetPropertyInfo(device, 0, false, 0x7A7A7A7A, &size, NULL), kAudioHardwareUnknownPropertyError);
    EXPECT_STATUS(AudioHardwareSetProperty(kAudioHardwarePropertyDevices, sizeof value, &value), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareSetProperty(kAudioHardwarePropertyDefaultOutputDevice, sizeof value, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareSetProperty(kAudioHardwarePropertyDefaultOutputDevice, 3, &value), kAudioHardwareBadPropertySizeError);
    EXPECT_STATUS(AudioHardwareAddPropertyListener(kAudioHardwarePropertyDevices, NULL, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareRemovePropertyListener(kAudioHardwarePropertyDevices, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareRemovePropertyListener(kAudioHardwarePropertyDevices, noteSystemChange), kAudioHardwareNoError);
    EXPECT_STATUS(AudioHardwareAddPropertyListener(kAudioHardwarePropertyDevices, noteSystemChange, NULL), kAudioHardwareNoError);
    EXPECT_STATUS(AudioHardwareRemovePropertyListener(kAudioHardwarePropertyDevices, noteSystemChange), kAudioHardwareNoError);
    EXPECT_STATUS(AudioHardwareAddRunLoopSource(NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioDeviceSetProperty(bogus, NULL, 0, false, kAudioDevicePropertyBufferFrameSize, sizeof value, &value), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioDeviceSetProperty(device, NULL, 0, false, kAudioDevicePropertyBufferFrameSize, sizeof value, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioDeviceSetProperty(device, NULL, 0, false, kAudioDevicePropertyDeviceIsAlive, sizeof value, &value), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioDeviceSetProperty(device, NULL, 0, false, kAudioDevicePropertyBufferFrameSize, 2, &value), kAudioHardwareBadPropertySizeError);
    value = 0; /* no buffer of no frames */
    EXPECT_STATUS(AudioDeviceSetProperty(device, NULL, 0, false, kAudioDevicePropertyBufferFrameSize, sizeof value, &value), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioDeviceAddPropertyListener(bogus, 0, false, kAudioDevicePropertyDeviceIsAlive, noteDeviceChange, NULL), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioDeviceAddPropertyListener(device, 0, false, kAudioDevicePropertyDeviceIsAlive, NULL, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioDeviceRemovePropertyListener(device, 0, false, kAudioDevicePropertyDeviceIsAlive, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioDeviceRemovePropertyListener(device, 0, false, kAudioDevicePropertyDeviceIsAlive, noteDeviceChange), kAudioHardwareNoError);
    size = sizeof value;
    EXPECT_STATUS(AudioStreamGetProperty(bogus, 0, kAudioStreamPropertyDirection, &size, &value), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioStreamGetPropertyInfo(bogus, 0, kAudioStreamPropertyDirection, &size, NULL), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioStreamSetProperty(bogus, NULL, 0, kAudioStreamPropertyDirection, sizeof value, &value), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioStreamAddPropertyListener(bogus, 0, kAudioStreamPropertyVirtualFormat, noteStreamChange, NULL), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioStreamAddPropertyListener(bogus, 0, kAudioStreamPropertyVirtualFormat, NULL, NULL), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioStreamRemovePropertyListener(bogus, 0, kAudioStreamPropertyVirtualFormat, noteStreamChange), kAudioHardwareNoError);
    /* A channel past the device's last has no properties; channel 1 has a name. */
    size = sizeof value;
    EXPECT_STATUS(AudioDeviceGetProperty(device, 4096, false, kAudioDevicePropertyChannelName, &size, &value), kAudioHardwareUnknownPropertyError);

    /* Aggregate devices and block listeners: declared, unsupported. */
    AudioObjectID aggregate = 9;
    EXPECT_STATUS(AudioHardwareCreateAggregateDevice(NULL, &aggregate), kAudioHardwareIllegalOperationError);
    EXPECT_STATUS(AudioHardwareDestroyAggregateDevice(bogus), kAudioHardwareBadObjectError);
    EXPECT_STATUS(AudioHardwareDestroyAggregateDevice(device), kAudioHardwareUnsupportedOperationError);
    EXPECT_STATUS(AudioHardwareUnload(), kAudioHardwareNoError);
}
