/*
 * abi_check_cf.h — the part of abi_check.c for <MacTypes.h>, <CoreServices/CoreServices.h> and
 * the CoreFoundation headers: type widths, struct layouts and constants, from Apple's SDK
 * (MacOSX10.15.sdk: MacTypes.h, MacErrors.h, Files.h, CFBase.h, CFByteOrder.h, CFString.h,
 * CFURL.h, CFRunLoop.h, CFDate.h, CFNotificationCenter.h), and System Sound Services' constants
 * (AudioServices.h). Included by abi_check.c, whose check macros it uses.
 *
 * swift-audio-queue. Apache License 2.0.
 */

static void checkMacTypesAndCoreFoundation(void) {
    /* MacTypes.h (LP64). */
    WIDTH(Fixed, 4);
    WIDTH(Fract, 4);
    WIDTH(UnsignedFixed, 4);
    WIDTH(ShortFixed, 2);
    WIDTH(Ptr, 8);
    WIDTH(Handle, 8);
    WIDTH(Size, 8);
    SIGNEDNESS(Size, 1);
    WIDTH(ByteCount, 8);
    SIGNEDNESS(ByteCount, 0);
    WIDTH(ByteOffset, 8);
    WIDTH(ItemCount, 8);
    WIDTH(OptionBits, 4);
    WIDTH(Duration, 4);
    WIDTH(ResType, 4);
    WIDTH(Byte, 1);
    WIDTH(SignedByte, 1);
    SIGNEDNESS(SignedByte, 1);
    WIDTH(UniChar, 2);
    SIGNEDNESS(UniChar, 0);
    WIDTH(UTF32Char, 4);
    WIDTH(UTF8Char, 1);
    WIDTH(UniCharCount, 8);
    WIDTH(Str255, 256);
    WIDTH(Str63, 64);
    WIDTH(Str32, 33);
    WIDTH(Str31, 32);
    WIDTH(Str15, 16);
    WIDTH(StringPtr, 8);
    WIDTH(ConstStr255Param, 8);
    WIDTH(ProcPtr, 8);
    CONST_S32(noErr, 0);
    CONST_U32(kNilOptions, 0);
    CONST_U32(kVariableLengthArray, 1);
    CONST_U32(kUnknownType, 0x3F3F3F3F); /* '????' */
    CONST_S32(TRUE, 1);
    CONST_S32(FALSE, 0);

    /* MacErrors.h, Files.h. */
    CONST_S32(paramErr, -50);
    CONST_S32(fsCurPerm, 0);
    CONST_S32(fsRdPerm, 1);
    CONST_S32(fsWrPerm, 2);
    CONST_S32(fsRdWrPerm, 3);
    CONST_S32(fsRdWrShPerm, 4);

    /* CFBase.h. */
    WIDTH(CFTypeID, 8);
    SIGNEDNESS(CFTypeID, 0);
    WIDTH(CFComparisonResult, 8); /* CF_ENUM(CFIndex, CFComparisonResult) */
    STRUCT(CFRange, 16, 8);
    FIELD(CFRange, location, 0, 8);
    FIELD(CFRange, length, 8, 8);
    CONST_S64(kCFCompareLessThan, -1);
    CONST_S64(kCFCompareEqualTo, 0);
    CONST_S64(kCFCompareGreaterThan, 1);

    /* CFByteOrder.h. */
    WIDTH(CFByteOrder, 8);
    STRUCT(CFSwappedFloat32, 4, 4);
    STRUCT(CFSwappedFloat64, 8, 8);
    CONST_S64(CFByteOrderUnknown, 0);
    CONST_S64(CFByteOrderLittleEndian, 1);
    CONST_S64(CFByteOrderBigEndian, 2);

    /* CFString.h: CF_ENUM(CFStringEncoding, CFStringBuiltInEncodings). */
    WIDTH(CFStringBuiltInEncodings, 4);
    CONST_U32(kCFStringEncodingMacRoman, 0);
    CONST_U32(kCFStringEncodingWindowsLatin1, 0x0500);
    CONST_U32(kCFStringEncodingISOLatin1, 0x0201);
    CONST_U32(kCFStringEncodingNextStepLatin, 0x0B01);
    CONST_U32(kCFStringEncodingASCII, 0x0600);
    CONST_U32(kCFStringEncodingUnicode, 0x0100);
    CONST_U32(kCFStringEncodingNonLossyASCII, 0x0BFF);
    CONST_U32(kCFStringEncodingUTF16, 0x0100);
    CONST_U32(kCFStringEncodingUTF16BE, 0x10000100);
    CONST_U32(kCFStringEncodingUTF16LE, 0x14000100);
    CONST_U32(kCFStringEncodingUTF32, 0x0c000100);
    CONST_U32(kCFStringEncodingUTF32BE, 0x18000100);
    CONST_U32(kCFStringEncodingUTF32LE, 0x1c000100);

    /* CFURL.h, CFRunLoop.h. */
    CONST_S64(kCFURLHFSPathStyle, 1);
    CONST_S32(kCFRunLoopRunStopped, 2);
    CONST_S32(kCFRunLoopRunTimedOut, 3);

    /* CFRunLoop.h timers, CFDate.h, CFNotificationCenter.h (Apple's LP64 layouts and values). */
    STRUCT(CFRunLoopTimerContext, 40, 8);
    FIELD(CFRunLoopTimerContext, version, 0, 8);
    FIELD(CFRunLoopTimerContext, info, 8, 8);
    FIELD(CFRunLoopTimerContext, retain, 16, 8);
    FIELD(CFRunLoopTimerContext, release, 24, 8);
    FIELD(CFRunLoopTimerContext, copyDescription, 32, 8);
    WIDTH(CFAbsoluteTime, 8);
    WIDTH(CFTimeInterval, 8);
    WIDTH(CFNotificationSuspensionBehavior, 8);
    CONST_S64(CFNotificationSuspensionBehaviorDrop, 1);
    CONST_S64(CFNotificationSuspensionBehaviorCoalesce, 2);
    CONST_S64(CFNotificationSuspensionBehaviorHold, 3);
    CONST_S64(CFNotificationSuspensionBehaviorDeliverImmediately, 4);
    CONST_U32(kCFNotificationDeliverImmediately, 1);
    CONST_U32(kCFNotificationPostToAllSessions, 2);
    check("kCFAbsoluteTimeIntervalSince1970", (unsigned long long)kCFAbsoluteTimeIntervalSince1970, 978307200ULL);
    check("kCFAbsoluteTimeIntervalSince1904", (unsigned long long)kCFAbsoluteTimeIntervalSince1904, 3061152000ULL);

    /* AudioServices.h, System Sound Services. */
    WIDTH(SystemSoundID, 4);
    WIDTH(AudioServicesPropertyID, 4);
    CONST_S32(kAudioServicesNoError, 0);
    CONST_S32(kAudioServicesUnsupportedPropertyError, 0x7074793F); /* 'pty?' */
    CONST_S32(kAudioServicesBadPropertySizeError, 0x2173697A);     /* '!siz' */
    CONST_S32(kAudioServicesBadSpecifierSizeError, 0x21737063);    /* '!spc' */
    CONST_S32(kAudioServicesSystemSoundUnspecifiedError, -1500);
    CONST_S32(kAudioServicesSystemSoundClientTimedOutError, -1501);
    CONST_S32(kAudioServicesSystemSoundExceededMaximumDurationError, -1502);
    CONST_U32(kSystemSoundID_UserPreferredAlert, 0x00001000);
    CONST_U32(kSystemSoundID_FlashScreen, 0x00000FFE);
    CONST_U32(kSystemSoundID_Vibrate, 0x00000FFF);
    CONST_U32(kUserPreferredAlert, 0x00001000);
    CONST_U32(kAudioServicesPropertyIsUISound, 0x69737569);                 /* 'isui' */
    CONST_U32(kAudioServicesPropertyCompletePlaybackIfAppDies, 0x69666469); /* 'ifdi' */
}
