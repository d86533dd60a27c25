public import AudioCore
import Locking

/// Which components a search matches, and what a component is (Apple's
/// `AudioComponentDescription`): type, subtype and manufacturer, each 0 to match any, and flags
/// compared under a mask.
public struct AudioComponentDescription: Hashable, Sendable {
    /// `componentType`: `'auou'` for output units, `'aufc'` for format converters, `'aumx'` for mixers.
    public var type: FourCharCode
    /// `componentSubType`: `'def '`, `'ahal'`, `'conv'`, `'mcmx'`, …
    public var subType: FourCharCode
    /// `componentManufacturer`: `'appl'` for every unit this library makes.
    public var manufacturer: FourCharCode
    /// `componentFlags`.
    public var flags: UInt32
    /// `componentFlagsMask`: the bits of ``flags`` a search compares.
    public var flagsMask: UInt32

    /// A description of these fields.
    public init(type: FourCharCode, subType: FourCharCode = FourCharCode(rawValue: 0), manufacturer: FourCharCode = FourCharCode(rawValue: 0), flags: UInt32 = 0, flagsMask: UInt32 = 0) {
        self.type = type
        self.subType = subType
        self.manufacturer = manufacturer
        self.flags = flags
        self.flagsMask = flagsMask
    }

    /// Whether a component described by `component` is one this search description matches.
    public func matches(_ component: AudioComponentDescription) -> Bool {
        (type.rawValue == 0 || type == component.type) && (subType.rawValue == 0 || subType == component.subType)
            && (manufacturer.rawValue == 0 || manufacturer == component.manufacturer)
            && (component.flags & flagsMask) == (flags & flagsMask)
    }

    /// `kAudioUnitType_Output`.
    public static let outputType: FourCharCode = "auou"
    /// `kAudioUnitType_FormatConverter`.
    public static let formatConverterType: FourCharCode = "aufc"
    /// `kAudioUnitType_Mixer`.
    public static let mixerType: FourCharCode = "aumx"
    /// `kAudioUnitManufacturer_Apple`.
    public static let apple: FourCharCode = "appl"

    /// The default output unit (`kAudioUnitSubType_DefaultOutput`): the default output device,
    /// following it when it changes (the sound server moves its stream) or is lost (the unit
    /// starts again on its backend's default).
    public static let defaultOutput = AudioComponentDescription(type: outputType, subType: "def ", manufacturer: apple)
    /// The system output unit (`kAudioUnitSubType_SystemOutput`): the device for alerts and
    /// sound effects, which here is the default output.
    public static let systemOutput = AudioComponentDescription(type: outputType, subType: "sys ", manufacturer: apple)
    /// AUHAL (`kAudioUnitSubType_HALOutput`): any device, output and input.
    public static let halOutput = AudioComponentDescription(type: outputType, subType: "ahal", manufacturer: apple)
    /// The generic output unit (`kAudioUnitSubType_GenericOutput`): no device; the program
    /// pulls its output with a render (offline processing).
    public static let genericOutput = AudioComponentDescription(type: outputType, subType: "genr", manufacturer: apple)
}

/// A kind of audio unit the library can make (Apple's `AudioComponent`): its description, name
/// and version, found with ``findNext(after:matching:)``.
public final class AudioComponent: Sendable {
    /// What the component is.
    public let description: AudioComponentDescription
    /// Its name, as Apple's component is called (`"Apple: AUHAL"`).
    public let name: String
    /// Its version (`AudioComponentGetVersion`).
    public let version: UInt32
    private let make: @Sendable (AudioComponent) -> AudioUnit

    /// A component that makes its units with `make`.
    package init(description: AudioComponentDescription, name: String, version: UInt32 = 0x0001_0000, make: @escaping @Sendable (AudioComponent) -> AudioUnit) {
        var d = description
        d.flags = 2  // kAudioComponentFlag_SandboxSafe, as Apple's own units have it.
        d.flagsMask = 0
        self.description = d
        self.name = name
        self.version = version
        self.make = make
    }

    /// A new instance (`AudioComponentInstanceNew`), uninitialized.
    public func instantiate() -> AudioUnit { make(self) }

    private static let registry = Guarded<[AudioComponent]>(builtIn)

    /// Every component, in search order.
    public static var all: [AudioComponent] { registry.withLock { $0 } }

    /// The first component after `previous` (nil: from the first) that `description` matches
    /// (`AudioComponentFindNext`).
    public static func findNext(after previous: AudioComponent? = nil, matching description: AudioComponentDescription) -> AudioComponent? {
        let list = all
        var start = 0
        if let previous {
            guard let i = list.firstIndex(where: { $0 === previous }) else { return nil }
            start = i + 1
        }
        return list[start...].first { description.matches($0.description) }
    }

    /// The number of components `description` matches (`AudioComponentCount`).
    public static func count(matching description: AudioComponentDescription) -> Int {
        all.filter { description.matches($0.description) }.count
    }

    /// Adds `component` to the search (`AudioComponentRegister`), after those already there.
    package static func register(_ component: AudioComponent) {
        registry.withLock { $0.append(component) }
    }
}
