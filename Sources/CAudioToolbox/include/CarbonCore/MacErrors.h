/*
 * <CarbonCore/MacErrors.h> — the classic Mac OS result codes programs still compare against, with
 * Apple's names and values: the general and I/O system errors (unimpErr, paramErr,
 * userCanceledErr), the File Manager's (eofErr -39, fnfErr -43, ioErr -36, permErr -54, …), the
 * Memory, Resource, Sound, Process and Component Managers'. <CoreServices/CoreServices.h> brings
 * it in, as on a Mac. (noErr is in <MacTypes.h>.)
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __MACERRORS__
#define __MACERRORS__

#include <MacTypes.h>

/* OSStatus-typed where the compiler has enumerations of a fixed type (as noErr), so that Swift
   sees them as OSStatus. */
#if defined(__clang__) || (defined(__cplusplus) && __cplusplus >= 201103L)
    #define __AT_MACERRORS_ENUM __extension__ enum : OSStatus
#else
    #define __AT_MACERRORS_ENUM enum
#endif

/* General and I/O system errors. */
__AT_MACERRORS_ENUM {
    qErr = -1,
    vTypErr = -2,
    corErr = -3,
    unimpErr = -4,
    SlpTypeErr = -5,
    seNoDB = -8,
    controlErr = -17,
    statusErr = -18,
    readErr = -19,
    writErr = -20,
    badUnitErr = -21,
    unitEmptyErr = -22,
    openErr = -23,
    closErr = -24,
    dRemovErr = -25,
    dInstErr = -26,
    abortErr = -27,
    iIOAbortErr = -27,
    notOpenErr = -28,
    unitTblFullErr = -29,
    dceExtErr = -30,
    paramErr = -50,
    userCanceledErr = -128,
};

/* File Manager. */
__AT_MACERRORS_ENUM {
    dirFulErr = -33,
    dskFulErr = -34,
    nsvErr = -35,
    ioErr = -36,
    bdNamErr = -37,
    fnOpnErr = -38,
    eofErr = -39,
    posErr = -40,
    mFulErr = -41,
    tmfoErr = -42,
    fnfErr = -43,
    wPrErr = -44,
    fLckdErr = -45,
    vLckdErr = -46,
    fBsyErr = -47,
    dupFNErr = -48,
    opWrErr = -49,
    rfNumErr = -51,
    gfpErr = -52,
    volOffLinErr = -53,
    permErr = -54,
    volOnLinErr = -55,
    nsDrvErr = -56,
    noMacDskErr = -57,
    extFSErr = -58,
    fsRnErr = -59,
    badMDBErr = -60,
    wrPermErr = -61,
    dirNFErr = -120,
    tmwdoErr = -121,
    badMovErr = -122,
    wrgVolTypErr = -123,
    volGoneErr = -124,
    fidNotFound = -1300,
    fidExists = -1301,
    notAFileErr = -1302,
    diffVolErr = -1303,
    catChangedErr = -1304,
    desktopDamagedErr = -1305,
    sameFileErr = -1306,
    badFidErr = -1307,
    notARemountErr = -1308,
    fileBoundsErr = -1309,
    fsDataTooBigErr = -1310,
    volVMBusyErr = -1311,
    badFCBErr = -1327,
    errFSUnknownCall = -1400,
    errFSBadFSRef = -1401,
    errFSBadForkName = -1402,
    errFSBadBuffer = -1403,
    errFSBadForkRef = -1404,
    errFSBadInfoBitmap = -1405,
    errFSMissingCatInfo = -1406,
    errFSNotAFolder = -1407,
    errFSForkNotFound = -1409,
    errFSNameTooLong = -1410,
    errFSMissingName = -1411,
    errFSBadPosMode = -1412,
    errFSBadAllocFlags = -1413,
    errFSNoMoreItems = -1417,
    errFSBadItemCount = -1418,
    errFSBadSearchParams = -1419,
    errFSRefsDifferent = -1420,
    errFSForkExists = -1421,
    errFSBadIteratorFlags = -1422,
    errFSIteratorNotFound = -1423,
    errFSIteratorNotSupported = -1424,
    errFSQuotaExceeded = -1425,
    errFSOperationNotSupported = -1426,
    errFSAttributeNotFound = -1427,
    errFSPropertyNotValid = -1428,
    errFSNotEnoughSpaceForOperation = -1429,
};

/* Memory Manager. */
__AT_MACERRORS_ENUM {
    memROZWarn = -99,
    memROZError = -99,
    memROZErr = -99,
    memFullErr = -108,
    nilHandleErr = -109,
    memAdrErr = -110,
    memWZErr = -111,
    memPurErr = -112,
    memAZErr = -113,
    memPCErr = -114,
    memBCErr = -115,
    memSCErr = -116,
    memLockedErr = -117,
};

/* Resource Manager. */
__AT_MACERRORS_ENUM {
    badExtResource = -185,
    CantDecompress = -186,
    resourceInMemory = -188,
    writingPastEnd = -189,
    inputOutOfBounds = -190,
    resNotFound = -192,
    resFNotFound = -193,
    addResFailed = -194,
    addRefFailed = -195,
    rmvResFailed = -196,
    rmvRefFailed = -197,
    resAttrErr = -198,
    mapReadErr = -199,
};

/* Sound Manager. */
__AT_MACERRORS_ENUM {
    noHardwareErr = -200,
    notEnoughHardwareErr = -201,
    queueFull = -203,
    resProblem = -204,
    badChannel = -205,
    badFormat = -206,
    notEnoughBufferSpace = -207,
    badFileFormat = -208,
    channelBusy = -209,
    buffersTooSmall = -210,
    channelNotBusy = -211,
    noMoreRealTime = -212,
    siVBRCompressionNotSupported = -213,
    siNoSoundInHardware = -220,
    siBadSoundInDevice = -221,
    siNoBufferSpecified = -222,
    siInvalidCompression = -223,
    siHardDriveTooSlow = -224,
    siInvalidSampleRate = -225,
    siInvalidSampleSize = -226,
    siDeviceBusyErr = -227,
    siBadDeviceName = -228,
    siBadRefNum = -229,
    siInputDeviceErr = -230,
    siUnknownInfoType = -231,
    siUnknownQuality = -232,
};

/* Process Manager. */
__AT_MACERRORS_ENUM {
    procNotFound = -600,
    memFragErr = -601,
    appModeErr = -602,
    protocolErr = -603,
    hardwareConfigErr = -604,
    appMemFullErr = -605,
    appIsDaemon = -606,
};

/* Component Manager. */
__AT_MACERRORS_ENUM {
    invalidComponentID = -3000,
    validInstancesExist = -3001,
    componentNotCaptured = -3002,
    componentDontRegister = -3003,
    unresolvedComponentDLLErr = -3004,
    retryComponentRegistrationErr = -3005,
    badComponentInstance = (int)0x80008001,
    badComponentSelector = (int)0x80008002,
};

#undef __AT_MACERRORS_ENUM

#endif /* __MACERRORS__ */
