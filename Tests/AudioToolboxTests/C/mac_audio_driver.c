/*
 * mac_audio_driver.c — the header surface of a macOS audio driver, written as SDL's and game
 * engines' Core Audio backends and AAC encoder front ends are: <AvailabilityMacros.h> first and
 * MAC_OS_X_VERSION_MIN_REQUIRED checks choosing the AudioComponent API over the Component
 * Manager's, <Carbon/Carbon.h> and <AudioUnit/AudioUnit.h>, audio unit descriptions and render
 * callbacks, channel layout tags given to Audio Format Services
 * (kAudioFormatProperty_NumberOfChannelsForLayout, kAudioFormatProperty_ChannelLayoutForTag),
 * MPEG4ObjectID in an AAC description, <libkern/OSAtomic.h>, <os/workgroup.h>, the host clock,
 * eofErr and the other classic result codes. Compiled as C99/C11 and C++03/11/17 with GCC and
 * Clang, -Wall -Wextra -pedantic -Werror; checks every value against Apple's documented one
 * (the channel orders are the ones the comments of Apple's CoreAudioBaseTypes.h give, written
 * as they are there; where a Mac answers otherwise, Pentagonal, Hexagonal, Octagonal and Cube,
 * the order a Mac gives, as FFmpeg's mov_chan.c records it). Prints "ok".
 *
 * swift-audio-queue. Apache License 2.0.
 */
#include <AvailabilityMacros.h>

#if !defined(MAC_OS_X_VERSION_10_6) || MAC_OS_X_VERSION_MIN_REQUIRED < MAC_OS_X_VERSION_10_6
    #error "needs the AudioComponent API (macOS 10.6)"
#endif
#if MAC_OS_X_VERSION_MAX_ALLOWED >= 1050
    #define DRIVER_USES_AUDIOCOMPONENT 1
#else
    #define DRIVER_USES_AUDIOCOMPONENT 0
#endif

#include <Carbon/Carbon.h>
#include <AudioUnit/AudioUnit.h>
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudio/CoreAudio.h>
#include <CoreAudio/HostTime.h>
#include <CarbonCore/MacErrors.h>
#include <libkern/OSAtomic.h>
#include <os/workgroup.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if DRIVER_USES_AUDIOCOMPONENT
typedef AudioComponentDescription DriverDescription;
#else
typedef ComponentDescription DriverDescription;
#endif

static int failures = 0;

/* Counts and reports a failed check (a function: C++03 has no variadic macros). */
static void check(int line, int ok, const char *format, ...) {
    va_list args;
    if (ok) return;
    failures++;
    printf("FAIL line %d: ", line);
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    printf("\n");
}

/* The driver's own declarations, marked as Mac code marks them. */
extern int driver_old_entry(void) DEPRECATED_ATTRIBUTE;
extern int driver_entry(void) AVAILABLE_MAC_OS_X_VERSION_10_6_AND_LATER;
extern int driver_modern_entry(void) API_AVAILABLE(macos(10.10), ios(8.0)) API_UNAVAILABLE(watchos);
extern int driver_replaced_entry(void) API_DEPRECATED_WITH_REPLACEMENT("driver_entry", macos(10.0, 10.6));
extern int driver_starting_entry(void) __OSX_AVAILABLE_STARTING(__MAC_10_5, __IPHONE_2_0);
extern int driver_deprecated_entry(void) __OSX_AVAILABLE_BUT_DEPRECATED(__MAC_10_0, __MAC_10_5, __IPHONE_NA, __IPHONE_NA);
extern int driver_api_entry(void) __API_AVAILABLE(macos(10.13)) API_DEPRECATED("gone", macos(10.0, 10.13));

typedef struct DriverState {
    volatile int32_t callbacks;
    volatile uint32_t flags;
    OSSpinLock lock;
} DriverState;

static OSStatus render(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                       UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    DriverState *state = (DriverState *)inRefCon;
    UInt32 i;
    (void)inTimeStamp;
    (void)inBusNumber;
    OSAtomicIncrement32Barrier(&state->callbacks);
    for (i = 0; i < ioData->mNumberBuffers; i++) memset(ioData->mBuffers[i].mData, 0, ioData->mBuffers[i].mDataByteSize);
    if (inNumberFrames > 0) *ioActionFlags |= kAudioUnitRenderAction_OutputIsSilence;
    return noErr;
}

