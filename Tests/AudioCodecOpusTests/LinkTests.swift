import COpus
import Testing

@Test func libopusLinks() {
    var error: Int32 = 0
    let decoder = opus_decoder_create(48000, 2, &error)
    #expect(decoder != nil && error == OPUS_OK)
    opus_decoder_destroy(decoder)
}
