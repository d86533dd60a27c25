/// The units this library makes, in the order `AudioComponentFindNext` finds them, with the
/// names Apple's components have.
extension AudioComponent {
    static let builtIn: [AudioComponent] = [
        AudioComponent(description: .halOutput, name: "Apple: AUHAL") { AudioOutputUnit(component: $0, kind: .hal) },
        AudioComponent(description: .defaultOutput, name: "Apple: DefaultOutputUnit") { AudioOutputUnit(component: $0, kind: .defaultOutput) },
        AudioComponent(description: .systemOutput, name: "Apple: SystemOutputUnit") { AudioOutputUnit(component: $0, kind: .systemOutput) },
        AudioComponent(description: .genericOutput, name: "Apple: GenericOutput") { AudioOutputUnit(component: $0, kind: .generic) },
        AudioComponent(description: .converter, name: "Apple: AUConverter") { AUConverter(component: $0) },
        AudioComponent(description: .multiChannelMixer, name: "Apple: AUMultiChannelMixer") { MultiChannelMixer(component: $0) },
    ]
}