/* The channel labels Apple's comments abbreviate, with their kAudioChannelLabel_ values. */
static const struct { const char *name; UInt32 label; } abbreviations[] = {
    {"L", 1}, {"R", 2}, {"C", 3}, {"LFE", 4}, {"Ls", 5}, {"Rs", 6}, {"Lc", 7}, {"Rc", 8}, {"Cs", 9}, {"Lsd", 10},
    {"Rsd", 11}, {"Ts", 12}, {"Vhl", 13}, {"Vhc", 14}, {"Vhr", 15}, {"Rls", 33}, {"Rrs", 34}, {"Lw", 35}, {"Rw", 36},
    {"LFE2", 37}, {"Lt", 38}, {"Rt", 39}, {"Ltm", 49}, {"Rtm", 51}, {"Ltr", 52}, {"Rtr", 54},
};

static UInt32 labelNamed(const char *name, size_t length) {
    size_t i;
    for (i = 0; i < sizeof(abbreviations) / sizeof(abbreviations[0]); i++) {
        if (strlen(abbreviations[i].name) == length && strncmp(abbreviations[i].name, name, length) == 0) return abbreviations[i].label;
    }
    return 0xFFFFFFFFU;
}

/* A tag, its value as Apple's header gives it, and its channels in order. */
typedef struct TagCase {
    const char *name;
    AudioChannelLayoutTag tag;
    UInt32 value;
    const char *channels;
} TagCase;

#define TAG(name, index, count, channels) { #name, kAudioChannelLayoutTag_##name, ((UInt32)(index) << 16) | (count), channels }

