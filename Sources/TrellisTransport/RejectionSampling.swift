/// Which of a run of rejections a node traces: the first `oneByOne`, then one each time the
/// count doubles. A node fed garbage, or refusing a peer over and over, keeps a trace that
/// grows with the logarithm of the flood, not with the flood (SPEC §7, bounded memory).
package enum RejectionSampling {
    /// How many rejections are traced one by one.
    package static let oneByOne = 16

    /// Whether the `count`-th rejection (counting from 1) is traced.
    package static func traces(_ count: Int) -> Bool {
        count <= oneByOne || count & (count - 1) == 0
    }
}
