import Testing
import TrellisTransport

/// A flood of rejections leaves a trace that grows with its logarithm (SPEC §7).
struct RejectionSamplingTests {
    @Test func theFirstSixteenThenEachDoubling() {
        let traced = (1...100_000).filter(RejectionSampling.traces)
        #expect(Array(traced.prefix(16)) == Array(1...16))
        #expect(Array(traced.dropFirst(16)) == [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536])
    }
}