static const TagCase tagCases[] = {
    TAG(Stereo, 101, 2, "L R"), TAG(StereoHeadphones, 102, 2, "L R"), TAG(MatrixStereo, 103, 2, "Lt Rt"),
    TAG(Quadraphonic, 108, 4, "L R Ls Rs"), TAG(Pentagonal, 109, 5, "L R Rls Rrs C"), TAG(Hexagonal, 110, 6, "L R Rls Rrs C Cs"),
    TAG(Octagonal, 111, 8, "L R Rls Rrs C Cs Ls Rs"), TAG(Cube, 112, 8, "L R Ls Rs Vhl Vhr Ltr Rtr"),
    TAG(MPEG_2_0, 101, 2, "L R"), TAG(MPEG_3_0_A, 113, 3, "L R C"), TAG(MPEG_3_0_B, 114, 3, "C L R"),
    TAG(MPEG_4_0_A, 115, 4, "L R C Cs"), TAG(MPEG_4_0_B, 116, 4, "C L R Cs"), TAG(MPEG_5_0_A, 117, 5, "L R C Ls Rs"),
    TAG(MPEG_5_0_B, 118, 5, "L R Ls Rs C"), TAG(MPEG_5_0_C, 119, 5, "L C R Ls Rs"), TAG(MPEG_5_0_D, 120, 5, "C L R Ls Rs"),
    TAG(MPEG_5_1_A, 121, 6, "L R C LFE Ls Rs"), TAG(MPEG_5_1_B, 122, 6, "L R Ls Rs C LFE"), TAG(MPEG_5_1_C, 123, 6, "L C R Ls Rs LFE"),
    TAG(MPEG_5_1_D, 124, 6, "C L R Ls Rs LFE"), TAG(MPEG_6_1_A, 125, 7, "L R C LFE Ls Rs Cs"),
    TAG(MPEG_7_1_A, 126, 8, "L R C LFE Ls Rs Lc Rc"), TAG(MPEG_7_1_B, 127, 8, "C Lc Rc L R Ls Rs LFE"),
    TAG(MPEG_7_1_C, 128, 8, "L R C LFE Ls Rs Rls Rrs"), TAG(Emagic_Default_7_1, 129, 8, "L R Ls Rs C LFE Lc Rc"),
    TAG(SMPTE_DTV, 130, 8, "L R C LFE Ls Rs Lt Rt"),
    TAG(ITU_2_0, 101, 2, "L R"), TAG(ITU_2_1, 131, 3, "L R Cs"), TAG(ITU_2_2, 132, 4, "L R Ls Rs"), TAG(ITU_3_0, 113, 3, "L R C"),
    TAG(ITU_3_1, 115, 4, "L R C Cs"), TAG(ITU_3_2, 117, 5, "L R C Ls Rs"), TAG(ITU_3_2_1, 121, 6, "L R C LFE Ls Rs"),
    TAG(ITU_3_4_1, 128, 8, "L R C LFE Ls Rs Rls Rrs"),
    TAG(DVD_1, 101, 2, "L R"), TAG(DVD_2, 131, 3, "L R Cs"), TAG(DVD_3, 132, 4, "L R Ls Rs"), TAG(DVD_4, 133, 3, "L R LFE"),
    TAG(DVD_5, 134, 4, "L R LFE Cs"), TAG(DVD_6, 135, 5, "L R LFE Ls Rs"), TAG(DVD_7, 113, 3, "L R C"), TAG(DVD_8, 115, 4, "L R C Cs"),
    TAG(DVD_9, 117, 5, "L R C Ls Rs"), TAG(DVD_10, 136, 4, "L R C LFE"), TAG(DVD_11, 137, 5, "L R C LFE Cs"),
    TAG(DVD_12, 121, 6, "L R C LFE Ls Rs"), TAG(DVD_13, 115, 4, "L R C Cs"), TAG(DVD_14, 117, 5, "L R C Ls Rs"),
    TAG(DVD_15, 136, 4, "L R C LFE"), TAG(DVD_16, 137, 5, "L R C LFE Cs"), TAG(DVD_17, 121, 6, "L R C LFE Ls Rs"),
    TAG(DVD_18, 138, 5, "L R Ls Rs LFE"), TAG(DVD_19, 118, 5, "L R Ls Rs C"), TAG(DVD_20, 122, 6, "L R Ls Rs C LFE"),
    TAG(AudioUnit_4, 108, 4, "L R Ls Rs"), TAG(AudioUnit_5, 109, 5, "L R Rls Rrs C"), TAG(AudioUnit_6, 110, 6, "L R Rls Rrs C Cs"),
    TAG(AudioUnit_8, 111, 8, "L R Rls Rrs C Cs Ls Rs"), TAG(AudioUnit_5_0, 118, 5, "L R Ls Rs C"),
    TAG(AudioUnit_6_0, 139, 6, "L R Ls Rs C Cs"), TAG(AudioUnit_7_0, 140, 7, "L R Ls Rs C Rls Rrs"),
    TAG(AudioUnit_7_0_Front, 148, 7, "L R Ls Rs C Lc Rc"), TAG(AudioUnit_5_1, 121, 6, "L R C LFE Ls Rs"),
    TAG(AudioUnit_6_1, 125, 7, "L R C LFE Ls Rs Cs"), TAG(AudioUnit_7_1, 128, 8, "L R C LFE Ls Rs Rls Rrs"),
    TAG(AudioUnit_7_1_Front, 126, 8, "L R C LFE Ls Rs Lc Rc"),
    TAG(AAC_3_0, 114, 3, "C L R"), TAG(AAC_Quadraphonic, 108, 4, "L R Ls Rs"), TAG(AAC_4_0, 116, 4, "C L R Cs"),
    TAG(AAC_5_0, 120, 5, "C L R Ls Rs"), TAG(AAC_5_1, 124, 6, "C L R Ls Rs LFE"), TAG(AAC_6_0, 141, 6, "C L R Ls Rs Cs"),
    TAG(AAC_6_1, 142, 7, "C L R Ls Rs Cs LFE"), TAG(AAC_7_0, 143, 7, "C L R Ls Rs Rls Rrs"),
    TAG(AAC_7_1, 127, 8, "C Lc Rc L R Ls Rs LFE"), TAG(AAC_7_1_B, 183, 8, "C L R Ls Rs Rls Rrs LFE"),
    TAG(AAC_7_1_C, 184, 8, "C L R Ls Rs LFE Vhl Vhr"), TAG(AAC_Octagonal, 144, 8, "C L R Ls Rs Rls Rrs Cs"),
    TAG(AC3_1_0_1, 149, 2, "C LFE"), TAG(AC3_3_0, 150, 3, "L C R"), TAG(AC3_3_1, 151, 4, "L C R Cs"),
    TAG(AC3_3_0_1, 152, 4, "L C R LFE"), TAG(AC3_2_1_1, 153, 4, "L R Cs LFE"), TAG(AC3_3_1_1, 154, 5, "L C R Cs LFE"),
    TAG(EAC_6_0_A, 155, 6, "L C R Ls Rs Cs"), TAG(EAC_7_0_A, 156, 7, "L C R Ls Rs Rls Rrs"),
    TAG(EAC3_6_1_A, 157, 7, "L C R Ls Rs LFE Cs"), TAG(EAC3_6_1_B, 158, 7, "L C R Ls Rs LFE Ts"),
    TAG(EAC3_6_1_C, 159, 7, "L C R Ls Rs LFE Vhc"), TAG(EAC3_7_1_A, 160, 8, "L C R Ls Rs LFE Rls Rrs"),
    TAG(EAC3_7_1_B, 161, 8, "L C R Ls Rs LFE Lc Rc"), TAG(EAC3_7_1_C, 162, 8, "L C R Ls Rs LFE Lsd Rsd"),
    TAG(EAC3_7_1_D, 163, 8, "L C R Ls Rs LFE Lw Rw"), TAG(EAC3_7_1_E, 164, 8, "L C R Ls Rs LFE Vhl Vhr"),
    TAG(EAC3_7_1_F, 165, 8, "L C R Ls Rs LFE Cs Ts"), TAG(EAC3_7_1_G, 166, 8, "L C R Ls Rs LFE Cs Vhc"),
    TAG(EAC3_7_1_H, 167, 8, "L C R Ls Rs LFE Ts Vhc"),
    TAG(DTS_3_1, 168, 4, "C L R LFE"), TAG(DTS_4_1, 169, 5, "C L R Cs LFE"), TAG(DTS_6_0_A, 170, 6, "Lc Rc L R Ls Rs"),
    TAG(DTS_6_1_D, 182, 7, "C L R Ls Rs LFE Cs"), TAG(DTS_8_1_B, 181, 9, "Lc C Rc L R Ls Cs Rs LFE"),
    TAG(WAVE_2_1, 133, 3, "L R LFE"), TAG(WAVE_3_0, 113, 3, "L R C"), TAG(WAVE_4_0_A, 132, 4, "L R Ls Rs"),
    TAG(WAVE_4_0_B, 185, 4, "L R Rls Rrs"), TAG(WAVE_5_0_A, 117, 5, "L R C Ls Rs"), TAG(WAVE_5_0_B, 186, 5, "L R C Rls Rrs"),
    TAG(WAVE_5_1_A, 121, 6, "L R C LFE Ls Rs"), TAG(WAVE_5_1_B, 187, 6, "L R C LFE Rls Rrs"),
    TAG(WAVE_6_1, 188, 7, "L R C LFE Cs Ls Rs"), TAG(WAVE_7_1, 189, 8, "L R C LFE Rls Rrs Ls Rs"),
    TAG(Atmos_5_1_2, 194, 8, "L R C LFE Ls Rs Ltm Rtm"), TAG(Atmos_7_1_4, 192, 12, "L R C LFE Ls Rs Rls Rrs Vhl Vhr Ltr Rtr"),
    TAG(Ogg_5_1, 213, 6, "L C R Rls Rrs LFE"), TAG(MPEG_7_1_D, 219, 8, "L R Rls Rrs Ls Rs C LFE"),
};

