import CFLAC
import Testing

@Test func libFLACLinks() {
    let decoder = FLAC__stream_decoder_new()
    #expect(decoder != nil)
    FLAC__stream_decoder_delete(decoder)
}
