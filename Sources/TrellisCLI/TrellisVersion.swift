/// The version `trellis --version` prints.
enum TrellisVersion {
    static let current = "0.18.0"
}