/* Channel counts of tags whose channels are not checked above. */
static const TagCase countCases[] = {
    TAG(Mono, 100, 1, ""), TAG(MPEG_1_0, 100, 1, ""), TAG(ITU_1_0, 100, 1, ""), TAG(DVD_0, 100, 1, ""),
    TAG(MidSide, 104, 2, ""), TAG(XY, 105, 2, ""), TAG(Binaural, 106, 2, ""), TAG(Ambisonic_B_Format, 107, 4, ""),
    TAG(TMH_10_2_std, 145, 16, ""), TAG(TMH_10_2_full, 146, 21, ""), TAG(DTS_8_1_A, 180, 9, ""),
    TAG(Atmos_9_1_6, 193, 16, ""), TAG(Logic_Atmos_7_1_6, 203, 14, ""), TAG(CICP_13, 204, 24, ""), TAG(CICP_20, 211, 14, ""),
    TAG(Ogg_7_1, 215, 8, ""), TAG(DiscreteInOrder, 147, 0, ""), TAG(HOA_ACN_SN3D, 190, 0, ""), TAG(HOA_ACN_N3D, 191, 0, ""),
};

static void checkLayout(const TagCase *c) {
    AudioChannelLayout layout;
    UInt32 channels = 0, size = sizeof(channels), infoSize = 0, expected[32], count = 0, i;
    const char *p = c->channels;
    AudioChannelLayout *expanded;
    OSStatus status;

    while (*p) {
        size_t length = strcspn(p, " ");
        expected[count++] = labelNamed(p, length);
        p += length;
        while (*p == ' ') p++;
    }
    check(__LINE__, c->tag == c->value, "%s is 0x%08X, Apple's value 0x%08X", c->name, (unsigned)c->tag, (unsigned)c->value);
    check(__LINE__, AudioChannelLayoutTag_GetNumberOfChannels(c->tag) == count, "%s: %u channels in the tag", c->name,
          (unsigned)AudioChannelLayoutTag_GetNumberOfChannels(c->tag));

    memset(&layout, 0, sizeof(layout));
    layout.mChannelLayoutTag = c->tag;
    status = AudioFormatGetProperty(kAudioFormatProperty_NumberOfChannelsForLayout, sizeof(layout), &layout, &size, &channels);
    check(__LINE__, status == noErr && channels == count, "%s: NumberOfChannelsForLayout %d, %u", c->name, (int)status, (unsigned)channels);

    status = AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, sizeof(c->tag), &c->tag, &infoSize);
    check(__LINE__, status == noErr && infoSize == offsetof(AudioChannelLayout, mChannelDescriptions) + count * sizeof(AudioChannelDescription),
          "%s: ChannelLayoutForTag size %d, %u", c->name, (int)status, (unsigned)infoSize);
    if (status != noErr) return;
    expanded = (AudioChannelLayout *)calloc(1, infoSize);
    status = AudioFormatGetProperty(kAudioFormatProperty_ChannelLayoutForTag, sizeof(c->tag), &c->tag, &infoSize, expanded);
    check(__LINE__, status == noErr && expanded->mChannelLayoutTag == kAudioChannelLayoutTag_UseChannelDescriptions
          && expanded->mNumberChannelDescriptions == count, "%s: ChannelLayoutForTag %d", c->name, (int)status);
    for (i = 0; status == noErr && i < count && i < expanded->mNumberChannelDescriptions; i++) {
        check(__LINE__, expanded->mChannelDescriptions[i].mChannelLabel == expected[i], "%s: channel %u is label %u, expected %u (%s)", c->name,
              (unsigned)i, (unsigned)expanded->mChannelDescriptions[i].mChannelLabel, (unsigned)expected[i], c->channels);
    }
    free(expanded);
}

