import CSoxr

/// The quality of sample-rate conversion, in the values of Apple's
/// `kAudioConverterSampleRateConverterQuality` property (`kAudioConverterQuality_Max` 0x7F,
/// `_High` 0x60, `_Medium` 0x40, `_Low` 0x20, `_Min` 0).
///
/// Any value is accepted and maps to the libsoxr recipe of the nearest named quality (a value
/// halfway between two named ones takes the higher):
///
/// | value           | named quality | libsoxr recipe | filter                                   |
/// |-----------------|---------------|----------------|------------------------------------------|
/// | 0x70 and above  | Max (0x7F)    | `SOXR_VHQ`     | 28-bit precision (about −170 dB), linear phase |
/// | 0x50 … 0x6F     | High (0x60)   | `SOXR_HQ`      | 20-bit precision (about −120 dB), linear phase |
/// | 0x30 … 0x4F     | Medium (0x40) | `SOXR_MQ`      | 16-bit, medium roll-off                  |
/// | 0x10 … 0x2F     | Low (0x20)    | `SOXR_LQ`      | 16-bit, larger roll-off                  |
/// | 0x00 … 0x0F     | Min (0)       | `SOXR_QQ`      | cubic interpolation, no anti-alias filter |
///
/// Apple's converter defaults to `kAudioConverterQuality_High` (``high``).
public struct SampleRateConverterQuality: RawRepresentable, Hashable, Sendable {
    /// The property's value (0 … 0x7F for Apple's named qualities).
    public var rawValue: UInt32

    /// The quality whose property value is `rawValue`, named or not.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `kAudioConverterQuality_Max` (0x7F): libsoxr's very high quality (`SOXR_VHQ`).
    public static let max = SampleRateConverterQuality(rawValue: 0x7F)
    /// `kAudioConverterQuality_High` (0x60): libsoxr's high quality (`SOXR_HQ`).
    public static let high = SampleRateConverterQuality(rawValue: 0x60)
    /// `kAudioConverterQuality_Medium` (0x40): libsoxr's medium quality (`SOXR_MQ`).
    public static let medium = SampleRateConverterQuality(rawValue: 0x40)
    /// `kAudioConverterQuality_Low` (0x20): libsoxr's low quality (`SOXR_LQ`).
    public static let low = SampleRateConverterQuality(rawValue: 0x20)
    /// `kAudioConverterQuality_Min` (0): libsoxr's quick cubic interpolation (`SOXR_QQ`).
    public static let min = SampleRateConverterQuality(rawValue: 0)

    /// The named quality nearest to ``rawValue`` (halfway values take the higher one).
    public var nearestNamed: SampleRateConverterQuality {
        switch rawValue {
        case 0x70...: .max
        case 0x50..<0x70: .high
        case 0x30..<0x50: .medium
        case 0x10..<0x30: .low
        default: .min
        }
    }

    /// The libsoxr recipe (`soxr_quality_spec`'s first argument) of ``nearestNamed``.
    var soxrRecipe: UInt {
        switch nearestNamed {
        case .max: UInt(SOXR_28_BITQ)  // SOXR_VHQ
        case .high: UInt(SOXR_20_BITQ)  // SOXR_HQ
        case .medium: UInt(SOXR_MQ)
        case .low: UInt(SOXR_LQ)
        default: UInt(SOXR_QQ)
        }
    }
}