static void checkVersions(void) {
    check(__LINE__, MAC_OS_X_VERSION_10_0 == 1000 && MAC_OS_X_VERSION_10_5 == 1050 && MAC_OS_X_VERSION_10_9 == 1090, "10.x versions");
    check(__LINE__, MAC_OS_X_VERSION_10_10 == 101000 && MAC_OS_X_VERSION_10_15 == 101500 && MAC_OS_VERSION_11_0 == 110000, "later versions");
    check(__LINE__, __MAC_10_6 == 1060 && __MAC_10_13 == 101300 && __MAC_11_0 == 110000 && __IPHONE_2_0 == 20000 && __IPHONE_8_0 == 80000, "__MAC_/__IPHONE_");
    check(__LINE__, MAC_OS_X_VERSION_MIN_REQUIRED == __MAC_OS_X_VERSION_MIN_REQUIRED, "MIN_REQUIRED %d", (int)MAC_OS_X_VERSION_MIN_REQUIRED);
    check(__LINE__, MAC_OS_X_VERSION_MAX_ALLOWED >= MAC_OS_X_VERSION_MIN_REQUIRED, "MAX_ALLOWED %d", (int)MAC_OS_X_VERSION_MAX_ALLOWED);
    check(__LINE__, TARGET_OS_MAC && TARGET_OS_OSX && !TARGET_OS_IPHONE, "TargetConditionals");
}

static void checkResultCodes(void) {
    OSErr errs[] = {eofErr, fnfErr, ioErr, dskFulErr, bdNamErr, fnOpnErr, posErr, opWrErr, permErr, wrPermErr, dupFNErr, paramErr,
                    memFullErr, unimpErr, userCanceledErr, nsvErr, dirNFErr, tmfoErr, nilHandleErr, resNotFound};
    const OSErr values[] = {-39, -43, -36, -34, -37, -38, -40, -49, -54, -61, -48, -50, -108, -4, -128, -35, -120, -42, -109, -192};
    size_t i;
    for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) check(__LINE__, errs[i] == values[i], "result code %u is %d", (unsigned)i, (int)errs[i]);
    check(__LINE__, noErr == 0 && badComponentInstance == (OSStatus)0x80008001 && invalidComponentID == -3000, "Component Manager codes");
    check(__LINE__, (int)kAudio_FileNotFoundError == (int)fnfErr && (int)kAudio_ParamError == (int)paramErr && (int)kAudio_MemFullError == (int)memFullErr,
          "kAudio_ codes");
    check(__LINE__, (int)kAudioFileEndOfFileError == (int)eofErr && (int)kAudioFilePositionError == (int)posErr, "AudioFile codes");
    check(__LINE__, fsRdPerm == 1 && fsRdWrPerm == 3, "permissions");
}

static void checkAudioUnitTypes(void) {
    DriverDescription desc;
    AURenderCallbackStruct callback;
    ComponentInstance instance = NULL;
    AudioUnit unit = instance;
    AudioComponentInstance componentInstance = unit;
    AudioUnitRenderActionFlags actionFlags = 0;
    AudioTimeStamp stamp;
    DriverState state;
    Float32 samples[8];
    AudioBufferList list;

    memset(&desc, 0, sizeof(desc));
    desc.componentType = kAudioUnitType_Output;
    desc.componentSubType = kAudioUnitSubType_DefaultOutput;
    desc.componentManufacturer = kAudioUnitManufacturer_Apple;
    check(__LINE__, desc.componentType == 0x61756F75 && desc.componentSubType == 0x64656620 && desc.componentManufacturer == 0x6170706C,
          "'auou' 'def ' 'appl'");
    check(__LINE__, kAudioUnitSubType_HALOutput == 0x6168616C && kAudioUnitSubType_SystemOutput == 0x73797320
          && kAudioUnitSubType_GenericOutput == 0x67656E72 && kAudioUnitSubType_AUConverter == 0x636F6E76
          && kAudioUnitSubType_MultiChannelMixer == 0x6D636D78 && kAudioUnitSubType_StereoMixer == 0x736D7872
          && kAudioUnitType_FormatConverter == 0x61756663 && kAudioUnitType_Mixer == 0x61756D78, "unit subtypes");
    check(__LINE__, kAudioUnitScope_Global == 0 && kAudioUnitScope_Input == 1 && kAudioUnitScope_Output == 2, "scopes");
    check(__LINE__, kAudioUnitProperty_StreamFormat == 8 && kAudioUnitProperty_SetRenderCallback == 23
          && kAudioUnitProperty_MaximumFramesPerSlice == 14 && kAudioUnitProperty_ElementCount == 11
          && kAudioUnitProperty_AudioChannelLayout == 19 && kAudioUnitProperty_SampleRate == 2, "properties");
    check(__LINE__, kAudioOutputUnitProperty_CurrentDevice == 2000 && kAudioOutputUnitProperty_EnableIO == 2003
          && kAudioOutputUnitProperty_SetInputCallback == 2005 && kAudioOutputUnitProperty_IsRunning == 2001
          && kAudioOutputUnitProperty_OSWorkgroup == 2015, "output unit properties");
    check(__LINE__, kAudioUnitErr_InvalidProperty == -10879 && kAudioUnitErr_FormatNotSupported == -10868
          && kAudioUnitErr_Uninitialized == -10867 && kAudioUnitErr_CannotDoInCurrentContext == -10863
          && kAudioComponentErr_InstanceInvalidated == -66749, "audio unit errors");
    check(__LINE__, kAudioUnitRenderAction_PreRender == 4 && kAudioUnitRenderAction_PostRender == 8
          && kAudioUnitRenderAction_OutputIsSilence == 16, "render action flags");
    check(__LINE__, (UInt32)kAudioUnitParameterFlag_IsWritable == 0x80000000U && kAudioUnitParameterFlag_IsReadable == 0x40000000U
          && kAudioUnitParameterUnit_Decibels == 13 && kHALOutputParam_Volume == 14 && kMultiChannelMixerParam_Volume == 0
          && kMultiChannelMixerParam_Pan == 2, "parameters");
    check(__LINE__, sizeof(AudioComponentDescription) == 20 && sizeof(ComponentDescription) == 20 && sizeof(ComponentResult) == 4
          && sizeof(AURenderCallbackStruct) == 2 * sizeof(void *) && sizeof(AudioUnitParameterInfo) == 104, "struct sizes");
    check(__LINE__, kAudioComponentFlag_SandboxSafe == 2 && kAudioComponentInstantiation_LoadOutOfProcess == 1, "component flags");

    /* The render callback, called as the output unit calls it. */
    memset(&state, 0, sizeof(state));
    callback.inputProc = render;
    callback.inputProcRefCon = &state;
    memset(&stamp, 0, sizeof(stamp));
    stamp.mFlags = kAudioTimeStampSampleHostTimeValid;
    stamp.mHostTime = AudioGetCurrentHostTime();
    list.mNumberBuffers = 1;
    list.mBuffers[0].mNumberChannels = 2;
    list.mBuffers[0].mDataByteSize = sizeof(samples);
    list.mBuffers[0].mData = samples;
    check(__LINE__, callback.inputProc(callback.inputProcRefCon, &actionFlags, &stamp, 0, 4, &list) == noErr && state.callbacks == 1
          && actionFlags == kAudioUnitRenderAction_OutputIsSilence, "render callback");
    check(__LINE__, componentInstance == NULL && kAudioTimeStampSampleHostTimeValid == 3, "instances");
}

static void checkAAC(void) {
    AudioStreamBasicDescription aac;
    MPEG4ObjectID object = kMPEG4Object_AAC_LC;
    memset(&aac, 0, sizeof(aac));
    aac.mSampleRate = 44100;
    aac.mFormatID = kAudioFormatMPEG4AAC;
    aac.mFormatFlags = (AudioFormatFlags)object;
    aac.mFramesPerPacket = 1024;
    aac.mChannelsPerFrame = 2;
    check(__LINE__, aac.mFormatID == 0x61616320 && aac.mFormatFlags == 2, "AAC LC description");
    check(__LINE__, kMPEG4Object_AAC_Main == 1 && kMPEG4Object_AAC_SSR == 3 && kMPEG4Object_AAC_LTP == 4 && kMPEG4Object_AAC_SBR == 5
          && kMPEG4Object_AAC_Scalable == 6 && kMPEG4Object_TwinVQ == 7 && kMPEG4Object_CELP == 8 && kMPEG4Object_HVXC == 9,
          "MPEG4ObjectID values");
    check(__LINE__, sizeof(MPEG4ObjectID) == sizeof(long), "MPEG4ObjectID is a long");
    check(__LINE__, kAudioFormatMPEG4AAC_HE == 0x61616368 && kAudioFormatMPEG4AAC_HE_V2 == 0x61616370 && kAudioFormatMPEG4AAC_ELD == 0x61616365
          && kAudioFormatEnhancedAC3 == 0x65632D33 && kAudioFormatFLAC == 0x666C6163 && kAudioFormatOpus == 0x6F707573, "format IDs");
    check(__LINE__, kAudioFormatFlagsCanonical == (kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked)
          && kAudioFormatFlagsAudioUnitCanonical == (kAudioFormatFlagsCanonical | kAudioFormatFlagIsNonInterleaved)
          && kAudioFormatFlagsNativeFloatPacked == 9 && kAudioStreamAnyRate == 0.0, "canonical flags");
    check(__LINE__, kSMPTETimeValid == 1 && kSMPTETimeRunning == 2 && kSMPTETimeType2997Drop == 5 && kSMPTETimeType2398 == 11, "SMPTE");
    check(__LINE__, kAudioChannelLabel_LeftTopMiddle == 49 && kAudioChannelLabel_HOA_ACN_0 == 0x20000 && kAudioChannelLabel_Object == 0x40000
          && kAudioChannelLabel_Discrete_65535 == 0x1FFFF && kAudioChannelLabel_HeadphonesLeft == 301, "labels");
    check(__LINE__, kAudioChannelBit_TopBackRight == (1U << 17) && kAudioChannelBit_RightTopRear == (1U << 26), "bitmap");
#if defined(__cplusplus)
    {
        AudioStreamBasicDescription pcm;
        FillOutASBDForLPCM(pcm, 48000, 2, 16, 16, false, false);
        check(__LINE__, pcm.mFormatFlags == (kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked) && pcm.mBytesPerFrame == 4
              && IsAudioFormatNativeEndian(pcm), "FillOutASBDForLPCM");
    }
#endif
}

static void checkHOA(void) {
    AudioChannelLayoutTag tag = kAudioChannelLayoutTag_HOA_ACN_SN3D | 4;
    UInt32 size = 0, i;
    AudioChannelLayout *layout;
    check(__LINE__, AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, sizeof(tag), &tag, &size) == noErr, "HOA size");
    layout = (AudioChannelLayout *)calloc(1, size > 0 ? size : 1);
    check(__LINE__, AudioFormatGetProperty(kAudioFormatProperty_ChannelLayoutForTag, sizeof(tag), &tag, &size, layout) == noErr
          && layout->mNumberChannelDescriptions == 4, "HOA layout");
    for (i = 0; i < layout->mNumberChannelDescriptions && i < 4; i++) {
        check(__LINE__, layout->mChannelDescriptions[i].mChannelLabel == (kAudioChannelLabel_HOA_ACN_0 | i), "HOA channel %u", (unsigned)i);
    }
    free(layout);
}

static void checkAtomics(void) {
    DriverState state;
    volatile uint32_t bits = 0x1;
    volatile int32_t counter = 5;
    volatile OSAtomic_int64_aligned64_t wide = 1;
    int plain = 7;
    long along = 8;
    void *volatile pointer = NULL;
    unsigned char bytes[2] = {0, 0};
    memset(&state, 0, sizeof(state));

    check(__LINE__, OSAtomicOr32(0x4, &bits) == 0x5 && OSAtomicOr32Barrier(0x2, &bits) == 0x7, "Or32");
    check(__LINE__, OSAtomicAnd32(0x6, &bits) == 0x6 && OSAtomicAnd32Barrier(0x2, &bits) == 0x2 && OSAtomicXor32(0x3, &bits) == 0x1, "And32");
    check(__LINE__, OSAtomicOr32Orig(0x8, &bits) == 0x1 && bits == 0x9, "Or32Orig");
    check(__LINE__, OSAtomicAdd32(10, &counter) == 15 && OSAtomicAdd32Barrier(-5, &counter) == 10, "Add32");
    check(__LINE__, OSAtomicIncrement32(&counter) == 11 && OSAtomicDecrement32Barrier(&counter) == 10, "Increment/Decrement32");
    check(__LINE__, OSAtomicCompareAndSwap32(10, 20, &counter) && counter == 20 && !OSAtomicCompareAndSwap32Barrier(10, 30, &counter), "CAS32");
    check(__LINE__, OSAtomicAdd64(41, &wide) == 42 && OSAtomicCompareAndSwap64Barrier(42, 7, &wide) && wide == 7, "64-bit");
    check(__LINE__, OSAtomicCompareAndSwapInt(7, 9, &plain) && plain == 9 && OSAtomicCompareAndSwapLong(8, 10, &along) && along == 10, "CAS Int/Long");
    check(__LINE__, OSAtomicCompareAndSwapPtrBarrier(NULL, &state, &pointer) && pointer == &state, "CAS Ptr");
    check(__LINE__, !OSAtomicTestAndSet(0, bytes) && bytes[0] == 0x80 && !OSAtomicTestAndSet(9, bytes) && bytes[1] == 0x40, "TestAndSet");
    check(__LINE__, OSAtomicTestAndClearBarrier(0, bytes) && bytes[0] == 0, "TestAndClear");
    OSMemoryBarrier();
    state.lock = OS_SPINLOCK_INIT;
    check(__LINE__, OSSpinLockTry(&state.lock) && !OSSpinLockTry(&state.lock), "OSSpinLockTry");
    OSSpinLockUnlock(&state.lock);
    OSSpinLockLock(&state.lock);
    check(__LINE__, state.lock != 0, "OSSpinLockLock");
    OSSpinLockUnlock(&state.lock);
    check(__LINE__, state.lock == 0, "OSSpinLockUnlock");
}

static void checkWorkgroupAndClock(void) {
    os_workgroup_join_token_s token;
    os_workgroup_t group = NULL;
    UInt64 before = AudioGetCurrentHostTime(), after;
    check(__LINE__, os_workgroup_join(group, &token) == EINVAL, "os_workgroup_join without a group");
    os_workgroup_leave(group, &token);
    check(__LINE__, sizeof(token) == 40, "join token size %u", (unsigned)sizeof(token));
    after = AudioGetCurrentHostTime();
    check(__LINE__, after >= before && AudioGetHostClockFrequency() > 0 && AudioGetHostClockMinimumTimeDelta() >= 1, "host clock");
    check(__LINE__, AudioConvertHostTimeToNanos(AudioConvertNanosToHostTime(1000000)) == 1000000, "host time conversions");
}

int main(void) {
    size_t i;
    void *handle = nil;
    int *typed = nil;
    check(__LINE__, handle == NULL && typed == NULL && Nil == NULL, "nil");
    checkVersions();
    checkResultCodes();
    checkAudioUnitTypes();
    checkAAC();
    for (i = 0; i < sizeof(tagCases) / sizeof(tagCases[0]); i++) checkLayout(&tagCases[i]);
    for (i = 0; i < sizeof(countCases) / sizeof(countCases[0]); i++) {
        check(__LINE__, countCases[i].tag == countCases[i].value, "%s is 0x%08X, Apple's value 0x%08X", countCases[i].name,
              (unsigned)countCases[i].tag, (unsigned)countCases[i].value);
    }
    checkHOA();
    checkAtomics();
    checkWorkgroupAndClock();
    if (failures == 0) printf("ok\n");
    return failures == 0 ? 0 : 1;
}
